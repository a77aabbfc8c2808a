//! Generating around a design (`octile generate --keep`): the design's pinned cells keep
//! their tiles and every edge they have (matched by name), but for the doorways opened in
//! pinned rooms that no seam leaves ([`doorways`]); the rest is generated. The rule of what a locked
//! cell asks of a free neighbour ([`demand_of`]) is shared with re-solving
//! ([`crate::edit::resolve`]).
//!
//! A locked cell constrains a free neighbour through their shared edge, which stays as it
//! is: an open seam (or a door) from a carved locked cell needs the neighbour carved; a wall
//! from a carved locked cell that the shaft rule would let one cross needs it rock, as does
//! an open seam from locked rock.

use std::borrow::Cow;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::GenerateError;
use super::carve::Locked;
use crate::dungeon::{Dungeon, EdgeStateId, Registry, TileId};
use crate::grid::{Direction, Pos, Slot, SlotKind};
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
        let carves = d.edge_carves(here, dir);
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
#[cfg(feature = "export")]
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
    /// The design as generation keeps it: the user's, with the doorways chosen for its
    /// walled-in pinned rooms opened ([`doorways`]).
    design: Cow<'a, Dungeon>,
    /// The generated dungeon's registry: the standard one, then every tile and edge state of
    /// the design's that it lacks, by name.
    registry: Registry,
    /// Per tile of the design's registry, the same tile (by name) in [`Keep::registry`].
    tiles: Vec<TileId>,
    /// Per edge state of the design's registry, the same state (by name) in
    /// [`Keep::registry`].
    edges: Vec<EdgeStateId>,
    /// Per level, per slot: pinned.
    locked: Vec<Vec<bool>>,
    /// Per level, per slot: pinned or needed rock by a pin.
    guard: Vec<Vec<bool>>,
    /// Per level, per slot: a pin or a neighbour of one (no stair or entrance goes there).
    near: Vec<Vec<bool>>,
    /// Per level, per slot: a pin, or a cell a pin's open seam needs carved (a pocket of
    /// filler the search could not join is filled with rock everywhere else).
    kept_carved: Vec<Vec<bool>>,
    /// Per level: the fixed class of every pinned or demanded cell, by slot.
    classes: Vec<Vec<(Slot, bool)>>,
}

impl<'a> Keep<'a> {
    /// The pins of `design`, with doorways drawn by `seed` for every pinned room that no
    /// seam leaves ([`doorways`]); refuses pins that contradict each other, a pinned room
    /// that no doorway can leave, and a design registry whose names clash with the
    /// standard one's.
    pub(crate) fn of(design: &'a Dungeon, seed: u64) -> Result<Keep<'a>, GenerateError> {
        let (registry, tiles, edges) = merged_registry(design.registry())?;
        let opened = doorways(design, seed)?;
        let design = if opened.is_empty() {
            Cow::Borrowed(design)
        } else {
            let mut d = design.clone();
            let open = d.registry().open_edge().ok_or_else(|| GenerateError::BadOption {
                name: "keep",
                value: "the design's registry".into(),
                reason: "it has no open edge state, so no doorway can open in its walled-in pinned rooms"
                    .into(),
            })?;
            for (pos, dir) in opened {
                d.set_edge(pos, dir, open)?;
            }
            Cow::Owned(d)
        };
        let mut keep = Keep {
            design,
            registry,
            tiles,
            edges,
            locked: Vec::new(),
            guard: Vec::new(),
            near: Vec::new(),
            kept_carved: Vec::new(),
            classes: Vec::new(),
        };
        let design = &*keep.design;
        let dims = design.dims();
        for level in 0..design.levels() {
            let locked = pinned_layer(design, level);
            let mut near = locked.clone();
            let mut kept_carved = locked.clone();
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
                    Ok(Some(carved)) => {
                        kept_carved[i] = carved;
                        classes.push((slot, carved));
                    }
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
            keep.kept_carved.push(kept_carved);
            keep.classes.push(classes);
        }
        Ok(keep)
    }

    /// The registry the generated dungeon uses: the standard one (its ids are the
    /// generator's), then the design's other tiles and edge states.
    pub(crate) fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The design's entrance, when it is an octagon on level 0 (where generation puts one).
    pub(crate) fn entrance(&self) -> Option<Slot> {
        self.design.entrance().filter(|p| p.level == 0 && p.slot.kind() == SlotKind::Octagon).map(|p| p.slot)
    }

    /// The design's exit, when it is an octagon.
    pub(crate) fn exit(&self) -> Option<Pos> {
        self.design.exit().filter(|p| p.slot.kind() == SlotKind::Octagon)
    }

    /// The feet of the design's stairs from level `pair` to `pair + 1`, in (row, col) order:
    /// generation keeps them, with their holes, and places only the rest of a pair's stairs.
    pub(crate) fn stairs(&self, pair: u16) -> Vec<Slot> {
        self.design.stairs().iter().filter(|s| s.foot.level == pair).map(|s| s.foot.slot).collect()
    }

    /// True when the design pins the cell at `slot` of `level` (its class is fixed by the
    /// pin, so nothing else fixes it).
    pub(crate) fn pins(&self, level: u16, slot: Slot) -> bool {
        let dims = self.design.dims();
        self.locked.get(usize::from(level)).is_some_and(|l| dims.index(slot).is_ok_and(|i| l[i]))
    }

    /// Pinned cells in all.
    pub(crate) fn count(&self) -> usize {
        self.locked.iter().map(|l| l.iter().filter(|&&p| p).count()).sum()
    }

    /// The cells of `level` carving may not touch.
    pub(crate) fn guard(&self, level: u16) -> Locked<'_> {
        Locked(&self.guard[usize::from(level)])
    }

