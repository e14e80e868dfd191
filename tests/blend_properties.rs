//! Property tests for the 2D and direct blend-tree math (REFERENCE §2.2–2.6): weights are
//! non-negative and sum to 1 where the type guarantees it, each child gets exactly 1 at its
//! own position, and a 1e-6 move of the input moves no weight by more than 1e-3. The
//! documented discontinuities are kept out of the generated cases: simple directional
//! layouts have every gap between neighbouring directions below 180°, freeform directional
//! layouts have a centre child (without one the origin is a jump), and direct trees have
//! a positive sum of their positive values (negative values count as 0; at sum 0
//! normalization falls back to all zero).
//! Also: the weight cache, and sweeps agreeing with actors.

use std::f64::consts::TAU;

use blendlab::blend::freeform_cartesian::FreeformCartesian;
use blendlab::blend::freeform_directional::FreeformDirectional;
use blendlab::blend::geometry::Point;
use blendlab::blend::simple_directional::SimpleDirectional;
use blendlab::blend::sweep::{Axis, sweep};
use blendlab::blend::triangulated::Triangulated;
use blendlab::blend::{Layout2d, direct};
use blendlab::compile::{Snapshot, compile};
use blendlab::config::SourceFile;
use blendlab::graph::Source;
use blendlab::session::{ActorId, ActorSpec, Session};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Distinct lattice points in [−2, 2]², 0.25 apart: no two children too close for the
/// continuity bound, and no triangle thinner than the lattice allows.
fn lattice(count: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Point>> {
    prop::collection::btree_set((-8i32..=8, -8i32..=8), count)
        .prop_map(|set| set.into_iter().map(|(x, y)| [x as f64 / 4.0, y as f64 / 4.0]).collect())
}

/// Directions around the origin with every neighbouring gap below 180°: direction `k` of
/// `n ≥ 4` sits inside the `k`-th of `n` equal sectors (gaps between 0.1 and 1.9 sectors,
/// so at most 171°), at a length in [0.5, 2]; optionally a centre child first.
fn directions() -> impl Strategy<Value = Vec<Point>> {
    (4usize..12, any::<bool>()).prop_flat_map(|(n, centre)| {
        prop::collection::vec((0.05f64..0.95, 0.5f64..2.0), n).prop_map(move |spots| {
            let sector = TAU / n as f64;
            let around = spots.iter().enumerate().map(|(k, &(u, len))| {
                let angle = (k as f64 + u) * sector;
                [len * angle.cos(), len * angle.sin()]
            });
            if centre { std::iter::once([0.0, 0.0]).chain(around).collect() } else { around.collect() }
        })
    })
}

/// A lattice layout with a child at the centre.
fn with_centre() -> impl Strategy<Value = Vec<Point>> {
    lattice(1..16).prop_map(|mut points| {
        points.retain(|&p| p != [0.0, 0.0]);
        points.insert(0, [0.0, 0.0]);
        points
    })
}

fn input() -> impl Strategy<Value = Point> {
    (-3.0f64..3.0, -3.0f64..3.0).prop_map(|(x, y)| [x, y])
}

fn evaluate(layout: &impl Layout2d, p: Point) -> Vec<f64> {
    let mut out = vec![f64::NAN; layout.positions().len()];
    layout.weights(p, &mut out);
    out
}

fn partition_of_one(w: &[f64]) -> Result<(), TestCaseError> {
    prop_assert!(w.iter().all(|&v| v >= 0.0), "negative weight: {w:?}");
    prop_assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-9, "sum is not 1: {w:?}");
    Ok(())
}

/// Weights ≥ 0 summing to 1 at `p`; exactly 1 for each child at its own position (0 for
/// the others); and a 1e-6 move from `p` in direction `angle` moves no weight by more
/// than 1e-3.
fn well_behaved(layout: &impl Layout2d, p: Point, angle: f64) -> Result<(), TestCaseError> {
    let here = evaluate(layout, p);
    partition_of_one(&here)?;
    for (i, &q) in layout.positions().iter().enumerate() {
        let w = evaluate(layout, q);
        for (j, &v) in w.iter().enumerate() {
            prop_assert_eq!(v, if i == j { 1.0 } else { 0.0 }, "child {} at {:?}: {:?}", i, q, w);
        }
    }
    let q = [p[0] + 1e-6 * angle.cos(), p[1] + 1e-6 * angle.sin()];
    let there = evaluate(layout, q);
    for (x, y) in here.iter().zip(&there) {
        prop_assert!((x - y).abs() <= 1e-3, "{p:?} → {q:?}: {here:?} vs {there:?}");
    }
    Ok(())
}

