-- REFERENCE §2.4 on a live actor: polar gradient bands. Halfway between walk and run
-- forward, the two share the blend and their cycles stay in phase (normalized sync).
bl.load("blend_freeform_directional.toml")
local a = bl.spawn("a", { blend_tree = "polar" })

local function at(actor, x, y)
  actor:set("x", x)
  actor:set("y", y)
  bl.frames(1)
  return actor:weights()
end

local w = at(a, 0, 1.5)
bl.near(w.walk_f, 0.5, 1e-12, "walk forward at (0, 1.5)")
bl.near(w.run_f, 0.5, 1e-12, "run forward at (0, 1.5)")
print(a:explain())

-- Thirty frames later both forward clips are at the same phase: walk (1 s) and run (0.6 s)
-- share a weighted cycle of 0.8 s.
bl.frames(30)
print(a:table())
bl.near(a:time("walk_f") / 1.0, a:time("run_f") / 0.6, 1e-12, "walk and run in phase")
bl.near(a:time("walk_f"), (31 / 60) / 0.8 % 1, 1e-9, "phase = elapsed / weighted cycle")

-- Diagonally forward-right, between idle, walk, run and strafe.
w = at(a, 0.4, 0.8)
local sum = 0
for _, v in pairs(w) do
  bl.expect(v >= 0, "weights are never negative")
  sum = sum + v
end
bl.near(sum, 1, 1e-12, "weights sum to 1")
print(a:explain())

-- The centre: idle takes everything.
w = at(a, 0, 0)
bl.near(w.idle, 1, 0, "idle at (0, 0)")

-- Without a centre child the origin has no answer of its own: every child gets 1/n.
local h = bl.spawn("h", { blend_tree = "hollow" })
w = at(h, 0, 0)
bl.near(w.walk_f, 1 / 3, 1e-12, "1/n at (0, 0) without a centre child")
print(h:explain())
