-- bl.no_duplicate_events allows an event once per pass of a looping timeline in a frame. At
-- 1 Hz a frame of 1 s spans two passes of `lp` (0.6 s): both passes' tasks begin and end in
-- that frame, logged before its timeline_looped. That is no duplicate; the same event more
-- often than the actor ran passes still is.
bl.rate(1)
bl.load("seek_loop_tasks.toml")
bl.spawn("e", { timeline = "lp" })
bl.frames(3)
local logged = {}
for _, e in ipairs(bl.events({ actor = "e" })) do
  if e.frame == bl.frame() and e.kind ~= "command" then
    logged[#logged + 1] = e.kind .. (e.clip and " " .. e.clip or e.name and " " .. e.name or "")
  end
end
print(string.format("frame %d:\n  %s", bl.frame(), table.concat(logged, "\n  ")))
bl.no_duplicate_events({ actor = "e" })
bl.no_duplicate_events({ kind = "clip_begin" })
print("no duplicates: each task once per pass")
-- A warning logged twice in one frame (one pass) is still a duplicate.
bl.load("../config/err/warn_shared_threshold.toml")
bl.load("../config/err/warn_shared_threshold.toml")
print(select(2, pcall(bl.no_duplicate_events, { kind = "warning" })))
