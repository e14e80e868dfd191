-- REFERENCE §2.5 on a live actor: barycentric weights inside a triangle, the closest edge
-- point outside them.
bl.load("blend_triangulated.toml")

local function at(actor, x, y)
  actor:set("x", x)
  actor:set("y", y)
  bl.frames(1)
  return actor:weights()
end

local d = bl.spawn("d", { blend_tree = "diamond" })
local w = at(d, 0.25, 0.25)
bl.near(w.idle, 0.5, 1e-12, "inside: idle")
bl.near(w.fwd, 0.25, 1e-12, "inside: fwd")
bl.near(w.right, 0.25, 1e-12, "inside: right")
print(d:explain())

w = at(d, 1, 1)
bl.near(w.fwd, 0.5, 1e-12, "outside: fwd")
bl.near(w.right, 0.5, 1e-12, "outside: right")
print(d:explain())

w = at(d, 2, 0.5)
bl.near(w.right, 1, 0, "outside, past the corner")
w = at(d, 0, 1)
bl.near(w.fwd, 1, 0, "on a child")
print(d:explain())

-- The square: Delaunay's choice and the pinned one differ at (0.5, 0.25).
local s = bl.spawn("s", { blend_tree = "square" })
local p = bl.spawn("p", { blend_tree = "square_pinned" })
w = at(s, 0.5, 0.25)
bl.near(w.back, 0.5, 1e-12, "Delaunay's split")
print(s:explain())
w = at(p, 0.5, 0.25)
bl.near(w.back, 0.25, 1e-12, "the pinned split")
print(p:explain())

local pair = bl.spawn("pair", { blend_tree = "pair" })
w = at(pair, 3, 0.5)
bl.near(w.idle, 0.75, 1e-12, "a quarter of the way along the segment")
print(pair:explain())
