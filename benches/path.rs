//! A* and Dijkstra maps on large seeded octile dungeons, side by side with the
//! `pathfinding` crate on the same graph (same successors, same costs, same heuristic).
//!
//! Run: `cargo bench --bench path`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use octile::dungeon::{Dungeon, Fill, Registry};
use octile::geometry::Proportions;
use octile::grid::{Direction, Pos, SlotKind};
use octile::path::{AStar, DijkstraMap, MapBounds, NodeId, PathGraph, PathRules};

/// splitmix64: a seeded, value-stable pattern (no global RNG).
struct Mix(u64);

impl Mix {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// `size x size` octagons x `levels`: about 78% of octagons and 55% of connectors floor,
/// 15% of edges walls, and one stair per 8x8-octagon block per level (its landing floor).
fn dungeon(size: u32, levels: u32, seed: u64) -> Dungeon {
    let mut rng = Mix(seed);
    let mut d = Dungeon::new(size, size, levels, Proportions::default(), Fill::Solid).unwrap();
    let cells: Vec<Pos> = d.cells().collect();
    for &p in &cells {
        let floor = match p.slot.kind() {
            SlotKind::Octagon => rng.below(100) < 78,
            _ => rng.below(100) < 55,
        };
        if floor {
            d.set_tile(p, Registry::FLOOR).unwrap();
        }
    }
    for &p in &cells {
        for &dir in [Direction::E, Direction::SE, Direction::S, Direction::SW].iter() {
            if p.slot.kind() == SlotKind::Connector && !dir.is_diagonal() {
                continue;
            }
            let state = if rng.below(100) < 85 { Registry::OPEN } else { Registry::WALL };
            let _ = d.set_edge(p, dir, state); // border walls refuse: fine
        }
    }
    for level in 0..levels as u16 - 1 {
        for br in 0..size / 8 {
            for bc in 0..size / 8 {
                let (r, c) = (2 * (br * 8 + rng.below(8) as u32), 2 * (bc * 8 + rng.below(8) as u32));
                d.set_tile(Pos::new(level, r, c), Registry::STAIR).unwrap();
                let up = Pos::new(level + 1, r, c);
                if d.tile(up).unwrap() == Registry::SOLID {
                    d.set_tile(up, Registry::FLOOR).unwrap();
                }
            }
        }
    }
    d
}

/// `count` seeded start/goal pairs in the largest walkable region (random levels, so
/// most queries must find stairs).
fn queries(g: &PathGraph, count: usize, seed: u64) -> Vec<(NodeId, NodeId)> {
    let rules = PathRules::default();
    let regions = g.regions(&rules);
    let sizes = regions.sizes();
    let big = (0..sizes.len()).max_by_key(|&r| sizes[r]).unwrap();
    let nodes: Vec<NodeId> =
        g.nodes().filter(|v| regions.region(v.index()).map(|r| r.index()) == Some(big)).collect();
    let mut rng = Mix(seed);
    (0..count)
        .map(|_| {
            (nodes[rng.below(nodes.len() as u64) as usize], nodes[rng.below(nodes.len() as u64) as usize])
        })
        .collect()
}

fn run_ours(g: &PathGraph, astar: &mut AStar, qs: &[(NodeId, NodeId)]) -> u64 {
    let rules = PathRules::default();
    qs.iter().map(|&(a, b)| astar.search(g, a, b, &rules).map_or(0, |r| r.cost)).sum()
}

fn run_pathfinding(g: &PathGraph, qs: &[(NodeId, NodeId)], landmarks: bool) -> u64 {
    let rules = PathRules::default();
    qs.iter()
        .map(|&(a, b)| {
            let h = if landmarks { g.heuristic(b) } else { g.octile_heuristic(b) };
            pathfinding::prelude::astar(&a, |&v| g.successors(v, &rules), |&v| h.estimate(v), |&v| v == b)
                .map_or(0, |(_, c)| c)
        })
        .sum()
}

fn bench_astar(c: &mut Criterion, name: &str, d: &Dungeon, count: usize) {
    let plain = PathGraph::new(d).unwrap();
    let alt = PathGraph::new(d).unwrap().with_landmarks(8);
    let qs = queries(&plain, count, 11);
    let mut astar = AStar::new();
    let want = run_pathfinding(&plain, &qs, false);
    assert_eq!(run_ours(&plain, &mut astar, &qs), want);
    assert_eq!(run_ours(&alt, &mut astar, &qs), want);
    assert_eq!(run_pathfinding(&alt, &qs, true), want);
    let rules = PathRules::default();
    let expanded = |g: &PathGraph, astar: &mut AStar| -> usize {
        qs.iter().map(|&(a, b)| (astar.search(g, a, b, &rules), astar.expanded()).1).sum::<usize>() / qs.len()
    };
    eprintln!(
        "{name}: {} nodes, {} queries, nodes expanded per query: {} (octile), {} (landmarks)",
        plain.node_count(),
        qs.len(),
        expanded(&plain, &mut astar),
        expanded(&alt, &mut astar)
    );
    let mut group = c.benchmark_group(format!("astar_{name}"));
    group.sample_size(20);
    group.bench_function("octile/pathfinding", |b| b.iter(|| black_box(run_pathfinding(&plain, &qs, false))));
    group.bench_function("octile/ours", |b| b.iter(|| black_box(run_ours(&plain, &mut astar, &qs))));
    group.bench_function("alt/pathfinding", |b| b.iter(|| black_box(run_pathfinding(&alt, &qs, true))));
    group.bench_function("alt/ours", |b| b.iter(|| black_box(run_ours(&alt, &mut astar, &qs))));
    group.finish();
}

fn bench_map(c: &mut Criterion, name: &str, d: &Dungeon) {
    let g = PathGraph::new(d).unwrap();
    let rules = PathRules::default();
    let (goal, _) = queries(&g, 1, 5)[0];
    let bounds = MapBounds::everywhere(&g);
    let mut group = c.benchmark_group(format!("dijkstra_map_{name}"));
    group.sample_size(20);
    group.bench_function("pathfinding_dijkstra_all", |b| {
        b.iter(|| black_box(pathfinding::prelude::dijkstra_all(&goal, |&v| g.successors(v, &rules)).len()))
    });
    group.bench_function("ours", |b| {
        b.iter(|| black_box(DijkstraMap::new(&g, &[g.pos(goal)], &bounds, &rules).unwrap().values().len()))
    });
    group.bench_function("graph_build", |b| b.iter(|| black_box(PathGraph::new(d).unwrap().node_count())));
    group.bench_function("landmarks_8", |b| {
        b.iter(|| black_box(g.clone().with_landmarks(8).landmark_count()))
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let small = dungeon(64, 4, 1);
    bench_astar(c, "64x64x4", &small, 64);
    bench_map(c, "64x64x4", &small);
    let big = dungeon(256, 2, 2);
    bench_astar(c, "256x256x2", &big, 16);
    bench_map(c, "256x256x2", &big);
}

criterion_group!(path, benches);
criterion_main!(path);
