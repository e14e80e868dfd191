//! `2d_triangulated` blend trees (Godot's BlendSpace2D): children are the corners of
//! triangles — given explicitly or by Delaunay triangulation (the `spade` crate) — and an
//! input inside a triangle blends its three corners by barycentric coordinates.

use spade::{DelaunayTriangulation, HasPosition, InsertionError, Point2, Triangulation};

use super::Layout2d;
use super::geometry::{Point, cross, dot, sub};

/// A triangle with what barycentric coordinates need: `weights(p)` of corners `[a, b, c]`
/// from `d = p − a`, `u = b − a`, `v = c − a`, `det = u × v`.
#[derive(Clone, Debug, PartialEq)]
struct Triangle {
    corners: [usize; 3],
    origin: Point,
    u: Point,
    v: Point,
    det: f64,
}

impl Triangle {
    /// `[1 − wb − wc, wb, wc]` with `wb = (d × v)/det`, `wc = (u × d)/det`: exact at the
    /// corners (`d = u` gives `wb = 1, wc = 0` bit for bit).
    fn barycentric(&self, p: Point) -> [f64; 3] {
        let d = sub(p, self.origin);
        let wb = cross(d, self.v) / self.det;
        let wc = cross(self.u, d) / self.det;
        [1.0 - wb - wc, wb, wc]
    }
}

/// A segment between two children: a triangle edge, or a piece of the line the children
/// lie on when there are no triangles.
#[derive(Clone, Debug, PartialEq)]
struct Edge {
    ends: [usize; 2],
    origin: Point,
    direction: Point,
    inv_length2: f64,
}

impl Edge {
    /// The parameter `t ∈ [0, 1]` of the point of the segment closest to `p`, and the squared
    /// distance to it.
    fn closest(&self, p: Point) -> (f64, f64) {
        let d = sub(p, self.origin);
        let t = (dot(d, self.direction) * self.inv_length2).clamp(0.0, 1.0);
        let off = sub(d, [self.direction[0] * t, self.direction[1] * t]);
        (t, dot(off, off))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Triangulated {
    positions: Vec<Point>,
    triangles: Vec<Triangle>,
    /// Every distinct triangle edge in triangle order — or, without triangles, consecutive
    /// children along their common line.
    edges: Vec<Edge>,
    /// Children that are a corner or an end of something (ascending).
    vertices: Vec<usize>,
}

/// Where an input fell, and so which children share its weight.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Location {
    /// Exactly on a child: it gets 1.
    Vertex(usize),
    /// Inside (or on) a triangle: barycentric weights of its corners.
    Inside { corners: [usize; 3], weights: [f64; 3] },
    /// Outside every triangle: the closest point is on this edge, `t` of the way from
    /// `ends[0]` to `ends[1]`; weights `1 − t` and `t`.
    Edge { ends: [usize; 2], t: f64 },
}

/// A child position the triangulation library cannot take (in practice: a coordinate
/// within 1.8e-43 of 0 but not 0).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("child {child} at ({}, {}) cannot be triangulated: {reason}", .position[0], .position[1])]
pub struct TriangulationError {
    pub child: usize,
    pub position: Point,
    pub reason: &'static str,
}

struct Site {
    position: Point2<f64>,
    child: usize,
}

impl HasPosition for Site {
    type Scalar = f64;
    fn position(&self) -> Point2<f64> {
        self.position
    }
}

impl Triangulated {
    /// Delaunay triangulation of distinct positions. Triangles are listed counter-clockwise
    /// from their smallest child index, sorted, so the choice prints the same every time.
    /// Fewer than three children, or all on one line: no triangles, and the children are
    /// joined along their line.
    pub fn delaunay(positions: Vec<Point>) -> Result<Self, TriangulationError> {
        let mut delaunay: DelaunayTriangulation<Site> = DelaunayTriangulation::new();
        for (child, &position) in positions.iter().enumerate() {
            let site = Site { position: Point2::new(position[0], position[1]), child };
            delaunay.insert(site).map_err(|e| TriangulationError { child, position, reason: insertion_problem(e) })?;
        }
        let mut triangles: Vec<[usize; 3]> = delaunay
            .inner_faces()
            .map(|face| {
                let mut corners = face.vertices().map(|v| v.data().child);
                let smallest = (0..3).min_by_key(|&k| corners[k]).unwrap_or(0);
                corners.rotate_left(smallest);
                corners
            })
            .collect();
        triangles.sort();
        Ok(Triangulated::with_triangles(positions, triangles))
    }

