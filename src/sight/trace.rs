//! The walk along a segment of one level: which quadrants of the plan it crosses (a grid
//! traversal over squares of side `s`), which transparent pieces cover it there, where
//! it first enters rock, and which cells it passes through on the way.
//!
//! The plane is tiled by squares of side `s` whose corners are slot centres; each holds one
//! octagon quarter, one connector quarter, halves of two long seams, one diagonal seam and
//! halves of two pillars (see [`crate::geometry::Layout::place_at`]). A segment is clear
//! where a closed, transparent piece (a cell, a carved seam, an open pillar) covers it, so the walk asks each square it crosses
//! for the parameter intervals of its transparent pieces and sweeps them in order. It never
//! looks at a piece the segment does not pass near, and it stops at the first gap.

use glam::DVec2;

use super::opacity::{Opacity, door_passage};
use crate::dungeon::{Carve, Dungeon};
use crate::grid::{ConnectorWall, Direction, PillarId, Pos, Slot};

/// Distance (metres) below which a gap between two transparent pieces, or a sliver of
/// rock, is ignored: shared corners are bit-identical, but the parameters at which a
/// segment crosses the same edge from either side may differ by a rounding error.
pub const TOLERANCE: f64 = 1e-9;

/// The closed parameter interval `[lo, hi]` of `p + t d`, `t` in `[0, 1]`, that lies in the
/// convex, positively wound `polygon`; `None` when the segment misses it.
pub(crate) fn clip(polygon: &[DVec2], p: DVec2, d: DVec2) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    let n = polygon.len();
    for i in 0..n {
        let a = polygon[i];
        let e = polygon[(i + 1) % n] - a;
        let (f0, fd) = (e.perp_dot(p - a), e.perp_dot(d));
        if fd > 0.0 {
            lo = lo.max(-f0 / fd);
        } else if fd < 0.0 {
            hi = hi.min(-f0 / fd);
        } else if f0 < -TOLERANCE * e.length() {
            return None;
        }
        if lo > hi {
            return None;
        }
    }
    Some((lo, hi))
}

/// Most transparent pieces one square of the walk holds: an octagon and a connector quarter,
/// three seams and two pillar halves.
pub(crate) const SPANS: usize = 7;

/// One transparent piece's interval along the segment, and its cell when it is one.
#[derive(Clone, Copy)]
pub(crate) struct Span {
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) cell: Option<Pos>,
}

impl Span {
    /// The empty span that fills scratch arrays.
    pub(crate) const EMPTY: Span = Span { lo: 0.0, hi: 0.0, cell: None };
}

/// A piece of the plan, by what the dungeon says of it: a cell, the seam beyond wall `dir`
/// of a cell, or an open pillar.
#[derive(Clone, Copy)]
pub(crate) enum Piece {
    /// The cell in this slot.
    Cell(Slot),
    /// The seam beyond this wall of this cell.
    Seam(Slot, Direction),
    /// The pillar.
    Pillar(PillarId),
}

/// A piece of the plan a segment meets, and the parameter interval it covers there.
#[derive(Clone, Copy)]
pub(crate) struct Met {
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) piece: Piece,
}

