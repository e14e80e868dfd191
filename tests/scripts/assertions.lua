-- Assertions for regression scripts. Each failure is a Lua error naming this file's line and
-- showing what was expected above what happened; pcall catches them here so one script can
-- show all of them.
bl.rate(10)
bl.load("signals.toml")
bl.load("graph_layers.toml")
local looper = bl.spawn("looper", { timeline = "looping" })
bl.step(1.0)

local function show(label, ok, message)
  print(label .. ": " .. (ok and "ok" or message))
end

-- expect_event: a kind, a time window, an actor and any field of the event.
local quarter = bl.expect_event { kind = "signal", name = "quarter", between = { 0.2, 0.3 }, actor = looper }
print(string.format("quarter fired at frame %d, t=%.2f", quarter.frame, quarter.time))
bl.expect_event { kind = "signal", name = "once", count = 1 }
show("late window", pcall(bl.expect_event, { kind = "signal", name = "quarter", between = { 0.5, 0.9 } }))
show("wrong count", pcall(bl.expect_event, { kind = "signal", name = "start", count = 3 }))
show("no such event", pcall(bl.expect_event, { kind = "timeline_complete" }))
show("no kind", pcall(bl.expect_event, { name = "quarter" }))
show("misspelt kind", pcall(bl.expect_event, { kind = "signl" }))
show("misspelt field", pcall(bl.expect_event, { kind = "signal", nmae = "quarter" }))
show("window backwards", pcall(bl.expect_event, { kind = "signal", between = { 0.5, 0.1 } }))
-- A spec's values are checked for their type before anything is looked for.
show("window of one", pcall(bl.expect_event, { kind = "signal", between = { 0.27 } }))
show("window of three", pcall(bl.expect_event, { kind = "signal", between = { 0.1, 0.2, 0.3 } }))
show("window not numbers", pcall(bl.expect_event, { kind = "signal", between = { 0.1, "a" } }))
show("field a table", pcall(bl.expect_event, { kind = "clip_begin", clip = { 1 } }))
show("frame a string", pcall(bl.expect_event, { kind = "signal", frame = "x" }))
show("count a fraction", pcall(bl.expect_event, { kind = "signal", count = 0.5 }))
-- A string where the event holds a number is shown quoted: it never matches.
show("number as a string", pcall(bl.expect_event, { kind = "reload_applied", generation = "1" }))
-- `count = 0` holds when nothing matches, and returns nil: there is no first match.
print("count = 0:", bl.expect_event { kind = "signal", name = "never", count = 0 })

-- expect_weights: leaf weights (and <default>) within a tolerance, per channel.
local hero = bl.spawn("hero", { graph = "hero" })
hero:set("speed", 0.5)
bl.frames(1)
bl.expect_weights(hero, { idle = 0.1, walk = 0.1, lean = 0.8 }, 1e-12, "lower")
show("off weights", pcall(bl.expect_weights, hero, { idle = 0.5, lean = 0.5 }, 1e-6, "lower"))
show("tiny difference", pcall(bl.expect_weights, hero, { lean = 0.8 + 1e-9 }, 1e-12, "lower"))
show("unknown leaf", pcall(bl.expect_weights, hero, { leen = 0.8 }))
show("unknown channel", pcall(bl.expect_weights, hero, { lean = 0.8 }, 1e-6, "uper"))
show("negative tolerance", pcall(bl.expect_weights, hero, { lean = 0.8 }, -1))
show("near, negative tolerance", pcall(bl.near, 0.8, 0.8, -1e-9))
show("near, round numbers", pcall(bl.near, 100000, 1000, 0.5))
show("near, equal infinities", pcall(bl.near, 1 / 0, 1 / 0))
show("near, NaN", pcall(bl.near, 0 / 0, 0 / 0))
show("no tolerance", pcall(bl.expect_weights, hero, { lean = 0.7 }, 0, "lower"))
show("unknown channel without a near name", pcall(bl.expect_weights, hero, { lean = 0.8 }, 1e-6, "legs"))
show("nothing to check", pcall(bl.expect_weights, hero, {}))

-- no_duplicate_events: no event twice in one frame for one actor.
bl.no_duplicate_events()
bl.no_duplicate_events { kind = "signal" }
print("no duplicates so far")
-- Loading a file twice in one frame repeats its warning: the same event twice.
bl.load("../config/err/warn_shared_threshold.toml")
bl.load("../config/err/warn_shared_threshold.toml")
show("twice", pcall(bl.no_duplicate_events, { kind = "warning" }))
-- A bound that rounds to a tick past six decimals is shown to the tick, and `time` (which
-- every event has, but which a spec matches with `between`) says how.
show("bound past six decimals", pcall(bl.expect_event, { kind = "signal", name = "quarter", between = { 0.3000000000006, 0.4 } }))
show("time as a field", pcall(bl.expect_event, { kind = "signal", time = 0.3 }))
-- A weight is a number, never a string that reads as one.
show("weight as a string", pcall(bl.expect_weights, hero, { lean = "0.8" }, 1e-6, "lower"))
