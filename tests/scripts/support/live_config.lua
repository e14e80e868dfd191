-- For the reload scripts beside this folder (not a test itself: `blendlab test` does not
-- search subfolders). `dofile(here .. "support/live_config.lua")(here, live)` returns
-- `load(version), remove()`: `load` writes the config `version` over the live file `live`,
-- as an editor's save would (`io` opens files from the working folder, so both through
-- `here`, the script's folder), and `bl.load`s it (a path relative to this file's folder,
-- as `bl.load` resolves it: the live file is one folder up); `remove` deletes the live file
-- at the end.
return function(here, live)
  local function load(version)
    local from = assert(io.open(here .. version))
    local text = from:read("a")
    from:close()
    local to = assert(io.open(here .. live, "w"))
    to:write(text)
    to:close()
    bl.load("../" .. live)
  end
  local function remove()
    os.remove(here .. live)
  end
  return load, remove
end
