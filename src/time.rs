//! Integer time. Every time in blendlab is a whole number of ticks (1 tick = 1e-12 s), so
//! frame times never drift and two runs agree to the bit. Seconds (`f64`) exist only at the
//! edges: config values, Lua arguments and printed output.

use std::fmt;

/// Ticks in one second.
pub const TICKS_PER_SECOND: i64 = 1_000_000_000_000;

/// The largest time magnitude accepted anywhere, in seconds (±1e6 s, about 11.6 days).
pub const MAX_SECONDS: f64 = 1e6;

/// A point or span of time in ticks of 1e-12 s.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticks(pub i64);

/// Why a number of seconds is not a time.
#[derive(Copy, Clone, Debug, PartialEq, thiserror::Error)]
pub enum TimeError {
    #[error("{0} is not a finite number of seconds")]
    NotFinite(f64),
    #[error("{0:e} s is beyond the ±1e6 s that blendlab accepts")]
    OutOfRange(f64),
}

impl Ticks {
    pub const ZERO: Ticks = Ticks(0);
    /// The largest accepted time, `MAX_SECONDS`.
    pub const MAX: Ticks = Ticks(1_000_000 * TICKS_PER_SECOND);

    /// `round_half_away_from_zero(seconds * 1e12)`; rejects NaN, ±∞ and |seconds| > 1e6.
    /// (Unity's DiscreteTime truncates negatives toward zero; we round symmetrically.)
    pub fn from_secs(seconds: f64) -> Result<Ticks, TimeError> {
        if !seconds.is_finite() {
            return Err(TimeError::NotFinite(seconds));
        }
        if seconds.abs() > MAX_SECONDS {
            return Err(TimeError::OutOfRange(seconds));
        }
        Ok(Ticks((seconds * TICKS_PER_SECOND as f64).round() as i64))
    }

    /// The time in seconds.
    pub fn secs(self) -> f64 {
        self.0 as f64 / TICKS_PER_SECOND as f64
    }

    /// Time of logic frame `frame` at `rate` Hz: `round(frame * 1e12 / rate)`, computed from
    /// the index (never accumulated), rounding half away from zero. Saturates at the i64
    /// range (callers bound frames to ±1e6 s long before that).
    pub fn of_frame(frame: i64, rate: u32) -> Ticks {
        // Within ±4.6e6 frames (21 hours at 60 Hz) `2·|frame|·1e12 + rate` fits in an i64, and
        // the division in 64 bits is several times faster than in 128 (an awake playback asks
        // for its time every frame). The results are identical.
        const NARROW: i64 = (i64::MAX - u32::MAX as i64) / (2 * TICKS_PER_SECOND);
        if !(-NARROW..=NARROW).contains(&frame) {
            return Ticks::of_frame_wide(frame, rate);
        }
        let (numerator, rate) = (frame * TICKS_PER_SECOND, rate as i64);
        let magnitude = (2 * numerator.abs() + rate) / (2 * rate);
        Ticks(if numerator >= 0 { magnitude } else { -magnitude })
    }

    /// [`Ticks::of_frame`] with an i128 intermediate, for any frame.
    fn of_frame_wide(frame: i64, rate: u32) -> Ticks {
        let numerator = frame as i128 * TICKS_PER_SECOND as i128;
        let rate = rate as i128;
        let rounded =
            if numerator >= 0 { (2 * numerator + rate) / (2 * rate) } else { -((-2 * numerator + rate) / (2 * rate)) };
        Ticks(rounded.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
    }

    /// The smallest frame `f` with `of_frame(f, rate) ≥ self`. For `self = a ≥ 1` that is
    /// `⌈r·(2a − 1) / 2T⌉` (`T` ticks per second): for `f ≥ 0`, `of_frame(f) = ⌊(2f·T + r) / 2r⌋`,
    /// which reaches the whole number `a` exactly when `2f·T + r ≥ 2r·a`. Other times, and
    /// products beyond 64 bits, go through [`Ticks::last_frame_at`].
    pub fn first_frame_from(self, rate: u32) -> i64 {
        let twice_second = 2 * TICKS_PER_SECOND;
        let scaled = (self.0 >= 1).then(|| (2 * (self.0 as i128) - 1) * rate as i128);
        if let Some(scaled) = scaled.and_then(|n| i64::try_from(n).ok()) {
            return scaled / twice_second + i64::from(scaled % twice_second != 0);
        }
        let frame = self.last_frame_at(rate);
        if Ticks::of_frame(frame, rate) < self { frame + 1 } else { frame }
    }

    /// The largest frame `f` with `of_frame(f, rate) ≤ self`: `i64::MAX` for the last tick,
    /// where the time of every later frame saturates (a span that holds for good ends there).
    pub fn last_frame_at(self, rate: u32) -> i64 {
        if self == Ticks(i64::MAX) {
            return i64::MAX;
        }
        let mut frame = (self.0 as i128 * rate as i128).div_euclid(TICKS_PER_SECOND as i128) as i64;
        while Ticks::of_frame(frame + 1, rate) <= self {
            frame += 1;
        }
        while Ticks::of_frame(frame, rate) > self {
            frame -= 1;
        }
        frame
    }
}

/// A logic frame of a clock: its index and the clock's rate. Differences between two frames
/// are computed from their indices (`of_frame(a − b)`), so they are exact — subtracting two
/// rounded frame times could be a tick off.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FrameTime {
    pub frame: i64,
    pub rate: u32,
}

impl FrameTime {
    /// The frame's time.
    pub fn time(self) -> Ticks {
        Ticks::of_frame(self.frame, self.rate)
    }

