//! Parameter shaping before blending (REFERENCE §2.7): SmoothDamp smoothing once per logic
//! frame, the dead zone, and the optional piecewise-linear curve.
//!
//! A 2D tree reads its two parameters as one stick: the dead zone is radial, `|p| < zone`
//! → (0, 0), with `zone` the larger of the two parameters' `dead_zone`s, so either
//! parameter declaring one gives the stick one (per-axis zones would cut a cross out of the
//! plane, which no engine does). The curves then apply per axis, as in 1D.

use crate::compile::Parameter;

/// One actor's state of one parameter: what was set, and the smoothed value with its
/// SmoothDamp velocity.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ParamState {
    pub raw: f64,
    pub smoothed: f64,
    pub velocity: f64,
}

impl ParamState {
    /// A parameter at its default, at rest.
    pub fn at_default(param: &Parameter) -> Self {
        ParamState { raw: param.default, smoothed: param.default, velocity: 0.0 }
    }

    /// One logic frame of smoothing toward `raw`: SmoothDamp when the parameter has a
    /// `smooth_time` (0 included: it smooths over the shortest time, 1e-4 s), none without one.
    pub fn smooth(&mut self, param: &Parameter, dt: f64) {
        if let Some(smooth_time) = param.smooth_time {
            let (value, velocity) =
                smooth_damp(self.smoothed, self.raw, self.velocity, smooth_time, param.max_speed, dt);
            self.smoothed = value;
            self.velocity = velocity;
        } else {
            self.smoothed = self.raw;
            self.velocity = 0.0;
        }
    }

    /// The value a tree blends with: the smoothed value through the dead zone, then the curve.
    pub fn blend_input(&self, param: &Parameter) -> f64 {
        apply_curve(&param.curve, dead_zone(self.smoothed, param.dead_zone))
    }
}

/// Every actor's parameter states, actor after actor, each actor's by parameter id: one
/// block that setting inputs and a frame's trees read in actor order, without touching the
/// actors themselves (see [`crate::graph::rows`]).
#[derive(Clone, Debug, Default)]
pub struct ParamTable {
    states: Vec<ParamState>,
    /// How many parameters each actor has: the snapshot's.
    stride: usize,
}

/// A [`ParamTable`] to read in a loop: its states and stride copied out of it, they stay in
/// registers, where through a `&ParamTable` the loop reads them again after each number it
/// writes (LLVM cannot tell the two apart).
#[derive(Copy, Clone)]
pub struct ParamRows<'a> {
    states: &'a [ParamState],
    stride: usize,
}

impl<'a> ParamRows<'a> {
    /// The parameters of actor `actor`, by parameter id.
    #[inline(always)]
    pub fn of(self, actor: usize) -> &'a [ParamState] {
        &self.states[actor * self.stride..][..self.stride]
    }
}

impl ParamTable {
    /// A table for actors with `stride` parameters each, none yet.
    pub fn new(stride: usize) -> Self {
        ParamTable { states: Vec::new(), stride }
    }

    /// The parameters of actor `actor`, by parameter id.
    #[inline(always)]
    pub fn of(&self, actor: usize) -> &[ParamState] {
        self.rows().of(actor)
    }

    /// The table to read in a loop ([`ParamRows`]).
    #[inline(always)]
    pub fn rows(&self) -> ParamRows<'_> {
        ParamRows { states: &self.states, stride: self.stride }
    }

    /// [`ParamTable::of`], to change them.
    #[inline(always)]
    pub fn of_mut(&mut self, actor: usize) -> &mut [ParamState] {
        &mut self.states[actor * self.stride..][..self.stride]
    }

    /// Adds the next actor's parameters, which must number `stride`.
    pub fn push(&mut self, states: impl IntoIterator<Item = ParamState>) {
        let before = self.states.len();
        self.states.extend(states);
        debug_assert_eq!(self.states.len() - before, self.stride, "one state per parameter");
    }

    /// Every actor's states, the states of actor after actor in turn (none without
    /// parameters).
    pub fn all_mut(&mut self) -> std::slice::ChunksExactMut<'_, ParamState> {
        self.states.chunks_exact_mut(self.stride.max(1))
    }
}

