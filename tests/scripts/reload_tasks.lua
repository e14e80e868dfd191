-- A reload keeps a playing timeline's task lifecycle by task clip name, whatever else changed
-- (REFERENCE §4: nothing before the current frame is replayed): its local frame, its running
-- tasks and their source ids stay. A task that is running and whose clip is gone (removed or
-- renamed) gets Interrupt at the reload, its command releasing its lock, and Dispose when
-- flow-scoped; a removed PlayAnimation does not start its transition again. A playback whose
-- timeline or layer the reload takes away is interrupted, its tasks releasing what they held.
-- `io` opens files from the working folder, `bl.load` from the script's: this script's folder.
local here = (arg and arg[0] or ""):match("^(.*/)") or ""
local LIVE = "reload_tasks.live.toml"
local load, remove_live = dofile(here .. "support/live_config.lua")(here, LIVE)
local seen = 0
local function show()
  local events = bl.events()
  for i = seen + 1, #events do
    local e = events[i]
    print(string.format("  frame %d %-18s %-10s %s %s", e.frame, e.kind, e.clip or e.type or e.timeline or "",
      e.local_frame or "", e.source or e.to or e.generation or ""))
  end
  seen = #events
end

bl.rate(30)
load("reload_tasks.toml")
local a = bl.spawn("a", { graph = "fighter" })
local p = a:play("skill", { layer = "skill" })
bl.frames(4)
show()
print("local frame", p:frame(), "locked by", table.concat(select(2, a:locked()), ","), "guard", a:weights().guard)

print("-- fx2 (finished) and anim (its fade half done) removed: nothing is replayed")
load("reload_tasks_v2.toml")
show()
print("local frame", p:frame(), "locked by", table.concat(select(2, a:locked()), ","))
bl.frames(1)
show()
print("guard", a:weights().guard, "atk", a:weights().atk)

print("-- lock (running) removed and fx (running, flow-scoped) renamed")
load("reload_tasks_v3.toml")
show()
print("local frame", p:frame(), "locked", a:locked())
bl.frames(10)
show()
print("state", p:state(), "locked", a:locked())

print("-- the timeline and its layer removed while b's lock runs: b's playback is interrupted")
load("reload_tasks.toml")
local b = bl.spawn("b", { graph = "fighter" })
b:play("skill", { layer = "skill" })
bl.frames(4)
print("locked by", table.concat(select(2, b:locked()), ","))
seen = #bl.events()
load("reload_tasks_v4.toml")
show()
print("locked", b:locked())
remove_live()
