//! Sight checked against a plain reference written here: segment-versus-polygon
//! intersection over every rock piece of the level (solid cells, wall seams, the parts of a
//! door's seam beside its passage, closed doors, pillars, and thin slabs outside the
//! grid's border), built from `Layout` and the dungeon's public rules, independently of the
//! module's square-by-square walk.

mod support;

use glam::DVec2;
use octile::dungeon::{Carve, Dungeon, EdgeStateId, Registry};
use octile::generate::{GenerateOptions, generate};
use octile::geometry::signed_area;
use octile::grid::{Direction, Pos, Slot};
use octile::sight::{
    Hit, ball, bolt, burst, cell_passes_sight, cone, field_of_view_from, line_of_sight, line_of_sight_points,
    visible_floor_from,
};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// Penetration (metres) that makes the reference sure: a segment entering rock deeper than
/// this is blocked, one that keeps this far out of every rock piece is clear; between the
/// two the pair is too close to a corner to call and is skipped (and counted).
const SURE: f64 = 1e-6;

/// Thickness of the rock slabs laid outside the grid's border.
const SLAB: f64 = 0.3;

fn positive(mut poly: Vec<DVec2>) -> Vec<DVec2> {
    if signed_area(&poly) < 0.0 {
        poly.reverse();
    }
    poly
}

/// Every rock polygon of `level`, by a scan over the whole level.
fn rock(d: &Dungeon, level: u16) -> Vec<Vec<DVec2>> {
    let (dims, layout) = (d.dims(), d.layout());
    let mut out = Vec::new();
    let clear = |slot: Slot| cell_passes_sight(d, Pos { level, slot });
    for slot in dims.cells() {
        if !clear(slot) {
            out.push(layout.cell_polygon(slot).unwrap());
        }
        for &dir in dims.walls(slot).unwrap() {
            if dims.edge(slot, dir).unwrap().is_none() {
                let [a, b] = layout.wall(slot, dir).unwrap();
                let out_n = -(b - a).perp().normalize() * SLAB;
                out.push(positive(vec![a, b, b + out_n, a + out_n]));
            }
        }
        if slot.kind() == octile::grid::SlotKind::Connector {
            for side in Direction::CARDINALS {
                out.push(layout.pillar(slot, side).unwrap().to_vec());
            }
        }
    }
    for edge in dims.edges() {
        let sides = dims.edge_sides(edge).unwrap();
        let seam = layout.edge_seam(sides).unwrap();
        let (slot, dir) = sides[0];
        let def = d.carved_seam(Pos { level, slot }, dir);
        let passes = def.is_some_and(|e| !e.opaque) && clear(sides[0].0) && clear(sides[1].0);
        match (passes, def.map(|e| e.carve)) {
            (true, Some(Carve::Full)) => {}
            (true, Some(Carve::Door)) => {
                let [a1, a0, b1, b0] = seam;
                let [da1, da0, db1, db0] = layout.door(sides[0], sides[1]).unwrap();
                out.push(positive(vec![da0, a0, b1, db1]));
                out.push(positive(vec![a1, da1, db0, b0]));
            }
            _ => out.push(positive(seam.to_vec())),
        }
        // A long seam whose end has no connector faces the outside there.
        if let octile::grid::EdgeId::Long(void) = edge {
            let horizontal = void.row % 2 == 0;
            let (at_low, at_high) = if horizontal {
                (void.row == 0, void.row + 1 == dims.rows())
            } else {
                (void.col == 0, void.col + 1 == dims.cols())
            };
            let key = |p: &DVec2| if horizontal { p.y } else { p.x };
            let mut corners = seam.to_vec();
            corners.sort_by(|a, b| key(a).total_cmp(&key(b)));
            let push_end = |out: &mut Vec<Vec<DVec2>>, a: DVec2, b: DVec2, dir: f64| {
                let n = if horizontal { DVec2::new(0.0, dir) } else { DVec2::new(dir, 0.0) } * SLAB;
                out.push(positive(vec![a, b, b + n, a + n]));
            };
            if at_low {
                push_end(&mut out, corners[0], corners[1], -1.0);
            }
            if at_high {
                push_end(&mut out, corners[2], corners[3], 1.0);
            }
        }
    }
    out
}

