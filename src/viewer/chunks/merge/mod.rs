//! Fewer, larger pieces for the coarse mesh ([`super::coarse`]), covering the same floor and
//! wall surface:
//! - a row (or column) of octagons joined by open long seams: one rectangle for the band
//!   the octagons and seams share (an octagon's middle, between its two long side edges,
//!   is as wide as a long seam is long) and each octagon's two caps, 2 triangles each,
//!   instead of 6 per octagon and 2 per seam. The caps' long edges lie on the band's, so
//!   the mesh has T-junctions there: coplanar floor of one colour, where a crack could only
//!   be a pixel centre in a sliver a fraction of a pixel's 1/256 wide;
//! - a connector's floor joined with the floors of the diagonal seams that open off it (a
//!   seam's sides run straight on into the connector's walls, so the connector's corners
//!   between them drop out of the outline);
//! - rock walls that run on in a straight line joined into one quad.
//!
//! On a generated level the floors lose about a quarter of their triangles and the walls
//! about a tenth (`tests.rs` states the bounds). Everything stays inside its mesh chunk:
//! a short seam's floor is in its connector's chunk ([`crate::mesh::chunk::edge_slot`]),
//! rows are cut at chunk borders, and walls join only with walls of the same chunk.

use std::collections::BTreeMap;

use glam::DVec2;

use super::{ChunkKey, piece_chunk};
use crate::grid::{EdgeId, Slot};
use crate::walk::{LevelPlan, Piece, PieceKind};

mod outline;
mod rows;
#[cfg(test)]
mod tests;
mod walls;

pub use outline::ear_clip;
pub use walls::{WallRun, wall_runs};

/// Points closer than this (metres) are the same corner.
const SAME_POINT: f64 = 1e-6;

/// One floor polygon of the coarse mesh: its chunk, its outline (world `(x, z)`, wound
/// positively like [`Piece::polygon`], no three consecutive corners on a line unless the
/// piece it came from had them) and its triangles (indices into the outline).
#[derive(Debug, Clone, PartialEq)]
pub struct FloorPolygon {
    /// The mesh chunk that holds it.
    pub chunk: ChunkKey,
    /// Its corners.
    pub outline: Vec<DVec2>,
    /// Its triangles, as corner indices (any winding: the mesh turns them to face up).
    pub triangles: Vec<[u32; 3]>,
}

/// The floor polygons of `plan`'s floored pieces: first the rows, then the columns, of two
/// or more octagons joined by open long seams (a band and two caps an octagon); then, in
/// plan order, each connector joined with the floored diagonal seams that share one of its
/// walls whole (a door's narrower seam stays apart) and every other piece as it is, fanned.
#[must_use]
pub fn merged_floors(plan: &LevelPlan) -> Vec<FloorPolygon> {
    let floors: Vec<&Piece> = plan.pieces.iter().filter(|p| p.floor).collect();
    let cell_at: BTreeMap<Slot, usize> = floors
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p.kind {
            PieceKind::Cell(slot) => Some((slot, i)),
            PieceKind::Seam(_) | PieceKind::Pillar(_) => None,
        })
        .collect();
    // Per floored piece: the pieces joined to it (a connector's seams), or None when it is
    // itself joined to its connector.
    let mut joined: Vec<Option<Vec<usize>>> = floors.iter().map(|_| Some(Vec::new())).collect();
    for (i, piece) in floors.iter().enumerate() {
        let PieceKind::Seam(EdgeId::Short(connector, _)) = piece.kind else { continue };
        let Some(&c) = cell_at.get(&connector) else { continue };
        if shares_an_edge(&floors[c].polygon, &piece.polygon) {
            joined[i] = None;
            if let Some(list) = joined[c].as_mut() {
                list.push(i);
            }
        }
    }
    let mut out = Vec::with_capacity(floors.len());
    // Rows first, then columns for the octagons no row took.
    for axis in [rows::Axis::Row, rows::Axis::Column] {
        for run in rows::octagon_runs(&floors, &cell_at, &joined, axis) {
            out.extend(rows::band_and_caps(&floors, &run, axis));
            for &i in &run {
                joined[i] = None;
            }
        }
    }
    for (i, piece) in floors.iter().enumerate() {
        let Some(others) = &joined[i] else { continue };
        let chunk = piece_chunk(piece);
        let mut group: Vec<&[DVec2]> = vec![&piece.polygon];
        group.extend(others.iter().map(|&j| floors[j].polygon.as_slice()));
        let merged =
            (group.len() > 1).then(|| outline::union_outline(&group)).flatten().and_then(|outline| {
                let triangles = outline::ear_clip(&outline)?;
                Some(FloorPolygon { chunk, outline, triangles })
            });
        match merged {
            Some(polygon) => out.push(polygon),
            // A single piece, or a group whose outline could not be traced: piece by piece.
            None => out.extend(group.iter().map(|poly| FloorPolygon {
                chunk,
                outline: poly.to_vec(),
                triangles: fan(poly.len()),
            })),
        }
    }
    out
}

/// The triangles of a fan over a convex polygon of `n` corners.
pub(super) fn fan(n: usize) -> Vec<[u32; 3]> {
    (1..n.saturating_sub(1) as u32).map(|i| [0, i, i + 1]).collect()
}

/// True when `a` and `b` are the same point.
pub(super) fn same(a: DVec2, b: DVec2) -> bool {
    a.distance_squared(b) < SAME_POINT * SAME_POINT
}

/// The edges `(from, to)` of a closed polygon.
pub(super) fn edges(poly: &[DVec2]) -> impl Iterator<Item = (DVec2, DVec2)> + '_ {
    (0..poly.len()).map(move |i| (poly[i], poly[(i + 1) % poly.len()]))
}

/// True when the positively wound polygons `a` and `b` share a whole edge (run opposite
/// ways, as neighbours' edges do).
pub(super) fn shares_an_edge(a: &[DVec2], b: &[DVec2]) -> bool {
    edges(a).any(|(p, q)| edges(b).any(|(r, s)| same(p, s) && same(q, r)))
}
