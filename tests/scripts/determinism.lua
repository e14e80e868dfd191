-- The same script prints the same output in every run, in every process: Lua's string hashes
-- start from a fixed seed (the build fixes `luai_makeseed`), so `pairs` walks string keys in
-- the same order, and `math.random` starts from the same seed. This golden was written by
-- another process; without the fixed seeds both lines below change from run to run.
local keys = {}
for i = 1, 24 do keys["clip_" .. i] = i end
local order = {}
for k in pairs(keys) do order[#order + 1] = k end
print("pairs:  " .. table.concat(order, " "))
print(string.format("random: %d %d %.17g", math.random(1000000), math.random(1000000), math.random()))