    /// Explicit triangles of child indices (validation ensures they are in range, distinct
    /// and of non-zero area). No triangles: the children are joined along their line.
    pub fn with_triangles(positions: Vec<Point>, triangles: Vec<[usize; 3]>) -> Self {
        let triangles: Vec<Triangle> = triangles
            .into_iter()
            .map(|corners| {
                let origin = positions[corners[0]];
                let u = sub(positions[corners[1]], origin);
                let v = sub(positions[corners[2]], origin);
                Triangle { corners, origin, u, v, det: cross(u, v) }
            })
            .collect();
        let mut ends: Vec<[usize; 2]> = Vec::new();
        for t in &triangles {
            for k in 0..3 {
                let (a, b) = (t.corners[k], t.corners[(k + 1) % 3]);
                if !ends.iter().any(|e| *e == [a, b] || *e == [b, a]) {
                    ends.push([a, b]);
                }
            }
        }
        if triangles.is_empty() {
            ends = along_line(&positions);
        }
        let edges = ends
            .iter()
            .map(|&[a, b]| {
                let direction = sub(positions[b], positions[a]);
                Edge { ends: [a, b], origin: positions[a], direction, inv_length2: 1.0 / dot(direction, direction) }
            })
            .collect();
        let mut vertices: Vec<usize> = ends.iter().flatten().copied().collect();
        if positions.len() == 1 {
            vertices.push(0);
        }
        vertices.sort_unstable();
        vertices.dedup();
        Triangulated { positions, triangles, edges, vertices }
    }

    /// The triangles, as child indices.
    pub fn triangles(&self) -> impl Iterator<Item = [usize; 3]> + '_ {
        self.triangles.iter().map(|t| t.corners)
    }

    /// Where input `p` falls (REFERENCE §2.5), or `None` for a tree without children:
    /// on a child that is a corner (or segment end) → that child; inside a triangle (the
    /// first one, in order, whose barycentric weights are all ≥ 0) → its barycentric
    /// weights; otherwise the closest point on any edge (the first edge on a tie, as Godot)
    /// → linear weights along it. One child alone is always the vertex.
    pub fn locate(&self, p: Point) -> Option<Location> {
        if let Some(&child) = self.vertices.iter().find(|&&i| self.positions[i] == p) {
            return Some(Location::Vertex(child));
        }
        for t in &self.triangles {
            let weights = t.barycentric(p);
            if weights.iter().all(|&w| w >= 0.0) {
                return Some(Location::Inside { corners: t.corners, weights });
            }
        }
        let mut best: Option<(f64, Location)> = None;
        for edge in &self.edges {
            let (t, distance2) = edge.closest(p);
            if best.as_ref().is_none_or(|(d, _)| distance2 < *d) {
                best = Some((distance2, Location::Edge { ends: edge.ends, t }));
            }
        }
        best.map(|(_, location)| location).or_else(|| self.vertices.first().map(|&v| Location::Vertex(v)))
    }

    /// Groups of four children on one circle whose two triangles could have been split the
    /// other way (the Delaunay triangulation is not unique there), as sorted child indices.
    /// Found per shared edge with the in-circle determinant, relative to the points' spread.
    pub fn cocircular(&self) -> Vec<[usize; 4]> {
        let mut shared: Vec<([usize; 2], usize, usize)> = Vec::new();
        for (index, t) in self.triangles.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (t.corners[k], t.corners[(k + 1) % 3]);
                shared.push(([a.min(b), a.max(b)], index, t.corners[(k + 2) % 3]));
            }
        }
        shared.sort();
        let mut groups: Vec<[usize; 4]> = shared
            .windows(2)
            .filter(|w| w[0].0 == w[1].0)
            .filter(|w| on_circle(&self.positions, self.triangles[w[0].1].corners, w[1].2))
            .map(|w| {
                let mut group = [w[0].0[0], w[0].0[1], w[0].2, w[1].2];
                group.sort_unstable();
                group
            })
            .collect();
        groups.sort_unstable();
        groups.dedup();
        groups
    }
}

impl Layout2d for Triangulated {
    fn positions(&self) -> &[Point] {
        &self.positions
    }

    /// Child weights for input `p`, written to `out`, from [`Triangulated::locate`]:
    /// children outside the located triangle or edge get 0.
    fn weights(&self, p: Point, out: &mut [f64]) {
        out.fill(0.0);
        match self.locate(p) {
            Some(Location::Vertex(child)) => out[child] = 1.0,
            Some(Location::Inside { corners, weights }) => {
                for (c, w) in corners.into_iter().zip(weights) {
                    out[c] = w;
                }
            }
            Some(Location::Edge { ends: [a, b], t }) => {
                out[a] = 1.0 - t;
                out[b] = t;
            }
            None => {}
        }
    }
}

fn insertion_problem(error: InsertionError) -> &'static str {
    match error {
        InsertionError::TooSmall => "a coordinate is too close to 0 (use 0 or at least 1e-40)",
        InsertionError::TooLarge => "a coordinate is too large",
        InsertionError::NAN => "a coordinate is not a number",
    }
}

