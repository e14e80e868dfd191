-- A seek before a playback's first frame moves where it starts: the playback then runs as
-- one played from there. Its tasks start there too. They once started from 0 and, at the
-- first frame, ran every pass in between: a seek a million passes ahead hung the run.
bl.load("seek_before_first_frame.toml")
local x = bl.spawn("x", { graph = "g" })
local y = bl.spawn("y", { graph = "g" })
x:play("short", { layer = "d" }):seek(1e6 - 0.2)
y:play("short", { layer = "d", from = 1e6 - 0.2 })
bl.step(0.5)
local lines = { x = {}, y = {} }
for _, e in ipairs(bl.events()) do
  if e.actor and e.kind ~= "seek" then
    local line = string.format("%d %s %s %s", e.frame, e.kind, e.clip or e.name or "", e.local_frame or "")
    table.insert(lines[e.actor], line)
  end
end
for _, line in ipairs(lines.x) do
  print("x", line)
end
print("y logged the same events as x:", table.concat(lines.x, "\n") == table.concat(lines.y, "\n"))
print("x at", x:playback():time(), x:playback():frame(), "y at", y:playback():time(), y:playback():frame())
