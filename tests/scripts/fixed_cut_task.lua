-- A timeline that completes before a task clip ends (a `fixed` duration of 0.5 s, frame 5,
-- under a lock of frames 0-9, `wrap = "none"`): the load warns that the task is cut; at the
-- completion the lock gets Interrupt (released) and then the flow task its Dispose, as at any
-- playback's end. Started past that end (`from_frame = 7`), no task begins and the local
-- frame stays at frame 5, where the playback ends.
bl.rate(10)
bl.load("fixed_cut_task.toml")
for _, e in ipairs(bl.events({ kind = "warning" })) do
  print("warning: " .. e.message)
end

local h = bl.spawn("h", { graph = "g" })
local p = h:play("fixed", { layer = "x" })
bl.frames(8)
for _, e in ipairs(bl.events({ actor = "h" })) do
  if e.kind ~= "command" and e.kind ~= "clip_tick" then
    print(string.format("f%d %s %s %s", e.frame, e.kind, e.clip or e.timeline or "", e.local_frame or ""))
  end
end
print(p:state(), p:frame(), h:locked())
print(h:trace())

print("-- from_frame 7, past the end at frame 5")
local g = bl.spawn("g", { graph = "g" })
local q = g:play("fixed", { layer = "x", from_frame = 7 })
local before = q:frame()
bl.frames(1)
print(before, q:frame(), q:state(), g:locked(), #bl.events({ actor = "g", kind = "clip_begin" }) .. " clip_begin")

