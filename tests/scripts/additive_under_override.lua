-- An override layer covers what an additive layer below it adds, as it covers every layer
-- below it (REFERENCE §6: it "leaves 1 − w_k to everything below it"; Unity's layer mixer:
-- lerp(base + 0.5·breathe, lean, 0.6) = 0.4·base + 0.2·breathe + 0.6·lean). The additive
-- column read 0.5 under every override.
bl.load("additive_under_override.toml")
local partly = bl.spawn("partly", { graph = "partly" })
local fully = bl.spawn("fully", { graph = "fully" })
local masked = bl.spawn("masked", { graph = "masked" })
bl.frames(1)
print(partly:table())
bl.near(partly:additive_weights().breathe, 0.5 * (1 - 0.6), 1e-12, "an override at 0.6 leaves 0.4 of it")
print(fully:table())
bl.near(fully:additive_weights().breathe, 0, 1e-12, "an override at 1 covers it")
print(masked:table())
bl.near(masked:additive_weights("upper").breathe, 0.2, 1e-12, "the masked channel is covered")
bl.near(masked:additive_weights("lower").breathe, 0.5, 1e-12, "the channel outside the mask is not")
