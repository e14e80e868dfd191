-- The triggers of inputs in play through a reload: a trigger fires when the clock reaches its
-- time, once. An edit that inserts a trigger before one that fired refires none (the inputs
-- counted their fired triggers by place in the list, so the one at 0.2 s fired again), a
-- trigger the edit puts behind the clock never fires, and one it moves ahead fires when its
-- new time comes. A trigger the edit points at a layer the actor lacks is a warning at the
-- reload and an error at the step where it falls due. Versions: inputs_triggers.toml, then
-- inputs_triggers_v2.toml.
local here = (arg and arg[0] or ""):match("^(.*/)") or ""
local load, remove_live = dofile(here .. "support/live_config.lua")(here, "inputs_reload_triggers.live.toml")

bl.rate(10)
load("inputs_triggers.toml")
local a = bl.spawn("a", { graph = "g" })
bl.inputs(a, "beats")
bl.frames(3)
print("-- at 0.3 s: the trigger at 0.2 s fired; the edit inserts one at 0.1 s, moves 0.6 s to 0.5 s, adds one at 0.8 s")
load("inputs_triggers_v2.toml")
bl.frames(4)
for _, e in ipairs(bl.events({ actor = "a", kind = "clip_enable" })) do
  print(string.format("frame %d (%.1f s): flinch played", e.frame, e.time))
end
for _, e in ipairs(bl.events({ kind = "warning" })) do
  print(string.format("frame %d: %s", e.frame, e.message))
end
print(select(2, pcall(bl.frames, 1)))
remove_live()
