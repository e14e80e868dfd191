-- A playback whose timeline and layer a reload takes away was interrupted: its handle says so,
-- as the handle of a playback a new `play` replaced does, and `:interrupt()` on it does
-- nothing (it ended already). Versions: reload_tasks.toml, then reload_tasks_v4.toml.
local here = (arg and arg[0] or ""):match("^(.*/)") or ""
local LIVE = "reload_playback_state.live.toml"
local load, remove_live = dofile(here .. "support/live_config.lua")(here, LIVE)

bl.rate(30)
load("reload_tasks.toml")
local f = bl.spawn("f", { graph = "fighter" })
local replaced = f:play("skill", { layer = "skill" })
bl.frames(2)
local p = f:play("skill", { layer = "skill" })
bl.frames(4)
print("replaced", replaced:state(), "playing", p:state())
load("reload_tasks_v4.toml")
print("after the reload", p:state(), pcall(p.interrupt, p))
print("locked", f:locked())
-- Handles print as `:trace` names a playback, timeline and layer, also once they left it.
print(replaced)
print(p)
for _, e in ipairs(bl.events({ kind = "timeline_interrupted" })) do
  print(e.frame, e.kind, e.timeline)
end
remove_live()
