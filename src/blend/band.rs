//! Gradient bands (Johansen 2009), shared by the two freeform types. Each child starts at a
//! value (1, or an angle term for the directional variant); every other child `j` has a band
//! `h_ij` over the parameter plane that lowers it to `min(value, h_ij)`, and any band `≤ 0`
//! cuts the child to 0. The weights are the children's values divided by their sum
//! ([`super::normalize`]).

use super::geometry::Point;

/// What set a child's gradient-band value.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Limit {
    /// No band went below the start value.
    Start,
    /// The band `h` against child `child` was the smallest, or the first one `≤ 0` (which
    /// cuts the value to 0; the remaining bands are not evaluated, as in Unity).
    Neighbour { child: usize, h: f64 },
}

/// One child's gradient-band value before normalization, and what set it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Band {
    pub value: f64,
    pub limit: Limit,
}

/// Folds the bands `(j, h_ij)` of one child into its value: `start`, lowered to each smaller
/// `h_ij`, and 0 at the first `h_ij ≤ 0`.
pub fn fold(start: f64, bands: impl Iterator<Item = (usize, f64)>) -> Band {
    let mut band = Band { value: start, limit: Limit::Start };
    for (child, h) in bands {
        if h <= 0.0 {
            return Band { value: 0.0, limit: Limit::Neighbour { child, h } };
        }
        if h < band.value {
            band = Band { value: h, limit: Limit::Neighbour { child, h } };
        }
    }
    band
}

/// At a child's own position the bands give it exactly 1 and every other child 0, but
/// rounding in `h` can leave crumbs of 1e-16; this writes that one-hot result exactly.
/// Returns false, writing nothing, when `p` is not a child's position.
pub fn exact_at_sample(positions: &[Point], p: Point, out: &mut [f64]) -> bool {
    let Some(sample) = positions.iter().position(|&q| q == p) else { return false };
    out.fill(0.0);
    out[sample] = 1.0;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_keeps_the_smallest_band_and_cuts_at_zero() {
        assert_eq!(fold(1.0, [].into_iter()), Band { value: 1.0, limit: Limit::Start });
        let lowered = fold(1.0, [(1, 0.7), (2, 0.4), (3, 0.9)].into_iter());
        assert_eq!(lowered, Band { value: 0.4, limit: Limit::Neighbour { child: 2, h: 0.4 } });
        let cut = fold(0.5, [(1, 0.7), (2, 0.0), (3, -1.0)].into_iter());
        assert_eq!(cut, Band { value: 0.0, limit: Limit::Neighbour { child: 2, h: 0.0 } });
    }
}
