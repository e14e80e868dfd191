//! Plane vectors for the 2D blend trees: positions and parameters are `[x, y]` pairs, and
//! these are the few operations the weight formulas are written in.

/// A point or vector of the parameter plane, `[x, y]`.
pub type Point = [f64; 2];

pub const ORIGIN: Point = [0.0, 0.0];

pub fn sub(a: Point, b: Point) -> Point {
    [a[0] - b[0], a[1] - b[1]]
}

pub fn dot(a: Point, b: Point) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// The z component of `a × b`: `a.x·b.y − a.y·b.x` (> 0 when `b` is counter-clockwise of `a`).
pub fn cross(a: Point, b: Point) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

pub fn length(a: Point) -> f64 {
    a[0].hypot(a[1])
}

/// The signed angle from `a` to `b` in radians, in `[−π, π]`: its size is the angle between
/// them and it is negative only when `cross(a, b) < 0` — Unity's convention, so exactly
/// opposite vectors give `+π`.
pub fn signed_angle(a: Point, b: Point) -> f64 {
    let c = cross(a, b);
    let angle = c.abs().atan2(dot(a, b));
    if c < 0.0 { -angle } else { angle }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    #[test]
    fn signed_angles_follow_unitys_sign_rule() {
        assert_eq!(signed_angle([1.0, 0.0], [0.0, 1.0]), FRAC_PI_2);
        assert_eq!(signed_angle([1.0, 0.0], [0.0, -1.0]), -FRAC_PI_2);
        assert_eq!(signed_angle([1.0, 0.0], [-1.0, 0.0]), PI);
        assert_eq!(signed_angle([-1.0, 0.0], [1.0, 0.0]), PI, "−0 cross still counts as not negative");
        assert_eq!(signed_angle([0.0, 2.0], [0.0, 1.0]), 0.0);
    }
}
