-- Tries to swallow the timeout with pcall, xpcall and coroutines: it must still end.
local function spin() while true do end end
while true do
  pcall(spin)
  xpcall(spin, function(e) return e end)
  coroutine.resume(coroutine.create(spin))
end
