//! `blendlab run --partition-check`: a script's result must not depend on how its clock
//! steps are cut up. The host option [`StepPlan`] changes how `bl.step(dt)` plans its frames
//! — as written, one frame's worth at a time, seeded pseudo-random pieces, or giant steps —
//! and [`partition_check`] runs the script once per plan and compares the event logs, the
//! final clock (frame and time) and the final weights and local times (numbers within
//! [`TOLERANCE`]). A `bl.pause` or `bl.speed` from inside a frame counts from the next step
//! only, so it is named as the cause of a difference. Scripts are not edited: only `bl.step`
//! changes. Every run is held to the same [`Confinement`]; one that its timeout stops ends
//! the check.
//!
//! The giant plan tests that one long clock step gives what the steps as written give. It
//! cannot know the steps to come, so it holds each step until the script next calls `bl`
//! (any function but `bl.step`, a handle method, `os.exit`) or ends, and runs the held steps
//! as one: the script's plain Lua between them runs before their frames rather than after.
//! That is sound only while no Lua of the script runs in those frames, so a step is held
//! only while no `bl.on` listener is registered and no `bl.at` callback falls due in the held
//! frames: a listener or a callback could fill a table that the Lua between the steps reads
//! (collect events, then assert), or read what that Lua writes. Any other step runs as
//! written, after the steps held before it; the other plans still cut it. So no difference
//! comes of the Lua between held steps running early, and the plan still catches one
//! between a long step and several wherever it merges (`tests/partition/sub_tick_steps.lua`);
//! the summary says how many steps it merged, so a script that gave it little to merge shows.

use std::path::Path;

use mlua::{Lua, Table};

use super::api::{INTERNAL_CHUNKS, PRELUDE_NAME, located, run_frames};
use super::headless::{last_error, run_captured};
use super::{Confinement, Host, HostState, Shared};
use crate::event::{Event, EventLog, FieldValue};
use crate::report::{Style, event_line};
use crate::session::Session;
use crate::time::Ticks;

/// Largest difference between two numbers that still counts as the same.
pub const TOLERANCE: f64 = 1e-9;

/// How `bl.step(dt)` plans its frames.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum StepPlan {
    /// One clock step of `dt`.
    #[default]
    AsWritten,
    /// Clock steps of one logic frame (`1/rate` s), then the rest.
    FrameByFrame,
    /// `dt` cut at 1 to 7 pseudo-random points drawn from `seed` (splitmix64).
    Random { seed: u64 },
    /// Steps wait, adding up, until the script calls anything else of `bl` (or a handle
    /// method), then run as one clock step — while no Lua of the script can run in their
    /// frames (see the module docs): a step that a `bl.on` listener or a due `bl.at`
    /// callback could see, or that would take the held ones over the catch-up budget, runs
    /// as written, after those waiting. So does a step inside the script's `pcall`, so that
    /// an error its frames raise (an inputs trigger's, the watchdog's) stays where the
    /// script catches it.
    Giant,
}

impl StepPlan {
    /// The plans a partition check compares with [`StepPlan::AsWritten`].
    pub const CHECKED: [StepPlan; 5] = [
        StepPlan::FrameByFrame,
        StepPlan::Random { seed: 1 },
        StepPlan::Random { seed: 2 },
        StepPlan::Random { seed: 3 },
        StepPlan::Giant,
    ];

    pub fn describe(self) -> String {
        match self {
            StepPlan::AsWritten => "steps as written".into(),
            StepPlan::FrameByFrame => "frame-by-frame steps".into(),
            StepPlan::Random { seed } => format!("random splits (seed {seed})"),
            StepPlan::Giant => "giant steps".into(),
        }
    }
}

/// A host's stepping state: its plan, the random generator and, under a giant plan, the
/// steps it holds and how many it merged.
#[derive(Clone, Debug, Default)]
pub(crate) struct Steps {
    plan: StepPlan,
    rng: u64,
    /// How many steps a giant plan holds, and their seconds added up.
    held: usize,
    held_seconds: SecondsSum,
    /// Under a giant plan: the `bl.step` calls, and those that ran as one clock step with
    /// another.
    calls: usize,
    merged: usize,
}

/// Seconds added up as numbers, not by a running `f64` sum (Neumaier's compensated sum: the
/// total is the exact sum rounded, within an ulp). A giant step is the held steps' seconds as
/// one step: 8 106 steps of 0.9 s are 7 295.4 s, each of them 9e11 ticks, where a running sum
/// falls a nanosecond short and the giant plan ran one frame fewer than the steps as written.
#[derive(Clone, Copy, Debug, Default)]
struct SecondsSum {
    sum: f64,
    compensation: f64,
}

