-- A first tour of blendlab: load the locomotion sample, spawn an actor driven by its 1D
-- blend tree, change `speed` with scheduled inputs, and watch the weights follow.
--   cargo run --release -- run scripts/tour.lua

local names = bl.load("../samples/locomotion.toml")
print("1. samples/locomotion.toml defines " .. table.concat(names, ", ") .. ": three clips and")
print("   a 1D blend tree over `speed` (idle at 0, walk at 0.5, run at 1). An actor driven by")
print("   the tree starts at speed 0: all idle.")

bl.rate(60)
local hero = bl.spawn("hero", { blend_tree = "locomotion" })
print(hero:table())

-- Inputs are scheduled on the clock: each runs at the first logic frame at or after its time.
bl.at(0.5, function() hero:set("speed", 0.25) end)
bl.at(1.5, function() hero:set("speed", 0.75) end)
bl.at(2.5, function() hero:set("speed", 1.0) end)

-- Just after the first change: speed is smoothed (smooth_time 0.1 s), so it lags behind.
print("\n2. At 0.5 s an input sets speed to 0.25. The tree reads the smoothed value")
print("   (smooth_time 0.1 s), which lags behind the raw one.")
bl.step(0.55)
print(hero:table())
local raw, smoothed = hero:get("speed")
print(string.format("   speed: raw %.6f smoothed %.6f", raw, smoothed))

-- A second later it has settled at 0.25: halfway from idle (0) to walk (0.5).
print("\n3. Settled at 0.25: halfway from idle (0) to walk (0.5).")
bl.step(0.9)
print(hero:table())
local w = hero:weights()
bl.near(w.idle, 0.5, 1e-3, "idle at speed 0.25")
bl.near(w.walk, 0.5, 1e-3, "walk at speed 0.25")

-- At 0.75 walk and run share the blend; every clip shares one normalized phase, so the
-- run (0.8 s) and walk (1 s) cycles stay in step.
print("\n4. At 0.75 walk and run share the blend. The tree keeps one normalized phase, so the")
print("   walk (1 s) and run (0.8 s) cycles stay in step: their local times are 1 : 0.8.")
bl.step(1.0)
print(hero:table())
w = hero:weights()
bl.near(w.walk, 0.5, 1e-3, "walk at speed 0.75")
bl.near(w.run, 0.5, 1e-3, "run at speed 0.75")
bl.near(hero:time("walk") / 1.0, hero:time("run") / 0.8, 1e-9, "walk and run in phase")

print("\n5. Full speed: all run.")
bl.step(1.0)
print(hero:table())
bl.near(hero:weights().run, 1.0, 1e-6, "full run")
bl.expect(hero:output_weight() == 1.0, "a 1D tree covers the whole body")
print(string.format("   after %d frames (%.6f s) the run clip is at %.6f s", bl.frame(), bl.time(), hero:time("run")))

print("\nNext: scripts/strafe.lua (a 2D tree), scripts/upper_body.lua (layers, masks, an")
print("additive breath), scripts/cutscene.lua (a timeline with signals and a nested one) —")
print("each with `blendlab run` — or the prompt: blendlab samples/locomotion.toml")
