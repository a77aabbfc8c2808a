//! Columns across storeys: atria open through the storeys above, void cells, balconies and
//! their railings, decks, drops (docs/design.md, "Columns across storeys").

mod support;

use octile::dungeon::{Carve, Dungeon, DungeonError, Fill, PillarState, RAILING_HEIGHT, Registry};
use octile::geometry::Proportions;
use octile::grid::{EdgeId, Pos, Slot};
use octile::mesh::{self, MaterialRole, MeshError, MeshOptions};
use proptest::prelude::*;
use support::{Tri, assert_watertight, world};

/// The carved surface: everything but the stand-alone stair solids.
fn carved_surface(r: MaterialRole) -> bool {
    r != MaterialRole::Stair
}

/// A floor dungeon of `n` x `n` octagons and `levels` levels whose cells with row and col
/// in `lo..=hi` are void on every level from 1 up to `top` (an atrium `top` storeys tall
/// over level 0).
fn atrium(n: u32, levels: u32, lo: u32, hi: u32, top: u16) -> Dungeon {
    let mut d = Dungeon::new(n, n, levels, Proportions::default(), Fill::Floor).unwrap();
    let void = d.void_tile().unwrap();
    for level in 1..=top {
        for slot in d.dims().cells().filter(|s| (lo..=hi).contains(&s.row) && (lo..=hi).contains(&s.col)) {
            d.set_tile(Pos { level, slot }, void).unwrap();
        }
    }
    d
}

/// The edges between a void and a cell that is not, carved edge-wide, on `level`
/// (a reference written here from the docs, not the dungeon's own rule).
fn rim_edges(d: &Dungeon, level: u16) -> Vec<(EdgeId, bool)> {
    let mut out = Vec::new();
    for edge in d.dims().edges() {
        let sides = d.dims().edge_sides(edge).unwrap();
        let defs = sides.map(|(slot, _)| d.tile_def(Pos { level, slot }).unwrap().clone());
        if !(defs[0].carved && defs[1].carved) || defs[0].void == defs[1].void {
            continue;
        }
        let state = d.registry().edge_def(d.edge_state_of(level, edge).unwrap()).unwrap();
        // Where a ramp meets its top the rim carries neither railing nor drop.
        let ramp_top = d.ramps().iter().any(|r| r.level + 1 == level && d.ramp_top_edge(r) == Some(edge));
        if state.carve == Carve::Full && !ramp_top {
            out.push((edge, state.drop));
        }
    }
    out
}

/// The 5x5 two-level atrium ([`atrium`]) with its first rim edge a drop point: level 1's
/// floor meets level 0 only through it.
fn atrium_with_a_drop() -> Dungeon {
    let mut d = atrium(5, 2, 3, 5, 1);
    let drop = d.drop_state().unwrap();
    let (edge, _) = rim_edges(&d, 1)[0];
    d.set_edge_of(1, edge, drop).unwrap();
    d
}

fn check_closed(d: &Dungeon, what: &str) {
    let m = mesh::build(d, &MeshOptions::default()).unwrap();
    let surface = world(&m, carved_surface);
    if !surface.is_empty() {
        assert_watertight(&surface, &format!("{what}: carved volume"));
    }
    for r in mesh::railings(d) {
        let tris: Vec<Tri> = r.triangles().into_iter().map(|t| t.map(|v| v.to_array())).collect();
        assert_watertight(&tris, &format!("{what}: railing {r:?}"));
    }
    for level in 0..d.levels() {
        let expected: Vec<EdgeId> =
            rim_edges(d, level).into_iter().filter(|(_, drop)| !drop).map(|(e, _)| e).collect();
        let got: Vec<EdgeId> =
            mesh::railings(d).iter().filter(|r| r.level == level).map(|r| r.edge).collect();
        assert_eq!(got, expected, "{what}: level {level}: a railing on every open rim edge but drops");
    }
}

#[test]
fn an_atrium_one_and_two_storeys_tall_is_closed_and_railed() {
    for top in [1, 2] {
        let d = atrium(5, 3, 3, 5, top);
        assert!(d.problems().is_empty(), "{:?}", d.problems());
        assert!(d.open_above(Pos::new(0, 4, 4)) && d.is_void(Pos::new(1, 4, 4)));
        assert_eq!(d.room_height_at(Pos::new(0, 4, 4)), d.proportions().layer_height);
        check_closed(&d, &format!("atrium {top} storeys"));
        assert!(!mesh::railings(&d).is_empty());
    }
}

