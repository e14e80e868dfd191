bl.load("/tmp/qa-ops/w/loco.toml")
error("boom")
