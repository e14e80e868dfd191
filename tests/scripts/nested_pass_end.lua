-- Where a pass ends, a nested timeline's events come in the order of a top-level pass end.
-- `inner`'s own loop: its pass's Disposes, then the next pass's clip_begin, then its
-- timeline_looped. The end of a pass of `hostloop`, which plays `inner` in clip `sub`:
-- the pass's Interrupts (N2 runs on), then the Disposes of the host and the nested timeline
-- in reverse order of Begin (N2, N1, Q), then the next pass's clip_begin, timeline_looped,
-- and `inner` starting over in it. A seek across the host's end ends `inner`'s tasks with
-- the pass it leaves, as that natural end does, and `inner` catches up at the next frame
-- from where the new pass starts (its clip is active there): no task frame of its new
-- activation is skipped. So too for a host without task clips of its own (`bare`).
bl.rate(10)
bl.load("nested_pass_end.toml")
local function show(actor)
  for _, e in ipairs(bl.events({ actor = actor })) do
    if e.kind == "timeline_looped" then
      print(string.format("  f%d timeline_looped %s %d", e.frame, e.timeline, e.count))
    elseif e.kind == "seek" then
      print(string.format("  f%d seek %g -> %g", e.frame, e.from, e.to))
    elseif e.local_frame and e.kind ~= "clip_tick" then
      print(string.format("  f%d %s %s lf %d", e.frame, e.kind, e.clip, e.local_frame))
    end
  end
end

print("-- natural play: inner loops at f5, the host at f8")
local a = bl.spawn("a", { timeline = "hostloop" })
bl.frames(8)
show("a")

print("-- a seek from 0.3 across the host's end (0.7) to 1.0, then one frame")
local b = bl.spawn("b", { timeline = "hostloop" })
bl.frames(3)
b:playback():seek(1.0)
print(b:trace())
bl.frames(1)
show("b")
print(b:trace())

print("-- the same seek on `bare`, a host without task clips")
local c = bl.spawn("c", { timeline = "bare" })
bl.frames(3)
c:playback():seek(1.0)
bl.frames(1)
show("c")
