//! Hot reload that never loses state. The story in `tests/reload/story.out` is driven through
//! `Host::reload_configs`, the function the watcher's debounced batches call, so it is
//! deterministic: a config good → broken → fixed, written in two halves, deleted, restored.
//! One test then does the same end to end through the real file watcher.

mod common;
mod pty;

use std::path::{Path, PathBuf};

use blendlab::report::{Reader, Style, reload_failure, reload_report};
use blendlab::script::{Host, Output, Reload};
use common::{Captured, check_golden};

/// A host whose config is `dir/loco.toml`, with the actor `hero` at speed 0.75 after 1 s.
struct Story {
    host: Host,
    captured: Captured,
    file: PathBuf,
    log: String,
}

impl Story {
    fn start(dir: &Path) -> Story {
        let captured = Captured::default();
        let output =
            Output { out: Box::new(captured.clone()), err: Box::new(captured.clone()), style: Default::default() };
        let host = Host::new(output).unwrap();
        let file = common::write_loco(dir, "v1.toml");
        host.load_config(&file).unwrap();
        host.eval("hero = bl.spawn('hero', { blend_tree = 'locomotion' }) hero:set('speed', 0.75) bl.step(1)").unwrap();
        Story { host, captured, file, log: String::new() }
    }

    /// Writes `text` (or deletes the file for `None`), reloads, and logs what happened.
    fn save(&mut self, what: &str, text: Option<&str>) -> Reload {
        match text {
            Some(text) => std::fs::write(&self.file, text).unwrap(),
            None => std::fs::remove_file(&self.file).unwrap(),
        }
        let name = self.file.display().to_string();
        let outcome = self.host.reload_configs(std::slice::from_ref(&name));
        let shown = match &outcome {
            Reload::Unchanged => "unchanged\n".to_string(),
            Reload::Applied { changes } => {
                format!("applied\n{}", reload_report(changes, Style::default(), Reader::Prompt))
            }
            Reload::Failed { errors, generation, diagnostics } => {
                format!("{}\n{diagnostics}", reload_failure(*errors, *generation))
            }
        };
        let state = self.host.eval("string.format('frame %d, speed %.2f, lean %s', bl.frame(), hero:get('speed'), tostring(pcall(hero.get, hero, 'lean')))").unwrap();
        self.log.push_str(&format!("## {what}: {shown}{}\n\n", state.join("")));
        outcome
    }
}

#[test]
fn a_session_survives_every_kind_of_save() {
    let dir = common::scratch("reload-story");
    let mut story = Story::start(&dir);
    let v1 = common::reload_version("v1.toml");
    let half = &v1[..v1.len() / 2];

    assert!(matches!(story.save("the same text again", Some(&v1)), Reload::Unchanged));
    assert!(matches!(
        story.save("broken mid-session", Some(&common::reload_version("broken.toml"))),
        Reload::Failed { .. }
    ));
    assert!(matches!(
        story.save("fixed: the new version", Some(&common::reload_version("v2.toml"))),
        Reload::Applied { .. }
    ));
    assert!(matches!(story.save("first half of a write", Some(half)), Reload::Failed { .. }));
    assert!(matches!(story.save("second half arrives", Some(&v1)), Reload::Applied { .. }));
    assert!(matches!(story.save("deleted", None), Reload::Failed { .. }));
    assert!(matches!(story.save("restored unchanged", Some(&v1)), Reload::Applied { .. }));

    let events = story.host.eval("local lines = {} for _, e in ipairs(bl.events()) do lines[#lines + 1] = string.format('frame %d %s generation=%s', e.frame, e.kind, tostring(e.generation)) end return table.concat(lines, '\\n')").unwrap();
    let scratch_dir = dir.display().to_string();
    let text = format!("{}## events\n{}\n## printed\n{}", story.log, events.join(""), story.captured.text())
        .replace(&scratch_dir, "DIR");
    if let Some(difference) = check_golden(Path::new("tests/reload/story.out"), &text) {
        panic!("{difference}");
    }
}

#[test]
fn a_broken_save_keeps_the_live_weights() {
    let dir = common::scratch("reload-weights");
    let mut story = Story::start(&dir);
    let before = story.host.eval("hero:weights()").unwrap();
    story.save("broken", Some(&common::reload_version("broken.toml")));
    assert_eq!(story.host.eval("hero:weights()").unwrap(), before);
    story.save("deleted", None);
    assert_eq!(story.host.eval("hero:weights()").unwrap(), before);
}

