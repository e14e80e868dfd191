//! The REPL as a person and a CI job use it. Transcripts: every `tests/repl/NAME.in` is piped
//! into bare `blendlab` (a first line `--! args: …` gives command-line files) and everything
//! it prints, standard output and error interleaved, must equal `NAME.out`
//! (`BLENDLAB_BLESS=1` rewrites them). On a pseudo-terminal: prompts, multi-line chunks,
//! completion, Ctrl-C and Ctrl-D, history, and a reload report above the prompt. A session
//! written by `:record` replays under `blendlab run` to the same weights and event log.

mod common;
mod pty;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{check_golden, files_in};
use pty::Terminal;

/// Runs bare `blendlab ARGS` with `input` piped in; returns standard output and error as one
/// text, in the order they were written.
fn pipe_through(args: &[&str], input: &str, home: &Path) -> String {
    let (mut reader, writer) = std::io::pipe().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_blendlab"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("HOME", home)
        .stdin(Stdio::piped())
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let mut output = String::new();
    reader.read_to_string(&mut output).unwrap();
    child.wait().unwrap();
    output
}

fn check(transcripts: &[PathBuf]) {
    assert!(!transcripts.is_empty(), "no transcripts found");
    let home = common::scratch("repl-home");
    let failures: Vec<String> = transcripts
        .iter()
        .filter_map(|input| {
            let text = std::fs::read_to_string(input).unwrap();
            let args: Vec<&str> = text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("--! args:"))
                .map_or_else(Vec::new, |a| a.split_whitespace().collect());
            check_golden(&input.with_extension("out"), &pipe_through(&args, &text, &home))
        })
        .collect();
    assert!(failures.is_empty(), "{} transcript(s) differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn transcripts_match() {
    check(&files_in("tests/repl", "in"));
}

/// What a session does after `:record`, and its replay after the recorded script: the weight
/// table printed, every event written as JSON Lines to `events`.
fn final_state(events: &Path) -> String {
    format!("print(hero:table())\nbl.events_jsonl({:?})\n", events.display().to_string())
}

#[test]
fn a_recorded_session_replays_to_the_same_weights_and_events() {
    let dir = common::scratch("repl-record");
    let setup = dir.join("setup.lua");
    std::fs::write(&setup, "bl.rate(30)\nhero = bl.spawn('hero', { graph = 'gunner' })\n").unwrap();
    let script = dir.join("session.lua");
    // Locals end with their chunk (`n` is nil below), a failed chunk did what came before its
    // error, a chunk that does not parse did nothing, and relative paths are the REPL's.
    let session = format!(
        "hero:set('pace', 0.5)\n\
         :step 1\n\
         local n = 12\n\
         bl.frames(n or 5)\n\
         function reload_at(t)\n  bl.at(t, function() hero:play('reload', {{ layer = 'arms' }}) end)\nend\n\
         reload_at(1.5)\n\
         :frames 20\n\
         hero:set('pace', 0.9) error('after the set')\n\
         hero:set('pace', = 0)\n\
         :weights hero\n\
         :plot hero 10\n\
         bl.load('samples/locomotion.toml')\n\
         hero:weights('upper').reload_rifle\n\
         :step 1.25\n\
         :record {}\n",
        script.display()
    );
    let input = format!("{session}{}", final_state(&dir.join("repl.jsonl")));
    let repl = pipe_through(&["samples/upper_body.toml", setup.to_str().unwrap()], &input, &dir);
    assert!(repl.contains("error: stdin:1: after the set"), "{repl}");

    let recorded = std::fs::read_to_string(&script).unwrap();
    for expected in [
        "[[ bl.load(\"samples/upper_body.toml\") ]])",
        "bl.step(1)\n",
        "bl.frames(20)\n",
        "failed(",
        "-- :weights hero\n",
    ] {
        assert!(recorded.contains(expected), "{expected} in\n{recorded}");
    }
    let replay = dir.join("replay.lua");
    std::fs::write(&replay, format!("{recorded}{}", final_state(&dir.join("replay.jsonl")))).unwrap();
    let replayed_in = |folder: &Path| {
        let output = Command::new(env!("CARGO_BIN_EXE_blendlab"))
            .args(["run", replay.to_str().unwrap()])
            .current_dir(folder)
            .output()
            .unwrap();
        let printed = String::from_utf8(output.stdout).unwrap();
        assert!(output.status.success(), "{printed}{}", String::from_utf8_lossy(&output.stderr));
        printed
    };
    let printed = replayed_in(Path::new("."));
    assert!(
        printed.starts_with("hero · graph gunner · frame 92 · 3.066667 s\n") && repl.contains(&printed),
        "{printed}\n---\n{repl}"
    );
    let events = std::fs::read_to_string(dir.join("repl.jsonl")).unwrap();
    assert!(events.lines().count() >= 5 && events.contains("timeline_complete"), "{events}");
    assert_eq!(std::fs::read_to_string(dir.join("replay.jsonl")).unwrap(), events);
    // From another folder, the paths typed at the prompt still resolve against the session's
    // folder (the files' names in the events then say where they are from there).
    assert_eq!(replayed_in(&dir), printed);
}

