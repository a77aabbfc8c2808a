//! Generating around a design (`octile generate --keep`): the design's pinned cells keep
//! their tiles and every edge they have; the rest is generated. The rule of what a locked
//! cell asks of a free neighbour ([`demand_of`]) is shared with re-solving
//! ([`crate::edit::resolve`]).
//!
//! A locked cell constrains a free neighbour through their shared edge, which stays as it
//! is: an open seam (or a door) from a carved locked cell needs the neighbour carved; a wall
//! from a carved locked cell that the shaft rule would let one cross needs it rock, as does
//! an open seam from locked rock.

use super::GenerateError;
use super::carve::Locked;
use crate::dungeon::{Carve, Dungeon};
use crate::grid::{Pos, Slot, SlotKind};
use crate::wfc::{FixedCell, TileIndex, octile};

/// What the locked neighbours of one free cell require of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Demand {
    /// Locked neighbours that need it carved.
    pub(crate) carved: Vec<Pos>,
    /// Locked neighbours that need it rock.
    pub(crate) rock: Vec<Pos>,
}

impl Demand {
    /// `Some(true)` carved, `Some(false)` rock, `None` free; `Err` names the two locked
    /// cells that disagree.
    pub(crate) fn class(&self) -> Result<Option<bool>, (Pos, Pos)> {
        match (self.carved.first(), self.rock.first()) {
            (Some(&a), Some(&b)) => Err((a, b)),
            (Some(_), None) => Ok(Some(true)),
            (None, Some(_)) => Ok(Some(false)),
            (None, None) => Ok(None),
        }
    }
}

/// What the cells marked in `locked` (per slot index of `level`) require of the cell at
/// `slot` on `level`, read from `d`'s tiles, edges and stairs.
pub(crate) fn demand_of(d: &Dungeon, level: u16, slot: Slot, locked: &[bool]) -> Demand {
    let dims = d.dims();
    let here = Pos { level, slot };
    let mut demand = Demand::default();
    for &dir in dims.walls(slot).expect("invariant: a cell") {
        let Some(other) = dims.neighbor(slot, dir).ok().flatten() else { continue };
        if !Locked(locked).at(dims.index(other).expect("invariant: inside")) {
            continue;
        }
        let there = Pos { level, slot: other };
        let state = d.edge_state(here, dir).ok().flatten().and_then(|s| d.registry().edge_def(s));
        let carves = state.is_some_and(|e| e.carve != Carve::None);
        let carved = d.is_carved(there);
        if carves && carved {
            demand.carved.push(there);
        } else if carves || (carved && d.stairs().allows_step(here, dir, there)) {
            demand.rock.push(there);
        }
    }
    demand
}

/// `locked` plus every cell a locked neighbour needs to stay rock: the cells carving may
/// not touch.
pub(crate) fn guarded(d: &Dungeon, level: u16, locked: &[bool]) -> Vec<bool> {
    let dims = d.dims();
    let mut out = locked.to_vec();
    // Only a neighbour of a locked cell can have a demand: read those, not the level.
    let locked_cells = locked.iter().enumerate().filter(|&(_, &l)| l).filter_map(|(i, _)| dims.slot_at(i));
    for slot in locked_cells.filter(|s| s.kind().is_cell()) {
        for &dir in dims.walls(slot).expect("invariant: a cell") {
            let Some(next) = dims.neighbor(slot, dir).ok().flatten() else { continue };
            let i = dims.index(next).expect("invariant: inside");
            if !out[i] && !demand_of(d, level, next, locked).rock.is_empty() {
                out[i] = true;
            }
        }
    }
    out
}

/// [`super::join_level`] inside a window of `level`, for a re-solve: joins the floor cells
/// of the window outside `main` (per slot index of the level: the floor that counts as
/// joined already) to it, with the generator's search and carving confined to the window
/// (every cell `inside` rejects, and every cell beside one, is locked: the search never
/// leaves the window and nothing is carved at its rim), never into, out of or beside a `guard` cell; then
/// fills back with rock the floor that could not be joined and that `fillable` accepts.
/// Its cost is the window's, not the level's. Returns the rock cells carved.
pub(crate) fn join_window(
    d: &mut Dungeon,
    level: u16,
    main: &[bool],
    inside: &dyn Fn(Slot) -> bool,
    guard: &[bool],
    fillable: &[bool],
) -> usize {
    let dims = d.dims();
    let n = dims.slot_count();
    // A cell outside, or beside a cell outside (its seam there would stay as it is), is
    // locked.
    let out = |s: Slot| {
        !inside(s)
            || dims
                .walls(s)
                .unwrap_or(&[])
                .iter()
                .any(|&w| dims.neighbor(s, w).ok().flatten().is_some_and(|n| !inside(n)))
    };
    let locked: Vec<bool> = (0..n).map(|i| guard[i] || dims.slot_at(i).is_none_or(out)).collect();
    let mut marks = vec![false; n * usize::from(d.levels())];
    let base = usize::from(level) * n;
    marks[base..base + n].copy_from_slice(main);
    let mut search = crate::path::search::Search::new();
    let carved = super::connect::connect_level(d, level, &mut marks, &mut search, Locked(&locked));
    // Fill back only fillable cells: everything else (the level outside the window too)
    // stays as it is.
    let keep: Vec<bool> = fillable.iter().map(|&f| !f).collect();
    let _ = super::connect::fill_pockets(d, level, &marks, Locked(&keep));
    carved
}

