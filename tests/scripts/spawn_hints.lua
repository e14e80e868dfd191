-- A spawn that names no asset says why: nothing loaded yet, or the spec's key names the
-- wrong kind of asset (a graph given as a blend tree, …).
local function try(label, spec)
  local ok, message = pcall(bl.spawn, "x", spec)
  print(label .. ": " .. (ok and "ok" or message))
end
try("before any load", { blend_tree = "moving" })
bl.load("graph_layers.toml")
try("a graph as a blend tree", { blend_tree = "hero" })
try("a blend tree as a graph", { graph = "moving" })
try("a timeline as a graph", { graph = "greet" })
try("a near spelling", { graph = "heor" })