impl SecondsSum {
    fn add(&mut self, seconds: f64) {
        let total = self.sum + seconds;
        self.compensation +=
            if self.sum.abs() >= seconds.abs() { (self.sum - total) + seconds } else { (seconds - total) + self.sum };
        self.sum = total;
    }

    fn total(self) -> f64 {
        self.sum + self.compensation
    }

    /// The sum with `seconds` more.
    fn with(mut self, seconds: f64) -> f64 {
        self.add(seconds);
        self.total()
    }
}

/// splitmix64: a small, well-mixed generator, the same numbers on every machine.
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The pieces `dt` is stepped in under `plan` (they add up to `dt`).
fn pieces(plan: StepPlan, dt: f64, rate: u32, rng: &mut u64) -> Vec<f64> {
    match plan {
        StepPlan::FrameByFrame => {
            let frame = 1.0 / rate as f64;
            let whole = (dt * rate as f64).floor().min(1e7) as usize;
            let mut pieces = vec![frame; whole];
            // What is left, never below 0: `whole` frames of a rounded `1/rate` can overshoot
            // `dt` by an ulp (1.2 s at 10 Hz), which the clock's 1 ns snapping absorbs.
            pieces.push((dt - whole as f64 * frame).max(0.0));
            pieces
        }
        StepPlan::Random { .. } => {
            let cuts = 1 + next_random(rng) % 7;
            let unit = |bits: u64| (bits >> 11) as f64 / (1u64 << 53) as f64;
            let mut points: Vec<f64> = (0..cuts).map(|_| unit(next_random(rng)) * dt).collect();
            points.sort_by(f64::total_cmp);
            points.push(dt);
            let mut last = 0.0;
            points.into_iter().map(|p| p - std::mem::replace(&mut last, p)).collect()
        }
        StepPlan::AsWritten | StepPlan::Giant => vec![dt],
    }
}

/// `bl.step(dt)` under the host's plan. A step the clock would refuse as a whole (over the
/// catch-up budget, negative, not finite) is refused as written, whatever the plan.
pub(crate) fn step(lua: &Lua, state: &Shared, dt: f64) -> mlua::Result<()> {
    super::api::refuse_inside_frames(lua, state, "bl.step")?;
    let plan = state.borrow().steps.plan;
    if plan == StepPlan::AsWritten {
        return clock_step(lua, state, dt);
    }
    let refused = state.borrow().session.clock().clone().plan_step(dt).is_err();
    if refused {
        run_held_steps(lua, state)?;
        return clock_step(lua, state, dt);
    }
    if plan == StepPlan::Giant {
        state.borrow_mut().steps.calls += 1;
        if !protected(lua) && unseen(&state.borrow(), dt) {
            let steps = &mut state.borrow_mut().steps;
            steps.held += 1;
            steps.held_seconds.add(dt);
            return Ok(());
        }
        run_held_steps(lua, state)?;
        return clock_step(lua, state, dt);
    }
    let pieces = {
        let mut host = state.borrow_mut();
        let rate = host.session.clock().rate();
        pieces(plan, dt, rate, &mut host.steps.rng)
    };
    pieces.into_iter().try_for_each(|piece| clock_step(lua, state, piece))
}

/// Whether the steps a giant plan holds and one of `dt` may run as one clock step after the
/// script's Lua between them: no Lua of the script runs in their frames — no `bl.on`
/// listener is registered, no `bl.at` callback falls due — and the clock takes them as one
/// step (within the catch-up budget). Listeners and callbacks change only through `bl`
/// calls, which run the held steps first, so what holds here holds until they run.
fn unseen(host: &HostState, dt: f64) -> bool {
    if !host.listeners.is_empty() {
        return false;
    }
    let mut clock = host.session.clock().clone();
    let Ok(frames) = clock.plan_step(host.steps.held_seconds.with(dt)) else { return false };
    let last = Ticks::of_frame(*frames.end(), clock.rate());
    frames.is_empty() || host.callbacks.values().all(|c| Ticks::from_secs(c.time).is_ok_and(|due| due > last))
}

