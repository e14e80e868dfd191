-- REFERENCE §2.1: thresholds [0, 1, 3]; children sorted by threshold whatever the file order.
bl.load("reference_1d.toml")
local t = bl.spawn("t", { blend_tree = "abc" })
local cases = {
  { -1, { a = 1, b = 0, c = 0 } },
  { 0.25, { a = 0.75, b = 0.25, c = 0 } },
  { 2, { a = 0, b = 0.5, c = 0.5 } },
  { 5, { a = 0, b = 0, c = 1 } },
  { 1, { a = 0, b = 1, c = 0 } },
}
for _, case in ipairs(cases) do
  t:set("x", case[1])
  bl.frames(1)
  local w = t:weights()
  for leaf, want in pairs(case[2]) do
    bl.near(w[leaf], want, 1e-12, string.format("%s at x=%g", leaf, case[1]))
  end
  print(string.format("x=%5.2f  a=%.6f b=%.6f c=%.6f  output=%.6f", case[1], w.a, w.b, w.c, t:output_weight()))
end
print(t:table())
