//! Actors whose graphs run in rows (`graph::rows`) get, frame after frame, exactly the
//! numbers and events their graphs' own frames give: every actor's graph is copied before a
//! frame, the copy stepped on its own with the parameters the frame used, and compared bit
//! for bit with what the session reports after the frame, read through a copy and through
//! the graph brought up to date. Random inputs, plays, seeks, local times, reads and steps
//! between frames move actors out of their rows and back, and plays of timelines with other
//! clips move them between layouts.

use blendlab::compile::{Snapshot, compile};
use blendlab::config::SourceFile;
use blendlab::event::{EventKind, SeekPolicy};
use blendlab::graph::{Graph, Source, TimelineSlot};
use blendlab::session::{ActorSpec, PlaybackHandle, Session};
use blendlab::time::Ticks;
use proptest::prelude::*;

const LIBRARY: &str = r#"
[clips]
a = { length = 1.0, loop = true }
b = { length = 0.7, loop = true }
c = { length = 1.3, loop = true }
d = { length = 0.5 }
e = { length = 2.0, loop = true }
hit = { length = 0.6 }
swing = { length = 0.4 }

[parameters]
speed = { default = 0.2 }
lean = { default = 0.0, smooth_time = 0.2, dead_zone = 0.05 }
x = { default = 0.0 }
y = { default = 0.0 }

[blend_trees.two]
type = "1d"
parameter = "speed"
sync = "none"
children = [{ motion = "a", threshold = 0.0 }, { motion = "b", threshold = 1.0 }]

[blend_trees.three]
type = "1d"
parameter = "speed"
children = [
  { motion = "a", threshold = 0.0 },
  { motion = "b", threshold = 0.5 },
  { motion = "c", threshold = 1.0 },
]

[blend_trees.five]
type = "1d"
parameter = "lean"
sync = "none"
children = [
  { motion = "a", threshold = -1.0 },
  { motion = "b", threshold = -0.5 },
  { motion = "c", threshold = 0.0 },
  { motion = "d", threshold = 0.5 },
  { motion = "e", threshold = 1.0 },
]

[blend_trees.planar]
type = "2d_freeform_directional"
parameters = ["x", "y"]
children = [
  { motion = "a", position = [0.0, 0.0] },
  { motion = "b", position = [0.0, 1.0] },
  { motion = "c", position = [1.0, 0.0] },
  { motion = "e", position = [-1.0, 0.0] },
]

[blend_trees.veil]
type = "direct"
children = [{ motion = "c", parameter = "x" }, { motion = "e", parameter = "y" }]

[blend_trees.nested]
type = "1d"
parameter = "x"
children = [{ motion = "two", threshold = 0.0 }, { motion = "planar", threshold = 1.0 }]

[timelines.struck]
wrap = "none"
[[timelines.struck.tracks]]
name = "reaction"
clips = [{ start = 0.0, duration = 0.6, motion = "hit", ease_in = 0.1, ease_out = 0.2 }]

[timelines.braced]
wrap = "hold"
[[timelines.braced.tracks]]
name = "guard"
clips = [{ start = 0.1, duration = 0.4, motion = "swing", ease_in = 0.1, post_extrapolation = "hold" }]

[timelines.lingering]
wrap = "none"
[[timelines.lingering.tracks]]
name = "pose"
clips = [{ start = 0.0, duration = 0.3, motion = "d", ease_in = 0.1, post_extrapolation = "hold" }]

[timelines.bow]
wrap = "hold"
duration_mode = "fixed"
duration = 0.5
[[timelines.bow.tracks]]
name = "bend"
clips = [
  { start = 0.0, duration = 0.5, motion = "swing", ease_in = 0.1, ease_out = 0.15, mix_out_curve = [[0.0, 0.0], [0.3, 0.8], [1.0, 1.0]] },
]

[timelines.relay]
wrap = "none"
[[timelines.relay.tracks]]
name = "legs"
clips = [
  { start = 0.0, duration = 0.3, motion = "swing", ease_in = 0.05, ease_out = 0.1, mix_in_curve = "linear" },
  { start = 0.3, duration = 0.4, motion = "hit", ease_in = 0.1 },
]

