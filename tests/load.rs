//! Invariants under load: many actors (blend trees, 2D trees, override-only graphs with masks,
//! timelines and transition layers, a task timeline) driven for many frames by seeded random
//! inputs — parameter changes, plays, seeks, interrupts, transitions, stale completions. After
//! every frame: no NaN, infinite or negative weight anywhere; on graphs without additive
//! layers Σ effective weights + `<default>` = 1 per channel (within 1e-9); and two runs with
//! the same seed produce the same event log.
//!
//! `cargo test` runs 100 actors × 2 000 frames. `BLENDLAB_LOAD=1000x10000 cargo test
//! --test load` runs the full size (README "Reliability" records its time).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use blendlab::compile::{Snapshot, compile};
use blendlab::config::SourceFile;
use blendlab::event::SeekPolicy;
use blendlab::session::{ActorSpec, PlaybackHandle, Session};
use blendlab::transition::Token;

/// SplitMix64: a seeded, portable stream of random numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

fn library() -> Snapshot {
    let files = ["samples/locomotion.toml", "samples/strafe.toml", "samples/demo_attack.toml", "tests/load/stage.toml"];
    let sources: Vec<SourceFile> =
        files.iter().map(|f| SourceFile { path: f.to_string(), text: std::fs::read_to_string(f).unwrap() }).collect();
    compile(&sources).snapshot.expect("the load library compiles")
}

/// (actors, frames): `BLENDLAB_LOAD=AxF`, or a size that suits a debug `cargo test`.
fn size() -> (usize, u64) {
    let Ok(text) = std::env::var("BLENDLAB_LOAD") else { return (100, 2000) };
    let (actors, frames) = text.split_once('x').expect("BLENDLAB_LOAD=ACTORSxFRAMES");
    (actors.parse().unwrap(), frames.parse().unwrap())
}

const SPECS: [fn() -> ActorSpec; 6] = [
    || ActorSpec::BlendTree("locomotion".into()),
    || ActorSpec::BlendTree("strafe".into()),
    || ActorSpec::Graph("performer".into()),
    || ActorSpec::Graph("juggler".into()),
    || ActorSpec::Graph("fighter".into()),
    || ActorSpec::Timeline("demo_attack".into()),
];
const TARGETS: &[&str] = &["stand", "dash", "pacing", "guard", "attack_basic", "locomotion", "crouch"];

/// One random input to `actor`, as a game would send it; refusals are part of the load.
fn poke(session: &mut Session, rng: &mut Rng, actor: usize, tokens: &mut Vec<Token>, plays: &mut Vec<PlaybackHandle>) {
    let names: Vec<String> = session.snapshot().parameters.iter().map(|p| p.name.clone()).collect();
    match rng.below(10) {
        0..=4 => {
            let value = if rng.chance(0.05) { [1e6, -1e6, 0.5, 1.0][rng.below(4)] } else { rng.unit() * 5.0 - 2.0 };
            let name = &names[rng.below(names.len())];
            session.set_param(actor, name, value).unwrap();
        }
        5 | 6 => {
            let duration = if rng.chance(0.2) { 0.0 } else { rng.unit() * 0.5 };
            if let Ok(token) = session.transition(actor, "action", rng.pick(TARGETS), duration) {
                tokens.push(token);
            }
        }
        7 if !tokens.is_empty() => {
            let token = tokens[rng.below(tokens.len())].clone();
            let _ = session.complete(actor, "action", &token);
        }
        8 => {
            let (timeline, layer) = if rng.chance(0.5) { ("gesture", "gesture") } else { ("demo_attack", "skill") };
            if let Ok(handle) = session.play(actor, timeline, Some(layer), blendlab::time::Ticks::ZERO) {
                plays.push(handle);
            }
        }
        _ if !plays.is_empty() => {
            let handle = plays[rng.below(plays.len())];
            if handle.actor == actor {
                let _ = if rng.chance(0.5) {
                    session.interrupt(handle)
                } else {
                    session.seek(handle, rng.unit() * 2.0, SeekPolicy::parse("fire_skipped").unwrap())
                };
            }
        }
        _ => {}
    }
}

/// Every weight of every actor is finite and ≥ 0; without additive layers the effective
/// weights and `<default>` of each channel sum to 1.
fn check(session: &Session, frame: i64) {
    for (id, actor) in session.actors().iter().enumerate() {
        let graph = session.graph(id);
        let override_only = graph.layers().iter().all(|l| !l.additive);
        for c in 0..graph.channels().len() {
            let weights = graph.weights(c);
            let default = graph.default_share(c);
            for &w in weights.iter().chain(graph.additive_weights(c)).chain([&default]) {
                assert!(w.is_finite() && w >= 0.0, "frame {frame}, actor {}: weight {w}", actor.name());
            }
            let output = graph.output_weight(c);
            assert!((0.0..=1.0 + 1e-9).contains(&output), "frame {frame}, actor {}: output {output}", actor.name());
            if override_only {
                let sum: f64 = weights.iter().sum::<f64>() + graph.default_share(c);
                assert!((sum - 1.0).abs() <= 1e-9, "frame {frame}, actor {} channel {c}: Σ = {sum}", actor.name());
            }
        }
    }
}

/// Forgets all but the last `n` items, so old handles do not pile up over a long run.
fn keep_newest<T>(items: &mut Vec<T>, n: usize) {
    let excess = items.len().saturating_sub(n);
    items.drain(..excess);
}

/// Runs the load with `seed`; returns (events, a hash of the whole event log).
fn run(seed: u64) -> (usize, u64) {
    let (actors, frames) = size();
    let mut session = Session::new(library());
    let mut rng = Rng(seed);
    for i in 0..actors {
        session.spawn(&format!("a{i}"), SPECS[i % SPECS.len()]()).unwrap();
    }
    let (mut tokens, mut plays) = (Vec::new(), Vec::new());
    for _ in 0..frames {
        for actor in 0..actors {
            if rng.chance(0.03) {
                poke(&mut session, &mut rng, actor, &mut tokens, &mut plays);
            }
        }
        let planned = session.plan_frames(1).unwrap();
        session.run_frames(planned, |_, _| {});
        check(&session, session.clock().frame());
        keep_newest(&mut tokens, 64);
        keep_newest(&mut plays, 64);
    }
    let mut hasher = DefaultHasher::new();
    for event in session.events() {
        format!("{event:?}").hash(&mut hasher);
    }
    (session.events().len(), hasher.finish())
}

#[test]
fn weights_stay_sane_and_runs_repeat_exactly_under_load() {
    let first = run(8);
    assert!(first.0 > 100, "the load produced events: {}", first.0);
    assert_eq!(run(8), first, "two runs with one seed give the same event log");
}
