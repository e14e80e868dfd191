-- Task lifecycles (REFERENCE §4) and entity arbitration (§7).
bl.rate(10)
bl.load("tasks.toml")
local function show(filter)
  for _, e in ipairs(bl.events(filter)) do
    print(string.format("  frame %d local %s %-18s %-10s %s%s", e.frame, tostring(e.local_frame or "-"), e.kind,
      e.clip or e.type or e.timeline or "", e.source or "", e.payload and (" payload eye=" .. e.payload.eye) or ""))
  end
end

print("-- a one-frame clip gets Begin, Tick and Finish in the same frame (tick tracing on)")
bl.trace_ticks(true)
bl.on("command", function(e)
  if e.type == "Emit" then print("  lua sees Emit " .. e.name .. " from " .. e.source) end
end)
local a = bl.spawn("a", { timeline = "flow" })
bl.frames(6)
bl.trace_ticks(false)
show({ actor = "a" })

print("-- interrupted flow-scoped tasks: Begin → Interrupt → Dispose, disposed in reverse order")
local b = bl.spawn("b", { timeline = "flow" })
bl.frames(3)
b:playback():interrupt()
show({ actor = "b" })

print("-- two sources hold one lock: releasing one leaves the other")
local body = bl.spawn("body", { graph = "body" })
body:play("lock_a", { layer = "skill_a" })
body:play("lock_b", { layer = "skill_b" })
bl.frames(6)
print("  locked: " .. tostring(body:locked()))
print(body:trace())
bl.frames(4)
print("  locked: " .. tostring(body:locked()))
show({ actor = "body", kind = "movement_locked" })
show({ actor = "body", kind = "movement_unlocked" })

print("-- two actors playing one timeline share nothing mutable")
local p1 = bl.spawn("p1", { timeline = "flow" })
local p2 = bl.spawn("p2", { timeline = "flow" })
bl.frames(2)
p1:playback():interrupt()
bl.frames(4)
print("  p1 " .. p1:playback():state() .. " at local frame " .. p1:playback():frame())
print("  p2 " .. p2:playback():state() .. " at local frame " .. p2:playback():frame())
print("  interrupting a finished playback does nothing: " .. #bl.events({ actor = "p2", kind = "clip_interrupt" }))
p2:playback():interrupt()
print("  still " .. #bl.events({ actor = "p2", kind = "clip_interrupt" }) .. ", state " .. p2:playback():state())

print("-- an ended playback is not moved by a seek: refused, naming its state, and no seek logged")
for _, p in ipairs({ p1:playback(), p2:playback() }) do
  local ok, message = pcall(p.seek, p, 0.1)
  print("  " .. tostring(ok) .. " " .. message)
  print("  still " .. p:state() .. " at " .. p:time() .. " s")
end
print("  seek events: " .. #bl.events({ kind = "seek" }))
print("-- playing it again starts a new playback, which seeks")
local p3 = p2:play("flow")
p3:seek(0.1)
print("  " .. tostring(p3) .. ", seek events: " .. #bl.events({ kind = "seek" }))