[timelines.overlap]
wrap = "none"
[[timelines.overlap.tracks]]
name = "cross"
clips = [
  { start = 0.0, duration = 0.4, motion = "swing", ease_out = 0.2 },
  { start = 0.2, duration = 0.4, motion = "hit", ease_in = 0.2, ease_out = 0.1 },
]

[timelines.prelude]
wrap = "none"
[[timelines.prelude.tracks]]
name = "steps"
clips = [
  { start = 0.0, duration = 0.4, motion = "swing", ease_in = 0.1 },
  { start = 0.4, duration = 0.4, motion = "three", ease_in = 0.1 },
]

[timelines.trail]
wrap = "none"
duration_mode = "fixed"
duration = 1.0
[[timelines.trail.tracks]]
name = "after"
clips = [{ start = 0.0, duration = 0.5, motion = "swing", ease_in = 0.1 }]

[timelines.combo]
wrap = "loop"
[[timelines.combo.tracks]]
name = "moves"
markers = [{ time = 0.3, name = "whoosh" }]
clips = [
  { start = 0.0, duration = 0.4, motion = "swing", ease_out = 0.1 },
  { start = 0.3, duration = 0.6, motion = "hit", ease_in = 0.1 },
  { start = 0.8, duration = 0.5, motion = "three" },
]

[graphs.fighter]
layers = [
  { name = "base", blend_tree = "three" },
  { name = "action", timeline = "struck", autoplay = false },
]

[graphs.dancer]
layers = [
  { name = "ground", clip = "e" },
  { name = "lean", blend_tree = "five", weight = 0.6 },
  { name = "moves", timeline = "combo", weight = 0.8 },
]

[graphs.brawler]
layers = [
  { name = "base", blend_tree = "two" },
  { name = "action", timeline = "struck", autoplay = false },
  { name = "flourish", blend_tree = "veil" },
]

[graphs.stacked]
layers = [
  { name = "low", blend_tree = "nested" },
  { name = "high", blend_tree = "planar", weight = 0.3 },
]
"#;

fn library() -> Snapshot {
    compile(&[SourceFile { path: "rows.toml".into(), text: LIBRARY.into() }]).snapshot.expect("the library compiles")
}

const SPECS: [fn() -> ActorSpec; 6] = [
    || ActorSpec::Graph("fighter".into()),
    || ActorSpec::Graph("brawler".into()),
    || ActorSpec::Graph("dancer".into()),
    || ActorSpec::Graph("stacked".into()),
    || ActorSpec::BlendTree("two".into()),
    || ActorSpec::Timeline("combo".into()),
];

/// The timelines a `Change::Play` plays, by index.
const TIMELINES: [&str; 9] = ["struck", "combo", "braced", "lingering", "bow", "relay", "overlap", "prelude", "trail"];

/// What a script does between two frames.
#[derive(Clone, Debug)]
enum Change {
    Param {
        actor: usize,
        param: usize,
        value: f64,
    },
    Play {
        actor: usize,
        timeline: usize,
        layer: usize,
        from: f64,
    },
    Seek {
        actor: usize,
        to: f64,
    },
    LocalTime {
        actor: usize,
        leaf: usize,
        seconds: f64,
    },
    /// A reader that brings the actor's graph up to date, then reads it.
    Read {
        actor: usize,
    },
}

fn change(actors: usize) -> impl Strategy<Value = Change> {
    prop_oneof![
        (0..actors, 0..4usize, -1.5..1.5f64).prop_map(|(actor, param, value)| Change::Param { actor, param, value }),
        (0..actors, 0..TIMELINES.len(), 0..3usize, 0.0..0.7f64)
            .prop_map(|(actor, timeline, layer, from)| Change::Play { actor, timeline, layer, from }),
        (0..actors, 0.0..1.0f64).prop_map(|(actor, to)| Change::Seek { actor, to }),
        (0..actors, 0..6usize, 0.0..3.0f64).prop_map(|(actor, leaf, seconds)| Change::LocalTime {
            actor,
            leaf,
            seconds
        }),
        (0..actors).prop_map(|actor| Change::Read { actor }),
    ]
}

