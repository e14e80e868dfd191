//! `2d_freeform_directional` blend trees (Unity's FreeformDirectional2D): gradient bands in
//! polar space (angle, magnitude), for a direction × speed input where one direction may
//! hold several speeds (walk and run forward).

use std::f64::consts::{PI, TAU};

use super::Layout2d;
use super::band::{self, Band};
use super::geometry::{ORIGIN, Point, length};

/// The band of child `i` against child `j`, precomputed: `vector = vIJ` as far as it does not
/// depend on the input, and `avg_inv = AM(i, j) = 2/(m_i + m_j)`.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Pair {
    other: usize,
    vector: Point,
    avg_inv: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FreeformDirectional {
    positions: Vec<Point>,
    /// `m_i = |P_i|`.
    magnitudes: Vec<f64>,
    /// The polar angle of each position (`atan2`; 0 for the centre child).
    polar: Vec<f64>,
    /// The child at (0, 0), if any (validation allows at most one).
    centre: Option<usize>,
    /// Row `i` (`n − 1` pairs, `j` ascending) holds child `i`'s bands against every other
    /// child.
    pairs: Vec<Pair>,
}

/// The signed angle `θ(a → b)` from polar angle `a` to polar angle `b`: their difference
/// wrapped into `(−π, π]`, so exactly opposite directions give `+π`, as in Unity.
fn turn(a: f64, b: f64) -> f64 {
    let d = b - a;
    if d > PI {
        d - TAU
    } else if d <= -PI {
        d + TAU
    } else {
        d
    }
}

impl FreeformDirectional {
    /// Children at distinct positions (validation rejects two at one position).
    pub fn new(positions: Vec<Point>) -> Self {
        let magnitudes: Vec<f64> = positions.iter().map(|&q| length(q)).collect();
        let polar: Vec<f64> = positions.iter().map(|q| q[1].atan2(q[0])).collect();
        let mut pairs = Vec::with_capacity(positions.len() * positions.len().saturating_sub(1));
        for i in 0..positions.len() {
            for j in (0..positions.len()).filter(|&j| j != i) {
                let (mi, mj) = (magnitudes[i], magnitudes[j]);
                let avg_inv = 2.0 / (mi + mj);
                let angle = if mi == 0.0 || mj == 0.0 { 0.0 } else { turn(polar[i], polar[j]) };
                pairs.push(Pair { other: j, vector: [angle, (mj - mi) * avg_inv], avg_inv });
            }
        }
        let centre = positions.iter().position(|&q| q == ORIGIN);
        FreeformDirectional { positions, magnitudes, polar, centre, pairs }
    }

    /// `W_k.x` for every child, written to `angles`: `θ(P_k → p)` ([`turn`]), or 0 when
    /// `p = 0` or `P_k = 0`. One `atan2` per evaluation instead of one per child.
    fn input_angles(&self, p: Point, angles: &mut [f64]) {
        let to_input = p[1].atan2(p[0]);
        for (k, (angle, &polar)) in angles.iter_mut().zip(&self.polar).enumerate() {
            *angle = if p == ORIGIN || Some(k) == self.centre { 0.0 } else { turn(polar, to_input) };
        }
    }

    /// Child `i`'s gradient-band value at `p` (REFERENCE §2.4), given `angles[k] = W_k.x`
    /// for every child (only `angles[i]` is read unless `i` is the centre child). With
    /// `W_i = (W_i.x, |p| − m_i)`, for every other child `j` **(ours: all `j`, where Unity
    /// uses precomputed neighbours)**: `vIJ = (θ(P_i→P_j) or 0 if m_i or m_j is 0,
    /// (m_j − m_i)·AM(i,j))`, `vIO = (W_i.x, W_i.y·AM(i,j))`; if `P_i = 0`: `vIJ.x = W_j.x`;
    /// elif `P_j = 0`: `vIJ.x = W_i.x`; elif `vIJ.x = 0` or `p = 0`: `vIO.x = vIJ.x`;
    /// `h_ij = 1 − (vIJ·vIO)/|vIJ|²`. The value starts at `1 − |W_i.x|/π` (angle factor 1,
    /// as in Unity), is lowered to `min_j h_ij`, and is 0 if any `h_ij ≤ 0`.
    pub fn band(&self, i: usize, p: Point, angles: &[f64]) -> Band {
        self.band_at(i, p == ORIGIN, length(p), angles)
    }

    /// [`FreeformDirectional::band`] with `p = 0` and `|p|` worked out once per evaluation.
    fn band_at(&self, i: usize, p_zero: bool, p_length: f64, angles: &[f64]) -> Band {
        let w = [angles[i], p_length - self.magnitudes[i]];
        let others = self.positions.len() - 1;
        let row = &self.pairs[i * others..(i + 1) * others];
        let bands = row.iter().map(|pair| {
            let mut vij = pair.vector;
            let mut vio = [w[0], w[1] * pair.avg_inv];
            if Some(i) == self.centre {
                vij[0] = angles[pair.other];
            } else if Some(pair.other) == self.centre {
                vij[0] = w[0];
            } else if vij[0] == 0.0 || p_zero {
                vio[0] = vij[0];
            }
            let h = 1.0 - (vij[0] * vio[0] + vij[1] * vio[1]) / (vij[0] * vij[0] + vij[1] * vij[1]);
            (pair.other, h)
        });
        band::fold(1.0 - w[0].abs() / PI, bands)
    }

