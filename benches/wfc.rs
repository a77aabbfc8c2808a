//! WFC benchmarks, side by side in one run:
//!
//! - `square17/{ours,wfc,ghx_proc_gen}/N`: the square17 tile set (same tiles, sockets and
//!   weights; `wfc` takes integer weights, scaled by 1000) on N x N cells with the outside
//!   solid, N = 64, 128, 256. Every solver's output is checked for legal seams first.
//!   `wfc` forbids border tiles that show floor to the outside; `ghx_proc_gen` has no border
//!   input, so it solves (N+2) x (N+2) with the ring fixed to solid (its interior is the
//!   same problem).
//! - `octile_generate/N`: full multi-level generation, N x N octagons x 4 levels.
//!
//! Run: `cargo bench --no-default-features --bench wfc -- --warm-up-time 1 --measurement-time 3`
//! (the README's rows). Instruction counts: one filtered row in test mode under callgrind,
//! e.g. `valgrind --tool=callgrind --toggle-collect='octile::generate::generate' <bench binary>
//! --bench --test octile_generate/64` (docs/wfc.md).

use std::num::NonZeroU32;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use direction::CardinalDirectionTable;
use ghx_proc_gen::generator::builder::GeneratorBuilder;
use ghx_proc_gen::generator::model::ModelCollection;
use ghx_proc_gen::generator::node_heuristic::NodeSelectionHeuristic;
use ghx_proc_gen::generator::rules::{Rules, RulesBuilder};
use ghx_proc_gen::generator::socket::{SocketCollection, SocketsCartesian2D};
use ghx_proc_gen::generator::{ModelSelectionHeuristic, RngMode};
use ghx_proc_gen::ghx_grid::cartesian::coordinates::Cartesian2D;
use ghx_proc_gen::ghx_grid::cartesian::grid::CartesianGrid;
use octile::generate::{GenerateOptions, generate};
use octile::wfc::{SOCKET_SOLID, TileIndex, TileSet, is_legal_seam, square17};
use rand_chacha_03::rand_core::SeedableRng as _;
use wfc::{Coord, ForbidInterface, ForbidPattern, GlobalStats, PatternDescription, PatternTable, Size, Wrap};

const SIZES: [u32; 3] = [64, 128, 256];
const SEED: u64 = 11;

/// Row-major tiles (square17 indices) of a square N x N grid; panics on an illegal seam.
fn check_seams(set: &TileSet, n: u32, tiles: &[TileIndex]) {
    let n = n as i64;
    let at = |r: i64, c: i64| (r >= 0 && c >= 0 && r < n && c < n).then(|| tiles[(r * n + c) as usize]);
    for r in 0..n {
        for c in 0..n {
            let t = at(r, c).unwrap();
            for (d, (dr, dc)) in [(-1, 0), (0, 1), (1, 0), (0, -1)].into_iter().enumerate() {
                let theirs = at(r + dr, c + dc).map_or(SOCKET_SOLID, |o| set.socket(o, (d + 2) % 4));
                assert!(is_legal_seam(set.socket(t, d), theirs), "illegal seam at {r},{c} dir {d}");
            }
        }
    }
}

fn ours(n: u32, w: &square17::Weights) -> Vec<TileIndex> {
    let g = square17::generate(n, n, w, SEED, &mut |_| {}).expect("ours solves");
    g.cells.iter().map(|m| square17::tile(*m)).collect()
}

// ---- the `wfc` crate ----

fn wfc_stats(set: &TileSet) -> GlobalStats {
    let t = set.len();
    let table = (0..t)
        .map(|a| {
            let allowed = |d: usize| {
                (0..t as u32)
                    .filter(|&b| {
                        is_legal_seam(
                            set.socket(TileIndex::new(a as u16), d),
                            set.socket(TileIndex::new(b as u16), (d + 2) % 4),
                        )
                    })
                    .collect::<Vec<_>>()
            };
            let w = (set.tiles()[a].weight * 1000.0).round().max(1.0) as u32;
            // direction's table order is North, East, South, West, as ours.
            PatternDescription::new(
                NonZeroU32::new(w),
                CardinalDirectionTable::new_array([allowed(0), allowed(1), allowed(2), allowed(3)]),
            )
        })
        .collect();
    GlobalStats::new(PatternTable::from_vec(table))
}

/// Forbids, on border cells, every pattern that shows floor to the outside.
#[derive(Clone)]
struct SolidOutside {
    /// Per direction (N, E, S, W): patterns whose socket there is not legal against solid.
    banned: [Vec<u32>; 4],
}

impl ForbidPattern for SolidOutside {
    fn forbid<W: Wrap, R: rand_08::Rng>(&mut self, fi: &mut ForbidInterface<W>, rng: &mut R) {
        let size = fi.wave_size();
        let (w, h) = (size.width() as i32, size.height() as i32);
        for y in 0..h {
            for x in 0..w {
                let sides = [y == 0, x == w - 1, y == h - 1, x == 0];
                for (d, on) in sides.into_iter().enumerate() {
                    if on {
                        for &p in &self.banned[d] {
                            let _ = fi.forbid_pattern(Coord::new(x, y), p, rng);
                        }
                    }
                }
            }
        }
    }
}

