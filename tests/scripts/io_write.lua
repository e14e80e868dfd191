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
-- `io.write` writes to the default output, as Lua's: `io.output` moves it to stderr or to a
-- file of the script's, and back.
io.output(io.stderr)
print(io.write("io.write after io.output(io.stderr)\n") == io.stderr)
io.output("io_write.txt")
io.write("into the file")
io.close()
io.output(io.stdout)
local written = assert(io.open("io_write.txt"))
print(written:read("a"))
written:close()
os.remove("io_write.txt")
io.write("the last line has no newline")
