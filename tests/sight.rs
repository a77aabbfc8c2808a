//! Line of sight, field of view and visible floor checked against the plain reference of
//! tests/sight_reference (segment-versus-polygon intersection over every rock piece of the
//! level, independent of the module's square-by-square walk).

mod sight_reference;
mod support;

use sight_reference::*;

use glam::DVec2;
use octile::dungeon::{Dungeon, Fill, PillarState, Registry};
use octile::geometry::Proportions;
use octile::geometry::signed_area;
use octile::grid::{Direction, PillarId, Pos, Slot};
use octile::sight::{field_of_view_from, line_of_sight, line_of_sight_points, visible_floor_from};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

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

#[cfg(feature = "export")] // the halls are painted with `edit`
#[test]
fn line_of_sight_matches_the_reference_with_every_pillar_that_may_be_open_open() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for cut in [0.15, 0.20, 0.29] {
        // Two halls painted on each level of a generated dungeon (paint opens their pillars),
        // then every other pillar that may be open.
        let mut editor = octile::edit::Editor::new(generated(2, cut));
        for level in 0..2 {
            for area in ["2,2..8,8", "8,10..14,14"] {
                octile::edit::script::run_line(&mut editor, &format!("paint {level} {area} floor")).unwrap();
            }
        }
        let mut d = editor.into_dungeon();
        let painted = d.open_pillars().count();
        // (Fewer than the halls' 120 pillars: a door the paint keeps, or the walls round a
        // stair's hole, keep some of them columns.)
        assert!(painted > 40, "cut {cut}: {painted} pillars open in the halls");
        let everywhere = octile::grid::Grid::filled(d.dims(), true);
        for level in 0..d.levels() {
            d.open_pillars_within(level, &everywhere).unwrap();
        }
        let [seen, blocked, skipped] = check_pairs(&d, &mut rng, 1500, 60.0);
        assert!(seen > 200 && blocked > 200, "cut {cut}: {seen} seen, {blocked} blocked");
        assert!(skipped * 100 < seen + blocked, "cut {cut}: {skipped} skipped");
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

#[test]
fn sight_crosses_an_open_pillar_where_a_column_blocks_it() {
    let mut d = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor).unwrap();
    let (s, k) = (d.layout().spacing(), d.proportions().cut());
    let pillar = PillarId::new(Slot::new(1, 1), Direction::N).unwrap();
    // From octagon (0, 0) to octagon (0, 2), 0.6 m north of the connector's tip: straight
    // through the pillar between them.
    let (a, b) = (DVec2::new(s - 4.0, s - k - 0.6), DVec2::new(s + 4.0, s - k - 0.6));
    let tri = d.layout().pillar(pillar.connector(), pillar.tip()).unwrap();
    let eye = (tri[0] + tri[1] + tri[2]) / 3.0;
    assert!(!line_of_sight_points(&d, 0, a, b).unwrap(), "a column blocks");
    assert!(field_of_view_from(&d, 0, eye, 30.0).unwrap().is_empty(), "an eye inside rock sees nothing");
    d.set_pillar(0, pillar, PillarState::Open).unwrap();
    assert!(line_of_sight_points(&d, 0, a, b).unwrap(), "an open pillar lets sight through");
    assert!(line_of_sight_points(&d, 0, b, a).unwrap(), "both ways");
    let seen = field_of_view_from(&d, 0, eye, 30.0).unwrap();
    for cell in pillar.cells() {
        assert!(seen.contains(cell), "{cell} seen from inside the open pillar");
    }
    // A neighbouring pillar still a column still blocks.
    let (c, e) = (DVec2::new(s - 4.0, s + k + 0.6), DVec2::new(s + 4.0, s + k + 0.6));
    assert!(!line_of_sight_points(&d, 0, c, e).unwrap());
}