/// The real thing: `blendlab FILE` with input piped, the file edited on disk underneath.
#[test]
fn the_watcher_reloads_saved_files_end_to_end() {
    let dir = common::scratch("reload-watch");
    let file = common::write_loco(&dir, "v1.toml");
    let mut repl = pty::Piped::start(&[file.as_os_str()]);
    repl.send(
        "hero = bl.spawn('hero', { blend_tree = 'locomotion' }) hero:set('speed', 0.75) bl.step(1)\nprint('ready')\n",
    );
    repl.out.wait_for("ready");

    std::fs::write(&file, common::reload_version("broken.toml")).unwrap();
    repl.out.wait_for("reload_failed generation=1 errors=2");
    repl.err.wait_for("reload failed (2 errors); generation 1 stays live");
    repl.err.wait_for("loco.toml:4:10: error: unknown key `lenght`");

    // an editor's save: write a temporary file, rename it over the config
    let temporary = dir.join(".loco.toml.swp");
    std::fs::write(&temporary, common::reload_version("v2.toml")).unwrap();
    std::fs::rename(&temporary, &file).unwrap();
    repl.out.wait_for("reload_applied generation=2");
    repl.out.wait_for("removed: leaf walk");

    std::fs::remove_file(&file).unwrap();
    repl.err.wait_for("cannot read file");
    std::fs::write(&file, common::reload_version("v1.toml")).unwrap();
    repl.out.wait_for("reload_applied generation=3");

    repl.send("print(bl.frame(), hero:get('speed'), #bl.events({ kind = 'reload_applied' }))\n");
    repl.out.wait_for("60\t0.75\t3");
    repl.finish();
}

#[test]
fn a_config_that_failed_to_load_in_the_repl_loads_once_a_save_fixes_it() {
    let dir = common::scratch("reload-unloaded");
    let file = common::write_loco(&dir, "broken.toml");
    let mut repl = pty::Piped::start(&[]);
    repl.send(&format!("print(pcall(bl.load, {:?}))\n", file.display().to_string()));
    repl.out.wait_for("loco.toml:4:10: error: unknown key `lenght`");
    repl.out.wait_for("reload_failed generation=0");
    // Lines run in order: once this one has printed, the failed file is followed.
    repl.send("print('following')\n");
    repl.out.wait_for("following");

    std::fs::write(&file, common::reload_version("v1.toml")).unwrap();
    repl.out.wait_for("reload_applied generation=1");
    repl.send(
        "print(bl.spawn('hero', { blend_tree = 'locomotion' }) ~= nil, #bl.events({ kind = 'reload_applied' }))\n",
    );
    repl.out.wait_for("true\t1");
    repl.finish();
}

#[test]
fn a_lua_file_re_run_by_reload_replaces_its_listeners_and_pending_callbacks() {
    let dir = common::scratch("reload-rerun");
    common::write_loco(&dir, "v1.toml");
    let script = dir.join("setup.lua");
    let version = |n: u32| {
        format!(
            "bl.load('loco.toml')\nhero = bl.spawn('hero', {{ blend_tree = 'locomotion' }})\n\
             bl.on('timeline_missing', function() print('v{n} heard') end)\n\
             bl.at(1, function() print('v{n} at 1 s') end)\nprint('v{n} ran')\n"
        )
    };
    std::fs::write(&script, version(1)).unwrap();
    let captured = Captured::default();
    let output = Output { out: Box::new(captured.clone()), err: Box::new(captured.clone()), style: Default::default() };
    let host = Host::new(output).unwrap();
    host.run_file(&script, &[]).unwrap();
    host.eval("bl.step(0.5) hero:set('speed', 0.75)").unwrap();

    std::fs::write(&script, version(2)).unwrap();
    let changed = host.changed_scripts();
    assert_eq!(changed, [script.display().to_string()]);
    host.rerun_script(&changed[0]).unwrap();
    host.eval("bl.step(1) hero:play('nowhere')").unwrap();
    host.flush_events().unwrap();
    assert_eq!(host.eval("hero:get('speed')").unwrap()[0], "0.75", "the re-run kept the actor");
    // One listener and one callback, the new version's: nothing of v1 runs after the re-run.
    assert_eq!(captured.text(), "v1 ran\nv2 ran\nv2 at 1 s\nv2 heard\n");
    assert!(host.changed_scripts().is_empty(), "an unchanged file is not re-run");
}

