-- The cutscene sample, told as it plays: cargo run --release -- run scripts/cutscene.lua
-- Five moments of samples/cutscene.toml at 30 logic frames per second, with every signal
-- printed as it fires — the hooks a game would use for music, doors and subtitles.
bl.rate(30)
bl.load("../samples/cutscene.toml")
bl.on("signal", function(e) print(string.format("  signal %-12s at %.3f s (%s)", e.name, e.time, e.timeline)) end)
local hero = bl.spawn("hero", { timeline = "cutscene" })

print("1. The hero strolls in. The stroll eases out over its last 0.3 s, and with nothing")
print("   else playing the default pose takes the rest (the <default> row).")
bl.step(1.9)
print(hero:table())

print("\n2. At 2 s the greeting starts. It is a nested timeline: its clips show as greet/…,")
print("   its time is the greet clip's local time — here 0.6 s in, the bow easing in — and")
print("   its own marker fires as that time passes it (bow_chime, at 0.5 s of the greeting).")
bl.step(0.7)
print(hero:table())

print("\n3. From 3.1 s the wave overlaps the greeting's last 0.4 s: a blend, no ease needed.")
print("   Halfway through the overlap the two share the pose equally.")
bl.step(0.7)
print(hero:table())
bl.expect_weights(hero, { ["greet/bow"] = 0.5, wave_hello = 0.5 }, 1e-9)

print("\n4. The head override nods on the head channel only; the body channel is untouched.")
bl.step(0.45)
print(hero:table())

print("\n5. With wrap = \"none\" the playback completes at its end.")
bl.step(1.0)
print("playback: " .. hero:playback():state())
bl.expect_event { kind = "timeline_complete", timeline = "cutscene" }
bl.expect_event { kind = "signal", name = "line_welcome", between = { 3.8, 3.85 } }
bl.expect_event { kind = "signal", name = "bow_chime", timeline = "greeting", between = { 2.5, 2.5 } }
bl.no_duplicate_events()
