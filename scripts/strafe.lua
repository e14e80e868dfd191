-- Tuning a strafe set: the 2D freeform directional sample, driven like a stick.
--   cargo run --release -- run scripts/strafe.lua

bl.load("../samples/strafe.toml")
local hero = bl.spawn("hero", { blend_tree = "strafe" })

-- Push the stick forward-right; smoothing (0.1 s) brings the blend input there.
print("1. The stick pushed forward-right (0.4, 1.2): between walk and run, leaning right.")
print("   explain() shows why: each child's gradient band and the neighbour that limits it.")
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
print("\n2. A wobble of (0.06, -0.07) is inside the radial dead zone (0.1): all strafe_idle.")

-- How does the forward blend change with speed? A sweep along y, straight ahead.
print("\n3. A sweep straight ahead, y from 0 to 2: idle hands over to walk, then to run.")
print(bl.sweep("strafe", { x = "move_x", y = "move_y" }, { 0, 0, 0 }, { 0, 2, 8 }))

-- Across the front at y = 1, from forward-right to forward-left: symmetric, as it should be.
print("\n4. Across the front at y = 1, x from 1 to -1: the left and right columns mirror.")
local around = bl.sweep("strafe", { x = "move_x", y = "move_y" }, { 1, -1, 4 }, { 1, 1, 0 })
print(around)
