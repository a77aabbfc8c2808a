//! Coplanar merging for colliders: every vertex that lies inside a flat horizontal surface
//! (all its triangles horizontal, at its height, facing the same way, and closing round it)
//! is removed and the polygon round it re-triangulated by ear clipping. What is left is
//! each floor and ceiling region triangulated with its boundary vertices only: the fewest
//! triangles that keep every boundary vertex, so the walls still meet the floor edge to
//! edge and a closed surface stays closed. The cell-centre fan vertices of the render mesh
//! go (an octagon floor: 8 triangles to 6, a connector: 4 to 2).

use glam::DVec2;

/// Largest fan handled (triangles round one vertex); larger ones are left as they are.
const MAX_FAN: usize = 64;

/// Twice the signed area of `a, b, c` in plan `(x, z)`.
fn cross(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// Whether `p` is inside or on triangle `a, b, c` (wound with sign `s`).
fn inside(p: DVec2, [a, b, c]: [DVec2; 3], s: f64) -> bool {
    [cross(a, b, p), cross(b, c, p), cross(c, a, p)].iter().all(|&x| x * s >= -1e-9)
}

/// Ear clipping of the simple polygon `ring` (indices into `plan`), wound with sign `s`:
/// `None` when no ear is found (the polygon is then left alone).
pub(super) fn ear_clip(ring: &[u32], plan: &[DVec2], s: f64) -> Option<Vec<[u32; 3]>> {
    let mut ring = ring.to_vec();
    let mut out = Vec::with_capacity(ring.len().saturating_sub(2));
    while ring.len() > 3 {
        let n = ring.len();
        let ear = (0..n).find(|&i| {
            let [p, c, q] = [ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]];
            let tri = [p, c, q].map(|k| plan[k as usize]);
            cross(tri[0], tri[1], tri[2]) * s > 1e-9
                && ring
                    .iter()
                    .filter(|&&k| k != p && k != c && k != q)
                    .all(|&k| !inside(plan[k as usize], tri, s))
        })?;
        out.push([ring[(ear + n - 1) % n], ring[ear], ring[(ear + 1) % n]]);
        ring.remove(ear);
    }
    let tri = [ring[0], ring[1], ring[2]];
    (cross(plan[tri[0] as usize], plan[tri[1] as usize], plan[tri[2] as usize]) * s > 1e-9).then(|| {
        out.push(tri);
        out
    })
}

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
        let s = cross(plan(v), plan(a), plan(b)).signum();
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
