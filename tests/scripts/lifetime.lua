-- A playback completes after processing its lifetime, the largest end frame of any of its
-- clips (REFERENCE §4): the 2 s animation P outlives the task T (frames 0–5), and the
-- playback completes after frame 19, P's last, in frames or in seconds alike.
bl.rate(10)
bl.load("lifetime.toml")
for _, name in ipairs({ "in_frames", "in_seconds" }) do
  local actor = bl.spawn(name, { timeline = name })
  local playback = actor:playback()
  for _, frames in ipairs({ 10, 9, 1 }) do
    bl.frames(frames)
    print(string.format("%-10s frame %2d: %-8s local frame %2d  P %.0f  <default> %.0f", name, bl.frame(),
      playback:state(), playback:frame(), actor:weights().P or 0, actor:weights()["<default>"] or 0))
  end
  for _, e in ipairs(bl.events({ actor = name })) do
    if e.kind == "clip_finish" or e.kind == "timeline_complete" or e.kind == "playback_complete" then
      print("", e.frame, e.kind, e.clip or e.timeline)
    end
  end
end