#[test]
fn no_ceiling_over_an_atrium_and_no_floor_in_its_void() {
    let d = atrium(5, 2, 3, 5, 1);
    let m = mesh::build(&d, &MeshOptions::default()).unwrap();
    let lh = d.proportions().layer_height;
    let centre = d.layout().center(Slot::new(4, 4));
    let covers = |l: usize, role: MaterialRole, y: f64| {
        support::level(&m, l, |r| r == role).iter().any(|t| {
            t.iter().all(|v| (v[1] - y).abs() < 1e-6) && {
                let (a, b, c) = (t[0], t[1], t[2]);
                let s = |p: [f64; 3], q: [f64; 3]| {
                    (q[0] - p[0]) * (centre.y - p[2]) - (q[2] - p[2]) * (centre.x - p[0])
                };
                let (x, y, z) = (s(a, b), s(b, c), s(c, a));
                (x >= 0.0 && y >= 0.0 && z >= 0.0) || (x <= 0.0 && y <= 0.0 && z <= 0.0)
            }
        })
    };
    assert!(!covers(0, MaterialRole::Ceiling, d.proportions().room_height));
    assert!(!covers(0, MaterialRole::Ceiling, lh));
    assert!(!covers(1, MaterialRole::Floor, 0.0));
    assert!(covers(0, MaterialRole::Floor, 0.0));
    assert!(covers(1, MaterialRole::Ceiling, d.proportions().room_height));
}

#[test]
fn railings_stand_on_the_floor_side_one_metre_high() {
    let d = atrium(5, 2, 3, 5, 1);
    for r in mesh::railings(&d) {
        let tris = r.triangles();
        let top = tris.iter().flatten().map(|v| v.y).fold(f64::MIN, f64::max);
        assert!((top - (d.proportions().floor_y(1) + RAILING_HEIGHT)).abs() < 1e-5);
        // The local +Z side points away from the void, towards the floor cell.
        let plan = |p: glam::DVec3| glam::DVec2::new(p.x, p.z);
        let on_wall = r.start + r.rotation() * glam::DVec3::new(r.length / 2.0, 0.5, 0.0);
        let inside = r.start + r.rotation() * glam::DVec3::new(r.length / 2.0, 0.5, 0.1);
        let void = d.railing_edges(1).into_iter().find(|e| e.edge == r.edge).unwrap().void.0;
        let from = |p: glam::DVec3, slot: Slot| (d.layout().center(slot) - plan(p)).length();
        assert!(from(inside, r.floor.slot) < from(on_wall, r.floor.slot), "{r:?}");
        assert!(from(inside, void) > from(on_wall, void), "{r:?}");
    }
}

#[test]
fn a_drop_point_has_no_railing_and_doors_into_voids_are_refused() {
    let mut d = atrium_with_a_drop();
    let edge = d.drops(1)[0].edge;
    check_closed(&d, "with a drop point");
    assert!(mesh::railings(&d).iter().all(|r| r.edge != edge));
    // A door in the atrium's wall on level 0 is refused, naming the place.
    let (slot, dir) = (Slot::new(4, 4), octile::grid::Direction::E);
    d.set_edge(Pos { level: 0, slot }, dir, Registry::DOOR).unwrap();
    let problem = d.problems().into_iter().next().expect("a door into an atrium is a problem");
    assert!(matches!(problem, DungeonError::DoorIntoVoid { level: 0, row: 4, col: 4, .. }), "{problem:?}");
    assert!(matches!(mesh::build(&d, &MeshOptions::default()), Err(MeshError::Column(_))));
    // A void over rock too.
    let mut e = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Solid).unwrap();
    let void = e.void_tile().unwrap();
    e.set_tile(Pos::new(1, 2, 2), void).unwrap();
    let text = e.problems()[0].to_string();
    assert!(text.contains("row 2, col 2") && text.contains("rock"), "{text}");
}

#[test]
fn a_bridge_over_an_atrium_stands_on_a_deck() {
    // A row of floor cells across the void on level 1: their cells below are under a deck.
    let mut d = atrium(5, 2, 2, 6, 1);
    let floor = Registry::FLOOR;
    for col in 2..=6 {
        let slot = Slot::new(4, col);
        if slot.kind().is_cell() {
            d.set_tile(Pos { level: 1, slot }, floor).unwrap();
        }
    }
    let p = d.proportions();
    assert!(d.under_deck(Pos::new(0, 4, 4)));
    assert_eq!(d.room_height_at(Pos::new(0, 4, 4)), p.layer_height - octile::dungeon::DECK_THICKNESS);
    check_closed(&d, "bridge");
}

