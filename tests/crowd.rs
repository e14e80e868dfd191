//! The crowd benchmark (`../shared/bench/WORKLOAD.md`) reproduces the reference checksums
//! of `crowd_plain.mjs`, through the engine and by hand, within WORKLOAD's 1e-6.

use blendlab::bench::{Character, crowd_engine, crowd_floor};

/// (N, F, reference checksum) from WORKLOAD §5 that run quickly in a test.
const REFERENCE: &[(usize, usize, f64)] = &[(10, 130, 60.785770315), (240, 600, 1179.595582349)];

fn check(name: &str, actors: usize, frames: usize, expected: f64, checksum: f64) {
    assert!((checksum - expected).abs() <= 1e-6, "{name} N={actors} F={frames}: {checksum:.9} vs {expected:.9}");
}

#[test]
fn engine_and_floor_match_the_reference_checksums() {
    for &(actors, frames, expected) in REFERENCE {
        let (engine, _) = crowd_engine(actors, frames).unwrap();
        check("engine", actors, frames, expected, engine.checksum);
        let (floor, _) = crowd_floor(actors, frames);
        check("floor", actors, frames, expected, floor.checksum);
    }
}

/// N = 240 covers every hit age at the final frame: the engine agrees with the hand-written
/// arithmetic character by character, not only in the sum.
#[test]
fn engine_agrees_with_the_floor_per_character() {
    let (_, engine) = crowd_engine(240, 600).unwrap();
    let (_, floor) = crowd_floor(240, 600);
    let worst = |a: &Character, b: &Character| a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
    for (i, (e, f)) in engine.iter().zip(&floor).enumerate() {
        assert!(worst(e, f) < 1e-10, "character {i}: engine {e:?} vs floor {f:?}");
    }
}

/// Before any hit (F < 120 leaves some characters untouched) the engine reports weight 0
/// and local time 0 for the hit, as WORKLOAD §3 says.
#[test]
fn characters_never_hit_report_zero() {
    let (_, engine) = crowd_engine(3, 10).unwrap();
    let (_, floor) = crowd_floor(3, 10);
    for (e, f) in engine.iter().zip(&floor) {
        assert!((e[3] - f[3]).abs() < 1e-10 && (e[7] - f[7]).abs() < 1e-10, "{e:?} vs {f:?}");
    }
    assert_eq!((engine[2][3], engine[2][7]), (0.0, 0.0));
}

/// WORKLOAD §4: a hit triggered before frame f is first seen after f's step at 1/6 with local
/// time dt; it is finished after 36 steps, with weight 0 and local time held at 0.6, and the
/// locomotion leaves then take the whole pose again.
#[test]
fn the_hit_fades_in_from_one_sixth_and_holds_its_end() {
    let hit = |frames: usize| crowd_engine(1, frames).unwrap().1[0];
    // Times are whole ticks (1e-12 s): dt is 16 666 666 667 ticks, so 1/6 within 1e-10.
    let first = hit(1);
    assert!((first[3] - 1.0 / 6.0).abs() < 1e-10 && (first[7] - 1.0 / 60.0).abs() < 1e-10, "{first:?}");
    let plateau = hit(20);
    assert_eq!(plateau[3], 1.0, "{plateau:?}");
    assert_eq!(plateau[0] + plateau[1] + plateau[2], 0.0, "the override covers everything: {plateau:?}");
    let finished = hit(36);
    assert_eq!((finished[3], finished[7]), (0.0, 0.6), "{finished:?}");
    assert!((finished[0] + finished[1] + finished[2] - 1.0).abs() < 1e-12, "{finished:?}");
    assert_eq!(hit(100)[7], 0.6, "the local time stays at 0.6 until the next trigger");
}
