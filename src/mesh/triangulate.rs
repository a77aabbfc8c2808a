//! Triangulations that never make a degenerate triangle from the shapes the extruder
//! builds: convex polygons (with or without extra points on their edges) and strips
//! between two polylines on distinct lines.

use glam::DVec3;

/// Fan from the first vertex of a strictly convex polygon (no three points collinear).
pub(crate) fn fan(poly: &[DVec3]) -> Vec<[DVec3; 3]> {
    (1..poly.len().saturating_sub(1)).map(|i| [poly[0], poly[i], poly[i + 1]]).collect()
}

/// Fan from the centroid of a convex polygon that may carry extra points on its edges
/// (door splits): every triangle has the centroid as an apex, so none is degenerate.
pub(crate) fn centre_fan(poly: &[DVec3]) -> Vec<[DVec3; 3]> {
    let n = poly.len();
    let c = poly.iter().copied().sum::<DVec3>() / n as f64;
    (0..n).map(|i| [c, poly[i], poly[(i + 1) % n]]).collect()
}

/// Zips two polylines that run the same way along two distinct lines (the sides of a wall
/// panel, the bottom and top of a shaft wall) into triangles. Points are matched by their
/// fraction of each chain's length, so splits on either chain are kept as vertices.
pub(crate) fn strip(a: &[DVec3], b: &[DVec3]) -> Vec<[DVec3; 3]> {
    let fractions = |c: &[DVec3]| {
        let mut acc = vec![0.0; c.len()];
        for i in 1..c.len() {
            acc[i] = acc[i - 1] + c[i].distance(c[i - 1]);
        }
        let total = acc[c.len() - 1].max(f64::MIN_POSITIVE);
        acc.into_iter().map(|x| x / total).collect::<Vec<_>>()
    };
    let (fa, fb) = (fractions(a), fractions(b));
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len() + b.len());
    while i + 1 < a.len() || j + 1 < b.len() {
        let advance_a = j + 1 >= b.len() || (i + 1 < a.len() && fa[i + 1] <= fb[j + 1]);
        if advance_a {
            out.push([a[i], b[j], a[i + 1]]);
            i += 1;
        } else {
            out.push([a[i], b[j], b[j + 1]]);
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(t: &[DVec3; 3]) -> f64 {
        (t[1] - t[0]).cross(t[2] - t[0]).length() / 2.0
    }

    #[test]
    fn strip_keeps_splits_and_area() {
        let a = [DVec3::ZERO, DVec3::new(0.0, 1.0, 0.0), DVec3::new(0.0, 3.0, 0.0)];
        let b = [DVec3::new(2.0, 0.0, 0.0), DVec3::new(2.0, 3.0, 0.0)];
        let t = strip(&a, &b);
        assert_eq!(t.len(), 3);
        assert!(t.iter().all(|t| area(t) > 1e-9));
        assert!((t.iter().map(area).sum::<f64>() - 6.0).abs() < 1e-12);
    }

    #[test]
    fn centre_fan_survives_collinear_points() {
        let sq = [
            DVec3::ZERO,
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(2.0, 0.0, 0.0),
            DVec3::new(2.0, 0.0, 2.0),
            DVec3::new(0.0, 0.0, 2.0),
        ];
        let t = centre_fan(&sq);
        assert!(t.iter().all(|t| area(t) > 1e-9));
        assert!((t.iter().map(area).sum::<f64>() - 4.0).abs() < 1e-12);
        assert_eq!(fan(&sq[..2]).len(), 0);
    }
}
