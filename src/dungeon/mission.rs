//! The mission layer: which locked door carries which lock id, and where each lock's key
//! lies. A locked door is an edge whose state has [`Mechanism::Locked`] in the registry;
//! its lock id lives here, by canonical edge, and is forgotten when the edge stops being a
//! locked door. A key is a marker (`Key_<id>` in the glTF) on a cell. Realisation writes
//! both ([`crate::flow::realise`]); [`crate::flow::verify`] proves them; the dungeon file
//! (version 4) keeps them.

use std::collections::BTreeMap;

use super::{Dungeon, DungeonError, EdgeDef, EdgeStateId, Mechanism, Registry};
use crate::grid::{Direction, EdgeId, Pos, Slot};

/// Lock ids by edge and keys by lock id.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct MissionLayer {
    locks: BTreeMap<(u16, EdgeId), u32>,
    keys: BTreeMap<u32, Pos>,
}

impl MissionLayer {
    /// Drops the lock id of `edge` on `level`, if it has one.
    pub(super) fn forget_lock(&mut self, level: u16, edge: EdgeId) {
        if !self.locks.is_empty() {
            self.locks.remove(&(level, edge));
        }
    }
}

/// One locked door of a dungeon ([`Dungeon::locks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Lock {
    /// The lock id (the key `Key_<id>` opens it).
    pub id: u32,
    /// The level of the door.
    pub level: u16,
    /// The door's edge.
    pub edge: EdgeId,
}

impl Dungeon {
    /// Adds an edge state to the dungeon's registry (ids already in use keep their
    /// meaning).
    ///
    /// # Errors
    /// As [`Registry::add_edge`].
    pub fn add_edge_state(&mut self, def: EdgeDef) -> Result<EdgeStateId, DungeonError> {
        self.registry.add_edge(def)
    }

    /// The dungeon's edge state for `mechanism`: the registry's first with it, or the
    /// standard one ([`Registry::standard_mission_door`]) added now.
    ///
    /// # Errors
    /// As [`Registry::add_edge`] when the registry has no room for it or its name or symbol
    /// is taken.
    pub fn mission_state(&mut self, mechanism: Mechanism) -> Result<EdgeStateId, DungeonError> {
        match self.registry.mission_state(mechanism) {
            Some(id) => Ok(id),
            None => self.add_edge_state(Registry::standard_mission_door(mechanism)),
        }
    }

    /// The lock id of the locked door on wall `dir` of the cell at `pos`, or `None` (no
    /// such wall, not a locked door, or a locked door without an id).
    #[must_use]
    pub fn lock_at(&self, pos: Pos, dir: Direction) -> Option<u32> {
        let edge = self.dims().edge(pos.slot, dir).ok()??;
        self.lock_of(pos.level, edge)
    }

    /// The lock id of the locked door on `edge` of `level` ([`Dungeon::lock_at`] by edge).
    #[must_use]
    pub fn lock_of(&self, level: u16, edge: EdgeId) -> Option<u32> {
        self.mission.locks.get(&(level, edge)).copied()
    }

    /// [`Dungeon::set_lock`] by edge: gives the locked door on `edge` of `level` the lock id
    /// `lock`, or takes its id away (`None`).
    ///
    /// # Errors
    /// As [`Dungeon::set_lock`]; [`DungeonError::Grid`] for an edge not of the grid.
    pub fn set_lock_of(&mut self, level: u16, edge: EdgeId, lock: Option<u32>) -> Result<(), DungeonError> {
        let [(slot, dir), _] =
            self.dims().edge_sides(edge).map_err(|source| DungeonError::Grid { level, source })?;
        self.set_lock(Pos { level, slot }, dir, lock)
    }

    /// Gives the locked door on wall `dir` of the cell at `pos` the lock id `lock`, or takes
    /// its id away (`None`). Setting the edge to any state that is not a locked door takes
    /// the id away too.
    ///
    /// # Errors
    /// As [`Dungeon::edge_state`] for `pos` and `dir`; [`DungeonError::NotLocked`] when
    /// the wall's state is not a locked door ([`Mechanism::Locked`]) or it is on the grid's
    /// border.
    pub fn set_lock(&mut self, pos: Pos, dir: Direction, lock: Option<u32>) -> Result<(), DungeonError> {
        let state = self.edge_state(pos, dir)?;
        let edge = self.dims().edge(pos.slot, dir).ok().flatten();
        let not_locked = |name: String| DungeonError::NotLocked {
            level: pos.level,
            row: pos.slot.row,
            col: pos.slot.col,
            dir,
            state: name,
        };
        let (Some(state), Some(edge)) = (state, edge) else { return Err(not_locked("wall".into())) };
        if self.registry.mechanism(state) != Some(Mechanism::Locked) {
            let name = self.registry.edge_def(state).map_or_else(String::new, |e| e.name.clone());
            return Err(not_locked(name));
        }
        match lock {
            Some(id) => self.mission.locks.insert((pos.level, edge), id),
            None => self.mission.locks.remove(&(pos.level, edge)),
        };
        Ok(())
    }

