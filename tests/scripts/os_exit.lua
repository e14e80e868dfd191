-- Under `blendlab test`, `--golden` and `--partition-check`, `os.exit` ends the script, not
-- the runner: what it printed so far is its output, then the line of the exit. No `pcall`
-- or coroutine catches it; a code other than 0 (or `false`) is a failure, as under `run`.
print("before the exit")
local co = coroutine.create(function() os.exit(true) end)
print("never printed", coroutine.resume(co))
