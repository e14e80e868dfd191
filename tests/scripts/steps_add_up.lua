-- Steps add up to the frame times they reach, however many and however cut. Each step
-- rounds its seconds to whole ticks (1e-12 s): 1/60 s is a third of a tick more than its
-- ticks, so 60 000 steps of it once drifted 20 ns past frame 60 000, and a step 10 ns short
-- of the next frame ran it. A step that passes a frame time by at most 1 ns now stops at
-- it, as one that falls short of one by at most 1 ns is taken to reach it.
for _ = 1, 59999 do
  bl.step(1 / 60)
end
print("59 999 steps of 1/60 s", bl.frame(), string.format("%.12f", bl.time()))
bl.step(1 / 60 - 1e-8)
print("10 ns short of the next frame", bl.frame(), string.format("%.12f", bl.time()))
bl.step(1e-8)
print("and the 10 ns", bl.frame(), string.format("%.12f", bl.time()))
