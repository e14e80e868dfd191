-- One step of many frames runs no Lua instruction: the frame loop must see the timeout.
bl.load("../../samples/locomotion.toml")
bl.spawn("hero", { blend_tree = "locomotion" })
bl.catch_up_budget(1e12)
bl.step(1e6)
