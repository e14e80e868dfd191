-- Lua that a listener or a callback fills, read by plain Lua between steps (collect events,
-- then assert): the giant plan must not hold a step past that read, so it holds none while a
-- `bl.on` listener is registered or a `bl.at` callback falls due in the held frames, and the
-- plans agree. Before the listener, after its `:off()` and before the callback's time, the
-- steps merge.
bl.load("../../samples/cutscene.toml")
bl.spawn("hero", { timeline = "cutscene" })
bl.step(0.25)
bl.step(0.25)
local fired = false
local signals = 0
local listener = bl.on("signal", function(e)
  signals = signals + 1
  if e.name == "door_opens" then fired = true end
end)
bl.step(0.25)
bl.step(0.5)
assert(fired, "door never opened")
bl.step(1)
assert(signals == 2, "expected 2 signals, got " .. signals)
listener:off()
local late = false
bl.at(3.5, function() late = true end)
bl.step(0.25)
bl.step(0.5)
assert(not late, "the callback ran early")
bl.step(0.5)
assert(late, "the callback never ran")
