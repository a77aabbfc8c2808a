//! The game-runtime core, side by side with the way it was done before, on a 64 x 64
//! octagon dungeon of 4 levels. Every pair's outputs are asserted equal before anything is
//! timed.
//!
//! - `door_toggle`: one door opened or closed with its region report. `reread` is the old
//!   way: the path graph read before and after the change to compare regions, the caller's
//!   copy being the second read; `update_edge` is `Dungeon::open_door_with` /
//!   `close_door_with`, which keep the caller's graph current in place. Two doors: one
//!   with another way round (no region changes) and one whose closing splits a region.
//! - `window_map`: a Dijkstra map bounded to a 41 x 41-slot window round the player:
//!   `DijkstraMap` with those bounds (a value per node of the graph) against `WindowMap`
//!   (a value per slot of the window).
//!
//! - `burst`: a fireball's blast of radius 6 slots in an open hall: `sight::burst` (a field
//!   of view, then a line per visible cell) against `sight::footprint` with
//!   `TargetMode::Burst` (a line per cell of the disc).
//!
//! Run: `cargo bench --no-default-features --bench runtime` (set `OCTILE_BENCH_QUICK=1`
//! for a small dungeon only).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use octile::dungeon::{Dungeon, Fill, RegionChange, Registry};
use octile::geometry::Proportions;
use octile::grid::{Direction, Pos, SlotKind};
use octile::path::{DijkstraMap, MapBounds, PathGraph, PathRules, WindowMap};
use octile::sight::{TargetMode, burst, footprint};

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

/// `size x size` octagons x `levels`: most cells floor, 15% of edges walls and 10% doors
/// (closed), no stairs.
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
        for &dir in d.dims().walls(p.slot).unwrap() {
            if d.dims().neighbor(p.slot, dir).unwrap().is_none_or(|o| o < p.slot) {
                continue;
            }
            let state = match rng.below(100) {
                0..15 => Registry::WALL,
                15..25 => Registry::DOOR,
                _ => Registry::OPEN,
            };
            d.set_edge(p, dir, state).unwrap();
        }
    }
    d
}

/// The old `open_door`: the graph read before and after the change, the regions of the
/// door's two cells compared; returns the walkable regions' change and the graph after.
fn reread(d: &mut Dungeon, pos: Pos, dir: Direction, open: bool) -> (RegionChange, PathGraph) {
    let joined = |g: &PathGraph, sides: [Pos; 2]| match (g.node(sides[0]), g.node(sides[1])) {
        (Ok(Some(a)), Ok(Some(b))) => g.connected(a, b, &PathRules::default()),
        _ => false,
    };
    let other = Pos { slot: d.dims().neighbor(pos.slot, dir).unwrap().unwrap(), ..pos };
    let before = PathGraph::new(d).unwrap();
    d.set_edge(pos, dir, if open { Registry::DOOR_OPEN } else { Registry::DOOR }).unwrap();
    let after = PathGraph::new(d).unwrap();
    let change = match (joined(&before, [pos, other]), joined(&after, [pos, other])) {
        (false, true) => RegionChange::Joined,
        (true, false) => RegionChange::Split,
        _ => RegionChange::Unchanged,
    };
    (change, after)
}

/// The kept graph's way.
fn update(d: &mut Dungeon, g: &mut PathGraph, pos: Pos, dir: Direction, open: bool) -> RegionChange {
    let change = if open { d.open_door_with(g, pos, dir) } else { d.close_door_with(g, pos, dir) };
    change.unwrap().walk_regions
}

/// The first closed door whose opening changes the walkable regions as `splits` says
/// (a door between two carved cells).
fn find_door(d: &Dungeon, splits: bool) -> (Pos, Direction) {
    let mut probe = d.clone();
    let mut g = PathGraph::new(&probe).unwrap();
    for pos in d.cells().filter(|&p| d.is_carved(p)) {
        for &dir in d.dims().walls(pos.slot).unwrap() {
            if d.edge_state(pos, dir).unwrap() != Some(Registry::DOOR) || d.carved_seam(pos, dir).is_none() {
                continue;
            }
            let joined = update(&mut probe, &mut g, pos, dir, true) == RegionChange::Joined;
            update(&mut probe, &mut g, pos, dir, false);
            if joined == splits {
                return (pos, dir);
            }
        }
    }
    panic!("no such door");
}

