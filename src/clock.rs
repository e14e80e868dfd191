//! The logic-frame clock. The session never advances by "some seconds": it runs whole logic
//! frames at a fixed rate, and this module decides which ones. Frame `f` has time
//! `Ticks::of_frame(f, rate)`; frame 0 is the starting state at time 0, and each logic frame
//! `f ≥ 1` moves the world from `t_{f−1}` to `t_f`.

use std::ops::RangeInclusive;

use crate::time::{FrameTime, TICKS_PER_SECOND, Ticks, TimeError};

/// Default logic rate in Hz.
pub const DEFAULT_RATE: u32 = 60;
/// How far below a frame time the requested time may fall and still count as reaching it:
/// 1 ns. Each `step(dt)` rounds `dt` to whole ticks, so three steps of 1/30 s add up to one
/// tick short of frame 3; snapping up to the frame time keeps "n steps of 1/rate run exactly
/// n frames" true and stops rounding error from accumulating.
pub const SNAP: Ticks = Ticks(1_000);
/// Default largest number of frames one `step` may run.
pub const DEFAULT_CATCH_UP_BUDGET: u64 = 100_000;

/// Why the clock refused a request. The clock is unchanged after any of these.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ClockError {
    #[error("step takes a duration in seconds ≥ 0, got {0} (time never runs backwards)")]
    NegativeStep(f64),
    #[error("step duration: {0}")]
    BadStep(TimeError),
    #[error(
        "that would run {frames} logic frames at once, over the catch-up budget of {budget}; \
         run fewer at a time or raise the budget with bl.catch_up_budget(n)"
    )]
    OverBudget { frames: u64, budget: u64 },
    #[error("rate must be a whole number of Hz from 1 to 100000, got {0}")]
    BadRate(f64),
    #[error("the rate can only change before the first logic frame (now at frame {0})")]
    RateAfterStart(i64),
    #[error("speed must be a number from 0 to 1e6, got {}", crate::config::number(*.0))]
    BadSpeed(f64),
    #[error("the clock would pass the 1e6 s that blendlab accepts (it would be at {} s)", crate::config::number(*.0))]
    PastEnd(f64),
    #[error("the catch-up budget must be a whole number from 1 to {}, got {}", i64::MAX, crate::config::number(*.0))]
    BadBudget(f64),
}

/// Fixed-rate clock with catch-up, speed and pause.
#[derive(Clone, Debug)]
pub struct Clock {
    rate: u32,
    speed: f64,
    paused: bool,
    /// Time the caller has asked for so far (scaled by speed); frames run up to here.
    elapsed: Ticks,
    /// The fraction of a tick the steps asked for beyond `elapsed`, in [−½, ½]: each step
    /// adds its seconds to it before rounding to whole ticks, so that the rounding of one
    /// step is made up by the next instead of adding up (see [`Clock::plan_step`]).
    carry: f64,
    /// The last logic frame that ran (0 = the starting state).
    frame: i64,
    catch_up_budget: u64,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            rate: DEFAULT_RATE,
            speed: 1.0,
            paused: false,
            elapsed: Ticks::ZERO,
            carry: 0.0,
            frame: 0,
            catch_up_budget: DEFAULT_CATCH_UP_BUDGET,
        }
    }
}

impl Clock {
    pub fn rate(&self) -> u32 {
        self.rate
    }
    pub fn frame(&self) -> i64 {
        self.frame
    }
    /// The last logic frame that ran, with the rate.
    pub fn now(&self) -> FrameTime {
        FrameTime { frame: self.frame, rate: self.rate }
    }

    /// Time of the last logic frame that ran.
    pub fn time(&self) -> Ticks {
        Ticks::of_frame(self.frame, self.rate)
    }
    /// Seconds of one logic frame, `1 / rate`.
    pub fn frame_seconds(&self) -> f64 {
        1.0 / self.rate as f64
    }
    pub fn speed(&self) -> f64 {
        self.speed
    }
    pub fn paused(&self) -> bool {
        self.paused
    }
    pub fn catch_up_budget(&self) -> u64 {
        self.catch_up_budget
    }

    /// Sets the rate; allowed only before the first logic frame, since frame times are
    /// computed from the index and a later change would move time.
    pub fn set_rate(&mut self, hz: f64) -> Result<(), ClockError> {
        if !(hz.fract() == 0.0 && (1.0..=100_000.0).contains(&hz)) {
            return Err(ClockError::BadRate(hz));
        }
        if self.frame != 0 || self.elapsed != Ticks::ZERO {
            return Err(ClockError::RateAfterStart(self.frame));
        }
        self.rate = hz as u32;
        Ok(())
    }

