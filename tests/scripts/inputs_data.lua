-- Inputs as data: [inputs.NAME] keyframes (linear, step, smooth) and triggers, applied with
-- bl.inputs(actor, NAME) from the moment of the call, at the start of every logic frame.
bl.rate(10)
bl.load("inputs_data.toml")
local function curve(name)
  local walker = bl.spawn(name, { graph = "walker" })
  -- An actor is given by its handle or, as here, by its name.
  bl.inputs(name, name)
  local row = {}
  for _ = 1, 12 do
    bl.frames(1)
    row[#row + 1] = string.format("%.3f", walker:get("speed"))
  end
  print(string.format("%-10s %s", name, table.concat(row, " ")))
end
print("speed at frames 1..12 (10 Hz) after bl.inputs at frame " .. bl.frame())
curve("accelerate")
curve("gears")
curve("ease")

-- Triggers fire at the first frame at or after their time, in time order.
local walker = bl.spawn("walker", { graph = "walker" })
local t0 = bl.time()
bl.inputs(walker, "stumble")
bl.step(0.5)
for _, e in ipairs(bl.events({ actor = "walker" })) do
  print(string.format("frame %d t=%.1f %s %s", e.frame, e.time, e.kind, e.clip or e.to or e.timeline or ""))
end
print(walker:table())
bl.expect_event { kind = "transition_begin", actor = walker, between = { t0 + 0.2, t0 + 0.2 } }
print(pcall(bl.inputs, walker, "stumbel"))

-- Inputs that drive a parameter nothing of the actor reads move nothing: a warning says so.
local strider = bl.spawn("strider", { blend_tree = "locomotion" })
bl.inputs(strider, "sway")
for _, e in ipairs(bl.events({ kind = "warning" })) do
  print("warning: " .. e.message)
end
