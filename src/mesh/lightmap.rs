//! Lightmap UVs (UV1): panels of a level that lie in one plane and touch (share a corner)
//! form one chart, in the plane's own metres, so a floor region or a straight wall run is
//! lit without seams; charts are packed into [0, 1] by shelves with padding and never
//! overlap.

use glam::DVec2;

use super::panel::Panel;

/// How many of a panel's latest corners a new corner is compared with when its corners are
/// gathered ([`join_plane`]).
const PANEL_WINDOW: usize = 16;

/// Padding around each chart, as a fraction of the estimated atlas side.
const PAD_FRACTION: f64 = 0.002;

/// Where one panel's chart lands in the atlas.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Chart {
    min: DVec2,
    offset: DVec2,
    scale: f64,
}

impl Chart {
    /// The atlas coordinates of a point given in the panel's metres.
    pub(crate) fn map(&self, metres: DVec2) -> [f32; 2] {
        let p = (metres - self.min + self.offset) * self.scale;
        [p.x.clamp(0.0, 1.0) as f32, p.y.clamp(0.0, 1.0) as f32]
    }
}

/// Quantises a length to a key (0.1 um), so equal points computed alike compare equal:
/// `(x * 1e7).round() as i64`, rounding half away from zero, written with a truncating
/// conversion instead of the `round` library call (equal for every input, NaN and
/// infinities included; a test compares them).
fn q(x: f64) -> i64 {
    let y = x * 1e7;
    let whole = y as i64;
    // Exact: below 2^53 `whole` is a float and `y - whole` its fraction; above, y is whole.
    let fraction = y - whole as f64;
    if fraction >= 0.5 {
        whole.saturating_add(1)
    } else if fraction <= -0.5 {
        whole.saturating_sub(1)
    } else {
        whole
    }
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Joins the sets of `a` and `b`; the smaller index is the root, so the sets (and each
/// set's root, its smallest member) do not depend on the order of the joins.
fn union(parent: &mut [usize], a: usize, b: usize) {
    let (a, b) = (find(parent, a), find(parent, b));
    if a != b {
        parent[a.max(b)] = a.min(b);
    }
}

/// The plane id of every panel (equal quantised normal and offset, one id) and the panels
/// in plane order, as runs of one plane each.
fn planes(panels: &[Panel]) -> Vec<Vec<usize>> {
    let plane_key = |p: &Panel| {
        let n = p.normal;
        let d = p.tris.first().map_or(0.0, |t| n.dot(t[0]));
        [q(n.x), q(n.y), q(n.z), q(d)]
    };
    let mut by_plane: Vec<([i64; 4], usize)> =
        panels.iter().enumerate().map(|(i, p)| (plane_key(p), i)).collect();
    by_plane.sort_unstable();
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for (k, &(key, i)) in by_plane.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if by_plane[k - 1].0 == key => run.push(i),
            _ => runs.push(vec![i]),
        }
    }
    runs
}

/// Joins the panels of one plane (`run`) that share a corner: their distinct quantised
/// corners sorted together, equal neighbours joined.
fn join_plane(panels: &[Panel], run: &[usize], parent: &mut [usize], corners: &mut Vec<([i64; 3], u32)>) {
    corners.clear();
    for &i in run {
        let start = corners.len();
        let panel = u32::try_from(i).expect("invariant: panels fit in u32");
        for v in panels[i].tris.iter().flatten() {
            // A panel's repeats of one point (fans and strips share corners) are left out
            // when they are among its last few corners; a repeat kept only joins the panel
            // to itself.
            let corner = [q(v.x), q(v.y), q(v.z)];
            let recent = corners.len().saturating_sub(PANEL_WINDOW).max(start);
            if !corners[recent..]
                .iter()
                .any(|(c, _)| c[0] == corner[0] && c[1] == corner[1] && c[2] == corner[2])
            {
                corners.push((corner, panel));
            }
        }
    }
    if let Some(packing) = Packing::of(corners, parent.len()) {
        let keys = packing.sorted(corners);
        for w in keys.windows(2) {
            if w[0] >> packing.panel_bits == w[1] >> packing.panel_bits {
                union(parent, packing.panel(w[0]), packing.panel(w[1]));
            }
        }
        return;
    }
    corners.sort_unstable();
    for w in corners.windows(2) {
        if w[0].0 == w[1].0 {
            union(parent, w[0].1 as usize, w[1].1 as usize);
        }
    }
}

