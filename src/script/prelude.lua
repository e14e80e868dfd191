-- Builds the public `bl` table and the handle methods from the raw Rust functions, wrapping
-- each so that a failure reaches Lua as a plain string message (already located at the
-- script line that called it), which is what `pcall` users expect.
-- Raw names `KIND_method` (KIND = actor, playback, sweep, recording) become methods of that
-- kind.
local raw, message_of = ...
local pack, unpack, pcall, error = table.pack, table.unpack, pcall, error

-- `label` is the public name (`bl.at`, `actor:set`), for messages about bad arguments.
local function wrap(f, label)
  return function(...)
    local results = pack(pcall(f, ...))
    if results[1] then
      return unpack(results, 2, results.n)
    end
    error(message_of(results[2], label), 0)
  end
end

local bl, methods = {}, { actor = {}, playback = {}, sweep = {}, recording = {} }
for name, f in pairs(raw) do
  local kind, method = name:match("^(%l+)_(.+)$")
  if kind and methods[kind] then
    methods[kind][method] = wrap(f, kind .. ":" .. method)
  else
    bl[name] = wrap(f, "bl." .. name)
  end
end

-- `bl.sweep` returns a plain table of rows; its methods (`:table()`, `:csv(path)`) reach the
-- Rust result through the metatable, so editing the rows never changes what they print.
local sweep_rows, sweep = bl.sweep, methods.sweep
function bl.sweep(...)
  local rows, result = sweep_rows(...)
  local bound = {}
  for name, f in pairs(sweep) do
    bound[name] = function(_, ...) return f(result, ...) end
  end
  return setmetatable(rows, { __index = bound, __tostring = function() return sweep.table(result) end })
end
return bl, methods
