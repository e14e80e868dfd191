//! Timeline evaluation per logic frame against a naive scan of every clip, and the interval
//! tree's build time, at 1 000, 10 000 and 100 000 clips with about 10 active at a time
//! (10 tracks of back-to-back 0.1 s clips; the timeline loops).
//!
//! `cargo bench --bench timeline`

use std::hint::black_box;

use blendlab::compile::{Snapshot, compile};
use blendlab::config::SourceFile;
use blendlab::time::{FrameTime, Ticks};
use blendlab::timeline::Timeline;
use blendlab::timeline::interval_tree::{Entry, IntervalTree};
use blendlab::timeline::playback::Playback;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

const TRACKS: usize = 10;
const CLIP: f64 = 0.1;

fn library(clips: usize) -> Snapshot {
    let mut text = String::from("[clips]\npose = { length = 1.0, loop = true }\n[timelines.big]\nwrap = \"loop\"\n");
    for track in 0..TRACKS {
        text.push_str(&format!("[[timelines.big.tracks]]\nname = \"t{track}\"\nclips = [\n"));
        for i in 0..clips / TRACKS {
            let start = i as f64 * CLIP + track as f64 * 0.01;
            text.push_str(&format!("{{ start = {start}, duration = {CLIP}, motion = \"pose\", ease_in = 0.02 }},\n"));
        }
        text.push_str("]\n");
    }
    compile(&[SourceFile { path: "bench.toml".into(), text }]).snapshot.expect("the benchmark library compiles")
}

/// What a timeline without an interval tree does each frame: test every clip.
fn naive_tick(def: &Timeline, t: Ticks, weights: &mut [f64], times: &mut [f64]) -> f64 {
    let mut sum = 0.0;
    for (c, clip) in def.clips.iter().enumerate() {
        if clip.ext_start <= t && t < clip.ext_end {
            weights[c] = clip.weight_at(t);
            times[c] = clip.local_time_at(t);
            sum += weights[c];
        } else {
            weights[c] = 0.0;
        }
    }
    sum
}

fn per_tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("timeline_tick");
    for clips in [1_000, 10_000, 100_000] {
        let snapshot = library(clips);
        let channels = vec!["body".to_string()];
        let frame = Ticks::from_secs(1.0 / 60.0).unwrap();
        group.bench_with_input(BenchmarkId::new("interval_tree", clips), &clips, |b, _| {
            let mut now = FrameTime { frame: 0, rate: 60 };
            let mut playback = Playback::new(&snapshot, 0, &channels, now, Ticks::ZERO);
            let mut events = Vec::new();
            b.iter(|| {
                now.frame += 1;
                events.clear();
                playback.advance(&snapshot, &[], now, &mut events);
                black_box(playback.coverage(0))
            });
        });
        group.bench_with_input(BenchmarkId::new("naive_scan", clips), &clips, |b, _| {
            let def = &snapshot.timelines[0];
            let (mut weights, mut times) = (vec![0.0; def.clips.len()], vec![0.0; def.clips.len()]);
            let mut now = Ticks::ZERO;
            b.iter(|| {
                now = now + frame;
                let t = Ticks(now.0 % def.duration.0);
                black_box(naive_tick(def, t, &mut weights, &mut times))
            });
        });
    }
    group.finish();
}

fn rebuild(c: &mut Criterion) {
    let mut group = c.benchmark_group("interval_tree_build");
    for clips in [1_000, 10_000, 100_000] {
        let snapshot = library(clips);
        let entries: Vec<Entry> = snapshot.timelines[0]
            .clips
            .iter()
            .enumerate()
            .map(|(i, clip)| Entry { start: clip.ext_start, end: clip.ext_end, item: i as u32 })
            .collect();
        group.bench_with_input(BenchmarkId::from_parameter(clips), &entries, |b, entries| {
            b.iter(|| black_box(IntervalTree::new(entries.clone()).len()))
        });
    }
    group.finish();
}

criterion_group!(benches, per_tick, rebuild);
criterion_main!(benches);
