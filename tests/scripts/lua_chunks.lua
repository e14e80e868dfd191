-- Scripts load Lua source only: a binary chunk (bytecode from string.dump, perhaps changed by
-- a byte) could crash the Lua VM. load, loadfile and dofile refuse one with Lua's own
-- message; everything else about them is Lua's.
local bytecode = string.dump(function() return 1 end)
print(load(bytecode))
print(load(bytecode, "dumped", "b"))
print(load("return x", "with an env", "t", { x = 5 })())
print(load("return print")() == print)
local file = assert(io.open("lua_chunks.bin", "wb"))
file:write(bytecode)
file:close()
print(loadfile("lua_chunks.bin"))
print(pcall(dofile, "lua_chunks.bin"))
os.remove("lua_chunks.bin")
-- A mode without "t" refuses a text chunk, as Lua does, and a binary one as ever.
print(load("return 1", "text", "b"))
print(load("syntax error here", "text", "b"))
print(load(bytecode, "dumped", "x"))
-- Argument errors are located at the call, as Lua's are.
print(pcall(load, {}))
print(pcall(load, "return 1", {}))
print(pcall(loadfile, {}))
print(pcall(dofile, true))
print(select(2, pcall(function() loadfile({}) end)))
