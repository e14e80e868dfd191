-- Steps add up to the frame times they reach, however many and however cut. Each step
-- rounds its seconds to whole ticks (1e-12 s): 1/60 s is a third of a tick more than its
-- ticks, so 60 000 steps of it once drifted 20 ns past frame 60 000, and a step 10 ns short
-- of the next frame ran it. Each step now carries the fraction of a tick it rounded away
-- into the next, so steps end where their seconds add up to.
for _ = 1, 59999 do
  bl.step(1 / 60)
end
print("59 999 steps of 1/60 s", bl.frame(), string.format("%.12f", bl.time()))
bl.step(1 / 60 - 1e-8)
print("10 ns short of the next frame", bl.frame(), string.format("%.12f", bl.time()))
bl.step(1e-8)
print("and the 10 ns", bl.frame(), string.format("%.12f", bl.time()))