/// True when segment `p -> q` enters `poly` shrunk by `margin` metres (grown when negative).
fn enters(poly: &[DVec2], p: DVec2, q: DVec2, margin: f64) -> bool {
    let d = q - p;
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for i in 0..poly.len() {
        let a = poly[i];
        let e = poly[(i + 1) % poly.len()] - a;
        let len = e.length();
        let (f0, fd) = (e.perp_dot(p - a) / len - margin, e.perp_dot(d) / len);
        if fd > 0.0 {
            lo = lo.max(-f0 / fd);
        } else if fd < 0.0 {
            hi = hi.min(-f0 / fd);
        } else if f0 <= 0.0 {
            return false;
        }
    }
    lo < hi
}

/// The reference's answer: `Some(sees)` when it is sure, `None` near a corner.
fn reference(rock: &[Vec<DVec2>], p: DVec2, q: DVec2) -> Option<bool> {
    let deep = rock.iter().any(|r| enters(r, p, q, SURE));
    let touching = rock.iter().any(|r| enters(r, p, q, -SURE));
    (deep == touching).then_some(!deep)
}

fn unit(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A random point inside the cell at `slot` (a triangle of its fan about the centre).
fn point_in(d: &Dungeon, slot: Slot, rng: &mut ChaCha8Rng) -> DVec2 {
    let poly = d.layout().cell_polygon(slot).unwrap();
    let c = d.layout().center(slot);
    let i = (rng.next_u64() % poly.len() as u64) as usize;
    let (mut u, mut w) = (unit(rng), unit(rng));
    if u + w > 1.0 {
        (u, w) = (1.0 - u, 1.0 - w);
    }
    c + (poly[i] - c) * u + (poly[(i + 1) % poly.len()] - c) * w
}

/// The registry's standard states plus `ajar`: a door whose passage passes sight.
fn ajar_registry() -> (Registry, EdgeStateId) {
    let mut registry = Registry::standard();
    let mut ajar = registry.edge_def(Registry::DOOR).unwrap().clone();
    ajar.name = "ajar".into();
    ajar.symbol = 'a';
    ajar.opaque = false;
    let id = registry.add_edge(ajar).unwrap();
    (registry, id)
}

/// A generated dungeon, copied into the `ajar` registry with a third of its open edges
/// turned into closed doors and a third into ajar doors.
fn generated(seed: u64, cut_ratio: f64) -> Dungeon {
    let options = GenerateOptions { seed, levels: 2, cols: 9, rows: 9, cut_ratio, ..Default::default() };
    let source = generate(&options, &mut |_| {}).unwrap();
    let (registry, ajar) = ajar_registry();
    let dims = source.dims();
    let mut d = Dungeon::with_registry(
        dims.octagon_cols(),
        dims.octagon_rows(),
        u32::from(source.levels()),
        *source.proportions(),
        registry,
        octile::dungeon::Fill::Solid,
    )
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    for pos in source.cells() {
        d.set_tile(pos, source.tile(pos).unwrap()).unwrap();
    }
    for level in 0..source.levels() {
        for edge in dims.edges() {
            let mut state = source.edge_state_of(level, edge).unwrap();
            if state == Registry::OPEN {
                state = [Registry::OPEN, Registry::DOOR, ajar][(rng.next_u64() % 3) as usize];
            }
            d.set_edge_of(level, edge, state).unwrap();
        }
    }
    d
}

fn clear_cells(d: &Dungeon, level: u16) -> Vec<Slot> {
    d.dims().cells().filter(|&s| cell_passes_sight(d, Pos { level, slot: s })).collect()
}

/// Random pairs (cell centres and points inside cells) within `range` metres; checks every
/// sure pair and returns (visible, blocked, skipped) counts.
fn check_pairs(d: &Dungeon, rng: &mut ChaCha8Rng, pairs: usize, range: f64) -> [usize; 3] {
    let mut counts = [0; 3];
    for level in 0..d.levels() {
        let rock = rock(d, level);
        let cells = clear_cells(d, level);
        if cells.len() < 2 {
            continue;
        }
        let mut done = 0;
        while done < pairs {
            let pick = |rng: &mut ChaCha8Rng| {
                let slot = cells[(rng.next_u64() % cells.len() as u64) as usize];
                if rng.next_u64().is_multiple_of(2) {
                    d.layout().center(slot)
                } else {
                    point_in(d, slot, rng)
                }
            };
            let (a, b) = (pick(rng), pick(rng));
            if a.distance(b) > range {
                continue;
            }
            done += 1;
            let fast = line_of_sight_points(d, level, a, b).unwrap();
            assert_eq!(fast, line_of_sight_points(d, level, b, a).unwrap(), "symmetry {a} {b}");
            match reference(&rock, a, b) {
                Some(sees) => {
                    assert_eq!(fast, sees, "level {level}: {a} -> {b}, cut {}", d.proportions().cut_ratio);
                    counts[usize::from(!sees)] += 1;
                }
                None => counts[2] += 1,
            }
        }
    }
    counts
}

#[test]
fn line_of_sight_matches_the_reference_on_generated_dungeons() {
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for cut in [0.15, 0.20, 0.29] {
        for seed in [1, 2, 3] {
            let d = generated(seed, cut);
            let [seen, blocked, skipped] = check_pairs(&d, &mut rng, 1500, 60.0);
            assert!(seen > 200 && blocked > 200, "cut {cut} seed {seed}: {seen} seen, {blocked} blocked");
            assert!(skipped * 100 < seen + blocked, "cut {cut} seed {seed}: {skipped} skipped");
        }
    }
}

#[test]
fn line_of_sight_matches_the_reference_on_the_samples() {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    for (name, d) in support::samples() {
        let [seen, blocked, skipped] = check_pairs(&d, &mut rng, 800, 80.0);
        assert!(seen > 50, "{name}: {seen} seen, {blocked} blocked");
        assert!(skipped * 100 < seen + blocked, "{name}: {skipped} skipped");
    }
}

#[test]
fn a_closed_door_blocks_and_the_same_edge_open_does_not() {
    let (registry, ajar) = ajar_registry();
    let proportions = Default::default();
    let mut d = Dungeon::with_registry(3, 1, 1, proportions, registry, octile::dungeon::Fill::Floor).unwrap();
    let (west, east) = (Pos::new(0, 0, 0), Pos::new(0, 0, 4));
    let middle = Pos::new(0, 0, 2);
    assert!(line_of_sight(&d, west, east).unwrap());
    d.set_edge(middle, Direction::E, Registry::DOOR).unwrap();
    assert!(!line_of_sight(&d, west, east).unwrap());
    assert!(!line_of_sight(&d, east, west).unwrap());
    d.set_edge(middle, Direction::E, ajar).unwrap();
    assert!(line_of_sight(&d, west, east).unwrap(), "an ajar door passes sight through its passage");
    // ... but only door-wide: a line just beside the passage hits the seam's rock.
    let s = d.layout().spacing();
    let half_door = d.proportions().door_width / 2.0;
    let beside = |dz: f64| (DVec2::new(2.0 * s, dz), DVec2::new(4.0 * s, dz));
    let (a, b) = beside(half_door - 0.05);
    assert!(line_of_sight_points(&d, 0, a, b).unwrap());
    let (a, b) = beside(half_door + 0.05);
    assert!(!line_of_sight_points(&d, 0, a, b).unwrap());
    d.set_edge(middle, Direction::E, Registry::OPEN).unwrap();
    assert!(line_of_sight_points(&d, 0, a, b).unwrap(), "an open seam passes its whole width");
}

#[test]
fn field_of_view_is_the_set_of_centres_the_reference_sees() {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let radius = 40.0;
    let mut checked = 0;
    for (seed, cut) in [(4, 0.15), (5, 0.20), (6, 0.29), (7, 0.20)] {
        let d = generated(seed, cut);
        for level in 0..d.levels() {
            let rock = rock(&d, level);
            let cells = clear_cells(&d, level);
            for _ in 0..12 {
                let slot = cells[(rng.next_u64() % cells.len() as u64) as usize];
                let eye = if rng.next_u64().is_multiple_of(2) {
                    d.layout().center(slot)
                } else {
                    point_in(&d, slot, &mut rng)
                };
                let seen = field_of_view_from(&d, level, eye, radius).unwrap();
                for cell in d.dims().cells() {
                    let c = d.layout().center(cell);
                    if (c.distance(eye) - radius).abs() < 1e-9 {
                        continue;
                    }
                    let Some(sees) = reference(&rock, eye, c) else { continue };
                    let expected = sees && c.distance(eye) <= radius;
                    assert_eq!(
                        seen.contains(cell),
                        expected,
                        "seed {seed} level {level}: eye {eye}, cell {cell}"
                    );
                    checked += usize::from(expected);
                }
            }
        }
    }
    assert!(checked > 250, "only {checked} visible cells checked");
}

fn adjacent_cells(d: &Dungeon, a: Slot, b: Slot) -> bool {
    let dims = d.dims();
    dims.walls(a).unwrap().iter().any(|&dir| dims.neighbor(a, dir).unwrap() == Some(b))
}

#[test]
fn bolts_stop_at_the_first_blocker_along_a_contiguous_path() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let (mut walls, mut blockers, mut reached) = (0, 0, 0);
    for (seed, cut) in [(8, 0.15), (9, 0.29)] {
        let d = generated(seed, cut);
        let rock = rock(&d, 0);
        let cells = clear_cells(&d, 0);
        let creatures: Vec<Slot> = cells.iter().copied().filter(|_| rng.next_u64() % 6 == 0).collect();
        for _ in 0..400 {
            let pick = |rng: &mut ChaCha8Rng| Pos {
                level: 0,
                slot: cells[(rng.next_u64() % cells.len() as u64) as usize],
            };
            let (from, to) = (pick(&mut rng), pick(&mut rng));
            let shot = bolt(&d, from, to, |p| creatures.contains(&p.slot)).unwrap();
            assert_eq!(shot.path[0], from);
            for pair in shot.path.windows(2) {
                assert!(adjacent_cells(&d, pair[0].slot, pair[1].slot), "{:?} not contiguous", shot.path);
            }
            let inner = &shot.path[1..];
            let start = d.layout().center(from.slot);
            match shot.hit {
                Hit::Blocker(p) => {
                    blockers += 1;
                    assert_eq!(Some(&p), shot.path.last());
                    assert!(creatures.contains(&p.slot));
                    assert!(inner[..inner.len() - 1].iter().all(|q| !creatures.contains(&q.slot)));
                }
                Hit::Wall(at) => {
                    walls += 1;
                    assert!(inner.iter().all(|q| !creatures.contains(&q.slot)));
                    let along = (at - start).normalize_or_zero() * 1e-3;
                    assert_ne!(reference(&rock, start, at - along), Some(false), "clear up to the wall");
                    assert_ne!(reference(&rock, start, at + along), Some(true), "blocked just past it");
                }
                Hit::Reached => {
                    reached += 1;
                    assert_eq!(shot.path.last(), Some(&to));
                    assert_ne!(reference(&rock, start, d.layout().center(to.slot)), Some(false));
                }
            }
        }
    }
    assert!(
        walls > 20 && blockers > 20 && reached > 20,
        "{walls} walls, {blockers} blockers, {reached} reached"
    );
}

