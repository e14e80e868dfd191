//! A reload moves running playbacks and transition layers onto the new library: the task
//! lifecycle keeps its frame and clip states, the arbiter keeps its state, pending token and
//! fades, and the weights continue where they were; timelines played nested keep their tasks
//! and markers.

mod common;

use blendlab::report::{Reader, Style, reload_report};
use blendlab::script::{Host, Output, Reload};
use common::Captured;

const LIBRARY: &str = r#"
[clips]
guard = { length = 2.0, loop = true }
slash = { length = LENGTH }

[timelines.combo]
frame_rate = 10
[[timelines.combo.tracks]]
name = "t"
clips = [
  { name = "lock", start_frame = 0, end_frame = 20, task = { type = "MovementLock" } },
  { name = "swing", start_frame = 2, end_frame = 8, task = { type = "PlayAnimation", animation = "slash", fade = 1.0 } },
]

[graphs.fighter]
layers = [
  { name = "action", transitions = "guard" },
  { name = "skill", timeline = "combo", autoplay = false },
]
"#;

/// A host with `text` loaded from `NAME` in a fresh folder; returns it, the file and the folder
/// (removed when dropped).
fn host_with(name: &str, text: &str) -> (Host, std::path::PathBuf, common::Scratch) {
    let dir = common::scratch(&format!("reload-state-{name}"));
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let captured = Captured::default();
    let host =
        Host::new(Output { out: Box::new(captured.clone()), err: Box::new(captured), style: Default::default() })
            .unwrap();
    host.load_config(&path).unwrap();
    (host, path, dir)
}

fn eval(host: &Host, code: &str) -> String {
    host.eval(code).unwrap_or_else(|e| panic!("{code}: {}", e.message)).join("\t")
}

#[test]
fn playbacks_and_transitions_survive_a_reload() {
    let (host, path, _folder) = host_with("fighter.toml", &LIBRARY.replace("LENGTH", "0.5"));
    eval(
        &host,
        "bl.rate(10); hero = bl.spawn('hero', { graph = 'fighter' }); skill = hero:play('combo', { layer = 'skill' })",
    );
    eval(&host, "bl.frames(5)");
    let before = eval(
        &host,
        "return skill:frame(), hero:arbiter('action').pending.generation, hero:weights().slash, (hero:locked())",
    );

    std::fs::write(&path, LIBRARY.replace("LENGTH", "0.6")).unwrap();
    host.load_config(&path).unwrap();
    let after = eval(
        &host,
        "return skill:frame(), hero:arbiter('action').pending.generation, hero:weights().slash, (hero:locked())",
    );
    assert_eq!(before, after, "the reload changed no state");

    eval(&host, "bl.frames(10)");
    let later =
        eval(&host, "return skill:frame(), hero:arbiter('action').state, hero:weights().slash, (hero:locked())");
    assert_eq!(later, "15\tslash\t1.0\ttrue", "the fade finished and committed, the lock is still held");
    let begins = eval(&host, "return #bl.events({ kind = 'clip_begin' }), #bl.events({ kind = 'transition_begin' })");
    assert_eq!(begins, "2\t1", "nothing began twice across the reload");
}

#[test]
fn a_nested_timeline_keeps_its_tasks_and_markers_across_a_reload() {
    let library = r#"
[clips]
bow = { length = LENGTH }

[timelines.greeting]
frame_rate = 10
markers = [{ time = 0.8, name = "late" }]
[[timelines.greeting.tracks]]
name = "body"
clips = [
  { start = 0.0, duration = 1.0, motion = "bow" },
  { name = "lock", start_frame = 0, end_frame = 6, task = { type = "MovementLock" } },
]

[timelines.scene]
[[timelines.scene.tracks]]
name = "hero"
clips = [{ name = "greet", start = 0.0, duration = 2.0, motion = "greeting" }]
"#;
    let (host, path, _folder) = host_with("scene.toml", &library.replace("LENGTH", "1.0"));
    eval(&host, "bl.rate(10); hero = bl.spawn('hero', { timeline = 'scene' }); bl.frames(3)");
    assert_eq!(eval(&host, "return (hero:locked())"), "true");

    std::fs::write(&path, library.replace("LENGTH", "1.5")).unwrap();
    host.load_config(&path).unwrap();
    eval(&host, "bl.frames(10)");
    let counts = eval(
        &host,
        "return #bl.events({ kind = 'clip_begin' }), #bl.events({ kind = 'clip_finish' }), \
         #bl.events({ kind = 'signal' }), (hero:locked())",
    );
    assert_eq!(counts, "1\t1\t1\tfalse", "the lock began once and finished; the marker fired once");
}

