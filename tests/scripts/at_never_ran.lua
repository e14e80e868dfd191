-- A headless run that ends with `bl.at` callbacks still scheduled warns of each, at its
-- `bl.at` call, in scheduling order: the clock never reached its time, or no frame ran after
-- it was scheduled. A callback that ran is not named.
bl.rate(10)
bl.at(0.2, function() print("ran at " .. bl.time()) end)
bl.at(5, function() print("never") end)
local function later(t)
  bl.at(t, function() print("never either") end)
end
later(2.5)
bl.step(1)
bl.at(0.5, function() print("due at the next frame, which never runs") end)
print("the script ends at " .. bl.time() .. " s")
