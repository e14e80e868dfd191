-- A clip leaving the active set keeps its local time where it left, `local(min(t, ext_end))`
-- (REFERENCE §3.5), and the timeline it plays nested moves there too before it stops: at 4 s
-- N's local time is 6.25, so `inner` (looping every 1.5 s less a tick) is at 0.25 and its
-- leaf N/X reads 0.25, not the 0.05 of the frame before.
bl.rate(10)
bl.load("nested_disable.toml")
local o = bl.spawn("o", { timeline = "outer" })
bl.step(3.9)
print(string.format("t=%.2f N/X weight %.6f time %.6f", bl.time(), o:weights()["N/X"], o:time("N/X")))
bl.step(0.1)
print(string.format("t=%.2f N/X weight %.6f time %.6f", bl.time(), o:weights()["N/X"], o:time("N/X")))
