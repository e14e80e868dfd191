//! `2d_simple_directional` blend trees (Unity's SimpleDirectional2D): children are directions
//! around an optional centre child at (0, 0); an input blends the two directions either
//! side of it and the centre, by barycentric coordinates in the triangle (0, A, B).

use super::Layout2d;
use super::geometry::{ORIGIN, Point, cross, dot, length, signed_angle};

/// The children's positions, with what the weights need precomputed.
#[derive(Clone, Debug, PartialEq)]
pub struct SimpleDirectional {
    positions: Vec<Point>,
    /// Each position divided by its length (the centre child: (0, 0)).
    directions: Vec<Point>,
    /// The child at (0, 0), if any (validation allows at most one).
    centre: Option<usize>,
}

/// How an input was blended: the direction on each side of it with its barycentric weight,
/// and the centre weight `c`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Solution {
    /// A: among children with `cross(q, p) > 0` (clockwise of the input), the largest `q·p`.
    pub clockwise: Option<(usize, f64)>,
    /// B: among children with `cross(q, p) ≤ 0` (counter-clockwise of or on the input), the
    /// largest `q·p`.
    pub counter_clockwise: Option<(usize, f64)>,
    /// `c`: the centre child's weight, or shared as `c/n` by every child when there is none.
    pub centre: f64,
}

impl SimpleDirectional {
    pub fn new(positions: Vec<Point>) -> Self {
        let directions = positions
            .iter()
            .map(|&q| {
                let len = length(q);
                if len > 0.0 { [q[0] / len, q[1] / len] } else { ORIGIN }
            })
            .collect();
        let centre = positions.iter().position(|&q| q == ORIGIN);
        SimpleDirectional { positions, directions, centre }
    }

    /// The neighbours and barycentric weights of input `p` (REFERENCE §2.2):
    /// at `p = (0, 0)`, `c = 1` with no neighbours. Otherwise A and B as in [`Solution`]
    /// (ties keep the first child, as Unity does); if either is missing `c = 1`. Else with
    /// `det = b.y·a.x − b.x·a.y`: `wA = (b.y·p.x − b.x·p.y)/det`, `wB = (a.x·p.y − a.y·p.x)/det`,
    /// `c = 1 − wA − wB`; `c < 0` → `c = 0` and `wA, wB` divided by `wA + wB`; `c > 1` →
    /// `c = 1, wA = wB = 0`. `det = 0` (A and B exactly opposite, which `check` warns about)
    /// gives `c = 1, wA = wB = 0` **(ours: Unity divides by zero)**.
    pub fn solve(&self, p: Point) -> Solution {
        let mut solution = Solution { clockwise: None, counter_clockwise: None, centre: 1.0 };
        if p == ORIGIN {
            return solution;
        }
        let (mut best_a, mut best_b) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        let (mut a, mut b) = (None, None);
        for (i, &q) in self.directions.iter().enumerate() {
            if Some(i) == self.centre {
                continue;
            }
            let d = dot(q, p);
            let (best, index) = if cross(q, p) > 0.0 { (&mut best_a, &mut a) } else { (&mut best_b, &mut b) };
            if d > *best {
                *best = d;
                *index = Some(i);
            }
        }
        let (Some(a), Some(b)) = (a, b) else { return solution };
        let (pa, pb) = (self.positions[a], self.positions[b]);
        let det = pb[1] * pa[0] - pb[0] * pa[1];
        let (mut wa, mut wb) = (0.0, 0.0);
        if det != 0.0 {
            wa = (pb[1] * p[0] - pb[0] * p[1]) / det;
            wb = (pa[0] * p[1] - pa[1] * p[0]) / det;
            solution.centre = 1.0 - wa - wb;
            if solution.centre < 0.0 {
                solution.centre = 0.0;
                let sum = wa + wb;
                wa /= sum;
                wb /= sum;
            } else if solution.centre > 1.0 {
                solution.centre = 1.0;
                wa = 0.0;
                wb = 0.0;
            }
        }
        solution.clockwise = Some((a, wa));
        solution.counter_clockwise = Some((b, wb));
        solution
    }
}

impl Layout2d for SimpleDirectional {
    fn positions(&self) -> &[Point] {
        &self.positions
    }

    /// Child weights for input `p`, written to `out`: A and B get their weights from
    /// [`SimpleDirectional::solve`], the centre child gets `c`, or with no centre child
    /// every child gets `+c/n`.
    fn weights(&self, p: Point, out: &mut [f64]) {
        let solution = self.solve(p);
        out.fill(0.0);
        for (i, w) in solution.clockwise.into_iter().chain(solution.counter_clockwise) {
            out[i] = w;
        }
        match self.centre {
            Some(centre) => out[centre] = solution.centre,
            None => {
                let share = solution.centre / out.len() as f64;
                out.iter_mut().for_each(|w| *w += share);
            }
        }
    }
}

