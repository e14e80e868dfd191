-- REFERENCE §2.7: SmoothDamp 0 → 10 with smooth_time 0.3 at dt 0.1 (a 10 Hz clock).
bl.rate(10)
bl.load("reference_1d.toml")
local s = bl.spawn("s", { blend_tree = "smooth" })
s:set("smoothed", 10)
local want = { 1.451368, 3.861355, 5.951773, 7.462167 }
for i = 1, 4 do
  bl.frames(1)
  local raw, smoothed = s:get("smoothed")
  bl.near(smoothed, want[i], 1e-6, "frame " .. i)
  print(string.format("frame %d: raw %.6f smoothed %.6f  b weight %.6f", bl.frame(), raw, smoothed, s:weights().b))
end
