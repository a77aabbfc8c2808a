//! Lightmap UVs (UV1): panels of a level that lie in one plane and touch (share a corner)
//! form one chart, in the plane's own metres, so a floor region or a straight wall run is
//! lit without seams; charts are packed into [0, 1] by shelves with padding and never
//! overlap.

use glam::DVec2;

use super::panels::Panels;

mod group;

use group::group;

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

/// Smallest share of its bounding box a merged chart must fill; sparser groups (an L-bend
/// of floor) fall back to one chart per panel so the atlas is not mostly empty.
const MIN_FILL: f64 = 0.5;

/// The bounding box of every panel in its own metres, as `(lo, hi)` (infinite, inverted,
/// for a panel without vertices).
fn panel_bounds(panels: &Panels) -> Vec<(DVec2, DVec2)> {
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

/// Groups from [`group()`], with groups that fill less than [`MIN_FILL`] of their bounding
/// box split back into single panels.
fn charts(panels: &Panels, panel_bounds: &[(DVec2, DVec2)]) -> (Vec<usize>, usize) {
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

/// The charts of a level's panels, packed into the atlas, and which chart each panel is on.
#[derive(Debug, Clone)]
pub(crate) struct Charts {
    charts: Vec<Chart>,
    of_panel: Vec<usize>,
}

impl Charts {
    /// The chart of panel `i`.
    pub(crate) fn of(&self, i: usize) -> &Chart {
        &self.charts[self.of_panel[i]]
    }
}

/// The chart of every panel.
pub(crate) fn pack(panels: &Panels) -> Charts {
    let boxes = panel_bounds(panels);
    let (chart_of, count) = charts(panels, &boxes);
    let bounds = bounds_of(&boxes, &chart_of, count);
    let area: f64 = bounds.iter().map(|(_, s)| s.x * s.y).sum();
    let pad = area.sqrt().max(1.0) * PAD_FRACTION;
    let width = (area.sqrt() * 1.1).max(bounds.iter().map(|(_, s)| s.x + 2.0 * pad).fold(0.0, f64::max));
    let mut order: Vec<u128> =
        bounds.iter().enumerate().map(|(i, (_, size))| tallest_first(size.y, i)).collect();
    order.sort_unstable();
    let mut offsets = vec![DVec2::ZERO; bounds.len()];
    let (mut x, mut y, mut shelf) = (0.0_f64, 0.0_f64, 0.0_f64);
    let mut used_w = 0.0_f64;
    for i in order.into_iter().map(|key| key as u64 as usize) {
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
    let charts = bounds.iter().zip(offsets).map(|(&(min, _), offset)| Chart { min, offset, scale }).collect();
    Charts { charts, of_panel: chart_of }
}

/// The shelf order's key of chart `i` of height `height`: keys sort the tallest first (in
/// [`f64::total_cmp`]'s order), then by index, and the low 64 bits are the index.
fn tallest_first(height: f64, i: usize) -> u128 {
    // total_cmp's own mapping of a float to an integer of the same order, then unsigned.
    let bits = height.to_bits() as i64;
    let ascending = (bits ^ (((bits >> 63) as u64) >> 1) as i64) as u64 ^ (1 << 63);
    (u128::from(!ascending) << 64) | i as u128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shelf_keys_sort_as_total_cmp_then_index() {
        let heights = [0.0, -0.0, 1.5, 1.5, 3.0, f64::INFINITY, -2.0, f64::NAN, 1e-300, 7.25, 0.0];
        let mut by_keys: Vec<u128> = heights.iter().enumerate().map(|(i, &h)| tallest_first(h, i)).collect();
        by_keys.sort_unstable();
        let mut by_cmp: Vec<usize> = (0..heights.len()).collect();
        by_cmp.sort_by(|&a, &b| heights[b].total_cmp(&heights[a]).then(a.cmp(&b)));
        assert_eq!(by_keys.iter().map(|&k| k as u64 as usize).collect::<Vec<_>>(), by_cmp);
    }
}