fn solid_outside(set: &TileSet) -> SolidOutside {
    let banned = |d: usize| {
        (0..set.len() as u32)
            .filter(|&p| !is_legal_seam(set.socket(TileIndex::new(p as u16), d), SOCKET_SOLID))
            .collect()
    };
    SolidOutside { banned: [banned(0), banned(1), banned(2), banned(3)] }
}

fn wfc_crate(n: u32, stats: &GlobalStats, forbid: &SolidOutside) -> Vec<TileIndex> {
    let mut rng = rand_chacha_03::ChaCha8Rng::seed_from_u64(SEED);
    let run =
        wfc::RunOwn::new_wrap_forbid(Size::new(n, n), stats, wfc::wrap::WrapNone, forbid.clone(), &mut rng);
    let wave = run.collapse_retrying(wfc::retry::Forever, &mut rng);
    wave.grid()
        .iter()
        .map(|cell| TileIndex::new(cell.chosen_pattern_id().expect("collapsed") as u16))
        .collect()
}

// ---- ghx_proc_gen ----

fn ghx_rules(set: &TileSet) -> Rules<Cartesian2D> {
    let mut sockets = SocketCollection::new();
    let (f, w, e) = (sockets.create(), sockets.create(), sockets.create());
    sockets.add_connections(vec![(f, vec![f]), (w, vec![e]), (e, vec![e])]);
    let by_id = |t: usize, d: usize| match set.socket(TileIndex::new(t as u16), d).index() {
        0 => f,
        1 => w,
        _ => e,
    };
    let mut models = ModelCollection::<Cartesian2D>::new();
    for t in 0..set.len() {
        // Rows grow with y here: y_pos is south (dir 2), y_neg north (dir 0).
        models
            .create(SocketsCartesian2D::Simple {
                x_pos: by_id(t, 1),
                x_neg: by_id(t, 3),
                y_pos: by_id(t, 2),
                y_neg: by_id(t, 0),
            })
            .with_weight(set.tiles()[t].weight as f32);
    }
    RulesBuilder::new_cartesian_2d(models, sockets).build().expect("ghx rules")
}

fn ghx(n: u32, rules: &std::sync::Arc<Rules<Cartesian2D>>) -> Vec<TileIndex> {
    let m = n + 2;
    let ring: Vec<(usize, usize)> = (0..m)
        .flat_map(|y| (0..m).map(move |x| (x, y)))
        .filter(|&(x, y)| x == 0 || y == 0 || x == m - 1 || y == m - 1)
        .map(|(x, y)| ((y * m + x) as usize, 0usize))
        .collect();
    let mut generator = GeneratorBuilder::new()
        .with_shared_rules(rules.clone())
        .with_grid(CartesianGrid::new_cartesian_2d(m, m, false, false))
        .with_max_retry_count(1000)
        .with_node_heuristic(NodeSelectionHeuristic::MinimumEntropy)
        .with_model_heuristic(ModelSelectionHeuristic::WeightedProbability)
        .with_rng(RngMode::Seeded(SEED))
        .with_initial_nodes_raw(ring)
        .build()
        .expect("ghx generator");
    let (_, grid) = generator.generate_grid().expect("ghx solves");
    let mut out = Vec::with_capacity((n * n) as usize);
    for y in 1..=n {
        for x in 1..=n {
            out.push(TileIndex::new(grid.get((y * m + x) as usize).model_index as u16));
        }
    }
    out
}

fn square(c: &mut Criterion) {
    let weights = square17::Weights::default();
    let set = square17::tileset(&weights).unwrap();
    let stats = wfc_stats(&set);
    let forbid = solid_outside(&set);
    let rules = std::sync::Arc::new(ghx_rules(&set));
    let mut group = c.benchmark_group("square17");
    group.sample_size(10);
    // Each output is checked inside its bench, so a filtered run (one row under callgrind)
    // solves only what it times.
    for n in SIZES {
        group.bench_with_input(BenchmarkId::new("ours", n), &n, |b, &n| {
            check_seams(&set, n, &ours(n, &weights));
            b.iter(|| ours(n, &weights))
        });
        group.bench_with_input(BenchmarkId::new("wfc", n), &n, |b, &n| {
            check_seams(&set, n, &wfc_crate(n, &stats, &forbid));
            b.iter(|| wfc_crate(n, &stats, &forbid))
        });
        group.bench_with_input(BenchmarkId::new("ghx_proc_gen", n), &n, |b, &n| {
            check_seams(&set, n, &ghx(n, &rules));
            b.iter(|| ghx(n, &rules))
        });
    }
    group.finish();
}

fn octile_generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("octile_generate");
    group.sample_size(10);
    for n in [32u32, 64, 128] {
        let options =
            GenerateOptions { seed: SEED, levels: 4, cols: n, rows: n, ..GenerateOptions::default() };
        group.bench_with_input(BenchmarkId::from_parameter(n), &options, |b, o| {
            b.iter(|| generate(o, &mut |_| {}).expect("generates"))
        });
    }
    group.finish();
}

criterion_group!(benches, square, octile_generation);
criterion_main!(benches);