    pub fn set_speed(&mut self, speed: f64) -> Result<(), ClockError> {
        if !(0.0..=crate::config::MAX_NUMBER).contains(&speed) {
            return Err(ClockError::BadSpeed(speed));
        }
        self.speed = speed;
        Ok(())
    }

    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    pub fn set_catch_up_budget(&mut self, budget: f64) -> Result<(), ClockError> {
        // Up to Lua's largest integer, the largest budget a script can pass.
        if !(budget.fract() == 0.0 && budget >= 1.0 && budget <= i64::MAX as f64) {
            return Err(ClockError::BadBudget(budget));
        }
        self.catch_up_budget = budget as u64;
        Ok(())
    }

    /// Plans `step(dt)`: `elapsed += ticks(dt * speed)` (nothing while paused), the seconds
    /// rounded to whole ticks with the fraction the steps before left over (`carry`), snapped
    /// up to a frame time within [`SNAP`] above it, then every frame `f` not yet run with
    /// `t_f ≤ elapsed`, in order: catch-up never skips a frame. Refuses, changing nothing,
    /// when `dt` is negative or not finite, when it would move the clock by more than 1e6 s
    /// (paused or not), when the clock would pass the end of time (1e6 s; a step that passes
    /// it by at most [`SNAP`] stops there), or when the frames would exceed the catch-up
    /// budget. Run the returned frames with [`Clock::enter`].
    ///
    /// Why the carry: `1/60` s is a third of a tick more than its ticks. Rounded step by
    /// step, `n` steps of it ended `n/3` ticks past frame `n`'s time (20 µs by the end of
    /// time, which the last of them then passed; after 59 999 of them a step 10 ns short of
    /// the next frame ran it), and the same seconds cut into other steps ended elsewhere.
    /// With the carry, steps end where their seconds added up end, however they are cut
    /// (to the rounding of `f64`, about 1e-16 of a step), steps shorter than a tick included.
    pub fn plan_step(&mut self, dt: f64) -> Result<RangeInclusive<i64>, ClockError> {
        if dt < 0.0 {
            return Err(ClockError::NegativeStep(dt));
        }
        // The step as given, and the seconds it moves the clock as if it ran: paused or not.
        if !dt.is_finite() {
            return Err(ClockError::BadStep(TimeError::NotFinite(dt)));
        }
        Ticks::from_secs(dt * self.speed).map_err(ClockError::BadStep)?;
        let scaled = if self.paused { 0.0 } else { dt * self.speed };
        let exact = scaled * TICKS_PER_SECOND as f64 + self.carry;
        let whole = exact.round();
        let mut elapsed = self.elapsed + Ticks(whole as i64);
        let next = Ticks::of_frame(elapsed.last_frame_at(self.rate) + 1, self.rate);
        if next - elapsed <= SNAP {
            elapsed = next;
        }
        if self.elapsed < Ticks::MAX && elapsed > Ticks::MAX && elapsed - Ticks::MAX <= SNAP {
            elapsed = Ticks::MAX;
        }
        if elapsed > Ticks::MAX {
            return Err(ClockError::PastEnd(elapsed.secs()));
        }
        let last = elapsed.last_frame_at(self.rate).max(self.frame);
        self.check_budget((last - self.frame) as u64)?;
        (self.elapsed, self.carry) = (elapsed, exact - whole);
        Ok(self.frame + 1..=last)
    }

    /// Plans `frames(n)`: exactly the next `n` frames. Refused over the catch-up budget.
    pub fn plan_frames(&mut self, n: u64) -> Result<RangeInclusive<i64>, ClockError> {
        self.check_budget(n)?;
        // Past the last frame of the end of time, however far (`n` up to `u64::MAX`).
        let last_frame = Ticks::MAX.last_frame_at(self.rate);
        if n > (last_frame - self.frame) as u64 {
            return Err(ClockError::PastEnd((self.frame as f64 + n as f64) / f64::from(self.rate)));
        }
        let last = self.frame + n as i64;
        Ok(self.frame + 1..=last)
    }

    fn check_budget(&self, frames: u64) -> Result<(), ClockError> {
        if frames > self.catch_up_budget {
            return Err(ClockError::OverBudget { frames, budget: self.catch_up_budget });
        }
        Ok(())
    }

    /// Drops the rest of a planned step that will not run (an interrupted step): the clock
    /// then stands exactly at the last frame that ran, and the next step starts from there.
    pub fn stop_at_current_frame(&mut self) {
        (self.elapsed, self.carry) = (self.time(), 0.0);
    }

