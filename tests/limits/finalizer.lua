-- Spins in a `__gc` finalizer, which Lua runs with hooks off, and in a pattern match, one long
-- C call: `--timeout` cannot stop either at a line, so its backstop ends the process.
setmetatable({}, { __gc = function() while true do end end })
collectgarbage()
print(("a"):rep(40):match(("a*"):rep(40) .. "b"))
