-- A script whose result depends on when its steps run: the callback's error escapes
-- `bl.step(0.2)` when steps run as written, but a giant plan holds both steps until
-- `bl.frame()`, whose error `pcall` catches. `run --partition-check` must say so.
bl.at(0.2, function() error("boom") end)
bl.step(0.1)
bl.step(0.2)
print(pcall(bl.frame))
