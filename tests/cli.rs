//! The `blendlab` binary's contract: exit codes and messages of `run` and `check`.

use std::process::{Command, Output};

fn blendlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_blendlab")).args(args).env("NO_COLOR", "1").output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn check_prints_every_located_error_and_exits_1() {
    let out = blendlab(&["check", "tests/config/err/five_mistakes.toml"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let errors: Vec<&str> = stdout.lines().filter(|l| l.starts_with("tests/config/err/five_mistakes.toml:")).collect();
    assert_eq!(errors.len(), 5, "{stdout}");
    assert!(errors.iter().all(|l| l.contains(": error: ")));
    assert!(stdout.ends_with("1 file(s) checked: 5 error(s), 0 warning(s)\n"), "{stdout}");
}

#[test]
fn check_passes_the_samples() {
    let out = blendlab(&["check", "samples/locomotion.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn check_reports_unreadable_files() {
    let out = blendlab(&["check", "no/such/file.toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("error: no/such/file.toml: cannot read file"));
}

#[test]
fn run_exit_codes() {
    let ok = blendlab(&["run", "scripts/tour.lua"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    let failed = blendlab(&["run", "tests/scripts/expect_failure.lua"]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(text(&failed.stderr).starts_with("error: tests/scripts/expect_failure.lua:7: expectation failed"));
    let missing = blendlab(&["run", "no_such_script.lua"]);
    assert_eq!(missing.status.code(), Some(1));
    let usage = blendlab(&["run"]);
    assert_eq!(usage.status.code(), Some(2));
    let bad_flag = blendlab(&["--no-such-flag"]);
    assert_eq!(bad_flag.status.code(), Some(2));
}

#[test]
fn run_passes_arguments_like_lua() {
    let dir = std::env::temp_dir().join(format!("blendlab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("args.lua");
    std::fs::write(&script, "local a, b = ...\nprint(a, b, arg[1], arg[2], #arg, arg[0] ~= nil)\n").unwrap();
    let out = blendlab(&["run", script.to_str().unwrap(), "one", "--two"]);
    assert_eq!(text(&out.stdout), "one\t--two\tone\t--two\t2\ttrue\n", "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn version_and_help() {
    let version = blendlab(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert!(text(&version.stdout).starts_with("blendlab "));
    let help = blendlab(&["--help"]);
    assert!(text(&help.stdout).contains("run"));
}
