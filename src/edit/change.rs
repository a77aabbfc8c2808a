//! Changes: what one command did to a dungeon, each with its value before and after, so
//! it can be undone (the befores, last first) and redone (the afters, first first). The
//! [`Recorder`] is the only way the editor writes to its dungeon.

use crate::dungeon::{Dungeon, DungeonError, EdgeStateId, PillarState, Registry, RoomHeight, TileId};
use crate::grid::{EdgeId, Grid, PillarId, Pos, Slot};

/// One value of a dungeon that a command changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A cell's tile.
    Tile {
        /// The cell.
        pos: Pos,
        /// Its tile before.
        before: TileId,
        /// Its tile after.
        after: TileId,
    },
    /// An edge's state.
    Edge {
        /// The level.
        level: u16,
        /// The edge.
        edge: EdgeId,
        /// Its state before.
        before: EdgeStateId,
        /// Its state after.
        after: EdgeStateId,
    },
    /// A pillar's state. A tile or edge change that breaks the rule for an open pillar is
    /// recorded after the pillar's change to a column (the dungeon makes both in one call),
    /// so undoing puts the cells and seams back before the pillar opens again.
    Pillar {
        /// The level.
        level: u16,
        /// The pillar.
        pillar: PillarId,
        /// Its state before.
        before: PillarState,
        /// Its state after.
        after: PillarState,
    },
    /// The entrance marker.
    Entrance {
        /// Before.
        before: Option<Pos>,
        /// After.
        after: Option<Pos>,
    },
    /// The exit marker.
    Exit {
        /// Before.
        before: Option<Pos>,
        /// After.
        after: Option<Pos>,
    },
    /// A cell's pin.
    Pin {
        /// The cell.
        pos: Pos,
        /// Pinned before.
        before: bool,
        /// Pinned after.
        after: bool,
    },
    /// A locked door's lock id (`None`: none). Setting a locked door's edge to another
    /// state takes its id away: that is recorded just before the edge's change, so undoing
    /// puts the door back before its id.
    Lock {
        /// The level.
        level: u16,
        /// The edge.
        edge: EdgeId,
        /// Its lock id before.
        before: Option<u32>,
        /// Its lock id after.
        after: Option<u32>,
    },
    /// A cell's room height (`None`: the dungeon's default).
    Height {
        /// The cell.
        pos: Pos,
        /// Its set height before.
        before: Option<RoomHeight>,
        /// Its set height after.
        after: Option<RoomHeight>,
    },
}

impl Change {
    /// The same change the other way round (what undoes it).
    #[must_use]
    pub fn inverse(self) -> Change {
        match self {
            Change::Tile { pos, before, after } => Change::Tile { pos, before: after, after: before },
            Change::Edge { level, edge, before, after } => {
                Change::Edge { level, edge, before: after, after: before }
            }
            Change::Pillar { level, pillar, before, after } => {
                Change::Pillar { level, pillar, before: after, after: before }
            }
            Change::Entrance { before, after } => Change::Entrance { before: after, after: before },
            Change::Exit { before, after } => Change::Exit { before: after, after: before },
            Change::Pin { pos, before, after } => Change::Pin { pos, before: after, after: before },
            Change::Height { pos, before, after } => Change::Height { pos, before: after, after: before },
            Change::Lock { level, edge, before, after } => {
                Change::Lock { level, edge, before: after, after: before }
            }
        }
    }

