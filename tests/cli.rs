//! The `blendlab` binary's contract: exit codes and messages of `run`, `check` and `bench`.

mod common;

use std::io::Write as _;
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
    assert!(stdout.ends_with("1 file checked: 5 errors, 0 warnings\n"), "{stdout}");
}

#[test]
fn check_passes_the_samples() {
    let out = blendlab(&["check", "samples/locomotion.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn check_takes_folders_of_configs() {
    // Every *.toml of the folder, as one library; a file also named by itself counts once.
    let out = blendlab(&["check", "samples", "samples/locomotion.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "5 files checked: 0 errors, 0 warnings\n");
    let empty = common::scratch("check-empty");
    let out = blendlab(&["check", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no *.toml files in this folder"), "{}", text(&out.stderr));
}

#[test]
fn check_counts_a_file_once_however_it_is_named() {
    let dir = common::scratch("check-same-file");
    let link = dir.join("link.toml");
    std::os::unix::fs::symlink(std::fs::canonicalize("samples/locomotion.toml").unwrap(), &link).unwrap();
    let absolute = std::fs::canonicalize("samples/locomotion.toml").unwrap();
    let names =
        ["samples/locomotion.toml", "./samples/locomotion.toml", absolute.to_str().unwrap(), link.to_str().unwrap()];
    let out = blendlab(&[&["check"][..], &names].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(text(&out.stdout), "1 file checked: 0 errors, 0 warnings\n");
}

#[test]
fn check_reports_unreadable_files() {
    let out = blendlab(&["check", "no/such/file.toml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("error: no/such/file.toml: cannot read file"));
    // A Lua script is named as one, not read as TOML (46 errors).
    let out = blendlab(&["check", "scripts/tour.lua"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr), "error: scripts/tour.lua: a Lua script, not a TOML config: `blendlab run` runs it\n");
}

#[test]
fn a_file_neither_toml_nor_lua_is_refused_in_one_line() {
    let refused =
        "error: README.md: neither a TOML config (.toml) nor a Lua script (.lua): blendlab reads only those\n";
    let out = blendlab(&["check", "README.md"]);
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(1), refused.to_string()));
    // At the prompt it is a usage error, before any file loads.
    let out = blendlab(&["samples/locomotion.toml", "README.md"]);
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(2), refused.to_string()));
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn a_config_that_is_not_utf8_is_located_at_its_first_byte_that_is_not() {
    let dir = common::scratch("check-latin1");
    let latin1 = dir.join("latin1.toml");
    std::fs::write(&latin1, b"[clips.walk]\nlength = 1.0 # caf\xe9\n").unwrap();
    let out = blendlab(&["check", latin1.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let headline = format!("{}:2:19: error: cannot read file: byte 0xe9 is not UTF-8 text", latin1.display());
    assert!(text(&out.stderr).starts_with(&headline), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with("1 file checked: 1 error, 0 warnings\n"), "{}", text(&out.stdout));
    // bl.load (and so the REPL and a hot reload) says the same, under its own headline.
    std::fs::write(dir.join("load.lua"), "bl.load('latin1.toml')\n").unwrap();
    let out = blendlab(&["run", dir.join("load.lua").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let expected = format!(
        "latin1.toml: not UTF-8 text, nothing changed\n{}:2:19: error: cannot read file: byte 0xe9",
        dir.join("latin1.toml").display()
    );
    assert!(text(&out.stderr).contains(&expected), "{}", text(&out.stderr));
}

#[test]
fn run_exit_codes() {
    let ok = blendlab(&["run", "scripts/tour.lua"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    let failed = blendlab(&["run", "tests/scripts/expect_failure.lua"]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(text(&failed.stderr).starts_with("error: tests/scripts/expect_failure.lua:7: expectation failed"));
    let config = blendlab(&["run", "samples/locomotion.toml"]);
    assert_eq!(config.status.code(), Some(2));
    assert!(text(&config.stderr).contains("a TOML config, not a Lua script: load it with bl.load"));
    let missing = blendlab(&["run", "no_such_script.lua"]);
    assert_eq!(missing.status.code(), Some(1));
    let usage = blendlab(&["run"]);
    assert_eq!(usage.status.code(), Some(2));
    let bad_flag = blendlab(&["--no-such-flag"]);
    assert_eq!(bad_flag.status.code(), Some(2));
}

#[test]
fn a_config_a_script_cannot_find_is_shown_where_it_was_looked_for() {
    // README's first script saved beside `samples/` rather than in a folder next to it.
    let dir = common::scratch("first-script");
    let dir = std::fs::canonicalize(&*dir).unwrap();
    std::fs::write(dir.join("first.lua"), "bl.load(\"../samples/locomotion.toml\")\n").unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_blendlab")).args(["run", "first.lua"]).current_dir(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let looked = dir.parent().unwrap().join("samples/locomotion.toml");
    let expected = format!(
        "error: first.lua:1: bl.load: ../samples/locomotion.toml: cannot read file: No such file or directory (os \
         error 2) (a relative path is resolved against the calling script's folder, which is the working folder, {}: \
         that is {})\n",
        dir.display(),
        looked.display()
    );
    assert_eq!(text(&out.stderr), expected);
}

#[test]
fn run_passes_arguments_like_lua() {
    let dir = common::scratch("cli");
    let script = dir.join("args.lua");
    std::fs::write(&script, "local a, b = ...\nprint(a, b, arg[1], arg[2], #arg, arg[0] ~= nil)\n").unwrap();
    let out = blendlab(&["run", script.to_str().unwrap(), "one", "--two"]);
    assert_eq!(text(&out.stdout), "one\t--two\tone\t--two\t2\ttrue\n", "{}", text(&out.stderr));
    // Everything after the script is the script's, even blendlab's own options.
    for first in ["--timeout", "--golden", "--help"] {
        let out = blendlab(&["run", "--timeout", "60", script.to_str().unwrap(), first, "5"]);
        assert_eq!(text(&out.stdout), format!("{first}\t5\t{first}\t5\t2\ttrue\n"), "{}", text(&out.stderr));
    }
    // A misspelt option in the script's place is a usage error, not a script named `--tiemout`.
    let misspelt = blendlab(&["run", "--tiemout", "5", script.to_str().unwrap()]);
    assert_eq!(misspelt.status.code(), Some(2));
    assert_eq!(
        text(&misspelt.stderr),
        "error: run: unknown option `--tiemout` (options go before the script); did you mean `--timeout`?\n"
    );
}

#[test]
fn version_and_help() {
    let version = blendlab(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert!(text(&version.stdout).starts_with("blendlab "));
    let help = blendlab(&["--help"]);
    assert!(text(&help.stdout).contains("run"));
}

/// `bench crowd` prints WORKLOAD §6's lines, the engine's then the floor's, with the reference
/// checksum; several runs add the ratio line; zero runs is refused.
#[test]
fn bench_crowd_prints_the_workload_lines() {
    let fields = |line: &str| line.split(' ').map(str::to_string).collect::<Vec<_>>();
    let one = text(&blendlab(&["bench", "crowd", "--actors", "10", "--frames", "130"]).stdout);
    let lines: Vec<&str> = one.lines().collect();
    assert_eq!(lines.len(), 2, "{one}");
    for (line, name) in lines.iter().zip(["blendlab", "floor"]) {
        let f = fields(line);
        assert_eq!(f[0], name, "{line}");
        assert_eq!(f[3], "checksum=60.785770315", "{line}");
    }
    let three = text(&blendlab(&["bench", "crowd", "--actors", "10", "--frames", "130", "--runs", "3"]).stdout);
    let ratio = three.lines().nth(2).unwrap_or_default();
    assert!(ratio.starts_with("ratio blendlab/floor median=") && ratio.ends_with(" runs=3"), "{three}");
    // No run, no character or no frame is refused: there would be nothing to time (and WORKLOAD's
    // checksum is taken after frame F − 1).
    for option in ["--runs", "--actors", "--frames"] {
        let zero = blendlab(&["bench", "crowd", option, "0"]);
        assert_eq!(zero.status.code(), Some(2), "{option} 0");
        assert!(text(&zero.stderr).contains(option), "{}", text(&zero.stderr));
    }
    // A crowd beyond what memory holds is refused up front, not an allocation that aborts.
    let huge = blendlab(&["bench", "crowd", "--actors", "4294967295", "--frames", "1"]);
    assert_eq!(huge.status.code(), Some(2));
    assert!(text(&huge.stderr).contains("1..=2000000"), "{}", text(&huge.stderr));
}

#[test]
fn run_golden_compares_blesses_and_diffs() {
    let dir = common::scratch("golden");
    let (script, golden) = (dir.join("hello.lua"), dir.join("hello.out"));
    std::fs::write(&script, "print('one')\nprint('two')\n").unwrap();
    let (script_arg, golden_arg) = (script.to_str().unwrap(), golden.to_str().unwrap());

    let missing = blendlab(&["run", "--golden", golden_arg, script_arg]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("no golden file") && text(&missing.stderr).contains("--bless"));

    let blessed = blendlab(&["run", "--golden", golden_arg, "--bless", script_arg]);
    assert_eq!(blessed.status.code(), Some(0), "{}", text(&blessed.stderr));
    assert_eq!(std::fs::read_to_string(&golden).unwrap(), "one\ntwo\n");
    assert_eq!(blendlab(&["run", "--golden", golden_arg, script_arg]).status.code(), Some(0));

    std::fs::write(&script, "print('one')\nprint('2')\n").unwrap();
    let differs = blendlab(&["run", "--golden", golden_arg, script_arg]);
    assert_eq!(differs.status.code(), Some(1));
    assert!(text(&differs.stderr).ends_with(" one\n-two\n+2\n"), "{}", text(&differs.stderr));
    // The diff is headed by the two paths as given, as the line above it names them.
    let header = format!("--- {golden_arg}\n+++ {script_arg}\n");
    assert!(text(&differs.stderr).contains(&header), "{}", text(&differs.stderr));
    assert_eq!(blendlab(&["run", "--bless", script_arg]).status.code(), Some(2), "--bless needs --golden");
    // A script that is not there blesses nothing (it used to write its `cannot read` error).
    let absent = dir.join("absent.lua");
    let nothing = blendlab(&["run", "--golden", golden_arg, "--bless", absent.to_str().unwrap()]);
    assert_eq!(nothing.status.code(), Some(1));
    assert!(text(&nothing.stderr).contains("absent.lua: No such file"), "{}", text(&nothing.stderr));
    assert_eq!(std::fs::read_to_string(&golden).unwrap(), "one\ntwo\n");
}

#[test]
fn test_runs_every_script_against_its_golden() {
    let dir = common::scratch("test");
    std::fs::write(dir.join("a_ok.lua"), "print(1 + 1)\n").unwrap();
    std::fs::write(dir.join("a_ok.out"), "2\n").unwrap();
    std::fs::write(dir.join("b_differs.lua"), "print('new')\n").unwrap();
    std::fs::write(dir.join("b_differs.out"), "old\n").unwrap();
    std::fs::write(dir.join("c_missing.lua"), "print('x')\n").unwrap();
    std::fs::write(dir.join("d_unsteady.lua"), "print('same')\nprint(os.clock())\n").unwrap();
    std::fs::write(dir.join("e_fails.lua"), "print('before')\nerror('on purpose')\n").unwrap();
    std::fs::write(dir.join("e_fails.out"), "before\nerror: [string \"...\"]\n").unwrap();
    let out = blendlab(&["test", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("ok") || l.starts_with("FAIL")).collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    assert!(lines[0].starts_with("ok    ") && lines[0].ends_with("a_ok.lua"));
    assert!(lines[1].contains("b_differs.lua: output differs"), "{stdout}");
    assert!(stdout.contains("-old\n+new\n"), "{stdout}");
    let header = format!("--- {}\n+++ {}\n", dir.join("b_differs.out").display(), dir.join("b_differs.lua").display());
    assert!(stdout.contains(&header), "{stdout}");
    assert!(lines[2].contains("no golden file"), "{stdout}");
    assert!(lines[3].contains("prints different output on two runs, first at line 2"), "{stdout}");
    assert!(lines[4].contains("e_fails.lua: output differs"), "{stdout}");
    assert!(stdout.ends_with("1 passed, 4 failed\n"), "{stdout}");

    let blessed = blendlab(&["test", "--bless", dir.to_str().unwrap()]);
    assert!(text(&blessed.stdout).ends_with("4 passed, 1 failed\n"), "{}", text(&blessed.stdout));
    let error_line = std::fs::read_to_string(dir.join("e_fails.out")).unwrap();
    assert!(error_line.starts_with("before\nerror: ") && error_line.contains("e_fails.lua:2: on purpose"));
    assert!(text(&blendlab(&["test", dir.to_str().unwrap()]).stdout).ends_with("4 passed, 1 failed\n"));
    assert_eq!(blendlab(&["test", "no/such/dir"]).status.code(), Some(2));
    // A folder without scripts is refused rather than passed with nothing run.
    let empty = common::scratch("test-empty");
    let none = blendlab(&["test", dir.to_str().unwrap(), empty.to_str().unwrap()]);
    assert_eq!(none.status.code(), Some(2));
    assert!(text(&none.stderr).contains("no *.lua files"), "{}", text(&none.stderr));
}

#[test]
fn a_mistyped_command_is_refused_with_a_suggestion() {
    // Not a prompt that cannot read a file `tset`: a usage error naming the command meant.
    let out = blendlab(&["tset", "tests/scripts"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`tset` is neither a command"), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("did you mean `test`?"), "{}", text(&out.stderr));
    let unrelated = blendlab(&["frobnicate"]);
    assert_eq!(unrelated.status.code(), Some(2));
    assert!(text(&unrelated.stderr).contains("see `blendlab --help`"), "{}", text(&unrelated.stderr));
}

#[test]
fn goldens_hold_from_any_folder_and_any_spelling_of_the_path() {
    // Each script runs in its own folder, so the paths it prints (its locations, the configs
    // it loads from beside it or `../config`) do not depend on where CI starts the check.
    let absolute = std::fs::canonicalize("tests/scripts").unwrap();
    let elsewhere = common::scratch("elsewhere");
    for (folder, path) in
        [(std::path::PathBuf::from("."), "./tests/scripts"), (elsewhere.clone(), absolute.to_str().unwrap())]
    {
        let out = Command::new(env!("CARGO_BIN_EXE_blendlab"))
            .args(["test", path])
            .current_dir(&folder)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "from {}: {}", folder.display(), text(&out.stdout));
    }
    let golden = absolute.join("assertions.out");
    let single = Command::new(env!("CARGO_BIN_EXE_blendlab"))
        .args(["run", "--golden", golden.to_str().unwrap(), absolute.join("assertions.lua").to_str().unwrap()])
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    assert_eq!(single.status.code(), Some(0), "{}", text(&single.stderr));
    // The same folder under two spellings is tested once.
    let summary = |args: &[&str]| text(&blendlab(args).stdout).lines().last().map(str::to_string);
    assert_eq!(summary(&["test", "tests/scripts", "./tests/scripts"]), summary(&["test", "tests/scripts"]));
}

#[test]
fn partition_check_agrees_on_the_tour_and_on_steps_shorter_than_a_tick() {
    let ok = blendlab(&["run", "--partition-check", "scripts/tour.lua"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert!(
        text(&ok.stdout).contains("agree with frame-by-frame steps, random splits (seed 1)"),
        "{}",
        text(&ok.stdout)
    );
    // Steps shorter than half a tick add up as written as they do merged (once each was lost).
    let agrees = blendlab(&["run", "--partition-check", "tests/partition/sub_tick_steps.lua"]);
    assert_eq!(agrees.status.code(), Some(0), "{}", text(&agrees.stderr));
    let run = blendlab(&["run", "tests/partition/sub_tick_steps.lua"]);
    assert_eq!(text(&run.stdout), "1\n", "the thirty steps bring the clock to frame 1");
    assert!(text(&agrees.stdout).contains("agree with frame-by-frame steps"), "{}", text(&agrees.stdout));
    // Plans that agree on a script that fails: the check fails as `run` of it does.
    let fails = blendlab(&["run", "--partition-check", "tests/scripts/expect_failure.lua"]);
    assert_eq!(fails.status.code(), Some(1));
    let stderr = text(&fails.stderr);
    assert!(
        stderr.contains(
            "giant steps (no `bl.step` to merge), but every run fails: tests/scripts/expect_failure.lua:7: expectation"
        ),
        "{stderr}"
    );
}

#[test]
fn giant_steps_hold_no_step_a_listener_or_a_callback_could_see() {
    // Plain Lua between the steps reads what a listener and a callback fill: the steps they
    // could see run as written, the others merge, and the plans agree.
    let ok = blendlab(&["run", "--partition-check", "tests/partition/listener_fills_state.lua"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    let rule = "steps merge only with no `bl` call between them, no `bl.on` listener registered and no `bl.at` \
                callback due in them";
    assert!(
        text(&ok.stdout).ends_with(&format!("giant steps (4 of 8 steps merged: {rule})\n")),
        "{}",
        text(&ok.stdout)
    );
    // A callback's error escapes the step whose frames run it, never a later `pcall`.
    let fails = blendlab(&["run", "--partition-check", "tests/partition/callback_error.lua"]);
    assert_eq!(fails.status.code(), Some(1));
    let stderr = text(&fails.stderr);
    assert!(stderr.contains("giant steps (0 of 2 steps merged: "), "{stderr}");
    assert!(stderr.contains("but every run fails: tests/partition/callback_error.lua:6: boom"), "{stderr}");
    // A script with a listener still gets the other plans.
    let differs = blendlab(&["run", "--partition-check", "tests/partition/speed_in_listener.lua"]);
    assert_eq!(differs.status.code(), Some(1));
    let stderr = text(&differs.stderr);
    assert!(stderr.contains("frame-by-frame steps change the result: event 7 differs"), "{stderr}");
    assert!(stderr.contains("the cause: bl.speed(2) in frame 60, t=1.000000 s, from inside a frame"), "{stderr}");
}

#[test]
fn partition_check_runs_held_steps_before_os_exit_and_handle_methods() {
    // `os.exit(0)` after a step: the giant plan's held step runs before the exit, so the
    // plans agree, and an exit with 0 is no error.
    let script = "tests/partition/exit_after_step.lua";
    let ok = blendlab(&["run", "--partition-check", script, "0"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert!(text(&ok.stdout).contains("final weights agree with frame-by-frame steps"), "{}", text(&ok.stdout));
    // Another code is the script's failure, reported as such once the plans agree.
    let fails = blendlab(&["run", "--partition-check", script, "4"]);
    assert_eq!(fails.status.code(), Some(1));
    let stderr = text(&fails.stderr);
    assert!(stderr.contains("giant steps (0 of 1 step merged: "), "{stderr}");
    assert!(stderr.contains("), but every run fails: tests/partition/exit_after_step.lua:7: os.exit(4)"), "{stderr}");
    // So does the method of a `bl.inputs` handle (or a `bl.on` one) called after a step.
    let stop = blendlab(&["run", "--partition-check", "tests/partition/stop_after_step.lua"]);
    assert_eq!(stop.status.code(), Some(0), "{}", text(&stop.stderr));
}

#[test]
fn partition_check_compares_the_final_clock_and_names_a_pause_inside_a_frame() {
    let out = blendlab(&["run", "--partition-check", "tests/partition/pause_in_callback.lua"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("frame-by-frame steps change the result: the clock ends differently:"), "{stderr}");
    assert!(stderr.contains("steps as written: frame 60, t=1.000000 s"), "{stderr}");
    assert!(stderr.contains("frame-by-frame steps: frame 30, t=0.500000 s"), "{stderr}");
    assert!(stderr.contains("the cause: bl.pause(true) in frame 30, t=0.500000 s, from inside a frame"), "{stderr}");
}

#[test]
fn run_prints_bytes_that_are_not_utf8_as_they_are() {
    let out = blendlab(&["run", "tests/scripts/bytes_not_utf8.lua"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let printed = out.stdout.windows(6).any(|w| w == b"caf\xe9\t1");
    assert!(printed, "{:?}", out.stdout);
    assert!(out.stdout.windows(4).any(|w| w == b"caf\xe9"), "{:?}", out.stdout);
    assert!(out.stderr.windows(5).any(|w| w == b"err \xc8"), "{:?}", out.stderr);
}

#[test]
fn a_reader_that_stops_reading_ends_the_run_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = common::scratch("pipe");
    let script = dir.join("chatty.lua");
    // Far more than a pipe holds, so writing goes on after the reader has gone.
    std::fs::write(&script, "for i = 1, 200000 do print(i) end\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_blendlab"))
        .args(["run", script.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 2];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    assert_eq!(&first, b"1\n");
    let out = child.wait_with_output().unwrap();
    assert_eq!(text(&out.stderr), "", "`| head` must not end in a Broken pipe error");
}

#[test]
fn a_lua_file_given_to_bl_load_is_named_for_dofile_from_the_working_folder() {
    // `bl.load` reads from the script's folder, `dofile` from the working folder: the hint
    // names the file as `dofile` would find it.
    let dir = common::scratch("dofile_hint");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/helper.lua"), "print('helper')\n").unwrap();
    std::fs::write(dir.join("sub/main.lua"), "bl.load('helper.lua')\n").unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_blendlab")).args(["run", "sub/main.lua"]).current_dir(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(r#"run it with dofile("sub/helper.lua")"#), "{}", text(&out.stderr));
}

#[test]
fn os_exit_ends_the_script_and_never_the_runner() {
    let dir = common::scratch("os-exit");
    std::fs::write(dir.join("a_exits.lua"), "print('actual')\nos.exit(0)\nprint('never')\n").unwrap();
    std::fs::write(dir.join("a_exits.out"), "expected\n").unwrap();
    std::fs::write(dir.join("b_fails.lua"), "error('on purpose')\n").unwrap();
    let dir_arg = dir.to_str().unwrap();
    // Every script is reported, the one that exits with a difference.
    let out = blendlab(&["test", dir_arg]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("-expected\n+actual\n+a_exits.lua:2: os.exit(0)\n"), "{stdout}");
    assert!(stdout.contains("b_fails.lua: no golden file"), "{stdout}");
    assert!(stdout.ends_with("0 passed, 2 failed\n"), "{stdout}");
    let (script, golden) = (dir.join("a_exits.lua"), dir.join("a_exits.out"));
    let golden_run = blendlab(&["run", "--golden", golden.to_str().unwrap(), script.to_str().unwrap()]);
    assert_eq!(golden_run.status.code(), Some(1));
    assert!(text(&golden_run.stderr).contains("+actual\n"), "{}", text(&golden_run.stderr));
    // Blessing writes every golden; a code other than 0 is the script's failure, and no
    // pcall catches the exit.
    std::fs::write(&script, "io.write('partial')\nprint(pcall(os.exit, 3))\n").unwrap();
    let blessed = blendlab(&["test", "--bless", dir_arg]);
    assert!(text(&blessed.stdout).ends_with("2 passed, 0 failed\n"), "{}", text(&blessed.stdout));
    assert_eq!(std::fs::read_to_string(&golden).unwrap(), "partial\nerror: a_exits.lua:2: os.exit(3)\n");
    assert!(dir.join("b_fails.out").exists());
    let checked = blendlab(&["run", "--partition-check", script.to_str().unwrap()]);
    assert_eq!(checked.status.code(), Some(1));
    assert!(text(&checked.stderr).contains("a_exits.lua:2: os.exit(3)"), "{}", text(&checked.stderr));
    // `run` ends with the script's code, after writing what it printed, unfinished line too.
    let run = blendlab(&["run", script.to_str().unwrap()]);
    assert_eq!((run.status.code(), text(&run.stdout), text(&run.stderr)), (Some(3), "partial".into(), "".into()));
}

#[test]
fn a_bl_at_the_script_ends_before_is_a_warning_of_a_headless_run_only() {
    // `run` says so where diagnostics go, at the `bl.at` call, and still exits 0, after the
    // script's end or its `os.exit(0)`; a script that fails says only why. At the prompt the
    // session goes on, so nothing has been missed.
    let dir = common::scratch("at-never-ran");
    let schedule = "bl.rate(10)\nbl.at(5, function() end)\nbl.step(1)\nprint('end')\n";
    for (name, ending, code) in
        [("ends.lua", "", 0), ("exits.lua", "os.exit(0)\n", 0), ("fails.lua", "error('no')\n", 1)]
    {
        let script = dir.join(name);
        std::fs::write(&script, format!("{schedule}{ending}")).unwrap();
        let out = blendlab(&["run", script.to_str().unwrap()]);
        let expected = match code {
            0 => format!("warning: {}:2: bl.at(5) never ran: the script ended at 1.000000 s\n", script.display()),
            _ => format!("error: {}:5: no\n", script.display()),
        };
        assert_eq!((out.status.code(), text(&out.stdout), text(&out.stderr)), (Some(code), "end\n".into(), expected));
    }
    let mut repl = Command::new(env!("CARGO_BIN_EXE_blendlab"))
        .env("NO_COLOR", "1")
        .env("HOME", &*dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    repl.stdin.take().unwrap().write_all(schedule.as_bytes()).unwrap();
    let out = repl.wait_with_output().unwrap();
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(0), String::new()), "{}", text(&out.stdout));
}

#[test]
fn test_and_golden_runs_take_only_scripts_as_scripts() {
    let dir = common::scratch("only-scripts");
    let (script, golden, config) = (dir.join("a.lua"), dir.join("a.out"), dir.join("x.toml"));
    std::fs::write(&script, "print(1)\n").unwrap();
    std::fs::write(&golden, "1\n").unwrap();
    std::fs::write(&config, "x = 1\n").unwrap();
    let [script_arg, golden_arg, config_arg] = [&script, &golden, &config].map(|p| p.to_str().unwrap());
    // `test --bless *` names the golden and the config too: refused before anything runs.
    let star = blendlab(&["test", "--bless", script_arg, golden_arg, config_arg]);
    assert_eq!(star.status.code(), Some(2));
    assert_eq!(
        text(&star.stderr),
        format!("error: {golden_arg}: not a *.lua file, so not checked (name folders or *.lua files)\n")
    );
    assert_eq!(std::fs::read_to_string(&golden).unwrap(), "1\n");
    let missing = blendlab(&["test", dir.join("missing.lua").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("missing.lua: cannot read file: "), "{}", text(&missing.stderr));
    // `--golden a.lua --bless a.out`, the two swapped, and a golden that is the script.
    for (golden, script, what) in
        [(script_arg, golden_arg, "a Lua script"), (script_arg, script_arg, "the script itself")]
    {
        let swapped = blendlab(&["run", "--golden", golden, "--bless", script]);
        assert_eq!(swapped.status.code(), Some(2));
        assert!(
            text(&swapped.stderr).contains(&format!("--golden {golden}: {what}, not a golden file")),
            "{}",
            text(&swapped.stderr)
        );
    }
    assert_eq!(std::fs::read_to_string(&script).unwrap(), "print(1)\n");
    let run_golden = blendlab(&["run", "--golden", dir.join("b.out").to_str().unwrap(), "--bless", golden_arg]);
    assert_eq!(run_golden.status.code(), Some(2));
    assert!(
        text(&run_golden.stderr).contains("a.out: a golden file, not a Lua script"),
        "{}",
        text(&run_golden.stderr)
    );
    assert!(!dir.join("b.out").exists());
    // A golden or a config as the script is refused before anything runs, in every mode.
    let modes: [&[&str]; 3] = [&["run"], &["run", "--partition-check"], &["run", "--golden", golden_arg]];
    for mode in modes {
        let out = blendlab(&[mode, &[config_arg]].concat());
        assert_eq!(out.status.code(), Some(2), "{mode:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("x.toml: a TOML config, not a Lua script"), "{mode:?}: {stderr}");
        assert!(!stderr.contains("agree"), "{stderr}");
    }
    let both_golden = blendlab(&["run", "--golden", golden_arg, golden_arg]);
    assert_eq!(both_golden.status.code(), Some(2));
    assert!(
        text(&both_golden.stderr).contains("a.out: a golden file, not a Lua script"),
        "{}",
        text(&both_golden.stderr)
    );
}

#[test]
fn bless_never_overwrites_a_config_or_a_script() {
    let dir = common::scratch("bless-refuses");
    let (script, config, victim) = (dir.join("a.lua"), dir.join("x.toml"), dir.join("victim.lua"));
    std::fs::write(&script, "print(1)\n").unwrap();
    std::fs::write(&config, "[clips]\n").unwrap();
    std::fs::write(&victim, "print(2)\n").unwrap();
    let link = dir.join("other.golden");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let [script_arg, config_arg, link_arg] = [&script, &config, &link].map(|p| p.to_str().unwrap());
    let toml = blendlab(&["run", "--golden", config_arg, "--bless", script_arg]);
    assert_eq!(toml.status.code(), Some(2));
    assert!(text(&toml.stderr).contains(&format!("--golden {config_arg}: a TOML config, not a golden file")));
    let linked = blendlab(&["run", "--golden", link_arg, "--bless", script_arg]);
    assert_eq!(linked.status.code(), Some(2));
    assert!(text(&linked.stderr).contains("a symbolic link to a Lua script"), "{}", text(&linked.stderr));
    // `test --bless` writes NAME.out beside the script: not through a link to a script either.
    std::os::unix::fs::symlink(&victim, dir.join("a.out")).unwrap();
    let tested = blendlab(&["test", "--bless", script_arg]);
    assert_eq!(tested.status.code(), Some(1));
    assert!(text(&tested.stdout).contains("a symbolic link to a Lua script"), "{}", text(&tested.stdout));
    assert_eq!(std::fs::read_to_string(&config).unwrap(), "[clips]\n");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "print(2)\n");
}

#[test]
fn bless_without_golden_is_refused_in_every_mode() {
    for mode in [&["--bless"][..], &["--bless", "--partition-check"], &["--watch", "--bless"]] {
        let out = blendlab(&[&["run"][..], mode, &["tests/scripts/determinism.lua"]].concat());
        assert_eq!(out.status.code(), Some(2), "{mode:?}");
        assert!(text(&out.stderr).contains("--bless writes the golden file of --golden"), "{}", text(&out.stderr));
    }
    // A negative timeout is the timeout's own error, not a hint to pass `-- -1`.
    let out = blendlab(&["test", "--timeout", "-1", "tests/scripts"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("the timeout must be a number of seconds > 0"), "{}", text(&out.stderr));
}

#[test]
fn checks_give_scripts_an_empty_standard_input() {
    // With input waiting (or a terminal left open) a script's `io.read` would take it, and the
    // two runs of a check would read different lines.
    for args in [&["test", "tests/scripts/stdin.lua"][..], &["run", "--partition-check", "tests/scripts/stdin.lua"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_blendlab"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"first\nsecond\n").unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stdout));
    }
}

#[test]
fn golden_messages_show_trailing_whitespace_final_newlines_and_crlf() {
    let dir = common::scratch("golden-line-ends");
    // The output's last line keeps its tab in the diff (the golden has no final newline).
    std::fs::write(dir.join("a_tab.lua"), "print('x\\t')\n").unwrap();
    std::fs::write(dir.join("a_tab.out"), "x\t").unwrap();
    // Two runs that differ only in the final newline say where.
    let flag = "local f = io.open('flag') if f then f:close() io.write('end') else \
                io.open('flag', 'w'):close() io.write('end\\n') end\n";
    std::fs::write(dir.join("b_newline.lua"), flag).unwrap();
    // A CRLF golden that also differs in content is named CRLF under its diff.
    std::fs::write(dir.join("c_crlf.lua"), "print('a')\nprint('c')\n").unwrap();
    std::fs::write(dir.join("c_crlf.out"), "a\r\nb\r\n").unwrap();
    let stdout = text(&blendlab(&["test", dir.to_str().unwrap()]).stdout);
    assert!(stdout.contains("-x\t\n\\ No newline at end of file\n+x\t\n"), "{stdout}");
    assert!(stdout.contains("first run:  \"end\"\n  second run: \"end\" (no newline at end)"), "{stdout}");
    assert!(stdout.contains("note: c_crlf.out also has CRLF line endings"), "{stdout}");
}

#[test]
fn goldens_that_hold_nothing_a_failure_or_crlf_are_named_so() {
    let dir = common::scratch("golden-notes");
    std::fs::write(dir.join("a_silent.lua"), "local x = 1\n").unwrap();
    std::fs::write(dir.join("b_fails.lua"), "print(1)\nerror('boom')\n").unwrap();
    std::fs::write(dir.join("c_crlf.lua"), "print('a')\nprint('b')\n").unwrap();
    std::fs::write(dir.join("c_crlf.out"), "a\r\nb\r\n").unwrap();
    let dir_arg = dir.to_str().unwrap();
    let checked = blendlab(&["test", dir_arg]);
    let stdout = text(&checked.stdout);
    assert!(stdout.contains("c_crlf.lua: output differs from "), "{stdout}");
    assert!(stdout.contains("c_crlf.out only in line endings: the golden has CRLF line endings"), "{stdout}");
    assert!(!stdout.contains("-a\r"), "no diff of lines that look the same: {stdout}");
    // Blessing still writes them, saying what they hold.
    let blessed = text(&blendlab(&["test", "--bless", dir_arg]).stdout);
    assert!(
        blessed.contains("(0 lines); note: a_silent.out holds no output: it guards only against errors"),
        "{blessed}"
    );
    let failure = "(2 lines); note: b_fails.out holds the script's failure (error: b_fails.lua:2: boom)";
    assert!(blessed.contains(failure), "{blessed}");
    assert!(blessed.ends_with("3 passed, 0 failed\n"), "{blessed}");
    assert_eq!(std::fs::read_to_string(dir.join("a_silent.out")).unwrap(), "");
}

#[test]
fn a_partition_check_of_a_script_that_cannot_be_read_says_so_plainly() {
    let out = blendlab(&["run", "--partition-check", "no/such/script.lua"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("error: no/such/script.lua: cannot read the script: "),
        "{}",
        text(&out.stderr)
    );
}
