-- A timeline layer's share is rewritten every frame, changed or not: r = 0.5 × (1 − lean)
-- whatever the layers around it do — a transition below adding the leaf `b` (the graph's
-- leaves listed again), the direct tree above it covering 0.5, then 0.2. Its clip was
-- settled at weight 1, and r read 0 after the transition, 1 beside a lean of 0.5.
bl.load("timeline_scale.toml")
local h = bl.spawn("h", { graph = "g" })
local function show(what)
  local w, sum = h:weights(), 0
  for _, v in pairs(w) do sum = sum + v end
  print(string.format("%-24s r %.4f  a %.4f  b %.4f  lean %.4f  <default> %.4f  sum %.4f", what, w.r, w.a or 0,
    w.b or 0, w.lean, w["<default>"] or 0, sum))
end
bl.frames(2)
show("at rest")
h:transition("base", "b", 0.5)
bl.frames(1)
show("transition begun")
bl.frames(30)
show("transition done")
h:set("lean", 0.5)
bl.frames(1)
show("lean 0.5")
h:set("lean", 0.2)
bl.frames(1)
show("lean 0.2")
