-- blendlab's own Lua (the wrappers of `bl` functions and handle methods, the uncatchable
-- `pcall`) stands for the C functions it wraps: a traceback shows `[C]` where they are, as
-- the standalone `lua` shows a C function, and `print` shows them as builtins.
bl.load("reference_1d.toml")
local t = bl.spawn("t", { blend_tree = "abc" })
print(xpcall(function() t:set("X", 1) end, debug.traceback))
print(xpcall(bl.spawn, debug.traceback, "t", { blend_tree = "abc" }))
print(xpcall(function() return bl.spwn end, debug.traceback))
print(xpcall(string.rep, debug.traceback))
bl.at(0.01, function() print(debug.traceback("in a bl.at callback")) end)
bl.step(0.02)
-- Levels count the frames shown.
local function inner() return debug.traceback("level 2", 2) end
print(pcall(inner))
local function tail() return debug.traceback("a tail call") end
print(pcall(tail))
print(debug.traceback("level 0", 0))
print(pcall(debug.traceback, "m", "x"))
print(bl.spawn, t.set, bl.load, print)