/// The pieces of the plan in square `(i, j)` (columns `i, i + 1`, rows `j, j + 1`) that the
/// segment `p + t d` meets, by geometry alone (no opacity asked): its octagon and connector
/// quarters, its three seams, and, when `pillars`, its two pillar halves. Returns how many
/// it wrote. The one enumeration of a square that the walks on one level and across
/// storeys share.
pub(crate) fn square_pieces(
    dungeon: &Dungeon,
    pillars: bool,
    p: DVec2,
    d: DVec2,
    (i, j): (i64, i64),
    out: &mut [Met; SPANS],
) -> usize {
    let layout = dungeon.layout();
    let dims = dungeon.dims();
    let slot = |row: i64, col: i64| -> Option<Slot> {
        let row = u32::try_from(row).ok().filter(|&r| r < dims.rows())?;
        let col = u32::try_from(col).ok().filter(|&c| c < dims.cols())?;
        Some(Slot::new(row, col))
    };
    let even = |v: i64| if v & 1 == 0 { (v, v + 1) } else { (v + 1, v) };
    let ((oct_col, conn_col), (oct_row, conn_row)) = (even(i), even(j));
    let mut n = 0;
    let mut push = |range: Option<(f64, f64)>, piece: Piece| {
        if let Some((lo, hi)) = range {
            out[n] = Met { lo, hi, piece };
            n += 1;
        }
    };
    if let Some(s) = slot(oct_row, oct_col) {
        push(clip(&layout.octagon(s), p, d), Piece::Cell(s));
    }
    if let Some(s) = slot(conn_row, conn_col) {
        push(clip(&layout.connector(s), p, d), Piece::Cell(s));
    }
    // The seams: the long seam in (oct_row, conn_col) seen from the octagon west of it,
    // the one in (conn_row, oct_col) seen from the octagon north of it, and the diagonal
    // seam between the connector and the octagon, seen from the connector.
    let toward_octagon = Direction::from_unit(sign(oct_row - conn_row), sign(oct_col - conn_col));
    let seams = [
        slot(oct_row, conn_col)
            .and_then(|v| Some((layout.long_seam(v)?, slot(oct_row, conn_col - 1)?, Direction::E))),
        slot(conn_row, oct_col)
            .and_then(|v| Some((layout.long_seam(v)?, slot(conn_row - 1, oct_col)?, Direction::S))),
        slot(conn_row, conn_col).and_then(|c| {
            let dir = toward_octagon?;
            Some((layout.diagonal_seam(c, ConnectorWall::from_facing(dir)?)?, c, dir))
        }),
    ];
    for (seam, s, dir) in seams.into_iter().flatten() {
        push(clip(&seam, p, d), Piece::Seam(s, dir));
    }
    // The halves of the connector's two pillars that lie in this square.
    if let Some(conn) = slot(conn_row, conn_col).filter(|_| pillars) {
        let tips = [
            Direction::from_unit(sign(oct_row - conn_row), 0),
            Direction::from_unit(0, sign(oct_col - conn_col)),
        ];
        for tip in tips.into_iter().flatten() {
            let Ok(pillar) = PillarId::new(conn, tip) else { continue };
            if let Some(tri) = layout.pillar(conn, tip) {
                push(clip(&tri, p, d), Piece::Pillar(pillar));
            }
        }
    }
    n
}

/// Walks the squares of side `s` (corners at slot centres) that the plan segment `p + t d`,
/// `t` in `[0, 1]`, crosses, in order: calls `visit((i, j), enter, exit)` with the
/// parameters where it enters and leaves each, until `visit` returns `Some` (returned) or
/// the segment ends (`None`). A segment of no plan length visits its one square.
pub(crate) fn walk_squares<T>(
    s: f64,
    p: DVec2,
    d: DVec2,
    mut visit: impl FnMut((i64, i64), f64, f64) -> Option<T>,
) -> Option<T> {
    let axis = |pv: f64, dv: f64| {
        let index = (pv / s).floor() as i64;
        let step = if dv > 0.0 {
            1
        } else if dv < 0.0 {
            -1
        } else {
            0
        };
        let next =
            if step == 0 { f64::INFINITY } else { ((index + i64::from(step > 0)) as f64 * s - pv) / dv };
        let delta = if step == 0 { f64::INFINITY } else { s / dv.abs() };
        (index, step, next, delta)
    };
    let (mut i, step_i, mut next_i, delta_i) = axis(p.x, d.x);
    let (mut j, step_j, mut next_j, delta_j) = axis(p.y, d.y);
    let mut enter = 0.0;
    loop {
        let exit = next_i.min(next_j).min(1.0);
        if let Some(out) = visit((i, j), enter, exit) {
            return Some(out);
        }
        if exit >= 1.0 {
            return None;
        }
        enter = exit;
        if next_i < next_j {
            i += step_i;
            next_i += delta_i;
        } else {
            j += step_j;
            next_j += delta_j;
        }
    }
}

/// Sweeps `spans` (one square's transparent pieces) in order of their start into
/// `covered`, the parameter up to which the segment is known clear: a span that starts
/// within `eps` of it carries it on. When `cells` is given, every cell span longer than
/// `eps` is pushed with the parameter where it starts.
pub(crate) fn sweep(
    spans: &mut [Span],
    covered: &mut f64,
    eps: f64,
    mut cells: Option<&mut Vec<(f64, Pos)>>,
) {
    spans.sort_unstable_by(|a, b| a.lo.total_cmp(&b.lo));
    for span in spans.iter() {
        if let (Some(list), Some(cell)) = (cells.as_deref_mut(), span.cell)
            && span.hi - span.lo > eps
        {
            list.push((span.lo, cell));
        }
        if span.lo <= *covered + eps {
            *covered = covered.max(span.hi);
        }
    }
}

/// A segment of one level being walked: `p + t d`, `t` in `[0, 1]`, through the pieces
/// that pass sight by `sight`.
pub(crate) struct Trace<'a, O: Opacity + ?Sized> {
    sight: &'a O,
    level: u16,
    p: DVec2,
    d: DVec2,
    /// [`TOLERANCE`] in parameter units.
    eps: f64,
}

