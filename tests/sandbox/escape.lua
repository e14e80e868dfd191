-- Run with `blendlab run --sandbox`: every way out of the folder is closed; what remains works.
for _, name in ipairs({ "os", "io", "debug", "dofile", "loadfile" }) do
  bl.expect(_G[name] == nil, name .. " is gone")
end
bl.expect(package.loadlib == nil and package.searchpath == nil, "no C modules, no file probing")
bl.expect(package.loaded.os == nil and package.loaded.io == nil, "not even through package.loaded")

-- require: Lua modules inside this folder tree only, whatever package.path says
bl.expect(require("modules.helper").answer == 42, "a module inside the folder loads")
package.path = "../limits/?.lua"
local ok, message = pcall(require, "spin")
bl.expect(not ok and message:find("in the script's folder"), "a module outside is not found: " .. tostring(message))
ok = pcall(require, "../limits/spin")
bl.expect(not ok, "nor by a relative name")

-- bl.load and exports: inside the folder tree only
bl.expect(#bl.load("local.toml") == 3, "a config inside the folder loads")
ok, message = pcall(bl.load, "../../samples/locomotion.toml")
bl.expect(not ok and message:find("outside the script's folder"), "a config outside is refused: " .. tostring(message))
ok, message = pcall(bl.load, "/etc/passwd")
bl.expect(not ok and message:find("outside the script's folder"), "an absolute path outside is refused")
local sweep = bl.sweep("tiny", "speed", 0, 1, 2)
ok, message = pcall(sweep.csv, sweep, "../escaped.csv")
bl.expect(not ok and message:find("outside the script's folder"), "an export outside is refused: " .. tostring(message))

-- what remains: computation
bl.expect(string.format("%.1f", math.sqrt(2)) == "1.4" and load("return 1 + 1")() == 2, "pure Lua works")
print("sandbox ok")
