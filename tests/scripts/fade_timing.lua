-- A fade's time comes from the clock's frame indices, never from a sum of frame lengths
-- (REFERENCE §1, §5): at 60 Hz a fade of d seconds reaches α = 1 exactly d·60 frames after
-- it began, and commits on that frame (completion_delay 0). A sum of thirty 1/60 s is
-- 0.49999999999999989, one frame short of the end of a 0.5 s fade.
bl.load("tasks.toml")

print("-- begun between frames: α = (t_now − t_began) / d in ticks, 1 on the last frame")
for _, d in ipairs({ 0.1, 0.2, 0.25, 0.5, 1.0 }) do
  local pose = bl.spawn("pose" .. d, { graph = "pose" })
  local frames = math.floor(d * 60 + 0.5)
  local began = bl.frame()
  pose:transition("base", "run", d)
  bl.frames(frames - 1)
  local before = pose:weights().run
  bl.frames(1)
  local committed = bl.events({ actor = "pose" .. d, kind = "transition_committed" })
  print(string.format("  d=%-4s %2d frames: α %.17g one frame before, %.17g at the end; committed %d frames after it began",
    d, frames, before, pose:weights().run, committed[1].frame - began))
  bl.expect_weights(pose, { idle = 0, run = 1 }, 0)
end

print("-- begun inside a frame (a callback at its time): α is 0 at that frame, the fade's first instant")
local cue = bl.spawn("cue", { graph = "pose" })
local at = bl.time() + 0.5
bl.at(at, function() cue:transition("base", "run", 0.1) end)
bl.step(0.5)
print(string.format("  at t=%.3f: α %.17g", bl.time(), cue:weights().run))
bl.frames(6)
print(string.format("  6 frames later: α %.17g, state %s", cue:weights().run, cue:arbiter("base").state))
bl.expect_event { kind = "transition_committed", actor = cue, between = { at + 0.1, at + 0.1 } }
