-- The upper-body override sample: cargo run --release -- run scripts/upper_body.lua
-- A gunner jogs; halfway through, a reload plays on the upper body only. The table shows one
-- column per channel: `lower` (legs) and `upper` (arms, chest); then what the additive breath
-- adds on top in each, `+lower` and `+upper` (it takes no share of the pose).
bl.rate(30)
bl.load("../samples/upper_body.toml")
local gunner = bl.spawn("gunner", { graph = "gunner" })

print("1. Jogging: pace 0.5 smooths in (smooth_time 0.15 s) and the legs tree blends to jog.")
gunner:set("pace", 0.5)
bl.step(1.0)
print(gunner:table())

print("\n2. The reload starts on the `arms` layer. 0.1 s in, its ease-in has it at half: the")
print("   upper body is half reload, half jog; the lower body is all jog.")
local reload = gunner:play("reload", { layer = "arms" })
bl.step(0.1)
print(gunner:table())
-- (SmoothDamp only approaches its target: jog is a few millionths short of its full share.)
bl.expect_weights(gunner, { reload_rifle = 0.5, jog = 0.5 }, 1e-4, "upper")
bl.expect_weights(gunner, { reload_rifle = 0, jog = 1 }, 1e-4, "lower")

print("\n3. Fully in, the reload owns the upper body; speeding up changes only the legs.")
gunner:set("pace", 0.8)
bl.step(0.5)
print(gunner:table())

print("\n4. The reload eases out and completes; the upper body returns to the legs' blend.")
bl.step(1.0)
print("reload: " .. reload:state())
print(gunner:table())
print(gunner:graph())
bl.expect_event { kind = "timeline_complete", timeline = "reload", actor = gunner }
