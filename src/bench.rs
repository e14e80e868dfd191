//! `blendlab bench crowd`: the crowd workload of `../shared/bench/WORKLOAD.md`, the benchmark
//! on which blendlab is compared with real animation runtimes (three.js `AnimationMixer`,
//! Spine `AnimationState`) and a plain loop that only does the arithmetic.
//!
//! [`crowd_engine`] runs it through the real engine: a library compiled from
//! [`CROWD_LIBRARY`] (a `1d` tree idle/walk/run with `sync = "none"` on a base layer, the hit
//! as a one-shot timeline clip with linear 0.1 s mixes on an override layer), one actor per
//! character, inputs set and hits played through the [`Session`] API between logic frames,
//! and the session's own 60 Hz clock stepping them. The checksum reads what the engine
//! reports: each leaf's effective weight and local time. [`crowd_floor`] is the same
//! arithmetic written by hand, each character's `f64`s side by side in one array: the
//! physical floor. [`compare`] runs both, one after the other (`--runs` repeats that, a
//! process per pair): the ratio of a pair is what the issue's "within 3× of the floor" asks,
//! and it drifts far less than either time.
//!
//! How WORKLOAD maps onto the engine:
//! - WORKLOAD frame `f` is the session's logic frame `f + 1` (frame 0 is the starting
//!   state). Inputs and hit triggers of frame `f` happen between logic frames, at clock time
//!   `t_f`, so a hit played then is first evaluated `dt` later: its first weight is 1/6.
//! - Initial phases: [`Session::set_local_time`] places each locomotion leaf at `p_i · D`;
//!   with `sync = "none"` every clip then advances by `dt` on its own and wraps at `D`.
//! - The hit timeline has `wrap = "none"` and a fixed duration of 0.6 s: the playback
//!   completes when its time reaches 0.6 (evaluated there: local time 0.6, weight
//!   `mix_out(end) = 0`) and its clip is disabled (weight 0), keeping local time 0.6 until
//!   the next `play` replaces it — WORKLOAD's "finished: inactive, `t_hit` stays at 0.6".
//! - A character never hit yet has no hit leaf: weight 0, local time 0 (WORKLOAD §3).
//! - The effective weights of REFERENCE §6 are WORKLOAD §4.6: the override layer takes
//!   `h` (its timeline's coverage) and leaves `1 − h` to the tree's `b_c`.

use std::fmt;
use std::time::Instant;

use crate::compile::{ParamId, compile};
use crate::config::SourceFile;
use crate::session::{ActorId, ActorSpec, Session};
use crate::time::Ticks;
use crate::timeline::TimelineId;

/// The crowd's library: WORKLOAD §2 as blendlab config.
pub const CROWD_LIBRARY: &str = r#"
[clips]
idle = { length = 2.0, loop = true }
walk = { length = 1.0, loop = true }
run = { length = 0.8, loop = true }
hit = { length = 0.6 }

[parameters]
speed = { default = 0.0 }

[blend_trees.locomotion]
type = "1d"
parameter = "speed"
sync = "none"
children = [
  { motion = "idle", threshold = 0.0 },
  { motion = "walk", threshold = 0.5 },
  { motion = "run", threshold = 1.0 },
]

[timelines.hit_reaction]
wrap = "none"
duration_mode = "fixed"
duration = 0.6
[[timelines.hit_reaction.tracks]]
name = "reaction"
clips = [{ start = 0.0, duration = 0.6, motion = "hit", ease_in = 0.1, ease_out = 0.1,
           mix_in_curve = "linear", mix_out_curve = "linear" }]

[graphs.crowd]
layers = [
  { name = "base", blend_tree = "locomotion" },
  { name = "hit", timeline = "hit_reaction", autoplay = false },
]
"#;

