-- REFERENCE §2.6 and §2.7's zero-weight fallback on live actors.
bl.load("blend_direct.toml")
local raw = bl.spawn("raw", { blend_tree = "face" })
local norm = bl.spawn("norm", { blend_tree = "face_normalized" })

local function set(actor, smile, blink, frown)
  actor:set("w_smile", smile)
  actor:set("w_blink", blink)
  actor:set("w_frown", frown)
end

-- Every weight starts at 0: nothing is covered, the default pose shows, and nothing is NaN.
bl.frames(1)
for _, actor in ipairs({ raw, norm }) do
  bl.near(actor:output_weight(), 0, 0, "an all-zero direct tree covers nothing")
  bl.near(actor:weights()["<default>"], 1, 0, "the default pose shows")
  bl.near(actor:weights().smile, 0, 0, "zero, not NaN")
end
print(norm:table())

-- Weights as set: 0.2 + 0.3 covers half the pose; normalized they fill it.
set(raw, 0.2, 0.3, 0)
set(norm, 0.2, 0.3, 0)
bl.frames(1)
bl.near(raw:weights().smile, 0.2, 1e-12, "raw smile")
bl.near(raw:weights()["<default>"], 0.5, 1e-12, "raw: half default pose")
bl.near(norm:weights().smile, 0.4, 1e-12, "normalized smile")
bl.near(norm:weights().blink, 0.6, 1e-12, "normalized blink")
print(raw:table())
print(raw:explain())
print(norm:explain())

-- Time: a clip at weight 0.5 still plays at its own speed (the weighted cycle is the mean
-- Σ(w·D)/Σw; ours, equal to REFERENCE's Σ(w·D) when the weights sum to 1).
local before = raw:time("smile")
set(raw, 0.5, 0, 0)
bl.frames(30)
bl.near(raw:time("smile"), before + 0.5, 1e-9, "half a second later, smile is half a second on")

-- A nested tree's weight multiplies into its children.
local m = bl.spawn("m", { blend_tree = "mixed" })
m:set("w_gait", 0.8)
m:set("w_smile", 0.2)
m:set("speed", 0.25)
bl.frames(1)
bl.near(m:weights().walk, 0.8 * 0.75, 1e-12, "walk inside gait")
bl.near(m:weights().run, 0.8 * 0.25, 1e-12, "run inside gait")
print(m:explain())

-- A sweep of one direct weight: the default pose shrinks as the smile grows.
print(bl.sweep("face", "w_smile", 0, 1, 4))
