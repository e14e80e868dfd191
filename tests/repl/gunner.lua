-- A start-up script for tests/repl.rs (not a transcript): the gunner of
-- samples/upper_body.toml at 30 Hz, its config named from this file's folder.
bl.rate(30)
bl.load("../../samples/upper_body.toml")
hero = bl.spawn("hero", { graph = "gunner" })
