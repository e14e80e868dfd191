-- REFERENCE §3.3–3.5 through real playbacks, sampled with seek (suppress: no markers).
bl.load("timeline_reference.toml")
local function at(actor, t)
  actor.playback:seek(t, "suppress")
  return actor.actor:weights()
end
local function spawn(name)
  local actor = bl.spawn(name, { timeline = name })
  return { actor = actor, playback = actor:playback() }
end

print("-- ease: clip [1,5), ease_in 1, ease_out 0.5")
local ease = spawn("ease")
for _, t in ipairs({ 0.5, 1.25, 1.5, 3.0, 4.75, 5.0 }) do
  local w = at(ease, t)
  print(string.format("t=%.2f pose=%.6f output=%.6f", t, w.pose, ease.actor:output_weight()))
end
bl.near(at(ease, 1.25).pose, 0.15625, 1e-9)
bl.near(at(ease, 4.75).pose, 0.5, 1e-9)

print("-- long eases: clip [1,3), ease_in 1.5, ease_out 1.5 (linear): w = mix_in · mix_out")
local long_eases = spawn("long_eases")
for _, t in ipairs({ 1.75, 2.0, 2.25, 2.75 }) do
  print(string.format("t=%.2f pose=%.6f", t, at(long_eases, t).pose))
end
bl.near(at(long_eases, 1.75).pose, 0.5 * (1.25 / 1.5), 1e-9)
bl.near(at(long_eases, 2.0).pose, (1 / 1.5) * (1 / 1.5), 1e-9)

print("-- a tree in a clip [1,3), clip_in 0.5, time scale 0.5: its leaves play the clip's local time")
local tree_clip = bl.spawn("tree_clip", { timeline = "tree_clip" })
for _, t in ipairs({ 1.0, 1.5, 2.5 }) do
  bl.step(t - bl.time())
  local a, b = tree_clip:time("stride/a"), tree_clip:time("stride/b")
  print(string.format("t=%.2f stride/a=%.6f stride/b=%.6f", bl.time(), a, b))
  bl.near(a, 0.5 + 0.5 * (t - 1.0), 1e-9)
end

print("-- overlap: A [0,4), B [3,7)")
local overlap = spawn("overlap")
local w = at(overlap, 3.25)
print(string.format("t=3.25 a=%.6f b=%.6f", w.a, w.b))
bl.near(w.b, 0.15625, 1e-9)
bl.near(w.a, 0.84375, 1e-9)

print("-- gaps: which clip is active")
local gaps = spawn("gaps")
for _, t in ipairs({ 0.0, 2.5, 2.999, 3.0, 4.999, 5.0, 7.0, 100.0 }) do
  w = at(gaps, t)
  local active = {}
  for _, name in ipairs({ "A", "B", "C" }) do
    if w[name] > 0 then active[#active + 1] = name end
  end
  print(string.format("t=%.3f active=%s", t, table.concat(active, ",")))
end

print("-- local times: start 2, duration 3, clip_in 0.5, time_scale 2")
local loc = spawn("local")
for _, t in ipairs({ 0.0, 6.0 }) do
  at(loc, t)
  print(string.format("t=%.1f hold=%.6f loop=%.6f ping_pong=%.6f continue=%.6f", t,
    loc.actor:time("hold"), loc.actor:time("loop"), loc.actor:time("ping_pong"), loc.actor:time("continue")))
end

print("-- adjacent clips at the exact boundary")
local adj = spawn("adjacent")
w = at(adj, 1.0)
print(string.format("t=1.0 first=%.6f second=%.6f", w.first, w.second))
bl.expect(w.first == 0 and w.second == 1, "only the later clip at the boundary")
for _, e in ipairs(bl.events({ actor = "adjacent" })) do
  print(e.kind, e.clip or e.timeline, e.policy or "")
end
