-- A broken config never replaces a good one: every problem is reported, the library stays.
print(table.concat(bl.load("reference_1d.toml"), " "))
local ok, message = pcall(function() bl.load("../config/err/five_mistakes.toml") end)
print(ok, message)
ok, message = pcall(function() bl.load("does_not_exist.toml") end)
print(ok, message)
local t = bl.spawn("t", { blend_tree = "abc" })
t:set("x", 0.5)
bl.frames(1)
print(t:table())
for _, e in ipairs(bl.events()) do
  print(e.frame, e.kind, e.generation, e.errors or e.files)
end
