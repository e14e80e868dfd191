-- `:stop()` right after a step: a giant plan holds the step until `:stop()` — the method of a
-- `bl.inputs` handle, like that of a `bl.on` handle — which must run it first, as the script
-- as written did, so the inputs drive the speed through the step's frames and no further.
bl.rate(10)
bl.load("../scripts/inputs_data.toml")
local walker = bl.spawn("walker", { graph = "walker" })
local inputs = bl.inputs(walker, "accelerate")
bl.step(0.3)
inputs:stop()
bl.step(0.3)