#[test]
fn clips_that_left_the_active_set_keep_their_frozen_times_across_a_reload() {
    let library = r#"
[clips]
stroll = { length = 1.2, loop = true }
turn = { length = 0.5 }
bow = { length = 1.0 }
idle = { length = 2.0, loop = true }
walk = { length = 1.0, loop = true }
spare = { length = SPARE }

[parameters]
speed = { default = 0.5 }

[blend_trees.loco]
type = "1d"
parameter = "speed"
children = [{ motion = "idle", threshold = 0.0 }, { motion = "walk", threshold = 1.0 }]

[timelines.greeting]
[[timelines.greeting.tracks]]
name = "body"
clips = [{ start = 0.0, duration = 0.5, motion = "turn" }, { start = 0.5, duration = 1.0, motion = "bow" }]

[timelines.scene]
[[timelines.scene.tracks]]
name = "hero"
clips = [
  { start = 0.0, duration = STROLL, motion = "stroll" },
  { name = "greet", start = 2.0, duration = 1.5, motion = "greeting" },
]
[[timelines.scene.tracks]]
name = "legs"
clips = [{ start = 0.0, duration = 1.0, motion = "loco" }, { name = "stride", start = 1.0, duration = 3.0, motion = "walk" }]
"#;
    let version = |stroll: &str, spare: &str| library.replace("STROLL", stroll).replace("SPARE", spare);
    let (host, path, _folder) = host_with("frozen.toml", &version("2.0", "1.0"));
    let reload = |text: String| {
        std::fs::write(&path, text).unwrap();
        match host.reload_configs(&[path.display().to_string()]) {
            Reload::Applied { changes } => reload_report(&changes, Style::default(), Reader::Prompt),
            _ => panic!("the reload applies"),
        }
    };
    // At 3.3 s `stroll` and the tree's clip have left the active set, and so has the greeting's
    // `turn` inside the still active `greet`: their local times are frozen where they left (the
    // tree's leaves at its clip's end, local time 1: phase 1 / 1.5 of idle 2 s and walk 1 s).
    let times = "return hero:time('stroll'), hero:time('greet/turn'), hero:time('loco/idle'), hero:time('loco/walk')";
    eval(&host, "hero = bl.spawn('hero', { timeline = 'scene' }); bl.step(3.3)");
    let before = eval(&host, times);
    assert_eq!(before, "2.0\t0.5\t1.3333333333333\t0.66666666666667");

    let report = reload(version("2.0", "1.5"));
    assert_eq!(eval(&host, times), before, "an unrelated change keeps every frozen time");
    assert_eq!(report, "hero kept every parameter and local time; no weight moved\n");

    let report = reload(version("1.5", "1.5"));
    assert_eq!(eval(&host, "return hero:time('stroll')"), "1.5", "a shorter clip clamps its frozen time");
    assert!(report.contains("reset: leaf stroll time 2.000000 → 1.500000\n"), "{report}");
}

/// A clip that gets shorter under a leaf past its new end: a looping clip's time wraps into
/// it (the loop keeps playing), a one-shot's is clamped to its end — in a tree and on a clip
/// layer alike.
#[test]
fn a_shorter_clip_wraps_a_looping_leaf_and_clamps_a_one_shot() {
    let library = r#"
[clips]
walk = { length = WALK, loop = true }
shot = { length = SHOT }

[blend_trees.pair]
type = "1d"
parameter = "x"
sync = "none"
children = [{ motion = "walk", threshold = 0.0 }, { motion = "shot", threshold = 1.0 }]

[graphs.g]
layers = [{ name = "base", blend_tree = "pair" }, { name = "top", clip = "walk", weight = 0.5 }]
"#;
    let (host, path, _folder) = host_with("shorter.toml", &library.replace("WALK", "1.0").replace("SHOT", "0.8"));
    eval(&host, "bl.rate(10); a = bl.spawn('a', { graph = 'g' }); bl.frames(7)");
    let times = "return a:time('base/walk'), a:time('shot'), a:time('top/walk')";
    assert_eq!(eval(&host, times), "0.7\t0.7\t0.7");
    std::fs::write(&path, library.replace("WALK", "0.5").replace("SHOT", "0.4")).unwrap();
    host.load_config(&path).unwrap();
    let after: Vec<f64> = eval(&host, times).split('\t').map(|t| t.parse().unwrap()).collect();
    for (time, expected) in after.iter().zip([0.2, 0.4, 0.2]) {
        assert!((time - expected).abs() < 1e-12, "{after:?}");
    }
}
