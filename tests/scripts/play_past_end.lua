-- A playback that does not loop, started past its timeline's end (frames given as seconds,
-- say), shows nothing: a warning says so at the call. A looping one wraps: no warning.
-- `from_frame` past the end is the same start past the end (a warning too); its task clips
-- never begin, and the trace calls them skipped, the playback at its last frame.
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

print("-- task clips end at frame 9 (1.0 s): from_frame 10 is at the end, 12 and 50 s past it")
local y = bl.spawn("y", { graph = "g" })
for _, options in ipairs({ { from_frame = 10 }, { from_frame = 12 }, { from = 50 } }) do
  local p = y:play("tasks", { layer = "d", from_frame = options.from_frame, from = options.from })
  local before = p:frame()
  bl.frames(1)
  print(string.format("from_frame %s from %s: local frame %d then %d, %s", tostring(options.from_frame),
    tostring(options.from), before, p:frame(), p:state()))
end
print(y:trace())
print(#bl.events({ actor = "y", kind = "clip_begin" }) .. " clip_begin")
