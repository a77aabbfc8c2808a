//! Room-graph generation against the maze it fills around, side by side in one run.
//!
//! - `room_graph/default/N`: `--flow default` on N x N octagons (3 levels at 32, 4 at 64).
//! - `room_graph/maze/N`: `--flow maze`, the same size and seed.
//!
//! Before the criterion groups, the bench prints the 95th percentile over 20 seeds of each
//! (what README's performance table quotes). `OCTILE_BENCH_QUICK=1` (CI) runs the smallest
//! size once.

// A bench that times whole commands itself (p95 over seeds); clippy.toml keeps `Instant` out
// of the library.
#![allow(clippy::disallowed_types)]

use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use octile::flow::{Grammar, realise_grammar};
use octile::generate::{GenerateOptions, generate};

fn options(n: u32, seed: u64) -> GenerateOptions {
    let levels = if n >= 64 { 4 } else { 3 };
    GenerateOptions {
        seed,
        cols: n,
        rows: n,
        levels,
        stairs: GenerateOptions::stairs_for_area(n, n),
        ..Default::default()
    }
}

fn room_graph(o: &GenerateOptions) -> octile::dungeon::Dungeon {
    match realise_grammar(Grammar::Default, o, &mut |_| {}).expect("realises") {
        octile::flow::GrammarOutcome::Rooms(d) => *d,
        other => panic!("no rooms: {other:?}"),
    }
}

fn maze(o: &GenerateOptions) -> octile::dungeon::Dungeon {
    generate(o, &mut |_| {}).expect("generates")
}

/// The 95th percentile of `f` over seeds 0..20.
fn p95(n: u32, f: fn(&GenerateOptions) -> octile::dungeon::Dungeon) -> Duration {
    let mut times: Vec<Duration> = (0..20)
        .map(|seed| {
            let o = options(n, seed);
            let start = Instant::now();
            let d = f(&o);
            let t = start.elapsed();
            assert_eq!(octile::path::dungeon_regions(&d).count(), 1, "one region");
            t
        })
        .collect();
    times.sort_unstable();
    times[18]
}

fn sizes() -> Vec<u32> {
    if std::env::var_os("OCTILE_BENCH_QUICK").is_some() { vec![32] } else { vec![32, 64] }
}

fn percentiles(_: &mut Criterion) {
    if std::env::var_os("OCTILE_BENCH_QUICK").is_some() {
        return;
    }
    for n in sizes() {
        let (a, b) = (p95(n, room_graph), p95(n, maze));
        println!(
            "p95 over 20 seeds, {n}x{n}: room graph {a:?}, maze {b:?} ({:.2}x)",
            a.as_secs_f64() / b.as_secs_f64()
        );
    }
}

fn side_by_side(c: &mut Criterion) {
    let mut group = c.benchmark_group("room_graph");
    group.sample_size(10);
    for n in sizes() {
        let o = options(n, 1);
        // Both make one connected dungeon of the same size and levels.
        let (r, m) = (room_graph(&o), maze(&o));
        assert_eq!((r.dims(), r.levels()), (m.dims(), m.levels()));
        group.bench_with_input(BenchmarkId::new("default", n), &o, |b, o| b.iter(|| room_graph(o)));
        group.bench_with_input(BenchmarkId::new("maze", n), &o, |b, o| b.iter(|| maze(o)));
    }
    group.finish();
}

criterion_group!(benches, percentiles, side_by_side);
criterion_main!(benches);
