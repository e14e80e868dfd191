-- A clip keeps its identity across a reload by its track and its place there, not by its
-- leaf name: a nod added on a new track before `b` takes the name `nod` and renames b's
-- playing nod to `nod#2`, but b's clip plays on (no clip_disable/clip_enable at the reload,
-- its local time kept), and the new clip gets its clip_enable when it starts at 3 s.
local here = (arg and arg[0] or ""):match("^(.*/)") or ""
local LIVE = "reload_identity.live.toml"
local load, remove_live = dofile(here .. "support/live_config.lua")(here, LIVE)

load("reload_identity.toml")
local k = bl.spawn("k", { timeline = "tl" })
bl.step(1.2)
print(string.format("before: nod weight %.3f time %.3f", k:weights().nod, k:time("nod")))
load("reload_identity_v2.toml")
print(string.format("after:  nod#2 weight %.3f time %.3f, nod weight %.3f", k:weights()["nod#2"], k:time("nod#2"),
  k:weights().nod))
bl.step(3.0)
for _, e in ipairs(bl.events({ actor = "k" })) do
  if e.kind == "clip_enable" or e.kind == "clip_disable" then
    print(e.frame, e.kind, e.clip)
  end
end
remove_live()