fn door_toggle(c: &mut Criterion, size: u32) {
    let base = dungeon(size, 4, 7);
    let mut group = c.benchmark_group(format!("door_toggle_{size}x{size}x4"));
    for (name, splits) in [("another_way_round", false), ("splits", true)] {
        let (pos, dir) = find_door(&base, splits);
        // Equal outputs: the report and the graph after, toggle after toggle.
        let (mut old_d, mut new_d) = (base.clone(), base.clone());
        let mut kept = PathGraph::new(&new_d).unwrap();
        for round in 0..4 {
            let open = round % 2 == 0;
            let (old_change, after) = reread(&mut old_d, pos, dir, open);
            assert_eq!(update(&mut new_d, &mut kept, pos, dir, open), old_change, "{name} round {round}");
            for rules in [PathRules::default(), PathRules { open_doors: true }] {
                assert_eq!(kept.regions(&rules), after.regions(&rules));
                assert!(after.nodes().all(|v| kept.successors(v, &rules).eq(after.successors(v, &rules))));
            }
        }
        eprintln!("door_toggle {name}: {pos} {dir:?}; {} nodes", kept.node_count());
        let mut open = true;
        group.bench_function(format!("{name}/reread"), |b| {
            b.iter(|| {
                let r = reread(&mut old_d, pos, dir, open);
                open = !open;
                black_box(r)
            })
        });
        let mut open = true;
        group.bench_function(format!("{name}/update_edge"), |b| {
            b.iter(|| {
                let r = update(&mut new_d, &mut kept, pos, dir, open);
                open = !open;
                black_box(r)
            })
        });
    }
    group.finish();
}

fn window_map(c: &mut Criterion, size: u32) {
    let mut d = dungeon(size, 1, 11);
    // The player stands in the middle octagon; doors count as open (`open_doors`).
    let centre = Pos::new(0, size - 1, size - 1);
    d.set_tile(centre, Registry::FLOOR).unwrap();
    let g = PathGraph::new(&d).unwrap();
    let (r, cc) = (centre.slot.row, centre.slot.col);
    let bounds = MapBounds { rows: r - 20..r + 21, cols: cc - 20..cc + 21, levels: vec![0] };
    let rules = PathRules { open_doors: true };
    let full = DijkstraMap::new(&g, &[centre], &bounds, &rules).unwrap();
    let window = WindowMap::new(&g, &[centre], &bounds, &rules).unwrap();
    for v in g.nodes() {
        assert_eq!(window.value(g.pos(v)).unwrap(), full.values()[v.index()], "{}", g.pos(v));
    }
    eprintln!(
        "window_map: {} values in the window, {} in the bounded DijkstraMap ({} nodes)",
        window.len(),
        full.values().len(),
        g.node_count()
    );
    let mut group = c.benchmark_group(format!("window_map_41x41_on_{size}x{size}"));
    group.bench_function("dijkstra_map_bounded", |b| {
        b.iter(|| black_box(DijkstraMap::new(&g, &[centre], &bounds, &rules).unwrap().values()[0]))
    });
    group.bench_function("window_map", |b| {
        b.iter(|| black_box(WindowMap::new(&g, &[centre], &bounds, &rules).unwrap().len()))
    });
    group.finish();
}

fn blast(c: &mut Criterion) {
    let mut d = Dungeon::new(16, 16, 1, Proportions::default(), Fill::Floor).unwrap();
    for (row, col) in [(14, 14), (12, 18), (18, 10)] {
        d.set_tile(Pos::new(0, row, col), Registry::SOLID).unwrap();
    }
    let centre = Pos::new(0, 16, 16);
    let metres = 6.0 * d.layout().spacing() + 1e-9;
    let mode = TargetMode::Burst { radius: 6 };
    let ours = footprint(&d, centre, &mode, |_| false, |_| false).unwrap();
    assert_eq!(ours.cells, burst(&d, centre, metres, |_| false).unwrap());
    let mut group = c.benchmark_group("burst_radius_6");
    group.bench_function("field_of_view_burst", |b| {
        b.iter(|| black_box(burst(&d, centre, metres, |_| false).unwrap()))
    });
    group.bench_function("footprint_burst", |b| {
        b.iter(|| black_box(footprint(&d, centre, &mode, |_| false, |_| false).unwrap()))
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let size = if std::env::var_os("OCTILE_BENCH_QUICK").is_some() { 24 } else { 64 };
    door_toggle(c, size);
    window_map(c, size);
    blast(c);
}

criterion_group!(runtime, benches);
criterion_main!(runtime);