/// Every tile of the `octile` set of a cell kind that is floor (`carved`) or rock.
pub(crate) fn class_tiles(kind: SlotKind, carved: bool) -> Vec<TileIndex> {
    match (kind, carved) {
        (SlotKind::Octagon, true) => (0..=255u8).map(|m| octile::octagon_tile(Some(m))).collect(),
        (SlotKind::Octagon, false) => vec![octile::octagon_tile(None)],
        (_, true) => (0..16u8).map(|m| octile::connector_tile(Some(m))).collect(),
        (_, false) => vec![octile::connector_tile(None)],
    }
}

/// A design's pins, level by level: what generation keeps.
pub(crate) struct Keep<'a> {
    design: &'a Dungeon,
    /// Per level, per slot: pinned.
    locked: Vec<Vec<bool>>,
    /// Per level, per slot: pinned or needed rock by a pin.
    guard: Vec<Vec<bool>>,
    /// Per level, per slot: a pin or a neighbour of one (no stair or entrance goes there).
    near: Vec<Vec<bool>>,
    /// Per level: the fixed class of every pinned or demanded cell, by slot.
    classes: Vec<Vec<(Slot, bool)>>,
}

impl<'a> Keep<'a> {
    /// The pins of `design`; refuses pins that contradict each other.
    pub(crate) fn of(design: &'a Dungeon) -> Result<Keep<'a>, GenerateError> {
        let dims = design.dims();
        let mut keep =
            Keep { design, locked: Vec::new(), guard: Vec::new(), near: Vec::new(), classes: Vec::new() };
        for level in 0..design.levels() {
            let mut locked = vec![false; dims.slot_count()];
            for slot in dims.cells().filter(|&slot| design.is_pinned(Pos { level, slot })) {
                locked[dims.index(slot).expect("invariant: inside")] = true;
            }
            let mut near = locked.clone();
            let mut classes = Vec::new();
            for slot in dims.cells() {
                let i = dims.index(slot).expect("invariant: inside");
                let pos = Pos { level, slot };
                if locked[i] {
                    classes.push((slot, design.is_carved(pos)));
                    continue;
                }
                let demand = demand_of(design, level, slot, &locked);
                let touches = dims.walls(slot).expect("invariant: a cell").iter().any(|&dir| {
                    dims.neighbor(slot, dir)
                        .ok()
                        .flatten()
                        .is_some_and(|n| locked[dims.index(n).expect("inside")])
                });
                near[i] = touches;
                match demand.class() {
                    Ok(Some(carved)) => classes.push((slot, carved)),
                    Ok(None) => {}
                    Err((a, b)) => {
                        return Err(GenerateError::BadOption {
                            name: "keep",
                            value: format!("pins at {a} and {b}"),
                            reason: format!(
                                "they contradict each other about {pos}: one's open seam needs it floor, the other's wall needs it rock"
                            ),
                        });
                    }
                }
            }
            keep.guard.push(guarded(design, level, &locked));
            keep.locked.push(locked);
            keep.near.push(near);
            keep.classes.push(classes);
        }
        Ok(keep)
    }

    /// Pinned cells in all.
    pub(crate) fn count(&self) -> usize {
        self.locked.iter().map(|l| l.iter().filter(|&&p| p).count()).sum()
    }

    /// The cells of `level` carving may not touch.
    pub(crate) fn guard(&self, level: u16) -> Locked<'_> {
        Locked(&self.guard[usize::from(level)])
    }

    /// The pins of `level` and the cells beside them (what filling pockets leaves alone:
    /// filling walls every edge of a cell).
    pub(crate) fn near_pins(&self, level: u16) -> Locked<'_> {
        Locked(&self.near[usize::from(level)])
    }

    /// True when a stair, a hole or the entrance may not stand at `slot` of `level`.
    pub(crate) fn near(&self, level: u16, slot: Slot) -> bool {
        let dims = self.design.dims();
        self.near.get(usize::from(level)).is_some_and(|n| dims.index(slot).is_ok_and(|i| n[i]))
    }

    /// The solver's fixed cells of `level` (cells of the level topology numbered by
    /// `cell_of`, by slot index).
    pub(crate) fn fixed(&self, level: u16, cell_of: &[u32]) -> Vec<FixedCell> {
        let dims = self.design.dims();
        self.classes[usize::from(level)]
            .iter()
            .map(|&(slot, carved)| FixedCell {
                cell: cell_of[dims.index(slot).expect("invariant: inside")],
                allowed: class_tiles(slot.kind(), carved),
            })
            .collect()
    }

    /// Writes the design's tile and every edge of each pinned cell into `d`.
    pub(crate) fn restore(&self, d: &mut Dungeon) -> Result<(), GenerateError> {
        let dims = d.dims();
        for pos in self.design.pinned() {
            d.set_tile(pos, self.design.tile(pos)?)?;
            d.set_pinned(pos, true)?;
            for &dir in dims.walls(pos.slot).expect("invariant: a cell") {
                if let Some(state) = self.design.edge_state(pos, dir)? {
                    d.set_edge(pos, dir, state)?;
                }
            }
        }
        Ok(())
    }
}