impl<'a, O: Opacity + ?Sized> Trace<'a, O> {
    /// The segment `p -> q` on `level` (finite points, checked by the caller).
    pub(crate) fn new(sight: &'a O, level: u16, p: DVec2, q: DVec2) -> Trace<'a, O> {
        let d = q - p;
        let len = d.length();
        let eps = if len > 0.0 { TOLERANCE / len } else { 0.0 };
        Trace { sight, level, p, d, eps }
    }

    fn pos(&self, slot: Slot) -> Pos {
        Pos { level: self.level, slot }
    }

    /// The spans of the transparent pieces of square `square`, unsorted; returns how many
    /// it wrote. Geometry first: the dungeon is asked only about pieces the segment meets.
    fn square_spans(&self, square: (i64, i64), out: &mut [Span; SPANS]) -> usize {
        let dungeon = self.sight.dungeon();
        let mut met = [Met { lo: 0.0, hi: 0.0, piece: Piece::Cell(Slot::new(0, 0)) }; SPANS];
        let pillars = dungeon.has_open_pillars_on(self.level);
        let count = square_pieces(dungeon, pillars, self.p, self.d, square, &mut met);
        let mut n = 0;
        for m in &met[..count] {
            let span = match m.piece {
                Piece::Cell(slot) => {
                    self.sight.cell_passes(self.pos(slot)).then_some((m.lo, m.hi, Some(self.pos(slot))))
                }
                Piece::Seam(slot, dir) => match self.sight.seam_sight(self.pos(slot), dir) {
                    Some(Carve::Full) => Some((m.lo, m.hi, None)),
                    Some(Carve::Door) => door_passage(dungeon, self.pos(slot), dir)
                        .and_then(|door| clip(&door, self.p, self.d))
                        .map(|(lo, hi)| (lo, hi, None)),
                    Some(Carve::None) | None => None,
                },
                Piece::Pillar(pillar) => {
                    self.sight.pillar_passes(self.level, pillar).then_some((m.lo, m.hi, None))
                }
            };
            if let Some((lo, hi, cell)) = span {
                out[n] = Span { lo, hi, cell };
                n += 1;
            }
        }
        n
    }

    /// Walks the segment from `t = 0`. Returns the parameter where it first enters rock
    /// (or leaves the grid), `None` when it is clear all the way. When `cells` is given,
    /// every transparent cell the segment passes through for more than [`TOLERANCE`] is
    /// pushed with the parameter where it enters (a cell may be pushed more than once, and
    /// cells beyond the blocking parameter may be pushed too: callers sort and cut).
    pub(crate) fn first_block(&self, mut cells: Option<&mut Vec<(f64, Pos)>>) -> Option<f64> {
        let s = self.sight.dungeon().layout().spacing();
        let mut covered = 0.0_f64;
        let mut spans = [Span::EMPTY; SPANS];
        walk_squares(s, self.p, self.d, |square, _, exit| {
            // Already covered through this square by a piece met earlier: only a caller
            // that lists cells needs its pieces (the next square's own pieces carry on).
            let n =
                if cells.is_none() && covered >= exit { 0 } else { self.square_spans(square, &mut spans) };
            sweep(&mut spans[..n], &mut covered, self.eps, cells.as_deref_mut());
            (covered < exit - self.eps).then_some(covered)
        })
    }

    /// The world point at parameter `t`.
    pub(crate) fn at(&self, t: f64) -> DVec2 {
        self.p + self.d * t
    }
}

/// The sign of `v` as a slot offset.
fn sign(v: i64) -> i32 {
    v.signum() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_is_closed_and_exact_on_a_square() {
        let sq = [DVec2::new(0.0, 0.0), DVec2::new(1.0, 0.0), DVec2::new(1.0, 1.0), DVec2::new(0.0, 1.0)];
        let (lo, hi) = clip(&sq, DVec2::new(-1.0, 0.5), DVec2::new(4.0, 0.0)).unwrap();
        assert!((lo - 0.25).abs() < 1e-15 && (hi - 0.5).abs() < 1e-15);
        // Grazing a corner touches at one parameter; running along an edge is inside.
        let (lo, hi) = clip(&sq, DVec2::new(-1.0, 0.0), DVec2::new(2.0, 2.0)).unwrap();
        assert!((lo - 0.5).abs() < 1e-15 && (hi - 0.5).abs() < 1e-15);
        assert!(clip(&sq, DVec2::new(-1.0, 0.0), DVec2::new(3.0, 0.0)).is_some());
        assert!(clip(&sq, DVec2::new(-1.0, -0.1), DVec2::new(3.0, 0.0)).is_none());
    }
}