/// Two directions next to each other going counter-clockwise, `radians` apart (in
/// `(0, 2π]`; 0 for two children in the same direction).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Gap {
    pub from: usize,
    pub to: usize,
    pub radians: f64,
}

/// The gaps between neighbouring directions of the non-centre children, counter-clockwise
/// from the direction with the smallest angle. One direction alone has a gap of 2π to itself.
pub fn gaps(positions: &[Point]) -> Vec<Gap> {
    let mut around: Vec<(f64, usize)> = positions
        .iter()
        .enumerate()
        .filter(|(_, q)| **q != ORIGIN)
        .map(|(i, &q)| (signed_angle([1.0, 0.0], q), i))
        .collect();
    around.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    let count = around.len();
    (0..count)
        .map(|k| {
            let (from_angle, from) = around[k];
            let (to_angle, to) = around[(k + 1) % count];
            let mut radians = to_angle - from_angle;
            if k + 1 == count {
                radians += std::f64::consts::TAU;
            }
            Gap { from, to, radians }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blend::testing::{assert_exact_at_positions, assert_near, at};

    /// Idle (0,0), F (0,1), R (1,0), B (0,−1), L (−1,0).
    fn cross_layout() -> SimpleDirectional {
        SimpleDirectional::new(vec![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, -1.0], [-1.0, 0.0]])
    }

    #[test]
    fn reference_numbers() {
        // REFERENCE §2.2.
        let layout = cross_layout();
        assert_near(&at(&layout, [0.3, 0.6]), &[0.1, 0.6, 0.3, 0.0, 0.0]);
        assert_near(&at(&layout, [2.0, 2.0]), &[0.0, 0.5, 0.5, 0.0, 0.0]);
    }

    #[test]
    fn the_neighbours_are_named() {
        let s = cross_layout().solve([0.3, 0.6]);
        assert_eq!(s.clockwise.map(|(i, _)| i), Some(2), "R is clockwise of the input");
        assert_eq!(s.counter_clockwise.map(|(i, _)| i), Some(1), "F is counter-clockwise");
    }

    #[test]
    fn the_centre_takes_the_origin_or_everyone_shares_it() {
        assert_eq!(at(&cross_layout(), [0.0, 0.0]), [1.0, 0.0, 0.0, 0.0, 0.0]);
        let ring = SimpleDirectional::new(vec![[0.0, 1.0], [1.0, 0.0], [0.0, -1.0], [-1.0, 0.0]]);
        assert_eq!(at(&ring, [0.0, 0.0]), [0.25; 4]);
        // Halfway out towards F: F gets 0.5, the other 0.5 is shared by all four.
        assert_near(&at(&ring, [0.0, 0.5]), &[0.625, 0.125, 0.125, 0.125]);
    }

    #[test]
    fn a_missing_side_or_opposite_neighbours_give_the_centre_everything() {
        // Only F and B: every input off their line has A and B exactly opposite (det = 0).
        let line = SimpleDirectional::new(vec![[0.0, 0.0], [0.0, 1.0], [0.0, -1.0]]);
        assert_eq!(at(&line, [1.0, 0.5]), [1.0, 0.0, 0.0]);
        // Only F: nothing is counter-clockwise of an input to its left.
        let single = SimpleDirectional::new(vec![[0.0, 0.0], [0.0, 1.0]]);
        assert_eq!(at(&single, [-1.0, 0.0]), [1.0, 0.0]);
    }

    #[test]
    fn each_child_gets_exactly_one_at_its_position() {
        let layout =
            SimpleDirectional::new(vec![[0.0, 0.0], [0.3, 1.7], [1.0, -0.2], [-0.4, -0.9], [-2.0, 0.5], [0.0, 0.0001]]);
        assert_exact_at_positions(&layout);
    }

    #[test]
    fn gaps_go_counter_clockwise_and_wrap() {
        let g = gaps(&[[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, -1.0]]);
        let pairs: Vec<(usize, usize)> = g.iter().map(|g| (g.from, g.to)).collect();
        assert_eq!(pairs, [(3, 2), (2, 1), (1, 3)]);
        assert!((g[2].radians - std::f64::consts::PI).abs() < 1e-12);
        let alone = gaps(&[[0.0, 1.0]]);
        assert_eq!(alone, [Gap { from: 0, to: 0, radians: std::f64::consts::TAU }]);
        let same = gaps(&[[0.0, 1.0], [0.0, 2.0], [1.0, 0.0]]);
        assert!(same.iter().any(|g| g.radians == 0.0 && (g.from, g.to) == (0, 1)));
    }
}
