-- A reload that moves a running task's end_frame to the frame the playback is at (the last
-- its lifecycle ran) finishes the task at the reload, as reaching its end frame would
-- (REFERENCE §4): Finish, its lock released, and a flow task's Dispose still at the end of the
-- playback. One moved before that frame can no longer finish: it gets Interrupt (README, Hot
-- reload).
local here = (arg and arg[0] or ""):match("^(.*/)") or ""
local LIVE = "reload_end_frame.live.toml"
local load, remove_live = dofile(here .. "support/live_config.lua")(here, LIVE)
local seen = 0
local function show(label)
  print("-- " .. label)
  local events = bl.events({ actor = "a" })
  for i = seen + 1, #events do
    local e = events[i]
    if e.local_frame then
      print(string.format("  f%d %s %s local frame %d", e.frame, e.kind, e.clip, e.local_frame))
    elseif e.kind == "command" or e.kind == "movement_locked" or e.kind == "movement_unlocked" then
      print(string.format("  f%d %s %s", e.frame, e.type or e.kind, e.source))
    end
  end
  seen = #events
end
bl.rate(10)
load("reload_end_frame.toml")
local a = bl.spawn("a", { timeline = "sk" })
local p = a:playback()
bl.frames(5)
show("at local frame " .. p:frame())
load("reload_end_frame_v2.toml")
show("reloaded at local frame " .. p:frame() .. ": run and fl finish, cut is interrupted")
print("  locked", a:locked())
bl.frames(10)
show("to the end: fl's Dispose")
print("  " .. p:state())
remove_live()
