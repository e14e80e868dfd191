//! Files that scripts and headless runs write (CSV, SVG, JSON Lines, Graphviz, goldens):
//! always through a temporary file beside the target and a rename, so a reader never sees
//! half a file and a failed write leaves the old one as it was.

use std::path::Path;

use mlua::Lua;

use super::Shared;
use super::api::{located, script_path};

/// Writes `text` to a temporary file beside `path`, then renames it over `path`.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let name = path.file_name().ok_or_else(|| std::io::Error::other("the path names no file"))?;
    let temporary = path.with_file_name(format!(".{}.tmp", name.to_string_lossy()));
    std::fs::write(&temporary, text).and_then(|()| std::fs::rename(&temporary, path)).inspect_err(|_| {
        let _ = std::fs::remove_file(&temporary);
    })
}

/// Writes `text` to `path` (relative to the calling script's folder, and inside it under
/// `--sandbox`) for the Lua function `what`; returns the path written, or a located error.
pub(crate) fn write_for_script(lua: &Lua, state: &Shared, what: &str, path: &str, text: &str) -> mlua::Result<String> {
    let full = script_path(lua, state, path, what)?;
    write_atomically(&full, text).map_err(|e| located(lua, format!("{what}: cannot write {}: {e}", full.display())))?;
    Ok(full.display().to_string())
}
