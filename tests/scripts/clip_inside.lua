-- A clip inside another clip of its track: the load warns of it, saying what happens, and the
-- weights do what the warning says (REFERENCE §3.2: no blend; §3.4: held after its end until
-- the next clip starts, or to the end of the timeline).
bl.load("clip_inside.toml")
for _, case in ipairs({ { "last", { 0.5, 1.5, 2.5, 3.9 } }, { "followed", { 1.5, 2.5, 4.5, 5.5 } } }) do
  local name, times = case[1], case[2]
  local actor = bl.spawn(name, { timeline = name })
  print("-- " .. name)
  for _, t in ipairs(times) do
    actor:playback():seek(t, "suppress")
    local line = {}
    for leaf, w in pairs(actor:weights()) do
      line[#line + 1] = string.format("%s=%.3f", leaf, w)
    end
    table.sort(line)
    print(string.format("  t=%.1f %s", t, table.concat(line, " ")))
  end
end