    /// Every locked door with a lock id, by level and edge.
    pub fn locks(&self) -> impl Iterator<Item = Lock> + '_ {
        self.mission.locks.iter().map(|(&(level, edge), &id)| Lock { id, level, edge })
    }

    /// Where the key of lock `lock` lies, when it is placed.
    #[must_use]
    pub fn key(&self, lock: u32) -> Option<Pos> {
        self.mission.keys.get(&lock).copied()
    }

    /// Every placed key as `(lock id, cell)`, by lock id.
    pub fn keys(&self) -> impl Iterator<Item = (u32, Pos)> + '_ {
        self.mission.keys.iter().map(|(&id, &pos)| (id, pos))
    }

    /// Places the key of lock `lock` on the cell at `pos` (it need not be carved), or
    /// takes it away (`None`).
    ///
    /// # Errors
    /// [`DungeonError::Level`] / [`DungeonError::Grid`] when `pos` is not a cell of the
    /// dungeon.
    pub fn set_key(&mut self, lock: u32, pos: Option<Pos>) -> Result<(), DungeonError> {
        match pos {
            Some(p) => {
                self.cell(p)?;
                self.mission.keys.insert(lock, p);
            }
            None => {
                self.mission.keys.remove(&lock);
            }
        }
        Ok(())
    }

    /// Whether the dungeon has lock ids or keys (the file then needs version 4).
    #[must_use]
    pub fn has_mission(&self) -> bool {
        !self.mission.locks.is_empty() || !self.mission.keys.is_empty()
    }

    /// Whether the dungeon has a flow to prove: lock ids, keys, or mission doors in its
    /// registry ([`crate::flow::verify`]; `octile validate`, the editor, the plan and the
    /// export read it).
    #[must_use]
    pub fn has_flow(&self) -> bool {
        self.has_mission() || self.registry.edges().iter().any(|e| e.mechanism.is_some())
    }

    /// The two cells of `edge` (a canonical edge of the grid), first the one earlier in
    /// row-major order, with the wall of the first that faces the second.
    #[must_use]
    pub fn edge_cells(&self, edge: EdgeId) -> Option<(Slot, Direction, Slot)> {
        let sides = self.dims().edge_sides(edge).ok()?;
        let [(a, da), (b, db)] = sides;
        if (a.row, a.col) <= (b.row, b.col) { Some((a, da, b)) } else { Some((b, db, a)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::Fill;
    use crate::geometry::Proportions;

    #[test]
    fn locks_live_on_locked_doors_and_keys_on_cells() {
        let mut d = Dungeon::new(3, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        let west = Pos::new(0, 0, 0);
        let e = d.set_lock(west, Direction::E, Some(1)).unwrap_err();
        assert!(matches!(e, DungeonError::NotLocked { .. }) && e.to_string().contains("\"open\""), "{e}");
        let locked = d.mission_state(Mechanism::Locked).unwrap();
        assert_eq!(d.mission_state(Mechanism::Locked).unwrap(), locked, "added once");
        d.set_edge(west, Direction::E, locked).unwrap();
        d.set_lock(west, Direction::E, Some(7)).unwrap();
        assert_eq!(d.lock_at(Pos::new(0, 0, 2), Direction::W), Some(7), "both sides see it");
        assert_eq!(d.locks().count(), 1);
        d.set_edge(west, Direction::E, Registry::DOOR).unwrap();
        assert_eq!(d.lock_at(west, Direction::E), None, "a plain door forgets the id");
        assert!(d.set_lock(west, Direction::N, Some(1)).is_err(), "the border");
        d.set_key(7, Some(Pos::new(0, 0, 4))).unwrap();
        assert_eq!(d.keys().collect::<Vec<_>>(), [(7, Pos::new(0, 0, 4))]);
        assert!(d.set_key(8, Some(Pos::new(0, 0, 1))).is_err(), "a Void slot");
        assert!(d.has_mission());
    }

    #[test]
    fn one_way_doors_let_one_direction_through() {
        let (a, b) = (Slot::new(0, 0), Slot::new(0, 2));
        assert!(Mechanism::one_way(a, b).allows(a, b) && !Mechanism::one_way(a, b).allows(b, a));
        assert!(Mechanism::one_way(b, a).allows(b, a) && !Mechanism::one_way(b, a).allows(a, b));
        assert!(Mechanism::Locked.allows(a, b) && Mechanism::Secret.allows(b, a));
    }
}
