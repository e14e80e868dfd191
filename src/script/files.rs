//! Files that scripts and headless runs write (CSV, SVG, JSON Lines, Graphviz, goldens):
//! always through a temporary file beside the target and a rename, so a reader never sees
//! half a file and a failed write leaves the old one as it was. The temporary file has a name
//! of its own, made new for each write (created exclusively, never through a link already
//! there): writers of one file at once never share it, and the last one's whole text wins; a
//! symbolic link planted at a temporary name cannot redirect the write. What a write in place
//! would respect, the rename does too: a read-only file is refused, a symbolic link is written
//! through to its target (the link stays), and a file keeps its permissions. What is no file
//! of its own — a stream or a device (`/dev/stdout`, `/dev/fd/3`, a pipe) — is written in
//! place, appended to, as a shell redirect would: a rename over `/proc/self/fd/1` would
//! replace the log file the process writes to.

use std::io::Write as _;
use std::path::Path;

use mlua::Lua;

use super::Shared;
use super::api::{located, script_path};

/// Writes `text` to a new temporary file beside the file `path` names (through a symbolic
/// link, the file it points to), then renames it over that file, which keeps its permissions;
/// a read-only file is refused; a stream or a device ([`is_stream`]) is appended to in place.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    if is_stream(path) {
        return std::fs::OpenOptions::new().append(true).open(path)?.write_all(text.as_bytes());
    }
    // `out/` or a folder, or a link to `dir/` (dangling: a write in place fails with `Is a
    // directory`): the rename would fail with `Not a directory` or `Is a directory`, or make
    // a file of the folder's name.
    let folder_named = |p: &Path| p.as_os_str().to_string_lossy().ends_with('/');
    if folder_named(path) || path.is_dir() || std::fs::read_link(path).is_ok_and(|target| folder_named(&target)) {
        return Err(std::io::Error::other("a folder, not a file"));
    }
    let linked = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    // Through a link, where it leads, whether its target exists or not: a dangling link's
    // target is created, as a write in place (a shell's `>`) creates it.
    // A loop of links: the system's own error for it (ELOOP), as a write in place would give.
    let looped = || std::fs::metadata(path).err().unwrap_or_else(|| std::io::Error::other("a loop of links"));
    let target = if linked { super::sandbox::landing(path).ok_or_else(looped)? } else { path.to_path_buf() };
    let existing = std::fs::metadata(&target).ok();
    if existing.as_ref().is_some_and(|m| m.permissions().readonly()) {
        return Err(std::io::Error::new(std::io::ErrorKind::PermissionDenied, "the file is read-only"));
    }
    let name = target.file_name().ok_or_else(|| std::io::Error::other("the path names no file"))?;
    let folder = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let prefix = format!(".{}.", name.to_string_lossy());
    // Created only where nothing is (a link at the name is not followed; a name taken is
    // retried with another), as `std::fs::write` creates a file (0666 less the umask, not
    // 0600) and failing with the system's own error, as a write in place would. Dropped on an
    // error, the temporary file is removed.
    let create = |path: &Path| std::fs::OpenOptions::new().write(true).create_new(true).open(path);
    let mut temporary = tempfile::Builder::new().prefix(&prefix).suffix(".tmp").make_in(folder, create)?;
    if let Some(m) = existing {
        temporary.as_file().set_permissions(m.permissions())?;
    }
    temporary.as_file_mut().write_all(text.as_bytes())?;
    temporary.persist(&target).map(drop).map_err(|e| e.error)
}

