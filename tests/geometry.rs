//! World space: derived lengths, shared walls, the exact tiling of one period, the way back
//! from a world point to its piece and slot, and the stair's walking line.

// std's maths is the reference these tests check the crate's geometry against; no output
// comes from it (clippy.toml keeps it out of the library).
#![allow(clippy::disallowed_methods)]

use glam::DVec2;
use octile::geometry::{Layout, Place, Proportions, Spacing, clip_convex, signed_area};
use octile::grid::{ConnectorWall, Dims, Direction, EdgeId, PillarId, Slot, SlotKind};

const RATIOS: [f64; 3] = [0.15, 0.20, 0.29];

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn derived_lengths_match_design_formulas() {
    for r in RATIOS {
        let p = Proportions::default().with_cut_ratio(r);
        let (b, k) = (12.8, r * 12.8);
        let s_edge = k * 2f64.sqrt();
        let spacing = (b + s_edge) / 2.0;
        assert!(close(p.long_edge(), b - 2.0 * k, 1e-4), "r={r}");
        assert!(close(p.short_edge(), s_edge, 1e-4), "r={r}");
        assert!(close(p.connector_side(), s_edge, 1e-4), "r={r}");
        assert!(close(p.cell_spacing(), spacing, 1e-4), "r={r}");
        assert!(close(p.seam_gap(), 2.0 * spacing - b, 1e-4), "r={r}");
    }
    let p = Proportions::default();
    for (got, want) in
        [(p.long_edge(), 7.68), (p.short_edge(), 3.6204), (p.cell_spacing(), 8.2102), (p.seam_gap(), 3.6204)]
    {
        assert!(close(got, want, 1e-4), "{got} vs {want}");
    }
}

/// Distance from point `p` to the infinite line through `a`, `b`.
fn line_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    ((b - a).perp_dot(p - a) / (b - a).length()).abs()
}

#[test]
fn shared_walls_are_parallel_equal_and_a_seam_apart() {
    for r in RATIOS {
        let p = Proportions::default().with_cut_ratio(r);
        let layout = Layout::new(p).unwrap();
        let dims = Dims::from_octagons(4, 3).unwrap();
        for edge in dims.edges() {
            let [(a, da), (b, db)] = dims.edge_sides(edge).unwrap();
            let [a0, a1] = layout.wall(a, da).unwrap();
            let [b0, b1] = layout.wall(b, db).unwrap();
            let (va, vb) = (a1 - a0, b1 - b0);
            assert!(va.perp_dot(vb).abs() < 1e-9, "parallel: {edge}");
            assert!(va.dot(vb) < 0.0, "the two sides run in opposite directions: {edge}");
            assert!(close(va.length(), vb.length(), 1e-9), "equal length: {edge}");
            let want = if da.is_diagonal() { p.seam_gap() / 2f64.sqrt() } else { p.seam_gap() };
            let want_len = if da.is_diagonal() { p.short_edge() } else { p.long_edge() };
            assert!(close(va.length(), want_len, 1e-9), "{edge}: length {}", va.length());
            assert!(close(line_distance(b0, a0, a1), want, 1e-9), "{edge}: gap");
            assert!(close(line_distance(b1, a0, a1), want, 1e-9), "{edge}: gap");
            // The facing ends line up across the seam (a rectangle, not a parallelogram).
            assert!(close((b1 - a0).dot(va), 0.0, 1e-9), "{edge}: ends aligned");
        }
    }
}

#[test]
fn tight_spacing_makes_shared_walls_coincide() {
    let p = Proportions { spacing: Spacing::Tight, ..Default::default() };
    let layout = Layout::new(p).unwrap();
    let dims = Dims::from_octagons(3, 3).unwrap();
    for edge in dims.edges() {
        let [(a, da), (b, db)] = dims.edge_sides(edge).unwrap();
        let [a0, a1] = layout.wall(a, da).unwrap();
        let [b0, b1] = layout.wall(b, db).unwrap();
        assert!(a0.distance(b1) < 1e-9 && a1.distance(b0) < 1e-9, "{edge}");
    }
}

