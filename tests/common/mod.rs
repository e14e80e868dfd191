//! Helpers shared by the integration tests: running a script in-process with its output
//! captured, and comparing text with a golden file (`BLENDLAB_BLESS=1` rewrites goldens).

#![allow(dead_code)] // each test crate uses its own subset

use std::cell::RefCell;
use std::io::Write;
use std::path::Path;
use std::rc::Rc;

use blendlab::script::{Host, Output};

/// A `Write` into a shared buffer, so `print` output and diagnostics land in one text.
#[derive(Clone, Default)]
pub struct Captured(Rc<RefCell<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.borrow()).into_owned()
    }
}

/// Runs `script` headless as `blendlab run` does; returns everything it printed, plus an
/// `error: …` line if it failed.
pub fn run_script(script: &Path, args: &[String]) -> String {
    let captured = Captured::default();
    let output = Output { out: Box::new(captured.clone()), err: Box::new(captured.clone()), style: Default::default() };
    let host = Host::new(output).expect("a host starts");
    if let Err(e) = host.run_file(script, args) {
        let _ = writeln!(captured.clone(), "error: {}", e.message);
    }
    captured.text()
}

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

/// A fresh, empty scratch folder `blendlab-NAME-PID` in the temporary directory.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("blendlab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A version of the reload story's config, `tests/reload/NAME`.
pub fn reload_version(name: &str) -> String {
    std::fs::read_to_string(Path::new("tests/reload").join(name)).unwrap()
}
