-- For the reload scripts beside this folder (not a test itself: `blendlab test` does not
-- search subfolders). `dofile(here .. "support/live_config.lua")(here, live)` returns
-- `save(version), remove()`: `save` writes the config `version` over the live file `live`,
-- as an editor's save would (`io` opens files from the working folder, so both through
-- `here`, the script's folder), for the script to `bl.load(live)` (from its own folder);
-- `remove` deletes the live file at the end.
return function(here, live)
  local function save(version)
    local from = assert(io.open(here .. version))
    local text = from:read("a")
    from:close()
    local to = assert(io.open(here .. live, "w"))
    to:write(text)
    to:close()
  end
  local function remove()
    os.remove(here .. live)
  end
  return save, remove
end