#[test]
fn an_edit_of_the_file_behind_a_symbolic_link_reloads_the_link() {
    // A shared config in another folder, loaded through a link: editing the shared file is a
    // change of the config the session loaded.
    let dir = common::scratch("reload-link");
    let shared = dir.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    let target = common::write_loco(&shared, "v1.toml");
    let link = dir.join("loco.toml");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let mut repl = pty::Piped::start(&[link.as_os_str()]);
    repl.send("print('ready')\n");
    repl.out.wait_for("ready");
    std::fs::write(&target, common::reload_version("v2.toml")).unwrap();
    repl.out.wait_for("reload_applied generation=2");
    repl.finish();
}

#[test]
fn pointing_a_link_in_the_middle_of_a_chain_elsewhere_reloads_the_config() {
    // loco.toml → middle/current.toml → versions/v1/loco.toml; the middle link is then pointed
    // at versions/v2/loco.toml, as a deploy script would.
    let dir = common::scratch("reload-chain");
    let (v1, v2, middle) = (dir.join("versions/v1"), dir.join("versions/v2"), dir.join("middle"));
    for folder in [&v1, &v2, &middle] {
        std::fs::create_dir_all(folder).unwrap();
    }
    let first = common::write_loco(&v1, "v1.toml");
    let second = v2.join("loco.toml");
    std::fs::write(&second, common::reload_version("v2.toml")).unwrap();
    let current = middle.join("current.toml");
    std::os::unix::fs::symlink(&first, &current).unwrap();
    let link = dir.join("loco.toml");
    std::os::unix::fs::symlink(&current, &link).unwrap();
    let mut repl = pty::Piped::start(&[link.as_os_str()]);
    repl.send("print('ready')\n");
    repl.out.wait_for("ready");
    let swapped = middle.join("swap.toml");
    std::os::unix::fs::symlink(&second, &swapped).unwrap();
    std::fs::rename(&swapped, &current).unwrap();
    repl.out.wait_for("reload_applied generation=2");
    repl.finish();
}

#[test]
fn run_watch_reloads_its_configs_and_says_how_to_run_its_script_again() {
    let dir = common::scratch("run-watch");
    let config = common::write_loco(&dir, "v1.toml");
    let script = dir.join("main.lua");
    std::fs::write(&script, "bl.load('loco.toml') print('ran')\n").unwrap();
    let mut watch = pty::Piped::start(&["run".as_ref(), "--watch".as_ref(), script.as_os_str()]);
    watch.out.wait_for("watching the loaded files for changes");
    std::fs::write(&config, common::reload_version("v2.toml")).unwrap();
    watch.out.wait_for("reload_applied generation=2");
    std::fs::write(&script, "bl.load('loco.toml') print('ran again')\n").unwrap();
    watch.out.wait_for("main.lua changed; run `blendlab run --watch` again to re-run it");
    watch.kill();
}