/// The `[x, y]` a 2D tree blends with: the smoothed pair through the radial dead zone
/// (`|(x, y)| < max(dead_zone_x, dead_zone_y)` → (0, 0)), then each axis through its curve.
pub fn blend_input_2d(states: (&ParamState, &ParamState), settings: (&Parameter, &Parameter)) -> [f64; 2] {
    let (x, y) = (states.0.smoothed, states.1.smoothed);
    let zone = settings.0.dead_zone.max(settings.1.dead_zone);
    let (x, y) = if x.hypot(y) < zone { (0.0, 0.0) } else { (x, y) };
    [apply_curve(&settings.0.curve, x), apply_curve(&settings.1.curve, y)]
}

/// Unity's `Mathf.SmoothDamp`, returning `(value, velocity)`:
/// `st = max(1e-4, smooth_time); ω = 2/st; x = ω·dt; e = 1/(1 + x + 0.48x² + 0.235x³);
/// change = clamp(cur − target, ±max_speed·st); temp = (vel + ω·change)·dt;
/// vel' = (vel − ω·temp)·e; out = (cur − change) + (change + temp)·e`, and no overshoot:
/// if `(target − cur > 0) == (out > target)` then `out = target, vel' = 0`.
pub fn smooth_damp(current: f64, target: f64, velocity: f64, smooth_time: f64, max_speed: f64, dt: f64) -> (f64, f64) {
    let smooth_time = smooth_time.max(1e-4);
    let omega = 2.0 / smooth_time;
    let x = omega * dt;
    let exp = 1.0 / (1.0 + x + 0.48 * x * x + 0.235 * x * x * x);
    let max_change = max_speed * smooth_time;
    let change = (current - target).clamp(-max_change, max_change);
    let clamped_target = current - change;
    let temp = (velocity + omega * change) * dt;
    let mut velocity = (velocity - omega * temp) * exp;
    let mut output = clamped_target + (change + temp) * exp;
    if (target - current > 0.0) == (output > target) {
        output = target;
        velocity = 0.0;
    }
    (output, velocity)
}

/// `|x| < zone` reads as 0; other values pass unchanged.
pub fn dead_zone(x: f64, zone: f64) -> f64 {
    if x.abs() < zone { 0.0 } else { x }
}

