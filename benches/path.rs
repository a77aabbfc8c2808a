//! A* and Dijkstra maps on large seeded octile dungeons, side by side with the
//! `pathfinding` crate and a plain binary-heap Dijkstra on the same graph (same successors,
//! same costs, same heuristic). Every query's cost and every distance is asserted equal
//! before anything is timed.
//!
//! - `astar_*`: `pathfinding::astar` against ours warm (one `AStar` kept, our design) and
//!   cold (a new `AStar` per query, its allocation included), both with the octile
//!   heuristic; the landmark (ALT) rows include building the 8 landmarks in the timed loop.
//!   Both sides' expanded-node counts are printed.
//! - `dijkstra_map_*`: the distance from one goal to every node: `pathfinding`'s
//!   `dijkstra_reach` collected into a `Vec<u64>`, a plain `BinaryHeap` + `Vec<u64>`, and
//!   ours (`DijkstraMap::new`); the whole value vector is black-boxed.
//!
//! Run: `cargo bench --no-default-features --bench path` (set `OCTILE_BENCH_QUICK=1` for a
//! small dungeon only, as CI's `cargo test --bench path` does).

use std::cell::Cell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
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

/// Our cost of every query, with one `AStar` kept (`warm`) or a new one per query.
fn ours(g: &PathGraph, astar: &mut AStar, qs: &[(NodeId, NodeId)], warm: bool) -> Vec<u64> {
    let rules = PathRules::default();
    qs.iter()
        .map(|&(a, b)| {
            let route =
                if warm { astar.search(g, a, b, &rules) } else { AStar::new().search(g, a, b, &rules) };
            route.map_or(u64::MAX, |r| r.cost)
        })
        .collect()
}

/// `pathfinding::astar`'s cost of every query with the same heuristic as ours on `g`
/// (octile, or ALT when `g` has landmarks); `expanded` counts its successor calls.
fn theirs(g: &PathGraph, qs: &[(NodeId, NodeId)], expanded: &Cell<usize>) -> Vec<u64> {
    let rules = PathRules::default();
    qs.iter()
        .map(|&(a, b)| {
            let h = g.heuristic(b);
            let successors = |&v: &NodeId| {
                expanded.set(expanded.get() + 1);
                g.successors(v, &rules)
            };
            pathfinding::prelude::astar(&a, successors, |&v| h.estimate(v), |&v| v == b)
                .map_or(u64::MAX, |(_, c)| c)
        })
        .collect()
}

// The timed calls, each its own symbol, so that `valgrind --tool=callgrind
// --toggle-collect='path::timed_*'` on `--test` (one pass of each bench) counts the
// instructions of exactly the timed work, apart from the setup (see the README).

#[inline(never)]
fn timed_theirs(g: &PathGraph, qs: &[(NodeId, NodeId)], expanded: &Cell<usize>) -> Vec<u64> {
    theirs(g, qs, expanded)
}

#[inline(never)]
fn timed_warm(g: &PathGraph, astar: &mut AStar, qs: &[(NodeId, NodeId)]) -> Vec<u64> {
    ours(g, astar, qs, true)
}

#[inline(never)]
fn timed_cold(g: &PathGraph, astar: &mut AStar, qs: &[(NodeId, NodeId)]) -> Vec<u64> {
    ours(g, astar, qs, false)
}

#[inline(never)]
fn timed_binary_heap(g: &PathGraph, goal: NodeId) -> Vec<u64> {
    binary_heap(g, goal)
}

#[inline(never)]
fn timed_dijkstra_reach(g: &PathGraph, goal: NodeId) -> Vec<u64> {
    dijkstra_reach(g, goal)
}

#[inline(never)]
fn timed_map<'g>(g: &'g PathGraph, goal: NodeId, bounds: &MapBounds) -> DijkstraMap<'g> {
    DijkstraMap::new(g, &[g.pos(goal)], bounds, &PathRules::default()).unwrap()
}

