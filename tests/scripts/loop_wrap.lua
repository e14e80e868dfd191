-- A looping clip's local time is a sum of frame lengths (1/30 s is not a binary fraction):
-- at a whole number of loops it must read 0, not 0.99999999999999944 (printed 1.000000),
-- in a clip layer and in blend trees of either sync; a one-shot reads its length at the end.
bl.load("loop_wrap.toml")
bl.rate(30)
local layered = bl.spawn("layered", { graph = "layered" })
local normalized = bl.spawn("normalized", { blend_tree = "normalized" })
local apart = bl.spawn("apart", { blend_tree = "apart" })
local function show()
  print(string.format("t=%.1f  clip a %.17g  breathe %.17g  normalized a %.17g  none a %.17g  once %.17g",
    bl.time(), layered:time("a"), layered:time("breathe"), normalized:time("a"), apart:time("a"),
    apart:time("once")))
end
for _ = 1, 3 do
  bl.frames(45)
  show()
end
bl.catch_up_budget(1000000)
bl.frames(300000 - 135)
show()
print(layered:table())
