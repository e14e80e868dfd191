-- Inside one frame, an actor's playback lifecycle comes before its graph weights (REFERENCE
-- §1): a fade that reaches α = 1 on the frame a task begins commits after the task's
-- `clip_begin` (and its command), although its transition layer is below the timeline layer.
bl.rate(30)
bl.load("event_order.toml")
local h = bl.spawn("h", { graph = "g" })
h:transition("action", "run", 0.1)
bl.frames(4)
local kinds = {}
for _, e in ipairs(bl.events({ actor = "h" })) do
  if e.frame == 3 then
    print(string.format("frame %d %s", e.frame, e.kind))
    kinds[#kinds + 1] = e.kind
  end
end
bl.expect(kinds[#kinds] == "transition_committed", "the commit is the frame's last event")