/// Whether the running `bl` function was called under a `pcall` or `xpcall` of the script: a
/// frame of one (the real one, or the uncatchable one of `limits` that the script's `pcall`
/// is) called from the script's own code. blendlab's own protected calls do not count — the
/// prelude's, the one every script runs under, and the real `pcall` the one of `limits`
/// calls — since their callers are blendlab's own chunks.
fn protected(lua: &Lua) -> bool {
    let frames: Vec<(bool, bool)> = (1..256)
        .map_while(|level| {
            lua.inspect_stack(level, |frame| {
                let source = frame.source();
                let chunk = source.source.as_deref();
                let protects = (source.what == "C" || chunk == Some(super::limits::CHUNK_NAME))
                    && matches!(frame.names().name.as_deref(), Some("pcall" | "xpcall"));
                (protects, chunk.is_some_and(|name| INTERNAL_CHUNKS.contains(&name)))
            })
        })
        .collect();
    frames.windows(2).any(|pair| pair[0].0 && !pair[1].1)
}

/// One clock step of `dt` and its frames.
fn clock_step(lua: &Lua, state: &Shared, dt: f64) -> mlua::Result<()> {
    let frames = state.borrow_mut().session.plan_step(dt).map_err(|e| located(lua, format!("bl.step: {e}")))?;
    run_frames(lua, state, frames)
}

/// Runs the steps a giant plan holds as one clock step ([`unseen`] saw that the clock takes
/// them as one).
pub(crate) fn run_held_steps(lua: &Lua, state: &Shared) -> mlua::Result<()> {
    let seconds = {
        let steps = &mut state.borrow_mut().steps;
        let held = std::mem::take(&mut steps.held);
        if held > 1 {
            steps.merged += held;
        }
        (held > 0).then(|| std::mem::take(&mut steps.held_seconds).total())
    };
    seconds.map_or(Ok(()), |seconds| clock_step(lua, state, seconds))
}

/// Every function of `bl` but `step`, every method of an actor, playback or recording and
/// `os.exit` first run held steps: the script as written ran them before it went on, or
/// before it exited. (The one method of a `bl.on` or `bl.inputs` handle runs them itself:
/// see `api::handle`.)
const GUARD: &str = r#"
local bl, methods, flush = ...
local function guarded(f)
  return function(...)
    flush()
    return f(...)
  end
end
for name, f in pairs(bl) do
  if name ~= "step" and type(f) == "function" then bl[name] = guarded(f) end
end
for _, kind in pairs(methods) do
  for name, f in pairs(kind) do kind[name] = guarded(f) end
end
if os and os.exit then os.exit = guarded(os.exit) end
"#;

impl Host {
    /// Makes `bl.step` plan its frames by `plan` (call before running a script, once
    /// `os.exit` is the host's: a giant plan runs held steps before it).
    pub fn set_step_plan(&self, plan: StepPlan) -> Result<(), super::ScriptError> {
        let seed = match plan {
            StepPlan::Random { seed } => seed,
            _ => 0,
        };
        self.state.borrow_mut().steps = Steps { plan, rng: seed, ..Steps::default() };
        if plan == StepPlan::Giant {
            let state = self.state.clone();
            let flush = self.lua.create_function(move |lua, ()| run_held_steps(lua, &state))?;
            let bl: Table = self.lua.globals().get("bl")?;
            let methods: Table = self.lua.named_registry_value(super::actor::METHODS_KEY)?;
            let guard = self.lua.load(GUARD).set_name(PRELUDE_NAME);
            guard.call::<()>((bl, methods, flush))?;
        }
        Ok(())
    }

    /// Runs any steps a giant plan still holds (at the end of a script).
    pub fn flush_steps(&self) -> Result<(), super::ScriptError> {
        Ok(run_held_steps(&self.lua, &self.state)?)
    }
}

/// What a run left behind: the error it ended with, its events, final clock and weights.
struct Outcome {
    error: Option<String>,
    events: EventLog,
    /// The last logic frame that ran and its time.
    clock: (i64, Ticks),
    /// `actor/leaf [channel]` → weight, local time; `actor [channel]` → `<default>`, output.
    finals: Vec<(String, f64, f64)>,
    /// The first `bl.pause` or `bl.speed` from inside a frame that changed the clock.
    clock_changed_inside_frame: Option<String>,
    /// Under a giant plan: how many `bl.step` calls ran as one clock step with another, and
    /// how many there were.
    merged: (usize, usize),
}