/// The locomotion leaves, in WORKLOAD's clip order.
const LOCOMOTION: [&str; 3] = ["idle", "walk", "run"];
const LENGTHS: [f64; 3] = [2.0, 1.0, 0.8];
const HIT_LENGTH: f64 = 0.6;
const FADE: f64 = 0.1;
/// A character is hit when `(f + i) % HIT_PERIOD == 0`.
const HIT_PERIOD: usize = 120;
const DT: f64 = 1.0 / 60.0;

/// One bench result: WORKLOAD §6's line.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchLine {
    pub name: &'static str,
    /// Seconds of the timed F-frame loop.
    pub wall_s: f64,
    pub checksum: f64,
    pub actors: usize,
    pub frames: usize,
    /// Seconds of setup (not timed in `wall_s`).
    pub setup_s: f64,
}

impl BenchLine {
    /// Nanoseconds per character-frame: `wall_s / (N·F)`.
    pub fn ns_per_char_frame(&self) -> f64 {
        self.wall_s * 1e9 / (self.actors * self.frames).max(1) as f64
    }
}

impl BenchLine {
    /// Reads a line as [`BenchLine`]'s `Display` writes it (the engine's or the floor's), as a
    /// run in a process of its own reports it: the time comes from `ns_per_char_frame` (0.1 ns
    /// resolution), since `wall_s` is printed to the millisecond. `None` for any other line.
    pub fn parse(line: &str) -> Option<BenchLine> {
        let mut words = line.split(' ');
        let name = match words.next()? {
            "blendlab" => "blendlab",
            "floor" => "floor",
            _ => return None,
        };
        let mut fields = std::collections::BTreeMap::new();
        for word in words {
            let (key, value) = word.split_once('=')?;
            fields.insert(key, value.parse::<f64>().ok()?);
        }
        let count = |key| fields.get(key).filter(|n: &&f64| n.fract() == 0.0 && **n >= 1.0).map(|&n| n as usize);
        let (actors, frames) = (count("N")?, count("F")?);
        let wall_s = fields.get("ns_per_char_frame")? * (actors * frames) as f64 / 1e9;
        let (checksum, setup_s) = (*fields.get("checksum")?, *fields.get("setup_s")?);
        Some(BenchLine { name, wall_s, checksum, actors, frames, setup_s })
    }
}

impl fmt::Display for BenchLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} wall_s={:.3} ns_per_char_frame={:.1} checksum={:.9} N={} F={} setup_s={:.3}",
            self.name,
            self.wall_s,
            self.ns_per_char_frame(),
            self.checksum,
            self.actors,
            self.frames,
            self.setup_s
        )
    }
}

/// What one character shows after the last frame: WORKLOAD's dump columns
/// `w_idle w_walk w_run w_hit t_idle t_walk t_run t_hit`.
pub type Character = [f64; 8];

/// WORKLOAD §4.1: `s = 0.5 + 0.5·sin(0.01·f + 0.37·i)`.
fn input(frame: usize, character: usize) -> f64 {
    0.5 + 0.5 * (0.01 * frame as f64 + 0.37 * character as f64).sin()
}

/// WORKLOAD §3: `p_i = fract(0.618033988749895·(i + 1))`.
fn phase(character: usize) -> f64 {
    let x = 0.618033988749895 * (character + 1) as f64;
    x - x.floor()
}

/// WORKLOAD §4.2: the hit (re)starts before frame `f`'s advance.
fn hit_now(frame: usize, character: usize) -> bool {
    (frame + character).is_multiple_of(HIT_PERIOD)
}

/// WORKLOAD §5: every character's weights and times, term by term into one `f64`.
pub fn checksum(characters: &[Character]) -> f64 {
    let mut sum = 0.0;
    for c in characters {
        sum += c[0] * 1.0;
        sum += c[1] * 2.0;
        sum += c[2] * 3.0;
        sum += c[3] * 4.0;
        for t in &c[4..] {
            sum += t;
        }
    }
    sum
}

