-- A playback that does not loop, started past its timeline's end (frames given as seconds,
-- say), shows nothing: a warning says so at the call. A looping one wraps: no warning.
bl.rate(30)
bl.load("play_past_end.toml")
local x = bl.spawn("x", { graph = "g" })
local once = x:play("once", { layer = "a", from = 10 })
local held = x:play("held", { layer = "b", from = 3 })
local looped = x:play("looped", { layer = "c", from = 10 })
-- At the end as written (the duration is a tick shorter): no warning. It replaces `once`.
local inside = x:play("once", { layer = "a", from = 2.5 })
bl.frames(1)
print(once:state(), held:state(), looped:state(), inside:state())
for _, e in ipairs(bl.events({ kind = "warning" })) do
  print("warning: " .. e.message)
end
