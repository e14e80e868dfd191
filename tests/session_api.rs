//! Session API used by Rust front ends (the crowd benchmark): a replayed timeline behaves
//! exactly like a fresh playback, leaf local times can be placed, `play_by_id` is `play`, and
//! only a playing playback seeks.

use blendlab::compile::compile;
use blendlab::config::SourceFile;
use blendlab::session::{ActorSpec, Session, SessionError};
use blendlab::time::Ticks;

/// A timeline with everything a playback keeps state for: a blend-tree clip, a nested
/// timeline, markers (one `emit_once`), a flow-scoped task, eases.
const LIBRARY: &str = r#"
[clips]
idle = { length = 2.0, loop = true }
walk = { length = 1.0, loop = true }
turn = { length = 0.5 }
hit = { length = 0.6 }

[blend_trees.move]
type = "1d"
parameter = "speed"
sync = "none"
children = [{ motion = "idle", threshold = 0.0 }, { motion = "walk", threshold = 1.0 }]

[timelines.inner]
[[timelines.inner.tracks]]
name = "t"
clips = [{ start = 0.0, duration = 0.5, motion = "turn", ease_in = 0.1 }]

[timelines.scene]
frame_rate = 30
wrap = "none"
markers = [{ time = 0.1, name = "whoosh" }, { time = 0.3, name = "once", emit_once = true }]
[[timelines.scene.tracks]]
name = "a"
clips = [
  { name = "strike", start = 0.0, duration = 0.6, motion = "hit", ease_in = 0.1, ease_out = 0.2 },
  { name = "moving", start = 0.4, duration = 0.6, motion = "move", ease_in = 0.1 },
  { name = "nested", start = 0.8, duration = 0.5, motion = "inner" },
  { name = "spark", start_frame = 2, end_frame = 39, task = { type = "Emit", name = "spark", scope = "flow" } },
]

[graphs.body]
layers = [
  { name = "base", blend_tree = "move" },
  { name = "action", timeline = "scene", autoplay = false },
]
"#;

fn session() -> Session {
    let compiled = compile(&[SourceFile { path: "replay.toml".into(), text: LIBRARY.into() }]);
    Session::new(compiled.snapshot.expect("the library compiles"))
}

fn frames(session: &mut Session, n: u64) {
    let planned = session.plan_frames(n).unwrap();
    session.run_frames(planned, |_, _| {});
}

/// Weight and local time of every leaf, by name.
fn state(session: &Session, actor: usize) -> Vec<(String, f64, f64)> {
    let graph = session.graph(actor);
    graph.leaves().iter().enumerate().map(|(i, l)| (l.name.clone(), graph.weights(0)[i], graph.local_time(i))).collect()
}

/// The events of `actor` after frame `after`, as printed.
fn events_after(session: &Session, actor: &str, after: i64) -> Vec<String> {
    session
        .events()
        .iter()
        .filter(|e| e.frame > after && session.events().actor_name(e) == Some(actor))
        .map(|e| without_serials(&format!("{} {:?}", e.frame, e.kind)))
        .collect()
}

/// `scene#12/spark` → `scene#/spark`: playback serials differ between the two actors.
fn without_serials(text: &str) -> String {
    let mut out = String::new();
    let mut after_hash = false;
    for c in text.chars() {
        after_hash = (after_hash && c.is_ascii_digit()) || c == '#';
        if !(after_hash && c.is_ascii_digit()) {
            out.push(c);
        }
    }
    out
}

/// Playing a timeline again on its layer (restarted in place) gives the same weights, times
/// and events as a playback that was never played before — whether the first one was still
/// playing, had completed, or had barely begun.
#[test]
fn a_replay_equals_a_fresh_playback() {
    for (first, second) in [(0, 10), (0, 45), (3, 4), (5, 70)] {
        let mut s = session();
        let again = s.spawn("again", ActorSpec::Graph("body".into())).unwrap();
        let fresh = s.spawn("fresh", ActorSpec::Graph("body".into())).unwrap();
        for id in [again, fresh] {
            s.set_param(id, "speed", 0.4).unwrap();
        }
        frames(&mut s, first);
        s.play(again, "scene", Some("action"), Ticks::ZERO).unwrap();
        frames(&mut s, second - first);
        s.play(again, "scene", Some("action"), Ticks::ZERO).unwrap();
        s.play(fresh, "scene", Some("action"), Ticks::ZERO).unwrap();
        let at = s.clock().frame();
        for _ in 0..50 {
            frames(&mut s, 1);
            assert_eq!(state(&s, again), state(&s, fresh), "first play at {first}, replay at {second}");
        }
        assert_eq!(events_after(&s, "again", at), events_after(&s, "fresh", at), "first {first}, replay {second}");
    }
}

