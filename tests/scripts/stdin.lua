-- Under `blendlab test`, `--golden` and `--partition-check` a script's standard input is
-- empty: `io.read` returns nil at once (it never waits on a terminal), so every run reads
-- the same.
print(io.read(), io.read("n"), io.stdin:read("a"), io.input() == io.stdin)
for line in io.lines() do print("never", line) end