#[test]
fn one_period_tiles_the_plane_exactly() {
    for r in RATIOS {
        let p = Proportions::default().with_cut_ratio(r);
        let layout = Layout::new(p).unwrap();
        let conn = Slot::new(1, 1);
        let mut pieces: Vec<(String, Vec<DVec2>)> = vec![
            ("octagon".into(), layout.octagon(Slot::new(0, 0)).to_vec()),
            ("connector".into(), layout.connector(conn).to_vec()),
            ("long seam E".into(), layout.long_seam(Slot::new(0, 1)).unwrap().to_vec()),
            ("long seam S".into(), layout.long_seam(Slot::new(1, 0)).unwrap().to_vec()),
        ];
        for w in ConnectorWall::ALL {
            pieces.push((format!("diagonal {w:?}"), layout.diagonal_seam(conn, w).unwrap().to_vec()));
        }
        for d in Direction::CARDINALS {
            pieces.push((format!("pillar {d:?}"), layout.pillar(conn, d).unwrap().to_vec()));
        }
        assert_eq!(pieces.len(), 12);
        let total: f64 = pieces.iter().map(|(_, poly)| signed_area(poly)).sum();
        let side = p.base + p.seam_gap();
        assert!(close(total, side * side, 1e-9), "r={r}: {total} vs {}", side * side);
        for (i, (na, pa)) in pieces.iter().enumerate() {
            assert!(signed_area(pa) > 0.0, "{na} winds positively");
            for (nb, pb) in &pieces[i + 1..] {
                let overlap = signed_area(&clip_convex(pa, pb));
                assert!(overlap.abs() < 1e-9, "r={r}: {na} overlaps {nb} by {overlap}");
            }
        }
        // The pieces of one period sit where the plane's tiling puts them: shifting the
        // octagon by a period lands exactly on the next octagon.
        let shift = DVec2::splat(2.0 * p.cell_spacing());
        let next = layout.octagon(Slot::new(2, 2));
        for (a, b) in layout.octagon(Slot::new(0, 0)).iter().zip(next) {
            assert!(a.distance(b - shift) < 1e-9);
        }
    }
}

#[test]
fn seam_and_pillar_shapes() {
    let p = Proportions::default();
    let layout = Layout::new(p).unwrap();
    let g = p.seam_gap();
    let long = layout.long_seam(Slot::new(0, 1)).unwrap();
    let mut sides: Vec<f64> = (0..4).map(|i| long[i].distance(long[(i + 1) % 4])).collect();
    sides.sort_by(f64::total_cmp);
    assert!(close(sides[0], g, 1e-9) && close(sides[1], g, 1e-9), "{sides:?}");
    assert!(close(sides[2], p.long_edge(), 1e-9) && close(sides[3], p.long_edge(), 1e-9), "{sides:?}");
    let diag = layout.diagonal_seam(Slot::new(1, 1), ConnectorWall::BL).unwrap();
    let sides = [diag[0].distance(diag[1]), diag[1].distance(diag[2])];
    assert!(sides.iter().any(|s| close(*s, p.short_edge(), 1e-9)));
    assert!(sides.iter().any(|s| close(*s, g / 2f64.sqrt(), 1e-9)));
    let pillar = layout.pillar(Slot::new(1, 1), Direction::N).unwrap();
    let mut edges: Vec<f64> = (0..3).map(|i| pillar[i].distance(pillar[(i + 1) % 3])).collect();
    edges.sort_by(f64::total_cmp);
    assert!(close(edges[0], g / 2f64.sqrt(), 1e-9) && close(edges[1], g / 2f64.sqrt(), 1e-9));
    assert!(close(edges[2], g, 1e-9));
}

/// Centroid of a polygon's vertices (inside it: every piece is convex).
fn centroid(poly: &[DVec2]) -> DVec2 {
    poly.iter().copied().sum::<DVec2>() / poly.len() as f64
}

/// Every piece of a `dims` grid with its place: cells, long and diagonal seams, pillars.
fn pieces(layout: &Layout, dims: Dims) -> Vec<(Place, Vec<DVec2>)> {
    let mut out: Vec<(Place, Vec<DVec2>)> =
        dims.cells().map(|s| (Place::Cell(s), layout.cell_polygon(s).unwrap())).collect();
    if layout.gap() > 0.0 {
        for edge in dims.edges() {
            let seam = layout.edge_seam(dims.edge_sides(edge).unwrap()).unwrap();
            let mut seam = seam.to_vec();
            if signed_area(&seam) < 0.0 {
                seam.reverse();
            }
            out.push((Place::Seam(edge), seam));
        }
        for conn in dims.cells().filter(|s| s.kind() == SlotKind::Connector) {
            for side in Direction::CARDINALS {
                out.push((
                    Place::Pillar(PillarId::new(conn, side).unwrap()),
                    layout.pillar(conn, side).unwrap().to_vec(),
                ));
            }
        }
    }
    out
}