    /// The cells of `level` that stay carved whatever the search joins: the pins and the
    /// cells their open seams need carved.
    pub(crate) fn kept_carved(&self, level: u16) -> Locked<'_> {
        Locked(&self.kept_carved[usize::from(level)])
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

    /// Writes the design's tile and every edge of each pinned cell into `d` (whose registry
    /// is [`Keep::registry`]), tiles and edge states matched by name; a doorway chosen for a
    /// walled-in room is written open.
    pub(crate) fn restore(&self, d: &mut Dungeon) -> Result<(), GenerateError> {
        let dims = d.dims();
        let design = &*self.design;
        for pos in design.pinned() {
            d.set_tile(pos, self.tiles[design.tile(pos)?.index()])?;
            d.set_pinned(pos, true)?;
            for &dir in dims.walls(pos.slot).expect("invariant: a cell") {
                if let Some(state) = design.edge_state(pos, dir)? {
                    d.set_edge(pos, dir, self.edges[state.index()])?;
                }
            }
        }
        Ok(())
    }
}

/// Per slot of `level`: whether `d` pins it.
fn pinned_layer(d: &Dungeon, level: u16) -> Vec<bool> {
    let dims = d.dims();
    let mut locked = vec![false; dims.slot_count()];
    for slot in dims.cells().filter(|&slot| d.is_pinned(Pos { level, slot })) {
        locked[dims.index(slot).expect("invariant: inside")] = true;
    }
    locked
}

/// The standard registry followed by every tile and edge state of `design` it has no name
/// for, and the id in it of each of the design's tiles and edge states (matched by name).
fn merged_registry(design: &Registry) -> Result<(Registry, Vec<TileId>, Vec<EdgeStateId>), GenerateError> {
    let standard = Registry::standard();
    let mut tiles = standard.tiles().to_vec();
    tiles.extend(design.tiles().iter().filter(|t| standard.tile(&t.name).is_none()).cloned());
    let mut edges = standard.edges().to_vec();
    edges.extend(design.edges().iter().filter(|e| standard.edge(&e.name).is_none()).cloned());
    let merged = Registry::from_defs(tiles, edges).map_err(|e| GenerateError::BadOption {
        name: "keep",
        value: "the design's registry".into(),
        reason: format!("its tiles and edge states cannot join the standard ones by name: {e}"),
    })?;
    let tile_ids = design
        .tiles()
        .iter()
        .map(|t| merged.tile(&t.name).expect("invariant: every design tile was merged"))
        .collect();
    let edge_ids = design
        .edges()
        .iter()
        .map(|e| merged.edge(&e.name).expect("invariant: every design edge state was merged"))
        .collect();
    Ok((merged, tile_ids, edge_ids))
}

/// Pinned cells of at least this many (octagons and connectors) get a second doorway.
const SECOND_DOORWAY: usize = 6;

