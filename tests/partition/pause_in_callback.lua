-- A pause from inside a frame counts from the next step (REFERENCE §1): as written the step
-- runs to 1 s, frame by frame it stops at 0.5 s. `run --partition-check` names the call.
bl.at(0.5, function() bl.pause(true) end)
bl.step(1.0)
