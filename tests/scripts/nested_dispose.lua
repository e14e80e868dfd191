-- The end of a playback ends the tasks of the timelines its clips play nested with its own
-- (REFERENCE §4): first every Interrupt, in clip order, a nested timeline's where its clip
-- stands in that order; then every Dispose, in reverse order of Begin across them all.
bl.rate(10)
bl.load("nested_dispose.toml")
local lifecycle = { clip_begin = true, clip_finish = true, clip_interrupt = true, task_dispose = true }
local function show(actor)
  for _, e in ipairs(bl.events({ actor = actor })) do
    if lifecycle[e.kind] then
      print(string.format("  %2d %-14s %-3s local frame %d", e.frame, e.kind, e.clip, e.local_frame))
    end
  end
end

print("-- interrupted at frame 8: Interrupt P1, N1, N2 (sub's), P2; Dispose P3, P2, N2, N1, P1")
local a = bl.spawn("a", { timeline = "outer" })
bl.frames(8)
a:playback():interrupt()
show(a)
bl.no_duplicate_events({ kind = "task_dispose" })

print("-- completed after its local frame 31 with sub's N1 running: Interrupt N1, then Dispose P3, P2, N2, N1, P1")
local b = bl.spawn("b", { timeline = "long_outer" })
bl.frames(40)
show(b)
print("  " .. b:playback():state())

print("-- two levels, interrupted after 6 frames: Interrupt T1, W1, N1, N2, T2; Dispose N2, T2, N1, W1, T1")
local c = bl.spawn("c", { timeline = "top" })
bl.frames(6)
c:playback():interrupt()
show(c)
