//! Weight evaluation per blend-tree type with 4, 16 and 64 children: one iteration is one
//! call of the type's pure weight function at the next of 64 inputs spread over the plane
//! (inside, outside and on the layout). Target: ≤ 1 µs per evaluation at 16 children.
//!
//! `cargo bench --bench blend -- --warm-up-time 1 --measurement-time 3`

use std::f64::consts::PI;
use std::hint::black_box;

use blendlab::blend::freeform_cartesian::FreeformCartesian;
use blendlab::blend::freeform_directional::FreeformDirectional;
use blendlab::blend::geometry::Point;
use blendlab::blend::simple_directional::SimpleDirectional;
use blendlab::blend::triangulated::Triangulated;
use blendlab::blend::{Layout2d, direct, one_d};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

const SIZES: [usize; 3] = [4, 16, 64];

/// A centre child and `n − 1` children on a golden-angle spiral from radius 0.5 to 2:
/// distinct positions and directions, neighbouring directions less than 180° apart.
fn spiral(n: usize) -> Vec<Point> {
    let golden = PI * (3.0 - 5f64.sqrt());
    let mut points = vec![[0.0, 0.0]];
    for k in 1..n {
        let (angle, radius) = (k as f64 * golden, 0.5 + 1.5 * k as f64 / (n - 1) as f64);
        points.push([radius * angle.cos(), radius * angle.sin()]);
    }
    points
}

/// 64 inputs on a Lissajous curve over [−2.5, 2.5]².
fn inputs() -> Vec<Point> {
    (0..64).map(|k| k as f64 / 64.0 * 2.0 * PI).map(|t| [2.5 * (3.0 * t).sin(), 2.5 * (2.0 * t + 0.3).sin()]).collect()
}

/// Benchmarks `weights` for every size in group `name`; `make(n)` builds the evaluator.
fn bench<F: FnMut(Point, &mut [f64])>(c: &mut Criterion, name: &str, make: impl Fn(usize) -> F) {
    let inputs = inputs();
    let mut group = c.benchmark_group(name);
    for n in SIZES {
        let mut weights = make(n);
        let mut out = vec![0.0; n];
        let mut k = 0;
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                k = (k + 1) % inputs.len();
                weights(black_box(inputs[k]), &mut out);
                black_box(&out);
            })
        });
    }
    group.finish();
}

/// [`bench`] for a 2D layout built on the [`spiral`] of each size.
fn bench_2d<L: Layout2d>(c: &mut Criterion, name: &str, make: impl Fn(Vec<Point>) -> L) {
    bench(c, name, |n| {
        let layout = make(spiral(n));
        move |p: Point, out: &mut [f64]| layout.weights(p, out)
    });
}

fn blend_trees(c: &mut Criterion) {
    bench(c, "1d", |n| {
        let thresholds = one_d::Thresholds::new((0..n).map(|i| i as f64 * 5.0 / n as f64 - 2.5).collect());
        move |p: Point, out: &mut [f64]| thresholds.weights(p[0], out)
    });
    bench_2d(c, "2d_simple_directional", SimpleDirectional::new);
    bench_2d(c, "2d_freeform_cartesian", FreeformCartesian::new);
    bench_2d(c, "2d_freeform_directional", FreeformDirectional::new);
    bench_2d(c, "2d_triangulated", |points| Triangulated::delaunay(points).expect("the spiral triangulates"));
    bench(c, "direct", |n| {
        let mut values: Vec<f64> = (0..n).map(|i| (i % 5) as f64 / 4.0).collect();
        move |p: Point, out: &mut [f64]| {
            values[0] = p[0].abs();
            direct::weights(&values, true, out)
        }
    });
}

criterion_group!(benches, blend_trees);
criterion_main!(benches);
