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
    let (mut ra, mut rb) = (Run::new(a), Run::new(b));
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len() + b.len());
    while i + 1 < a.len() || j + 1 < b.len() {
        let advance_a = j + 1 >= b.len() || (i + 1 < a.len() && ra.next_fraction() <= rb.next_fraction());
        if advance_a {
            out.push([a[i], b[j], a[i + 1]]);
            i += 1;
            ra.step();
        } else {
            out.push([a[i], b[j], b[j + 1]]);
            j += 1;
            rb.step();
        }
    }
    out
}

/// A walk along a polyline by the fraction of its length reached at each point (the
/// length summed point by point from the start, over the whole length).
struct Run<'a> {
    chain: &'a [DVec3],
    /// Length from the start to the current point.
    done: f64,
    /// The current point.
    at: usize,
    total: f64,
}

impl<'a> Run<'a> {
    fn new(chain: &'a [DVec3]) -> Run<'a> {
        let total = chain.windows(2).fold(0.0, |sum, w| sum + w[1].distance(w[0]));
        Run { chain, done: 0.0, at: 0, total: total.max(f64::MIN_POSITIVE) }
    }

    /// The fraction reached at the point after the current one (which must exist).
    fn next_fraction(&self) -> f64 {
        (self.done + self.chain[self.at + 1].distance(self.chain[self.at])) / self.total
    }

    /// Moves to the next point.
    fn step(&mut self) {
        self.done += self.chain[self.at + 1].distance(self.chain[self.at]);
        self.at += 1;
    }
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