/// Applies `change`; what the session refuses (a leaf a graph lacks, a seek of a playback
/// that ended) changes nothing and is skipped.
fn apply(session: &mut Session, handles: &mut [Option<PlaybackHandle>], change: &Change) {
    match *change {
        Change::Param { actor, param, value } => {
            let name = ["speed", "lean", "x", "y"][param];
            session.set_param(actor, name, value).expect("a parameter of the library");
        }
        Change::Play { actor, timeline, layer, from } => {
            let (name, layer) = (TIMELINES[timeline], [None, Some("action"), Some("flourish")][layer]);
            let start = Ticks::from_secs(from).expect("a time");
            let mut own = session.graph(actor).into_owned();
            let logged = session.events().len();
            if let Ok(handle) = session.play(actor, name, layer, start) {
                handles[actor] = Some(handle);
                check_play(session, (actor, &mut own, logged), (name, layer, start, handle.serial));
            }
        }
        Change::Seek { actor, to } => {
            if let Some(handle) = handles[actor] {
                let _ = session.seek(handle, to, SeekPolicy::FireSkipped);
            }
        }
        Change::LocalTime { actor, leaf, seconds } => {
            let name = session.graph(actor).leaves().get(leaf).map(|l| l.name.clone());
            if let Some(name) = name {
                let _ = session.set_local_time(actor, &name, seconds);
            }
        }
        Change::Read { actor } => {
            session.refresh_graph(actor);
            assert!(matches!(session.graph(actor), std::borrow::Cow::Borrowed(_)), "a refreshed graph is lent");
        }
    }
}

/// After `session` played `timeline` on actor `actor` (`layer`, or its default timeline
/// layer, from `start`, as playback `serial`): the actor's numbers and the events logged since
/// `logged` are those of its graph before the play (`own`), played and evaluated on its own.
fn check_play(
    session: &Session,
    (actor, own, logged): (usize, &mut Graph, usize),
    (timeline, layer, start, serial): (&str, Option<&str>, Ticks, u64),
) {
    let index = match layer {
        Some(name) => own.layers().iter().position(|l| l.name() == name),
        None => own.default_timeline_layer(),
    };
    // A play that adds a layer to the graph is not a row's.
    let Some(index) = index else { return };
    let (snapshot, now) = (session.snapshot(), session.clock().now());
    let id = snapshot.timeline_id(timeline).expect("a timeline of the library");
    let mut events = Vec::new();
    own.play(snapshot, index, id, now, start, serial, &mut events).expect("a timeline layer");
    own.update(snapshot, session.params(actor), 0.0, now, &mut events);
    assert_eq!(numbers(&session.graph(actor)), numbers(own), "actor {actor} after playing {timeline}");
    assert_eq!(events_since(session, logged, actor), events, "actor {actor} after playing {timeline}");
}

/// The events the session logged for actor `actor` from event `logged` on.
fn events_since(session: &Session, logged: usize, actor: usize) -> Vec<EventKind> {
    let logged = (logged..session.events().len()).filter_map(|i| session.events().get(i));
    logged.filter(|e| e.actor() == Some(actor)).map(|e| e.kind.clone()).collect()
}

/// The serial and time of each playback on a layer of `graph`.
fn playback_times(graph: &Graph) -> Vec<(u64, Ticks)> {
    let slots = graph.layers().iter().filter_map(|layer| match &layer.source {
        Source::Timeline(TimelineSlot { playback: Some(playback), serial, .. }) => Some((*serial, playback.time())),
        _ => None,
    });
    slots.collect()
}

