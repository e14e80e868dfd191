//! Golden outputs of headless runs: every `tests/scripts/*.lua` is compared with the `.out`
//! beside it, and every `scripts/*.lua` with `tests/goldens/NAME.out` (but the editor
//! definitions `*.d.lua`, which are not scripts).
//! `BLENDLAB_BLESS=1 cargo test --test golden` rewrites them.

mod common;

use std::path::PathBuf;

use common::{check_golden, files_in, run_script};

fn check(scripts: &[PathBuf], golden_for: impl Fn(&PathBuf) -> PathBuf) {
    assert!(!scripts.is_empty(), "no scripts found");
    let failures: Vec<String> =
        scripts.iter().filter_map(|script| check_golden(&golden_for(script), &run_script(script, &[]))).collect();
    assert!(failures.is_empty(), "{} golden(s) differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn test_scripts_match_their_goldens() {
    check(&files_in("tests/scripts", "lua"), |script| script.with_extension("out"));
}

#[test]
fn sample_scripts_match_their_goldens() {
    check(&sample_scripts(), |script| {
        PathBuf::from("tests/goldens").join(script.file_name().unwrap()).with_extension("out")
    });
}

#[test]
fn output_is_byte_identical_across_runs() {
    for script in files_in("tests/scripts", "lua").into_iter().chain(sample_scripts()) {
        assert_eq!(run_script(&script, &[]), run_script(&script, &[]), "{}", script.display());
    }
}

/// `scripts/*.lua` without the `*.d.lua` definition files.
fn sample_scripts() -> Vec<PathBuf> {
    files_in("scripts", "lua").into_iter().filter(|p| !p.to_string_lossy().ends_with(".d.lua")).collect()
}
