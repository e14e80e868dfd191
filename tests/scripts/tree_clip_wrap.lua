-- A normalized blend tree played by a timeline clip follows the clip's local time: its phase
-- is local / cycle (cycle = 0.5·1 + 0.5·2 = 1.5 s), and where the local time goes back (here
-- a looping post-extrapolation, REFERENCE §3.4) the phase starts over. At t = 2.0 the local
-- time wraps to exactly 0, and the leaves kept the previous frame's times (0.6 and 1.2).
bl.rate(10)
bl.load("tree_clip_wrap.toml")
local actor = bl.spawn("actor", { timeline = "looped" })
for _ = 1, 22 do
  bl.frames(1)
  local t = actor:playback():time()
  if t > 0.85 and t < 1.15 or t > 1.85 and t < 2.15 then
    print(string.format("t %.1f  k/a %.6f  k/b %.6f", t, actor:time("k/a"), actor:time("k/b")))
  end
end
bl.near(actor:time("k/a"), 0.2 / 1.5 * 1.0, 1e-12, "phase 0.2/1.5 on a")