/// Every number a reader sees of `graph`, as bits.
fn numbers(graph: &Graph) -> Vec<u64> {
    let mut out = Vec::new();
    for c in 0..graph.channels().len() {
        out.extend(graph.weights(c).iter().chain(graph.additive_weights(c)).map(|w| w.to_bits()));
        out.extend([graph.default_share(c).to_bits(), graph.output_weight(c).to_bits()]);
    }
    out.extend((0..graph.leaves().len()).map(|l| graph.local_time(l).to_bits()));
    out.extend(graph.layers().iter().map(|l| l.weight.to_bits()));
    out
}

/// Runs the frames of `frames` (1, or a step of several), checking every actor against its
/// graph's own frame after each, through a copy of its graph (which changes nothing in the
/// session) and, with `refreshing`, every other frame through its graph brought up to date and
/// its playbacks' times as the session reports them (which bring it up to date too).
fn run_and_check(
    session: &mut Session,
    frames: std::ops::RangeInclusive<i64>,
    refreshing: bool,
) -> Result<(), TestCaseError> {
    for frame in frames {
        let before: Vec<Graph> = (0..session.actors().len()).map(|id| session.graph(id).into_owned()).collect();
        let logged = session.events().len();
        assert!(session.begin_frame(frame).is_empty(), "nothing scheduled");
        session.finish_frame();
        let (dt, now) = (session.clock().frame_seconds(), session.clock().now());
        for (id, mut own) in before.into_iter().enumerate() {
            let mut events = Vec::new();
            own.update(session.snapshot(), session.params(id), dt, now, &mut events);
            events.retain(|e| !matches!(e, EventKind::ClipTick { .. }));
            let session_events = events_since(session, logged, id);
            let copy = session.graph(id);
            prop_assert_eq!(numbers(&copy), numbers(&own), "actor {} at frame {}", id, frame);
            prop_assert_eq!(playback_times(&copy), playback_times(&own), "actor {} at frame {}", id, frame);
            prop_assert_eq!(&session_events, &events, "actor {} at frame {}", id, frame);
            if refreshing && id % 2 == frame as usize % 2 {
                for (serial, time) in playback_times(&own) {
                    let handle = PlaybackHandle { actor: id, serial };
                    prop_assert_eq!(session.playback_time(handle).ok(), Some(time), "actor {} frame {}", id, frame);
                }
                session.refresh_graph(id);
                prop_assert_eq!(numbers(&session.graph(id)), numbers(&own), "refreshed: actor {} frame {}", id, frame);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_frame_in_rows_gives_the_numbers_and_events_of_each_graphs_own_frame(
        specs in prop::collection::vec(0..SPECS.len(), 1..9),
        turns in prop::collection::vec((prop::collection::vec(change(8), 0..4), 1..4u64), 1..24),
    ) {
        let mut session = Session::new(library());
        for (i, &spec) in specs.iter().enumerate() {
            session.spawn(&format!("a{i}"), SPECS[spec]()).expect("an asset of the library");
        }
        let mut handles = vec![None; specs.len()];
        for (changes, frames) in turns {
            for change in changes.iter().filter(|c| actor_of(c) < specs.len()) {
                apply(&mut session, &mut handles, change);
            }
            let frames = session.plan_frames(frames).expect("frames");
            run_and_check(&mut session, frames, true)?;
        }
    }
}

fn actor_of(change: &Change) -> usize {
    match *change {
        Change::Param { actor, .. }
        | Change::Play { actor, .. }
        | Change::Seek { actor, .. }
        | Change::LocalTime { actor, .. }
        | Change::Read { actor } => actor,
    }
}

/// Scenes through the quiet frames of a timeline slot, each checked frame by frame as above:
/// frames whose weights hold (a plateau of `struck`, `braced` holding at its end, `lingering`
/// held past its end until it completes there) and frames whose one clip mixes in or out
/// (`struck`'s, `bow`'s keyed mix out ending where it holds at its end, `relay`'s two clips
/// one after the other, `overlap`'s clips alone before and after they overlap, `prelude`'s
/// plain clip before one that plays a tree, `trail`'s clip held past its end). The direct
/// tree above changes the slot's scale, and reads, seeks and plays land inside quiet spans.
#[test]
fn quiet_frames_give_the_numbers_and_events_of_each_graphs_own_frame() {
    let play = |timeline, from| Change::Play { actor: 0, timeline, layer: 1, from };
    let veil = |param, value| Change::Param { actor: 0, param, value };
    let (read, seek) = (|| Change::Read { actor: 0 }, |to| Change::Seek { actor: 0, to });
    let scenes: [&[(&[Change], u64)]; 14] = [
        // A plateau, the direct tree above it covering more, then less.
        &[(&[play(0, 0.0)], 9), (&[veil(2, 0.5)], 4), (&[veil(3, 0.2)], 3), (&[veil(2, 0.0)], 20)],
        // Reads and a seek inside the plateau.
        &[(&[play(0, 0.05)], 10), (&[read()], 3), (&[seek(0.2)], 4)],
        // `braced` holding at its end, read while it holds, under the tree.
        &[(&[play(2, 0.3)], 20), (&[read()], 30), (&[veil(3, 0.4)], 5)],
        // `lingering` completing at its end, its clip still held.
        &[(&[play(3, 0.0)], 25), (&[veil(2, 0.4)], 2)],
        // `struck` played again once it completed and fell asleep, then while it plays.
        &[(&[play(0, 0.0)], 40), (&[play(0, 0.2)], 5), (&[play(0, 0.1)], 3)],
        // `braced` on a plateau, then `struck` played over it.
        &[(&[play(2, 0.25)], 6), (&[play(0, 0.15)], 8), (&[veil(2, 0.3), play(0, 0.0)], 8)],
        // `bow` through its mixes to its end, where its weight is 0 again and it holds; played
        // again, its first frame finds it at weight 0, as its end does.
        &[(&[play(4, 0.0)], 45), (&[play(4, 0.0)], 40)],
        // `trail` held past its clip's end (its weight holds there for good) until it
        // completes, from 0 and from later.
        &[(&[play(8, 0.0)], 70), (&[play(8, 0.3)], 50)],
        // `prelude` played again from where a clip with a tree of its own plays.
        &[(&[play(7, 0.0)], 10), (&[play(7, 0.5)], 6)],
        // `bow`: the scale changes on the mix in and on the mix out, reads on both.
        &[(&[play(4, 0.0)], 2), (&[veil(2, 0.5)], 1), (&[read()], 24), (&[veil(2, 0.1)], 2), (&[read()], 9)],
        // `struck` played again in the middle of its mix in, then of its mix out.
        &[(&[play(0, 0.0)], 3), (&[play(0, 0.0)], 28), (&[play(0, 0.3)], 8), (&[play(4, 0.1)], 6)],
        // `relay`: one clip after the other, a seek back into the first one's mix out.
        &[(&[play(5, 0.0)], 16), (&[seek(0.25)], 30)],
        // `overlap`: one clip, both (no quiet frames), then the other; seeks forward.
        &[(&[play(6, 0.0)], 10), (&[seek(0.35)], 3), (&[read(), seek(0.45)], 12)],
        // A mix read by a reader, then played again, under a tree that changes.
        &[(&[play(5, 0.0)], 4), (&[read(), veil(3, 0.6)], 1), (&[play(5, 0.1)], 5), (&[veil(3, 0.0)], 30)],
    ];
    // Without refreshing, the skipped frames run late only where a scene reads, seeks or plays.
    for (scene, refreshing) in scenes.iter().flat_map(|scene| [(scene, true), (scene, false)]) {
        let mut session = Session::new(library());
        session.spawn("brawler", SPECS[1]()).expect("an asset of the library");
        let mut handles = vec![None];
        for &(changes, frames) in scene.iter() {
            for change in changes {
                apply(&mut session, &mut handles, change);
            }
            let frames = session.plan_frames(frames).expect("frames");
            run_and_check(&mut session, frames, refreshing).expect("the rows' frame is the graph's own");
        }
    }
}