#[test]
fn a_ball_bursts_on_the_near_side_of_a_wall() {
    let mut d = Dungeon::new(5, 1, 1, Default::default(), octile::dungeon::Fill::Floor).unwrap();
    d.set_edge(Pos::new(0, 0, 4), Direction::E, Registry::WALL).unwrap();
    let (shot, cells) = ball(&d, Pos::new(0, 0, 0), Pos::new(0, 0, 8), 17.0, |_| false, |_| false).unwrap();
    assert!(matches!(shot.hit, Hit::Wall(_)));
    assert_eq!(shot.path.last(), Some(&Pos::new(0, 0, 4)));
    assert!(cells.contains(&Pos::new(0, 0, 4)) && cells.contains(&Pos::new(0, 0, 2)));
    assert!(!cells.contains(&Pos::new(0, 0, 6)), "the burst stays on the near side");
    // Hitting a creature, it bursts in the cell before it.
    let d = Dungeon::new(5, 1, 1, Default::default(), octile::dungeon::Fill::Floor).unwrap();
    let goblin = Pos::new(0, 0, 6);
    let (shot, cells) =
        ball(&d, Pos::new(0, 0, 0), Pos::new(0, 0, 8), 1.0, |p| p == goblin, |_| false).unwrap();
    assert_eq!(shot.hit, Hit::Blocker(goblin));
    assert_eq!(cells, [Pos::new(0, 0, 4)]);
}