/// `blendlab run --watch SCRIPT` that must end by itself: its exit code, standard output and
/// error (a run still going after the deadline is killed, and fails the test).
fn watch_to_the_end(script: &Path) -> (Option<i32>, String, String) {
    let mut watch = pty::Piped::start(&["run".as_ref(), "--watch".as_ref(), script.as_os_str()]);
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = watch.child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(30) {
            let printed = watch.out.all();
            watch.kill();
            panic!("run --watch {} still running after 30 s:\n{printed}", script.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::thread::sleep(std::time::Duration::from_millis(100)); // the readers catch up
    (status.code(), watch.out.all(), watch.err.all())
}

#[test]
fn run_watch_ends_with_the_script_when_it_fails_or_loads_no_config() {
    let dir = common::scratch("run-watch-ends");
    common::write_loco(&dir, "v1.toml");
    let cannot = "error: the script failed, so nothing is watched: fix it, then run `blendlab run --watch` again\n";
    // A script that cannot run, or fails after loading a config: its error, then exit 1.
    let (code, _, stderr) = watch_to_the_end(&dir.join("nosuch.lua"));
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.starts_with("error: cannot read") && stderr.ends_with(cannot), "{stderr}");
    let failing = dir.join("failing.lua");
    std::fs::write(&failing, "bl.load('loco.toml')\nerror('boom')\n").unwrap();
    let (code, stdout, stderr) = watch_to_the_end(&failing);
    assert_eq!((code, stdout.as_str()), (Some(1), ""));
    assert_eq!(stderr, format!("error: {}:2: boom\n{cannot}", failing.display()));
    // A script that loads no config: nothing to watch, and its own exit status.
    let plain = dir.join("plain.lua");
    std::fs::write(&plain, "print('ran')\n").unwrap();
    let (code, stdout, stderr) = watch_to_the_end(&plain);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    assert_eq!(stdout, "ran\nnothing to watch: the script loaded no config (a save of a Lua file never re-runs it)\n");
}

#[test]
fn a_good_save_while_another_file_is_broken_fails_naming_the_broken_one() {
    // The live library is what is on disk as a whole, or stays as it was: a good save of one
    // file while another is broken does not make a library that is neither.
    let dir = common::scratch("reload-two-files");
    let mut story = Story::start(&dir);
    let extra = dir.join("extra.toml");
    std::fs::write(&extra, "[clips]\nextra = { length = 1.0 }\n").unwrap();
    story.host.load_config(&extra).unwrap();
    let extra_name = extra.display().to_string();
    std::fs::write(&extra, "[clips]\nextra = { length = 1.0 \n").unwrap();
    assert!(matches!(story.host.reload_configs(std::slice::from_ref(&extra_name)), Reload::Failed { .. }));
    // Generation 2 (v1, then extra) stays live through both failures, which take no number:
    // the good save after them is generation 3.
    match story.save("a good save of the other file", Some(&common::reload_version("v2.toml"))) {
        Reload::Failed { errors: 1, generation: 2, diagnostics } => {
            assert!(diagnostics.contains("extra.toml:2:"), "{diagnostics}")
        }
        other => panic!("{other:?}"),
    }
    std::fs::write(&extra, "[clips]\nextra = { length = 2.0 }\n").unwrap();
    assert!(matches!(story.host.reload_configs(std::slice::from_ref(&extra_name)), Reload::Applied { .. }));
    assert_eq!(story.host.eval("bl.events({ kind = 'reload_applied' })[3].generation").unwrap(), ["3"]);
    // Both saves are live now: v2 has no `walk`.
    assert_eq!(story.host.eval("hero:weights().walk").unwrap(), ["nil"]);
}

/// A crowd's library: `hero` walks on `locomotion` (reading `speed`), the crowd on `crowd`
/// (reading `pace`; its run at `RUN`), and `cs` plays `cutscene`, reading no parameter.
const CROWD: &str = r#"
[clips]
idle = { length = 2.0, loop = true }
walk = { length = 1.0, loop = true }
run = { length = 0.8, loop = true }

[parameters]
pace = { default = 0.0 }
SPEED

[blend_trees.locomotion]
type = "1d"
parameter = "HERO_READS"
children = [{ motion = "idle", threshold = 0.0 }, { motion = "walk", threshold = 1.0 }]

[blend_trees.crowd]
type = "1d"
parameter = "pace"
children = [{ motion = "idle", threshold = 0.0 }, { motion = "walk", threshold = 0.5 }, { motion = "run", threshold = RUN }]

[timelines.cutscene]
[[timelines.cutscene.tracks]]
name = "main"
clips = [{ start = 0.0, duration = 4.0, motion = "idle" }]
"#;

/// With a crowd, a reload report names only the actors that lost or got back a parameter, a
/// leaf or a local time; the others are one line, which names a few whose weights moved. An
/// actor hears only of the parameters its graph reads. Actors changed alike are one block;
/// past a few blocks, the rest are a line per kind of change.
#[test]
fn a_crowd_reload_reports_only_the_actors_it_changed() {
    let dir = common::scratch("reload-crowd");
    let file = dir.join("crowd.toml");
    let version = |run: &str, hero_reads: &str, speed: &str| {
        CROWD.replace("RUN", run).replace("HERO_READS", hero_reads).replace("SPEED", speed)
    };
    std::fs::write(&file, version("1.0", "speed", "speed = { default = 0.0 }")).unwrap();
    let captured = Captured::default();
    let output = Output { out: Box::new(captured.clone()), err: Box::new(captured), style: Default::default() };
    let host = Host::new(output).unwrap();
    host.load_config(&file).unwrap();
    host.eval(
        "hero = bl.spawn('hero', { blend_tree = 'locomotion' }) hero:set('speed', 0.5) \
         cs = bl.spawn('cs', { timeline = 'cutscene' }) \
         for i = 1, 300 do bl.spawn('c' .. i, { blend_tree = 'crowd' }):set('pace', i / 300) end \
         for i = 1, 40 do bl.spawn('s' .. i, { blend_tree = 'locomotion' }) end bl.step(1)",
    )
    .unwrap();
    let name = file.display().to_string();
    let mut log = String::new();
    for (what, text) in [
        ("the crowd's run moves out", version("2.0", "speed", "speed = { default = 0.0 }")),
        ("a comment, nothing else", version("2.0", "speed", "speed = { default = 0.0 } # the hero's")),
        ("speed goes, the hero reads lean", version("2.0", "lean", "")),
        // Each crowd actor loses `pace` and reads `tempo`, its weights its own: a few blocks,
        // then a line for the rest.
        ("the crowd reads tempo", version("2.0", "lean", "").replace("parameter = \"pace\"", "parameter = \"tempo\"")),
    ] {
        std::fs::write(&file, text).unwrap();
        let Reload::Applied { changes } = host.reload_configs(std::slice::from_ref(&name)) else {
            panic!("{what}: the reload applies")
        };
        let report = reload_report(&changes, Style::default(), Reader::Prompt);
        log.push_str(&format!("## {what}\n{report}\n"));
        // `run --watch` reads no input, so no `:weights` there: moved weights show instead.
        let watched = reload_report(&changes, Style::default(), Reader::Watch);
        if watched != report {
            log.push_str(&format!("## {what}, under run --watch\n{watched}\n"));
        }
    }
    if let Some(difference) = check_golden(Path::new("tests/reload/crowd.out"), &log) {
        panic!("{difference}");
    }
}

/// A reload report shows every channel of an actor's graph, before and after: a layer a
/// reload adds on `upper` shows there (the first channel alone said nothing changed).
#[test]
fn a_reload_report_shows_every_channel() {
    const GUNNER: &str = r#"
[clips]
idle = { length = 2.0, loop = true }
walk = { length = 1.0, loop = true }
aim_up = { length = 1.0, loop = true }
aim_down = { length = 1.0, loop = true }

[parameters]
aim_pitch = { default = 0.3 }

[blend_trees.legs]
type = "1d"
parameter = "pace"
children = [{ motion = "idle", threshold = 0.0 }, { motion = "walk", threshold = 1.0 }]

[blend_trees.aim]
type = "1d"
parameter = "aim_pitch"
children = [{ motion = "aim_down", threshold = 0.0 }, { motion = "aim_up", threshold = 1.0 }]

[graphs.gunner]
channels = ["lower", "upper"]
layers = [{ name = "base", blend_tree = "legs" }AIM]
"#;
    let dir = common::scratch("reload-channels");
    let file = dir.join("gunner.toml");
    std::fs::write(&file, GUNNER.replace("AIM", "")).unwrap();
    let captured = Captured::default();
    let output = Output { out: Box::new(captured.clone()), err: Box::new(captured), style: Default::default() };
    let host = Host::new(output).unwrap();
    host.load_config(&file).unwrap();
    host.eval("for i = 1, 3 do bl.spawn('g' .. i, { graph = 'gunner' }) end bl.step(0.5)").unwrap();
    let aim = r#", { name = "aim", blend_tree = "aim", mask = ["upper"], weight = 0.5 }"#;
    std::fs::write(&file, GUNNER.replace("AIM", aim)).unwrap();
    let report = match host.reload_configs(&[file.display().to_string()]) {
        Reload::Applied { changes } => reload_report(&changes, Style::default(), Reader::Prompt),
        other => panic!("the reload applies: {other:?}"),
    };
    if let Some(difference) = check_golden(Path::new("tests/reload/channels.out"), &report) {
        panic!("{difference}");
    }
}
