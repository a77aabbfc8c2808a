//! World space: derived lengths, shared walls, and the exact tiling of one period.

use glam::DVec2;
use octile::geometry::{Layout, Proportions, Spacing, clip_convex, signed_area};
use octile::grid::{ConnectorWall, Dims, Direction, Slot};

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