/// Corners of one plane packed into one `u128` each (the three coordinates less their
/// smallest, then the panel), so that sorting compares one word instead of four: equal
/// corners are equal above the panel bits. Only when the plane's extent fits.
struct Packing {
    lo: [i64; 3],
    bits: [u32; 3],
    panel_bits: u32,
}

impl Packing {
    /// The packing of `corners` with panel indices below `panels`, or `None` when their
    /// spans and the panel index take more than 128 bits.
    fn of(corners: &[([i64; 3], u32)], panels: usize) -> Option<Packing> {
        let mut lo = [i64::MAX; 3];
        let mut hi = [i64::MIN; 3];
        for (c, _) in corners {
            for k in 0..3 {
                lo[k] = lo[k].min(c[k]);
                hi[k] = hi[k].max(c[k]);
            }
        }
        let width = |span: u128| 128 - span.leading_zeros();
        let bits = [0, 1, 2].map(|k| width(hi[k].abs_diff(lo[k]).into()));
        let panel_bits = width(panels as u128);
        (bits.iter().sum::<u32>() + panel_bits <= 128).then_some(Packing { lo, bits, panel_bits })
    }

    /// The keys of `corners`, equal corners next to each other: bucketed by their top
    /// bits first (one counting pass, so each bucket is a small sort), then each bucket
    /// sorted.
    fn sorted(&self, corners: &[([i64; 3], u32)]) -> Vec<u128> {
        const BUCKET_BITS: u32 = 12;
        let mut keys: Vec<u128> = corners.iter().map(|c| self.key(c)).collect();
        let used = self.bits.iter().sum::<u32>() + self.panel_bits;
        // Buckets split on corner bits only, so equal corners share a bucket.
        let shift = used.saturating_sub(BUCKET_BITS).max(self.panel_bits);
        if keys.len() < 1 << BUCKET_BITS || shift >= used {
            keys.sort_unstable();
            return keys;
        }
        let bucket = |key: u128| (key >> shift) as usize;
        let mut starts = vec![0usize; (1 << (used - shift)) + 1];
        for &key in &keys {
            starts[bucket(key) + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        let mut fill = starts.clone();
        let mut out = vec![0u128; keys.len()];
        for &key in &keys {
            out[fill[bucket(key)]] = key;
            fill[bucket(key)] += 1;
        }
        for w in starts.windows(2) {
            out[w[0]..w[1]].sort_unstable();
        }
        out
    }

    fn key(&self, (c, panel): &([i64; 3], u32)) -> u128 {
        // Shifts stay below 128: the bits of all three and the panel sum to 128 at most.
        let key = c
            .iter()
            .zip(self.lo)
            .zip(self.bits)
            .fold(0u128, |key, ((&x, lo), bits)| (key << bits) | u128::from(x.abs_diff(lo)));
        (key << self.panel_bits) | u128::from(*panel)
    }

    fn panel(&self, key: u128) -> usize {
        (key & ((1u128 << self.panel_bits) - 1)) as usize
    }
}

/// The chart of every panel: panels in one plane that share a corner are one chart.
/// Returns the chart index of each panel and the number of charts. Charts are numbered in
/// the order of their first panel.
fn group(panels: &[Panel]) -> (Vec<usize>, usize) {
    let mut parent: Vec<usize> = (0..panels.len()).collect();
    let mut corners = Vec::new();
    // A panel alone in its plane joins nothing: only planes of several panels are sorted.
    for run in planes(panels).iter().filter(|run| run.len() > 1) {
        join_plane(panels, run, &mut parent, &mut corners);
    }
    let mut chart = vec![usize::MAX; panels.len()];
    let mut count = 0;
    for i in 0..panels.len() {
        let r = find(&mut parent, i);
        if chart[r] == usize::MAX {
            chart[r] = count;
            count += 1;
        }
        chart[i] = chart[r];
    }
    (chart, count)
}

/// Smallest share of its bounding box a merged chart must fill; sparser groups (an L-bend
/// of floor) fall back to one chart per panel so the atlas is not mostly empty.
const MIN_FILL: f64 = 0.5;

/// The bounding box of every panel in its own metres, as `(lo, hi)` (infinite, inverted,
/// for a panel without vertices).
fn panel_bounds(panels: &[Panel]) -> Vec<(DVec2, DVec2)> {
    panels
        .iter()
        .map(|p| {
            p.tris.iter().flatten().fold(
                (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
                |(lo, hi), &v| {
                    let m = p.uv_metres(v);
                    (lo.min(m), hi.max(m))
                },
            )
        })
        .collect()
}

/// The bounding box of every chart from its panels' boxes (`panel_bounds`), as
/// `(min, size)` (zero for a chart without vertices).
fn bounds_of(panel_bounds: &[(DVec2, DVec2)], chart_of: &[usize], count: usize) -> Vec<(DVec2, DVec2)> {
    let mut lo = vec![DVec2::splat(f64::INFINITY); count];
    let mut hi = vec![DVec2::splat(f64::NEG_INFINITY); count];
    for (&(l, h), &c) in panel_bounds.iter().zip(chart_of) {
        lo[c] = lo[c].min(l);
        hi[c] = hi[c].max(h);
    }
    lo.iter()
        .zip(&hi)
        .map(|(&l, &h)| if l.x.is_finite() { (l, h - l) } else { (DVec2::ZERO, DVec2::ZERO) })
        .collect()
}

/// Groups from [`group`], with groups that fill less than [`MIN_FILL`] of their bounding
/// box split back into single panels.
fn charts(panels: &[Panel], panel_bounds: &[(DVec2, DVec2)]) -> (Vec<usize>, usize) {
    let (grouped, count) = group(panels);
    let bounds = bounds_of(panel_bounds, &grouped, count);
    let mut area = vec![0.0; count];
    for (p, &c) in panels.iter().zip(&grouped) {
        area[c] += p.tris.iter().map(|[a, b, c]| (*b - *a).cross(*c - *a).length() / 2.0).sum::<f64>();
    }
    let dense: Vec<bool> = (0..count).map(|c| area[c] >= MIN_FILL * bounds[c].1.x * bounds[c].1.y).collect();
    let mut renumber = vec![usize::MAX; count];
    let mut out = Vec::with_capacity(panels.len());
    let mut next = 0;
    for &g in &grouped {
        if dense[g] {
            if renumber[g] == usize::MAX {
                renumber[g] = next;
                next += 1;
            }
            out.push(renumber[g]);
        } else {
            out.push(next);
            next += 1;
        }
    }
    (out, next)
}

/// The chart of every panel, by panel index.
pub(crate) fn pack(panels: &[Panel]) -> Vec<Chart> {
    let boxes = panel_bounds(panels);
    let (chart_of, count) = charts(panels, &boxes);
    let bounds = bounds_of(&boxes, &chart_of, count);
    let area: f64 = bounds.iter().map(|(_, s)| s.x * s.y).sum();
    let pad = area.sqrt().max(1.0) * PAD_FRACTION;
    let width = (area.sqrt() * 1.1).max(bounds.iter().map(|(_, s)| s.x + 2.0 * pad).fold(0.0, f64::max));
    let mut order: Vec<usize> = (0..bounds.len()).collect();
    // Unstable is enough: the index breaks every tie, so the order is total.
    order.sort_unstable_by(|&a, &b| bounds[b].1.y.total_cmp(&bounds[a].1.y).then(a.cmp(&b)));
    let mut offsets = vec![DVec2::ZERO; bounds.len()];
    let (mut x, mut y, mut shelf) = (0.0_f64, 0.0_f64, 0.0_f64);
    let mut used_w = 0.0_f64;
    for &i in &order {
        let size = bounds[i].1 + DVec2::splat(2.0 * pad);
        if x + size.x > width && x > 0.0 {
            y += shelf;
            x = 0.0;
            shelf = 0.0;
        }
        offsets[i] = DVec2::new(x + pad, y + pad);
        x += size.x;
        used_w = used_w.max(x);
        shelf = shelf.max(size.y);
    }
    let side = used_w.max(y + shelf).max(f64::MIN_POSITIVE);
    let scale = 1.0 / side;
    let charts: Vec<Chart> =
        bounds.iter().zip(offsets).map(|(&(min, _), offset)| Chart { min, offset, scale }).collect();
    chart_of.iter().map(|&c| charts[c]).collect()
}

#[cfg(test)]
mod tests {
    use glam::DVec3;

    use super::*;
    use crate::dungeon::{Dungeon, Fill};
    use crate::geometry::Proportions;
    use crate::mesh::MaterialRole;

    /// The grouping written plainly: every panel's (plane, corner) pairs sorted together,
    /// panels with an equal pair joined, charts numbered by their first panel.
    fn reference_group(panels: &[Panel]) -> Vec<usize> {
        let key = |x: f64| (x * 1e7).round() as i64;
        let mut pairs = Vec::new();
        for (i, p) in panels.iter().enumerate() {
            let n = p.normal;
            let d = p.tris.first().map_or(0.0, |t| n.dot(t[0]));
            let plane = [key(n.x), key(n.y), key(n.z), key(d)];
            pairs.extend(p.tris.iter().flatten().map(|v| (plane, [key(v.x), key(v.y), key(v.z)], i)));
        }
        pairs.sort_unstable();
        let mut parent: Vec<usize> = (0..panels.len()).collect();
        for w in pairs.windows(2) {
            if (w[0].0, w[0].1) == (w[1].0, w[1].1) {
                union(&mut parent, w[0].2, w[1].2);
            }
        }
        let mut chart = vec![usize::MAX; panels.len()];
        let mut next = 0;
        (0..panels.len())
            .map(|i| {
                let root = find(&mut parent, i);
                if chart[root] == usize::MAX {
                    chart[root] = next;
                    next += 1;
                }
                chart[root]
            })
            .collect()
    }

    fn assert_groups_as_reference(panels: &[Panel], what: &str) {
        let (chart, count) = group(panels);
        let expected = reference_group(panels);
        assert_eq!(chart, expected, "{what}");
        assert_eq!(count, expected.iter().max().map_or(0, |m| m + 1), "{what}");
    }

    #[test]
    fn charts_group_as_the_plain_reference_on_generated_and_all_floor_levels() {
        for seed in [1, 2, 3] {
            let options =
                crate::generate::GenerateOptions { seed, levels: 2, cols: 10, rows: 8, ..Default::default() };
            let d = crate::generate::generate(&options, &mut |_| {}).unwrap();
            for level in 0..d.levels() {
                let panels = super::super::level::extrude(&d, level).unwrap();
                assert!(group(&panels).1 < panels.len(), "some panels share a chart");
                assert_groups_as_reference(&panels, &format!("seed {seed} level {level}"));
            }
        }
        // One floor plane of more than 4096 corners: the bucketed sort.
        let d = Dungeon::new(16, 16, 1, Proportions::default(), Fill::Floor).unwrap();
        let panels = super::super::level::extrude(&d, 0).unwrap();
        let floor_corners: usize =
            panels.iter().filter(|p| p.normal == DVec3::Y).map(|p| p.tris.len()).sum::<usize>() * 3;
        assert!(floor_corners > 3 << 12, "{floor_corners} floor corners");
        assert_groups_as_reference(&panels, "all floor 16x16");
    }

    #[test]
    fn charts_group_as_the_reference_where_corners_do_not_pack() {
        // Corners a billion metres apart on all three axes need more than 128 bits.
        let far = 1e9;
        let tri = |o: DVec3| [o, o + DVec3::X, o + DVec3::Z];
        let spots = [DVec3::ZERO, DVec3::splat(far), DVec3::new(-far, far, -far), DVec3::X];
        let panels: Vec<Panel> = spots
            .iter()
            .map(|&o| {
                let mut p = Panel::horizontal(MaterialRole::Floor, true);
                p.tris.push(tri(DVec3::ZERO));
                p.tris.push(tri(o));
                p
            })
            .collect();
        let mut corners = Vec::new();
        let run: Vec<usize> = (0..panels.len()).collect();
        for &i in &run {
            corners.extend(panels[i].tris.iter().flatten().map(|v| ([q(v.x), q(v.y), q(v.z)], i as u32)));
        }
        assert!(Packing::of(&corners, panels.len()).is_none(), "the unpacked path is taken");
        assert_groups_as_reference(&panels, "far corners");
        assert_eq!(group(&panels).1, 1, "all four share the corners of the triangle at the origin");
    }

    #[test]
    fn q_rounds_as_the_library_round_does() {
        let reference = |x: f64| (x * 1e7).round() as i64;
        let mut values = vec![0.0, -0.0, 1e-7, -1e-7, 0.5e-7, -0.5e-7, 2.5e-7, -2.5e-7, 1.25e-7, 3.0, -7.25];
        values.extend([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN, 1e9, -1e9, 9.3e11]);
        values.extend([2f64.powi(53) / 1e7, 2f64.powi(63) / 1e7, -(2f64.powi(63)) / 1e7, 1e12, -1e12]);
        let mut x = 0.123_456_789_f64;
        for _ in 0..10_000 {
            x = (x * 7.3 + 0.61).fract() * 200.0 - 100.0;
            values.push(x);
            values.push(x / 1e7);
            values.push((x * 1e7).round() / 1e7 + 0.5e-7);
        }
        for v in values {
            assert_eq!(q(v), reference(v), "q({v:e})");
        }
    }
}