    /// The time from `earlier` to this frame.
    pub fn since(self, earlier: FrameTime) -> Ticks {
        Ticks::of_frame(self.frame - earlier.frame, self.rate)
    }
}

impl std::ops::Add for Ticks {
    type Output = Ticks;
    fn add(self, rhs: Ticks) -> Ticks {
        Ticks(self.0.saturating_add(rhs.0))
    }
}

impl std::ops::Sub for Ticks {
    type Output = Ticks;
    fn sub(self, rhs: Ticks) -> Ticks {
        Ticks(self.0.saturating_sub(rhs.0))
    }
}

impl fmt::Display for Ticks {
    /// Seconds with six decimals, the way every printed time looks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.6}", self.secs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_round_half_away_from_zero() {
        assert_eq!(Ticks::from_secs(1.5e-12), Ok(Ticks(2)));
        assert_eq!(Ticks::from_secs(-1.5e-12), Ok(Ticks(-2)));
        assert_eq!(Ticks::from_secs(0.25), Ok(Ticks(250_000_000_000)));
    }

    #[test]
    fn non_finite_and_huge_times_are_rejected() {
        assert!(matches!(Ticks::from_secs(f64::NAN), Err(TimeError::NotFinite(_))));
        assert!(matches!(Ticks::from_secs(f64::INFINITY), Err(TimeError::NotFinite(_))));
        assert_eq!(Ticks::from_secs(1e6 + 1.0), Err(TimeError::OutOfRange(1e6 + 1.0)));
        assert!(Ticks::from_secs(-1e6).is_ok());
    }

    #[test]
    fn frame_times_come_from_the_index() {
        assert_eq!(Ticks::of_frame(1, 60), Ticks(16_666_666_667));
        assert_eq!(Ticks::of_frame(2, 60), Ticks(33_333_333_333));
        assert_eq!(Ticks::of_frame(60, 60), Ticks(TICKS_PER_SECOND));
        assert_eq!(Ticks::of_frame(-1, 60), Ticks(-16_666_666_667));
        assert_eq!(Ticks::of_frame(3, 64), Ticks(46_875_000_000));
    }

    #[test]
    fn narrow_and_wide_frame_times_agree() {
        // The narrow range ends near ±4.6e6 frames; the wide path takes over past it.
        let edge = (i64::MAX - u32::MAX as i64) / (2 * TICKS_PER_SECOND);
        let frames = [0, 1, -1, 59, 12_345, -987_654, edge - 1, edge, edge + 1, -edge, -edge - 1, i64::MAX, i64::MIN];
        for rate in [1, 7, 24, 30, 60, 64, 120, 1000, u32::MAX] {
            for frame in frames {
                assert_eq!(Ticks::of_frame(frame, rate), Ticks::of_frame_wide(frame, rate), "{frame} at {rate} Hz");
            }
        }
    }

    #[test]
    fn first_frame_from_is_the_first_frame_at_or_after() {
        let brute = |t: Ticks, rate: u32| {
            let frame = t.last_frame_at(rate);
            if Ticks::of_frame(frame, rate) < t { frame + 1 } else { frame }
        };
        for rate in [1, 7, 24, 30, 60, 64, 120, 1000, 100_000] {
            for frame in -3..400 {
                let t = Ticks::of_frame(frame, rate);
                for t in [t - Ticks(1), t, t + Ticks(1)] {
                    assert_eq!(t.first_frame_from(rate), brute(t, rate), "{t:?} at {rate} Hz");
                }
            }
            for t in [Ticks(i64::MAX / 4), Ticks(i64::MAX / rate as i64 / 2 + 7), Ticks(4 * 10i64.pow(17))] {
                assert_eq!(t.first_frame_from(rate), brute(t, rate), "{t:?} at {rate} Hz");
            }
        }
    }

    #[test]
    fn last_frame_at_inverts_of_frame() {
        for rate in [24, 30, 60, 64, 120, 7] {
            for frame in -5..500 {
                let t = Ticks::of_frame(frame, rate);
                assert_eq!(t.last_frame_at(rate), frame);
                assert_eq!((t - Ticks(1)).last_frame_at(rate), frame - 1);
            }
        }
        // The ends of time: every frame is at or before the last tick (a span that holds for
        // good ends there), and the first tick is only reached from its own frames on.
        for rate in [1, 60, 100_000] {
            assert_eq!(Ticks(i64::MAX).last_frame_at(rate), i64::MAX);
            assert_eq!(Ticks(i64::MAX).first_frame_from(rate), i64::MAX);
            let frame = Ticks(i64::MIN).last_frame_at(rate);
            assert!(
                Ticks::of_frame(frame, rate) == Ticks(i64::MIN) && Ticks::of_frame(frame + 1, rate) > Ticks(i64::MIN)
            );
            assert!(Ticks::of_frame(Ticks(i64::MIN).first_frame_from(rate), rate) >= Ticks(i64::MIN));
        }
        // Times whose product with the rate leaves 64 bits, on either side.
        for rate in [60, 100_000] {
            for t in [
                Ticks(i64::MAX / rate - 1),
                Ticks(i64::MAX / rate + 1),
                Ticks(4 * 10i64.pow(17)),
                Ticks(-(10i64.pow(17))),
            ] {
                let frame = t.last_frame_at(rate as u32);
                assert!(
                    Ticks::of_frame(frame, rate as u32) <= t && t < Ticks::of_frame(frame + 1, rate as u32),
                    "{t:?}"
                );
            }
        }
    }
}
