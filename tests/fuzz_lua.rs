//! Fuzzing the Lua API surface: random sequences of `bl.spawn`, `actor:set`, `bl.step`,
//! `bl.frames`, `actor:play`, `playback:seek`, `playback:interrupt`, `actor:transition`,
//! `actor:complete`, clock settings and reloads of a config that changes under the actors
//! (new version, assets gone, broken), with valid and invalid arguments, on the samples.
//! After every call: no panic, no NaN or negative weight on any actor, and a refused call
//! (one that raised an error, or `play` answering `nil, message`) left the session as it was
//! — apart from the `timeline_missing` and `reload_failed` events the contract asks for.
//!
//! `PROPTEST_CASES=N cargo test --test fuzz_lua` runs longer. Sequences that once failed are
//! kept in `tests/fuzz/lua/` and replayed by `kept_call_sequences_hold_the_invariants`.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use blendlab::event::EventKind;
use blendlab::script::{Host, Output};
use blendlab::session::Session;
use proptest::prelude::*;

const NAMES: &[&str] = &["hero", "fighter", "strafer", "hero"];
const SPECS: &[&str] = &[
    "{ blend_tree = 'locomotion' }",
    "{ graph = 'fighter' }",
    "{ blend_tree = 'strafe' }",
    "{ timeline = 'demo_attack' }",
    "{ timeline = 'cutscene' }",
    "{ blend_tree = 'nope' }",
    "{}",
    "{ graph = 'fighter', timeline = 'demo_attack' }",
    "{ blend_tree = 3 }",
];
const PARAMS: &[&str] = &["'speed'", "'move_x'", "'move_y'", "'nope'", "nil"];
const NUMBERS: &[&str] =
    &["0", "0.5", "1", "-1", "0.75", "1/60", "2.5", "1e6", "1e12", "-1e308", "0/0", "1/0", "-1/0", "'x'", "nil"];
const TIMELINES: &[&str] = &["'demo_attack'", "'demo_atack'", "'cutscene'", "3", "nil"];
const PLAY_OPTIONS: &[&str] = &[
    "nil",
    "{ layer = 'skill' }",
    "{ layer = 'nope' }",
    "{ from = 0.2 }",
    "{ from_frame = 3 }",
    "{ from_frame = 99 }",
    "{ from = 0.1, from_frame = 1 }",
    "{ from = 0/0 }",
    "{ from = 2.3 }",
    "{ from = -1 }",
];
const LAYERS: &[&str] = &["'action'", "'skill'", "'nope'", "nil"];
const TARGETS: &[&str] = &["'attack_basic'", "'guard'", "'locomotion'", "'nope'"];
const POLICIES: &[&str] = &["nil", "'fire_skipped'", "'skip'", "'nope'"];

/// One call, by indices into the tables above (taken modulo their lengths).
#[derive(Clone, Debug)]
enum Call {
    Spawn(usize, usize),
    Set(usize, usize, usize),
    Step(usize),
    Frames(usize),
    Play(usize, usize, usize),
    Seek(usize, usize, usize),
    Interrupt(usize),
    Transition(usize, usize, usize, usize),
    Complete(usize, usize, usize),
    Rate(usize),
    Speed(usize),
    Pause(bool),
    Budget(usize),
    /// Rewrite the reloadable config with a version and `bl.load` it.
    Reload(usize),
}

/// Versions of the reloadable config: the two of the reload story, one where its blend tree
/// and parameter are gone (others appear), and a broken one.
const VERSIONS: &[&str] = &["v1.toml", "v2.toml", "vanished.toml", "broken.toml"];

fn pick<'a>(table: &[&'a str], i: usize) -> &'a str {
    table[i % table.len()]
}

