-- A nested timeline's tasks: Begin, Finish and commands as its clip's local time passes
-- its frames; interrupted (and flow tasks disposed) when its clip stops being active.
bl.rate(10)
bl.load("nested_tasks.toml")
local hero = bl.spawn("hero", { timeline = "scene" })
local kinds = { clip_begin = true, clip_finish = true, clip_interrupt = true, task_dispose = true,
  command = true, movement_locked = true, movement_unlocked = true }
local shown = 0
local function lifecycle()
  local all = bl.events()
  for k = shown + 1, #all do
    local e = all[k]
    if kinds[e.kind] then
      local what = e.clip and string.format("clip=%s local_frame=%d", e.clip, e.local_frame)
        or e.type and string.format("type=%s source=%s", e.type, e.source) or ("source=" .. e.source)
      print(string.format("  %.1f %s %s", e.time, e.kind, what))
    end
  end
  shown = #all
end

print("-- greet: the lock holds frames 0–5 of the greeting, the chime fires at frame 3")
bl.step(1.2)
lifecycle()
print("-- the trace and the graph show the nested greeting under the clip that plays it")
print(hero:trace())
print(hero:graph())
local nested = hero:trace({ table = true }).playbacks[2]
print(string.format("as data: %s in %s at %.6f s, local frame %d, lock %s", nested.timeline, nested.nested_in, nested.time, nested.frame,
  nested.clips[1].state))
bl.step(1.3)
lifecycle()

print("-- short ends at 0.3 s of its greeting: the lock is interrupted; the chime never began")
bl.step(1.5)
lifecycle()

print("-- the scene interrupted while short's greeting holds the lock: the lock is released")
local scene = hero:play("scene", { from = 3.0 })
bl.step(0.1)
scene:interrupt()
lifecycle()
bl.expect(not hero:trace({ table = true }).locked, "nothing holds the lock after the interrupt")
bl.no_duplicate_events()

print("-- two levels deep: the source names the whole path; an interrupt reaches the bottom")
shown = #bl.events()
local villain = bl.spawn("villain", { timeline = "deep" })
local deep = villain:play("deep")
bl.step(0.2)
deep:interrupt()
lifecycle()
bl.expect(not villain:trace({ table = true }).locked, "the deep lock is released")

print("-- a seek into greet's greeting: its tasks catch up at the next frame, as the scene's would")
local hero2 = bl.spawn("hero2", { timeline = "scene" })
local s2 = hero2:play("scene")
s2:seek(1.35, "fire_skipped")
print("  at the seek: " .. #bl.events({ actor = "hero2", kind = "clip_begin" }) .. " clip_begin")
lifecycle()
bl.step(0.1)
lifecycle()
