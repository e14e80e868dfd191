-- `run --partition-check` also runs a script's steps merged into giant steps, where no Lua of
-- the script runs between them, and adds their seconds up as numbers. 8 106 steps of 0.9 s at
-- 10 Hz are exactly 72 954 frames, and 7 295.4 s; added up by a running sum they fell a
-- nanosecond short of that frame's time, and the check reported that the giant step ran one
-- frame fewer than the steps as written, in a script whose clock is exact.
bl.rate(10)
for _ = 1, 8106 do
  bl.step(0.9)
end
print("8 106 steps of 0.9 s", bl.frame(), string.format("%.12f", bl.time()))