/// The crowd in the engine: a session with one actor per character, at WORKLOAD §3's
/// initial state, stepped one WORKLOAD frame at a time.
pub struct Crowd {
    session: Session,
    ids: Vec<ActorId>,
    speed: ParamId,
    /// The hit's timeline, and the layer it plays on (the same in every character's graph).
    hit: TimelineId,
    hit_layer: usize,
}

fn fail(e: crate::session::SessionError) -> String {
    e.to_string()
}

impl Crowd {
    /// Compiles [`CROWD_LIBRARY`] and spawns `actors` characters at their start phases.
    pub fn new(actors: usize) -> Result<Crowd, String> {
        let compiled = compile(&[SourceFile { path: "crowd.toml".into(), text: CROWD_LIBRARY.into() }]);
        let snapshot = compiled.snapshot.ok_or("the crowd library does not compile")?;
        let mut session = Session::new(snapshot);
        let mut ids: Vec<ActorId> = Vec::with_capacity(actors);
        for i in 0..actors {
            let id = session.spawn(&format!("c{i}"), ActorSpec::Graph("crowd".into())).map_err(fail)?;
            for (leaf, length) in LOCOMOTION.iter().zip(LENGTHS) {
                session.set_local_time(id, leaf, phase(i) * length).map_err(fail)?;
            }
            ids.push(id);
        }
        let speed = session.snapshot().parameter_id("speed").ok_or("the crowd library has no `speed`")?;
        let hit = session.snapshot().timeline_id("hit_reaction").ok_or("the crowd library has no `hit_reaction`")?;
        let hit_layer = session.snapshot().graphs[session.snapshot().graph_id("crowd").ok_or("no `crowd` graph")?]
            .layers
            .iter()
            .position(|layer| layer.name == "hit")
            .ok_or("the crowd graph has no `hit` layer")?;
        Ok(Crowd { session, ids, speed, hit, hit_layer })
    }

    /// WORKLOAD frame `f`: every character's input and hit through the session API, then one
    /// logic frame of the session's clock.
    pub fn frame(&mut self, f: usize) -> Result<(), String> {
        for (i, &id) in self.ids.iter().enumerate() {
            self.session.set_param_by_id(id, self.speed, input(f, i)).map_err(fail)?;
            if hit_now(f, i) {
                self.session.play_by_id(id, self.hit, self.hit_layer, Ticks::ZERO).map_err(fail)?;
            }
        }
        let frame = self.session.plan_frames(1).map_err(fail)?;
        self.session.run_frames(frame, |_, _| {});
        Ok(())
    }

    /// What the engine reports for every character: each leaf's effective weight and local
    /// time; a character never hit has no hit leaf (weight 0, time 0).
    pub fn characters(&self) -> Vec<Character> {
        let reported = |id: ActorId| {
            let graph = self.session.graph(id);
            let leaf =
                |name: &str| graph.leaf_index(name).map_or((0.0, 0.0), |l| (graph.weights(0)[l], graph.local_time(l)));
            let mut out = [0.0; 8];
            for (k, name) in LOCOMOTION.iter().chain(["hit"].iter()).enumerate() {
                (out[k], out[k + 4]) = leaf(name);
            }
            out
        };
        self.ids.iter().map(|&id| reported(id)).collect()
    }
}

/// Runs the crowd through the engine. Returns the line and every character's final state.
pub fn crowd_engine(actors: usize, frames: usize) -> Result<(BenchLine, Vec<Character>), String> {
    let setup = Instant::now();
    let mut crowd = Crowd::new(actors)?;
    let setup_s = setup.elapsed().as_secs_f64();

    let timed = Instant::now();
    for f in 0..frames {
        crowd.frame(f)?;
    }
    let wall_s = timed.elapsed().as_secs_f64();

    let characters = crowd.characters();
    let line = BenchLine { name: "blendlab", wall_s, checksum: checksum(&characters), actors, frames, setup_s };
    Ok((line, characters))
}

