//! Differential and property tests of the pathing core: A* and Dijkstra maps against a
//! plain reference Dijkstra written here from the dungeon API alone.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use octile::dungeon::{Dungeon, EdgeDef, Fill, Registry, TileDef};
use octile::geometry::Proportions;
use octile::grid::{Direction, Pos};
use octile::path::{
    AStar, CostChange, DijkstraMap, MapBounds, Overlay, PathGraph, PathRules, Route, UNREACHED,
    dungeon_regions, stair_cost,
};
use proptest::prelude::*;

/// Standard registry plus a costly tile (`mud`, +250), a passable but unwalkable tile
/// (`rubble`) and a costly open edge (`curtain`, +100), so step costs are not symmetric.
fn registry() -> Registry {
    let mut reg = Registry::standard();
    let mut mud: TileDef = reg.tiles()[1].clone();
    mud.name = "mud".into();
    mud.symbol = '~';
    mud.move_cost = 250;
    reg.add_tile(mud).unwrap();
    let mut rubble: TileDef = reg.tiles()[1].clone();
    rubble.name = "rubble".into();
    rubble.symbol = 'r';
    rubble.walkable = false; // passable (joins regions) but not walkable this turn
    reg.add_tile(rubble).unwrap();
    let mut curtain: EdgeDef = reg.edges()[1].clone();
    curtain.name = "curtain".into();
    curtain.symbol = 'c';
    curtain.move_cost = 100;
    reg.add_edge(curtain).unwrap();
    reg
}

/// A deterministic random dungeon from a seed (splitmix64; no global RNG).
fn random_dungeon(cols: u32, rows: u32, levels: u32, seed: u64) -> Dungeon {
    let mut state = seed;
    let mut next = move |n: u64| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    };
    let reg = registry();
    let (mud, rubble) = (reg.tile("mud").unwrap(), reg.tile("rubble").unwrap());
    let curtain = reg.edge("curtain").unwrap();
    let mut d = Dungeon::with_registry(cols, rows, levels, Proportions::default(), reg, Fill::Solid).unwrap();
    let cells: Vec<Pos> = d.cells().collect();
    for &p in &cells {
        let tile = match next(11) {
            0..=2 => Registry::SOLID,
            3..=6 => Registry::FLOOR,
            7 => mud,
            8 => rubble,
            _ => Registry::STAIR,
        };
        if d.set_tile(p, tile).is_err() {
            d.set_tile(p, Registry::FLOOR).unwrap(); // a stair where none may stand
        }
    }
    for &p in &cells {
        for &dir in d.dims().walls(p.slot).unwrap() {
            let state = match next(8) {
                0 | 1 => Registry::WALL,
                2..=4 => Registry::OPEN,
                5 | 6 => Registry::DOOR,
                _ => curtain,
            };
            let _ = d.set_edge(p, dir, state); // border walls refuse: fine
        }
    }
    d
}

fn node_def(d: &Dungeon, p: Pos) -> Option<&TileDef> {
    d.tile_def(p).ok().filter(|t| t.carved && t.passable)
}

/// Every legal step out of `p` and its cost, straight from the dungeon and its registry.
fn ref_steps(d: &Dungeon, p: Pos, rules: &PathRules) -> Vec<(Pos, u64)> {
    let mut out = Vec::new();
    let Some(tp) = node_def(d, p) else { return out };
    let both_walk = |tq: &TileDef| rules.open_doors || (tp.walkable && tq.walkable);
    for &dir in d.dims().walls(p.slot).unwrap() {
        let Some(q) = d.dims().neighbor(p.slot, dir).unwrap() else { continue };
        let q = Pos { level: p.level, slot: q };
        let e = d.registry().edge_def(d.edge_state(p, dir).unwrap().unwrap()).unwrap();
        let Some(tq) = node_def(d, q) else { continue };
        // The octagon above a stair is a hole, entered and left only through the stair's exit.
        if e.passable && (rules.open_doors || e.walkable) && both_walk(tq) && d.shaft_allows(p, dir) {
            let base: u64 = if dir.is_diagonal() { 707 } else { 1000 };
            out.push((q, base + u64::from(e.move_cost) + u64::from(tq.move_cost)));
        }
    }
    let stair = u64::from(stair_cost(d.proportions()));
    let up = Pos { level: p.level + 1, ..p };
    let down = Pos { level: p.level.wrapping_sub(1), ..p };
    for (q, climbs) in [(up, tp.stair), (down, p.level > 0 && node_def(d, down).is_some_and(|t| t.stair))] {
        if !climbs || q.level >= d.levels() {
            continue;
        }
        if let Some(tq) = node_def(d, q).filter(|tq| both_walk(tq)) {
            out.push((q, stair + u64::from(tq.move_cost)));
        }
    }
    out
}

