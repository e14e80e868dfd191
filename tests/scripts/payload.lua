-- An Emit task's payload reaches Lua as a table with the config's types (as a Unity signal's
-- or a Godot method track's argument would), JSON Lines as an object, and an event line as
-- one TOML inline table.
bl.rate(10)
bl.load("payload.toml")
bl.on("command", function(e)
  local p = e.payload
  if e.name ~= "spark" then
    print(e.name .. ": " .. (p and ("a payload with " .. #p .. " items, " .. tostring(next(p))) or "no payload"))
    return
  end
  print("power + 1 = " .. (p.power + 1), math.type(p.power))
  print("n is a " .. type(p.n) .. ": " .. string.format("%q", p.n))
  print("msg = " .. p.msg, "ratio = " .. p.ratio, "whole = " .. p.whole, math.type(p.whole))
  print("nested.x has " .. #p.nested.x .. " items: " .. table.concat(p.nested.x, " + "), "at = " .. p.nested.at)
  print("ok is a " .. type(p.ok), "two words = " .. (p["two words"]:gsub("\n", "\\n")))
end)
bl.spawn("a", { timeline = "cue" })
bl.step(0.5)

print("-- JSON Lines")
local path = os.tmpname()
bl.events_jsonl(path, { kind = "command" })
local file = assert(io.open(path))
io.write(file:read("a"))
file:close()
os.remove(path)

print("-- bl.expect_event compares a payload table by value; a failure lists the event lines")
local wanted = {
  power = 3.0, n = "3", msg = "a,b=c", ratio = 0.5, whole = 2, ok = true, ["two words"] = 'say "hi"\n',
  nested = { x = { 1, 2 }, at = "1979-05-27" },
}
print(bl.expect_event({ kind = "command", name = "spark", payload = wanted }) ~= nil)
print(bl.expect_event({ kind = "command", payload = {} }).name)
print(pcall(bl.expect_event, { kind = "command", payload = { n = 3 } }))
-- So does the string an event line shows.
print(bl.expect_event({ kind = "command", payload = "{}" }).name)
wanted.nested.x[3] = 3
print(pcall(bl.expect_event, { kind = "command", name = "spark", payload = wanted }))
-- Integers compare exactly, as in Lua: 2^53 + 1 is neither 2^53 nor the float 2^53.
print(bl.expect_event({ kind = "command", payload = { id = 9007199254740993 } }).name)
print(pcall(bl.expect_event, { kind = "command", name = "big", payload = { id = 9007199254740992 } }))
print(pcall(bl.expect_event, { kind = "command", name = "big", payload = { id = 2.0 ^ 53 } }))
-- A table for a field that is neither a payload nor a reload's files is refused.
print(pcall(bl.expect_event, { kind = "command", name = {} }))
