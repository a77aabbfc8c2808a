//! Which panels of a level share a chart: panels in one plane that share a corner.
//!
//! Corners are compared quantised ([`q`]). Each plane of several panels gets its corners
//! packed into one `u128` key each (the coordinates less the plane's smallest, then the
//! panel), and the keys are sorted so that equal corners sit side by side, joining their
//! panels. The keys are written in two passes over the panels in memory order (the span
//! and count of each plane's corners first, then the keys into each plane's own slice of
//! one array), so no panel's triangles are read out of order: reading them plane by plane
//! missed the cache on nearly every panel. A plane whose corners do not pack in 128 bits
//! (corners a billion metres apart) is joined from plain corner lists instead.

use glam::DVec3;

use super::super::panels::{PanelRef, Panels};

/// Planes with at least this many corners are sorted in buckets of their top bits first.
const BUCKET_BITS: u32 = 12;

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

/// A panel that shares its plane with no other (it joins nothing).
const ALONE: u32 = u32::MAX;

/// The plane of every panel (equal quantised normal and offset, one plane), numbered over
/// the planes of several panels only ([`ALONE`] for the rest), and the number of those.
///
/// A level's panels have few distinct normals (walls in eight directions, floors,
/// ceilings, stair faces), so each panel's plane is sorted as one `u128`: the number of
/// its normal, its offset, then the panel.
fn planes(panels: &Panels) -> (Vec<u32>, usize) {
    let mut normals = Normals::default();
    let mut by_plane: Vec<u128> = panels
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let n = p.frame.normal;
            let d = p.tris.first().map_or(0.0, |t| n.dot(t[0]));
            let normal = normals.number([q(n.x), q(n.y), q(n.z)]);
            // The offset's bits with the sign flipped sort as the offsets do.
            let offset = (q(d) as u64) ^ (1 << 63);
            let panel = u32::try_from(i).expect("invariant: panels fit in u32");
            (u128::from(normal) << 96) | (u128::from(offset) << 32) | u128::from(panel)
        })
        .collect();
    by_plane.sort_unstable();
    let mut plane_of = vec![ALONE; panels.len()];
    let mut count = 0;
    for run in by_plane.chunk_by(|a, b| a >> 32 == b >> 32).filter(|run| run.len() > 1) {
        for &key in run {
            plane_of[key as u32 as usize] = count;
        }
        count += 1;
    }
    (plane_of, count as usize)
}

/// Distinct quantised normals, numbered in order of first appearance, found through an
/// open-addressed table (linear probing, at most half full).
#[derive(Default)]
struct Normals {
    /// Per slot, a normal's number, or `u32::MAX` for an empty slot.
    slots: Vec<u32>,
    /// Every normal, by number.
    normals: Vec<[i64; 3]>,
}

