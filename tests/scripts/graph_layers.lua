-- REFERENCE §6: override layers take their weight of what is left below them, per channel;
-- masks limit a layer to its channels; additive layers add without taking share.
bl.load("graph_layers.toml")
local hero = bl.spawn("hero", { graph = "hero" })
hero:set("speed", 0.5)
bl.frames(1)
print(hero:table())
-- Base fully covered and an override at 0.8: base leaves 0.2, override leaves 0.8.
local lower = hero:weights("lower")
bl.near(lower.idle + lower.walk, 0.2, 1e-12)
bl.near(lower.lean, 0.8, 1e-12)
-- The additive breath takes no share (weight 0) and adds its layer weight × its share.
print("weights:", lower.breathe, "additive:", hero:additive_weights("lower"))

-- Play the masked timeline on the upper layer: it only takes share of `upper`.
local greet = hero:play("greet", { layer = "upper" })
bl.step(0.75)
print(hero:table())
print(hero:graph())
local upper, lower2 = hero:weights("upper"), hero:weights("lower")
bl.near(upper.wave, 1.0, 1e-12, "wave fully in at 0.75 s")
bl.near(upper.lean + upper.idle + upper.walk, 0, 1e-12, "nothing below shows through")
bl.near(lower2.lean, 0.8, 1e-12, "lower body untouched by the mask")
for _, channel in ipairs({ "lower", "upper" }) do
  local sum = 0
  for _, w in pairs(hero:weights(channel)) do sum = sum + w end
  bl.near(sum, 1, 1e-12, channel .. ": shares plus <default> sum to 1")
end
bl.step(1)
print("greet is " .. greet:state())
print(hero:table())

-- Every leaf has a name of its own, however the generated names meet.
local crowded = bl.spawn("crowded", { graph = "crowded" })
bl.step(0.25)
print(crowded:table())
local names, total = {}, 0
for name, w in pairs(crowded:weights()) do
  names[#names + 1] = name
  total = total + w
end
table.sort(names)
print(table.concat(names, ", "))
bl.expect(#names == 6, "six leaves, six names")
bl.near(total, 1, 1e-12, "shares plus <default> sum to 1")

-- A timeline played at run time must mask only channels its actor has, as compile checks
-- for the timelines a graph's layers name.
print(select(2, pcall(function() hero:play("nod", { layer = "upper" }) end)))
