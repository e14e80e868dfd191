-- Loops are unrolled (REFERENCE §3.7), at most 1 000 whole loops at once: a 1 ms loop at the
-- slowest clock, 1 Hz, never folds; a seek far ahead folds the rest into one warning, and the
-- loop it lands in still has its exact count.
bl.load("loop_fold.toml")
bl.rate(1)
local a = bl.spawn("a", { timeline = "ms" })
bl.frames(3)
local function summary(label)
  local looped = bl.events{ kind = "timeline_looped" }
  print(label, "timeline_looped", #looped, "last count", looped[#looped].count,
    "signals", #bl.events{ kind = "signal" }, "warnings", #bl.events{ kind = "warning" })
end
summary("3 frames at 1 Hz:")
a:playback():seek(1000, "fire_skipped")
summary("after a seek to 1000 s:")
for _, e in ipairs(bl.events{ kind = "warning" }) do print(e.message) end