    /// Writes the change's `after` value into `d`.
    ///
    /// # Errors
    /// The dungeon's own refusal ([`DungeonError`]); never for a change recorded on the same
    /// dungeon (its values were stored there once).
    pub fn apply_to(self, d: &mut Dungeon) -> Result<(), DungeonError> {
        match self {
            Change::Tile { pos, after, .. } => d.set_tile(pos, after),
            Change::Edge { level, edge, after, .. } => d.set_edge_of(level, edge, after),
            Change::Pillar { level, pillar, after, .. } => d.set_pillar(level, pillar, after),
            Change::Entrance { after, .. } => d.set_entrance(after),
            Change::Exit { after, .. } => d.set_exit(after),
            Change::Pin { pos, after, .. } => d.set_pinned(pos, after),
            Change::Height { pos, after: Some(h), .. } => d.set_room_height(pos, h.to_metres()).map(|_| ()),
            Change::Height { pos, after: None, .. } => d.clear_room_height(pos),
            Change::Lock { level, edge, after, .. } => d.set_lock_of(level, edge, after),
        }
    }
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Change::Tile { pos, before, after } => {
                write!(f, "{pos}: tile {} -> {}", before.index(), after.index())
            }
            Change::Edge { level, edge, before, after } => {
                write!(f, "level {level}, {edge}: state {} -> {}", before.index(), after.index())
            }
            Change::Pillar { level, pillar, before, after } => {
                write!(f, "level {level}, {pillar}: {} -> {}", before.name(), after.name())
            }
            Change::Entrance { before, after } => write!(f, "entrance {} -> {}", opt(*before), opt(*after)),
            Change::Exit { before, after } => write!(f, "exit {} -> {}", opt(*before), opt(*after)),
            Change::Pin { pos, after, .. } => {
                write!(f, "{pos}: {}", if *after { "pinned" } else { "unpinned" })
            }
            Change::Height { pos, before, after } => {
                write!(f, "{pos}: room height {} -> {}", height(*before), height(*after))
            }
            Change::Lock { level, edge, before, after } => {
                let id = |l: Option<u32>| l.map_or_else(|| "none".to_string(), |l| l.to_string());
                write!(f, "level {level}, {edge}: lock {} -> {}", id(*before), id(*after))
            }
        }
    }
}

impl Change {
    /// The change for people, tiles and states by their registry names (`reg` is the
    /// edited dungeon's).
    #[must_use]
    pub fn describe(&self, reg: &Registry) -> String {
        let tile = |t: TileId| reg.tile_def(t).map_or_else(|| t.index().to_string(), |d| d.name.clone());
        let state =
            |e: EdgeStateId| reg.edge_def(e).map_or_else(|| e.index().to_string(), |d| d.name.clone());
        match *self {
            Change::Tile { pos, before, after } => format!("{pos}: {} -> {}", tile(before), tile(after)),
            Change::Edge { level, edge, before, after } => {
                format!("level {level}, {edge}: {} -> {}", state(before), state(after))
            }
            other => other.to_string(),
        }
    }
}

fn height(h: Option<RoomHeight>) -> String {
    h.map_or_else(|| "default".into(), |h| format!("{} m", h.to_metres()))
}

fn opt(p: Option<Pos>) -> String {
    p.map_or_else(|| "none".into(), |p| format!("({p})"))
}

/// The change of `edge`'s lock id on `level` from `before` to what `d` has now, if any.
fn lock_change(d: &Dungeon, level: u16, edge: EdgeId, before: Option<u32>) -> Option<Change> {
    let after = d.lock_of(level, edge);
    (before != after).then_some(Change::Lock { level, edge, before, after })
}

/// The lock id of `edge` in a level's `locks` (a [`LevelCopy`]'s).
fn lock_in(locks: &[(EdgeId, u32)], edge: EdgeId) -> Option<u32> {
    locks.iter().find(|&&(e, _)| e == edge).map(|&(_, id)| id)
}

/// A copy of one level's layers taken before generation code changes it directly, for
/// [`Recorder::record_level`] and [`Recorder::record_cells`].
pub(crate) struct LevelCopy {
    /// The tile layer.
    pub(crate) tiles: Grid<TileId>,
    /// The edge layer.
    pub(crate) edges: Vec<EdgeStateId>,
    /// The pillar layer.
    pub(crate) pillars: Vec<PillarState>,
    /// The level's lock ids, by edge.
    pub(crate) locks: Vec<(EdgeId, u32)>,
}

impl LevelCopy {
    /// The layers of `level` of `d` as they are now.
    pub(crate) fn of(d: &Dungeon, level: u16) -> Result<LevelCopy, DungeonError> {
        Ok(LevelCopy {
            tiles: d.tile_layer(level)?.clone(),
            edges: d.edge_layer(level)?.to_vec(),
            pillars: d.pillar_layer(level)?.to_vec(),
            locks: d.locks().filter(|l| l.level == level).map(|l| (l.edge, l.id)).collect(),
        })
    }
}

/// Writes to a dungeon and records every value it changes. A failed command is rolled back
/// with [`Recorder::revert`].
pub(crate) struct Recorder<'a> {
    pub(crate) d: &'a mut Dungeon,
    pub(crate) changes: Vec<Change>,
}

