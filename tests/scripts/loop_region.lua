-- A looping timeline replays from the clip marked `loop = true` (L = 0.2 s, its start): the
-- first pass runs [0, D), every later pass [L, D), so the windup, the `ready` marker at 0 and
-- local frames 0–1 happen once, while the swing, `impact` and the whoosh task repeat every
-- 0.3 s. The task lifecycle follows the timeline's own time: a task runs only while that time
-- is inside its frames, and begins again when the timeline loops.
bl.rate(10)
bl.load("loop_region.toml")
local c = bl.spawn("c", { timeline = "combo" })
local f = bl.spawn("f", { timeline = "idle_fidget" })
local shown = #bl.events()
local function show()
  local all = bl.events()
  local line = {}
  for k = shown + 1, #all do
    local e = all[k]
    if e.kind == "clip_begin" or e.kind == "clip_finish" then
      line[#line + 1] = string.format("%s %s@%d", e.kind, e.clip, e.local_frame)
    elseif e.kind == "signal" then
      line[#line + 1] = "signal " .. e.name
    elseif e.kind == "timeline_looped" then
      line[#line + 1] = string.format("%s looped %d", e.timeline, e.count)
    end
  end
  shown = #all
  return table.concat(line, ", ")
end
print("frame  combo: time local windup swing | fidget: time local")
for _ = 1, 12 do
  bl.frames(1)
  local pc, pf, w = c:playback(), f:playback(), c:weights()
  print(string.format("%5d  %.1f %2d  %.0f %.0f | %.1f %2d  %s", bl.frame(), pc:time(), pc:frame(),
    w.windup or 0, w.swing or 0, pf:time(), pf:frame(), show()))
end
print("-- a seek in a later pass stays in the loop region")
print(pcall(function() c:playback():seek(0.1) end))
c:playback():seek(0.4)
print(string.format("time %.1f", c:playback():time()), show())
