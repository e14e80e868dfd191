-- A script that exits right after a step: a giant plan holds the step until `os.exit`, which
-- must run it first, as the script as written did. `arg[1]` is the exit code.
bl.load("../../samples/locomotion.toml")
local hero = bl.spawn("hero", { blend_tree = "locomotion" })
hero:set("speed", 1)
bl.step(0.5)
os.exit(tonumber(arg[1]))
