-- Markers fire once per pass of time: first window [start, t], then (prev, t]; loops are
-- unrolled; emit_once fires only the first time ever; seeks name their policy.
bl.rate(10)
bl.load("signals.toml")
local function show(filter)
  for _, e in ipairs(bl.events(filter)) do
    if e.kind ~= "clip_enable" and e.kind ~= "clip_disable" then
      print(string.format("  frame %2d t=%.2f %-20s %s", e.frame, e.time, e.kind, e.name or e.timeline or ""))
    end
  end
end

print("-- looping: 2.5 s in one step, 10 Hz")
local looper = bl.spawn("looper", { timeline = "looping" })
bl.step(2.5)
show({ actor = "looper" })

looper:playback():interrupt()

print("-- wrap none: completes at the end; the muted track's marker never fires")
local shot = bl.spawn("shot", { timeline = "oneshot" })
local handle = shot:playback()
bl.step(2)
show({ actor = "shot" })
print("  state: " .. handle:state())
print(string.format("  after completion: output %.6f", shot:output_weight()))

print("-- retroactive markers fire at the first evaluation when playing from later")
local late = bl.spawn("late", { timeline = "oneshot" })
late:play("oneshot", { from = 0.5 }) -- replaces (interrupts) the playback spawn started
bl.frames(1)
show({ actor = "late" })

print("-- seeks: fire_skipped fires what it jumps over, suppress does not")
local seeker = bl.spawn("seeker", { timeline = "oneshot" })
local p = seeker:playback()
bl.frames(1)
p:seek(0.95, "fire_skipped")
p:seek(0.05, "suppress")
p:seek(0.8, "suppress")
bl.frames(1)
show({ actor = "seeker" })
local ok, message = pcall(function() p:seek(0.5, "skip") end)
print("  " .. message)

print("-- a seek before the first frame moves where the playback starts, as playing from there:")
print("-- only retroactive markers before it fire")
local early = bl.spawn("early", { timeline = "oneshot" })
early:playback():seek(0.6, "fire_skipped")
bl.frames(1)
show({ actor = "early" })

print("-- local frames: a timeline without task clips is at the frame its time is in; one")
print("-- without a frame_rate has no frames")
local framed = bl.spawn("framed", { timeline = "oneshot" })
local unframed = bl.spawn("unframed", { timeline = "looping" })
bl.step(0.5)
print(string.format("  oneshot (30 Hz) at %.6f s: local frame %d", framed:playback():time(), framed:playback():frame()))
print("  looping (no frame_rate): local frame " .. tostring(unframed:playback():frame()))
print(framed:trace())
print(unframed:trace())