/// A random small dungeon of 3 levels with voids: tiles floor, solid or void (void only
/// over carved cells that are not stairs), edges open, wall, door or drop (no doors on the
/// walls of void or open-above cells), stairs where they may stand, room heights and open
/// pillars.
fn random_columns(cells: &[u8], edges: &[u8], stairs: &[bool], heights: &[u8]) -> Dungeon {
    let mut d = Dungeon::new(3, 3, 3, Proportions::default(), Fill::Solid).unwrap();
    let (void, drop) = (d.void_tile().unwrap(), d.drop_state().unwrap());
    let dims = d.dims();
    let positions: Vec<Pos> = d.cells().collect();
    for (p, c) in positions.iter().zip(cells.iter().cycle()) {
        let below_carved = p.level > 0 && d.tile_def(Pos { level: p.level - 1, ..*p }).unwrap().carved;
        let tile = match c % 4 {
            0 => Registry::SOLID,
            3 if below_carved => void,
            _ => Registry::FLOOR,
        };
        d.set_tile(*p, tile).unwrap();
    }
    for (p, h) in positions.iter().zip(heights.iter().cycle()) {
        if let Some(&metres) = [2.5, 6.0, 9.0].get(usize::from(*h)) {
            d.set_room_height(*p, metres).unwrap();
        }
    }
    let octs: Vec<Slot> = dims.cells().filter(|s| s.row % 2 == 0 && s.col % 2 == 0).collect();
    for level in 0..2u16 {
        for (s, &st) in octs.iter().zip(stairs.iter().skip(usize::from(level) * octs.len())) {
            let (here, up) = (Pos { level, slot: *s }, Pos { level: level + 1, slot: *s });
            let ok = |p: Pos| {
                let t = d.tile_def(p).unwrap();
                t.carved && !t.void && !t.stair
            };
            if st
                && ok(here)
                && ok(up)
                && (level == 0 || !d.tile_def(Pos { level: level - 1, ..here }).unwrap().stair)
            {
                d.set_tile(here, Registry::STAIR).unwrap();
            }
        }
    }
    let all: Vec<EdgeId> = dims.edges().collect();
    for level in 0..3 {
        for (e, s) in all.iter().zip(edges.iter().cycle().skip(usize::from(level) * 7)) {
            let state = [Registry::OPEN, Registry::WALL, Registry::DOOR, drop][usize::from(s % 4)];
            d.set_edge_of(level, *e, state).unwrap();
        }
    }
    // No doors where a column runs through storeys.
    for level in 0..3 {
        for e in &all {
            let sides = dims.edge_sides(*e).unwrap();
            let column = sides.iter().any(|&(slot, _)| {
                let p = Pos { level, slot };
                d.is_void(p) || d.open_above(p)
            });
            if column && d.edge_state_of(level, *e).unwrap() == Registry::DOOR {
                d.set_edge_of(level, *e, Registry::OPEN).unwrap();
            }
        }
    }
    for level in 0..3 {
        let pillars: Vec<_> = dims.pillars().collect();
        for (p, c) in pillars.into_iter().zip(cells.iter().cycle().skip(usize::from(level))) {
            if c % 2 == 1 && d.pillar_can_open(level, p).is_ok() {
                d.set_pillar(level, p, PillarState::Open).unwrap();
            }
        }
    }
    d
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
    #[test]
    fn random_columns_are_closed(
        cells in prop::collection::vec(0u8..8, 1..60),
        edges in prop::collection::vec(0u8..8, 1..40),
        stairs in prop::collection::vec(any::<bool>(), 18),
        heights in prop::collection::vec(0u8..6, 1..40),
    ) {
        let d = random_columns(&cells, &edges, &stairs, &heights);
        prop_assert!(d.problems().iter().all(|p| matches!(p, DungeonError::StairOnStair { .. })), "{:?}", d.problems());
        check_closed(&d, "random");
    }
}

#[test]
fn random_columns_do_hold_atria_and_railings() {
    // The proptest's dungeons, from a fixed stream: most have void cells and railings.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |n: u8| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % u64::from(n)) as u8
    };
    let mut railed = 0;
    for case in 0..40 {
        let cells: Vec<u8> = (0..60).map(|_| next(8)).collect();
        let edges: Vec<u8> = (0..40).map(|_| next(8)).collect();
        let stairs: Vec<bool> = (0..18).map(|_| next(2) == 1).collect();
        let heights: Vec<u8> = (0..40).map(|_| next(6)).collect();
        let d = random_columns(&cells, &edges, &stairs, &heights);
        check_closed(&d, &format!("case {case}"));
        railed += usize::from(!mesh::railings(&d).is_empty());
    }
    assert!(railed >= 20, "only {railed} of 40 random dungeons have a railing");
}

