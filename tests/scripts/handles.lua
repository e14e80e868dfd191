-- Handles compare as what they name: two handles of one actor, or of one playback, are equal
-- (`==`) however each was come by; handles of two actors, of two playbacks, or of an actor
-- and a playback are not. (Each call made a new handle, and no two were ever equal.)
bl.load("seek_loop_tasks.toml")
local a = bl.spawn("a", { timeline = "lp" })
local b = bl.spawn("b", { timeline = "lp" })
print("a == a:", a == a, "a == b:", a == b)
local first = a:playback()
print("a:playback() == a:playback():", first == a:playback(), "== b:playback():", first == b:playback())
local again = a:play("lp")
print("a new play's handle == a:playback():", again == a:playback(), "the first one == it:", first == again)
print("an actor == its playback:", a == first, "an actor == its name:", a == "a")