#[test]
fn bursts_never_cross_a_wall_and_cones_keep_their_angle() {
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    let (mut inside, mut outside) = (0, 0);
    for (seed, cut) in [(10, 0.20), (11, 0.15)] {
        let d = generated(seed, cut);
        let rock = rock(&d, 0);
        let cells = clear_cells(&d, 0);
        for _ in 0..30 {
            let centre = Pos { level: 0, slot: cells[(rng.next_u64() % cells.len() as u64) as usize] };
            let c = d.layout().center(centre.slot);
            let radius = 10.0 + 30.0 * unit(&mut rng);
            let hit = burst(&d, centre, radius, |_| false).unwrap();
            for p in &hit {
                let target = d.layout().center(p.slot);
                assert!(target.distance(c) <= radius);
                assert_ne!(reference(&rock, c, target), Some(false), "burst crossed a wall to {p}");
            }
            for &slot in &cells {
                let target = d.layout().center(slot);
                if target.distance(c) < radius - 1e-6 && reference(&rock, c, target) == Some(true) {
                    assert!(hit.contains(&Pos { level: 0, slot }), "burst missed {slot}");
                }
            }
            let aim = Pos { level: 0, slot: cells[(rng.next_u64() % cells.len() as u64) as usize] };
            if aim == centre {
                continue;
            }
            let half = 0.2 + unit(&mut rng);
            let fan = cone(&d, centre, aim, half, radius, |_| false).unwrap();
            let dir = d.layout().center(aim.slot) - c;
            for p in &hit {
                let v = d.layout().center(p.slot) - c;
                let within = *p != centre && v.angle_to(dir).abs() <= half + 1e-9;
                let clearly = *p != centre && v.angle_to(dir).abs() < half - 1e-9;
                if fan.contains(p) {
                    assert!(within, "cone cell {p} outside its angle");
                    inside += 1;
                } else {
                    assert!(!clearly, "cone missed {p}");
                    outside += 1;
                }
            }
            assert!(fan.iter().all(|p| hit.contains(p)));
        }
    }
    assert!(inside > 25 && outside > 50, "{inside} in cones, {outside} outside");
    // A blocking cell stops the burst behind it.
    let d = Dungeon::new(4, 1, 1, Default::default(), octile::dungeon::Fill::Floor).unwrap();
    let shield = Pos::new(0, 0, 2);
    let hit = burst(&d, Pos::new(0, 0, 0), 30.0, |p| p == shield).unwrap();
    assert!(hit.contains(&shield) && !hit.contains(&Pos::new(0, 0, 4)));
}