/// Distances from `from` by a Dijkstra written here from docs/path.md, docs/stairs.md and
/// docs/design.md (doors open), not from the path graph's code:
/// - across a passable edge onto a passable cell of the level, one-way doors only their
///   way: a long step 1000, a short one 707, plus the edge's and the entered tile's move
///   costs; never out of or into the hole over a stair but through its exit, never through
///   the wall a stair's landing stands against;
/// - up a stair tile to the octagon above it, or down onto a stair from above:
///   `stair_cost` plus the entered tile's move cost;
/// - across a drop point into a void, to the first cell down its column when that is
///   walkable: the step plus `fall_cost` per storey, one way;
/// - between the last octagon a sound ramp runs over and the ramp's top on the level
///   above, both ways across the top's seam: a long step plus `ramp_climb_cost`, plus the
///   seam's and the entered tile's move costs.
fn oracle(d: &Dungeon, from: Pos) -> std::collections::BTreeMap<Pos, u64> {
    use octile::grid::Direction;
    let p = d.proportions();
    let (stair, fall, climb) = (
        u64::from(octile::path::stair_cost(p)),
        u64::from(octile::path::fall_cost(p)),
        u64::from(octile::path::ramp_climb_cost(p)),
    );
    let def = |p: Pos| d.tile_def(p).ok().cloned();
    let node = |p: Pos| def(p).is_some_and(|t| t.carved && t.passable);
    let is_stair = |p: Pos| def(p).is_some_and(|t| t.stair);
    // The shaft rule, one side of a step through wall `dir` of `p`.
    let shaft_lets = |p: Pos, dir: Direction| {
        let below = Pos { level: p.level.wrapping_sub(1), ..p };
        let hole = p.level > 0 && is_stair(below);
        (!hole || d.stair_exit(below) == Some(dir)) && !(is_stair(p) && d.stair_landing(p) == Some(dir))
    };
    let step_to = |at: Pos, dir: Direction| {
        d.dims().neighbor(at.slot, dir).ok().flatten().map(|slot| Pos { slot, ..at })
    };
    // The ramps' top steps, each way: (from, to, the seam's level and wall from its void).
    let mut ramp_steps = Vec::new();
    for r in d.ramps().iter().filter(|r| d.ramp_is_sound(r)) {
        let mut last = Pos { level: r.level, slot: r.foot };
        for _ in 0..d.ramp_run() {
            last = step_to(last, r.dir).unwrap();
        }
        let top = Pos { level: r.level + 1, ..step_to(last, r.dir).unwrap() };
        let seam = Pos { level: r.level + 1, ..last };
        ramp_steps.push((last, top, seam, r.dir));
        ramp_steps.push((top, last, seam, r.dir));
    }
    let mut dist = std::collections::BTreeMap::new();
    let mut queue = std::collections::BinaryHeap::new();
    queue.push(std::cmp::Reverse((0u64, from)));
    while let Some(std::cmp::Reverse((cost, at))) = queue.pop() {
        if dist.contains_key(&at) {
            continue;
        }
        dist.insert(at, cost);
        let enter = |p: Pos| u64::from(def(p).unwrap().move_cost);
        for dir in Direction::ALL {
            let Ok(Some(state)) = d.edge_state(at, dir) else { continue };
            let edge = d.registry().edge_def(state).unwrap();
            let Some(next) = step_to(at, dir) else { continue };
            let base = if dir.is_diagonal() { 707 } else { 1000 } + u64::from(edge.move_cost);
            let one_way_ok = edge.mechanism.is_none_or(|m| m.allows(at.slot, next.slot));
            if edge.passable
                && node(next)
                && one_way_ok
                && shaft_lets(at, dir)
                && shaft_lets(next, dir.opposite())
            {
                queue.push(std::cmp::Reverse((cost + base + enter(next), next)));
            } else if edge.drop && def(next).is_some_and(|t| t.void) {
                let mut land = next;
                while def(land).is_some_and(|t| t.void) && land.level > 0 {
                    land.level -= 1;
                }
                if def(land).is_some_and(|t| !t.void && t.walkable) {
                    let storeys = u64::from(next.level - land.level);
                    queue.push(std::cmp::Reverse((cost + base + enter(land) + storeys * fall, land)));
                }
            }
        }
        let up = Pos { level: at.level + 1, ..at };
        if is_stair(at) && node(up) {
            queue.push(std::cmp::Reverse((cost + stair + enter(up), up)));
        }
        if at.level > 0 {
            let down = Pos { level: at.level - 1, ..at };
            if is_stair(down) && node(down) {
                queue.push(std::cmp::Reverse((cost + stair + enter(down), down)));
            }
        }
        for &(a, b, seam, dir) in ramp_steps.iter().filter(|s| s.0 == at) {
            let edge = d.registry().edge_def(d.edge_state(seam, dir).unwrap().unwrap()).unwrap();
            if edge.passable && node(b) {
                queue
                    .push(std::cmp::Reverse((cost + 1000 + climb + u64::from(edge.move_cost) + enter(b), b)));
            }
            debug_assert_eq!(a, at);
        }
    }
    dist
}

