//! Ramps (docs/design.md, "Columns across storeys"; `octile generate --ramps`): on every
//! level but the top, straight ramps are cut through the rock of the finished dungeon from
//! a floor cell up to a floor cell of the storey above, a second way between levels beside
//! the stairs. Each ramp carves the octagons it runs over out of rock on its own level
//! (walled on every side but its own seams) and the octagons over them on the storey above
//! into void, opening a two-storey slot in the rock ([`crate::dungeon::Ramp`] says what its
//! cells must be). Only rock is carved and only walls of rock are set, so nothing walkable
//! is taken away: every cell still reaches what it reached, and the ramp adds a way round.
//! A ramp could pass a lock by, so a dungeon with mission doors gets none.

use crate::dungeon::{Dungeon, DungeonError, Ramp, RampCells, Registry};
use crate::grid::{Direction, Pos, Slot};

/// Level octagons per ramp: a level pair gets one ramp for each this many octagons of a
/// level (at least one where a site allows), as stairs scale with area.
pub const OCTAGONS_PER_RAMP: u32 = 256;

/// Cuts ramps (module docs) on every level pair: `max(1, octagons / OCTAGONS_PER_RAMP)`
/// each, where sites allow. A site is a floor foot and a floor top one storey up, with the
/// octagons between on the foot's level, and those over them, rock and not pinned. Of the
/// sites, each ramp takes the one whose foot lies farthest (in octagon steps, diagonals
/// counted as one) from every stair foot of its level and every ramp already cut, the
/// first in (row, col, direction) order on a tie: deterministic, no randomness. Returns the
/// ramps cut, level by level; none when the dungeon has mission doors.
///
/// # Errors
/// [`DungeonError`] when the registry has no room for the void tile.
pub fn cut_ramps(d: &mut Dungeon) -> Result<Vec<Ramp>, DungeonError> {
    if d.registry().edges().iter().any(|e| e.mechanism.is_some()) {
        return Ok(Vec::new());
    }
    let per_pair = (d.dims().octagon_cols() * d.dims().octagon_rows() / OCTAGONS_PER_RAMP).max(1);
    let mut out = Vec::new();
    for level in 0..d.levels().saturating_sub(1) {
        for _ in 0..per_pair {
            let mut anchors: Vec<Slot> =
                d.stairs().iter().filter(|s| s.foot.level == level).map(|s| s.foot.slot).collect();
            anchors.extend(d.ramps().iter().filter(|r| r.level == level).map(|r| r.foot));
            let spread =
                |slot: Slot| anchors.iter().map(|&a| octagon_steps(a, slot)).min().unwrap_or(u32::MAX);
            let mut best: Option<(u32, Ramp, RampCells)> = None;
            for foot in d.dims().cells().filter(|s| s.kind() == crate::grid::SlotKind::Octagon) {
                for dir in Direction::CARDINALS {
                    let ramp = Ramp { level, foot, dir };
                    let Some(cells) = site(d, &ramp) else { continue };
                    let score = spread(foot);
                    if best.as_ref().is_none_or(|(b, _, _)| score > *b) {
                        best = Some((score, ramp, cells));
                    }
                }
            }
            let Some((_, ramp, cells)) = best else { break };
            cut(d, ramp, &cells)?;
            out.push(ramp);
        }
    }
    Ok(out)
}

/// Octagon steps between two octagon slots, a diagonal step counted as one.
fn octagon_steps(a: Slot, b: Slot) -> u32 {
    (a.row.abs_diff(b.row) / 2).max(a.col.abs_diff(b.col) / 2)
}

/// The cells of `ramp` when it can be cut (module docs), else `None`.
fn site(d: &Dungeon, ramp: &Ramp) -> Option<RampCells> {
    if !d.ramp_fits(ramp) {
        return None;
    }
    let cells = d.ramp_cells(ramp)?;
    let floor = |p: Pos| {
        d.tile_def(p).is_ok_and(|t| t.carved && t.walkable && !t.void && !t.stair)
            && d.stair_below(p).is_none()
            && d.ramp_over(p).is_none()
    };
    let rock = |p: Pos| d.tile_def(p).is_ok_and(|t| !t.carved) && !d.is_pinned(p);
    let voids = cells.voids();
    let ok = floor(cells.foot)
        && floor(cells.top)
        && !d.open_above(cells.foot)
        && cells.run.iter().chain(&voids).all(|&p| rock(p));
    ok.then_some(cells)
}

/// Carves `ramp`'s cells (module docs) and adds it.
fn cut(d: &mut Dungeon, ramp: Ramp, cells: &RampCells) -> Result<(), DungeonError> {
    let void = d.void_tile()?;
    let dims = d.dims();
    let state = |open: bool| if open { Registry::OPEN } else { Registry::WALL };
    for (k, &p) in cells.run.iter().enumerate() {
        let over = Pos { level: p.level + 1, ..p };
        d.set_tile(p, Registry::FLOOR)?;
        d.set_tile(over, void)?;
        for &dir in dims.walls(p.slot).unwrap_or(&[]) {
            if dims.edge(p.slot, dir).ok().flatten().is_some() {
                d.set_edge(p, dir, state(ramp.runs_along(k, cells.run.len(), dir)))?;
                // Over the run the void is one slot, open along it and to the top.
                d.set_edge(over, dir, state(ramp.void_runs_along(k, dir)))?;
            }
        }
    }
    d.add_ramp(ramp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::Fill;
    use crate::geometry::Proportions;

    #[test]
    fn a_ramp_is_cut_through_rock_between_two_floors_and_is_sound() {
        let mut d = Dungeon::new(6, 3, 2, Proportions::default(), Fill::Solid).unwrap();
        d.set_tile(Pos::new(0, 2, 0), Registry::FLOOR).unwrap();
        d.set_tile(Pos::new(1, 2, 6), Registry::FLOOR).unwrap();
        let ramps = cut_ramps(&mut d).unwrap();
        assert_eq!(ramps, vec![Ramp { level: 0, foot: Slot::new(2, 0), dir: Direction::E }]);
        assert_eq!(d.problems(), vec![]);
        assert!(d.ramp_is_sound(&ramps[0]));
        // No second site: the top must be a floor already.
        assert!(cut_ramps(&mut d).unwrap().is_empty());
    }
}
