-- A misspelt name of the API (a function of `bl`, a method or field of a handle) is an error
-- with a did-you-mean where the script reads it: never a nil that fails later as "attempt to
-- call a nil value", or not at all.
bl.load("inputs_data.toml")
local function try(label, f)
  local ok, message = pcall(f)
  print(label .. ": " .. (ok and "ok" or message))
end
local w = bl.spawn("w", { graph = "walker" })
local p = w:play("flinch", { layer = "flinch" })
local l = bl.on("signal", function() end)
local i = bl.inputs(w, "sway")
local r = bl.record(w)
try("bl function", function() bl.spwn("x", { graph = "walker" }) end)
try("bl read", function() return bl.evnts end)
-- `bl` reads nil for what is no near miss of its names, as any table does: scripts probe for
-- functions and keep helpers of their own in it (a number reads nil, so `ipairs(bl)` ends).
try("bl key that is no name", function() return bl[1] end)
try("bl name with nothing close", function() return bl.teleport end)
try("bl probed and extended", function()
  bl.util = bl.util or {}
  bl.util.twice = function(x) return 2 * x end
  assert(bl.teleport == nil and bl.util.twice(2) == 4 and rawget(bl, "spwn") == nil)
  for _ in ipairs(bl) do end
end)
try("actor method", function() w:weigths() end)
try("actor read", function() return w.nme end)
try("playback method", function() p:stat() end)
try("recording method", function() r:sop() end)
try("listener field", function() return l.knd end)
try("listener method", function() l:of() end)
try("inputs field", function() return i.nme end)
try("inputs method", function() i:stp() end)
-- What is there reads as ever, and so do tables that are data, not the API.
print(w:name(), p:state(), l.kind, i.name, i.actor, type(r.samples))
bl.step(0.1)
local event = bl.events()[1]
print(event.kind, event.nothing, bl.events({ kind = "signal" })[1])
bl.helper = function() return "a script's own" end
print(bl.helper())
