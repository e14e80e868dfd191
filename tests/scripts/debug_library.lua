-- Scripts get Lua's read-only `debug` functions (test helpers use `debug.traceback` with
-- `xpcall`, and `debug.getinfo` to say where they were called); not those that could take
-- the watchdog's hook or reach into the bindings. `--sandbox` removes `debug` altogether.
local names = {}
for name in pairs(debug) do names[#names + 1] = name end
table.sort(names)
print(table.concat(names, " "))
print(package.loaded.debug == debug)
local ok, trace = xpcall(function() error("boom") end, debug.traceback)
print(ok, trace:match("^[^\n]*"), trace:find("stack traceback:", 1, true) ~= nil)
local function where() local info = debug.getinfo(2, "Sl") return info.short_src .. ":" .. info.currentline end
print(where())
local function first_local() local secret = 42 return debug.getlocal(1, 1) end
print(first_local())
-- No `getupvalue`: a `bl` function's wrapper holds Lua's own `pcall`, which would let a
-- script catch the watchdog's error and run on past --timeout.
print(debug.getupvalue)
