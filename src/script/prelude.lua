-- Builds the public `bl` table and the handle methods from the raw Rust functions, wrapping
-- each so that a failure reaches Lua as a plain string message (already located at the
-- script line that called it), which is what `pcall` users expect.
-- Raw names `KIND_method` (KIND = actor, playback) become methods of that handle kind.
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

local bl, methods = {}, { actor = {}, playback = {} }
for name, f in pairs(raw) do
  local kind, method = name:match("^(%l+)_(.+)$")
  if kind and methods[kind] then
    methods[kind][method] = wrap(f)
  else
    bl[name] = wrap(f)
  end
end
return bl, methods