impl<'a> Recorder<'a> {
    pub(crate) fn new(d: &'a mut Dungeon) -> Recorder<'a> {
        Recorder { d, changes: Vec::new() }
    }

    /// Sets a tile, recording it when it changes.
    pub(crate) fn set_tile(&mut self, pos: Pos, tile: TileId) -> Result<(), DungeonError> {
        let before = self.d.tile(pos)?;
        if before != tile {
            let open = self.d.open_pillars_at_cell(pos.level, pos.slot);
            self.d.set_tile(pos, tile)?;
            self.record_closed(pos.level, &open);
            self.changes.push(Change::Tile { pos, before, after: tile });
        }
        Ok(())
    }

    /// Sets an edge, recording it when it changes.
    pub(crate) fn set_edge_of(
        &mut self,
        level: u16,
        edge: EdgeId,
        state: EdgeStateId,
    ) -> Result<(), DungeonError> {
        let before = self.d.edge_state_of(level, edge)?;
        if before != state {
            let open = self.d.open_pillars_at_edge(level, edge);
            let lock = self.d.lock_of(level, edge);
            self.d.set_edge_of(level, edge, state)?;
            self.record_lock(level, edge, lock);
            self.record_closed(level, &open);
            self.changes.push(Change::Edge { level, edge, before, after: state });
        }
        Ok(())
    }

    /// Records that the edge change of `edge` took its lock id `before` away (when it did).
    fn record_lock(&mut self, level: u16, edge: EdgeId, before: Option<u32>) {
        self.changes.extend(lock_change(self.d, level, edge, before));
    }

    /// Records the pillars of `open` (open before a tile or edge change) that the change
    /// turned into columns.
    fn record_closed(&mut self, level: u16, open: &[PillarId]) {
        for &pillar in open {
            if !self.d.is_pillar_open(level, pillar) {
                let (before, after) = (PillarState::Open, PillarState::Column);
                self.changes.push(Change::Pillar { level, pillar, before, after });
            }
        }
    }

    /// Sets a pillar, recording it when it changes.
    pub(crate) fn set_pillar(
        &mut self,
        level: u16,
        pillar: PillarId,
        state: PillarState,
    ) -> Result<(), DungeonError> {
        let before = self.d.pillar(level, pillar)?;
        if before != state {
            self.d.set_pillar(level, pillar, state)?;
            self.changes.push(Change::Pillar { level, pillar, before, after: state });
        }
        Ok(())
    }

    /// Records the pillar changes of `level` made behind the recorder's back, against a copy
    /// of its pillar layer taken before: the columns that were open when `closed` (put them
    /// before the tile and edge changes, so undo reopens them after those are back), else
    /// the pillars opened.
    fn record_pillars(&mut self, level: u16, pillars: &[PillarState], closed: bool) {
        let dims = self.d.dims();
        let now = self.d.pillar_layer(level).expect("invariant: a level of the dungeon");
        let changed: Vec<Change> = (pillars.iter().zip(now).enumerate())
            .filter(|(_, (before, after))| before != after && (**after == PillarState::Column) == closed)
            .filter_map(|(i, (&before, &after))| {
                Some(Change::Pillar { level, pillar: dims.pillar_at(i)?, before, after })
            })
            .collect();
        self.changes.extend(changed);
    }

    /// Sets the entrance, recording it when it changes.
    pub(crate) fn set_entrance(&mut self, pos: Option<Pos>) -> Result<(), DungeonError> {
        let before = self.d.entrance();
        if before != pos {
            self.d.set_entrance(pos)?;
            self.changes.push(Change::Entrance { before, after: pos });
        }
        Ok(())
    }

    /// Sets the exit, recording it when it changes.
    pub(crate) fn set_exit(&mut self, pos: Option<Pos>) -> Result<(), DungeonError> {
        let before = self.d.exit();
        if before != pos {
            self.d.set_exit(pos)?;
            self.changes.push(Change::Exit { before, after: pos });
        }
        Ok(())
    }

    /// Pins or unpins a cell, recording it when it changes.
    pub(crate) fn set_pinned(&mut self, pos: Pos, pinned: bool) -> Result<(), DungeonError> {
        let before = self.d.is_pinned(pos);
        self.d.set_pinned(pos, pinned)?;
        if before != pinned {
            self.changes.push(Change::Pin { pos, before, after: pinned });
        }
        Ok(())
    }

    /// Sets (`Some`) or clears a cell's room height, recording it when it changes.
    pub(crate) fn set_room_height(
        &mut self,
        pos: Pos,
        height: Option<RoomHeight>,
    ) -> Result<(), DungeonError> {
        let before = self.d.room_height_set(pos);
        let after = match height {
            Some(h) => Some(self.d.set_room_height(pos, h.to_metres())?),
            None => {
                self.d.clear_room_height(pos)?;
                None
            }
        };
        if before != after {
            self.changes.push(Change::Height { pos, before, after });
        }
        Ok(())
    }

    /// Records the tile and edge changes of `level` made behind the recorder's back (by
    /// generation code working on the dungeon directly), against copies of its layers taken
    /// before: tiles row-major, then edges in index order.
    pub(crate) fn record_level(&mut self, level: u16, before: &LevelCopy) {
        let LevelCopy { tiles, edges, pillars, locks } = before;
        self.record_pillars(level, pillars, true);
        let dims = self.d.dims();
        let now_tiles = self.d.tile_layer(level).expect("invariant: a level of the dungeon");
        // Slot indices run row-major, edge indices in edge order: compare the layers as
        // they lie, and name only what differs.
        for (i, (&before, &after)) in tiles.as_slice().iter().zip(now_tiles.as_slice()).enumerate() {
            if before != after {
                let slot = dims.slot_at(i).expect("invariant: an index of the level");
                self.changes.push(Change::Tile { pos: Pos { level, slot }, before, after });
            }
        }
        let now_edges = self.d.edge_layer(level).expect("invariant: a level of the dungeon");
        let mut differ =
            (0..edges.len().min(now_edges.len())).filter(|&i| edges[i] != now_edges[i]).peekable();
        for edge in dims.edges() {
            let Some(&next) = differ.peek() else { break };
            let i = dims.edge_index(edge).expect("invariant: an edge of the grid");
            if i == next {
                differ.next();
                self.changes.extend(lock_change(self.d, level, edge, lock_in(locks, edge)));
                self.changes.push(Change::Edge { level, edge, before: edges[i], after: now_edges[i] });
            }
        }
        self.record_pillars(level, pillars, false);
    }

    /// [`Recorder::record_level`] for changes made only to the tiles of `cells` (row-major)
    /// and to their walls' edges: the same changes in the same order, without reading the
    /// rest of the level.
    pub(crate) fn record_cells(&mut self, level: u16, before: &LevelCopy, cells: &[Slot]) {
        let LevelCopy { tiles, edges, pillars, locks } = before;
        self.record_pillars(level, pillars, true);
        let dims = self.d.dims();
        let now_tiles = self.d.tile_layer(level).expect("invariant: a level of the dungeon");
        for &slot in cells {
            let (before, after) = (tiles.get(slot), now_tiles.get(slot));
            if let (Ok(&before), Ok(&after)) = (before, after)
                && before != after
            {
                self.changes.push(Change::Tile { pos: Pos { level, slot }, before, after });
            }
        }
        let mut walls: Vec<(usize, EdgeId)> = cells
            .iter()
            .flat_map(|&slot| {
                let dirs = dims.walls(slot).unwrap_or(&[]);
                dirs.iter().filter_map(move |&dir| dims.edge(slot, dir).ok().flatten())
            })
            .map(|edge| (dims.edge_index(edge).expect("invariant: an edge of the grid"), edge))
            .collect();
        walls.sort_unstable_by_key(|&(i, _)| i);
        walls.dedup_by_key(|&mut (i, _)| i);
        let now_edges = self.d.edge_layer(level).expect("invariant: a level of the dungeon");
        for (i, edge) in walls {
            if edges[i] != now_edges[i] {
                self.changes.extend(lock_change(self.d, level, edge, lock_in(locks, edge)));
                self.changes.push(Change::Edge { level, edge, before: edges[i], after: now_edges[i] });
            }
        }
        self.record_pillars(level, pillars, false);
    }

    /// Undoes every recorded change, last first, and forgets them.
    pub(crate) fn revert(&mut self) {
        for change in std::mem::take(&mut self.changes).into_iter().rev() {
            change.inverse().apply_to(self.d).expect("invariant: a recorded value was valid here before");
        }
    }
}
