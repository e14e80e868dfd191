-- A playback's time is its time now, also while its actor's row skips its quiet frames
-- (frames that only move its local times: a plateau, no markers, no tasks). `h:time()` is
-- the first read here after 30 such frames, before any weight or frame is read; a restart of
-- the same timeline runs in the row, and its time moves on as well.
bl.load("quiet_playback_time.toml")

local a = bl.spawn("a", { timeline = "pose" })
local h = a:playback()
bl.frames(30)
print("pose after 30 frames", h:time())
print("frame, then time", h:frame(), h:time())
local h2 = a:play("pose", { from = 1.0 })
bl.frames(30)
print("replayed from 1.0, 30 frames on", h2:time())

-- The hit's plateau (0.1 s to 0.5 s) is quiet; its time and weight read in the middle.
local f = bl.spawn("f", { graph = "fighter" })
local hit = f:play("struck")
bl.frames(15)
print("hit after 15 frames", hit:time(), hit:state())
print("hit weight", f:weights().hit)
bl.frames(30)
print("hit after 45 frames", hit:time(), hit:state())