/// A layout for every preset cut ratio, octile and tight, with its name.
fn layouts() -> Vec<(String, Layout)> {
    let spacings = [Spacing::Octile, Spacing::Tight];
    RATIOS
        .iter()
        .flat_map(|&r| spacings.map(move |spacing| (r, spacing)))
        .map(|(r, spacing)| {
            let p = Proportions { spacing, ..Proportions::default().with_cut_ratio(r) };
            (format!("r={r} {spacing:?}"), Layout::new(p).unwrap())
        })
        .collect()
}

#[test]
fn every_slot_centre_maps_back_to_its_slot() {
    let dims = Dims::from_octagons(4, 3).unwrap();
    for (name, layout) in layouts() {
        for slot in dims.slots() {
            let want = match slot.kind() {
                // Tight: no seam, the centre is on the two octagons' shared wall.
                SlotKind::Void if layout.gap() <= 0.0 => continue,
                SlotKind::Void => Place::Seam(EdgeId::Long(slot)),
                _ => Place::Cell(slot),
            };
            let centre = layout.center(slot);
            assert_eq!(layout.place_at(centre), Some(want), "{name}: centre of {slot}");
            assert_eq!(layout.slot_at(centre), Some(slot), "{name}: centre of {slot}");
        }
    }
}

#[test]
fn every_piece_holds_its_own_points_up_to_its_corners() {
    let dims = Dims::from_octagons(4, 3).unwrap();
    for (name, layout) in layouts() {
        for (place, poly) in pieces(&layout, dims) {
            let c = centroid(&poly);
            assert_eq!(layout.place_at(c), Some(place), "{name}: centroid of {place:?}");
            // A millimetre inside each corner and each edge's middle: next to the
            // neighbouring seams and pillars, still in this piece.
            let n = poly.len();
            for i in 0..n {
                let (a, b) = (poly[i], poly[(i + 1) % n]);
                for p in [a, (a + b) / 2.0] {
                    let q = p + (c - p).normalize() * 1e-3;
                    assert_eq!(layout.place_at(q), Some(place), "{name}: {q} in {place:?}");
                }
            }
            let slot = layout.slot_at(c);
            match place {
                Place::Cell(s) | Place::Seam(EdgeId::Long(s)) => assert_eq!(slot, Some(s)),
                _ => assert_eq!(slot, None, "{place:?} lies between slots"),
            }
        }
    }
}

#[test]
fn points_on_a_grid_of_samples_agree_with_a_search_of_every_piece() {
    // Differential: a brute-force search over every piece of the grid against `place_at`,
    // at points clear of the pieces' edges (on an edge two pieces hold the point).
    let dims = Dims::from_octagons(3, 3).unwrap();
    for r in RATIOS {
        let layout = Layout::new(Proportions::default().with_cut_ratio(r)).unwrap();
        let all = pieces(&layout, dims);
        let inside = |poly: &[DVec2], p: DVec2| {
            let n = poly.len();
            (0..n)
                .map(|i| (poly[(i + 1) % n] - poly[i]).normalize().perp_dot(p - poly[i]))
                .fold(f64::INFINITY, f64::min)
        };
        let (mut checked, span) = (0, 4.0 * layout.spacing());
        for i in 0..=160 {
            for j in 0..=160 {
                let p = DVec2::new(f64::from(j), f64::from(i)) * span / 160.0;
                let holders: Vec<Place> =
                    all.iter().filter(|(_, poly)| inside(poly, p) > 1e-6).map(|(pl, _)| *pl).collect();
                if all.iter().any(|(_, poly)| inside(poly, p).abs() <= 1e-6) {
                    continue;
                }
                assert_eq!(holders.len(), 1, "r={r}: {p} lies in exactly one piece: {holders:?}");
                assert_eq!(layout.place_at(p), Some(holders[0]), "r={r}: at {p}");
                checked += 1;
            }
        }
        assert!(checked > 20_000, "r={r}: only {checked} points checked");
    }
}

#[test]
fn points_north_or_west_of_the_grid_have_no_place() {
    let layout = Layout::new(Proportions::default()).unwrap();
    let h = Proportions::default().half_base();
    // North of octagon (0, 0), west of it, and north-west of its cut corner.
    for p in [DVec2::new(0.0, -h - 0.01), DVec2::new(-h - 0.01, 0.0), DVec2::new(-h + 0.1, -h + 0.1)] {
        assert_eq!(layout.place_at(p), None, "{p}");
    }
    // Just inside its north wall it is the octagon.
    assert_eq!(layout.slot_at(DVec2::new(0.0, -h + 0.01)), Some(Slot::new(0, 0)));
}

