-- A tree inside a tree: the inner weights multiply into the outer child weight.
-- `ground` uses sync = "none": each clip advances by dt and loops at its own length.
bl.load("../config/ok/nested.toml")
local a = bl.spawn("a", { blend_tree = "ground" })
a:set("speed", 0.75)
a:set("effort", 0.25)
bl.frames(30)
print(a:table())
local w = a:weights()
bl.near(w.walk, 0.5, 1e-12)
bl.near(w.run, 0.5 * 0.75, 1e-12)
bl.near(w.sprint, 0.5 * 0.25, 1e-12)
bl.near(a:time("sprint"), 0.5 % 0.6, 1e-9, "sprint wraps at 0.6 s")
bl.near(a:time("run"), 0.5 % 0.8, 1e-9)