/// Plain Dijkstra over positions.
fn ref_cost(d: &Dungeon, from: Pos, to: Pos, rules: &PathRules) -> Option<u64> {
    node_def(d, from)?;
    let mut dist: BTreeMap<Pos, u64> = BTreeMap::new();
    let mut heap = BinaryHeap::new();
    dist.insert(from, 0);
    heap.push(Reverse((0u64, from)));
    while let Some(Reverse((c, p))) = heap.pop() {
        if p == to {
            return Some(c);
        }
        if dist.get(&p).is_some_and(|&best| c > best) {
            continue;
        }
        for (q, step) in ref_steps(d, p, rules) {
            if dist.get(&q).is_none_or(|&best| c + step < best) {
                dist.insert(q, c + step);
                heap.push(Reverse((c + step, q)));
            }
        }
    }
    None
}

/// Plain multi-source Dijkstra towards `seeds` (position, value): per position the least
/// `value + cost` of walking from it to a seed, staying where `inside` holds, entering
/// `smoke` at `extra` more.
fn ref_map(
    d: &Dungeon,
    seeds: &[(Pos, i64)],
    inside: impl Fn(Pos) -> bool,
    (smoke, extra): (Pos, u64),
    rules: &PathRules,
) -> BTreeMap<Pos, i64> {
    // Steps reversed: into[q] lists (p, cost of p -> q).
    let mut into: BTreeMap<Pos, Vec<(Pos, i64)>> = BTreeMap::new();
    for p in d.cells().filter(|&p| inside(p)) {
        for (q, c) in ref_steps(d, p, rules).into_iter().filter(|&(q, _)| inside(q)) {
            let c = c + if q == smoke { extra } else { 0 };
            into.entry(q).or_default().push((p, c as i64));
        }
    }
    let mut value: BTreeMap<Pos, i64> = BTreeMap::new();
    let mut heap = BinaryHeap::new();
    for &(p, v) in seeds.iter().filter(|&&(p, _)| inside(p) && node_def(d, p).is_some()) {
        if value.get(&p).is_none_or(|&best| v < best) {
            value.insert(p, v);
            heap.push(Reverse((v, p)));
        }
    }
    while let Some(Reverse((v, q))) = heap.pop() {
        if value[&q] < v {
            continue;
        }
        for &(p, c) in into.get(&q).map_or(&[][..], |x| &x[..]) {
            if value.get(&p).is_none_or(|&best| v + c < best) {
                value.insert(p, v + c);
                heap.push(Reverse((v + c, p)));
            }
        }
    }
    value
}

