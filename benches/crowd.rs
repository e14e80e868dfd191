//! The crowd of WORKLOAD.md one logic frame at a time, through the engine: each iteration is
//! WORKLOAD frame `f` for every character (inputs, hits, one clock frame), with `f` running on
//! across iterations so hits start, play and end as in `blendlab bench crowd`, with 1 000
//! actors (their state fits the L2 cache) and 10 000 (WORKLOAD's N; it does not). The time
//! per iteration divided by the actors is the nanoseconds per character-frame (88.6 µs for
//! 1 000 actors is 88.6 ns); the throughput is character-frames per second. The session's
//! event log keeps growing over the iterations, as it would in a long session. The bench runs
//! on the system allocator, as the library's users would by default; the `blendlab` binary
//! uses mimalloc (see `src/main.rs`).
//!
//! `cargo bench --bench crowd`

use blendlab::bench::Crowd;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("crowd_frame");
    for actors in [1_000, 10_000] {
        let mut crowd = Crowd::new(actors).expect("the crowd library compiles");
        let mut f = 0;
        group.throughput(Throughput::Elements(actors as u64));
        group.bench_function(BenchmarkId::from_parameter(actors), |b| {
            b.iter(|| {
                crowd.frame(f).expect("a crowd frame runs");
                f += 1;
            })
        });
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
