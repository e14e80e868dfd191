-- REFERENCE §2.3 on a live actor: gradient bands over two independent axes. `speed` goes
-- through a curve (0 → 0, 2 → 1), so speed 1 blends at y = 0.5.
bl.load("blend_freeform_cartesian.toml")
local a = bl.spawn("a", { blend_tree = "square" })

local function at(lean, speed)
  a:set("lean", lean)
  a:set("speed", speed)
  bl.frames(1)
  return a:weights()
end

local cases = {
  { 0.25, 1.0, { 1 / 3, 1 / 6, 1 / 3, 1 / 6 } },
  { 0.5, 1.0, { 0.25, 0.25, 0.25, 0.25 } },
  { 1.5, 1.0, { 0, 0.5, 0, 0.5 } },
}
local names = { "lean_left_slow", "lean_right_slow", "lean_left_fast", "lean_right_fast" }
for _, case in ipairs(cases) do
  local w = at(case[1], case[2])
  for i, name in ipairs(names) do
    bl.near(w[name], case[3][i], 1e-12, string.format("%s at lean %g", name, case[1]))
  end
  print(a:explain())
end

-- A grid over lean × speed; the inputs are the raw values, the curve applies as for an actor.
local grid = bl.sweep("square", { x = "lean", y = "speed" }, { 0, 1, 2 }, { 0, 2, 2 })
print(grid:table())
bl.expect(#grid == 9, "3 × 3 rows")
bl.near(grid[5].weights.lean_left_slow, 0.25, 1e-12, "the centre of the square")
bl.expect(grid[5].inputs.lean == 0.5 and grid[5].inputs.speed == 1, "row 5 is the middle of both axes")

-- The same rows as CSV, written through a temporary file and read back.
local path = os.tmpname()
bl.expect(grid:csv(path) == path, "csv returns the path written")
local file = assert(io.open(path))
io.write(file:read("a"))
file:close()
os.remove(path)
