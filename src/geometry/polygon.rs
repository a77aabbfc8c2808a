//! Small helpers on planar polygons in the world's `(x, z)` plane.

use glam::DVec2;

/// Signed shoelace area of a polygon in `(x, z)` (positive for the winding every polygon of
/// [`crate::geometry::Layout`] uses: counter-clockwise with `x` right and `z` up).
#[must_use]
pub fn signed_area(points: &[DVec2]) -> f64 {
    let n = points.len();
    (0..n).map(|i| points[i].perp_dot(points[(i + 1) % n])).sum::<f64>() / 2.0
}

/// Reverses `points` when its signed area is negative, so the result winds positively.
pub(crate) fn make_positive<const N: usize>(mut points: [DVec2; N]) -> [DVec2; N] {
    if signed_area(&points) < 0.0 {
        points.reverse();
    }
    points
}

/// Twice the signed area of the triangle `a, b, c`.
fn cross(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// Whether `p` is inside or on the triangle `t` (wound with sign `sign`), within 1e-9.
#[must_use]
pub fn in_triangle(p: DVec2, [a, b, c]: [DVec2; 3], sign: f64) -> bool {
    [cross(a, b, p), cross(b, c, p), cross(c, a, p)].iter().all(|&x| x * sign >= -1e-9)
}

/// Ear clipping of the simple polygon `ring` (indices into `points`, without holes),
/// wound with sign `sign`: `ring.len() - 2` triangles of indices, wound the same way, that
/// cover it exactly. `None` when no ear is found or the last triangle is flat (a polygon
/// that is not simple, or has straight corners left).
#[must_use]
pub fn ear_clip(ring: &[u32], points: &[DVec2], sign: f64) -> Option<Vec<[u32; 3]>> {
    let mut ring = ring.to_vec();
    let mut out = Vec::with_capacity(ring.len().saturating_sub(2));
    while ring.len() > 3 {
        let n = ring.len();
        let ear = (0..n).find(|&i| {
            let [p, c, q] = [ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]];
            let tri = [p, c, q].map(|k| points[k as usize]);
            cross(tri[0], tri[1], tri[2]) * sign > 1e-9
                && ring
                    .iter()
                    .filter(|&&k| k != p && k != c && k != q)
                    .all(|&k| !in_triangle(points[k as usize], tri, sign))
        })?;
        out.push([ring[(ear + n - 1) % n], ring[ear], ring[(ear + 1) % n]]);
        ring.remove(ear);
    }
    let tri = [ring[0], ring[1], ring[2]];
    (cross(points[tri[0] as usize], points[tri[1] as usize], points[tri[2] as usize]) * sign > 1e-9).then(
        || {
            out.push(tri);
            out
        },
    )
}

/// The intersection of two convex, positively wound polygons (Sutherland-Hodgman).
#[must_use]
pub fn clip_convex(subject: &[DVec2], clip: &[DVec2]) -> Vec<DVec2> {
    let mut out = subject.to_vec();
    let m = clip.len();
    for i in 0..m {
        let (a, b) = (clip[i], clip[(i + 1) % m]);
        let inside = |p: DVec2| (b - a).perp_dot(p - a) >= 0.0;
        let input = std::mem::take(&mut out);
        let n = input.len();
        for j in 0..n {
            let (p, q) = (input[j], input[(j + 1) % n]);
            let (pin, qin) = (inside(p), inside(q));
            if pin {
                out.push(p);
            }
            if pin != qin {
                let d = (b - a).perp_dot(q - p);
                if d != 0.0 {
                    let t = (b - a).perp_dot(a - p) / d;
                    out.push(p + (q - p) * t);
                }
            }
        }
        if out.is_empty() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_square() {
        let sq = [DVec2::new(0.0, 0.0), DVec2::new(1.0, 0.0), DVec2::new(1.0, 1.0), DVec2::new(0.0, 1.0)];
        assert!((signed_area(&sq) - 1.0).abs() < 1e-12);
        let shifted = sq.map(|p| p + DVec2::new(0.5, 0.5));
        assert!((signed_area(&clip_convex(&sq, &shifted)) - 0.25).abs() < 1e-12);
        let far = sq.map(|p| p + DVec2::new(3.0, 0.0));
        assert!(signed_area(&clip_convex(&sq, &far)).abs() < 1e-12);
    }
}
