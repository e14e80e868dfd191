-- A step that an error inside a frame stops (a `bl.at` callback, a `bl.on` listener) ends
-- at the last whole frame it ran: that frame finishes, the rest of the step is dropped, and
-- the next step starts from there — nothing is owed to it.
bl.load("signals.toml")
local function clock(label)
  print(string.format("%s: frame %d, time %.6f", label, bl.frame(), bl.time()))
end
bl.at(0.1, function() error("boom") end)
print(pcall(bl.step, 0.5))
clock("after the failed step")
bl.step(0.5)
clock("after a step of 0.5 s")
-- A listener that fails stops the step after the frame of its event, as a callback does.
bl.spawn("s", { timeline = "looping" })
local failed = false
bl.on("signal", function(e)
  if not failed then
    failed = true
    error("listener failed at " .. e.name)
  end
end)
print(pcall(bl.step, 2))
clock("after the failed step")
bl.step(0.25)
clock("after a step of 0.25 s")
