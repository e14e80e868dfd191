-- Builds the public `bl` table and the handle methods from the raw Rust functions, wrapping
-- each so that a failure reaches Lua as a plain string message (already located at the
-- script line that called it), which is what `pcall` users expect.
-- Raw names `KIND_method` (KIND = actor, playback, sweep, recording) become methods of that
-- kind.
local raw, message_of, no_such, kind_of = ...
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

-- An `__index` for one of the API's tables (`bl`, a handle): a name in `names`, else an error
-- with a did-you-mean where the script reads it (`bl.spwn: no such function; did you mean
-- `spawn`?`), never a nil that fails later as "attempt to call a nil value", or not at all.
-- `label` and `separator` name the table as a script writes it (`bl` `.`, `actor` `:`). A
-- number reads nil (`ipairs` ends at once). `lenient` (`bl`): only a near miss of a name it
-- has is an error; any other name reads nil, as in any table, so scripts can probe for a
-- function (`if bl.x then`) and keep their own helpers in it (`bl.util = bl.util or {}`).
local rawget, type = rawget, type
local function strict(label, separator, what, names, lenient)
  return function(t, key)
    local found = names and rawget(names, key)
    if found ~= nil or type(key) == "number" then return found end
    local message = no_such(label, separator, what, key, lenient or false, t, names)
    if message then error(message, 0) end
  end
end
-- `bl.sweep` returns a plain table of rows; its methods (`:table()`, `:csv(path)`) reach the
-- Rust result through the metatable, so editing the rows never changes what they print. A
-- name it has neither as a field nor as a method is an error with a did-you-mean, as a
-- handle's.
local sweep_rows, sweep = bl.sweep, methods.sweep
function bl.sweep(...)
  local rows, result = sweep_rows(...)
  local bound = {}
  for name, f in pairs(sweep) do
    bound[name] = function(_, ...) return f(result, ...) end
  end
  local index = strict("sweep", ":", "field or method", bound)
  return setmetatable(rows, { __index = index, __tostring = function() return sweep.table(result) end })
end
setmetatable(bl, { __index = strict("bl", ".", "function", nil, true) })
local index = {}
for _, kind in ipairs({ "actor", "playback", "recording" }) do
  index[kind] = strict(kind, ":", "method", methods[kind])
end
-- Actors and playbacks share one kind of userdata, so one `__index` for both.
local indexes = {
  handle = function(handle, key) return index[kind_of(handle)](handle, key) end,
  recording = index.recording,
  strict = strict,
}
return bl, methods, indexes
