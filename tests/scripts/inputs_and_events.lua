-- Scheduled inputs run at the first logic frame whose time is ≥ their time, in the order
-- they were scheduled; listeners see events in log order.
bl.rate(30)
bl.on("reload_applied", function(e) print("listener: reload_applied generation " .. e.generation) end)
bl.load("reference_1d.toml")
local t = bl.spawn("t", { blend_tree = "abc" })
local order = {}
bl.at(0.1, function() order[#order + 1] = "B@" .. bl.frame() end)
bl.at(0.05, function() order[#order + 1] = "A@" .. bl.frame() end)
bl.at(0.1, function() order[#order + 1] = "C@" .. bl.frame(); t:set("x", 3) end)
bl.at(0, function() order[#order + 1] = "past@" .. bl.frame() end)
-- One big step catches up every frame: nothing is skipped.
bl.step(4 / 30)
print(table.concat(order, " "))
print(string.format("frame %d time %.6f c=%.6f", bl.frame(), bl.time(), t:weights().c))
-- An input scheduled in the past runs at the next frame.
bl.at(0.01, function() print("late input at frame " .. bl.frame()) end)
bl.frames(1)
-- A callback may schedule more inputs.
bl.at(0.2, function()
  bl.at(0.2, function() print("nested input at frame " .. bl.frame()) end)
end)
bl.step(0.1)
-- Errors inside a callback stop the step at a frame boundary and name the callback's line.
bl.at(0.3, function() error("boom") end)
print(pcall(bl.step, 1))
print(string.format("stopped at frame %d", bl.frame()))
