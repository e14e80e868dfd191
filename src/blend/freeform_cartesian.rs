//! `2d_freeform_cartesian` blend trees (Unity's FreeformCartesian2D): gradient bands
//! (Johansen 2009) over two independent axes, for parameters that are not a direction and a
//! speed (lean × speed, turn × pitch).

use super::Layout2d;
use super::band::{self, Band};
use super::geometry::{Point, dot, sub};

/// The band of child `i` against child `j` as a precomputed vector:
/// `h_ij(p) = 1 − (p − P_i)·scaled` with `scaled = (P_j − P_i)/|P_j − P_i|²`.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Pair {
    other: usize,
    scaled: Point,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FreeformCartesian {
    positions: Vec<Point>,
    /// Row `i` (`n − 1` pairs, `j` ascending) holds child `i`'s bands against every other
    /// child.
    pairs: Vec<Pair>,
}

impl FreeformCartesian {
    /// Children at distinct positions (validation rejects two at one position).
    pub fn new(positions: Vec<Point>) -> Self {
        let mut pairs = Vec::with_capacity(positions.len() * positions.len().saturating_sub(1));
        for (i, &pi) in positions.iter().enumerate() {
            for (j, &pj) in positions.iter().enumerate().filter(|(j, _)| *j != i) {
                let d = sub(pj, pi);
                let len2 = dot(d, d);
                pairs.push(Pair { other: j, scaled: [d[0] / len2, d[1] / len2] });
            }
        }
        FreeformCartesian { positions, pairs }
    }

    /// Child `i`'s gradient-band value at `p` (REFERENCE §2.3):
    /// `h_ij = 1 − (p − P_i)·(P_j − P_i)/|P_j − P_i|²` for every other child `j` **(ours: all
    /// `j`, where Unity uses precomputed neighbours; ordinary layouts agree)**; the value is
    /// `min(1, min_j h_ij)`, or 0 if any `h_ij ≤ 0` (REFERENCE says `< 0`; at `h = 0` both give 0).
    pub fn band(&self, i: usize, p: Point) -> Band {
        let offset = sub(p, self.positions[i]);
        let others = self.positions.len() - 1;
        let row = &self.pairs[i * others..(i + 1) * others];
        band::fold(1.0, row.iter().map(|pair| (pair.other, 1.0 - dot(offset, pair.scaled))))
    }

    /// Every child's band at `p`, for explanations.
    pub fn bands(&self, p: Point) -> Vec<Band> {
        (0..self.positions.len()).map(|i| self.band(i, p)).collect()
    }
}

impl Layout2d for FreeformCartesian {
    fn positions(&self) -> &[Point] {
        &self.positions
    }

    /// Child weights for input `p`, written to `out`: the band values divided by their sum;
    /// if the sum is 0 the nearest child gets 1 **(ours; with distinct positions it never
    /// is: the nearest child's bands are all ≥ 1/2)**. At a child's position: exactly 1.
    fn weights(&self, p: Point, out: &mut [f64]) {
        if band::exact_at_sample(&self.positions, p, out) {
            return;
        }
        for (i, w) in out.iter_mut().enumerate() {
            *w = self.band(i, p).value;
        }
        if !super::normalize(out) {
            let nearest = (0..self.positions.len())
                .min_by(|&a, &b| {
                    let (da, db) = (sub(p, self.positions[a]), sub(p, self.positions[b]));
                    dot(da, da).total_cmp(&dot(db, db))
                })
                .unwrap_or(0);
            out.fill(0.0);
            if let Some(w) = out.get_mut(nearest) {
                *w = 1.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blend::band::Limit;
    use crate::blend::testing::{assert_exact_at_positions, assert_near, at};

    /// P0 (0,0), P1 (1,0), P2 (0,1), P3 (1,1).
    fn unit_square() -> FreeformCartesian {
        FreeformCartesian::new(vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    }

    #[test]
    fn reference_numbers() {
        // REFERENCE §2.3.
        let square = unit_square();
        assert_near(&at(&square, [0.25, 0.5]), &[1.0 / 3.0, 1.0 / 6.0, 1.0 / 3.0, 1.0 / 6.0]);
        assert_near(&at(&square, [0.5, 0.5]), &[0.25; 4]);
        assert_near(&at(&square, [1.5, 0.5]), &[0.0, 0.5, 0.0, 0.5]);
    }

    #[test]
    fn bands_name_the_limiting_neighbour() {
        let bands = unit_square().bands([0.25, 0.5]);
        assert_eq!(bands[0].limit, Limit::Neighbour { child: 2, h: 0.5 });
        assert_eq!(bands[1].limit, Limit::Neighbour { child: 0, h: 0.25 });
        let far = unit_square().bands([1.5, 0.5]);
        assert!(matches!(far[0].limit, Limit::Neighbour { child: 1, h } if h < 0.0));
        assert_eq!(far[0].value, 0.0);
    }

    #[test]
    fn one_child_has_weight_one_everywhere() {
        let single = FreeformCartesian::new(vec![[0.3, -2.0]]);
        assert_eq!(at(&single, [5.0, 5.0]), [1.0]);
    }

    #[test]
    fn each_child_gets_exactly_one_at_its_position() {
        let layout = FreeformCartesian::new(vec![[0.0, 0.0], [0.7, 0.1], [-0.3, 1.9], [2.0, 2.0], [-1.0, -1.5]]);
        assert_exact_at_positions(&layout);
    }
}
