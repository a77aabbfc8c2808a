//! Tests of the merged floors and wall runs: the same surface, fewer triangles.

use super::walls::WALL_PROBE;
use super::*;
use crate::generate::{GenerateOptions, generate};
use crate::geometry::{in_triangle, signed_area};
use crate::viewer::chunks::owner_chunk;
use crate::walk::{WallKind, level_plan};

/// The area the triangles of `polygon` cover (each counted unsigned).
fn triangles_area(polygon: &FloorPolygon) -> f64 {
    let p = |i: u32| polygon.outline[i as usize];
    polygon.triangles.iter().map(|t| (p(t[1]) - p(t[0])).perp_dot(p(t[2]) - p(t[0])).abs() * 0.5).sum()
}

#[test]
fn ear_clipping_covers_an_l_and_a_plus() {
    let l = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)].map(DVec2::from);
    let plus = [
        (1.0, 0.0),
        (2.0, 0.0),
        (2.0, 1.0),
        (3.0, 1.0),
        (3.0, 2.0),
        (2.0, 2.0),
        (2.0, 3.0),
        (1.0, 3.0),
        (1.0, 2.0),
        (0.0, 2.0),
        (0.0, 1.0),
        (1.0, 1.0),
    ]
    .map(DVec2::from);
    for (outline, area) in [(l.to_vec(), 3.0), (plus.to_vec(), 5.0)] {
        for outline in [outline.clone(), outline.iter().rev().copied().collect()] {
            let triangles = ear_clip(&outline).unwrap();
            assert_eq!(triangles.len(), outline.len() - 2);
            let polygon = FloorPolygon { chunk: (0, 0), outline, triangles };
            assert!((triangles_area(&polygon) - area).abs() < 1e-9, "{polygon:?}");
        }
    }
    // Not simple (a bow tie): no ear covers it exactly.
    let bow = [(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)].map(DVec2::from);
    let clipped = ear_clip(&bow);
    assert!(clipped.is_none() || clipped.unwrap().len() == 2);
}

/// Checks that the merged floors of `plan` cover its floored pieces exactly, each piece's
/// inside under a triangle of its own chunk; returns the triangle counts before and after.
fn check_cover(plan: &LevelPlan) -> (usize, usize) {
    let level = plan.level;
    let merged = merged_floors(plan);
    let pieces: Vec<&Piece> = plan.pieces.iter().filter(|p| p.floor).collect();
    let before: usize = pieces.iter().map(|p| p.polygon.len() - 2).sum();
    let after: usize = merged.iter().map(|p| p.triangles.len()).sum();
    // Every polygon is a simple outline covered exactly by its triangles.
    for polygon in &merged {
        assert!(signed_area(&polygon.outline) > 0.0, "wound positively: {polygon:?}");
        let area = signed_area(&polygon.outline);
        assert!((triangles_area(polygon) - area).abs() < 1e-6 * area, "{polygon:?}");
    }
    // The same area as the pieces, and every piece's inside is under a triangle of
    // its own chunk (points a tenth of the way from each corner to the centre).
    let total: f64 = merged.iter().map(triangles_area).sum();
    let expected: f64 = pieces.iter().map(|p| signed_area(&p.polygon)).sum();
    assert!((total - expected).abs() < 1e-6 * expected, "{total} vs {expected}");
    for piece in &pieces {
        let centre = piece.polygon.iter().sum::<DVec2>() / piece.polygon.len() as f64;
        for inside in piece.polygon.iter().map(|&corner| corner + (centre - corner) * 0.1).chain([centre]) {
            let covered = merged.iter().filter(|m| m.chunk == piece_chunk(piece)).any(|m| {
                m.triangles.iter().any(|t| {
                    let tri = t.map(|i| m.outline[i as usize]);
                    let sign = (tri[1] - tri[0]).perp_dot(tri[2] - tri[0]).signum();
                    in_triangle(inside, tri, sign)
                })
            });
            assert!(covered, "level {level}: {inside} of {:?} is not floored", piece.kind);
        }
    }
    (before, after)
}

#[test]
fn merged_floors_cover_the_pieces_exactly_with_a_fifth_fewer_triangles() {
    let options = GenerateOptions { seed: 7, levels: 3, cols: 32, rows: 32, ..Default::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    for level in 0..3 {
        let (before, after) = check_cover(&level_plan(&d, level));
        // Rows of octagons drop 4 triangles a seam, a joined diagonal seam up to 2 (on
        // these three levels 24.2-24.6% fewer).
        assert!(after * 100 <= before * 80, "level {level}: {after} triangles of {before}");
    }
}

#[test]
fn merged_floors_cover_an_open_hall_with_its_pillars() {
    let mut d =
        crate::dungeon::Dungeon::new(6, 6, 1, Default::default(), crate::dungeon::Fill::Floor).unwrap();
    let open = d.open_pillars_within(0, &crate::grid::Grid::filled(d.dims(), true)).unwrap();
    assert_eq!(open, 4 * 25);
    let plan = level_plan(&d, 0);
    assert_eq!(plan.pieces.iter().filter(|p| matches!(p.kind, PieceKind::Pillar(_))).count(), open);
    check_cover(&plan);
}

#[test]
fn wall_runs_join_straight_walls_and_keep_their_length() {
    let options = GenerateOptions { seed: 7, levels: 2, cols: 32, rows: 32, ..Default::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    for level in 0..2 {
        let plan = level_plan(&d, level);
        let rock: Vec<_> = plan.walls.iter().filter(|w| w.kind == WallKind::Rock).collect();
        let runs = wall_runs(&plan, d.layout());
        let mut by_chunk: BTreeMap<ChunkKey, Vec<WallRun>> = BTreeMap::new();
        for r in &runs {
            by_chunk.entry(r.chunk).or_default().push(*r);
        }
        let length: f64 = rock.iter().map(|w| (w.b - w.a).length()).sum();
        let joined: f64 = runs.iter().map(|r| (r.b - r.a).length()).sum();
        assert!((length - joined).abs() < 1e-6 * length, "level {level}: {joined} m of {length} m");
        // Every wall lies on a run of its chunk, facing the same way.
        for w in &rock {
            let dir = (w.b - w.a).normalize();
            let chunk = owner_chunk(d.layout(), (w.a + w.b) * 0.5 + dir.perp() * WALL_PROBE);
            let on_run = by_chunk.get(&chunk).into_iter().flatten().any(|r| {
                let along = (r.b - r.a).normalize();
                let on = |p: DVec2| (p - r.a).perp_dot(along).abs() < 1e-6;
                let t = |p: DVec2| (p - r.a).dot(along) / (r.b - r.a).length();
                along.dot(dir) > 1.0 - 1e-9 && on(w.a) && on(w.b) && t(w.a) > -1e-9 && t(w.b) < 1.0 + 1e-9
            });
            assert!(on_run, "level {level}: wall {w:?} is on no run");
        }
        assert!(
            runs.len() * 100 <= rock.len() * 95,
            "level {level}: {} runs of {} walls",
            runs.len(),
            rock.len()
        );
    }
}