#[test]
fn a_drop_is_walked_down_only_at_the_walk_plus_the_fall() {
    use octile::path::{AStar, PathGraph, PathRules};
    let d = atrium_with_a_drop();
    let g = PathGraph::new(&d).unwrap();
    let rules = PathRules { open_doors: true };
    let (top, bottom) = (Pos::new(1, 0, 0), Pos::new(0, 8, 8));
    let mut astar = AStar::new();
    let route = astar.find(&g, top, bottom, &rules).unwrap().expect("down by the drop");
    assert_eq!(route.cost, oracle(&d, top)[&bottom]);
    assert!(route.steps.windows(2).any(|w| w[0].level == 1 && w[1].level == 0));
    assert_eq!(astar.find(&g, bottom, top, &rules).unwrap(), None, "never walked upwards");
    assert_eq!(g.regions(&rules).count(), 1, "regions ignore direction");
    assert!(!oracle(&d, bottom).contains_key(&top));
}

#[test]
fn paths_across_drops_agree_with_an_independent_oracle() {
    use octile::path::{AStar, PathGraph, PathRules};
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let rules = PathRules { open_doors: true };
    let mut astar = AStar::new();
    let (mut pairs, mut drops_taken, mut one_way) = (0, 0, 0);
    for case in 0..100 {
        let cells: Vec<u8> = (0..60).map(|_| next(8) as u8).collect();
        let edges: Vec<u8> = (0..40).map(|_| next(8) as u8).collect();
        let heights: Vec<u8> = (0..40).map(|_| next(6) as u8).collect();
        let stairs: Vec<bool> = (0..18).map(|_| next(3) == 0).collect();
        let d = random_columns(&cells, &edges, &stairs, &heights);
        let g = PathGraph::new(&d).unwrap().with_landmarks(4);
        let nodes: Vec<Pos> = d.cells().filter(|&p| g.node(p).unwrap().is_some()).collect();
        if nodes.len() < 2 {
            continue;
        }
        for _ in 0..20 {
            let a = nodes[next(nodes.len() as u64) as usize];
            let b = nodes[next(nodes.len() as u64) as usize];
            let want = oracle(&d, a).get(&b).copied();
            let got = astar.find(&g, a, b, &rules).unwrap();
            assert_eq!(got.as_ref().map(|r| r.cost), want, "case {case}: {a} -> {b}");
            if let Some(r) = got {
                let fell = r.steps.windows(2).any(|w| w[1].level < w[0].level);
                drops_taken += usize::from(fell);
                if fell && !oracle(&d, b).contains_key(&a) {
                    one_way += 1;
                }
            }
            pairs += 1;
        }
    }
    assert!(pairs >= 1500, "{pairs} pairs checked");
    assert!(drops_taken >= 50, "only {drops_taken} routes took a drop");
    assert!(one_way >= 10, "only {one_way} routes were one-way");
}

