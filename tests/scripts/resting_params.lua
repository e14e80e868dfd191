-- A resting actor's parameters keep their values (README, "Hot reload"), even those the
-- reload took out of the library with the asset: `speed` leaves with the tree `loco`, and
-- when both come back `a` blends at the speed it had (it came back at the default). An actor
-- that never rested gets the default for a parameter the library declares anew. Versions:
-- resting_params.toml, resting_params_gone.toml, then resting_params.toml again.
local here = (arg and arg[0] or ""):match("^(.*/)") or ""
local load, remove_live = dofile(here .. "support/live_config.lua")(here, "resting_params.live.toml")

bl.rate(10)
load("resting_params.toml")
local a = bl.spawn("a", { blend_tree = "loco" })
local b = bl.spawn("b", { blend_tree = "sway" })
a:set("speed", 0.3)
b:set("lean", 0.6)
bl.frames(2)
print("before:", a:get("speed"), b:get("lean"))

load("resting_params_gone.toml")
print(a:table())
print(pcall(a.get, a, "speed"))
bl.frames(1)

load("resting_params.toml")
bl.frames(1)
print("back:", a:get("speed"), b:get("speed"))
print(a:table())
remove_live()