#[test]
fn reload_says_the_library_stays_only_when_no_lua_file_re_runs() {
    let dir = common::scratch("repl-reload-rerun");
    std::fs::copy("samples/locomotion.toml", dir.join("loco.toml")).unwrap();
    let setup = dir.join("setup.lua");
    std::fs::write(&setup, "bl.load('loco.toml')\n").unwrap();
    // The re-run loads the configs again: saying the library stays would be untrue.
    let input = format!("io.open({:?}, 'a'):write(\"print('v2')\\n\"):close()\n:reload\n:reload\n", setup.display());
    let repl = pipe_through(&[setup.to_str().unwrap()], &input, &dir);
    let rerun = format!(
        "configs unchanged on disk\nframe 0 t=0.000000 reload_applied generation=2 files={}\nv2\nre-ran {}\n",
        dir.join("loco.toml").display(),
        setup.display()
    );
    assert!(repl.contains(&rerun), "{rerun}in\n{repl}");
    assert!(repl.ends_with("configs unchanged on disk: the live library stays\n"), "{repl}");
}

/// Sends `code`, waits until it prints `busy`, then sends Ctrl-C's signal.
fn interrupt_when(repl: &mut pty::Piped, code: &str, busy: &str) {
    repl.send(code);
    repl.out.wait_for(busy);
    pty::interrupt(repl.child.id());
}

#[test]
fn plain_input_is_interrupted_by_ctrl_c_and_goes_on() {
    let mut repl = pty::Piped::start(&["samples/locomotion.toml".as_ref()]);
    repl.send("hero = bl.spawn('hero', { blend_tree = 'locomotion' })\n");
    interrupt_when(&mut repl, "print('spinning') while true do end\n", "spinning");
    repl.send("print('after', bl.frame())\n");
    repl.out.wait_for("after\t0");
    interrupt_when(
        &mut repl,
        "bl.at(0, function() print('in callback') while true do end end) bl.step(10)\n",
        "in callback",
    );
    repl.send("print('frame', bl.frame(), bl.time())\nbl.step(1/60) print('next', bl.frame())\n");
    repl.out.wait_for("frame\t1\t0.016666666667");
    repl.out.wait_for("next\t2");
    // a long step in Rust alone (54 million frames) stops at a frame boundary, owing nothing
    let long_step = "bl.catch_up_budget(1e8) bl.at(1/60, function() print('long step') end) bl.step(9e5)\n";
    interrupt_when(&mut repl, long_step, "long step");
    repl.send("stopped = bl.frame() bl.step(0) print('owed', bl.frame() - stopped, stopped < 54000002)\n");
    repl.out.wait_for("owed\t0\ttrue");
    for _ in 0..3 {
        repl.err.wait_for("stdin:1: interrupted");
    }
    repl.finish();
}