/// Generated dungeons of `size` x `size` octagons and three levels, seeds `seeds`, with
/// atria, ramps and pits cut: `octile path`'s A* agrees with the oracle on reachability and
/// cost for `sources` starts a dungeon, each to 20 goals. Returns the pairs checked and the
/// routes that took a stair, a ramp and a drop.
fn generated_paths_agree_with_the_oracle(
    size: u32,
    seeds: std::ops::Range<u64>,
    sources: usize,
) -> [usize; 4] {
    use octile::path::{AStar, PathGraph, PathRules};
    let rules = PathRules { open_doors: true };
    let mut astar = AStar::new();
    let mut counts = [0usize; 4];
    for seed in seeds {
        let options = octile::generate::GenerateOptions {
            seed,
            levels: 3,
            cols: size,
            rows: size,
            ..Default::default()
        };
        let mut d = octile::generate::generate(&options, &mut |_| {}).unwrap();
        octile::generate::open_atria(&mut d).unwrap();
        octile::generate::cut_ramps(&mut d).unwrap();
        octile::generate::open_pits(&mut d).unwrap();
        let g = PathGraph::new(&d).unwrap();
        let nodes: Vec<Pos> = d.cells().filter(|&p| g.node(p).unwrap().is_some()).collect();
        let ramp_ends: Vec<(Pos, Pos)> = d
            .ramps()
            .iter()
            .filter_map(|r| d.ramp_cells(r))
            .map(|c| (*c.run.last().unwrap(), c.top))
            .collect();
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..sources {
            let a = nodes[next(nodes.len())];
            let from_a = oracle(&d, a);
            for _ in 0..20 {
                let b = nodes[next(nodes.len())];
                let got = astar.find(&g, a, b, &rules).unwrap();
                assert_eq!(got.as_ref().map(|r| r.cost), from_a.get(&b).copied(), "seed {seed}: {a} -> {b}");
                counts[0] += 1;
                if let Some(r) = got {
                    for w in r.steps.windows(2) {
                        let (s, t) = (w[0], w[1]);
                        if s.level == t.level {
                            continue;
                        }
                        let on_ramp = ramp_ends.iter().any(|&(x, y)| (x, y) == (s, t) || (y, x) == (s, t));
                        let kind = if s.slot == t.slot {
                            1
                        } else if on_ramp {
                            2
                        } else {
                            3
                        };
                        counts[kind] += 1;
                    }
                }
            }
        }
    }
    counts
}

#[test]
fn generated_paths_with_stairs_ramps_and_drops_agree_with_the_oracle() {
    let [pairs, stairs, ramps, drops] = generated_paths_agree_with_the_oracle(16, 0..2, 3);
    assert_eq!(pairs, 120);
    assert!(stairs > 0 && ramps > 0 && drops > 0, "stairs {stairs}, ramps {ramps}, drops {drops}");
}

/// The run: 100 generated 32x32x3 dungeons with atria, ramps and pits
/// (`cargo test --release --test columns -- --ignored --nocapture`).
#[test]
#[ignore = "long: 100 generated 32x32x3 dungeons; run with --release -- --ignored"]
fn a_hundred_generated_dungeons_path_as_the_oracle_does() {
    let a = std::thread::spawn(|| generated_paths_agree_with_the_oracle(32, 0..50, 10));
    let b = generated_paths_agree_with_the_oracle(32, 50..100, 10);
    let a = a.join().unwrap();
    let [pairs, stairs, ramps, drops] = [0, 1, 2, 3].map(|i| a[i] + b[i]);
    eprintln!("oracle: {pairs} pairs agree; routes stepped {stairs} stairs, {ramps} ramps, {drops} drops");
    assert_eq!(pairs, 20_000);
    assert!(stairs > 0 && ramps > 0 && drops > 0);
}

#[test]
fn generated_atria_export_railings_as_nodes_of_their_own() {
    use octile::export::{self, ExportOptions};
    let options =
        octile::generate::GenerateOptions { seed: 3, levels: 3, cols: 16, rows: 16, ..Default::default() };
    let mut d = octile::generate::generate(&options, &mut |_| {}).unwrap();
    let atria = octile::generate::open_atria(&mut d).unwrap();
    assert_eq!(atria.len(), 2, "one atrium on each level but the top");
    assert!(d.problems().is_empty(), "{:?}", d.problems());
    check_closed(&d, "generated atria");
    let rails = mesh::railings(&d);
    assert!(!rails.is_empty());
    let bytes = export::Export::new(&d, &ExportOptions::default()).to_glb().unwrap();
    let g = gltf::Gltf::from_slice(&bytes).unwrap();
    let named: Vec<_> = g.nodes().filter(|n| n.name().is_some_and(|s| s.starts_with("Railing_"))).collect();
    assert_eq!(named.len(), rails.len());
    for n in &named {
        let extras: serde_json::Value = serde_json::from_str(n.extras().as_ref().unwrap().get()).unwrap();
        assert_eq!(extras["role"], "railing");
        assert!(n.mesh().is_some_and(|m| m.name().is_some_and(|s| s.starts_with("Railing_"))));
    }
    // Each is a child of its level's node.
    let levels: Vec<_> = g.nodes().filter(|n| n.name().is_some_and(|s| s.starts_with("Level_"))).collect();
    assert_eq!(levels.len(), 3);
    for level in levels {
        let children =
            level.children().filter(|c| c.name().is_some_and(|s| s.starts_with("Railing_"))).count();
        let index: u16 = level.name().unwrap()["Level_".len()..].parse().unwrap_or(u16::MAX);
        assert_eq!(children, rails.iter().filter(|r| r.level == index).count(), "{:?}", level.name());
    }
}

