-- Inputs in play follow their [inputs.NAME] through a reload: edited keys drive the parameter
-- from the next frame; inputs whose table the reload took away stop, with a warning (their
-- parameters keep their last values), and their handle's :stop() says they had ended. They
-- stopped silently before. Versions: inputs_data.toml, then inputs_reload_v2.toml.
local here = (arg and arg[0] or ""):match("^(.*/)") or ""
local LIVE = "inputs_reload.live.toml"
local load, remove_live = dofile(here .. "support/live_config.lua")(here, LIVE)

bl.rate(10)
load("inputs_data.toml")
local fast = bl.spawn("fast", { graph = "walker" })
local leaning = bl.spawn("leaning", { graph = "walker" })
local accelerate = bl.inputs(fast, "accelerate")
local sway = bl.inputs(leaning, "sway")
bl.frames(2)
print(string.format("before: fast speed %.3f, leaning lean %.3f", fast:get("speed"), leaning:get("lean")))
load("inputs_reload_v2.toml")
bl.frames(2)
print(string.format("after:  fast speed %.3f (held), leaning lean %.3f (0.4 s on the new keys)", fast:get("speed"),
  leaning:get("lean")))
print("accelerate stop:", accelerate:stop(), "sway stop:", sway:stop())
for _, e in ipairs(bl.events({ kind = "warning" })) do
  print(e.frame, e.message)
end
remove_live()
