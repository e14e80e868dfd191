-- bl.inputs returns a handle: :stop() ends the inputs (the parameters keep their last values).
-- One parameter has one driver, the latest applied: a second bl.inputs takes a parameter over
-- from the first, and an actor:set takes it over from the inputs; each take-over is a warning.
bl.rate(10)
bl.load("inputs_data.toml")
local w = bl.spawn("w", { graph = "walker" })

local first = bl.inputs(w, "accelerate")
print(first, first.id, first.name, first.actor)
bl.frames(3)
print(string.format("speed after 3 frames: %.3f", w:get("speed")))
print("stop:", first:stop(), "again:", first:stop())
bl.frames(3)
print(string.format("speed 3 frames after :stop(): %.3f", w:get("speed")))

-- A second copy of the same inputs, applied later, takes `speed` over from the first; the
-- first keeps driving nothing else (it drives only `speed`).
local a = bl.inputs(w, "accelerate")
bl.frames(2)
local b = bl.inputs(w, "gears")
bl.frames(6)
print(string.format("speed, driven by gears: %.3f", w:get("speed")))

-- A set takes the parameter over: the inputs overwrite it no more.
w:set("speed", -1)
bl.frames(3)
print(string.format("speed after a set during the inputs: %.3f", w:get("speed")))
-- `a` lost its only parameter and has no triggers: it ended. `b` lost its only one too.
print("a still playing:", a:stop(), "b still playing:", b:stop())

-- `sway` drives `lean` and `speed`: a set of `speed` leaves `lean` to it.
local sway = bl.inputs(w, "sway")
w:set("speed", 0.25)
bl.frames(5)
print(string.format("lean %.3f speed %.3f", w:get("lean"), w:get("speed")))
sway:stop()

for _, e in ipairs(bl.events({ kind = "warning" })) do
  print(string.format("frame %d warning: %s", e.frame, e.message))
end
