//! The solid of a ramp (docs/design.md, "Columns across storeys"): a closed block over the
//! pieces of its plan ([`RampPlan`]), from the foot's floor up to its sloped top, with role
//! [`MaterialRole::Stair`] like a spiral stair's solid. Its sides stand on the outline of
//! the pieces together (not on the edges two pieces share), so that it is closed by itself;
//! at the foot the top meets the floor along the foot's wall.

use glam::{DVec2, DVec3};

use super::MaterialRole;
use super::panel::{Frame, Panel, at};
use super::triangulate::fan;
use crate::geometry::RampPlan;

/// Most triangles of a ramp's solid per octagon it runs over (its top and bottom over that
/// octagon and the seam before it, and their sides).
pub(crate) const TRIANGLES_PER_RAMP_CELL: u64 = 48;

/// The panels of the ramp solid of `plan`, level-local (its foot's floor at height 0), each
/// facing out of the solid.
pub(crate) fn ramp_panels(plan: &RampPlan) -> Vec<Panel> {
    let lift = |p: DVec2| at(p, plan.plane_height(p));
    let slope = plan.slope();
    let u = DVec3::new(plan.along.x, slope, plan.along.y).normalize();
    let normal = DVec3::new(-slope * plan.along.x, 1.0, -slope * plan.along.y).normalize();
    let mut top = Panel {
        role: MaterialRole::Stair,
        frame: Frame { normal, u_axis: u, v_axis: normal.cross(u) },
        tris: Vec::new(),
    };
    let mut bottom = Panel::horizontal(MaterialRole::Stair, false);
    top.extend(plan.surface());
    for part in &plan.parts {
        bottom.extend(fan(&part.iter().map(|&p| at(p, 0.0)).collect::<Vec<_>>()));
    }
    let mut out = vec![top, bottom];
    for (k, part) in plan.parts.iter().enumerate() {
        let centre = part.iter().copied().sum::<DVec2>() / part.len() as f64;
        for i in 0..part.len() {
            let (a, b) = (part[i], part[(i + 1) % part.len()]);
            if shared(plan, k, a, b) {
                continue;
            }
            let mid = (a + b) / 2.0;
            let mut side = Panel::vertical(MaterialRole::Stair, a, b, mid + (mid - centre));
            side.extend([[at(a, 0.0), at(b, 0.0), lift(b)], [at(a, 0.0), lift(b), lift(a)]]);
            if !side.tris.is_empty() {
                out.push(side);
            }
        }
    }
    out
}

/// Whether the edge `a-b` of piece `k` is also an edge of another piece of `plan`.
fn shared(plan: &RampPlan, k: usize, a: DVec2, b: DVec2) -> bool {
    let same = |p: DVec2, q: DVec2| p.distance_squared(q) < 1e-12;
    plan.parts.iter().enumerate().filter(|&(j, _)| j != k).any(|(_, part)| {
        (0..part.len()).any(|i| {
            let (c, d) = (part[i], part[(i + 1) % part.len()]);
            (same(a, d) && same(b, c)) || (same(a, c) && same(b, d))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Layout, Proportions};
    use crate::grid::{Direction, Slot};

    /// Each edge of the welded triangles, with how often it is used each way.
    fn open_edges(tris: &[[DVec3; 3]]) -> usize {
        let key = |p: DVec3| [p.x, p.y, p.z].map(|v| (v * 1e6).round() as i64);
        let mut edges: Vec<([i64; 3], [i64; 3])> = Vec::new();
        for t in tris {
            for i in 0..3 {
                edges.push((key(t[i]), key(t[(i + 1) % 3])));
            }
        }
        edges.sort_unstable();
        edges.iter().filter(|&&(a, b)| edges.binary_search(&(b, a)).is_err()).count()
            + edges.windows(2).filter(|w| w[0] == w[1]).count()
    }

    #[test]
    fn the_ramp_solid_is_closed_faces_out_and_rises_one_storey() {
        let layout = Layout::new(Proportions::default()).unwrap();
        for dir in Direction::CARDINALS {
            let plan = RampPlan::new(&layout, Slot::new(8, 8), dir, 2).unwrap();
            let panels = ramp_panels(&plan);
            let tris: Vec<[DVec3; 3]> = panels.iter().flat_map(|p| p.tris.iter().copied()).collect();
            assert_eq!(open_edges(&tris), 0, "{dir:?}: closed, each edge once each way");
            // Outward: the signed volume is positive, and equals the wedge's.
            let volume: f64 = tris.iter().map(|[a, b, c]| a.dot(b.cross(*c)) / 6.0).sum();
            let area: f64 = plan.parts.iter().map(|p| crate::geometry::signed_area(p)).sum();
            assert!(volume > 0.0, "{dir:?}: {volume}");
            let top = tris.iter().flatten().map(|v| v.y).fold(0.0, f64::max);
            assert!((top - 12.0).abs() < 1e-9, "{dir:?}: {top}");
            assert!(volume < area * 12.0 && volume > area * 3.0, "{dir:?}: {volume} of {area} m2");
            assert!(tris.len() as u64 <= 2 * TRIANGLES_PER_RAMP_CELL, "{}", tris.len());
        }
    }
}
