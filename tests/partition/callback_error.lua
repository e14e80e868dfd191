-- The callback's error escapes `bl.step(0.2)`, the step whose frames run it, in every plan:
-- the giant plan holds `bl.step(0.1)` (no callback falls due in it) but not `bl.step(0.2)`,
-- which runs as written after it, so the error never waits for `bl.frame()`, whose error
-- `pcall` would catch. `run --partition-check` finds the plans agree, and fails as the
-- script does.
bl.at(0.2, function() error("boom") end)
bl.step(0.1)
bl.step(0.2)
print(pcall(bl.frame))
