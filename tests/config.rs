//! Config diagnostics goldens. Each (error or warning) case `tests/config/err/NAME.toml` (or folder `NAME/` of files
//! loaded together, in name order) is compiled and its rendered diagnostics compared with
//! `NAME.txt`; each `tests/config/ok/*.toml` must compile with no diagnostic at all.
//! `BLENDLAB_BLESS=1 cargo test --test config` rewrites the `.txt` files. Every case is
//! compiled inside `catch_unwind`: bad input is data, so a panic is a failure of its own.

mod common;

use std::path::{Path, PathBuf};

use blendlab::compile::compile;
use blendlab::config::SourceFile;
use common::{check_golden, files_in};

fn sources(path: &Path) -> Vec<SourceFile> {
    let files = if path.is_dir() { files_in(path.to_str().unwrap(), "toml") } else { vec![path.to_path_buf()] };
    files
        .into_iter()
        .map(|f| SourceFile { path: f.display().to_string(), text: std::fs::read_to_string(&f).unwrap() })
        .collect()
}

fn rendered(sources: &[SourceFile]) -> String {
    let compiled = compile(sources);
    compiled.diagnostics.iter().map(|d| d.render(&sources.iter().find(|s| s.path == d.file).unwrap().text)).collect()
}

fn cases(dir: &str) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "toml"))
        .collect();
    cases.sort();
    cases
}

#[test]
fn broken_configs_report_located_diagnostics() {
    let cases = cases("tests/config/err");
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for case in cases {
        let sources = sources(&case);
        let Ok(compiled) = std::panic::catch_unwind(|| compile(&sources)) else {
            failures.push(format!("{}: compiling it panicked", case.display()));
            continue;
        };
        let has_error = compiled.diagnostics.iter().any(|d| d.is_error());
        if compiled.diagnostics.is_empty() || compiled.snapshot.is_some() == has_error {
            failures.push(format!("{}: expected diagnostics, and a snapshot only without errors", case.display()));
        }
        let text = rendered(&sources);
        for line in text.lines().filter(|l| l.contains(": error: ") || l.contains(": warning: ")) {
            let location: Vec<&str> = line.splitn(4, ':').collect();
            let located =
                location.len() == 4 && location[1].parse::<usize>().is_ok() && location[2].parse::<usize>().is_ok();
            if !located {
                failures.push(format!("{}: not located as file:line:col: {line}", case.display()));
            }
        }
        failures.extend(check_golden(&case.with_extension("txt"), &text));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn good_configs_compile_without_diagnostics() {
    let mut all = cases("tests/config/ok");
    all.extend(files_in("samples", "toml"));
    for case in all {
        let sources = sources(&case);
        let text = rendered(&sources);
        assert!(text.is_empty(), "{}:\n{text}", case.display());
        assert!(compile(&sources).snapshot.is_some());
    }
}

#[test]
fn samples_load_together_as_one_library() {
    let sources: Vec<SourceFile> = files_in("samples", "toml").iter().flat_map(|p| self::sources(p)).collect();
    let compiled = compile(&sources);
    assert!(compiled.snapshot.is_some(), "{}", rendered(&sources));
}
