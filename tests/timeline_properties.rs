//! Property tests for timelines: the interval tree answers exactly like a brute-force scan,
//! and the way a span of time is cut into steps never changes signals, events or weights.

use blendlab::compile::compile;
use blendlab::config::SourceFile;
use blendlab::session::{ActorSpec, Session};
use blendlab::time::Ticks;
use blendlab::timeline::interval_tree::{Entry, IntervalTree};
use proptest::prelude::*;

/// Intervals built to hit the tricky cases: nested, identical, adjacent, zero-length.
fn intervals() -> impl Strategy<Value = Vec<(i64, i64)>> {
    prop::collection::vec((0i64..200, 0i64..60, 0u8..4), 0..80).prop_map(|raw| {
        let mut out: Vec<(i64, i64)> = Vec::new();
        for (start, len, shape) in raw {
            let interval = match (shape, out.last()) {
                (1, Some(&(s, e))) => (s, e),                        // identical to the previous
                (2, Some(&(_, e))) => (e, e + len),                  // adjacent to the previous
                (3, Some(&(s, e))) if e > s => (s + (e - s) / 3, e), // nested in the previous
                _ => (start, start + len),
            };
            out.push(interval);
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn interval_tree_equals_brute_force(list in intervals()) {
        let entries: Vec<Entry> = list.iter().enumerate()
            .map(|(i, &(s, e))| Entry { start: Ticks(s), end: Ticks(e), item: i as u32 })
            .collect();
        let tree = IntervalTree::new(entries);
        // Every tick from before the first start to past the last end, so every node's
        // center is probed too.
        let top = list.iter().map(|&(_, e)| e).max().unwrap_or(0) + 2;
        for t in -5..top {
            let mut got = Vec::new();
            tree.query(Ticks(t), &mut got);
            got.sort_unstable();
            let want: Vec<u32> = list.iter().enumerate().filter(|&(_, &(s, e))| s <= t && t < e).map(|(i, _)| i as u32).collect();
            prop_assert_eq!(got, want, "t = {}", t);
        }
    }

    #[test]
    fn queries_agree_across_a_steady_span(list in intervals(), t in -5i64..300) {
        let entries: Vec<Entry> = list.iter().enumerate()
            .map(|(i, &(s, e))| Entry { start: Ticks(s), end: Ticks(e), item: i as u32 })
            .collect();
        let tree = IntervalTree::new(entries);
        let active = |t: i64| {
            let mut out = Vec::new();
            tree.query(Ticks(t), &mut out);
            out.sort_unstable();
            out
        };
        let span = tree.steady_span(Ticks(t));
        prop_assert!(span.contains(&Ticks(t)), "{span:?} around {t}");
        // Every tick of the span (clipped to the probed range) answers as `t` does.
        let (from, to) = (span.start.0.max(-10), span.end.0.min(300));
        for u in from..to {
            prop_assert_eq!(active(u), active(t), "{} and {} in {:?}", u, t, span);
        }
    }
}

const LIBRARY: &str = r#"
[clips]
a = { length = 1.0, loop = true }
b = { length = 0.7 }

[timelines.show]
wrap = "loop"
markers = [{ time = 0.0, name = "zero" }, { time = 0.35, name = "mid" }, { time = 0.9, name = "once", emit_once = true }]
[[timelines.show.tracks]]
name = "main"
markers = [{ time = 1.2, name = "late" }]
clips = [
  { start = 0.0, duration = 1.0, motion = "a", ease_in = 0.2 },
  { start = 0.8, duration = 0.7, motion = "b", ease_out = 0.1, post_extrapolation = "none" },
]
[[timelines.show.tracks.overrides]]
name = "top"
clips = [{ start = 0.3, duration = 0.5, motion = "b", ease_in = 0.1, ease_out = 0.1 }]
"#;

/// Runs the library's timeline for `total` seconds at `rate` Hz, cutting the time into
/// `cuts` (fractions of `total`); returns the event log and the final weights, as text.
fn run(rate: u32, total: f64, cuts: &[f64]) -> (Vec<String>, Vec<f64>) {
    let snapshot =
        compile(&[SourceFile { path: "p.toml".into(), text: LIBRARY.into() }]).snapshot.expect("valid library");
    let mut session = Session::new(snapshot);
    session.clock_mut().set_rate(rate as f64).unwrap();
    let id = session.spawn("x", ActorSpec::Timeline("show".into())).unwrap();
    let mut points: Vec<f64> = cuts.iter().map(|c| c * total).collect();
    points.push(total);
    points.sort_by(f64::total_cmp);
    let mut at = 0.0;
    for point in points {
        let frames = session.plan_step(point - at).unwrap();
        session.run_frames(frames, |_, _| {});
        at = point;
    }
    let events = session.events().iter().map(|e| format!("{} {} {:?}", e.frame, e.time.0, e.kind)).collect();
    (events, session.graph(id).weights(0).to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn step_partition_changes_nothing(rate in prop::sample::select(vec![24u32, 30, 60, 64, 120]), cuts in prop::collection::vec(0.0f64..1.0, 0..12)) {
        let total = 3.7;
        let (whole_events, whole_weights) = run(rate, total, &[]);
        let (events, weights) = run(rate, total, &cuts);
        prop_assert_eq!(&events, &whole_events);
        for (a, b) in weights.iter().zip(&whole_weights) {
            prop_assert!((a - b).abs() <= 1e-9);
        }
        prop_assert!(whole_events.iter().any(|e| e.contains("Signal")), "the library fires signals");
    }
}

#[test]
fn frame_by_frame_equals_one_giant_step() {
    let frames: Vec<f64> = (1..222).map(|f| f as f64 / 222.0).collect();
    assert_eq!(run(60, 3.7, &frames), run(60, 3.7, &[]));
}
