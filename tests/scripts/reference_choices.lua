-- Where REFERENCE leaves a choice, blendlab's rules (README, "Where REFERENCE leaves a choice").
bl.load("reference_choices.toml")

local function weights(actor)
  local line = {}
  for leaf, w in pairs(actor:weights()) do
    line[#line + 1] = string.format("%s=%.6f", leaf, w)
  end
  table.sort(line)
  return table.concat(line, " ")
end

print("-- simple directional: (0.5, 0.5) between f at (0, 2) and r at (2, 0), weighed with the raw positions")
local sd = bl.spawn("sd", { blend_tree = "sd" })
sd:set("x", 0.5)
sd:set("y", 0.5)
bl.frames(1)
print(weights(sd))

print("-- direct without normalize, 3 and 1, under a 0.3 override: Unity's raw numbers times the share")
local over = bl.spawn("over", { graph = "over" })
over:set("wi", 3)
over:set("ww", 1)
bl.frames(1)
print(weights(over), "output", over:output_weight())

print("-- two children at threshold 1, at 1: both weigh 1")
local twin = bl.spawn("twin", { blend_tree = "twin" })
twin:set("t", 1)
bl.frames(1)
print(weights(twin))

print("-- dead zone, then curve; the curve holds its end values outside its keys")
local shaped = bl.spawn("shaped", { blend_tree = "shaped" })
for _, v in ipairs({ 0.3, 0.75, -3, 5 }) do
  shaped:set("dz", v)
  bl.frames(1)
  print(v, weights(shaped))
end

print("-- two root tracks at 0.5 s: b (later) layers over a")
local two = bl.spawn("two", { timeline = "two_roots" })
two:playback():seek(0.5, "suppress")
print(weights(two), "output", two:output_weight())

print("-- nested timeline at 0.5 s: the outer clip is at 1, the inner at 0.5")
local nest = bl.spawn("nest", { timeline = "outer" })
nest:playback():seek(0.5, "suppress")
print(weights(nest), "output", nest:output_weight())

local function show(from, kinds)
  local events = bl.events()
  for i = from + 1, #events do
    local e = events[i]
    if kinds[e.kind] then
      print(e.frame, e.actor, e.kind, e.clip or e.name or e.timeline or "")
    end
  end
  return #events
end
local shown = { clip_begin = true, clip_finish = true, timeline_looped = true, command = true, seek = true }

print("-- a looping task timeline: the new pass's clip_begin before its timeline_looped")
local n = #bl.events()
local lt = bl.spawn("lt", { timeline = "loop_task" })
bl.step(0.6)
lt:playback():interrupt()
n = show(n, shown)

print("-- a looping flow task: Disposed as each pass ends (before the next pass and its timeline_looped);")
print("-- the interrupt in the third pass disposes only that pass's")
local flow_kinds = { clip_begin = true, clip_finish = true, clip_interrupt = true, task_dispose = true,
  timeline_looped = true }
local lf = bl.spawn("lf", { timeline = "loop_flow" })
bl.step(0.95)
lf:playback():interrupt()
n = show(n, flow_kinds)
bl.no_duplicate_events({ actor = "lf" })

print("-- seeking back to 0 s while `late` runs (local frame 6): `early` does not begin again")
local sk = bl.spawn("sk", { timeline = "tasks" })
bl.step(0.65)
n = show(n, shown)
sk:playback():seek(0.0)
bl.step(1.0)
show(n, shown)
print(sk:playback():state())
