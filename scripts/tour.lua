-- A first tour of blendlab: load the locomotion sample, spawn an actor driven by its 1D
-- blend tree, change `speed` with scheduled inputs, and watch the weights follow.
--   cargo run --release -- run scripts/tour.lua

local names = bl.load("../samples/locomotion.toml")
print("loaded: " .. table.concat(names, ", "))

bl.rate(60)
local hero = bl.spawn("hero", { blend_tree = "locomotion" })
print(hero:table())

-- Inputs are scheduled on the clock: each runs at the first logic frame at or after its time.
bl.at(0.5, function() hero:set("speed", 0.25) end)
bl.at(1.5, function() hero:set("speed", 0.75) end)
bl.at(2.5, function() hero:set("speed", 1.0) end)

-- Just after the first change: speed is smoothed (smooth_time 0.1 s), so it lags behind.
bl.step(0.55)
print(hero:table())
local raw, smoothed = hero:get("speed")
print(string.format("speed: raw %.6f smoothed %.6f", raw, smoothed))

-- A second later it has settled at 0.25: halfway from idle (0) to walk (0.5).
bl.step(0.9)
print(hero:table())
local w = hero:weights()
bl.near(w.idle, 0.5, 1e-3, "idle at speed 0.25")
bl.near(w.walk, 0.5, 1e-3, "walk at speed 0.25")

-- At 0.75 walk and run share the blend; every clip shares one normalized phase, so the
-- run (0.8 s) and walk (1 s) cycles stay in step.
bl.step(1.0)
print(hero:table())
w = hero:weights()
bl.near(w.walk, 0.5, 1e-3, "walk at speed 0.75")
bl.near(w.run, 0.5, 1e-3, "run at speed 0.75")
bl.near(hero:time("walk") / 1.0, hero:time("run") / 0.8, 1e-9, "walk and run in phase")

bl.step(1.0)
print(hero:table())
bl.near(hero:weights().run, 1.0, 1e-6, "full run")
bl.expect(hero:output_weight() == 1.0, "a 1D tree covers the whole body")
print(string.format("after %d frames (%.6f s) the run clip is at %.6f s", bl.frame(), bl.time(), hero:time("run")))
