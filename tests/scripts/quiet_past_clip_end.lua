-- Quiet frames past a clip's end. A clip's weight mixes in, holds on its plateau, and after
-- its end (post-extrapolation `hold`) holds for good; a row computes the mixing frames itself
-- and skips the held ones. A weight that holds for good once made the row look for the end
-- of "forever" and never return: every line below is a frame the engine reached.
bl.load("quiet_past_clip_end.toml")

-- `linger`: the clip ends at 0.5 s, the playback at 1.0 s.
local a = bl.spawn("a", { timeline = "linger" })
bl.frames(30)
print("at its end", bl.frame(), a:weights().hit, a:playback():time())
bl.frames(1)
print("past its end", bl.frame(), a:weights().hit, a:playback():time())
bl.frames(40)
print("completed", bl.frame(), a:weights().hit, a:playback():time(), a:playback():state())

-- Played from 0.2 s, then sought back to 0: the mix in again, then past the end.
local h = a:play("linger", { from = 0.2 })
bl.frames(10)
h:seek(0)
bl.frames(40)
print("sought to 0, 40 frames on", bl.frame(), a:weights().hit, h:time())

-- `gap` over a blend tree: the first clip ends, nothing plays in the gap, the second clip
-- mixes in and out.
local g = bl.spawn("g", { graph = "g" })
g:set("speed", 0.5)
local gap = g:play("gap", { layer = "tl" })
for _ = 1, 4 do
  bl.frames(20)
  local w = g:weights()
  print("gap", bl.frame(), w.hit, w.wave, w.idle, gap:time(), gap:state())
end
