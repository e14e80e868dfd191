-- A seek on a looping timeline (REFERENCE §3.7, §3.8) names a time of the current pass: the
-- playback's raw time goes on from that pass's start, so a `fire_skipped` seek forward fires
-- the markers it jumps over — across the end too, with `timeline_looped` counting the loops
-- completed since play — whatever seeks came before. A seek back stays in the current pass:
-- no markers, and the count goes on from where it was. A and B end in the same place by
-- different ways, and log the same events from there.
bl.rate(10)
bl.load("seek_loop.toml")
local A = bl.spawn("A", { timeline = "lp" })
local B = bl.spawn("B", { timeline = "lp" })
bl.step(1.2)
B:playback():seek(0.2, "suppress")
bl.step(0.1)
local function show(from)
  local events = bl.events()
  for i = from + 1, #events do
    local e = events[i]
    print(e.frame, e.actor, e.kind, e.name or e.count or string.format("%g->%g %s", e.from, e.to, e.policy))
  end
  return #events
end
local n = #bl.events()
print("-- forward within the pass: m50 in (0.3, 0.9] fires")
A:playback():seek(0.9)
B:playback():seek(0.9)
n = show(n)
print("-- beyond the end: m95, the 2nd loop completed, m0, m50")
A:playback():seek(1.6)
B:playback():seek(1.6)
n = show(n)
print("-- back within the pass: nothing fires; the next frames go on from there")
A:playback():seek(0.1)
n = show(n)
bl.step(1.0)
show(n)
print("A at", A:playback():time(), "B at", B:playback():time())