/// One character of the floor: everything a frame reads and writes of it, side by side.
#[derive(Clone, Copy)]
struct FloorCharacter {
    times: [f64; 3],
    hit_time: f64,
    weights: [f64; 4],
    hit_active: bool,
}

/// The same arithmetic by hand (WORKLOAD §3–§4, step for step), each character's numbers side
/// by side in one array: the physical floor the engine is measured against. (Separate arrays
/// per quantity ran 10% slower or faster from build to build, with where the allocator put them
/// against each other.)
pub fn crowd_floor(actors: usize, frames: usize) -> (BenchLine, Vec<Character>) {
    let setup = Instant::now();
    let mut crowd: Vec<FloorCharacter> = (0..actors)
        .map(|i| FloorCharacter {
            times: LENGTHS.map(|d| phase(i) * d),
            hit_time: 0.0,
            weights: [0.0; 4],
            hit_active: false,
        })
        .collect();
    let setup_s = setup.elapsed().as_secs_f64();

    let timed = Instant::now();
    for f in 0..frames {
        for (i, c) in crowd.iter_mut().enumerate() {
            let s = input(f, i);
            if hit_now(f, i) {
                c.hit_active = true;
                c.hit_time = 0.0;
            }
            for (t, d) in c.times.iter_mut().zip(LENGTHS) {
                *t += DT;
                if *t >= d {
                    *t -= d;
                }
            }
            let mut h = 0.0;
            if c.hit_active {
                c.hit_time += DT;
                if c.hit_time >= HIT_LENGTH {
                    c.hit_time = HIT_LENGTH;
                    c.hit_active = false;
                } else {
                    h = (c.hit_time / FADE).min((HIT_LENGTH - c.hit_time) / FADE).clamp(0.0, 1.0);
                }
            }
            let sc = s.clamp(0.0, 1.0);
            let b = if sc < 0.5 {
                let u = sc / 0.5;
                [1.0 - u, u, 0.0]
            } else {
                let u = (sc - 0.5) / (1.0 - 0.5);
                [0.0, 1.0 - u, u]
            };
            c.weights = [b[0] * (1.0 - h), b[1] * (1.0 - h), b[2] * (1.0 - h), h];
        }
    }
    let wall_s = timed.elapsed().as_secs_f64();

    let characters: Vec<Character> = crowd
        .iter()
        .map(|c| {
            [c.weights[0], c.weights[1], c.weights[2], c.weights[3], c.times[0], c.times[1], c.times[2], c.hit_time]
        })
        .collect();
    let line = BenchLine { name: "floor", wall_s, checksum: checksum(&characters), actors, frames, setup_s };
    (line, characters)
}

/// Timed runs of the engine and the floor, in pairs: a run of the engine, then one of the
/// floor, each on a fresh crowd. Both halves of a pair see the machine in the same state, so
/// the ratio of a pair is steadier than either time on a machine whose speed drifts.
pub struct Comparison {
    /// The engine's and the floor's line of each run, in run order.
    pub engine: Vec<BenchLine>,
    pub floor: Vec<BenchLine>,
}

/// One pair of runs: the crowd through the engine, then by hand. Returns them and the engine's
/// final characters.
pub fn compare(actors: usize, frames: usize) -> Result<(Comparison, Vec<Character>), String> {
    let (engine, characters) = crowd_engine(actors, frames)?;
    let floor = crowd_floor(actors, frames).0;
    Ok((Comparison { engine: vec![engine], floor: vec![floor] }, characters))
}

impl Comparison {
    /// The engine's median run by ns per character-frame (the lower middle one of an even
    /// count: always a run that happened).
    pub fn median_engine(&self) -> &BenchLine {
        median_line(&self.engine)
    }

    pub fn median_floor(&self) -> &BenchLine {
        median_line(&self.floor)
    }