#[test]
fn a_walker_is_stopped_by_a_railing_and_falls_through_a_drop_point() {
    use octile::walk::{Walker, World};
    let mut d = atrium(5, 2, 3, 5, 1);
    let rails = d.railing_edges(1);
    // Walk from a balcony cell straight at the void's centre: the railing holds.
    let railed = rails[rails.len() / 2];
    let world = World::new(&d);
    let centre = d.layout().center(railed.void.0);
    let mut w = Walker::spawn(&world, Pos { level: 1, slot: railed.floor });
    for _ in 0..200 {
        let wish = (centre - w.xz()).normalize_or_zero() * 4.0;
        w.step(&world, wish, false, 0.05);
    }
    assert!((w.feet.y - d.proportions().floor_y(1)).abs() < 1e-6, "stays on the balcony: {}", w.feet);
    // Make that edge a drop point: the same walk falls into the atrium.
    let drop = d.drop_state().unwrap();
    d.set_edge_of(1, railed.edge, drop).unwrap();
    let world = World::new(&d);
    let mut w = Walker::spawn(&world, Pos { level: 1, slot: railed.floor });
    for _ in 0..200 {
        let wish = (centre - w.xz()).normalize_or_zero() * 4.0;
        w.step(&world, wish, false, 0.05);
    }
    assert!(w.feet.y.abs() < 1e-6, "landed on the atrium's floor: {}", w.feet);
}

/// Seeds of 32x32x3 with `--atria` (then `--ramps` and `--pits`): every one closed, railed
/// where the rule says, with atria two storeys tall, sound ramps and pits over floors; the
/// request (an atrium on both lower levels) met in 95% or more.
fn atria_over_seeds(seeds: std::ops::Range<u64>) {
    let (mut met, mut with_ramps, mut with_pits) = (0, 0, 0);
    let count = seeds.end - seeds.start;
    for seed in seeds {
        let options =
            octile::generate::GenerateOptions { seed, levels: 3, cols: 32, rows: 32, ..Default::default() };
        let mut d = octile::generate::generate(&options, &mut |_| {}).unwrap();
        let atria = octile::generate::open_atria(&mut d).unwrap();
        met += usize::from(atria.len() == 2);
        // Ramps and pits beside them: every ramp sound, every pit over a floor.
        let ramps = octile::generate::cut_ramps(&mut d).unwrap();
        assert!(ramps.iter().all(|r| d.ramp_is_sound(r)), "seed {seed}: {ramps:?}");
        let pits = octile::generate::open_pits(&mut d).unwrap();
        assert!(pits.iter().all(|p| d.open_above(p.landing)), "seed {seed}: {pits:?}");
        with_ramps += usize::from((0..2).all(|l| ramps.iter().any(|r| r.level == l)));
        with_pits += usize::from(pits.len() == 2);
        assert!(d.problems().is_empty(), "seed {seed}: {:?}", d.problems());
        for a in &atria {
            // Two storeys: the room's floor on `level`, its void on the next.
            assert!(a.void.iter().all(|&slot| d.open_above(Pos { level: a.level, slot })), "seed {seed}");
        }
        check_closed(&d, &format!("seed {seed}"));
    }
    eprintln!(
        "atria: the request was met in {met} of {count} seeds; a ramp on both level pairs in {with_ramps}, a pit on both upper levels in {with_pits}"
    );
    assert!(met as f64 >= 0.95 * count as f64, "the request was met in {met} of {count} seeds");
}

#[test]
fn generated_atria_are_closed_railed_and_two_storeys_tall() {
    atria_over_seeds(0..3);
}