    /// Marks `frame` as the frame now running; `elapsed` never falls behind it.
    pub fn enter(&mut self, frame: i64) {
        debug_assert_eq!(frame, self.frame + 1, "frames run in order");
        self.frame = frame;
        if self.elapsed < self.time() {
            (self.elapsed, self.carry) = (self.time(), 0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(clock: &mut Clock, frames: RangeInclusive<i64>) -> usize {
        let count = frames.clone().count();
        for f in frames {
            clock.enter(f);
        }
        count
    }

    #[test]
    fn four_thirtieths_at_30_hz_run_four_frames() {
        let mut clock = Clock::default();
        clock.set_rate(30.0).unwrap();
        let frames = clock.plan_step(4.0 / 30.0).unwrap();
        assert_eq!(frames, 1..=4);
    }

    #[test]
    fn a_huge_step_is_refused_before_any_work() {
        let mut clock = Clock::default();
        let before = clock.clone();
        let err = clock.plan_step(1e5).unwrap_err();
        assert_eq!(err, ClockError::OverBudget { frames: 6_000_000, budget: 100_000 });
        assert_eq!(clock.elapsed, before.elapsed);
        assert_eq!(clock.frame, before.frame);
    }

    #[test]
    fn bad_steps_change_nothing() {
        // Paused too, and at speed 0 (where no finite step moves the clock too far).
        let too_long = [1e12, 1e300];
        for (paused, speed, too_long) in [(false, 1.0, &too_long[..]), (true, 1.0, &too_long), (false, 0.0, &[])] {
            let mut clock = Clock::default();
            clock.set_paused(paused);
            clock.set_speed(speed).unwrap();
            for &dt in [-1.0, f64::NAN, f64::INFINITY].iter().chain(too_long) {
                assert!(clock.plan_step(dt).is_err(), "{dt}, paused {paused}, speed {speed}");
            }
            assert_eq!(clock.elapsed, Ticks::ZERO);
        }
        assert_eq!(
            Clock::default().plan_step(f64::INFINITY).map_err(|e| e.to_string()),
            Err("step duration: inf is not a finite number of seconds".into())
        );
    }

    #[test]
    fn frames_past_the_end_of_time_are_refused_however_many() {
        let mut clock = Clock::default();
        clock.set_catch_up_budget(i64::MAX as f64).unwrap();
        let frames = clock.plan_frames(1).unwrap();
        run(&mut clock, frames);
        for n in [i64::MAX as u64, i64::MAX as u64 - 1, 60_000_000] {
            let Err(ClockError::PastEnd(at)) = clock.plan_frames(n) else { panic!("{n} frames are refused") };
            assert_eq!(at, (1.0 + n as f64) / 60.0, "{n} frames: where they would end");
        }
        assert_eq!(clock.plan_frames(59_999_999), Ok(2..=60_000_000), "up to the end of time itself");
    }

    #[test]
    fn the_clock_never_passes_its_last_second() {
        let mut clock = Clock::default();
        clock.set_rate(1.0).unwrap();
        clock.set_catch_up_budget(2e6).unwrap();
        let frames = clock.plan_step(9e5).unwrap();
        run(&mut clock, frames);
        assert_eq!(clock.plan_step(9e5), Err(ClockError::PastEnd(1.8e6)));
        assert_eq!(clock.plan_frames(900_000), Err(ClockError::PastEnd(1.8e6)));
        assert_eq!(
            ClockError::PastEnd(1.8e6).to_string(),
            "the clock would pass the 1e6 s that blendlab accepts (it would be at 1800000 s)"
        );
        assert_eq!(clock.time(), Ticks::from_secs(9e5).unwrap(), "refused steps change nothing");
    }

    #[test]
    fn steps_that_add_up_to_the_end_of_time_reach_it_however_they_are_cut() {
        for rate in [1.0, 3.0] {
            let mut clock = Clock::default();
            clock.set_rate(rate).unwrap();
            clock.set_catch_up_budget(1e8).unwrap();
            let frames = clock.plan_step(1e6 - 0.3).unwrap();
            run(&mut clock, frames);
            // Three ticks past the end of time, as pieces of a step rounded one by one land.
            let frames = clock.plan_step(0.3 + 3e-12).unwrap();
            assert_eq!(*frames.end(), (1e6 * rate) as i64, "rate {rate}: the last frame runs");
            run(&mut clock, frames);
            assert_eq!(clock.time(), Ticks::MAX, "rate {rate}: the clock stops at the end of time");
            assert_eq!(clock.elapsed, Ticks::MAX, "rate {rate}: and holds no time past it");
            assert!(
                matches!(clock.plan_step(1e-12), Err(ClockError::PastEnd(_))),
                "rate {rate}: a tick more is refused"
            );
        }
    }

    #[test]
    fn partial_steps_accumulate_in_ticks() {
        let mut clock = Clock::default();
        let frames = clock.plan_step(0.5 / 60.0).unwrap();
        assert_eq!(run(&mut clock, frames), 0);
        let frames = clock.plan_step(0.5 / 60.0).unwrap();
        assert_eq!(run(&mut clock, frames), 1);
    }

    #[test]
    fn steps_of_one_frame_run_one_frame_each_despite_tick_rounding() {
        for rate in [24.0, 30.0, 60.0, 64.0, 120.0, 7.0] {
            let mut clock = Clock::default();
            clock.set_rate(rate).unwrap();
            for n in 1..=1000 {
                let frames = clock.plan_step(1.0 / rate).unwrap();
                assert_eq!(run(&mut clock, frames), 1, "rate {rate}, step {n}");
                assert_eq!(clock.elapsed, Ticks::of_frame(n, rate as u32), "rate {rate}, step {n}: no drift");
            }
        }
    }

    /// Runs steps `dts` at `rate` Hz; returns the frame reached and the clock's time.
    fn steps(rate: f64, dts: &[f64]) -> (i64, Ticks) {
        let mut clock = Clock::default();
        clock.set_rate(rate).unwrap();
        for &dt in dts {
            let frames = clock.plan_step(dt).unwrap();
            run(&mut clock, frames);
        }
        (clock.frame, clock.elapsed)
    }

    #[test]
    fn steps_cut_differently_end_alike() {
        // Found by the partition check's plans: the seconds, cut at a frame time, at random,
        // or into pieces shorter than a tick, end where they add up to.
        let cases: [(f64, Vec<f64>, Vec<f64>); 3] = [
            (10.0, vec![0.1 + 0.9e-9, 0.1 - 1.5e-9], vec![0.1, 0.9e-9, 0.1 - 1.5e-9]),
            (
                7.0,
                [vec![1.0 / 7.0; 7], vec![1.0 / 7.0 - 1e-9]].concat(),
                [vec![1.0 / 7.0; 7], vec![0.05, 1.0 / 7.0 - 1e-9 - 0.05]].concat(),
            ),
            (60.0, vec![1.2e-11], vec![0.4e-12; 30]),
        ];
        for (rate, written, cut) in cases {
            assert_eq!(steps(rate, &written), steps(rate, &cut), "{rate} Hz: {written:?} against {cut:?}");
        }
        assert_eq!(steps(10.0, &[0.1 + 0.9e-9, 0.1 - 1.5e-9]).0, 2, "within 1 ns of frame 2: it runs");
        assert_eq!(steps(60.0, &[0.4e-12; 30]).1, Ticks(12), "pieces shorter than a tick add up");
    }

    #[test]
    fn a_step_just_short_of_a_frame_after_many_steps_runs_none() {
        // 1/60 s is a third of a tick more than its ticks: snapped up only, 59 999 steps of it
        // had drifted 20 ns past frame 59 999, and a step 10 ns short of the next frame ran it.
        let mut clock = Clock::default();
        for _ in 0..59_999 {
            let frames = clock.plan_step(1.0 / 60.0).unwrap();
            run(&mut clock, frames);
        }
        let frames = clock.plan_step(1.0 / 60.0 - 1e-8).unwrap();
        assert_eq!(run(&mut clock, frames), 0);
        assert_eq!(clock.time(), Ticks::of_frame(59_999, 60));
    }

    #[test]
    fn speed_and_pause_scale_the_step() {
        let mut clock = Clock::default();
        clock.set_speed(2.0).unwrap();
        let frames = clock.plan_step(1.0 / 60.0).unwrap();
        assert_eq!(run(&mut clock, frames), 2);
        clock.set_paused(true);
        let frames = clock.plan_step(1.0).unwrap();
        assert_eq!(run(&mut clock, frames), 0);
    }

    #[test]
    fn a_stopped_step_leaves_no_frames_owed() {
        let mut clock = Clock::default();
        let frames = clock.plan_step(1.0).unwrap();
        run(&mut clock, *frames.start()..=10);
        clock.stop_at_current_frame();
        assert!(clock.plan_step(0.0).unwrap().is_empty(), "nothing left to catch up");
        assert_eq!(clock.frame(), 10);
    }

    #[test]
    fn rate_is_fixed_once_time_has_moved() {
        let mut clock = Clock::default();
        assert_eq!(clock.set_rate(0.0), Err(ClockError::BadRate(0.0)));
        assert_eq!(clock.set_rate(29.97), Err(ClockError::BadRate(29.97)));
        let frames = clock.plan_frames(1).unwrap();
        run(&mut clock, frames);
        assert_eq!(clock.set_rate(30.0), Err(ClockError::RateAfterStart(1)));
    }
}
