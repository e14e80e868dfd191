//! Property tests for the math and the clock: 1D weights, whole-frame stepping, refusal of
//! huge steps before any work.

use blendlab::blend::one_d;
use blendlab::compile::compile;
use blendlab::config::SourceFile;
use blendlab::session::{ActorSpec, Session};
use proptest::prelude::*;

/// Distinct, sorted thresholds.
fn thresholds() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::btree_set(-1000i32..1000, 1..12)
        .prop_map(|set| set.into_iter().map(|t| t as f64 / 10.0).collect())
}

fn weights(th: &[f64], x: f64) -> Vec<f64> {
    let mut out = vec![0.0; th.len()];
    one_d::Thresholds::new(th.to_vec()).weights(x, &mut out);
    out
}

proptest! {
    #[test]
    fn one_d_weights_are_non_negative_and_sum_to_one(th in thresholds(), x in -200.0f64..200.0) {
        let w = weights(&th, x);
        prop_assert!(w.iter().all(|&v| v >= 0.0), "{w:?}");
        prop_assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{w:?}");
        prop_assert!(w.iter().filter(|&&v| v > 0.0).count() <= 2);
    }

    #[test]
    fn one_d_weights_are_exact_at_thresholds(th in thresholds()) {
        for (i, &t) in th.iter().enumerate() {
            let w = weights(&th, t);
            for (j, &v) in w.iter().enumerate() {
                prop_assert_eq!(v, if i == j { 1.0 } else { 0.0 });
            }
        }
    }

    #[test]
    fn one_d_weights_are_continuous(th in thresholds(), x in -200.0f64..200.0) {
        let (a, b) = (weights(&th, x), weights(&th, x + 1e-6));
        for (p, q) in a.iter().zip(&b) {
            // The steepest slope is 1 / (smallest gap) = 10 per unit here.
            prop_assert!((p - q).abs() <= 1e-5 + 1e-12, "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn n_steps_of_one_frame_run_n_frames(rate in 1u32..=240, n in 1usize..400) {
        let mut session = Session::default();
        session.clock_mut().set_rate(rate as f64).unwrap();
        for _ in 0..n {
            let frames = session.plan_step(1.0 / rate as f64).unwrap();
            prop_assert_eq!(frames.clone().count(), 1);
            session.run_frames(frames, |_, _| {});
        }
        prop_assert_eq!(session.clock().frame(), n as i64);
    }

    #[test]
    fn splitting_a_step_runs_the_same_frames(rate in 1u32..=240, cuts in prop::collection::vec(0.0f64..1.0, 0..6)) {
        // One step of 2 s versus the same span cut into random pieces.
        let mut whole = Session::default();
        whole.clock_mut().set_rate(rate as f64).unwrap();
        let frames = whole.plan_step(2.0).unwrap();
        whole.run_frames(frames, |_, _| {});
        let mut pieces = Session::default();
        pieces.clock_mut().set_rate(rate as f64).unwrap();
        let mut points: Vec<f64> = cuts.iter().map(|c| c * 2.0).collect();
        points.push(2.0);
        points.sort_by(f64::total_cmp);
        let mut at = 0.0;
        for point in points {
            let frames = pieces.plan_step(point - at).unwrap();
            pieces.run_frames(frames, |_, _| {});
            at = point;
        }
        prop_assert_eq!(pieces.clock().frame(), whole.clock().frame());
    }
}

#[test]
fn a_huge_step_is_refused_before_any_work() {
    let source = SourceFile {
        path: "inline.toml".into(),
        text: "[clips]\na = { length = 1.0, loop = true }\nb = { length = 2.0, loop = true }\n\
               [blend_trees.t]\ntype = \"1d\"\nparameter = \"x\"\nchildren = [{ motion = \"a\", threshold = 0 }, { motion = \"b\", threshold = 1 }]\n"
            .into(),
    };
    let mut session = Session::new(compile(&[source]).snapshot.unwrap());
    let id = session.spawn("t", ActorSpec::BlendTree("t".into())).unwrap();
    session.set_param(id, "x", 0.5).unwrap();
    let frames = session.plan_frames(10).unwrap();
    session.run_frames(frames, |_, _| {});
    let before = (session.clock().frame(), session.clock().time(), session.graph(id).local_time(0));
    assert!(session.plan_step(1e4).is_err());
    assert!(session.plan_frames(1_000_000).is_err());
    let after = (session.clock().frame(), session.clock().time(), session.graph(id).local_time(0));
    assert_eq!(before, after);
    // And the next ordinary step behaves as if the refused one never happened.
    let frames = session.plan_step(1.0 / 60.0).unwrap();
    assert_eq!(frames, 11..=11);
}
