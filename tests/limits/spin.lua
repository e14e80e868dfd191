-- Never ends on its own: `run --timeout` must stop it at the loop's line.
local x = 0
while true do
  x = x + 1
end
