//! Lightmap UVs (UV1): every panel of a level is one chart, packed into [0, 1] by shelves
//! with padding, so charts never overlap.

use glam::DVec2;

use super::panel::Panel;

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

/// One chart per panel, by panel index.
pub(crate) fn pack(panels: &[Panel]) -> Vec<Chart> {
    let bounds: Vec<(DVec2, DVec2)> = panels
        .iter()
        .map(|p| {
            let mut lo = DVec2::splat(f64::INFINITY);
            let mut hi = DVec2::splat(f64::NEG_INFINITY);
            for &v in p.tris.iter().flatten() {
                let m = p.uv_metres(v);
                lo = lo.min(m);
                hi = hi.max(m);
            }
            if p.tris.is_empty() { (DVec2::ZERO, DVec2::ZERO) } else { (lo, hi - lo) }
        })
        .collect();
    let area: f64 = bounds.iter().map(|(_, s)| s.x * s.y).sum();
    let pad = area.sqrt().max(1.0) * PAD_FRACTION;
    let width = (area.sqrt() * 1.1).max(bounds.iter().map(|(_, s)| s.x + 2.0 * pad).fold(0.0, f64::max));
    let mut order: Vec<usize> = (0..bounds.len()).collect();
    order.sort_by(|&a, &b| bounds[b].1.y.total_cmp(&bounds[a].1.y).then(a.cmp(&b)));
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
    bounds.iter().zip(offsets).map(|(&(min, _), offset)| Chart { min, offset, scale }).collect()
}
