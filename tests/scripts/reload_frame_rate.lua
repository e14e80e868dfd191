-- A reload that changes a playing timeline's frame_rate keeps its time, and its task
-- lifecycle goes on from the frame that time is at under the new rate, replaying nothing
-- before it (README, Hot reload): at 0.5 s, frame 5 at 10 Hz becomes frame 10 at 20 Hz. E
-- (frame 8 = 0.40 s at 20 Hz) lies wholly before it and never begins; G (frames 9–11) spans
-- it and begins late at the next frame, as with from_frame; L keeps running to its end.
local here = (arg and arg[0] or ""):match("^(.*/)") or ""
local LIVE = "reload_frame_rate.live.toml"
local load, remove_live = dofile(here .. "support/live_config.lua")(here, LIVE)
bl.rate(10)
load("reload_frame_rate.toml")
local a = bl.spawn("a", { timeline = "sk" })
local p = a:playback()
bl.frames(5)
print(string.format("at 10 Hz: t=%.2f local frame %d anim %.2f", p:time(), p:frame(), a:time("anim")))
load("reload_frame_rate_v2.toml")
print(string.format("at 20 Hz: t=%.2f local frame %d anim %.2f", p:time(), p:frame(), a:time("anim")))
for _ = 1, 3 do
  bl.frames(1)
  print(string.format("frame %d: t=%.2f local frame %d anim %.2f", bl.frame(), p:time(), p:frame(), a:time("anim")))
end
for _, e in ipairs(bl.events({ actor = "a" })) do
  if e.clip and e.local_frame then print(e.frame, e.kind, e.clip, e.local_frame) end
end
print(a:trace())
remove_live()