/// The doorways `generate --keep` opens: a pinned room (pinned carved cells of one level
/// joined by carved seams) that no carved seam leaves for an unpinned cell would be sealed,
/// so one of its walls that faces an unpinned cell (a wall between two pins is the
/// designer's and stays) is opened, drawn by `seed`; a room of [`SECOND_DOORWAY`] cells or
/// more gets a second, the candidate farthest from the first. A wall qualifies when the
/// shaft rule lets one cross it and opening it asks nothing contradictory of the cell
/// beyond. Refuses a room with no such wall, naming it.
fn doorways(design: &Dungeon, seed: u64) -> Result<Vec<(Pos, Direction)>, GenerateError> {
    let dims = design.dims();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(DOORWAY_STREAM);
    let mut opened = Vec::new();
    for level in 0..design.levels() {
        let locked = pinned_layer(design, level);
        let pinned = |slot: Slot| dims.index(slot).is_ok_and(|i| locked[i]);
        let mut seen = vec![false; dims.slot_count()];
        for start in dims.cells() {
            let i = dims.index(start).expect("invariant: inside");
            if seen[i] || !locked[i] || !design.is_carved(Pos { level, slot: start }) {
                continue;
            }
            // The room: pinned carved cells joined by carved seams.
            seen[i] = true;
            let mut room = vec![start];
            let mut next = 0;
            let mut leaves = false;
            let mut candidates = Vec::new();
            while next < room.len() {
                let slot = room[next];
                next += 1;
                let pos = Pos { level, slot };
                for &dir in dims.walls(slot).expect("invariant: a cell") {
                    let Some(beyond) = dims.neighbor(slot, dir).ok().flatten() else { continue };
                    let there = Pos { level, slot: beyond };
                    let j = dims.index(beyond).expect("invariant: inside");
                    match (pinned(beyond), design.edge_carves(pos, dir)) {
                        (true, true) if design.is_carved(there) && !seen[j] => {
                            seen[j] = true;
                            room.push(beyond);
                        }
                        (false, true) => leaves = true,
                        (false, false) if design.stairs().allows_step(pos, dir, there) => {
                            candidates.push((pos, dir, there));
                        }
                        _ => {}
                    }
                }
            }
            if leaves {
                continue;
            }
            // A doorway whose far cell another pin needs rock would contradict it.
            candidates.retain(|&(pos, _, there)| opens_cleanly(design, &locked, pos, there));
            if candidates.is_empty() {
                return Err(GenerateError::BadOption {
                    name: "keep",
                    value: format!("the pinned room at {}", Pos { level, slot: start }),
                    reason: format!(
                        "its {} cell(s) are walled in: every wall faces another pin, the grid's edge or a stair's shaft, so no doorway can open; unpin a cell beside it or open one of its walls",
                        room.len()
                    ),
                });
            }
            let first = candidates[(rng.next_u64() % candidates.len() as u64) as usize];
            opened.push((first.0, first.1));
            if room.len() >= SECOND_DOORWAY {
                let far = |c: &(Pos, Direction, Pos)| {
                    let (a, b) = (c.2.slot, first.2.slot);
                    (a.row.abs_diff(b.row) + a.col.abs_diff(b.col), std::cmp::Reverse((a.row, a.col)))
                };
                let second = candidates.iter().filter(|c| c.2 != first.2).max_by_key(|c| far(c));
                if let Some(&(pos, dir, _)) = second.filter(|c| far(c).0 > 2) {
                    opened.push((pos, dir));
                }
            }
        }
    }
    Ok(opened)
}

/// The RNG stream the doorways are drawn from (the seed's main stream draws the layouts).
const DOORWAY_STREAM: u64 = 0xd00d;

/// Whether opening the wall of the pinned room cell `pos` toward the free cell `there`
/// leaves `there` a cell generation can make floor: no other pin needs it rock, and it has a
/// free neighbour to be joined through.
fn opens_cleanly(design: &Dungeon, locked: &[bool], pos: Pos, there: Pos) -> bool {
    let dims = design.dims();
    let demand = demand_of(design, pos.level, there.slot, locked);
    // The room's own wall is the one rock demand the doorway removes.
    let others = demand.rock.iter().filter(|&&p| p != pos).count();
    let free_beyond = dims.walls(there.slot).expect("invariant: a cell").iter().any(|&d| {
        dims.neighbor(there.slot, d).ok().flatten().is_some_and(|n| !locked[dims.index(n).expect("inside")])
    });
    others == 0 && free_beyond
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::Fill;
    use crate::geometry::Proportions;

    /// A sealed pinned octagon gets one doorway: pockets of filler may be filled anywhere
    /// but on the pin and the cell its doorway opens onto, though more cells touch it.
    #[test]
    fn only_pins_and_what_their_open_seams_need_stay_carved() {
        let mut d = Dungeon::new(4, 4, 1, Proportions::default(), Fill::Solid).unwrap();
        let pin = Pos::new(0, 2, 2);
        d.set_tile(pin, Registry::FLOOR).unwrap();
        d.set_pinned(pin, true).unwrap();
        let keep = Keep::of(&d, 1).unwrap();
        let count = |mask: &[bool]| mask.iter().filter(|&&m| m).count();
        let kept = &keep.kept_carved[0];
        let dims = d.dims();
        assert!(kept[dims.index(pin.slot).unwrap()], "the pin stays carved");
        assert_eq!(count(kept), 2, "the pin and its doorway's far side");
        assert!(count(&keep.near[0]) > 2, "more cells touch the pin than its doorway opens onto");
        let beyond = (0..kept.len()).find(|&i| kept[i] && i != dims.index(pin.slot).unwrap()).unwrap();
        let slot = dims.slot_at(beyond).unwrap();
        let opened = dims.walls(pin.slot).unwrap().iter().any(|&dir| {
            dims.neighbor(pin.slot, dir).ok().flatten() == Some(slot) && keep.design.edge_carves(pin, dir)
        });
        assert!(opened, "the kept neighbour is where the doorway opens");
    }
}