/// The full run of the issue: `OCTILE_ATRIA_SEEDS` seeds (default 1000), in release:
/// `cargo test --release --test columns -- --ignored`.
#[test]
#[ignore = "long: 1,000 generated dungeons; run with --release -- --ignored"]
fn a_thousand_seeds_of_atria() {
    let n = std::env::var("OCTILE_ATRIA_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let half = n / 2;
    let a = std::thread::spawn(move || atria_over_seeds(0..half));
    atria_over_seeds(half..n);
    a.join().unwrap();
}

#[test]
fn drops_are_off_mesh_links_of_the_navmesh() {
    use octile::export::{self, ExportOptions};
    let d = atrium_with_a_drop();
    let drops = d.drops(1);
    assert_eq!(drops.len(), 1);
    assert_eq!(drops[0].landing, Pos { level: 0, ..drops[0].into });
    let bytes =
        export::Export::new(&d, &ExportOptions { navmesh: true, ..Default::default() }).to_glb().unwrap();
    let g = gltf::Gltf::from_slice(&bytes).unwrap();
    let nav = g.nodes().find(|n| n.name() == Some("Level_01-navmesh")).unwrap();
    let extras: serde_json::Value = serde_json::from_str(nav.extras().as_ref().unwrap().get()).unwrap();
    let links = extras["links"].as_array().unwrap();
    assert_eq!(links.len(), 1);
    assert_eq!(links[0]["one_way"], true);
    let (start, end) = (&links[0]["start"], &links[0]["end"]);
    assert_eq!(start[1].as_f64().unwrap(), d.proportions().floor_y(1));
    assert_eq!(end[1].as_f64().unwrap(), 0.0);
    let centre = d.layout().center(drops[0].landing.slot);
    assert!(
        (end[0].as_f64().unwrap() - centre.x).abs() < 1e-9
            && (end[2].as_f64().unwrap() - centre.y).abs() < 1e-9
    );
    let plain = g.nodes().find(|n| n.name() == Some("Level_00-navmesh")).unwrap();
    assert!(!plain.extras().as_ref().unwrap().get().contains("links"), "level 0 has no drop");
}

/// A Dijkstra map towards a goal below a drop counts the way down through it (the drop's
/// cost, one way), and a goal above it is not reached from below: the map holds the cost
/// *to* its goals, along steps as they are walked.
#[test]
fn dijkstra_maps_go_down_drops_and_never_up() {
    use octile::path::{DijkstraMap, MapBounds, PathGraph, PathRules, UNREACHED};
    let d = atrium_with_a_drop();
    let g = PathGraph::new(&d).unwrap();
    let rules = PathRules { open_doors: true };
    let (top, bottom) = (Pos::new(1, 0, 0), Pos::new(0, 8, 8));
    let down = DijkstraMap::new(&g, &[bottom], &MapBounds::everywhere(&g), &rules).unwrap();
    assert_eq!(down.value(top).unwrap(), i64::try_from(oracle(&d, top)[&bottom]).unwrap());
    let route = down.descend(top).unwrap().expect("downhill through the drop");
    assert_eq!(route.steps.last(), Some(&bottom));
    assert!(route.steps.windows(2).any(|w| w[0].level == 1 && w[1].level == 0));
    let up = DijkstraMap::new(&g, &[top], &MapBounds::everywhere(&g), &rules).unwrap();
    assert_eq!(up.value(bottom).unwrap(), UNREACHED, "no way up a drop");
}

/// `open_pits` on generated dungeons: a pit on each level above the ground where a hall
/// allows it, every one over a walkable floor with its drop landing there, the dungeon
/// closed and railed, and no region lost.
#[test]
fn generated_pits_are_closed_railed_and_drop_to_the_floor_below() {
    use octile::path::{PathGraph, PathRules};
    let rules = PathRules { open_doors: true };
    for seed in [1, 2] {
        let options =
            octile::generate::GenerateOptions { seed, levels: 3, cols: 12, rows: 12, ..Default::default() };
        let mut d = octile::generate::generate(&options, &mut |_| {}).unwrap();
        let before = PathGraph::new(&d).unwrap().regions(&rules).count();
        let pits = octile::generate::open_pits(&mut d).unwrap();
        assert_eq!(pits.len(), 2, "seed {seed}: a pit on levels 1 and 2: {pits:?}");
        assert!(d.problems().is_empty(), "seed {seed}: {:?}", d.problems());
        for pit in &pits {
            assert!(d.is_void(pit.at) && d.open_above(pit.landing), "seed {seed}: {pit:?}");
            let drop = pit.drop.expect("no locks: a drop point");
            let drops = d.drops(pit.at.level);
            let found = drops.iter().find(|x| x.edge == drop).expect("the drop is one of the level's");
            assert_eq!(found.landing, pit.landing);
        }
        assert_eq!(PathGraph::new(&d).unwrap().regions(&rules).count(), before, "seed {seed}");
        check_closed(&d, &format!("seed {seed} with pits"));
    }
}