impl Normals {
    /// The number of `normal`, a new one when it was not seen before.
    fn number(&mut self, normal: [i64; 3]) -> u32 {
        if 2 * (self.normals.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut slot = Self::hash(normal) & mask;
        loop {
            match self.slots[slot] {
                u32::MAX => {
                    let number = u32::try_from(self.normals.len()).expect("invariant: panels fit in u32");
                    self.slots[slot] = number;
                    self.normals.push(normal);
                    return number;
                }
                number if self.normals[number as usize] == normal => return number,
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// Doubles the table (16 slots at first) and files every normal again.
    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(16);
        self.slots = vec![u32::MAX; size];
        for (number, &normal) in self.normals.iter().enumerate() {
            let mut slot = Self::hash(normal) & (size - 1);
            while self.slots[slot] != u32::MAX {
                slot = (slot + 1) & (size - 1);
            }
            self.slots[slot] = number as u32;
        }
    }

    fn hash(normal: [i64; 3]) -> usize {
        let mixed = normal
            .iter()
            .fold(0u64, |h, &x| (h.rotate_left(23) ^ x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        (mixed >> 32) as usize
    }
}

/// Calls `f` with the quantised corners of `panel`, in order, leaving out a corner equal
/// to one of the triangle before (fans and strips share corners with it).
fn each_corner(panel: PanelRef<'_>, mut f: impl FnMut([i64; 3])) {
    let mut before: Option<&[DVec3; 3]> = None;
    for tri in panel.tris {
        for v in tri {
            // Equal floats quantise equally: the repeat would give the same corner.
            if !before.is_some_and(|b| b.contains(v)) {
                f([q(v.x), q(v.y), q(v.z)]);
            }
        }
        before = Some(tri);
    }
}

/// The smallest and largest coordinates of a plane's corners, and how many there are.
#[derive(Debug, Clone, Copy)]
struct Span {
    lo: [i64; 3],
    hi: [i64; 3],
    corners: usize,
}

impl Span {
    const EMPTY: Span = Span { lo: [i64::MAX; 3], hi: [i64::MIN; 3], corners: 0 };

    fn add(&mut self, c: [i64; 3]) {
        for ((lo, hi), x) in self.lo.iter_mut().zip(&mut self.hi).zip(c) {
            *lo = (*lo).min(x);
            *hi = (*hi).max(x);
        }
        self.corners += 1;
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
    /// The packing of corners within `span` with panel indices below `panels`, or `None`
    /// when their spans and the panel index take more than 128 bits.
    fn of_span(span: &Span, panels: usize) -> Option<Packing> {
        let width = |span: u128| 128 - span.leading_zeros();
        let bits = [0, 1, 2].map(|k| width(span.hi[k].abs_diff(span.lo[k]).into()));
        let panel_bits = width(panels as u128);
        (bits.iter().sum::<u32>() + panel_bits <= 128).then_some(Packing { lo: span.lo, bits, panel_bits })
    }

    /// [`Packing::of_span`] of a list of corners.
    #[cfg(test)]
    fn of(corners: &[([i64; 3], u32)], panels: usize) -> Option<Packing> {
        let mut span = Span::EMPTY;
        for &(c, _) in corners {
            span.add(c);
        }
        Packing::of_span(&span, panels)
    }

    fn key(&self, c: [i64; 3], panel: u32) -> u128 {
        // Shifts stay below 128: the bits of all three and the panel sum to 128 at most.
        let key = c
            .iter()
            .zip(self.lo)
            .zip(self.bits)
            .fold(0u128, |key, ((&x, lo), bits)| (key << bits) | u128::from(x.abs_diff(lo)));
        (key << self.panel_bits) | u128::from(panel)
    }

    fn panel(&self, key: u128) -> usize {
        (key & ((1u128 << self.panel_bits) - 1)) as usize
    }

    /// Sorts `keys`, equal corners next to each other, and returns them: a large plane is
    /// bucketed by its top bits first (one counting pass into `scratch`, so each bucket
    /// is a small sort).
    fn sort<'a>(&self, keys: &'a mut [u128], scratch: &'a mut Vec<u128>) -> &'a [u128] {
        let used = self.bits.iter().sum::<u32>() + self.panel_bits;
        // Buckets split on corner bits only, so equal corners share a bucket.
        let shift = used.saturating_sub(BUCKET_BITS).max(self.panel_bits);
        if keys.len() < 1 << BUCKET_BITS || shift >= used {
            keys.sort_unstable();
            return keys;
        }
        let bucket = |key: u128| (key >> shift) as usize;
        let mut starts = vec![0usize; (1 << (used - shift)) + 1];
        for &key in keys.iter() {
            starts[bucket(key) + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        let mut fill = starts.clone();
        scratch.clear();
        scratch.resize(keys.len(), 0);
        for &key in keys.iter() {
            scratch[fill[bucket(key)]] = key;
            fill[bucket(key)] += 1;
        }
        for w in starts.windows(2) {
            scratch[w[0]..w[1]].sort_unstable();
        }
        scratch
    }

    /// Joins the panels of the sorted `keys` that share a corner.
    fn join(&self, keys: &[u128], parent: &mut [usize]) {
        for w in keys.windows(2) {
            if w[0] >> self.panel_bits == w[1] >> self.panel_bits {
                union(parent, self.panel(w[0]), self.panel(w[1]));
            }
        }
    }
}

/// Joins the panels of `panels` numbered `members` (all of one plane) that share a
/// corner, from a plain list of their corners: the path of planes whose corners do not
/// pack.
fn join_unpacked(panels: &Panels, members: &[u32], parent: &mut [usize]) {
    let mut corners: Vec<([i64; 3], u32)> = Vec::new();
    for &i in members {
        each_corner(panels.get(i as usize), |c| corners.push((c, i)));
    }
    corners.sort_unstable();
    for w in corners.windows(2) {
        if w[0].0 == w[1].0 {
            union(parent, w[0].1 as usize, w[1].1 as usize);
        }
    }
}

/// Joins, in `parent`, the panels of every plane that share a corner.
fn join_planes(panels: &Panels, parent: &mut [usize]) {
    let (plane_of, planes) = planes(panels);
    // First pass: the span and corner count of every plane.
    let mut spans = vec![Span::EMPTY; planes];
    for (panel, &plane) in panels.iter().zip(&plane_of) {
        if plane != ALONE {
            let span = &mut spans[plane as usize];
            each_corner(panel, |c| span.add(c));
        }
    }
    let packings: Vec<Option<Packing>> = spans.iter().map(|s| Packing::of_span(s, panels.len())).collect();
    let mut starts = Vec::with_capacity(planes + 1);
    let mut total = 0;
    starts.push(0);
    for (span, packing) in spans.iter().zip(&packings) {
        total += if packing.is_some() { span.corners } else { 0 };
        starts.push(total);
    }
    // Second pass: every packed plane's keys into its own slice.
    let mut keys = vec![0u128; total];
    let mut fill = starts.clone();
    let mut unpacked: Vec<Vec<u32>> = vec![Vec::new(); planes];
    for (i, (panel, &plane)) in panels.iter().zip(&plane_of).enumerate() {
        if plane == ALONE {
            continue;
        }
        let i = i as u32; // panels fit in u32 (`planes` checked)
        let plane = plane as usize;
        match &packings[plane] {
            Some(packing) => {
                let at = &mut fill[plane];
                each_corner(panel, |c| {
                    keys[*at] = packing.key(c, i);
                    *at += 1;
                });
            }
            None => unpacked[plane].push(i),
        }
    }
    let mut scratch = Vec::new();
    for plane in 0..planes {
        match &packings[plane] {
            Some(packing) => {
                let sorted = packing.sort(&mut keys[starts[plane]..starts[plane + 1]], &mut scratch);
                packing.join(sorted, parent);
            }
            None => join_unpacked(panels, &unpacked[plane], parent),
        }
    }
}

/// The chart of every panel: panels in one plane that share a corner are one chart.
/// Returns the chart index of each panel and the number of charts. Charts are numbered in
/// the order of their first panel.
pub(super) fn group(panels: &Panels) -> (Vec<usize>, usize) {
    let mut parent: Vec<usize> = (0..panels.len()).collect();
    join_planes(panels, &mut parent);
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

#[cfg(test)]
mod tests {
    use glam::DVec3;

    use super::*;
    use crate::dungeon::{Dungeon, Fill};
    use crate::geometry::Proportions;
    use crate::mesh::MaterialRole;
    use crate::mesh::panel::Panel;

    /// The grouping written plainly: every panel's (plane, corner) pairs sorted together,
    /// panels with an equal pair joined, charts numbered by their first panel.
    fn reference_group(panels: &Panels) -> Vec<usize> {
        let key = |x: f64| (x * 1e7).round() as i64;
        let mut pairs = Vec::new();
        for (i, p) in panels.iter().enumerate() {
            let n = p.frame.normal;
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

    fn assert_groups_as_reference(panels: &Panels, what: &str) {
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
                let panels = crate::mesh::level::extrude(&d, level).unwrap();
                assert!(group(&panels).1 < panels.len(), "some panels share a chart");
                assert_groups_as_reference(&panels, &format!("seed {seed} level {level}"));
            }
        }
        // One floor plane of more than 4096 corner keys: the bucketed sort.
        let d = Dungeon::new(24, 24, 1, Proportions::default(), Fill::Floor).unwrap();
        let panels = crate::mesh::level::extrude(&d, 0).unwrap();
        let mut floor_keys = 0;
        for p in panels.iter().filter(|p| p.frame.normal == DVec3::Y) {
            each_corner(p, |_| floor_keys += 1);
        }
        assert!(floor_keys > 1 << BUCKET_BITS, "{floor_keys} floor corner keys");
        assert_groups_as_reference(&panels, "all floor 24x24");
    }

    #[test]
    fn charts_group_as_the_reference_where_corners_do_not_pack() {
        // Corners a billion metres apart on all three axes need more than 128 bits.
        let far = 1e9;
        let tri = |o: DVec3| [o, o + DVec3::X, o + DVec3::Z];
        let spots = [DVec3::ZERO, DVec3::splat(far), DVec3::new(-far, far, -far), DVec3::X];
        let panels: Panels = spots
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
            corners.extend(panels.get(i).tris.iter().flatten().map(|v| ([q(v.x), q(v.y), q(v.z)], i as u32)));
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
