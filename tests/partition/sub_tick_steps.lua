-- Steps shorter than a tick, with nothing but blendlab in the frames: the clock rounds each
-- step's seconds to whole ticks (1e-12 s; REFERENCE §1) with the fraction the steps before
-- it left over, so thirty steps of 0.4 ticks move it 12 ticks, as one step of their seconds
-- does — here enough to bring the clock within 1 ns (where it snaps) of frame 1's time. Once
-- each such step was lost, and only the giant plan, which merges them, moved the clock:
-- `run --partition-check` must now say that every plan agrees.
bl.step(1 / 60 - 1.010e-9)
for _ = 1, 30 do
  bl.step(0.4e-12)
end
print(bl.frame())