#[test]
fn a_start_up_script_and_an_interrupted_step_replay_from_any_folder() {
    let dir = common::scratch("repl-record-interrupted");
    let script = dir.join("session.lua");
    let mut repl = pty::Piped::start(&["tests/repl/gunner.lua".as_ref()]);
    repl.send("hero:set('pace', 0.5)\nbl.catch_up_budget(1e8)\n");
    interrupt_when(&mut repl, "bl.at(1/30, function() print('long step') end) bl.step(1e5)\n", "long step");
    repl.err.wait_for("stdin:1: interrupted");
    repl.send(&format!(":step 1\n:record {}\n{}", script.display(), final_state(&dir.join("repl.jsonl"))));
    repl.out.wait_for("1 chunk(s) were interrupted (Ctrl-C): the replay runs the frames they ran");
    repl.finish();

    let recorded = std::fs::read_to_string(&script).unwrap();
    for expected in ["run_file(\"tests/repl/gunner.lua\")\n", "-- the frames it ran before Ctrl-C:\nbl.frames("] {
        assert!(recorded.contains(expected), "{expected} in\n{recorded}");
    }
    let replay = dir.join("replay.lua");
    std::fs::write(&replay, format!("{recorded}{}", final_state(&dir.join("replay.jsonl")))).unwrap();
    for folder in [dir.as_path(), Path::new(".")] {
        let output = Command::new(env!("CARGO_BIN_EXE_blendlab")).arg("run").arg(&replay).current_dir(folder).output();
        let output = output.unwrap();
        assert!(output.status.success(), "from {folder:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
    // The last replay, from the session's folder, ran the same frames and logged the same
    // events (from another, the files' names in the events say where they are from there).
    let events = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(events("replay.jsonl"), events("repl.jsonl"));
}

#[test]
fn plain_input_says_how_to_leave_at_an_idle_ctrl_c_and_leaves_at_the_next() {
    let mut repl = pty::Piped::start(&[]);
    repl.send("print('ready')\n");
    repl.out.wait_for("ready");
    pty::interrupt(repl.child.id());
    repl.err.wait_for("(Ctrl-C again or :quit to leave)");
    // A line in between: the next Ctrl-C is a first one again.
    repl.send("print('still here')\n");
    repl.out.wait_for("still here");
    pty::interrupt(repl.child.id());
    repl.err.wait_for("(Ctrl-C again or :quit to leave)");
    pty::interrupt(repl.child.id());
    repl.err.wait_for("interrupted twice: leaving");
    assert_eq!(repl.child.wait().unwrap().code(), Some(130));
}

#[test]
fn prompt_multiline_completion_and_ctrl_d() {
    let home = common::scratch("repl-tty");
    let mut term = Terminal::start(&["samples/locomotion.toml"], &home);
    term.wait_for("> ");
    term.type_line("hero = bl.spawn('hero', { blend_tree = 'locomotion' })");
    term.type_continued("function twice(x)");
    term.wait_for(">> ");
    term.type_continued("return 2 * x");
    term.type_line("end");
    term.type_line("twice(21)");
    term.wait_for("42");
    term.type_text("hero:wei\t");
    term.wait_for("hero:weights");
    term.type_line("().walk");
    term.wait_for("0.0");
    term.type_text(":wat\t");
    term.wait_for(":watch");
    term.type_line("");
    term.wait_for("live: ");
    term.press(b"\x04");
    term.wait_for_exit();
    let history = std::fs::read_to_string(home.join(".blendlab_history")).unwrap();
    assert!(history.contains("function twice(x)\\n>> return 2 * x\\n>> end"), "{history}");
}

#[test]
fn ctrl_d_on_an_empty_continuation_line_ends_the_chunk_with_its_error_as_lua_does() {
    let home = common::scratch("repl-ctrl-d-continued");
    let mut term = Terminal::start(&[], &home);
    term.type_continued("function f()");
    term.type_continued("return 1");
    term.wait_for(">> ");
    term.press(b"\x04");
    term.wait_for("error: stdin:2: 'end' expected (to close 'function' at line 1) near <eof>");
    // The REPL goes on, without the abandoned chunk; Ctrl-D on an empty first line leaves.
    term.type_line("f == nil");
    term.wait_for("true");
    term.press(b"\x04");
    term.wait_for_exit();
    let history = std::fs::read_to_string(home.join(".blendlab_history")).unwrap();
    assert!(history.contains("function f()\\n>> return 1\n"), "{history}");
}

#[test]
fn a_line_a_chunk_leaves_open_shows_when_the_chunk_ends() {
    // Built from pieces, so that the echo of the typed line never matches what it writes.
    let home = common::scratch("repl-open-line");
    let mut term = Terminal::start(&[], &home);
    term.type_line("do io.write('ab' .. 'cd') end");
    term.wait_for("abcd\n");
    term.type_line("io.write('ef' .. 'gh')");
    term.wait_for("efgh\nfile\n");
    term.press(b"\x04");
    term.wait_for_exit();
}

#[test]
fn lines_typed_ahead_while_a_chunk_runs_all_run_in_order() {
    // The editor reads keys in blocks; what it read past the end of one line must reach the
    // next prompt (rustyline keeps it only with its `buffer-redux` feature).
    let home = common::scratch("repl-type-ahead");
    let mut term = Terminal::start(&["samples/locomotion.toml"], &home);
    term.wait_for("> ");
    let lines = ["hero = bl.spawn('hero', { blend_tree = 'locomotion' })", "bl.step(20)", "x = 20", "x = x + 1"];
    term.type_ahead(&[&lines[..], &["print('x is ' .. x * 2)"]].concat());
    term.wait_for("x is 42");
}

#[test]
fn ctrl_c_stops_a_runaway_chunk_then_twice_on_an_empty_line_leaves() {
    let home = common::scratch("repl-ctrl-c");
    let mut term = Terminal::start(&[], &home);
    term.wait_for("> ");
    term.type_line("n = 0 while true do n = n + 1 if n == 1000 then print('spinning') end end");
    term.wait_for("spinning");
    term.interrupt();
    term.wait_for("error: stdin:1: interrupted");
    term.type_line("n >= 1000");
    term.wait_for("true");
    term.press(b"\x03");
    // On a line of its own: the prompt that follows clears the line it starts on.
    term.wait_for("(Ctrl-C again or Ctrl-D to leave)\n");
    term.type_text("half a line");
    term.press(b"\x03");
    term.press(b"\x03");
    term.wait_for("Ctrl-C again or Ctrl-D to leave");
    term.press(b"\x03");
    term.wait_for_exit();
}

#[test]
fn an_unwritable_history_warns_once_and_the_repl_goes_on() {
    let home = common::scratch("repl-history");
    std::fs::create_dir_all(home.join(".blendlab_history")).unwrap(); // a folder: cannot be written
    let mut term = Terminal::start(&[], &home);
    term.type_line("1 + 1");
    term.wait_for("(history stays in memory)\n");
    term.type_line("2 + 2");
    term.type_line("'done'");
    term.wait_for("done");
    term.press(b"\x04");
    let screen = term.wait_for_exit();
    assert_eq!(screen.matches("cannot save history").count(), 1, "{screen}");
    assert!(screen.contains('4'), "{screen}");
}

#[test]
fn a_reload_report_prints_above_the_line_being_typed() {
    let dir = common::scratch("repl-above");
    let config = dir.join("loco.toml");
    std::fs::copy("samples/locomotion.toml", &config).unwrap();
    let mut term = Terminal::start(&[config.to_str().unwrap()], &dir);
    term.type_line("hero = bl.spawn('hero', { blend_tree = 'locomotion' })");
    term.type_line("hero:set('speed', 0.75) bl.step(1)");
    term.type_text("hero:weig");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("threshold = 1.0", "threshold = 2.0")).unwrap();
    term.wait_for("reload_applied generation=2");
    term.wait_for("hero kept every parameter and local time; its weights moved");
    term.type_line("hts().walk");
    term.wait_for("0.833333");
}

#[test]
fn record_takes_one_path_quoted_or_not_expands_home_and_prints_a_command_a_shell_runs() {
    let home = common::scratch("repl-record-path");
    let input = ":record a b\n:record \"~/my session.lua\"\n:record ~/plain.lua\nprint('after')\n";
    let repl = pipe_through(&[], input, &home);
    assert!(repl.contains("error: :record takes one file to write: quote a path with spaces"), "{repl}");
    assert!(!Path::new("a b").exists() && !home.join("a b").exists());
    let spaced = home.join("my session.lua").display().to_string();
    let command = format!("blendlab run '{spaced}'");
    assert!(repl.contains(&format!("wrote {spaced}; `{command}` replays")), "{repl}");
    let plain = home.join("plain.lua").display().to_string();
    assert!(repl.contains(&format!("wrote {plain}; `blendlab run {plain}` replays")), "{repl}");
    // The command as printed, with this build's binary for `blendlab`, run by a shell.
    let binary = env!("CARGO_BIN_EXE_blendlab");
    let status = Command::new("sh").arg("-c").arg(command.replacen("blendlab", binary, 1)).status().unwrap();
    assert!(status.success(), "{command}");
}

#[test]
fn tab_completes_an_actor_name_with_spaces_quoted() {
    let home = common::scratch("repl-complete-quoted");
    let mut term = Terminal::start(&["samples/locomotion.toml"], &home);
    term.type_line("for _, name in ipairs({ 'my hero', 'myth' }) do bl.spawn(name, { blend_tree = 'locomotion' }) end");
    term.type_line("print('spawned')");
    term.wait_for("spawned");
    // Two names begin with `m`: Tab stops where they part, a second Tab lists both as typed.
    term.type_text(":weights m\t");
    term.wait_for(":weights my");
    term.type_text("\t");
    term.wait_for("'my hero'  myth");
    term.type_text("t\t");
    term.wait_for(":weights myth");
    term.type_line("");
    term.wait_for("myth · blend_tree locomotion");
    // An opened quote is kept, and closed once the name is whole.
    term.type_text(":graph \"m\t");
    term.wait_for(":graph \"my");
    term.type_text(" \t");
    term.wait_for(":graph \"my hero\"");
    term.type_line("");
    term.wait_for("layer base");
    term.type_text(":graph 'my \t");
    term.wait_for(":graph 'my hero'");
    term.type_line("");
    term.wait_for("layer base");
    term.press(b"\x04");
    term.wait_for_exit();
}

#[test]
fn an_error_in_a_replay_names_the_recording_and_the_line_of_its_chunk() {
    let dir = common::scratch("repl-record-error-line");
    let config = dir.join("loco.toml");
    std::fs::copy("samples/locomotion.toml", &config).unwrap();
    let recording = dir.join("rec.lua");
    let input = format!(
        "x = 1\nbl.load({:?})\nhero = bl.spawn('hero', {{ blend_tree = 'locomotion' }})\n:record {}\n",
        config.display().to_string(),
        recording.display()
    );
    pipe_through(&[], &input, &dir);
    std::fs::remove_file(&config).unwrap();
    let written = std::fs::read_to_string(&recording).unwrap();
    let line = written.lines().position(|l| l.contains("bl.load(")).unwrap() + 1;
    // Run from the recording's folder, which is not the session's (this one).
    let output =
        Command::new(env!("CARGO_BIN_EXE_blendlab")).args(["run", "rec.lua"]).current_dir(&dir).output().unwrap();
    let errors = String::from_utf8(output.stderr).unwrap();
    assert!(errors.contains(&format!("error: rec.lua:{line}: bl.load: ")), "line {line}:\n{errors}");
}

#[test]
fn ctrl_c_inside_a_callback_prints_its_frame_first_and_the_recording_stops_there() {
    let dir = common::scratch("repl-record-callback");
    let recording = dir.join("rec.lua");
    let mut term = Terminal::start(&["samples/demo_attack.toml"], &dir);
    term.type_line("hero = bl.spawn('hero', { graph = 'fighter' })");
    // Built from pieces, so that the echo of the typed line never matches what it prints.
    term.type_line(
        "bl.at(0.5, function() hero:play('demo_attack', { layer = 'skill' }) print('spin' .. 'ning') while true do end end)",
    );
    term.type_line(":step 1");
    term.wait_for("spinning");
    term.interrupt();
    // The events the interrupted frame logged print before the error that ended it.
    term.wait_for("frame 30 t=0.500000 hero: movement_locked");
    term.wait_for("error: stdin:1: interrupted");
    term.type_line(":step 0.5");
    term.type_line(&format!(":record {}", recording.display()));
    term.wait_for("the replay stops with an error after frame 29");
    term.press(b"\x04");
    term.wait_for_exit();

    let recorded = std::fs::read_to_string(&recording).unwrap();
    assert!(recorded.contains("bl.frames(29)\n-- Ctrl-C stopped a `bl.at` callback"), "{recorded}");
    let line = recorded.lines().position(|l| l.starts_with("error(")).unwrap() + 1;
    let output = Command::new(env!("CARGO_BIN_EXE_blendlab"))
        .args(["run", "--timeout", "20", "rec.lua"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let errors = String::from_utf8(output.stderr).unwrap();
    let stopped = format!(
        "error: rec.lua:{line}: interrupted (Ctrl-C) in the session inside frame 30: the replay stops after frame 29\n"
    );
    assert_eq!((output.status.code(), errors.as_str()), (Some(1), stopped.as_str()));
}

#[test]
fn record_never_overwrites_a_loaded_config_the_start_up_script_or_a_file_it_did_not_write() {
    let dir = common::scratch("repl-record-refuses");
    std::fs::copy("samples/locomotion.toml", dir.join("loco.toml")).unwrap();
    std::fs::write(dir.join("setup.lua"), "hero = bl.spawn('hero', { blend_tree = 'locomotion' })\n").unwrap();
    std::fs::write(dir.join("notes.lua"), "-- mine\n").unwrap();
    let before = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let (loco, setup) = (before("loco.toml"), before("setup.lua"));
    let d = dir.display();
    let input = format!(
        ":record {d}/loco.toml\n:record {d}/../{}/setup.lua\n:record {d}/notes.lua\n:record {d}/new.toml\n\
         :record {d}/s.out\n:record {d}/s.lua\n:step 1\n:record {d}/./s.lua\n",
        dir.file_name().unwrap().to_str().unwrap()
    );
    let repl =
        pipe_through(&[dir.join("loco.toml").to_str().unwrap(), dir.join("setup.lua").to_str().unwrap()], &input, &dir);
    for refused in [
        format!("error: :record: {d}/loco.toml is a config this session loaded"),
        "setup.lua is a Lua file this session ran".to_string(),
        format!("error: :record: {d}/notes.lua exists and this session did not write it"),
        format!("error: :record: {d}/new.toml would be a TOML config by its name"),
        format!("error: :record: {d}/s.out would be a golden file by its name"),
    ] {
        assert!(repl.contains(&refused), "{refused} in\n{repl}");
    }
    assert_eq!((before("loco.toml"), before("setup.lua"), before("notes.lua")), (loco, setup, "-- mine\n".into()));
    assert!(!dir.join("new.toml").exists() && !dir.join("s.out").exists());
    // A file :record wrote itself it may write again, however it is spelt.
    assert!(repl.contains(&format!("wrote {d}/./s.lua; `blendlab run {d}/./s.lua` replays")), "{repl}");
    assert!(before("s.lua").contains("bl.step(1)"));
}

#[test]
fn the_prompt_loads_its_folder_as_dot_and_one_file_under_two_spellings_is_one_file() {
    let dir = common::scratch("repl-load-dot");
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::copy("samples/locomotion.toml", sub.join("loco.toml")).unwrap();
    let input = format!(
        "print(#bl.load('.'))\nprint(#bl.load('./'))\nprint(#bl.load('../sub/'))\nprint(#bl.load('loco.toml'))\n\
         print(#bl.load({{ '../sub/loco.toml', './loco.toml' }}))\nprint(#bl.load({:?}))\n",
        sub.join("loco.toml").display().to_string()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_blendlab"))
        .env("NO_COLOR", "1")
        .env("HOME", &*dir)
        .current_dir(&sub)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let (out, err) = (String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap());
    assert_eq!(err, "", "{out}");
    assert_eq!(out.lines().filter(|l| *l == "4").count(), 6, "{out}");
    assert!(out.lines().filter(|l| l.contains("reload_applied")).all(|l| l.ends_with(" files=loco.toml")), "{out}");
}

#[test]
fn a_config_warning_prints_once_and_a_reload_of_another_file_does_not_repeat_it() {
    let dir = common::scratch("repl-warn-once");
    let (inside, loco) = (dir.join("inside.toml"), dir.join("loco.toml"));
    std::fs::copy("tests/scripts/clip_inside.toml", &inside).unwrap();
    std::fs::copy("samples/locomotion.toml", &loco).unwrap();
    let input = format!(
        "f = io.open({:?}, 'a') f:write('# saved\\n') f:close()\n:reload\n:events warning\n",
        loco.display().to_string()
    );
    let repl = pipe_through(&[inside.to_str().unwrap(), loco.to_str().unwrap()], &input, &dir);
    let diagnostic = format!("{}:12:3: warning: clip `B` lies inside clip `A`", inside.display());
    assert_eq!(repl.lines().filter(|l| l.starts_with(&diagnostic)).count(), 1, "{repl}");
    assert!(repl.contains("reload_applied generation=2"), "{repl}");
    // The event is logged (and `:events` shows it), but not printed live beside its diagnostic.
    assert_eq!(repl.matches("warning message=").count(), 2, "{repl}");
}
