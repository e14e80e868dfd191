-- `bl.on` returns the listener's handle: `:off()` removes it, and `bl.off(kind[, fn])` removes
-- a kind's listeners. An error a listener or a `bl.at` callback raises names it, where it was
-- written and the frame; the step stops after that frame, owing nothing to the next step.
bl.load("../../samples/cutscene.toml")
local k = bl.spawn("k", { timeline = "cutscene" })
local seen = {}
local h = bl.on("signal", function(e) seen[#seen + 1] = e.name end)
print(h)
local bad = bl.on("signal", function(e) local x = nil; return x.y end)
print(pcall(bl.step, 1.2))
print("frame", bl.frame())
print("removed", bad:off(), "again", bad:off())
bl.step(2)
print(table.concat(seen, " "))
local quiet = function() end
bl.on("signal", quiet)
print("bl.off", bl.off("signal", quiet), bl.off("signal"), h:off())
bl.step(1)
print(#seen, "signals heard")
bl.at(bl.time() + 0.05, function() error("cb fail") end)
print(pcall(bl.step, 1))
print("frame", bl.frame())
print(pcall(bl.off, "signl"))
