//! `--timeout`, `--max-memory` and `--sandbox` through the real binary, in every headless
//! mode (`run`, `run --golden`, `run --partition-check`, `test`): scripts that never end or
//! never stop allocating end with a located error and exit 1, never a hung or dead process;
//! a sandboxed script cannot leave its folder.

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn blendlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_blendlab")).args(args).env("NO_COLOR", "1").output().unwrap()
}

/// Runs `args`, expects exit 1, and returns standard error.
fn failing(args: &[&str]) -> String {
    let out = blendlab(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    stderr
}

#[test]
fn an_endless_loop_times_out_at_its_line() {
    let stderr = failing(&["run", "--timeout", "0.3", "tests/limits/spin.lua"]);
    assert_eq!(stderr, "error: tests/limits/spin.lua:4: timed out after 0.3 s (--timeout)\n");
}

#[test]
fn a_growing_table_hits_the_memory_limit() {
    let stderr = failing(&["run", "--max-memory", "16M", "tests/limits/grow.lua"]);
    assert_eq!(
        stderr,
        "error: tests/limits/grow.lua: not enough memory: the script reached its memory limit (--max-memory 16M)\n"
    );
}

#[test]
fn a_growing_table_also_times_out() {
    let stderr = failing(&["run", "--timeout", "0.3", "tests/limits/grow.lua"]);
    assert_eq!(stderr, "error: tests/limits/grow.lua:3: timed out after 0.3 s (--timeout)\n");
}

#[test]
fn pcall_cannot_swallow_a_timeout() {
    let stderr = failing(&["run", "--timeout", "0.3", "tests/limits/catch.lua"]);
    assert!(stderr.starts_with("error: tests/limits/catch.lua:2: timed out after 0.3 s"), "{stderr}");
}

#[test]
fn a_long_step_times_out_between_frames() {
    let stderr = failing(&["run", "--timeout", "0.3", "tests/limits/long_step.lua"]);
    assert!(
        stderr.starts_with(
            "error: tests/limits/long_step.lua:5: timed out after 0.3 s (--timeout); the step stopped after frame "
        ),
        "{stderr}"
    );
}

#[test]
fn limits_change_nothing_for_a_script_within_them() {
    let out = blendlab(&["run", "--timeout", "60", "--max-memory", "256M", "tests/limits/quick.lua"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "quick ok\n");
}

#[test]
fn bad_limits_are_usage_errors() {
    for args in [["--max-memory", "64Q"], ["--max-memory", "0"], ["--timeout", "-1"], ["--timeout", "soon"]] {
        let out = blendlab(&["run", args[0], args[1], "tests/limits/quick.lua"]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn a_sandboxed_script_stays_in_its_folder() {
    let out = blendlab(&["run", "--sandbox", "tests/sandbox/escape.lua"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "sandbox ok\n");
    assert!(!Path::new("tests/escaped.csv").exists());
    // without the flag the same expectations fail: the script does test the sandbox
    let stderr = failing(&["run", "tests/sandbox/escape.lua"]);
    assert!(stderr.contains("expectation failed: os is gone"), "{stderr}");
}

#[test]
fn a_symbolic_link_out_of_the_folder_is_outside() {
    let dir = common::scratch("sandbox");
    let outside = Path::new("samples/locomotion.toml").canonicalize().unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("link.toml")).unwrap();
    // A module reached through a link to a folder outside is outside too.
    std::os::unix::fs::symlink(Path::new("tests/sandbox").canonicalize().unwrap(), dir.join("elsewhere")).unwrap();
    let script = dir.join("follow.lua");
    let follow = "local ok, m = pcall(bl.load, 'link.toml') assert(not ok, 'loaded') print(m)\n\
                  ok, m = pcall(require, 'elsewhere.escape') assert(not ok, 'required') print(m)\n";
    std::fs::write(&script, follow).unwrap();
    let out = blendlab(&["run", "--sandbox", script.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("`link.toml` is outside the script's folder"), "{stdout}");
    assert!(stdout.contains("elsewhere/escape.lua' leads outside the script's folder"), "{stdout}");
}

#[test]
fn no_write_of_a_sandboxed_run_leaves_the_folder_through_a_link() {
    use std::os::unix::fs::symlink;
    let dir = common::scratch("sandbox-writes");
    let (repo, secret) = (dir.join("repo"), dir.join("secret"));
    std::fs::create_dir_all(dir.join("elsewhere/deep")).unwrap();
    std::fs::create_dir(&repo).unwrap();
    std::fs::write(&secret, "keys\n").unwrap();
    // An export named by the script, a link out: to a file, to nothing yet, `..` after a link.
    symlink("../secret", repo.join("out.jsonl")).unwrap();
    symlink("../nowhere", repo.join("dangling.jsonl")).unwrap();
    symlink("../elsewhere/deep", repo.join("deep")).unwrap();
    let exports = "for _, path in ipairs({ 'out.jsonl', 'dangling.jsonl', 'deep/../escaped.jsonl' }) do\n\
                   \x20 print(select(2, pcall(bl.events_jsonl, path)))\n\
                   end\n";
    std::fs::write(repo.join("exports.lua"), exports).unwrap();
    // A golden committed as a link out, and a link at the name temporary files once had.
    std::fs::write(repo.join("a.lua"), "print('a')\n").unwrap();
    symlink("../secret", repo.join("a.out")).unwrap();
    std::fs::write(repo.join("b.lua"), "print('b')\n").unwrap();
    symlink("../secret", repo.join(".b.out.tmp")).unwrap();
    let out = blendlab(&["test", "--sandbox", "--bless", repo.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "a.lua: cannot write a.out: it is outside the script's folder {} once symbolic links are resolved \
             (--sandbox)",
            repo.canonicalize().unwrap().display()
        )),
        "{stdout}"
    );
    assert!(stdout.ends_with("2 passed, 1 failed\n"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "keys\n");
    assert_eq!(std::fs::read_to_string(repo.join("b.out")).unwrap(), "b\n");
    assert!(std::fs::symlink_metadata(repo.join(".b.out.tmp")).unwrap().file_type().is_symlink());
    assert!(!dir.join("nowhere").exists() && !dir.join("elsewhere/escaped.jsonl").exists());
    let refused = std::fs::read_to_string(repo.join("exports.out")).unwrap();
    for path in ["out.jsonl", "dangling.jsonl", "deep/../escaped.jsonl"] {
        assert!(refused.contains(&format!("`{path}` is outside the script's folder")), "{refused}");
    }
}

#[test]
fn a_golden_run_that_times_out_is_neither_compared_nor_blessed() {
    let dir = common::scratch("golden");
    let golden = dir.join("spin.out");
    let golden_arg = golden.to_str().unwrap();
    let stderr = failing(&["run", "--golden", golden_arg, "--bless", "--timeout", "0.3", "tests/limits/spin.lua"]);
    assert_eq!(
        stderr,
        "error: tests/limits/spin.lua: stopped before its end, so nothing was compared or written: \
         spin.lua:4: timed out after 0.3 s (--timeout)\n"
    );
    assert!(!golden.exists(), "a stopped run wrote its golden");
    // Within the limits, a golden run is what it is without them.
    let quick = ["--golden", "tests/limits/quick.out", "--timeout", "60", "--max-memory", "256M", "--sandbox"];
    let out = blendlab(&[&["run"][..], &quick, &["tests/limits/quick.lua"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_partition_check_names_the_run_that_timed_out() {
    let stderr = failing(&["run", "--partition-check", "--timeout", "0.3", "tests/limits/spin.lua"]);
    assert_eq!(
        stderr,
        "error: tests/limits/spin.lua: the run with steps as written did not end: \
         tests/limits/spin.lua:4: timed out after 0.3 s (--timeout)\n"
    );
    let out = blendlab(&["run", "--partition-check", "--sandbox", "--max-memory", "256M", "tests/sandbox/escape.lua"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn test_holds_every_script_to_the_limits() {
    let dir = common::scratch("test");
    std::fs::copy("tests/limits/spin.lua", dir.join("a_spin.lua")).unwrap();
    std::fs::write(dir.join("a_spin.out"), "").unwrap();
    std::fs::copy("tests/limits/grow.lua", dir.join("b_grow.lua")).unwrap();
    std::fs::write(dir.join("b_grow.out"), "").unwrap();
    std::fs::write(dir.join("c_sandboxed.lua"), "print(os == nil, io == nil)\n").unwrap();
    std::fs::write(dir.join("c_sandboxed.out"), "true\ttrue\n").unwrap();
    let out = blendlab(&["test", "--timeout", "0.5", "--max-memory", "16M", "--sandbox", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("FAIL") && lines[0].ends_with("a_spin.lua:4: timed out after 0.5 s (--timeout)"));
    assert!(lines[1].starts_with("FAIL") && lines[1].contains("b_grow.lua: output differs"), "{stdout}");
    assert!(stdout.contains("reached its memory limit (--max-memory 16M)"), "{stdout}");
    assert!(lines.iter().any(|l| l.starts_with("ok") && l.ends_with("c_sandboxed.lua")), "{stdout}");
    assert!(stdout.ends_with("1 passed, 2 failed\n"), "{stdout}");
}

#[test]
fn code_the_timeout_cannot_stop_at_a_line_still_ends_the_run() {
    // A liveness check, not a speed one: the run must end by itself (the backstop, two seconds
    // past the deadline); should it not, the child is killed after a minute and the test fails.
    let mut child = Command::new(env!("CARGO_BIN_EXE_blendlab"))
        .args(["run", "--timeout", "0.3", "tests/limits/finalizer.lua"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("the run did not end");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: tests/limits/finalizer.lua: timed out after 0.3 s (--timeout) in code that cannot be stopped at a line \
         (a `__gc` finalizer, or one long library call such as a pattern match); blendlab stopped 2 s later\n"
    );
}

#[test]
fn under_test_a_script_the_timeout_cannot_stop_fails_and_the_others_are_still_reported() {
    // The stuck script is given up on 2 × (timeout + 2 s) after it started; the run goes on.
    let dir = common::scratch("stuck");
    for name in ["a", "c"] {
        std::fs::copy("tests/limits/finalizer.lua", dir.join(format!("{name}_stuck.lua"))).unwrap();
        std::fs::write(dir.join(format!("{name}_stuck.out")), "").unwrap();
    }
    std::fs::copy("tests/limits/quick.lua", dir.join("b_quick.lua")).unwrap();
    std::fs::copy("tests/limits/quick.out", dir.join("b_quick.out")).unwrap();
    let out = blendlab(&["test", "--timeout", "0.3", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let stuck = "timed out after 0.3 s (--timeout) in code that cannot be stopped at a line (a `__gc` finalizer, \
                 or one long library call such as a pattern match); blendlab stopped waiting for it 2 s later";
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    for (line, name) in [(lines[0], "a_stuck"), (lines[2], "c_stuck")] {
        assert!(
            line.starts_with("FAIL") && line.contains(&format!("{name}.lua: ")) && line.ends_with(stuck),
            "{stdout}"
        );
    }
    assert!(lines[1].starts_with("ok") && lines[1].ends_with("b_quick.lua"), "{stdout}");
    assert_eq!(lines[3], "1 passed, 2 failed");
}

#[test]
fn limits_out_of_range_say_their_range_and_a_tiny_memory_limit_names_itself() {
    let huge = blendlab(&["run", "--timeout", "1e300", "tests/limits/quick.lua"]);
    assert_eq!(huge.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&huge.stderr).contains("at most 1000000, got `1e300`"));
    // So small that setting `arg` already fails: still the script's memory limit, named.
    let stderr = failing(&["run", "--max-memory", "1K", "tests/limits/quick.lua"]);
    assert_eq!(
        stderr,
        "error: tests/limits/quick.lua: not enough memory: the script reached its memory limit (--max-memory 1K)\n"
    );
}
