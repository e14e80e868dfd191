-- Lua strings are bytes: print, io.write and io.stderr:write write them as they are, UTF-8
-- or not, as the standalone `lua` does (a golden holds them as text, each byte that is not
-- UTF-8 as U+FFFD). Where a `bl` function needs text, such a string is a located error.
print("before")
print("caf\233", 1, "\255")
io.write("caf\233", "\n")
io.stderr:write("err \200\n")
print(pcall(print, "x\200"))
print(pcall(bl.expect, false, "caf\233"))
print("after")
