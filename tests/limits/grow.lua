-- Grows a table forever: `run --max-memory` (or `--timeout`) must stop it.
local t = {}
while true do t[#t + 1] = t end