/// The run of `script` under `plan`; `Err` when `--timeout` stopped it (its error).
fn run(script: &Path, args: &[String], plan: StepPlan, confinement: Confinement) -> Result<Outcome, String> {
    let (output, host) = run_captured(script, args, confinement, |host| {
        if let Err(e) = host.set_step_plan(plan) {
            unreachable!("the step guard compiles: {e}")
        }
    });
    let flushed = host.flush_steps().err().map(|e| e.message);
    let error = last_error(&output).map(str::to_string).or(flushed);
    if host.timed_out() {
        let error = error.unwrap_or_else(|| "timed out".into());
        return Err(format!("{}: the run with {} did not end: {error}", script.display(), plan.describe()));
    }
    let clock_changed_inside_frame = host.state.borrow().clock_changed_inside_frame.clone();
    let merged = {
        let steps = &host.state.borrow().steps;
        (steps.merged, steps.calls)
    };
    Ok(host.with_session(|session| Outcome {
        error: error.map(|e| format!("error: {e}")),
        events: session.events().clone(),
        clock: (session.clock().frame(), session.clock().time()),
        finals: finals(session),
        clock_changed_inside_frame,
        merged,
    }))
}

fn finals(session: &Session) -> Vec<(String, f64, f64)> {
    let mut out = Vec::new();
    for (id, actor) in session.actors().iter().enumerate() {
        let graph = session.graph(id);
        for (c, channel) in graph.channels().iter().enumerate() {
            for (i, leaf) in graph.leaves().iter().enumerate() {
                out.push((
                    format!("{}/{} [{channel}]", actor.name(), leaf.name),
                    graph.weights(c)[i],
                    graph.local_time(i),
                ));
            }
            let name = format!("{} [{channel}] <default>, output", actor.name());
            out.push((name, graph.default_share(c), graph.output_weight(c)));
        }
    }
    out
}

fn near(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= TOLERANCE
}

/// Two events (`a` of `log_a`, `b` of `log_b`) are the same when everything but numbers is
/// equal and numbers are near.
fn same_event((log_a, a): (&EventLog, &Event), (log_b, b): (&EventLog, &Event)) -> bool {
    let (fa, fb) = (a.kind.fields(), b.kind.fields());
    a.frame == b.frame
        && a.time == b.time
        && log_a.actor_name(a) == log_b.actor_name(b)
        && a.kind.name() == b.kind.name()
        && fa.len() == fb.len()
        && fa.iter().zip(&fb).all(|((ka, va), (kb, vb))| {
            ka == kb
                && match (va, vb) {
                    (FieldValue::Number(x), FieldValue::Number(y)) => near(*x, *y),
                    (x, y) => x == y,
                }
        })
}

/// The first way `other` differs from `reference`, in words; `None` when they agree.
fn difference(reference: &Outcome, other: &Outcome, name: &str) -> Option<String> {
    let written = StepPlan::AsWritten.describe();
    if reference.error != other.error {
        let show = |e: &Option<String>| e.clone().unwrap_or_else(|| "no error".into());
        return Some(format!(
            "the script ends differently:\n  {written}: {}\n  {name}: {}",
            show(&reference.error),
            show(&other.error)
        ));
    }
    let line = |log: &EventLog, k: usize| {
        log.get(k).map_or("<no event>".to_string(), |e| event_line(e, log.actor_name(e), Style::default()))
    };
    let (ours, theirs) = (&reference.events, &other.events);
    let events = ours.len().max(theirs.len());
    if let Some(k) = (0..events).find(|&k| match (ours.get(k), theirs.get(k)) {
        (Some(a), Some(b)) => !same_event((ours, a), (theirs, b)),
        _ => true,
    }) {
        return Some(format!(
            "event {} differs:\n  {written}: {}\n  {name}: {}",
            k + 1,
            line(ours, k),
            line(theirs, k)
        ));
    }
    let (ours, theirs) = (reference.clock, other.clock);
    if ours != theirs {
        let clock = |(frame, time): (i64, Ticks)| format!("frame {frame}, t={:.6} s", time.secs());
        return Some(format!("the clock ends differently:\n  {written}: {}\n  {name}: {}", clock(ours), clock(theirs)));
    }
    let pair = |v: Option<&(String, f64, f64)>| {
        v.map_or("<none>".to_string(), |(what, a, b)| match what.ends_with("<default>, output") {
            true => format!("<default> {a}, output weight {b}"),
            false => format!("weight {a}, local time {b}"),
        })
    };
    let finals = reference.finals.len().max(other.finals.len());
    (0..finals)
        .find(|&k| match (reference.finals.get(k), other.finals.get(k)) {
            (Some(a), Some(b)) => a.0 != b.0 || !near(a.1, b.1) || !near(a.2, b.2),
            _ => true,
        })
        .map(|k| {
            let what = reference.finals.get(k).or(other.finals.get(k)).map_or("", |f| f.0.as_str());
            format!(
                "final weight and local time of {what} differ:\n  {written}: {}\n  {name}: {}",
                pair(reference.finals.get(k)),
                pair(other.finals.get(k))
            )
        })
}

