-- A broken config never replaces a good one: every problem is reported, the library stays.
print(table.concat(bl.load("reference_1d.toml"), " "))
local ok, message = pcall(function() bl.load("../config/err/five_mistakes.toml") end)
print(ok, message)
ok, message = pcall(function() bl.load("does_not_exist.toml") end)
print(ok, message)
-- A missing file says what its relative path was resolved against: the calling script's folder.
print(pcall(load('bl.load("does_not_exist.toml")', "@elsewhere/loader.lua")))
local t = bl.spawn("t", { blend_tree = "abc" })
t:set("x", 0.5)
bl.frames(1)
print(t:table())
for _, e in ipairs(bl.events()) do
  print(e.frame, e.kind, e.generation, e.errors or table.concat(e.files, ","))
end

-- Files that refer to each other load together from a list, in one build; alone, the tree
-- file fails for want of the clips.
local ok, alone = pcall(bl.load, "../repl/split_library/a_tree.toml")
print("alone: " .. (ok and "loaded" or alone))
print(table.concat(bl.load { "../repl/split_library/a_tree.toml", "../repl/split_library/b_clips.toml" }, ", "))
print(pcall(bl.load, 7))
-- A file named twice loads once; a list with a hole, another key or a non-path is refused
-- rather than leaving a file out.
local split = "../repl/split_library/"
print(table.concat(bl.load { split .. "a_tree.toml", split .. "b_clips.toml", "./" .. split .. "a_tree.toml" }, ", "))
print(pcall(bl.load, { split .. "a_tree.toml", nil, split .. "b_clips.toml" }))
print(pcall(bl.load, { split .. "a_tree.toml", clips = split .. "b_clips.toml" }))
print(pcall(bl.load, { split .. "a_tree.toml", 7 }))
print(pcall(bl.load, {}))
-- A folder loads every *.toml directly in it, as one library (as `blendlab check` and the
-- prompt take folders): this one holds a broken file, so nothing of it loads; an empty path
-- names no file (joined to the script's folder it would name the folder itself).
local ok, why = pcall(bl.load, split)
print(ok, why:match("[^\n]*"))
print(pcall(bl.load, ""))
print(pcall(bl.load, "../pty"))
print(pcall(bl.load, "../../README.md"))
-- A name without its extension: the .toml beside it is the hint.
print(pcall(bl.load, "reference_1d"))
-- A folder (or file) that is not there says so (a folder, with its `/`), and what it was resolved against.
print(pcall(bl.load, "nope/"))
print(pcall(bl.load, "nope"))
-- A file's name followed by `/` names no folder (the system refuses it; it was loaded as the file).
print(pcall(bl.load, "blend_direct.toml/"))
