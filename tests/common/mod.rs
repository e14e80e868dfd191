//! Helpers shared by the integration tests: running a script in-process with its output
//! captured, and comparing text with a golden file (`BLENDLAB_BLESS=1` rewrites goldens).

#![allow(dead_code)] // each test crate uses its own subset

use std::path::Path;

#[allow(unused_imports)] // used by some test crates
pub use blendlab::script::headless::Capture as Captured;

/// Compares `actual` with the golden file, or rewrites it when `BLENDLAB_BLESS` is set.
/// Returns a description of the difference, if any.
pub fn check_golden(golden: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("BLENDLAB_BLESS").is_some() {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(golden, actual).unwrap();
        return None;
    }
    let Ok(expected) = std::fs::read_to_string(golden) else {
        return Some(format!("{}: golden missing; run with BLENDLAB_BLESS=1 to create it", golden.display()));
    };
    if expected == actual {
        return None;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Some(format!(
        "{}: differs at line {}\n  expected: {:?}\n  actual:   {:?}",
        golden.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end>"),
        actual.lines().nth(line).unwrap_or("<end>")
    ))
}

/// Files with `extension` directly in `dir`, sorted by name.
pub fn files_in(dir: &str, extension: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

/// A fresh, empty scratch folder `blendlab-NAME-PID` in the temporary directory, removed with
/// everything in it when the value is dropped (at the end of the test, passed or failed), so
/// test runs leave nothing behind.
pub fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("blendlab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A scratch folder (see [`scratch`]); it reads as its path.
pub struct Scratch(std::path::PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::PathBuf;
    fn deref(&self) -> &std::path::PathBuf {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // A test may have removed it already.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A version of the reload story's config, `tests/reload/NAME`.
pub fn reload_version(name: &str) -> String {
    std::fs::read_to_string(Path::new("tests/reload").join(name)).unwrap()
}

/// Writes version `name` of the reload story's config as `DIR/loco.toml`; returns its path.
pub fn write_loco(dir: &Path, name: &str) -> std::path::PathBuf {
    let file = dir.join("loco.toml");
    std::fs::write(&file, reload_version(name)).unwrap();
    file
}
