-- REFERENCE §4 and §7 with seed 003's demo_attack at 30 Hz.
bl.rate(30)
bl.load("../../samples/demo_attack.toml")
local function show(actor, from)
  for _, e in ipairs(bl.events({ actor = actor })) do
    if e.frame >= from and e.kind ~= "clip_enable" and e.kind ~= "clip_disable" then
      local what = e.clip or e.type or e.source or e.to or e.timeline or ""
      print(string.format("  frame %2d local %3s %-22s %s %s", e.frame, tostring(e.local_frame or ""), e.kind, what, e.source or ""))
    end
  end
end

print("-- one step from local frame 7 to 10 runs frames 8, 9 and 10")
local hero = bl.spawn("hero", { graph = "fighter" })
local skill = hero:play("demo_attack", { layer = "skill" })
bl.frames(7)
print("local frame " .. skill:frame())
local mark = bl.frame() + 1
bl.step(3 / 30)
print("local frame " .. skill:frame())
show("hero", mark)
bl.frames(10)
print("state after lifetime: " .. skill:state())
show("hero", mark + 3)

print("-- interrupt after frame 8: the four running clips get Interrupt, the lock is released")
local villain = bl.spawn("villain", { graph = "fighter" })
local attack = villain:play("demo_attack", { layer = "skill" })
bl.frames(8)
print(villain:trace())
mark = bl.frame() + 1
attack:interrupt()
attack:interrupt() -- a second interrupt does nothing
print("state: " .. attack:state())
show("villain", mark - 1)
print(villain:trace())

print("-- from_frame 9: clips that ended before never begin; the lock begins late at 9")
local late = bl.spawn("late", { graph = "fighter" })
local from9 = late:play("demo_attack", { layer = "skill", from_frame = 9 })
mark = bl.frame() + 1
bl.frames(1)
show("late", mark)
print("local frame " .. from9:frame())
local _, message = pcall(function() late:play("demo_attack", { layer = "skill", from_frame = -1 }) end)
print(message)

print("-- the trace as data")
local fresh = bl.spawn("fresh", { graph = "fighter" })
fresh:play("demo_attack", { layer = "skill" })
bl.frames(8)
local trace = fresh:trace({ table = true })
print(string.format("frame %d, locked %s by %s", trace.frame, tostring(trace.locked), table.concat(trace.lock_sources, ",")))
for _, p in ipairs(trace.playbacks) do
  print(string.format("  %s on %s: %s at local frame %d", p.timeline, p.layer, p.state, p.frame))
  for _, c in ipairs(p.clips) do
    print(string.format("    %-5s %-13s %2d–%-2d %s", c.name, c.task, c.first, c.last, c.state))
  end
end
for _, c in ipairs(trace.commands) do
  print(string.format("  command %s from %s: %s", c.type, c.source, c.result))
end

print("-- what play returns")
-- A playback comes back alone (the REPL shows just the handle); an unknown timeline comes
-- back as nil and the message.
print(select("#", fresh:play("demo_attack", { layer = "skill" })), fresh:play("demo_atack", { layer = "skill" }))
-- A timeline's time starts at 0: negative starts and seeks are refused, not held at 0.
print(pcall(fresh.play, fresh, "demo_attack", { layer = "skill", from = -0.5 }))
local again = fresh:play("demo_attack", { layer = "skill" })
print(pcall(again.seek, again, -1))

print("-- explain on an actor without a blend tree says what its layers hold instead")
print(fresh:explain())

print("-- a command's numbers reach Lua as numbers (the event line prints them as written)")
local play = bl.events({ kind = "command", actor = "hero" })[1]
print(play.type, play.fade, math.type(play.fade))
print(bl.expect_event({ kind = "command", actor = "hero", fade = 0.1 }).animation)