/// Whether `d` lies on the circle through triangle `corners`: the in-circle determinant is 0
/// up to rounding (relative to the fourth power of the points' spread).
fn on_circle(positions: &[Point], corners: [usize; 3], d: usize) -> bool {
    let pd = positions[d];
    let rows = corners.map(|c| {
        let q = sub(positions[c], pd);
        [q[0], q[1], dot(q, q)]
    });
    let det = rows[0][0] * (rows[1][1] * rows[2][2] - rows[2][1] * rows[1][2])
        - rows[0][1] * (rows[1][0] * rows[2][2] - rows[2][0] * rows[1][2])
        + rows[0][2] * (rows[1][0] * rows[2][1] - rows[2][0] * rows[1][1]);
    let spread = rows.iter().map(|r| r[2]).fold(0.0, f64::max);
    det.abs() <= 1e-9 * spread * spread
}

/// Consecutive children along the line through them all (sorted by their projection on the
/// direction from child 0 to the child farthest from it).
fn along_line(positions: &[Point]) -> Vec<[usize; 2]> {
    let Some(&first) = positions.first() else { return Vec::new() };
    let far = (0..positions.len())
        .max_by(|&a, &b| {
            let (da, db) = (sub(positions[a], first), sub(positions[b], first));
            dot(da, da).total_cmp(&dot(db, db))
        })
        .unwrap_or(0);
    let axis = sub(positions[far], first);
    let mut order: Vec<usize> = (0..positions.len()).collect();
    order.sort_by(|&a, &b| dot(sub(positions[a], first), axis).total_cmp(&dot(sub(positions[b], first), axis)));
    order.windows(2).map(|w| [w[0], w[1]]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blend::testing::{assert_exact_at_positions, assert_near, at};

    /// Idle (0,0), F (0,1), R (1,0), L (−1,0), B (0,−1).
    fn diamond() -> Triangulated {
        Triangulated::delaunay(vec![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [-1.0, 0.0], [0.0, -1.0]]).unwrap()
    }

    #[test]
    fn reference_numbers() {
        // REFERENCE §2.5.
        let d = diamond();
        assert_near(&at(&d, [0.25, 0.25]), &[0.5, 0.25, 0.25, 0.0, 0.0]);
        assert_near(&at(&d, [1.0, 1.0]), &[0.0, 0.5, 0.5, 0.0, 0.0]);
        assert_near(&at(&d, [2.0, 0.5]), &[0.0, 0.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn the_diamond_has_four_triangles_around_the_centre() {
        let triangles: Vec<[usize; 3]> = diamond().triangles().collect();
        assert_eq!(triangles, [[0, 1, 3], [0, 2, 1], [0, 3, 4], [0, 4, 2]]);
        assert!(diamond().cocircular().is_empty());
    }

    #[test]
    fn each_child_gets_exactly_one_at_its_position() {
        assert_exact_at_positions(&diamond());
        let scattered = vec![[0.0, 0.0], [0.7, 0.1], [-0.3, 1.9], [2.0, 2.0], [-1.0, -1.5], [0.1, -0.4]];
        assert_exact_at_positions(&Triangulated::delaunay(scattered).unwrap());
    }

    #[test]
    fn a_square_is_cocircular() {
        let square = Triangulated::delaunay(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]).unwrap();
        assert_eq!(square.triangles().count(), 2);
        assert_eq!(square.cocircular(), [[0, 1, 2, 3]]);
    }

    #[test]
    fn locations_say_which_children_blend() {
        let d = diamond();
        assert_eq!(d.locate([0.0, 1.0]), Some(Location::Vertex(1)));
        assert_eq!(d.locate([1.0, 1.0]), Some(Location::Edge { ends: [2, 1], t: 0.5 }));
        let Some(Location::Inside { corners, weights }) = d.locate([0.25, 0.25]) else { panic!() };
        assert_eq!((corners, weights), ([0, 2, 1], [0.5, 0.25, 0.25]));
    }

    #[test]
    fn one_or_two_children() {
        let one = Triangulated::delaunay(vec![[0.5, 0.5]]).unwrap();
        assert_eq!(at(&one, [3.0, -1.0]), [1.0]);
        // Two children: 1D along the segment (ours: Godot gives all zeros).
        let two = Triangulated::delaunay(vec![[0.0, 0.0], [2.0, 0.0]]).unwrap();
        assert_near(&at(&two, [0.5, 7.0]), &[0.75, 0.25]);
        assert_eq!(at(&two, [-1.0, 0.0]), [1.0, 0.0]);
        // Collinear children are joined in order along their line.
        let line = Triangulated::delaunay(vec![[2.0, 2.0], [0.0, 0.0], [1.0, 1.0]]).unwrap();
        assert_near(&at(&line, [1.5, 1.5]), &[0.5, 0.0, 0.5]);
    }

    #[test]
    fn explicit_triangles_are_used_as_given() {
        // The square split along the other diagonal than the one Delaunay picked.
        let square = vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let a = Triangulated::with_triangles(square.clone(), vec![[0, 1, 2], [0, 2, 3]]);
        let b = Triangulated::with_triangles(square, vec![[0, 1, 3], [1, 2, 3]]);
        assert_near(&at(&a, [0.5, 0.25]), &[0.5, 0.25, 0.25, 0.0]);
        assert_near(&at(&b, [0.5, 0.25]), &[0.25, 0.5, 0.0, 0.25]);
    }
}