/// The Lua for a call: it runs under `pcall` and returns whether the call was refused.
fn lua(call: &Call) -> String {
    let body = match *call {
        Call::Spawn(n, s) => format!("A[#A + 1] = bl.spawn('{}', {})", pick(NAMES, n), pick(SPECS, s)),
        Call::Set(a, p, v) => format!("A[{}]:set({}, {})", a % 4 + 1, pick(PARAMS, p), pick(NUMBERS, v)),
        Call::Step(v) => format!("bl.step({})", pick(NUMBERS, v)),
        Call::Frames(v) => format!("bl.frames({})", pick(NUMBERS, v)),
        Call::Play(a, t, o) => format!(
            "local p, message = A[{}]:play({}, {}) if p == nil then return true end P[#P + 1] = p",
            a % 4 + 1,
            pick(TIMELINES, t),
            pick(PLAY_OPTIONS, o)
        ),
        Call::Seek(p, v, policy) => {
            format!("P[{}]:seek({}, {})", p % 4 + 1, pick(NUMBERS, v), pick(POLICIES, policy))
        }
        Call::Interrupt(p) => format!("P[{}]:interrupt()", p % 4 + 1),
        Call::Transition(a, l, t, d) => format!(
            "T[#T + 1] = A[{}]:transition({}, {}, {})",
            a % 4 + 1,
            pick(LAYERS, l),
            pick(TARGETS, t),
            pick(NUMBERS, d)
        ),
        Call::Complete(a, l, t) => format!(
            "A[{}]:complete({}, T[{}] or {{ generation = 99, from = 'guard', to = 'x' }})",
            a % 4 + 1,
            pick(LAYERS, l),
            t % 4 + 1
        ),
        Call::Rate(v) => format!("bl.rate({})", pick(NUMBERS, v)),
        Call::Speed(v) => format!("bl.speed({})", pick(NUMBERS, v)),
        Call::Pause(on) => format!("bl.pause({on})"),
        Call::Budget(v) => format!("bl.catch_up_budget({})", pick(NUMBERS, v)),
        Call::Reload(_) => "bl.load(RELOADABLE)".to_string(),
    };
    format!("return not pcall(function() {body} end)")
}

fn call() -> impl Strategy<Value = Call> {
    let i = || 0..64usize;
    prop_oneof![
        3 => (i(), i()).prop_map(|(n, s)| Call::Spawn(n, s)),
        4 => (i(), i(), i()).prop_map(|(a, p, v)| Call::Set(a, p, v)),
        4 => i().prop_map(Call::Step),
        3 => i().prop_map(Call::Frames),
        3 => (i(), i(), i()).prop_map(|(a, t, o)| Call::Play(a, t, o)),
        2 => (i(), i(), i()).prop_map(|(p, v, policy)| Call::Seek(p, v, policy)),
        2 => i().prop_map(Call::Interrupt),
        3 => (i(), i(), i(), i()).prop_map(|(a, l, t, d)| Call::Transition(a, l, t, d)),
        2 => (i(), i(), i()).prop_map(|(a, l, t)| Call::Complete(a, l, t)),
        1 => i().prop_map(Call::Rate),
        1 => i().prop_map(Call::Speed),
        1 => any::<bool>().prop_map(Call::Pause),
        1 => i().prop_map(Call::Budget),
        2 => i().prop_map(Call::Reload),
    ]
}

/// A host with the strafe and demo_attack samples loaded, the locomotion of the reload
/// story in the reloadable config `RELOADABLE` (a file of its own), and the tables `A`
/// (actors), `P` (playbacks), `T` (tokens).
fn host() -> (Host, PathBuf) {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let output = Output { out: Box::new(std::io::sink()), err: Box::new(std::io::sink()), style: Default::default() };
    let host = Host::new(output).unwrap();
    for sample in ["samples/strafe.toml", "samples/demo_attack.toml", "samples/cutscene.toml"] {
        host.load_config(Path::new(sample)).unwrap();
    }
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let reloadable = std::env::temp_dir().join(format!("blendlab-fuzz-{}-{run}.toml", std::process::id()));
    write_version(&reloadable, 0);
    host.load_config(&reloadable).unwrap();
    host.exec(&format!("A, P, T, RELOADABLE = {{}}, {{}}, {{}}, {:?}", reloadable.display().to_string()), "fuzz")
        .unwrap();
    (host, reloadable)
}

fn write_version(path: &Path, version: usize) {
    let name = pick(VERSIONS, version);
    let text = std::fs::read_to_string(Path::new("tests/fuzz/lua").join(name))
        .or_else(|_| std::fs::read_to_string(Path::new("tests/reload").join(name)))
        .unwrap();
    std::fs::write(path, text).unwrap();
}

