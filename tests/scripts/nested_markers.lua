-- Signals of a nested timeline fire on the actor, named by the nested timeline (Unity: the
-- signals of a sub-timeline under a control track).
bl.load("nested_markers.toml")
local hero = bl.spawn("hero", { timeline = "scene" })
local p = hero:play("scene") -- the same timeline again: a handle on it, started over at 0
local shown = 0
local function signals()
  local all = bl.events({ kind = "signal" })
  for k = shown + 1, #all do
    print(string.format("  %.4f %s/%s", all[k].time, all[k].timeline, all[k].name))
  end
  shown = #all
end

print("-- greet plays the greeting in [1, 2): turn as it starts, then 0.25 and 0.5")
bl.step(2.5)
signals()

print("-- encore's greeting is an instance of its own (first_bow_only fires again); after 4 s")
print("-- its local time loops: each jump back re-syncs (no turn), bow fires every pass")
bl.step(2.7)
signals()

print("-- seek back before greet (suppress): its greeting starts over when the clip is active")
print("-- again; first_bow_only has fired once for this clip and stays quiet")
p:seek(0.9, "suppress")
bl.step(1)
signals()

print("-- a suppressed seek inside greet skips its markers; fire_skipped fires them")
p:seek(1.05, "suppress")
bl.step(0.5)
signals()
p:seek(1.0, "suppress")
p:seek(1.6, "fire_skipped")
signals()
