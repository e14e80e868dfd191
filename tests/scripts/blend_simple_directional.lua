-- REFERENCE §2.2 on a live actor: the directions either side of the input and the centre.
bl.load("blend_simple_directional.toml")
local a = bl.spawn("a", { blend_tree = "cross" })

local function at(actor, x, y)
  actor:set("move_x", x)
  actor:set("move_y", y)
  bl.frames(1)
  return actor:weights()
end

local w = at(a, 0.3, 0.6)
bl.near(w.idle, 0.1, 1e-12, "idle at (0.3, 0.6)")
bl.near(w.walk_f, 0.6, 1e-12, "forward at (0.3, 0.6)")
bl.near(w.walk_r, 0.3, 1e-12, "right at (0.3, 0.6)")
print(a:explain())

w = at(a, 2, 2)
bl.near(w.walk_f, 0.5, 1e-12, "forward at (2, 2)")
bl.near(w.walk_r, 0.5, 1e-12, "right at (2, 2)")
bl.near(w.idle, 0, 1e-12, "c < 0 is clamped to 0")
print(a:table())

-- The radial dead zone: |(0.06, 0.07)| ≈ 0.092 < 0.1 reads as (0, 0), so idle takes it all.
w = at(a, 0.06, 0.07)
bl.near(w.idle, 1, 0, "inside the dead zone")
print(a:explain())

-- Without a centre child everyone shares c: halfway out to the front, c = 0.5.
local r = bl.spawn("r", { blend_tree = "ring" })
w = at(r, 0, 0.5)
bl.near(w.walk_f, 0.5 + 0.125, 1e-12, "forward plus its share of c")
bl.near(w.walk_b, 0.125, 1e-12, "back gets only its share of c")
print(r:explain())

-- Forward and back only, input to the right: the neighbours are exactly opposite, so the
-- centre takes everything (ours; Unity divides by zero here).
local l = bl.spawn("l", { blend_tree = "line" })
w = at(l, 1, 0.5)
bl.near(w.idle, 1, 0, "opposite neighbours")
print(l:explain())

-- A sweep across the front: from left through forward to right at y = 1.
print(bl.sweep("cross", { x = "move_x", y = "move_y" }, { -1, 1, 4 }, { 1, 1, 0 }))
