-- bl.sweep: a tree's weights over a parameter range, without an actor. Values are taken as
-- settled (no smoothing); the dead zone and the curve apply as they do for an actor.
bl.load("../../samples/locomotion.toml")
local s = bl.sweep("locomotion", "speed", 0, 1, 4)
print(s:table())
bl.expect(#s == 5 and s.tree == "locomotion", "5 rows of locomotion")
bl.expect(s.parameters[1] == "speed" and #s.leaves == 3, "columns")
bl.near(s[2].weights.idle, 0.5, 1e-12, "speed 0.25: halfway from idle to walk")
bl.near(s[4].inputs.speed, 0.75, 0, "row 4 is speed 0.75")
bl.expect(s[1].coverage == 1 and s[1].weights["<default>"] == nil, "a 1d tree covers the whole pose")

-- speed has dead_zone 0.05: 0.04 reads as 0.
local dz = bl.sweep("locomotion", "speed", 0.04, 0.06, 2)
print(dz)
bl.near(dz[1].weights.idle, 1, 0, "inside the dead zone")

-- The rows are plain tables; editing them does not change what the sweep prints.
s[1].weights.idle = 42
bl.expect(tostring(s) == s:table(), "tostring prints the table")
bl.expect(not tostring(s):find("42"), "the printed table comes from the evaluation")

-- Mistakes are located errors with a did-you-mean, and nothing is evaluated.
local function fails(...)
  local ok, message = pcall(bl.sweep, ...)
  bl.expect(not ok, "should fail")
  print(message)
end
fails("locomotoin", "speed", 0, 1, 4)
fails("locomotion", "sped", 0, 1, 4)
fails("locomotion", "speed", 0, 1, 2.5)
fails("locomotion", "speed", 0, 0 / 0, 2)
fails("locomotion", "speed", 0, 1, 1000000)
fails("locomotion", "speed", 0, 1, 0)
fails("locomotion", { x = "speed", y = "speed" }, { 0, 1, 2 }, { 0, 1, 0 })
print(#bl.sweep("locomotion", "speed", 0.5, 0.5, 0), "row for 0 steps from 0.5 to 0.5")
fails("locomotion", { x = "speed" }, { 0, 1, 2 }, { 0, 1, 2 })
fails("locomotion", "speed")
fails("locomotion", "speed", 0, 1e7, 2)
fails("locomotion", { x = "speed", y = "speed", z = "speed" }, { 0, 1, 2 }, { 0, 1, 2 })
fails("locomotion", { x = "speed", Y = "speed" }, { 0, 1, 2 }, { 0, 1, 2 })
fails("locomotion", { x = "speed", y = "speed" }, { 0, 1, 2, "junk" }, { 0, 1, 2 })
local ok, message = pcall(function() return s:csv("no/such/folder/out.csv") end)
bl.expect(not ok, "an unwritable path fails")
print((message:gsub("No such file or directory %(os error 2%)", "<not found>")))
-- A name a sweep has neither as a field nor as a method is an error with a did-you-mean, as
-- a handle's (it read nil: `s:csvv(…)` failed as "attempt to call a nil value").
print(select(2, pcall(function() return s:csvv("out.csv") end)))
print(select(2, pcall(function() return s.tre end)))
print(s[#s + 1], "past the last row, as in any table")
