-- Tuning a strafe set: the 2D freeform directional sample, driven like a stick.
--   cargo run --release -- run scripts/strafe.lua

bl.load("../samples/strafe.toml")
local hero = bl.spawn("hero", { blend_tree = "strafe" })

-- Push the stick forward-right; smoothing (0.1 s) brings the blend input there.
hero:set("move_x", 0.4)
hero:set("move_y", 1.2)
bl.step(0.5)
print(hero:table())
print(hero:explain())

-- Every weight stays in [0, 1] and they sum to 1: freeform directional guarantees it.
local sum = 0
for _, w in pairs(hero:weights()) do
  bl.expect(w >= 0 and w <= 1, "weights are in [0, 1]")
  sum = sum + w
end
bl.near(sum, 1, 1e-12, "weights sum to 1")

-- A small stick wobble inside the radial dead zone (0.1) reads as centred.
hero:set("move_x", 0.06)
hero:set("move_y", -0.07)
bl.step(1.0)
bl.near(hero:weights().strafe_idle, 1, 0, "inside the dead zone: idle")

-- How does the forward blend change with speed? A sweep along y, straight ahead.
print(bl.sweep("strafe", { x = "move_x", y = "move_y" }, { 0, 0, 0 }, { 0, 2, 8 }))

-- Across the front at y = 1, from forward-right to forward-left: symmetric, as it should be.
local around = bl.sweep("strafe", { x = "move_x", y = "move_y" }, { 1, -1, 4 }, { 1, 1, 0 })
print(around)