/// Piecewise-linear remap through `points` (strictly increasing inputs), clamped to the first
/// and last outputs outside the range; the identity when there are no points.
#[inline]
pub fn apply_curve(points: &[(f64, f64)], x: f64) -> f64 {
    let (Some(first), Some(last)) = (points.first(), points.last()) else { return x };
    // Not above the first input (a NaN included, as a `1d` tree reads a NaN as its lowest
    // threshold): the first output.
    if x.is_nan() || x <= first.0 {
        return first.1;
    }
    if x >= last.0 {
        return last.1;
    }
    let i = points.partition_point(|p| p.0 <= x);
    let (x0, y0) = points[i - 1];
    let (x1, y1) = points[i];
    y0 + (y1 - y0) * (x - x0) / (x1 - x0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_clamps_outside_its_points_and_reads_a_nan_as_below_them() {
        let curve = [(0.0, 0.0), (1.0, 10.0), (2.0, 40.0)];
        let table = [(-1.0, 0.0), (0.0, 0.0), (0.5, 5.0), (1.5, 25.0), (2.0, 40.0), (9.0, 40.0), (f64::NAN, 0.0)];
        for (x, y) in table {
            assert_eq!(apply_curve(&curve, x), y, "at {x}");
        }
        assert!(apply_curve(&[], f64::NAN).is_nan(), "no curve: the input as it is");
    }

    #[test]
    fn smooth_damp_matches_the_reference_numbers() {
        // REFERENCE §2.7: 0 → 10, smooth_time 0.3, dt 0.1.
        let (mut value, mut velocity) = (0.0, 0.0);
        let mut seen = Vec::new();
        for _ in 0..4 {
            (value, velocity) = smooth_damp(value, 10.0, velocity, 0.3, f64::INFINITY, 0.1);
            seen.push(value);
            if seen.len() == 1 {
                assert!((velocity - 22.796353).abs() < 1e-6, "{velocity}");
            }
        }
        for (got, want) in seen.iter().zip([1.451368, 3.861355, 5.951773, 7.462167]) {
            assert!((got - want).abs() < 1e-6, "{got} vs {want}");
        }
    }

    #[test]
    fn a_smooth_time_of_0_still_smooths_over_1e_4_s() {
        // REFERENCE §2.7 (`st = max(1e-4, smooth_time)`): 0 → 10 at 60 Hz, smooth_time 0.
        let param = Parameter {
            name: "speed".into(),
            default: 0.0,
            smooth_time: Some(0.0),
            max_speed: f64::INFINITY,
            dead_zone: 0.0,
            curve: Vec::new(),
        };
        let mut state = ParamState { raw: 10.0, smoothed: 0.0, velocity: 0.0 };
        let mut seen = Vec::new();
        for _ in 0..3 {
            state.smooth(&param, 1.0 / 60.0);
            seen.push((state.smoothed, state.velocity));
        }
        assert!((seen[0].0 - 9.99961822638416).abs() < 1e-12, "{:?}", seen[0]);
        assert!((seen[0].1 - 7.6126344).abs() < 1e-6, "{:?}", seen[0]);
        assert!((seen[1].0 - 9.99999999991294).abs() < 1e-12, "{:?}", seen[1]);
        assert_eq!(seen[2].0, 10.0);
        // Without a smooth_time the parameter is at its value at once.
        let mut plain = ParamState { raw: 10.0, smoothed: 0.0, velocity: 0.0 };
        plain.smooth(&Parameter { smooth_time: None, ..param }, 1.0 / 60.0);
        assert_eq!((plain.smoothed, plain.velocity), (10.0, 0.0));
    }

    #[test]
    fn smooth_damp_respects_max_speed_and_never_overshoots() {
        let (value, _) = smooth_damp(0.0, 10.0, 0.0, 0.3, 1.0, 0.1);
        assert!(value < 0.3, "{value}");
        let (value, velocity) = smooth_damp(9.999, 10.0, 50.0, 0.3, f64::INFINITY, 0.1);
        assert_eq!((value, velocity), (10.0, 0.0));
    }

    #[test]
    fn the_2d_dead_zone_is_radial_with_the_larger_zone() {
        let setting = |dead_zone: f64| Parameter {
            name: String::new(),
            default: 0.0,
            smooth_time: None,
            max_speed: f64::INFINITY,
            dead_zone,
            curve: Vec::new(),
        };
        let (px, py) = (setting(0.05), setting(0.1));
        let at = |x: f64, y: f64| {
            let state = |v: f64| ParamState { raw: v, smoothed: v, velocity: 0.0 };
            blend_input_2d((&state(x), &state(y)), (&px, &py))
        };
        assert_eq!(at(0.06, 0.07), [0.0, 0.0], "inside the y parameter's (larger) zone");
        assert_eq!(at(0.08, 0.07), [0.08, 0.07], "|p| ≥ 0.1: each axis passes, even x < 0.1");
        assert_eq!(at(0.0, 0.1), [0.0, 0.1]);
    }

    #[test]
    fn dead_zone_and_curve() {
        assert_eq!(dead_zone(0.04, 0.05), 0.0);
        assert_eq!(dead_zone(-0.04, 0.05), 0.0);
        assert_eq!(dead_zone(0.05, 0.05), 0.05);
        let curve = [(0.0, 0.0), (0.5, 0.8), (1.0, 1.0)];
        assert_eq!(apply_curve(&curve, -1.0), 0.0);
        assert!((apply_curve(&curve, 0.25) - 0.4).abs() < 1e-12);
        assert!((apply_curve(&curve, 0.75) - 0.9).abs() < 1e-12);
        assert_eq!(apply_curve(&curve, 2.0), 1.0);
        assert_eq!(apply_curve(&[], 0.3), 0.3);
    }
}
