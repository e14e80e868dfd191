//! `run --sandbox`: running a script from someone else without handing it the machine. The
//! Lua state loses `os`, `io`, `debug`, `dofile`, `loadfile` and `package.loadlib` (and C
//! modules); `require` finds Lua modules only inside the script's folder tree (after symbolic
//! links); and every path
//! a `bl` function reads or writes (`bl.load`, `sweep:csv`) must resolve inside that tree.
//! What stays is pure computation (`string`, `table`, `math`, `utf8`, `coroutine`, `load` of
//! strings, `pcall`, `print`, …) and `bl` itself.

use std::path::{Component, Path, PathBuf};

use mlua::Lua;

/// Removes the dangerous libraries and replaces `require`'s searchers with one that loads
/// `NAME.lua` or `NAME/init.lua` below `root` only (`is_inside`: after symbolic links are
/// resolved, as `bl.load`'s paths). The searcher keeps its own copies of
/// `package.searchpath` and `loadfile`, so changing `package.path` from the script changes
/// nothing.
const RESTRICT: &str = r#"
local root, is_inside = ...
local searchpath, loadfile, preload = package.searchpath, loadfile, package.searchers[1]
local template = root .. "/?.lua;" .. root .. "/?/init.lua"
local function inside(name)
  local file, tried = searchpath(name, template)
  if not file then return "no file for '" .. name .. "' in the script's folder (--sandbox)" end
  if not is_inside(file) then
    return "'" .. file .. "' leads outside the script's folder through a symbolic link (--sandbox)"
  end
  local chunk, message = loadfile(file, "t")
  if not chunk then error(message, 0) end
  return chunk, file
end
for _, name in ipairs({ "os", "io", "debug" }) do
  _G[name] = nil
  package.loaded[name] = nil
end
_G.dofile, _G.loadfile = nil, nil
package.loadlib, package.searchpath, package.cpath = nil, nil, ""
package.path = template
package.searchers = { preload, inside }
"#;

pub(crate) fn restrict(lua: &Lua, root: &Path) -> mlua::Result<()> {
    let folder = root.to_path_buf();
    let is_inside = lua.create_function(move |_, file: String| Ok(inside(&folder, Path::new(&file))))?;
    lua.load(RESTRICT).set_name("=[sandbox]").call::<()>((root.display().to_string(), is_inside))
}

/// `path` with `.` and `..` resolved lexically against `base` (absolute when `base` is).
fn lexical(base: &Path, path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in base.join(path).components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether `path` (relative to the working directory, or absolute) lies inside `root`
/// (absolute and canonical) — following symbolic links as far as the path exists, so a link
/// pointing out of the folder does not count as inside.
pub(crate) fn inside(root: &Path, path: &Path) -> bool {
    let Ok(cwd) = std::env::current_dir() else { return false };
    let full = lexical(&cwd, path);
    // The longest existing ancestor, resolved; the rest (a file about to be written) appended.
    let mut existing = full.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else { return false };
        rest.push(name.to_owned());
        existing = parent;
    }
    let Ok(mut resolved) = existing.canonicalize() else { return false };
    resolved.extend(rest.iter().rev());
    resolved.starts_with(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_dot_is_resolved_before_the_check() {
        assert_eq!(lexical(Path::new("/a/b"), Path::new("../c/./d")), PathBuf::from("/a/c/d"));
        let root = std::env::temp_dir().canonicalize().unwrap();
        assert!(inside(&root, &root.join("new-file.csv")));
        assert!(!inside(&root, &root.join("../outside.csv")));
        assert!(!inside(&root, Path::new("/")));
    }
}
