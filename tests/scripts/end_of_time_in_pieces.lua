-- The end of time. A step to exactly 1e6 s, the last time blendlab accepts, gets there
-- however it is cut: each piece of a step rounds to whole ticks (1e-12 s), so pieces of it
-- add up to a few ticks past the end, and the clock snaps down to it, as it snaps up to a
-- frame time within 1 ns below one. `run --partition-check` cuts this step at random; it
-- once refused the last piece ("the clock would pass the 1e6 s").
bl.load("end_of_time_in_pieces.toml")
bl.rate(1)
bl.catch_up_budget(math.maxinteger)
local s = bl.spawn("s", { timeline = "long" })
bl.step(1e6)
-- The playback's time is 1 ns, not 0: a timeline's duration is its last clip's end less a
-- tick (REFERENCE §3, as Unity's), so its 1000 passes end 1000 ticks before the clock does.
print("the end of time", bl.time(), bl.frame(), s:playback():time(), s:weights().pose)
local ok, err = pcall(bl.step, 1e-6)
print("a microsecond more", ok, err)
