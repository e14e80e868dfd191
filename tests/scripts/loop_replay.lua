bl.rate(10)
bl.load("loop_replay.toml")
local c = bl.spawn("c", { timeline = "combo" })
bl.frames(12)
for _, e in ipairs(bl.events({ kind = "clip_begin" })) do
  print(string.format("frame %2d local %d begin %s", e.frame, e.local_frame, e.clip))
end
print(c:playback():state())
