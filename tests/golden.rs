//! Golden outputs of headless runs, checked the way CI and a person check them, through the
//! `blendlab` binary (each script runs twice, in its own folder, and both runs must agree):
//! every `tests/scripts/*.lua` against the `.out` beside it (`blendlab test`), and every
//! `scripts/*.lua` against `tests/goldens/NAME.out` (`blendlab run --golden`), but the editor
//! definitions `*.d.lua`, which are not scripts. `BLENDLAB_BLESS=1 cargo test --test golden`
//! rewrites them.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::files_in;

/// Runs `blendlab SUBCOMMAND ARGS` (`--bless` after the subcommand under `BLENDLAB_BLESS`);
/// panics with what it printed unless it passed.
fn passes(subcommand: &str, args: &[&str]) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_blendlab"));
    command.arg(subcommand).env("NO_COLOR", "1");
    if std::env::var_os("BLENDLAB_BLESS").is_some() {
        command.arg("--bless");
    }
    command.args(args);
    let output = command.output().unwrap();
    let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "blendlab {subcommand} {}:\n{printed}", args.join(" "));
}

#[test]
fn test_scripts_match_their_goldens() {
    passes("test", &["tests/scripts"]);
}

#[test]
fn sample_scripts_match_their_goldens() {
    let scripts = sample_scripts();
    assert!(!scripts.is_empty(), "no scripts found");
    for script in scripts {
        let golden = Path::new("tests/goldens").join(script.file_name().unwrap()).with_extension("out");
        passes("run", &["--golden", golden.to_str().unwrap(), script.to_str().unwrap()]);
    }
}

/// `scripts/*.lua` without the `*.d.lua` definition files.
fn sample_scripts() -> Vec<PathBuf> {
    files_in("scripts", "lua").into_iter().filter(|p| !p.to_string_lossy().ends_with(".d.lua")).collect()
}
