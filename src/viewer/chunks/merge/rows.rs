//! Rows (or columns) of octagons joined by open long seams: one band and two caps an
//! octagon ([`super`]'s first kind of merge).

use std::collections::BTreeMap;

use glam::DVec2;

use super::{FloorPolygon, fan, shares_an_edge};
use crate::grid::{EdgeId, Slot};
use crate::viewer::chunks::piece_chunk;
use crate::walk::{Piece, PieceKind};

/// Which way a run of octagons goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Axis {
    /// West to east along a slot row.
    Row,
    /// North to south along a slot column.
    Column,
}

impl Axis {
    /// The slot `steps` slots on from `slot` along the axis.
    fn step(self, slot: Slot, steps: u32) -> Slot {
        match self {
            Axis::Row => Slot { row: slot.row, col: slot.col + steps },
            Axis::Column => Slot { row: slot.row + steps, col: slot.col },
        }
    }

    /// A point's coordinate along the axis and across it.
    fn split(self, p: DVec2) -> (f64, f64) {
        match self {
            Axis::Row => (p.x, p.y),
            Axis::Column => (p.y, p.x),
        }
    }
}

/// The runs of two or more floored octagons along `axis` (floor indices: octagon, its open
/// long seam, the next octagon, ...) in which every piece is still free (`free[i]` is
/// `Some`: not joined elsewhere, no piece joined to it), each seam shares a whole edge with
/// both its octagons, and all lie in one chunk.
pub(super) fn octagon_runs(
    floors: &[&Piece],
    cell_at: &BTreeMap<Slot, usize>,
    free: &[Option<Vec<usize>>],
    axis: Axis,
) -> Vec<Vec<usize>> {
    let seam_at: BTreeMap<Slot, usize> = floors
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p.kind {
            PieceKind::Seam(EdgeId::Long(void)) => Some((void, i)),
            _ => None,
        })
        .collect();
    let is_free = |i: usize| free[i].as_ref().is_some_and(Vec::is_empty);
    // The seam and octagon after octagon `i` (at `slot`) when the run goes on there.
    let next = |slot: Slot, i: usize| -> Option<(usize, usize, Slot)> {
        let (void, on) = (axis.step(slot, 1), axis.step(slot, 2));
        let (&seam, &o) = (seam_at.get(&void)?, cell_at.get(&on)?);
        let chunk = piece_chunk(floors[i]);
        let ok = is_free(seam)
            && is_free(o)
            && piece_chunk(floors[seam]) == chunk
            && piece_chunk(floors[o]) == chunk
            && shares_an_edge(&floors[i].polygon, &floors[seam].polygon)
            && shares_an_edge(&floors[seam].polygon, &floors[o].polygon);
        ok.then_some((seam, o, on))
    };
    let mut runs = Vec::new();
    let mut in_run = vec![false; floors.len()];
    for (&slot, &i) in cell_at {
        if slot.kind() != crate::grid::SlotKind::Octagon || in_run[i] || !is_free(i) {
            continue;
        }
        // Slots come in (row, col) order: a run's first octagon before the others.
        let mut run = vec![i];
        let (mut at, mut at_slot) = (i, slot);
        while let Some((seam, o, on)) = next(at_slot, at) {
            run.extend([seam, o]);
            (at, at_slot) = (o, on);
        }
        if run.len() > 1 {
            for &j in &run {
                in_run[j] = true;
            }
            runs.push(run);
        }
    }
    runs
}

/// The floor of a run of octagons and long seams along `axis` (`run`: floor indices,
/// octagons at the even places): the band they share as one rectangle and each octagon's
/// two caps beyond it. Falls back to the pieces as they are when an octagon does not have
/// the expected shape (four corners on each long side of the band).
pub(super) fn band_and_caps(floors: &[&Piece], run: &[usize], axis: Axis) -> Vec<FloorPolygon> {
    let chunk = piece_chunk(floors[run[0]]);
    let as_is = || {
        run.iter()
            .map(|&i| FloorPolygon {
                chunk,
                outline: floors[i].polygon.clone(),
                triangles: fan(floors[i].polygon.len()),
            })
            .collect()
    };
    let mut out = Vec::new();
    let mut band_ends: Vec<DVec2> = Vec::new();
    let octagons: Vec<usize> = run.iter().step_by(2).copied().collect();
    for (k, &i) in octagons.iter().enumerate() {
        let poly = &floors[i].polygon;
        let centre = poly.iter().sum::<DVec2>() / poly.len() as f64;
        let d = |p: DVec2| axis.split(p - centre);
        let reach = poly.iter().map(|&p| d(p).0.abs()).fold(0.0, f64::max);
        let ends: Vec<DVec2> = poly.iter().copied().filter(|&p| d(p).0.abs() > reach - 1e-6).collect();
        let half = ends.iter().map(|&p| d(p).1.abs()).fold(0.0, f64::max);
        let caps = [-1.0, 1.0].map(|side: f64| -> Vec<DVec2> {
            poly.iter().copied().filter(|&p| d(p).1 * side > half - 1e-6).collect()
        });
        if ends.len() != 4 || caps.iter().any(|c| c.len() != 4) {
            return as_is();
        }
        let keep_side = |side: f64| ends.iter().copied().filter(move |&p| d(p).0 * side > 0.0);
        if k == 0 {
            band_ends.extend(keep_side(-1.0));
        }
        if k + 1 == octagons.len() {
            band_ends.extend(keep_side(1.0));
        }
        for cap in caps {
            out.push(FloorPolygon { chunk, outline: cap, triangles: fan(4) });
        }
    }
    // The band's four corners in order round their centre.
    let centre = band_ends.iter().sum::<DVec2>() / band_ends.len() as f64;
    band_ends.sort_by(|a, b| (*a - centre).to_angle().total_cmp(&(*b - centre).to_angle()));
    out.push(FloorPolygon { chunk, outline: band_ends, triangles: fan(4) });
    out
}