/// How many steps a giant plan merged, in words, with the rule when it did not merge them all.
fn merged((merged, calls): (usize, usize)) -> String {
    match calls {
        0 => "no `bl.step` to merge".into(),
        _ if merged == calls => format!("{merged} of {} merged", crate::report::count(calls, "step")),
        _ => format!(
            "{merged} of {} merged: steps merge only with no `bl` call between them, no `bl.on` listener \
             registered and no `bl.at` callback due in them",
            crate::report::count(calls, "step")
        ),
    }
}

/// Runs `script` under every plan of [`StepPlan::CHECKED`], each run held to
/// `confinement`, and compares each with the run as written. `Ok` holds the summary line
/// (with how many steps the giant plan merged);
/// `Err` the first difference found, the run that its timeout stopped, or — when the plans
/// agree but every run ends with an error — the summary with that error: the script fails,
/// and a check of it fails as `blendlab run` of it does.
pub fn partition_check(script: &Path, args: &[String], confinement: Confinement) -> Result<String, String> {
    // A script that cannot be read has no runs to compare.
    std::fs::File::open(script).map_err(|e| format!("{}: cannot read the script: {e}", script.display()))?;
    let reference = run(script, args, StepPlan::AsWritten, confinement)?;
    let mut names = Vec::new();
    for plan in StepPlan::CHECKED {
        let name = plan.describe();
        let other = run(script, args, plan, confinement)?;
        if let Some(difference) = difference(&reference, &other, &name) {
            let cause = reference.clock_changed_inside_frame.as_ref().or(other.clock_changed_inside_frame.as_ref());
            let cause = cause.map_or(String::new(), |call| {
                format!(
                    "\n  the cause: {call}, from inside a frame (a `bl.at` callback or a `bl.on` listener): a \
                     pause or speed counts from the next `bl.step`, which scales its seconds when it is called \
                     (REFERENCE §1), so how the steps are cut decides when; change it between steps"
                )
            });
            return Err(format!("{}: {name} change the result: {difference}{cause}", script.display()));
        }
        names.push(match plan {
            StepPlan::Giant => format!("{name} ({})", merged(other.merged)),
            _ => name,
        });
    }
    let out = format!(
        "{}: {}, the final clock and {} agree with {}",
        script.display(),
        crate::report::count(reference.events.len(), "event"),
        crate::report::count(reference.finals.len(), "final weight"),
        names.join(", ")
    );
    match &reference.error {
        None => Ok(out),
        Some(error) => Err(format!("{out}, but every run fails: {}", error.trim_start_matches("error: "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(pieces: &[f64]) -> f64 {
        pieces.iter().sum()
    }

    #[test]
    fn pieces_add_up_to_the_step() {
        for dt in [0.0, 1.0 / 60.0, 0.1, 0.75, 3.3] {
            for plan in StepPlan::CHECKED {
                let p = pieces(plan, dt, 60, &mut 7);
                assert!((sum(&p) - dt).abs() < 1e-12, "{plan:?} {dt}: {p:?}");
                assert!(p.iter().all(|&x| x >= 0.0), "{plan:?} {dt}: {p:?}");
            }
        }
    }

    #[test]
    fn frame_by_frame_steps_one_frame_at_a_time() {
        let p = pieces(StepPlan::FrameByFrame, 0.1, 30, &mut 0);
        assert_eq!(p.len(), 4);
        assert!(p[..3].iter().all(|&x| x == 1.0 / 30.0));
        // Twelve rounded tenths overshoot 1.2 by an ulp: the rest is 0, never negative.
        let p = pieces(StepPlan::FrameByFrame, 1.2, 10, &mut 0);
        assert_eq!((p.len(), p[12]), (13, 0.0));
    }

    #[test]
    fn random_splits_are_seeded() {
        let split = |seed: u64| pieces(StepPlan::Random { seed }, 1.0, 60, &mut seed.clone());
        assert_eq!(split(1), split(1));
        assert_ne!(split(1), split(2));
        assert!((2..=8).contains(&split(3).len()));
    }
}