fn bench_astar(c: &mut Criterion, name: &str, d: &Dungeon, count: usize) {
    let plain = PathGraph::new(d).unwrap();
    let alt = plain.clone().with_landmarks(8);
    let qs = queries(&plain, count, 11);
    let mut astar = AStar::new();
    let counter = Cell::new(0);
    let want = theirs(&plain, &qs, &counter);
    let their_expanded = counter.replace(0);
    assert_eq!(ours(&plain, &mut astar, &qs, true), want, "every query's cost, warm");
    assert_eq!(ours(&plain, &mut astar, &qs, false), want, "every query's cost, cold");
    assert_eq!(ours(&alt, &mut astar, &qs, true), want, "every query's cost, landmarks");
    assert_eq!(theirs(&alt, &qs, &counter), want, "pathfinding with landmarks");
    let their_alt_expanded = counter.replace(0);
    let rules = PathRules::default();
    let expanded = |g: &PathGraph, astar: &mut AStar| -> usize {
        qs.iter().map(|&(a, b)| (astar.search(g, a, b, &rules), astar.expanded()).1).sum::<usize>()
    };
    println!(
        "{name}: {} nodes, {} queries; nodes expanded in all, ours / pathfinding's successor calls: octile {} / {}, landmarks {} / {}",
        plain.node_count(),
        qs.len(),
        expanded(&plain, &mut astar),
        their_expanded,
        expanded(&alt, &mut astar),
        their_alt_expanded,
    );
    let none = Cell::new(0);
    let mut group = c.benchmark_group(format!("astar_{name}"));
    group.sample_size(20);
    group.bench_function("octile/pathfinding", |b| b.iter(|| black_box(timed_theirs(&plain, &qs, &none))));
    group.bench_function("octile/ours_warm", |b| b.iter(|| black_box(timed_warm(&plain, &mut astar, &qs))));
    group.bench_function("octile/ours_cold", |b| b.iter(|| black_box(timed_cold(&plain, &mut astar, &qs))));
    group.bench_function("alt_with_build/pathfinding", |b| {
        b.iter(|| black_box(theirs(&plain.clone().with_landmarks(8), &qs, &none)))
    });
    group.bench_function("alt_with_build/ours_warm", |b| {
        b.iter(|| black_box(ours(&plain.clone().with_landmarks(8), &mut astar, &qs, true)))
    });
    group.finish();
}

/// Distances from `goal` to every node (`u64::MAX` where not reached) with a plain
/// `BinaryHeap` and a dense `Vec<u64>`. The bench dungeon's tiles all cost the same to
/// enter, so steps cost the same both ways and distances from the goal are distances to it.
fn binary_heap(g: &PathGraph, goal: NodeId) -> Vec<u64> {
    let rules = PathRules::default();
    let mut dist = vec![u64::MAX; g.node_count()];
    let mut heap = BinaryHeap::new();
    dist[goal.index()] = 0;
    heap.push(Reverse((0u64, goal)));
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > dist[v.index()] {
            continue;
        }
        for (u, c) in g.successors(v, &rules) {
            let nd = d + c;
            if nd < dist[u.index()] {
                dist[u.index()] = nd;
                heap.push(Reverse((nd, u)));
            }
        }
    }
    dist
}

/// The same distances with `pathfinding::dijkstra_reach`, collected into a `Vec<u64>`.
fn dijkstra_reach(g: &PathGraph, goal: NodeId) -> Vec<u64> {
    let rules = PathRules::default();
    let mut dist = vec![u64::MAX; g.node_count()];
    for item in pathfinding::prelude::dijkstra_reach(&goal, |&v| g.successors(v, &rules)) {
        dist[item.node.index()] = item.total_cost;
    }
    dist
}

/// Our distances ([`DijkstraMap::new`] to `goal`), as `u64` for comparison.
fn ours_map(g: &PathGraph, goal: NodeId) -> Vec<i64> {
    let bounds = MapBounds::everywhere(g);
    DijkstraMap::new(g, &[g.pos(goal)], &bounds, &PathRules::default()).unwrap().values().to_vec()
}

fn bench_map(c: &mut Criterion, name: &str, d: &Dungeon) {
    let g = PathGraph::new(d).unwrap();
    let (goal, _) = queries(&g, 1, 5)[0];
    let reference = binary_heap(&g, goal);
    let as_u64: Vec<u64> = ours_map(&g, goal)
        .iter()
        .map(|&x| if x == octile::path::UNREACHED { u64::MAX } else { x as u64 })
        .collect();
    assert_eq!(as_u64, reference, "every distance, ours against a binary heap");
    assert_eq!(dijkstra_reach(&g, goal), reference, "every distance, dijkstra_reach against a binary heap");
    let bounds = MapBounds::everywhere(&g);
    let mut group = c.benchmark_group(format!("dijkstra_map_{name}"));
    group.sample_size(20);
    group.bench_function("pathfinding_dijkstra_reach_vec", |b| {
        b.iter(|| black_box(timed_dijkstra_reach(&g, goal)))
    });
    group.bench_function("binary_heap_vec", |b| b.iter(|| black_box(timed_binary_heap(&g, goal))));
    group.bench_function("ours", |b| b.iter(|| black_box(timed_map(&g, goal, &bounds))));
    group.bench_function("graph_build", |b| b.iter(|| black_box(PathGraph::new(d).unwrap())));
    group.bench_function("landmarks_8", |b| b.iter(|| black_box(g.clone().with_landmarks(8))));
    group.finish();
}

fn benches(c: &mut Criterion) {
    if std::env::var("OCTILE_BENCH_QUICK").is_ok() {
        let tiny = dungeon(16, 2, 1);
        bench_astar(c, "16x16x2", &tiny, 8);
        bench_map(c, "16x16x2", &tiny);
        return;
    }
    let small = dungeon(64, 4, 1);
    bench_astar(c, "64x64x4", &small, 64);
    bench_map(c, "64x64x4", &small);
    let big = dungeon(256, 2, 2);
    bench_astar(c, "256x256x2", &big, 16);
    bench_map(c, "256x256x2", &big);
}

criterion_group!(path, benches);
criterion_main!(path);
