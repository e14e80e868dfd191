-- A listener makes merging unsafe, so the giant plan holds no step of this script, but the
-- other plans still cut its steps: a speed change from inside a frame counts from the next
-- step (REFERENCE §1), so frame by frame the rest of the step runs twice as fast, and
-- `run --partition-check` must say so, naming the call.
bl.load("../../samples/cutscene.toml")
bl.spawn("hero", { timeline = "cutscene" })
bl.on("signal", function(e)
  if e.name == "door_opens" then bl.speed(2) end
end)
bl.step(2)