    /// Each run's engine time over its floor time, in run order.
    pub fn ratios(&self) -> Vec<f64> {
        self.engine.iter().zip(&self.floor).map(|(e, f)| e.ns_per_char_frame() / f.ns_per_char_frame()).collect()
    }

    /// How far the engine is from the floor over the runs: the median (lower middle), least
    /// and greatest ratio of a run, as one line.
    pub fn ratio_line(&self) -> String {
        let mut ratios = self.ratios();
        ratios.sort_by(f64::total_cmp);
        let (median, least, greatest) = (ratios[(ratios.len() - 1) / 2], ratios[0], ratios[ratios.len() - 1]);
        format!("ratio blendlab/floor median={median:.2} min={least:.2} max={greatest:.2} runs={}", ratios.len())
    }
}

fn median_line(lines: &[BenchLine]) -> &BenchLine {
    let mut order: Vec<&BenchLine> = lines.iter().collect();
    order.sort_by(|a, b| a.ns_per_char_frame().total_cmp(&b.ns_per_char_frame()));
    order[(order.len() - 1) / 2]
}

/// WORKLOAD's per-character dump (`CROWD_DUMP`): `i` and the eight values, 17 significant
/// digits.
pub fn dump(characters: &[Character]) -> String {
    let mut out = String::new();
    for (i, c) in characters.iter().enumerate() {
        out.push_str(&i.to_string());
        for v in c {
            out.push_str(&format!(" {v:.16e}"));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of `ns` per character-frame, exactly: `ns` seconds over 1e9 character-frames.
    fn line(name: &'static str, ns: f64) -> BenchLine {
        BenchLine { name, wall_s: ns, checksum: 0.0, actors: 1_000_000_000, frames: 1, setup_s: 0.0 }
    }

    fn comparison(engine: &[f64], floor: &[f64]) -> Comparison {
        Comparison {
            engine: engine.iter().map(|&ns| line("blendlab", ns)).collect(),
            floor: floor.iter().map(|&ns| line("floor", ns)).collect(),
        }
    }

    #[test]
    fn the_median_is_a_run_that_happened() {
        // (engine ns per run, the median run's ns): odd counts take the middle, even the
        // lower middle, whatever the order of the runs.
        let table: &[(&[f64], f64)] = &[(&[120.0], 120.0), (&[130.0, 110.0, 120.0], 120.0), (&[140.0, 110.0], 110.0)];
        for &(engine, median) in table {
            let runs = comparison(engine, &vec![20.0; engine.len()]);
            assert_eq!(runs.median_engine().ns_per_char_frame(), median, "{engine:?}");
        }
    }

    #[test]
    fn a_line_reads_back_as_it_was_written() {
        let written = BenchLine {
            name: "blendlab",
            wall_s: 0.4152,
            checksum: 49171.738428673,
            actors: 10_000,
            frames: 600,
            setup_s: 0.009,
        };
        let read = BenchLine::parse(&written.to_string()).expect("a bench line");
        assert_eq!(
            (read.name, read.checksum, read.actors, read.frames, read.setup_s),
            ("blendlab", 49171.738428673, 10_000, 600, 0.009)
        );
        assert_eq!(read.to_string(), written.to_string());
        for other in
            ["", "ratio blendlab/floor median=4.00", "floor wall_s=x", "spine wall_s=0.1 N=1 F=1", "floor N=0.5 F=1"]
        {
            assert_eq!(BenchLine::parse(other), None, "{other:?}");
        }
    }

    #[test]
    fn ratios_pair_each_engine_run_with_its_floor_run() {
        let runs = comparison(&[120.0, 100.0, 150.0], &[20.0, 25.0, 20.0]);
        assert_eq!(runs.ratios(), [6.0, 4.0, 7.5]);
        assert_eq!(runs.median_floor().ns_per_char_frame(), 20.0);
        assert_eq!(runs.ratio_line(), "ratio blendlab/floor median=6.00 min=4.00 max=7.50 runs=3");
    }
}
