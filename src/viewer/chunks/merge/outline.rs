//! Outlines of joined pieces and their triangulation.

use glam::DVec2;

use super::{edges, same};
use crate::geometry::signed_area;

/// The outline of the union of positively wound polygons that meet along whole edges: the
/// edges not shared, chained into one loop, with the corners where it runs straight on
/// dropped. `None` when they do not make one loop (a hole, or pieces that only touch).
pub(super) fn union_outline(polys: &[&[DVec2]]) -> Option<Vec<DVec2>> {
    let all: Vec<(DVec2, DVec2)> = polys.iter().flat_map(|p| edges(p)).collect();
    let mut open: Vec<(DVec2, DVec2)> =
        all.iter().copied().filter(|&(p, q)| !all.iter().any(|&(r, s)| same(p, s) && same(q, r))).collect();
    let (first, mut at) = open.pop()?;
    let mut outline = vec![first];
    while !same(at, first) {
        let next = open.iter().position(|&(p, _)| same(p, at))?;
        let (p, q) = open.swap_remove(next);
        outline.push(p);
        at = q;
    }
    if !open.is_empty() {
        return None;
    }
    drop_straight_corners(&mut outline);
    (outline.len() >= 3).then_some(outline)
}

/// Removes the corners of a closed polygon where its outline runs straight on.
fn drop_straight_corners(outline: &mut Vec<DVec2>) {
    let mut i = 0;
    while outline.len() > 3 && i < outline.len() {
        let n = outline.len();
        let (prev, here, next) = (outline[(i + n - 1) % n], outline[i], outline[(i + 1) % n]);
        let (d0, d1) = (here - prev, next - here);
        if d0.perp_dot(d1).abs() <= 1e-9 * d0.length() * d1.length() && d0.dot(d1) > 0.0 {
            outline.remove(i);
            i = i.saturating_sub(1);
        } else {
            i += 1;
        }
    }
}

/// Ear clipping of a simple polygon without holes or straight corners
/// ([`crate::geometry::ear_clip`] over its corners, wound as it is): `n - 2` triangles
/// (corner indices) that cover it exactly. `None` when no ear is found (a polygon that is
/// not simple).
#[must_use]
pub fn ear_clip(outline: &[DVec2]) -> Option<Vec<[u32; 3]>> {
    let corners: Vec<u32> = (0..u32::try_from(outline.len()).ok()?).collect();
    crate::geometry::ear_clip(&corners, outline, signed_area(outline).signum())
}
