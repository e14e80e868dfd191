-- Well within any limit: limits change nothing for a script that keeps to them.
local ok = pcall(error, "caught as usual")
bl.expect(not ok, "pcall still catches ordinary errors")
print("quick ok")