    /// Every child's band at `p`, for explanations.
    pub fn bands(&self, p: Point) -> Vec<Band> {
        let mut angles = vec![0.0; self.positions.len()];
        self.input_angles(p, &mut angles);
        (0..self.positions.len()).map(|i| self.band(i, p, &angles)).collect()
    }
}

impl Layout2d for FreeformDirectional {
    fn positions(&self) -> &[Point] {
        &self.positions
    }

    /// Child weights for input `p`, written to `out`: the band values divided by their sum,
    /// or `1/n` each when the sum is 0. At a child's position: exactly 1.
    fn weights(&self, p: Point, out: &mut [f64]) {
        if band::exact_at_sample(&self.positions, p, out) {
            return;
        }
        // `out` holds the angles W_k.x first, so evaluation allocates nothing. The centre
        // child reads every angle, so its band is taken first; any other child reads only
        // its own angle, which is still in place when its band replaces it.
        self.input_angles(p, out);
        let (p_zero, p_length) = (p == ORIGIN, length(p));
        let centre = self.centre.map(|c| (c, self.band_at(c, p_zero, p_length, out).value));
        for i in 0..out.len() {
            if Some(i) != self.centre {
                let value = self.band_at(i, p_zero, p_length, out).value;
                out[i] = value;
            }
        }
        if let Some((c, value)) = centre {
            out[c] = value;
        }
        if !super::normalize(out) {
            let share = 1.0 / out.len() as f64;
            out.fill(share);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blend::band::Limit;
    use crate::blend::testing::{assert_exact_at_positions, assert_near, at};

    /// Idle (0,0), walkF (0,1), runF (0,2), R (1,0), L (−1,0).
    fn strafe() -> FreeformDirectional {
        FreeformDirectional::new(vec![[0.0, 0.0], [0.0, 1.0], [0.0, 2.0], [1.0, 0.0], [-1.0, 0.0]])
    }

    #[test]
    fn reference_numbers() {
        // REFERENCE §2.4.
        assert_near(&at(&strafe(), [0.0, 1.5]), &[0.0, 0.5, 0.5, 0.0, 0.0]);
    }

    #[test]
    fn bands_explain_the_reference_case() {
        // Worked by hand: idle is cut by walkF (h = −0.5); walkF and runF are both limited
        // by each other (h = 0.5); R and L are cut by walkF (h = 0).
        let limits: Vec<(usize, f64)> = strafe()
            .bands([0.0, 1.5])
            .iter()
            .map(|b| match b.limit {
                Limit::Neighbour { child, h } => (child, h),
                Limit::Start => panic!("every child is limited by a neighbour here: {b:?}"),
            })
            .collect();
        for ((child, h), (want_child, want_h)) in limits.iter().zip([(1, -0.5), (2, 0.5), (1, 0.5), (1, 0.0), (1, 0.0)])
        {
            assert_eq!(*child, want_child, "{limits:?}");
            assert!((h - want_h).abs() < 1e-12, "{limits:?}");
        }
    }

    #[test]
    fn turns_follow_unitys_sign_rule() {
        assert_eq!(turn(0.0, PI / 2.0), PI / 2.0);
        assert_eq!(turn(PI, 0.0), PI, "exactly opposite is +π");
        assert_eq!(turn(0.0, PI), PI);
        assert!((turn(3.0, -3.0) - (TAU - 6.0)).abs() < 1e-15, "the short way round");
    }

    #[test]
    fn the_centre_child_takes_the_origin() {
        assert_eq!(at(&strafe(), [0.0, 0.0]), [1.0, 0.0, 0.0, 0.0, 0.0]);
        let w = at(&strafe(), [1e-9, 0.0]);
        assert!(w[0] > 0.999_999, "{w:?}");
    }

    #[test]
    fn without_a_centre_child_the_origin_is_a_jump() {
        // Documented discontinuity: at (0, 0) every band is 0 (1/n each); a hair away,
        // the nearest direction takes everything.
        let hollow = FreeformDirectional::new(vec![[0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]]);
        assert_eq!(at(&hollow, [0.0, 0.0]), [1.0 / 3.0; 3]);
        assert_eq!(at(&hollow, [0.0, 1e-9]), [1.0, 0.0, 0.0]);
    }

    #[test]
    fn weights_are_a_partition_of_one() {
        let layout = strafe();
        for p in [[0.3, 0.6], [-0.7, 1.2], [2.0, -3.0], [0.0, -1.0], [5.0, 0.1]] {
            let w = at(&layout, p);
            assert!(w.iter().all(|&v| v >= 0.0), "{p:?}: {w:?}");
            assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{p:?}: {w:?}");
        }
    }

    #[test]
    fn each_child_gets_exactly_one_at_its_position() {
        let layout = strafe();
        assert_exact_at_positions(&layout);
    }
}