/// Whether `path` is no file of its own: under `/dev` or `/proc`, a link into them (`/dev/stdout`
/// → `/proc/self/fd/1`), or something that exists and is not a regular file (a pipe, a device).
fn is_stream(path: &Path) -> bool {
    let special = |p: &Path| p.starts_with("/dev") || p.starts_with("/proc");
    special(path)
        || std::fs::read_link(path).is_ok_and(|target| special(&target))
        || std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Writes `text` to `path` (relative to the calling script's folder, and inside it under
/// `--sandbox`) for the Lua function `what`; returns the path written, or a located error.
/// `/dev/stdout` and `/dev/stderr` (and their other names, `/dev/fd/1`, `/proc/self/fd/1`…)
/// are the host's own outputs (in order with what the script prints, and captured with it in
/// a golden run).
pub(crate) fn write_for_script(lua: &Lua, state: &Shared, what: &str, path: &str, text: &str) -> mlua::Result<String> {
    // Every name of the two streams: written through another, a file the output is
    // redirected to would get the text at its own offset, under what `print` writes later.
    let out = matches!(path, "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1");
    if out || matches!(path, "/dev/stderr" | "/dev/fd/2" | "/proc/self/fd/2") {
        let output = &mut state.borrow_mut().output;
        let stream = if out { &mut output.out } else { &mut output.err };
        stream.write_all(text.as_bytes()).map_err(|e| located(lua, format!("{what}: cannot write {path}: {e}")))?;
        return Ok(path.to_string());
    }
    let full = script_path(lua, state, path, what)?;
    write_atomically(&full, text).map_err(|e| located(lua, format!("{what}: cannot write {}: {e}", full.display())))?;
    Ok(full.display().to_string())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::{PermissionsExt, symlink};

    use super::write_atomically;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("blendlab-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn mode(path: &std::path::Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_write_respects_what_a_write_in_place_would() {
        let dir = scratch("respect");
        // A read-only file is refused and stays as it was.
        let locked = dir.join("locked.csv");
        std::fs::write(&locked, "old\n").unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
        let refused = write_atomically(&locked, "new\n").unwrap_err();
        assert_eq!(refused.to_string(), "the file is read-only");
        assert_eq!((std::fs::read_to_string(&locked).unwrap().as_str(), mode(&locked)), ("old\n", 0o444));
        // A new file gets what a plain write gives it (0666 less the umask), not 0600.
        std::fs::write(dir.join("plain.csv"), "").unwrap();
        write_atomically(&dir.join("new.csv"), "new\n").unwrap();
        assert_eq!(mode(&dir.join("new.csv")), mode(&dir.join("plain.csv")));
        std::fs::remove_file(dir.join("plain.csv")).unwrap();
        std::fs::remove_file(dir.join("new.csv")).unwrap();
        // A file keeps its permissions.
        let private = dir.join("private.csv");
        std::fs::write(&private, "old\n").unwrap();
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomically(&private, "new\n").unwrap();
        assert_eq!((std::fs::read_to_string(&private).unwrap().as_str(), mode(&private)), ("new\n", 0o600));
        // A symbolic link is written through: the file it points to changes, the link stays.
        let link = dir.join("link.csv");
        symlink(&private, &link).unwrap();
        write_atomically(&link, "through\n").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&private).unwrap(), "through\n");
        // A dangling link (a relative one, read from its own folder) has its target created.
        let dangling = dir.join("dangling.csv");
        symlink("made.csv", &dangling).unwrap();
        write_atomically(&dangling, "made\n").unwrap();
        assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(dir.join("made.csv")).unwrap(), "made\n");
        // A loop of links is the system's error.
        let looping = dir.join("looping.csv");
        symlink("looping.csv", &looping).unwrap();
        let looped = write_atomically(&looping, "x\n").unwrap_err().to_string();
        assert!(looped.starts_with("Too many levels of symbolic links"), "{looped}");
        std::fs::remove_file(&looping).unwrap();
        // One to a folder's name (`dir/`) makes no file of that name.
        let to_folder = dir.join("to_folder.csv");
        symlink("folder/", &to_folder).unwrap();
        assert_eq!(write_atomically(&to_folder, "x\n").unwrap_err().to_string(), "a folder, not a file");
        std::fs::remove_file(&to_folder).unwrap();
        // No temporary file is left behind.
        let mut names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, ["dangling.csv", "link.csv", "locked.csv", "made.csv", "private.csv"]);
        // A link to a stream (`/dev/stdout` is one to `/proc/self/fd/1`) is written in place,
        // appended to: the log file behind the descriptor is not replaced.
        use std::os::fd::AsRawFd;
        let log = dir.join("log.txt");
        std::fs::write(&log, "before\n").unwrap();
        let descriptor = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        let stream = dir.join("stream.csv");
        symlink(format!("/proc/self/fd/{}", descriptor.as_raw_fd()), &stream).unwrap();
        write_atomically(&stream, "after\n").unwrap();
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "before\nafter\n");
        std::fs::remove_file(&stream).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_link_at_a_temporary_name_redirects_nothing() {
        let dir = scratch("planted");
        // The name the temporary file once always had, planted as a link to a file elsewhere.
        let victim = dir.join("victim");
        std::fs::write(&victim, "keys\n").unwrap();
        let planted = dir.join(".a.out.tmp");
        symlink(&victim, &planted).unwrap();
        write_atomically(&dir.join("a.out"), "golden\n").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keys\n");
        assert_eq!(std::fs::read_link(&planted).unwrap(), victim);
        let written = std::fs::symlink_metadata(dir.join("a.out")).unwrap();
        assert!(written.is_file());
        assert_eq!(std::fs::read_to_string(dir.join("a.out")).unwrap(), "golden\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writers_of_one_file_at_once_all_succeed_and_one_whole_text_wins() {
        let dir = scratch("writers");
        let path = dir.join("shared.csv");
        // Texts long enough that a write takes more than one system call.
        let texts: Vec<String> = (0..8).map(|n| format!("{n}\n").repeat(100_000)).collect();
        std::thread::scope(|scope| {
            for text in &texts {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..10 {
                        write_atomically(path, text).unwrap();
                    }
                });
            }
        });
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(texts.contains(&written), "a text no writer wrote whole ({} bytes)", written.len());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "a temporary file was left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