/// Everything a refused call must leave alone: the clock, every actor (parameters, graph,
/// entity) and the event log but for `timeline_missing` entries.
fn fingerprint(session: &Session) -> String {
    let events: Vec<String> = session
        .events()
        .iter()
        .filter(|e| !matches!(e.kind, EventKind::TimelineMissing { .. } | EventKind::ReloadFailed { .. }))
        .map(|e| format!("{e:?}"))
        .collect();
    format!("{:?}\n{:?}\n{}", session.clock(), session.actors(), events.join("\n"))
}

/// No NaN, infinite or negative weight, share or output weight on any actor's channel.
fn weights_are_sane(session: &Session) -> Result<(), String> {
    for (id, actor) in session.actors().iter().enumerate() {
        let graph = session.graph(id);
        for c in 0..graph.channels().len() {
            let shares = graph.weights(c).iter().chain(graph.additive_weights(c)).copied();
            let all = shares.chain([graph.default_share(c), graph.output_weight(c)]);
            if let Some(bad) = all.clone().find(|w| !(w.is_finite() && *w >= 0.0)) {
                return Err(format!("actor {} channel {c}: weight {bad}", actor.name()));
            }
        }
    }
    Ok(())
}

/// Runs the calls in order, checking the invariants after each; `Err` names the broken one.
/// The reloadable config is removed afterwards, whatever the outcome.
fn run(calls: &[Call]) -> Result<(), String> {
    let (host, reloadable) = host();
    let outcome = run_on(&host, &reloadable, calls);
    std::fs::remove_file(&reloadable).map_err(|e| format!("cannot remove {}: {e}", reloadable.display()))?;
    outcome
}

/// [`run`] on a host and its reloadable config.
fn run_on(host: &Host, reloadable: &Path, calls: &[Call]) -> Result<(), String> {
    for (i, call) in calls.iter().enumerate() {
        if let Call::Reload(version) = call {
            write_version(reloadable, *version);
        }
        let before = host.with_session(fingerprint);
        let code = lua(call);
        let refused = catch_unwind(AssertUnwindSafe(|| host.eval(&code)))
            .map_err(|_| format!("call {i} panicked: {code}"))?
            .map_err(|e| format!("call {i} escaped pcall: {code}: {}", e.message))?;
        host.with_session(weights_are_sane).map_err(|e| format!("after call {i} ({code}): {e}"))?;
        if refused == ["true"] && host.with_session(fingerprint) != before {
            return Err(format!("call {i} was refused but changed the session: {code}"));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").map_or(64, |_| ProptestConfig::default().cases), ..ProptestConfig::default() })]
    #[test]
    fn random_call_sequences_keep_the_invariants(calls in prop::collection::vec(call(), 1..40)) {
        let outcome = run(&calls);
        prop_assert!(outcome.is_ok(), "{}", outcome.unwrap_err());
    }
}

/// Call sequences that once broke an invariant, kept as regression tests: an actor whose
/// blend tree vanished in a reload kept a graph of the old snapshot, and the next frame or
/// reload read past the end of the new one (found by the fault drills, then by this fuzzer);
/// a seek refused on an interrupted playback woke its layer's slot.
#[test]
fn kept_call_sequences_hold_the_invariants() {
    use Call::*;
    let kept: &[&[Call]] = &[
        &[Spawn(0, 0), Reload(2), Step(1), Reload(0), Step(1)],
        &[Spawn(0, 0), Play(12, 15, 38), Interrupt(12), Seek(4, 4, 0)],
    ];
    for calls in kept {
        if let Err(problem) = run(calls) {
            panic!("{calls:?}: {problem}");
        }
    }
}

#[test]
fn refusals_are_detected() {
    let (host, reloadable) = host();
    assert_eq!(host.eval(&lua(&Call::Step(3))).unwrap(), ["true"], "bl.step(-1) is refused");
    assert_eq!(host.eval(&lua(&Call::Step(1))).unwrap(), ["false"], "bl.step(0.5) runs");
    assert_eq!(host.eval(&lua(&Call::Play(0, 1, 0))).unwrap(), ["true"], "play of a missing timeline");
    std::fs::remove_file(reloadable).unwrap();
}
