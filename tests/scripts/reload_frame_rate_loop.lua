-- A reload that changes a looping timeline's frame_rate (so how long a pass lasts: its
-- clips are in frames) keeps the pass it is in and its time in that pass (README, Hot
-- reload): the loop count goes on by one at each end, never skipping or repeating a number.
-- 20 Hz (0.3 s passes) to 10 Hz (0.6 s) in pass 2 at 0.25 s: the time stays 0.25 s, and the
-- next end is loop 3. Back to 20 Hz in pass 3 at 0.5 s, past the new 0.3 s end: it stays at
-- the pass's last instant, and the next frame crosses the end, loop 4.
local here = (arg and arg[0] or ""):match("^(.*/)") or ""
local LIVE = "reload_frame_rate_loop.live.toml"
local load, remove_live = dofile(here .. "support/live_config.lua")(here, LIVE)
bl.rate(20)
load("reload_frame_rate_loop.toml")
local a = bl.spawn("a", { timeline = "lp" })
local p = a:playback()
local shown = 0
local function show(label)
  print(string.format("-- %s: t=%.2f local frame %d", label, p:time(), p:frame()))
  local events = bl.events({ actor = "a" })
  for i = shown + 1, #events do
    local e = events[i]
    if e.kind == "timeline_looped" then
      print(string.format("  f%d timeline_looped %d", e.frame, e.count))
    elseif e.kind == "signal" then
      print(string.format("  f%d signal %s", e.frame, e.name))
    elseif e.local_frame and e.kind ~= "clip_tick" then
      print(string.format("  f%d %s %s lf %d", e.frame, e.kind, e.clip, e.local_frame))
    end
  end
  shown = #events
end
bl.frames(17)
show("20 Hz, 17 frames (0.85 s)")
load("reload_frame_rate_loop_v2.toml")
show("reloaded at 10 Hz")
bl.frames(16)
show("16 frames")
load("reload_frame_rate_loop.toml")
show("reloaded at 20 Hz")
bl.frames(3)
show("3 frames")
remove_live()