/// Each actor numbers its own playbacks 1, 2, 3…: what an actor's task sources and handles
/// say does not depend on what other actors played before it.
#[test]
fn an_actor_numbers_its_own_playbacks() {
    let mut s = session();
    let busy = s.spawn("busy", ActorSpec::Graph("body".into())).unwrap();
    let quiet = s.spawn("quiet", ActorSpec::Graph("body".into())).unwrap();
    for _ in 0..3 {
        s.play(busy, "scene", Some("action"), Ticks::ZERO).unwrap();
    }
    let handle = s.play(quiet, "scene", Some("action"), Ticks::ZERO).unwrap();
    assert_eq!(handle.serial, 1);
    frames(&mut s, 5);
    let sources = |actor: &str| -> Vec<String> {
        let events = s.events();
        events
            .iter()
            .filter(|e| events.actor_name(e) == Some(actor))
            .map(|e| format!("{:?}", e.kind))
            .filter(|kind| kind.contains("/spark"))
            .collect()
    };
    let (busy_sources, quiet_sources) = (sources("busy"), sources("quiet"));
    assert!(
        !quiet_sources.is_empty() && quiet_sources.iter().all(|k| k.contains("scene#1/spark")),
        "{quiet_sources:?}"
    );
    assert!(!busy_sources.is_empty() && busy_sources.iter().all(|k| k.contains("scene#3/spark")), "{busy_sources:?}");
}

#[test]
fn leaf_times_can_be_placed() {
    let mut s = session();
    let id = s.spawn("a", ActorSpec::Graph("body".into())).unwrap();
    s.set_local_time(id, "idle", 4.5).unwrap();
    s.set_local_time(id, "walk", -0.25).unwrap();
    let graph = s.graph(id);
    assert_eq!(graph.local_time(graph.leaf_index("idle").unwrap()), 0.5, "a loop wraps");
    assert_eq!(graph.local_time(graph.leaf_index("walk").unwrap()), 0.75, "negative times wrap too");
    assert!(matches!(s.set_local_time(id, "idl", 0.0), Err(SessionError::UnknownLeaf { hint: Some(_), .. })));
    s.play(id, "scene", Some("action"), Ticks::ZERO).unwrap();
    let refused = s.set_local_time(id, "strike", 0.1).unwrap_err();
    assert!(refused.to_string().contains("follows its timeline playback"), "{refused}");
    assert!(s.set_local_time(id, "idle", f64::NAN).is_err());
}

#[test]
fn a_parameter_without_smoothing_is_at_its_value_once_set_and_a_smoothed_one_moves_per_frame() {
    let with_smoothing = |smooth_time: Option<f64>| {
        let smooth_time = smooth_time.map_or(String::new(), |t| format!(", smooth_time = {t}"));
        let text = format!("{LIBRARY}\n[parameters]\nspeed = {{ default = 0.0{smooth_time} }}\n");
        compile(&[SourceFile { path: "replay.toml".into(), text }]).snapshot.expect("the library compiles")
    };
    let mut session = Session::new(with_smoothing(None));
    let plain = session.spawn("plain", ActorSpec::BlendTree("move".into())).unwrap();
    session.set_param(plain, "speed", 0.5).unwrap();
    let state = session.param(plain, "speed").unwrap();
    assert_eq!((state.raw, state.smoothed, state.velocity), (0.5, 0.5, 0.0));

    // Smoothing: the set value is where it goes; one frame moves it part of the way.
    session.apply_snapshot(with_smoothing(Some(0.3)));
    session.set_param(plain, "speed", 1.0).unwrap();
    assert_eq!(session.param(plain, "speed").unwrap().smoothed, 0.5);
    frames(&mut session, 1);
    let moving = session.param(plain, "speed").unwrap();
    assert!(0.5 < moving.smoothed && moving.smoothed < 1.0 && moving.velocity > 0.0, "{moving:?}");

    // A reload that takes the smoothing away leaves the parameter at its value, at rest.
    session.apply_snapshot(with_smoothing(None));
    let settled = session.param(plain, "speed").unwrap();
    assert_eq!((settled.raw, settled.smoothed, settled.velocity), (1.0, 1.0, 0.0));

    // A smooth_time of 0 is not none: SmoothDamp over max(1e-4, 0) s (REFERENCE §2.7).
    let mut session = Session::new(with_smoothing(Some(0.0)));
    let quick = session.spawn("quick", ActorSpec::BlendTree("move".into())).unwrap();
    session.set_param(quick, "speed", 10.0).unwrap();
    assert_eq!(session.param(quick, "speed").unwrap().smoothed, 0.0);
    let mut seen = Vec::new();
    for _ in 0..3 {
        frames(&mut session, 1);
        seen.push(session.param(quick, "speed").unwrap());
    }
    assert!((seen[0].smoothed - 9.99961822638416).abs() < 1e-12, "{:?}", seen[0]);
    assert!((seen[0].velocity - 7.6126344).abs() < 1e-6, "{:?}", seen[0]);
    assert!((seen[1].smoothed - 9.99999999991294).abs() < 1e-12, "{:?}", seen[1]);
    assert_eq!(seen[2].smoothed, 10.0);
}

