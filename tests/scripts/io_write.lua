-- `io.write` writes where `print` does and, as Lua's, returns the file it wrote to,
-- `io.stdout`, so that writes chain; `io.stdout:write` writes there too. A file prints
-- without its address, so a golden holds.
local out = io.write("one ", 2, " ")
print(out == io.stdout, out == io)
io.write("chained"):write(" and ", "on"):write("\n")
io.stdout:write("through io.stdout\n")
print(io.stdout, { out = io.write() })
-- `io.stderr:write` writes where diagnostics go: a golden holds it in its place, once.
print(io.stderr:write("to stderr\n") == io.stderr, io.stdout.write(io.stderr, "through stdout's write\n"))
local file = io.tmpfile()
print(file:write("kept in the file") == file, file)
file:close()
print(file)
io.write("the last line has no newline")
