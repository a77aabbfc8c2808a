//! Outlines of joined pieces and their triangulation.

use glam::DVec2;

use super::{edges, same};

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

/// Ear clipping of a simple polygon without holes or straight corners: `n - 2` triangles
/// (corner indices) that cover it exactly. `None` when no ear is found (a polygon that is
/// not simple).
#[must_use]
pub fn ear_clip(outline: &[DVec2]) -> Option<Vec<[u32; 3]>> {
    let twice_area: f64 = edges(outline).map(|(p, q)| p.perp_dot(q)).sum();
    let sign = twice_area.signum();
    let mut left: Vec<u32> = (0..outline.len() as u32).collect();
    let mut out = Vec::with_capacity(outline.len().saturating_sub(2));
    let at = |i: u32| outline[i as usize];
    while left.len() > 3 {
        let n = left.len();
        let ear = (0..n).find(|&k| {
            let (a, b, c) = (left[(k + n - 1) % n], left[k], left[(k + 1) % n]);
            let turn = (at(b) - at(a)).perp_dot(at(c) - at(b)) * sign;
            turn > 1e-12
                && left
                    .iter()
                    .filter(|&&j| ![a, b, c].contains(&j))
                    .all(|&j| !in_triangle(at(j), [at(a), at(b), at(c)], sign))
        })?;
        out.push([left[(ear + n - 1) % n], left[ear], left[(ear + 1) % n]]);
        left.remove(ear);
    }
    if left.len() == 3 {
        out.push([left[0], left[1], left[2]]);
    }
    Some(out)
}

/// True when `p` is inside or on the triangle `t`, wound the way `sign` says.
pub(super) fn in_triangle(p: DVec2, t: [DVec2; 3], sign: f64) -> bool {
    (0..3).all(|i| (t[(i + 1) % 3] - t[i]).perp_dot(p - t[i]) * sign >= -1e-9)
}