/// `play_by_id` (timeline and layer resolved once, as a crowd does) is `play` by names: the
/// same weights, times and events; a replaced playback's handle still tells how it ended.
#[test]
fn play_by_id_is_play_by_names() {
    let mut s = session();
    let by_name = s.spawn("by_name", ActorSpec::Graph("body".into())).unwrap();
    let by_id = s.spawn("by_id", ActorSpec::Graph("body".into())).unwrap();
    let scene = s.snapshot().timeline_id("scene").unwrap();
    let action = s.graph(by_id).layer_index("action").unwrap();
    let mut handles = Vec::new();
    for (at, frames_after) in [(0, 10), (10, 100), (110, 5)] {
        let named = s.play(by_name, "scene", Some("action"), Ticks::ZERO).unwrap();
        let resolved = s.play_by_id(by_id, scene, action, Ticks::ZERO).unwrap();
        handles.push((named, resolved));
        for _ in 0..frames_after {
            frames(&mut s, 1);
            assert_eq!(state(&s, by_name), state(&s, by_id), "played at frame {at}");
        }
    }
    assert_eq!(events_after(&s, "by_name", -1), events_after(&s, "by_id", -1));
    // Replaced while playing (10 frames in), then after completing (100 frames in).
    let ended: Vec<_> = handles.iter().map(|&(n, r)| (s.playback_state(n), s.playback_state(r))).collect();
    use blendlab::timeline::playback::PlaybackState::{Complete, Interrupted, Playing};
    assert_eq!(ended, [(Ok(Interrupted), Ok(Interrupted)), (Ok(Complete), Ok(Complete)), (Ok(Playing), Ok(Playing))]);
    assert_eq!(s.interrupt(handles[0].1), Ok(()), "interrupting an ended playback changes nothing");
    assert_eq!(s.play_by_id(by_id, scene, action, Ticks(-1)), Err(SessionError::NegativeTimelineTime(-1e-12)));
    let base = s.graph(by_id).layer_index("base").unwrap();
    assert!(matches!(s.play_by_id(by_id, scene, base, Ticks::ZERO), Err(SessionError::NotATimelineLayer { .. })));
}

/// A seek moves only a playing playback: one that completed or was interrupted is refused,
/// saying how it ended, and logs nothing; one that was replaced is no longer on its actor.
#[test]
fn only_a_playing_playback_seeks() {
    use blendlab::event::SeekPolicy;
    use blendlab::session::PlaybackHandle;
    use blendlab::timeline::playback::PlaybackState::{self, Complete, Interrupted};
    // How the playback ends before the seek, and the seek's result: refused with the state it
    // ended in, or as gone (`None`).
    type End = fn(&mut Session, PlaybackHandle);
    type Seeked = Result<(), Option<PlaybackState>>;
    let cases: [(&str, End, Seeked); 4] = [
        ("playing", |_, _| {}, Ok(())),
        ("completed", |s, _| frames(s, 100), Err(Some(Complete))),
        ("interrupted", |s, p| s.interrupt(p).unwrap(), Err(Some(Interrupted))),
        ("replaced", |s, p| assert!(s.play(p.actor, "scene", Some("action"), Ticks::ZERO).is_ok()), Err(None)),
    ];
    for (case, end, want) in cases {
        let mut s = session();
        let actor = s.spawn("a", ActorSpec::Graph("body".into())).unwrap();
        let playback = s.play(actor, "scene", Some("action"), Ticks::ZERO).unwrap();
        frames(&mut s, 5);
        end(&mut s, playback);
        let logged = s.events().len();
        let got = s.seek(playback, 0.2, SeekPolicy::Suppress).map_err(|e| match e {
            SessionError::PlaybackEnded { state, .. } => Some(state),
            SessionError::PlaybackGone => None,
            other => panic!("{case}: {other}"),
        });
        assert_eq!(got, want, "{case}");
        assert_eq!(s.events().len() > logged, want.is_ok(), "{case}: only a seek that moves logs");
    }
}