#[test]
fn nearest_slot_rounds_and_clamps_into_the_grid() {
    let layout = Layout::new(Proportions::default()).unwrap();
    let dims = Dims::from_octagons(2, 2).unwrap();
    let s = layout.spacing();
    assert_eq!(layout.nearest_slot(DVec2::new(1.4 * s, 0.6 * s), dims), Slot::new(1, 1));
    assert_eq!(layout.nearest_slot(DVec2::new(-5.0 * s, 9.0 * s), dims), Slot::new(2, 0));
}

#[test]
fn level_at_boundaries() {
    // The lowest and highest layer heights the proportions allow, and two between.
    for h in [12.0, Proportions::MIN_LAYER_HEIGHT, 7.1, Proportions::MAX_LAYER_HEIGHT] {
        let layout = Layout::new(Proportions {
            layer_height: h,
            room_height: Proportions::MIN_ROOM_HEIGHT,
            door_height: Proportions::MIN_DOOR_HEIGHT,
            ..Default::default()
        })
        .unwrap();
        let p = layout.proportions();
        for level in [0u16, 1, 3, 17] {
            let y = p.floor_y(level);
            assert_eq!(layout.level_at(y), Some(level), "H={h}: floor of level {level} at {y}");
            assert_eq!(layout.level_at(y + h * 0.999), Some(level), "H={h}: just below level {}", level + 1);
            assert_eq!(layout.level_at(y - h * 1e-9), Some(level), "H={h}: a rounding error below the floor");
            if level > 0 {
                assert_eq!(layout.level_at(y - h * 1e-3), Some(level - 1), "H={h}: a millimetre-ish below");
            }
        }
        assert_eq!(layout.level_at(-h * 1e-3), None, "below level 0");
        assert_eq!(layout.level_at(h * 65536.5), None, "above the last level");
    }
}

#[test]
fn the_walking_line_is_the_stair_cost_and_follows_the_spiral() {
    use octile::geometry::{Spiral, WalkingLine};
    // The path cost reads this length: it is the formula `path::stair_cost` documents,
    // bit for bit, so no path cost moved when it came here.
    for base in [1.0, 3.3, 12.8, 40.0, 1e-3, 123.456] {
        let p = Proportions { base, ..Proportions::default() };
        let old = (std::f64::consts::PI * base / 2.0).hypot(p.layer_height);
        assert_eq!(WalkingLine::of(&p).length().to_bits(), old.to_bits(), "base {base}");
    }
    assert_eq!(octile::path::stair_cost(&Proportions::default()), 1426);
    for k in 5..=45 {
        let r = f64::from(k) / 100.0;
        // A narrow door, so that the smallest and largest cuts still validate.
        let p = Proportions {
            door_width: Proportions::MIN_DOOR_WIDTH,
            ..Proportions::default().with_cut_ratio(r)
        };
        let layout = Layout::new(p).unwrap();
        for landing in Direction::ALL {
            let spiral = Spiral::new(&layout, Slot::new(2, 2), landing, p.layer_height).unwrap();
            let line = spiral.walking;
            assert_eq!(line, WalkingLine::of(&p), "every stair of a dungeon has the same line");
            assert!(
                line.radius > spiral.column_radius() + 0.3 && line.radius < spiral.step_radius(),
                "r={r}: the line ({}) is on the steps ({} to {})",
                line.radius,
                spiral.column_radius(),
                spiral.step_radius()
            );
            // Walk the ramp (the surface the mesh's treads are within half a step of) once
            // round along the line, from the ramp's foot to the end of the landing.
            let (_, foot) = spiral.landing_angles();
            let n = 20_000;
            let at = |i: usize| {
                // Just past the foot to just before it again (the landing ends there).
                let a = foot + std::f64::consts::TAU * (i as f64 + 1e-6) / (n as f64 + 2e-6);
                let q = spiral.centre + DVec2::from_angle(a) * line.radius;
                (q, spiral.ramp(q).expect("the line is on the steps"))
            };
            let walked: f64 = (0..n)
                .map(|i| {
                    let ((p0, h0), (p1, h1)) = (at(i), at(i + 1));
                    p0.distance(p1).hypot(h1 - h0)
                })
                .sum();
            let off = (walked - line.length()).abs() / line.length();
            assert!(off < 0.05, "r={r} {landing:?}: ramp {walked} m vs walking line {} m", line.length());
        }
    }
}