proptest! {
    #[test]
    fn simple_directional(positions in directions(), p in input(), angle in 0.0..TAU) {
        well_behaved(&SimpleDirectional::new(positions), p, angle)?;
    }

    #[test]
    fn freeform_cartesian(positions in lattice(1..16), p in input(), angle in 0.0..TAU) {
        well_behaved(&FreeformCartesian::new(positions), p, angle)?;
    }

    #[test]
    fn freeform_directional(positions in with_centre(), p in input(), angle in 0.0..TAU) {
        well_behaved(&FreeformDirectional::new(positions), p, angle)?;
    }

    #[test]
    fn freeform_directional_without_centre_still_sums_to_one(positions in lattice(1..12), p in input()) {
        partition_of_one(&evaluate(&FreeformDirectional::new(positions), p))?;
    }

    #[test]
    fn triangulated(positions in lattice(1..20), p in input(), angle in 0.0..TAU) {
        well_behaved(&Triangulated::delaunay(positions).unwrap(), p, angle)?;
    }

    #[test]
    fn direct_normalized(values in prop::collection::vec(-1.0f64..2.0, 1..12), nudge in 0usize..12) {
        // Negative values count as 0, so the shares are a partition of one whenever the
        // positive values do not (nearly) vanish.
        prop_assume!(values.iter().map(|v| v.max(0.0)).sum::<f64>() > 1e-3);
        let mut out = vec![f64::NAN; values.len()];
        direct::weights(&values, true, &mut out);
        partition_of_one(&out)?;
        let mut moved = values.clone();
        moved[nudge % values.len()] += 1e-6;
        let mut after = vec![f64::NAN; values.len()];
        direct::weights(&moved, true, &mut after);
        for (x, y) in out.iter().zip(&after) {
            prop_assert!((x - y).abs() <= 1e-3);
        }
    }

    #[test]
    fn direct_raw_is_the_values_at_least_zero(values in prop::collection::vec(-1.0f64..2.0, 1..12)) {
        let mut out = vec![f64::NAN; values.len()];
        direct::weights(&values, false, &mut out);
        let expected: Vec<f64> = values.iter().map(|v| v.max(0.0)).collect();
        prop_assert_eq!(out, expected);
    }

    #[test]
    fn a_sweep_agrees_with_an_actor(x in -2.0f64..2.0, y in -2.0f64..2.0) {
        let snapshot = library();
        let axes = [
            Axis { parameter: "x".into(), from: x, to: x, steps: 0 },
            Axis { parameter: "y".into(), from: y, to: y, steps: 0 },
        ];
        let swept = sweep(&snapshot, "strafe", &axes).unwrap();
        let mut session = Session::new(snapshot);
        let id = session.spawn("a", ActorSpec::BlendTree("strafe".into())).unwrap();
        session.set_param(id, "x", x).unwrap();
        session.set_param(id, "y", y).unwrap();
        let frames = session.plan_frames(1).unwrap();
        session.run_frames(frames, |_, _| {});
        let graph = session.graph(id);
        prop_assert_eq!(&swept.rows[0].weights[..], graph.weights(0));
    }
}

const LIBRARY: &str = r#"
[clips]
idle = { length = 2.0, loop = true }
walk = { length = 1.0, loop = true }
run = { length = 0.7, loop = true }
left = { length = 1.0, loop = true }
right = { length = 1.0, loop = true }

[parameters]
x = { dead_zone = 0.1 }
y = { dead_zone = 0.1 }

[blend_trees.strafe]
type = "2d_freeform_directional"
parameters = ["x", "y"]
children = [
  { motion = "idle", position = [0.0, 0.0] },
  { motion = "walk", position = [0.0, 1.0] },
  { motion = "run", position = [0.0, 2.0] },
  { motion = "left", position = [-1.0, 0.0] },
  { motion = "right", position = [1.0, 0.0] },
]
"#;

fn library() -> Snapshot {
    compile(&[SourceFile { path: "strafe.toml".into(), text: LIBRARY.into() }]).snapshot.unwrap()
}

fn evaluations(session: &Session, id: ActorId) -> u64 {
    let graph = session.graph(id);
    let Source::BlendTree(runtime) = &graph.layers()[0].source else { panic!("a blend tree actor") };
    runtime.evaluations()
}

#[test]
fn weights_are_recomputed_only_when_the_blend_inputs_change() {
    let mut session = Session::new(library());
    let id = session.spawn("a", ActorSpec::BlendTree("strafe".into())).unwrap();
    let run = |session: &mut Session, frames: u64| {
        let frames = session.plan_frames(frames).unwrap();
        session.run_frames(frames, |_, _| {});
    };
    assert_eq!(evaluations(&session, id), 1, "spawning evaluates once");
    run(&mut session, 10);
    assert_eq!(evaluations(&session, id), 1, "nothing changed");
    session.set_param(id, "x", 0.05).unwrap();
    run(&mut session, 10);
    assert_eq!(evaluations(&session, id), 1, "inside the dead zone the input is still (0, 0)");
    session.set_param(id, "y", 0.5).unwrap();
    run(&mut session, 10);
    assert_eq!(evaluations(&session, id), 2, "one change, one evaluation");
    session.set_param(id, "x", 0.06).unwrap();
    run(&mut session, 1);
    assert_eq!(evaluations(&session, id), 3, "outside the dead zone every change counts");
}
