-- A script whose result depends on how its steps are cut, with nothing but blendlab in the
-- frames: the clock rounds each step's seconds to ticks (1e-12 s; REFERENCE §1), so a step
-- shorter than half a tick moves it not at all, while thirty of them as one step move it 12
-- ticks — enough here to bring the clock within 1 ns (where it snaps) of frame 1's time.
-- Only the giant plan merges them, and `run --partition-check` must say the clock differs.
bl.step(1 / 60 - 1.010e-9)
for _ = 1, 30 do
  bl.step(0.4e-12)
end
