-- Builds the public `bl` table and the actor methods from the raw Rust functions, wrapping
-- each so that a failure reaches Lua as a plain string message (already located at the
-- script line that called it), which is what `pcall` users expect.
local raw, message_of = ...
local pack, unpack, pcall, error = table.pack, table.unpack, pcall, error

local function wrap(f)
  return function(...)
    local results = pack(pcall(f, ...))
    if results[1] then
      return unpack(results, 2, results.n)
    end
    error(message_of(results[2]), 0)
  end
end

local bl, actor = {}, {}
for name, f in pairs(raw) do
  local method = name:match("^actor_(.+)$")
  if method then
    actor[method] = wrap(f)
  else
    bl[name] = wrap(f)
  end
end
return bl, actor
