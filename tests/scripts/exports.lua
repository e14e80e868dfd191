-- Exports: a recording as CSV and SVG, the event log as JSON Lines, the live graph as DOT.
-- Files go through a temporary file and a rename; an unwritable path is an error.
bl.rate(10)
bl.load("graph_layers.toml")
local hero = bl.spawn("hero", { graph = "hero" })
local rec = bl.record(hero, { every = 2 })
bl.at(0.3, function() hero:set("speed", 1) end)
bl.at(0.4, function() hero:play("greet", { layer = "upper" }) end)
bl.step(1.0)
rec:stop()
bl.step(0.5)
print(rec, rec:samples())
print(bl.record(hero, { every = 1 }))

local function read(path)
  local file = assert(io.open(path))
  local text = file:read("a")
  file:close()
  os.remove(path)
  return text
end
local path = os.tmpname()

print("-- recording:csv (the wave columns start when greet plays)")
bl.expect(rec:csv(path) == path, "csv returns the path written")
local written = read(path)
io.write(written)
-- /dev/stdout is where print writes, in order (a rename over it would replace a log file).
print("-- the same to /dev/stdout")
bl.expect(rec:csv("/dev/stdout") == "/dev/stdout", "csv returns the stream written")
-- /dev/fd/1 is the same stream, and comes in order too (it was written at the offset of a
-- file the output was redirected to, under what print wrote after it).
bl.expect(bl.events_jsonl("/dev/fd/1", { kind = "reload_applied" }) == "/dev/fd/1", "the stream by another name")

print("-- recording:svg")
rec:svg(path)
local svg = read(path)
local _, paths = svg:gsub("<path ", "")
print(svg:match("^<svg[^>]*>") ~= nil, "paths: " .. paths, svg:match("effective weights over time") ~= nil)
for name in svg:gmatch('<text x="[%d.]+" y="[%d.]+" fill="#222222">([^<]+)</text>') do print("legend: " .. name) end

print("-- bl.events_jsonl")
bl.events_jsonl(path, { actor = "hero" })
io.write(read(path))
-- A reload's files are a JSON array, one string per file, and a sequence in Lua (an event
-- line joins them by commas; bl.expect_event takes either form).
bl.events_jsonl(path, { kind = "reload_applied" })
io.write(read(path))
local files = bl.events({ kind = "reload_applied" })[1].files
print(type(files), table.concat(files, ","), bl.expect_event({ kind = "reload_applied", files = files }) ~= nil,
  bl.expect_event({ kind = "reload_applied", files = table.concat(files, ",") }) ~= nil)

print("-- actor:dot")
hero:dot(path)
io.write(read(path))

print("-- unwritable paths")
print(pcall(rec.csv, rec, "/no/such/folder/weights.csv"))
print(pcall(bl.events_jsonl, "/no/such/folder/events.jsonl"))
print(pcall(bl.record, hero, { every = 0 }))
print(pcall(bl.record, "villain"))
-- A folder is no file to write: said so, not as `Not a directory`.
print(pcall(rec.csv, rec, "../scripts/"))
print(pcall(rec.csv, rec, ".."))

-- The default pose's share is a column of every CSV (zeros above: hero's base layer covers
-- the pose), and a series of the chart where it has a share at some sample (none above).
print("-- <default>: a timeline easing in and out leaves the rest to the default pose")
local greeter = bl.spawn("greeter", { timeline = "greet" })
local greeting = bl.record(greeter, { every = 3 })
bl.step(1.6)
io.write(read(greeting:csv(path)))
greeting:svg(path)
svg = read(path)
_, paths = svg:gsub("<path ", "")
print("paths: " .. paths)
for name in svg:gmatch('<text x="[%d.]+" y="[%d.]+" fill="#222222">([^<]+)</text>') do print("legend: " .. name) end
