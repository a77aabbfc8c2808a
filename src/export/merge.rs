//! Coplanar merging for colliders: every vertex that lies inside a flat horizontal surface
//! (all its triangles horizontal, at its height, facing the same way, and closing round it)
//! is removed and the polygon round it re-triangulated by ear clipping. What is left is
//! each floor and ceiling region triangulated with its boundary vertices only: the fewest
//! triangles that keep every boundary vertex, so the walls still meet the floor edge to
//! edge and a closed surface stays closed. The cell-centre fan vertices of the render mesh
//! go (an octagon floor: 8 triangles to 6, a connector: 4 to 2).

use glam::DVec2;

pub(super) use crate::geometry::ear_clip;

/// Largest fan handled (triangles round one vertex); larger ones are left as they are.
const MAX_FAN: usize = 64;

/// The triangles round vertex `v` as its link ring in winding order, when `v` is inside
/// one flat horizontal surface: every triangle at `v`'s height, all wound the same way
/// seen from above (sign returned), and their far edges closing one ring round `v`.
fn link_ring(v: u32, fan: &[usize], positions: &[[f32; 3]], indices: &[u32]) -> Option<(Vec<u32>, f64)> {
    let y = positions[v as usize][1];
    let plan = |i: u32| DVec2::new(f64::from(positions[i as usize][0]), f64::from(positions[i as usize][2]));
    let mut next: Vec<(u32, u32)> = Vec::with_capacity(fan.len());
    let mut sign = 0.0;
    for &t in fan {
        let tri = &indices[3 * t..3 * t + 3];
        if tri.iter().any(|&i| positions[i as usize][1] != y) {
            return None;
        }
        let k = tri.iter().position(|&i| i == v)?;
        let (a, b) = (tri[(k + 1) % 3], tri[(k + 2) % 3]);
        let s = (plan(a) - plan(v)).perp_dot(plan(b) - plan(v)).signum();
        if s == 0.0 || (sign != 0.0 && s != sign) {
            return None;
        }
        sign = s;
        next.push((a, b));
    }
    next.sort_unstable();
    let mut ring = vec![next[0].0];
    while ring.len() < next.len() {
        let last = *ring.last().expect("invariant: not empty");
        let at = next.binary_search_by_key(&last, |e| e.0).ok()?;
        ring.push(next[at].1);
    }
    let closes = next.binary_search_by_key(ring.last().expect("invariant: not empty"), |e| e.0).ok()?;
    let distinct = next.windows(2).all(|w| w[0].0 != w[1].0);
    (next[closes].1 == ring[0] && distinct).then_some((ring, sign))
}

/// `indices` (triangles over `positions`, welded by position) with every vertex inside a
/// flat horizontal surface removed and its ring re-triangulated. Vertices are visited in
/// index order, so the result is the same on every run.
pub(crate) fn merge_flat(positions: &[[f32; 3]], indices: &[u32]) -> Vec<u32> {
    let mut tris: Vec<Option<[u32; 3]>> = indices.chunks_exact(3).map(|t| Some([t[0], t[1], t[2]])).collect();
    let plan: Vec<DVec2> = positions.iter().map(|p| DVec2::new(f64::from(p[0]), f64::from(p[2]))).collect();
    let mut by_vertex: Vec<Vec<usize>> = vec![Vec::new(); positions.len()];
    for (t, tri) in tris.iter().enumerate() {
        for &i in tri.iter().flatten() {
            by_vertex[i as usize].push(t);
        }
    }
    for v in 0..positions.len() {
        let fan: Vec<usize> = by_vertex[v].iter().copied().filter(|&t| tris[t].is_some()).collect();
        if fan.len() < 3 || fan.len() > MAX_FAN {
            continue;
        }
        let flat: Vec<u32> = fan.iter().flat_map(|&t| tris[t].expect("invariant: live")).collect();
        let local: Vec<usize> = (0..fan.len()).collect();
        let v = u32::try_from(v).expect("invariant: vertices fit u32");
        let Some((ring, sign)) = link_ring(v, &local, positions, &flat) else { continue };
        let Some(new) = ear_clip(&ring, &plan, sign) else { continue };
        for &t in &fan {
            tris[t] = None;
        }
        for tri in new {
            let t = tris.len();
            tris.push(Some(tri));
            for &i in &tri {
                by_vertex[i as usize].push(t);
            }
        }
    }
    tris.into_iter().flatten().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_centre_fan_becomes_a_fan_without_its_centre() {
        // A square of 4 corners and a centre (index 4), fanned: 4 triangles to 2.
        let p = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.5, 0.0, 0.5]];
        let idx = [4, 0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0];
        let out = merge_flat(&p, &idx);
        assert_eq!(out.len(), 6);
        assert!(!out.contains(&4));
        // Lifting the centre makes it not flat: nothing changes.
        let mut q = p;
        q[4][1] = 0.1;
        assert_eq!(merge_flat(&q, &idx), idx);
    }
}