/// The route starts and ends where asked, every step is legal, and its cost is their sum.
fn check_route(d: &Dungeon, r: &Route, from: Pos, to: Pos, rules: &PathRules) {
    assert_eq!(r.steps.first(), Some(&from));
    assert_eq!(r.steps.last(), Some(&to));
    let mut sum = 0;
    for w in r.steps.windows(2) {
        let step = ref_steps(d, w[0], rules).into_iter().find(|&(q, _)| q == w[1]);
        let (_, c) = step.unwrap_or_else(|| panic!("illegal step {} -> {}", w[0], w[1]));
        sum += c;
    }
    assert_eq!(sum, r.cost);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn astar_and_maps_match_reference_dijkstra(
        cols in 1u32..6, rows in 1u32..6, levels in 1u32..4, seed in any::<u64>(), open_doors in any::<bool>()
    ) {
        let d = random_dungeon(cols, rows, levels, seed);
        let rules = PathRules { open_doors };
        let plain = PathGraph::new(&d).unwrap();
        let marked = PathGraph::new(&d).unwrap().with_landmarks(4);
        let floor: Vec<Pos> = d.cells().filter(|&p| node_def(&d, p).is_some()).collect();
        // `dungeon_regions` (used by `info` and the generator) walks the dungeon itself; it
        // must partition the floor exactly as the graph's passable regions do.
        let regions = octile::path::dungeon_regions(&d);
        let pass = plain.regions(&PathRules { open_doors: true });
        prop_assert_eq!(regions.count(), pass.count());
        for &a in &floor {
            for &b in &floor {
                let same_map = regions.region(octile::path::node_index(&d, a).unwrap())
                    == regions.region(octile::path::node_index(&d, b).unwrap());
                let (na, nb) = (plain.node(a).unwrap().unwrap(), plain.node(b).unwrap().unwrap());
                prop_assert_eq!(same_map, plain.connected(na, nb, &PathRules { open_doors: true }), "{} ~ {}", a, b);
            }
        }
        let mut astar = AStar::new();
        let all = MapBounds::everywhere(&plain);
        for (i, &to) in floor.iter().enumerate().step_by(3) {
            let map = DijkstraMap::new(&plain, &[to], &all, &rules).unwrap();
            for &from in floor.iter().skip(i % 5).step_by(4) {
                let want = ref_cost(&d, from, to, &rules);
                let got = astar.find(&plain, from, to, &rules).unwrap();
                prop_assert_eq!(got.as_ref().map(|r| r.cost), want, "A* {} -> {}", from, to);
                if let Some(r) = &got {
                    check_route(&d, r, from, to, &rules);
                }
                let again = astar.find(&plain, from, to, &rules).unwrap();
                prop_assert_eq!(&again, &got, "repeated search differs");
                let with_lm = astar.find(&marked, from, to, &rules).unwrap();
                prop_assert_eq!(with_lm.as_ref().map(|r| r.cost), want, "ALT A* {} -> {}", from, to);
                let value = map.value(from).unwrap();
                prop_assert_eq!(value, want.map_or(octile::path::UNREACHED, |c| c as i64));
                let down = map.descend(from).unwrap();
                prop_assert_eq!(down.as_ref().map(|r| r.cost), want, "descent {} -> {}", from, to);
                if let Some(r) = &down {
                    check_route(&d, r, from, to, &rules);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Maps with two seeds far apart in value (past the flood's bucket window), bounds, and
    /// smoke that costs a little (the bucket flood) or more than its window holds (the
    /// general search), against the plain reference.
    #[test]
    fn seeded_bounded_smoky_maps_match_reference(
        size in 2u32..7, levels in 1u32..4, seed in any::<u64>(), open_doors in any::<bool>(),
        values in (-3000i64..3000, 0i64..100_000), extra in prop::sample::select(vec![0u64, 300, 40_000]),
        rows_cut in 0u32..4, skip_level in 0u16..4,
    ) {
        let d = random_dungeon(size, size, levels, seed);
        let rules = PathRules { open_doors };
        let g = PathGraph::new(&d).unwrap();
        let floor: Vec<Pos> = d.cells().filter(|&p| node_def(&d, p).is_some()).collect();
        prop_assume!(floor.len() >= 3);
        let seeds = [(floor[0], values.0), (floor[floor.len() - 1], values.1)];
        let smoke = floor[floor.len() / 2];
        let mut overlay = Overlay::new();
        overlay.set_cell(smoke, CostChange::Add(extra as u32));
        let all = MapBounds::everywhere(&g);
        let cut = MapBounds {
            rows: rows_cut..all.rows.end,
            levels: all.levels.iter().copied().filter(|&l| l != skip_level).collect(),
            ..all.clone()
        };
        for bounds in [&all, &cut] {
            let inside = |p: Pos| {
                bounds.rows.contains(&p.slot.row) && bounds.cols.contains(&p.slot.col) && bounds.levels.contains(&p.level)
            };
            let want = ref_map(&d, &seeds, inside, (smoke, extra), &rules);
            let map = DijkstraMap::from_seeds_with(&g, &seeds, bounds, &rules, &overlay).unwrap();
            let plain = DijkstraMap::from_seeds(&g, &seeds, bounds, &rules).unwrap();
            let want_plain = ref_map(&d, &seeds, inside, (smoke, 0), &rules);
            for &p in &floor {
                let expect = want.get(&p).copied().unwrap_or(UNREACHED);
                prop_assert_eq!(map.value(p).unwrap(), expect, "{} smoke +{}", p, extra);
                let expect = want_plain.get(&p).copied().unwrap_or(UNREACHED);
                prop_assert_eq!(plain.value(p).unwrap(), expect, "{} plain", p);
            }
        }
    }
}

#[test]
fn closed_door_blocks_walking_not_regions() {
    let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor).unwrap();
    d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
    let (a, b) = (Pos::new(0, 0, 0), Pos::new(0, 0, 2));
    let closed = PathRules::default();
    let open = PathRules { open_doors: true };
    assert_eq!(octile::path::find_path(&d, a, b, &closed).unwrap(), None);
    assert_eq!(octile::path::find_path(&d, a, b, &open).unwrap().unwrap().cost, 1000);
    let g = PathGraph::new(&d).unwrap();
    assert_eq!(g.regions(&closed).count(), 2);
    assert_eq!(g.regions(&open).count(), 1);
    assert_eq!(dungeon_regions(&d).count(), 1);
}

#[test]
fn route_through_two_stairs_pays_for_both() {
    // A corridor of 4 octagons on 3 levels. Each stair leaves east at the top (the first
    // cardinal open above), so its landing closes its east wall below: the way on is up.
    let mut d = Dungeon::new(4, 1, 3, Proportions::default(), Fill::Floor).unwrap();
    d.set_tile(Pos::new(0, 0, 2), Registry::STAIR).unwrap();
    d.set_tile(Pos::new(1, 0, 4), Registry::STAIR).unwrap();
    let (from, to) = (Pos::new(0, 0, 0), Pos::new(2, 0, 6));
    let stair = u64::from(stair_cost(d.proportions()));
    for g in [PathGraph::new(&d).unwrap(), PathGraph::new(&d).unwrap().with_landmarks(8)] {
        let r = AStar::new().find(&g, from, to, &PathRules::default()).unwrap().unwrap();
        assert_eq!(r.cost, 3 * 1000 + 2 * stair);
        let want = [(0, 0), (0, 2), (1, 2), (1, 4), (2, 4), (2, 6)].map(|(l, c)| Pos::new(l, 0, c));
        assert_eq!(r.steps, want);
        check_route(&d, &r, from, to, &PathRules::default());
    }
}

#[test]
fn repeated_searches_are_identical() {
    let d = random_dungeon(12, 12, 3, 7);
    let g = PathGraph::new(&d).unwrap().with_landmarks(8);
    let floor: Vec<Pos> = d.cells().filter(|&p| node_def(&d, p).is_some()).collect();
    let rules = PathRules { open_doors: true };
    let mut shared = AStar::new();
    let mut first = Vec::new();
    for w in floor.windows(2).step_by(7) {
        first.push(shared.find(&g, w[0], w[1], &rules).unwrap());
    }
    assert!(first.iter().filter(|r| r.as_ref().is_some_and(|r| r.steps.len() > 3)).count() > 3);
    for (w, want) in floor.windows(2).step_by(7).zip(&first) {
        assert_eq!(&shared.find(&g, w[0], w[1], &rules).unwrap(), want);
        assert_eq!(&AStar::new().find(&g, w[0], w[1], &rules).unwrap(), want);
    }
}
