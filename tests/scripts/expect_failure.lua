-- A failed expectation ends the run with exit 1 and names this file and line.
bl.load("reference_1d.toml")
local t = bl.spawn("t", { blend_tree = "abc" })
t:set("x", 0.5)
bl.frames(1)
bl.expect(t:weights().a > 0, "a has weight")
bl.near(t:weights().a, 0.6, 1e-6, "a at x=0.5")
print("not reached")
