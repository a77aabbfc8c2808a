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
