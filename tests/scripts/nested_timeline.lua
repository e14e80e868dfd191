bl.rate(10)
bl.load("nested_timeline.toml")
local cut = bl.spawn("cut", { timeline = "cutscene" })
for _, t in ipairs({ 0.5, 1.0, 1.5, 2.5 }) do
  bl.step(t - bl.time())
  print(cut:table())
end
-- At 1.5 s the greet clip's local time is 0.5·0.5 + 0.25 = 0.5: the nested timeline is at
-- 0.5 s, exactly where `bow` starts.
