//! Pillar states (docs/design.md, "Pillars"): each pillar is a rock `column` (the default) or
//! `open` (carved: floor and ceiling, no walls). The rule for when a pillar may be open has
//! one owner here ([`Dungeon::pillar_can_open`]); the dungeon's own tile and edge setters
//! turn a pillar back into a column in the same call that breaks the rule, so every edit
//! path (and its undo) sees both together.

use super::{Carve, Dungeon, DungeonError};
use crate::grid::{EdgeId, Grid, GridError, PillarId, Pos, Slot, SlotKind};

/// What a pillar is: solid rock or carved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum PillarState {
    /// Solid rock: a triangular column between the seams round it (the default).
    #[default]
    Column,
    /// Carved: floor and ceiling, joining the three carved seams round it into one floor.
    Open,
}

impl PillarState {
    /// Both states, column first.
    pub const ALL: [PillarState; 2] = [PillarState::Column, PillarState::Open];

    /// The state's name in files and commands: `column` or `open`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            PillarState::Column => "column",
            PillarState::Open => "open",
        }
    }

    /// The state named `name` ([`PillarState::name`]), or `None`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<PillarState> {
        PillarState::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl Dungeon {
    /// Checks `pillar` on `level` and returns the index of both.
    fn pillar_slot(&self, level: u16, pillar: PillarId) -> Result<(usize, usize), DungeonError> {
        let l = self.check_level(level)?;
        let i = self.dims().pillar_index(pillar).map_err(|source| DungeonError::Grid { level, source })?;
        Ok((l, i))
    }

    /// The state of `pillar` on `level`.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `level` is not a level of the dungeon;
    /// [`DungeonError::Grid`] (with [`GridError::OutOfBounds`]) when the pillar's connector
    /// is outside the grid.
    pub fn pillar(&self, level: u16, pillar: PillarId) -> Result<PillarState, DungeonError> {
        let (l, i) = self.pillar_slot(level, pillar)?;
        Ok(self.pillars[l][i])
    }

    /// Whether `pillar` on `level` is open; `false` for a pillar or level outside the dungeon.
    #[must_use]
    pub fn is_pillar_open(&self, level: u16, pillar: PillarId) -> bool {
        self.pillar(level, pillar) == Ok(PillarState::Open)
    }

    /// The dense pillar layer of one level, indexed by [`crate::grid::Dims::pillar_index`].
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `level` is not a level of the dungeon.
    pub fn pillar_layer(&self, level: u16) -> Result<&[PillarState], DungeonError> {
        Ok(&self.pillars[self.check_level(level)?])
    }

    /// Every open pillar of `level` (none for a level outside the dungeon), in dense-index
    /// order.
    pub fn open_pillars_on(&self, level: u16) -> impl Iterator<Item = PillarId> + '_ {
        let dims = self.dims();
        let layer = match self.pillars.get(usize::from(level)) {
            Some(layer) if self.has_open_pillars_on(level) => layer.as_slice(),
            _ => &[],
        };
        let open = layer.iter().enumerate().filter(|(_, s)| **s == PillarState::Open);
        open.filter_map(move |(i, _)| dims.pillar_at(i))
    }

    /// Every open pillar, level by level, in dense-index order.
    pub fn open_pillars(&self) -> impl Iterator<Item = (u16, PillarId)> + '_ {
        (0..self.levels()).flat_map(move |l| self.open_pillars_on(l).map(move |p| (l, p)))
    }

    /// Whether any pillar of the dungeon is open.
    #[must_use]
    pub fn has_open_pillars(&self) -> bool {
        self.open_pillar_count.iter().any(|&n| n > 0)
    }

    /// The rule for an open pillar: `Ok` when `pillar` on `level` may be open — the layout
    /// has seams (not tight spacing), its three cells are carved and its three seams are
    /// carved edge-wide ([`Carve::Full`]: open, not a door).
    ///
    /// # Errors
    ///
    /// As [`Dungeon::pillar`] for the address; [`DungeonError::PillarCannotOpen`] naming the
    /// level, connector, tip and the first part of the rule that fails.
    pub fn pillar_can_open(&self, level: u16, pillar: PillarId) -> Result<(), DungeonError> {
        self.pillar_slot(level, pillar)?;
        let refuse = |why: String| {
            let Slot { row, col } = pillar.connector();
            DungeonError::PillarCannotOpen { level, row, col, tip: pillar.tip(), why }
        };
        if self.layout().gap() <= 0.0 {
            return Err(refuse(
                "the layout's spacing leaves no seams, so there is no pillar to carve".into(),
            ));
        }
        for slot in pillar.cells() {
            if !self.is_carved(Pos { level, slot }) {
                let kind = if slot.kind() == SlotKind::Octagon { "octagon" } else { "connector" };
                return Err(refuse(format!("the {kind} at {slot} is not carved")));
            }
        }
        for seam in pillar.seams() {
            let state = self.edge_state_of(level, seam)?;
            let def = self
                .registry()
                .edge_def(state)
                .ok_or(DungeonError::UnknownId { what: "edge state", id: u32::from(state.0) })?;
            if def.carve != Carve::Full {
                return Err(refuse(format!(
                    "{seam} is {:?}; all three seams round an open pillar must be carved edge-wide (open, not a door)",
                    def.name
                )));
            }
        }
        Ok(())
    }

    /// Sets `pillar` on `level` to `state`. A column may always be set; `open` only where
    /// [`Dungeon::pillar_can_open`] allows it.
    ///
    /// # Errors
    ///
    /// As [`Dungeon::pillar`] for the address, and [`DungeonError::PillarCannotOpen`] for an
    /// open pillar the rule refuses (nothing changes then).
    pub fn set_pillar(
        &mut self,
        level: u16,
        pillar: PillarId,
        state: PillarState,
    ) -> Result<(), DungeonError> {
        let (l, i) = self.pillar_slot(level, pillar)?;
        if state == PillarState::Open {
            self.pillar_can_open(level, pillar)?;
        }
        self.write_pillar(l, i, state);
        Ok(())
    }

    /// Writes one entry of the pillar layers, keeping the level's open count.
    fn write_pillar(&mut self, l: usize, i: usize, state: PillarState) {
        let was = std::mem::replace(&mut self.pillars[l][i], state);
        match (was, state) {
            (PillarState::Column, PillarState::Open) => self.open_pillar_count[l] += 1,
            (PillarState::Open, PillarState::Column) => self.open_pillar_count[l] -= 1,
            _ => {}
        }
    }

    /// The pillars of `level` that are columns now and may be open, whose three cells are
    /// all marked in `mask` (a layer of the dungeon's grid, by slot), in dense-index order.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `level` is not a level of the dungeon;
    /// [`DungeonError::Grid`] (level `level`) when `mask` is not of the dungeon's grid.
    pub fn openable_pillars_within(
        &self,
        level: u16,
        mask: &Grid<bool>,
    ) -> Result<Vec<PillarId>, DungeonError> {
        self.check_level(level)?;
        if mask.dims() != self.dims() {
            let d = mask.dims();
            let source = GridError::BadSize {
                cols: d.octagon_cols(),
                rows: d.octagon_rows(),
                reason: "the mask is not of the dungeon's grid",
            };
            return Err(DungeonError::Grid { level, source });
        }
        let marked = |s: Slot| mask.get(s).copied().unwrap_or(false);
        Ok(self.openable_among(level, self.dims().pillars(), &marked))
    }

    /// Opens every pillar of `level` whose three cells are marked in `mask` and that may be
    /// open ([`Dungeon::openable_pillars_within`]); returns how many it opened. A painted or
    /// generated hall calls it to become one open floor.
    ///
    /// # Errors
    ///
    /// As [`Dungeon::openable_pillars_within`].
    ///
    /// # Panics
    ///
    /// Never: every pillar it opens was just found openable.
    pub fn open_pillars_within(&mut self, level: u16, mask: &Grid<bool>) -> Result<usize, DungeonError> {
        let open = self.openable_pillars_within(level, mask)?;
        for &pillar in &open {
            self.set_pillar(level, pillar, PillarState::Open).expect("invariant: found openable");
        }
        Ok(open.len())
    }

    /// Of `candidates` on `level` (a level of the dungeon), the columns that may be open and
    /// whose three cells are all `marked`.
    pub(crate) fn openable_among(
        &self,
        level: u16,
        candidates: impl Iterator<Item = PillarId>,
        marked: &dyn Fn(Slot) -> bool,
    ) -> Vec<PillarId> {
        candidates
            .filter(|&p| p.cells().into_iter().all(marked))
            .filter(|&p| self.pillar(level, p) == Ok(PillarState::Column))
            .filter(|&p| self.pillar_can_open(level, p).is_ok())
            .collect()
    }

    /// Whether `level` has an open pillar (`false` for a level outside the dungeon); a
    /// constant-time answer from a count the pillar setters keep.
    #[must_use]
    pub fn has_open_pillars_on(&self, level: u16) -> bool {
        self.open_pillar_count.get(usize::from(level)).is_some_and(|&n| n > 0)
    }

    /// The open pillars of `level` that touch the cell at `slot` (none for a bad address).
    pub(crate) fn open_pillars_at_cell(&self, level: u16, slot: Slot) -> Vec<PillarId> {
        if !self.has_open_pillars_on(level) {
            return Vec::new();
        }
        let touching = self.dims().cell_pillars(slot).unwrap_or_default();
        touching.into_iter().filter(|&p| self.is_pillar_open(level, p)).collect()
    }

    /// The open pillars of `level` that touch the seam `edge` (none for a bad address).
    pub(crate) fn open_pillars_at_edge(&self, level: u16, edge: EdgeId) -> Vec<PillarId> {
        if !self.has_open_pillars_on(level) {
            return Vec::new();
        }
        let touching = self.dims().edge_pillars(edge).unwrap_or_default();
        touching.into_iter().filter(|&p| self.is_pillar_open(level, p)).collect()
    }

    /// Turns every pillar of `pillars` on `level` that may no longer be open back into a
    /// column: what the tile and edge setters call after a change that can break the rule.
    pub(super) fn close_broken_pillars(&mut self, level: u16, pillars: &[PillarId]) {
        for &p in pillars {
            if self.pillar_can_open(level, p).is_err()
                && let Ok((l, i)) = self.pillar_slot(level, p)
            {
                self.write_pillar(l, i, PillarState::Column);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::{Proportions, Spacing};
    use crate::grid::Direction;

    fn hall() -> (Dungeon, PillarId) {
        let d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
        (d, PillarId::new(Slot::new(1, 1), Direction::E).unwrap())
    }

    #[test]
    fn an_open_pillar_is_refused_where_a_cell_or_seam_is_not_carved_edge_wide() {
        let (mut d, p) = hall();
        assert_eq!(d.pillar(0, p), Ok(PillarState::Column));
        d.set_edge_of(0, p.seams()[1], Registry::DOOR).unwrap();
        let err = d.set_pillar(0, p, PillarState::Open).unwrap_err();
        let text = err.to_string();
        assert!(matches!(
            err,
            DungeonError::PillarCannotOpen { level: 0, row: 1, col: 1, tip: Direction::E, .. }
        ));
        assert!(
            text.contains("level 0") && text.contains("row 1, col 1") && text.contains("tip E"),
            "{text}"
        );
        assert!(text.contains("\"door\"") && text.contains("not a door"), "{text}");
        d.set_edge_of(0, p.seams()[1], Registry::OPEN).unwrap();
        d.set_tile(Pos { level: 1, slot: p.octagons()[1] }, Registry::SOLID).unwrap();
        let text = d.set_pillar(1, p, PillarState::Open).unwrap_err().to_string();
        assert!(text.contains("the octagon at row 2, col 2 is not carved"), "{text}");
        assert_eq!(d.pillar(1, p), Ok(PillarState::Column), "a refusal changes nothing");
        d.set_pillar(0, p, PillarState::Open).unwrap();
        assert!(d.is_pillar_open(0, p) && d.has_open_pillars());
        d.set_pillar(0, p, PillarState::Open).unwrap();
        assert_eq!(d.open_pillar_count, [1, 0], "setting a state twice counts it once");
        assert_eq!(d.open_pillars().collect::<Vec<_>>(), [(0, p)]);
        let outside = PillarId::new(Slot::new(5, 1), Direction::N).unwrap();
        assert!(matches!(d.pillar(0, outside), Err(DungeonError::Grid { level: 0, .. })));
        assert!(matches!(d.pillar(2, p), Err(DungeonError::Level(_))));
        let tight = Proportions { spacing: Spacing::Tight, ..Proportions::default() };
        let t = Dungeon::new(3, 3, 1, tight, Fill::Floor).unwrap();
        assert!(t.pillar_can_open(0, p).unwrap_err().to_string().contains("no seams"));
    }

    #[test]
    fn closing_a_seam_or_filling_a_cell_turns_the_pillar_back_into_a_column() {
        for breaker in 0..6 {
            let (mut d, p) = hall();
            d.set_pillar(0, p, PillarState::Open).unwrap();
            let others: Vec<PillarId> = d.dims().pillars().filter(|&q| q != p).collect();
            for &q in &others {
                d.set_pillar(0, q, PillarState::Open).unwrap();
            }
            if breaker < 3 {
                d.set_edge_of(0, p.seams()[breaker], Registry::WALL).unwrap();
            } else {
                d.set_tile(Pos { level: 0, slot: p.cells()[breaker - 3] }, Registry::SOLID).unwrap();
            }
            assert_eq!(d.pillar(0, p), Ok(PillarState::Column), "breaker {breaker}");
            let counted = d.pillar_layer(0).unwrap().iter().filter(|s| **s == PillarState::Open).count();
            assert_eq!(d.open_pillar_count[0], counted, "breaker {breaker}");
            // A change that keeps the rule (a floor painted over with a stair) keeps it open.
            for &q in &others {
                assert_eq!(d.is_pillar_open(0, q), d.pillar_can_open(0, q).is_ok(), "{q}");
            }
        }
        let (mut d, p) = hall();
        d.set_pillar(0, p, PillarState::Open).unwrap();
        d.set_tile(Pos { level: 0, slot: p.octagons()[0] }, Registry::STAIR).unwrap();
        assert!(d.is_pillar_open(0, p), "a stair is carved");
    }

    #[test]
    fn a_mask_opens_only_the_pillars_inside_it() {
        let (mut d, _) = hall();
        let mut mask = Grid::filled(d.dims(), false);
        // The top-left 2x2 octagons and their connector: the connector's four pillars are
        // inside, no other.
        for slot in d.dims().cells().filter(|s| s.row <= 2 && s.col <= 2) {
            *mask.get_mut(slot).unwrap() = true;
        }
        assert_eq!(d.open_pillars_within(0, &mask), Ok(4));
        let open: Vec<_> = d.open_pillars().map(|(_, p)| p.connector()).collect();
        assert_eq!(open, [Slot::new(1, 1); 4]);
        assert_eq!(d.open_pillars_within(0, &mask), Ok(0), "already open");
        let other = Grid::filled(crate::grid::Dims::from_octagons(2, 2).unwrap(), true);
        assert!(matches!(d.open_pillars_within(0, &other), Err(DungeonError::Grid { .. })));
    }
}
