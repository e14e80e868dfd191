-- `print` shows tables and functions as the prompt does: keys sorted, nested tables indented,
-- functions by where they were defined — never an address, so a golden holds.
bl.load("reference_1d.toml")
local hero = bl.spawn("hero", { blend_tree = "abc" })
hero:set("x", 2)
bl.frames(1)
print(hero:weights())
print("weights:", hero:weights(), "at", bl.time())
print({ "a", "b", nested = { deeper = { 1, 2, 3 } }, [10] = true })
local cycle = {}
cycle.self = cycle
print(cycle)
print(print, function() end)
print(hero, hero:playback())
print(1, 1.0, 0.1, nil, true, "text")
