//! Room-graph generation against the maze it fills around, side by side in one run.
//!
//! - `room_graph/default/N`: `--flow default` on N x N octagons (3 levels at 32, 4 at 64).
//! - `room_graph/maze/N`: `--flow maze`, the same size and seed.
//!
//! - `mission/layout_and_proof/32`: realising the 3-level mission spec of
//!   `tests/mission_specs` (3 key-locks, 2 cycles) on 32x32 octagons and proving it
//!   (`flow::verify`), beside `room_graph/default/32` above.
//! - `mission/verify/64`: `flow::verify` alone on the 4-level mission spec realised on
//!   64x64 octagons (budget: 5 ms).
//!
//! Before the criterion groups, the bench prints the 95th percentile and the slowest pair of
//! the 50 hand-written missions of `tests/missions` over 20 seeds (budget: 1 s a pair), and
//! the 95th percentile over 20 seeds of each,
//! and of the mission's layout and proof beside the maze at 32x32x3 (what README's
//! performance table quotes). `OCTILE_BENCH_QUICK=1` (CI) runs the smallest
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

/// The realised 3-level mission spec on 32x32 octagons, proved, for `o`'s seed (the
/// `percentiles` shape of [`layout_and_proof`]).
fn mission_32(o: &GenerateOptions) -> octile::dungeon::Dungeon {
    let d = mission("three-levels.json", 32, o.seed);
    assert!(octile::flow::verify(&d).holds(), "seed {}: the mission holds", o.seed);
    d
}

/// Realises each of the 50 hand-written missions of `tests/missions` on 32x32 octagons over
/// seeds 0..20 (layout and proof): the 95th percentile and the slowest (spec, seed) pair.
fn hand_written_missions() -> (Duration, Duration, String) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/missions");
    let mut files: Vec<_> =
        std::fs::read_dir(dir).expect("tests/missions").map(|e| e.expect("entry").path()).collect();
    files.sort();
    let mut times = Vec::new();
    for file in &files {
        let spec =
            octile::flow::FlowSpec::from_json(&std::fs::read_to_string(file).expect("spec")).expect("a spec");
        let flow = spec.check(&Default::default()).expect("valid");
        for seed in 0..20 {
            let o = GenerateOptions { seed, cols: 32, rows: 32, ..Default::default() };
            let start = Instant::now();
            let holds =
                octile::flow::realise(&flow, &o, &mut |_| {}).is_ok_and(|d| octile::flow::verify(&d).holds());
            let t = start.elapsed();
            assert!(holds, "{} seed {seed} realises and holds", file.display());
            times.push((t, format!("{} seed {seed}", file.file_name().expect("a name").to_string_lossy())));
        }
    }
    times.sort();
    let (slowest, which) = times.last().cloned().expect("pairs");
    (times[times.len() * 95 / 100].0, slowest, which)
}

fn percentiles(_: &mut Criterion) {
    if std::env::var_os("OCTILE_BENCH_QUICK").is_some() {
        return;
    }
    let (typical, slowest, which) = hand_written_missions();
    println!(
        "50 hand-written missions x 20 seeds, 32x32x3, layout and proof: p95 {typical:?}, slowest {slowest:?} ({which})"
    );
    let (a, b) = (p95(32, mission_32), p95(32, maze));
    println!(
        "p95 over 20 seeds, 32x32x3: mission layout and proof {a:?}, maze {b:?} ({:.2}x)",
        a.as_secs_f64() / b.as_secs_f64()
    );
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

/// The mission spec `name` of `tests/mission_specs`, realised on `n x n` octagons.
fn mission(name: &str, n: u32, seed: u64) -> octile::dungeon::Dungeon {
    let path = format!("{}/tests/mission_specs/{name}", env!("CARGO_MANIFEST_DIR"));
    let spec =
        octile::flow::FlowSpec::from_json(&std::fs::read_to_string(path).expect("spec")).expect("a spec");
    let flow = spec.check(&Default::default()).expect("valid");
    let o = GenerateOptions { seed, cols: n, rows: n, ..Default::default() };
    octile::flow::realise(&flow, &o, &mut |_| {}).expect("realises")
}

fn layout_and_proof(n: u32, seed: u64) -> octile::flow::Verdict {
    let d = mission("three-levels.json", n, seed);
    octile::flow::verify(&d)
}

fn missions(c: &mut Criterion) {
    let mut group = c.benchmark_group("mission");
    group.sample_size(10);
    assert!(layout_and_proof(32, 1).holds(), "the 32x32x3 mission holds");
    group.bench_function(BenchmarkId::new("layout_and_proof", 32), |b| b.iter(|| layout_and_proof(32, 1)));
    if std::env::var_os("OCTILE_BENCH_QUICK").is_none() {
        let d = mission("four-levels.json", 64, 1);
        assert_eq!((d.dims().octagon_cols(), d.levels()), (64, 4));
        let verdict = octile::flow::verify(&d);
        assert!(verdict.holds() && verdict.locks == 3, "{:?}", verdict.failures);
        group.bench_function(BenchmarkId::new("verify", 64), |b| b.iter(|| octile::flow::verify(&d)));
    }
    group.finish();
}

criterion_group!(benches, percentiles, side_by_side, missions);
criterion_main!(benches);
