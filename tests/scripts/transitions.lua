-- The transition arbiter (seed 002, REFERENCE §5): only the newest token commits.
bl.rate(10)
bl.load("tasks.toml")
local body = bl.spawn("body", { graph = "body" })
local function show(from)
  for _, e in ipairs(bl.events({ actor = "body" })) do
    if e.frame >= from and e.layer then
      print(string.format("  frame %d %-30s layer %-4s gen %d %s", e.frame, e.kind, e.layer, e.generation,
        e.to and (e.from .. " → " .. e.to) or ("rejected " .. e.rejected)))
    end
  end
end

print("-- latest transition commits: Run (gen 1) then Hit (gen 2); Run's late completion is stale")
local run = body:transition("base", "run", 0.3)
local hit = body:transition("base", "hit", 0.3)
print("  complete(run): " .. body:complete("base", run))
print("  complete(hit): " .. body:complete("base", hit))
print("  complete(hit) again: " .. body:complete("base", hit))
local arbiter = body:arbiter("base")
print(string.format("  state %s, pending %s, rejected %d", arbiter.state, tostring(arbiter.pending), arbiter.rejected))
bl.expect(hit.from == "idle", "Hit comes from Idle: Run never committed")
-- Both fades still report their own completion at α 1 (listed below): Run's is stale, Hit's a
-- duplicate of the one delivered by hand; each is counted.

print("-- fades report their own completion; a superseded fade's completion is stale")
local mark = bl.frame() + 1
body:transition("base", "idle", 0.2)
bl.frames(1)
local again = body:transition("base", "run", 0.4)
bl.frames(8)
show(mark)
print(body:table())

print("-- layers have their own arbiters and never cancel each other")
mark = bl.frame() + 1
local wave = body:transition("face", "wave", 0.1)
local back = body:transition("base", "idle", 0.1)
bl.frames(4)
show(mark)
print("  base: " .. body:arbiter("base").state .. ", face: " .. body:arbiter("face").state)

print("-- foreign and malformed tokens are rejected, never a crash")
print("  foreign: " .. body:complete("base", { generation = 99, from = "x", to = "y" }))
print("  face token on base: " .. body:complete("base", wave))
print("  " .. select(2, pcall(function() body:complete("base", {}) end)))
print("  " .. select(2, pcall(function() body:transition("base", "jump", 0.1) end)))
print("  " .. select(2, pcall(function() body:transition("bsae", "run", 0.1) end)))
print("  " .. select(2, pcall(function() body:transition("skill_a", "run", 0.1) end)))
print("  " .. select(2, pcall(function() body:transition("base", "run", -1) end)))
print("  rejected on base: " .. body:arbiter("base").rejected)

print("-- completions commit a state; they never stop or rewind the newest fade")
local pose = bl.spawn("pose", { graph = "pose" })
local function base_weights()
  local w = pose:weights()
  return string.format("idle %.2f run %.2f hit %.2f", w.idle, w.run or 0, w.hit or 0)
end
local early = pose:transition("base", "run", 0.4)
bl.frames(2)
print("  run at α 0.5: " .. base_weights() .. "; complete(run) by hand: " .. pose:complete("base", early))
bl.frames(2)
print("  0.2 s later:   " .. base_weights() .. " (the fade went on to its end)")
-- Its own completion still arrives at α 1, a late callback (seed 002): a duplicate, counted.
for _, e in ipairs(bl.events({ kind = "duplicate_completion_rejected", actor = "pose" })) do
  print(string.format("  frame %d: the fade's own completion of gen %d: %s, rejected %d", e.frame, e.generation, e.kind,
    e.rejected))
end
bl.expect(pose:arbiter("base").rejected == 1, "the fade's late completion is counted")
pose:transition("base", "idle", 0.4)
bl.frames(1)
pose:transition("base", "hit", 0.2)
bl.frames(8)
print("  idle superseded by hit, 0.8 s later: " .. base_weights() .. ", state " .. pose:arbiter("base").state)
bl.expect_weights(pose, { run = 0, hit = 1 }, 1e-12)

-- transition_begin carries the fade's duration as asked for (in Lua and in JSON Lines).
for _, e in ipairs(bl.events({ kind = "transition_begin", actor = "pose" })) do
  print(string.format("transition_begin %s → %s, duration %s", e.from, e.to, tostring(e.duration)))
end
local path = bl.events_jsonl("transitions_begin.jsonl", { kind = "transition_begin", actor = "pose" })
for line in io.lines(path) do print(line) end
os.remove(path)
