-- actor:explain() explains the blend trees an actor reaches through a transition layer's
-- states and through timeline clips (nested timelines too), each with its share; and
-- actor:table() lists the parameters those trees read.
bl.load("explain_live_trees.toml")
local function explain(actor)
  print(actor:explain())
  print(actor:table())
end

print("-- a transition layer fading from a clip to a tree that nests another")
local s = bl.spawn("s", { graph = "soldier" })
s:set("speed", 0.75)
s:set("lean", 0.5)
s:transition("base", "outer", 0.5)
bl.step(0.25)
explain(s)

print("-- a timeline whose clip plays a tree")
local w = bl.spawn("w", { timeline = "walkcycle" })
w:set("speed", 0.25)
bl.step(0.5)
explain(w)

print("-- a timeline nested in a clip that eases in")
local n = bl.spawn("n", { timeline = "scene" })
n:set("speed", 1)
bl.step(0.5)
explain(n)

print("-- a transition state that is a clip: nothing to explain, and it says so")
local g = bl.spawn("g", { graph = "soldier" })
print(g:explain())
