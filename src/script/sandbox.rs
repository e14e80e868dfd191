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

/// Whether `path` (relative to the working directory, or absolute) lies inside `root`
/// (absolute and canonical) once resolved as the system resolves it ([`landing`]), so a link
/// pointing out of the folder, or a `..` after a link, does not count as inside.
pub(crate) fn inside(root: &Path, path: &Path) -> bool {
    landing(path).is_some_and(|landed| landed.starts_with(root))
}

/// Where `path` (relative to the working directory, or absolute) leads: each part in turn, a
/// symbolic link replaced by what it points to (whether that exists or not) and `..` taken
/// from the folder reached so far, as the system takes them — `link/..` is the folder above
/// the link's target, not the link's own folder. Parts that do not exist yet (a file about to
/// be written) are kept as named. `None` for a loop of links.
pub(crate) fn landing(path: &Path) -> Option<PathBuf> {
    let parts = |path: &Path| path.components().rev().map(|part| part.as_os_str().to_owned()).collect::<Vec<_>>();
    // What is still to walk, the next part last.
    let mut ahead = parts(&std::env::current_dir().ok()?.join(path));
    let mut reached = PathBuf::new();
    let mut links = 0;
    while let Some(part) = ahead.pop() {
        match Path::new(&part).components().next() {
            Some(Component::CurDir) | None => {}
            Some(Component::ParentDir) => {
                reached.pop();
            }
            Some(Component::Normal(_)) => match std::fs::read_link(reached.join(&part)) {
                Ok(target) => {
                    // As many links as Linux follows in one path before giving up (ELOOP).
                    links += 1;
                    if links > 40 {
                        return None;
                    }
                    ahead.extend(parts(&target));
                }
                Err(_) => reached.push(&part),
            },
            // The root (or a drive): an absolute target starts over from it.
            Some(_) => reached.push(&part),
        }
    }
    Some(reached)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_dot_is_resolved_before_the_check() {
        let root = std::env::temp_dir().canonicalize().unwrap();
        assert_eq!(landing(&root.join("a/../b/./c.csv")), Some(root.join("b/c.csv")));
        assert!(inside(&root, &root.join("new-file.csv")));
        assert!(!inside(&root, &root.join("../outside.csv")));
        assert!(!inside(&root, Path::new("/")));
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_as_the_system_follows_them() {
        use std::os::unix::fs::symlink;
        let base =
            std::env::temp_dir().canonicalize().unwrap().join(format!("blendlab-landing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let (folder, outside) = (base.join("folder"), base.join("outside"));
        std::fs::create_dir_all(outside.join("deep")).unwrap();
        std::fs::create_dir_all(&folder).unwrap();
        symlink("../outside/deep", folder.join("deep")).unwrap();
        symlink("../secret", folder.join("dangling.csv")).unwrap();
        symlink(outside.join("deep"), folder.join("absolute")).unwrap();
        symlink("loop", folder.join("loop")).unwrap();
        symlink(".", folder.join("here")).unwrap();
        // `..` after a link is the folder above the link's target, not the link's own folder.
        assert_eq!(landing(&folder.join("deep/../x.csv")), Some(outside.join("x.csv")));
        assert!(!inside(&folder, &folder.join("deep/../x.csv")));
        // A link to nothing leads where it points; an absolute link starts over from the root.
        assert_eq!(landing(&folder.join("dangling.csv")), Some(base.join("secret")));
        assert_eq!(landing(&folder.join("absolute/x.csv")), Some(outside.join("deep/x.csv")));
        assert_eq!(landing(&folder.join("loop/x.csv")), None);
        assert!(!inside(&folder, &folder.join("loop")));
        // A link that stays inside is inside.
        assert!(inside(&folder, &folder.join("here/here/x.csv")));
        std::fs::remove_dir_all(&base).unwrap();
    }
}