/// Distance from `p` to the nearest edge of any of `pieces`.
fn to_edges(pieces: &[Vec<DVec2>], p: DVec2) -> f64 {
    let seg = |a: DVec2, b: DVec2| {
        let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        p.distance(a + (b - a) * t)
    };
    let edges = pieces.iter().flat_map(|q| (0..q.len()).map(move |i| (q[i], q[(i + 1) % q.len()])));
    edges.map(|(a, b)| seg(a, b)).fold(f64::INFINITY, f64::min)
}

fn inside_convex(poly: &[DVec2], p: DVec2, margin: f64) -> bool {
    (0..poly.len()).all(|i| {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        (b - a).perp_dot(p - a) / (b - a).length() >= -margin
    })
}

/// The visible floor holds exactly the sampled points of each visible cell that the
/// reference sees within the radius, except within the stated tolerance of its outline
/// (1e-3 m: far above the 1e-7 radian corner slivers and the radius chords' 3.8e-4 m).
#[test]
fn visible_floor_is_what_the_reference_sees_of_each_cell() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let (radius, tolerance) = (40.0, 1e-3);
    let [mut seen, mut hidden] = [0; 2];
    for (seed, cut) in [(4, 0.15), (6, 0.29)] {
        let d = generated(seed, cut);
        let rock = rock(&d, 0);
        let cells = clear_cells(&d, 0);
        for _ in 0..6 {
            let slot = cells[(rng.next_u64() % cells.len() as u64) as usize];
            let eye = d.layout().center(slot);
            let floors = visible_floor_from(&d, 0, eye, radius).unwrap();
            let fov = field_of_view_from(&d, 0, eye, radius).unwrap();
            assert_eq!(floors.iter().map(|f| f.slot).collect::<Vec<_>>(), fov.iter().collect::<Vec<_>>());
            for floor in &floors {
                let cell = d.layout().cell_polygon(floor.slot).unwrap();
                for piece in &floor.pieces {
                    assert!(signed_area(piece) > 0.0);
                    let edges = (0..piece.len()).map(|i| piece[i].distance(piece[(i + 1) % piece.len()]));
                    assert!(edges.fold(f64::INFINITY, f64::min) > 1e-9, "repeated vertex in {piece:?}");
                    assert!(
                        piece.iter().all(|&v| inside_convex(&cell, v, 1e-9)),
                        "piece outside {:?}",
                        floor.slot
                    );
                }
                for _ in 0..40 {
                    let p = point_in(&d, floor.slot, &mut rng);
                    if to_edges(&floor.pieces, p) < tolerance || (p.distance(eye) - radius).abs() < tolerance
                    {
                        continue;
                    }
                    let Some(sees) = reference(&rock, eye, p) else { continue };
                    let expected = sees && p.distance(eye) <= radius;
                    let got = floor.pieces.iter().any(|q| inside_convex(q, p, 0.0));
                    assert_eq!(got, expected, "seed {seed}: eye {eye}, cell {:?}, point {p}", floor.slot);
                    if expected { seen += 1 } else { hidden += 1 }
                }
            }
        }
    }
    assert!(seen > 500 && hidden > 20, "only {seen} seen and {hidden} hidden samples checked");
}
