-- A forward seek across the end of a looping timeline logs what it jumps over in time order
-- (REFERENCE §3.7 unrolls the window pass by pass): each pass it leaves behind runs its
-- task frames not run yet, fires its markers, ends (its flow tasks' Dispose), then the next
-- pass's timeline_looped. The tasks of the pass it lands in catch up at the next frame, as
-- after any seek. `suppress` silences markers only: timeline_looped still counts every pass,
-- and tasks are never skipped.
bl.rate(10)
bl.load("seek_loop_tasks.toml")
local shown = {}
local function show(label, actor)
  print("-- " .. label)
  local events = bl.events({ actor = actor })
  for i = (shown[actor] or 0) + 1, #events do
    local e = events[i]
    if e.kind == "seek" then
      print(string.format("  f%d seek %g->%g %s", e.frame, e.from, e.to, e.policy))
    elseif e.kind == "timeline_looped" then
      print(string.format("  f%d timeline_looped %s %d", e.frame, e.timeline, e.count))
    elseif e.kind == "signal" then
      print(string.format("  f%d signal %s", e.frame, e.name))
    elseif e.local_frame then
      print(string.format("  f%d %s %s local frame %d", e.frame, e.kind, e.clip, e.local_frame))
    end
  end
  shown[actor] = #events
end

local a = bl.spawn("a", { timeline = "lp" })
bl.frames(2)
show("a at 0.2 s, pass 0", "a")
a:playback():seek(0.9)
show("a: seek to 0.9 s = pass 1 at 0.3 s, fire_skipped: pass 0's F and m, its end, then loop 1", "a")
bl.frames(1)
show("a: the next frame catches pass 1 up to 0.4 s", "a")

local b = bl.spawn("b", { timeline = "lp" })
bl.frames(2)
show("b at 0.2 s, pass 0", "b")
b:playback():seek(0.9, "suppress")
show("b: the same seek with suppress: no m, but pass 0's tasks and loop 1", "b")
bl.frames(4)
show("b: the next loop is numbered 2", "b")
bl.no_duplicate_events({ actor = "b" })

local c = bl.spawn("c", { timeline = "host" })
bl.frames(2)
show("c at 0.2 s: its clip sub plays lp nested", "c")
c:playback():seek(0.9)
show("c: a seek of the host moves the nested lp alike (its tasks' sources name the path)", "c")
for _, e in ipairs(bl.events({ actor = "c", kind = "command" })) do
  if e.frame == bl.frame() then print("  command " .. e.type .. " " .. e.source) end
end

local d = bl.spawn("d", { timeline = "lp" })
bl.frames(1)
local before = #bl.events({ actor = "d" })
d:playback():seek(6000, "suppress")
local counts, events = {}, bl.events({ actor = "d" })
for i = before + 1, #events do
  counts[events[i].kind] = (counts[events[i].kind] or 0) + 1
end
print(string.format("-- d: a seek 10 000 passes ahead unrolls 1 000: %d clip_begin, %d task_dispose, %d timeline_looped",
  counts.clip_begin, counts.task_dispose, counts.timeline_looped))
for _, e in ipairs(bl.events({ actor = "d", kind = "warning" })) do print("  " .. e.message) end
print("  the last loop:", events[#events].kind, events[#events].count)

-- Each pass runs its tasks and fires its markers again: the same events once per pass, after
-- a seek across several passes, are no duplicates (a frame longer than a pass:
-- duplicates_per_pass.lua).
bl.no_duplicate_events({ actor = "a" })
bl.no_duplicate_events({ actor = "d" })
print("-- a and d: no event twice within a pass")
