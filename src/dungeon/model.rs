//! `Dungeon`: levels of cell tiles and edge states over one grid, with proportions and a
//! registry. One dense layer per property.

use super::rooms::RoomTable;
use super::{Carve, DungeonError, EdgeStateId, PillarState, Registry, Stairs, TileDef, TileId};
use crate::geometry::{Layout, Proportions};
use crate::grid::{Dims, Direction, EdgeId, Grid, GridError, Pos, Slot, SlotKind};

/// Most cells (slots x levels) a dungeon may hold: 64 Mi slots (about 500 MB of layers).
pub const MAX_SLOTS: u64 = 64 * 1024 * 1024;

/// Most levels a dungeon may have.
pub const MAX_LEVELS: u32 = 256;

/// What a new dungeon is filled with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fill {
    /// Every cell solid, every edge a wall.
    #[default]
    Solid,
    /// Every cell floor, every edge open.
    Floor,
}

/// A multi-level dungeon on the octile grid.
///
/// Per level it holds a tile per cell, an edge state per edge, a pin per cell and a state
/// per pillar ([`crate::dungeon::PillarState`]: rock or open, see [`Dungeon::set_pillar`]).
///
/// Besides its layers it keeps its stair table ([`Dungeon::stairs`]), updated by every
/// setter for the stairs a change can touch, so the table always equals one computed from
/// scratch.
#[derive(Debug, Clone, PartialEq)]
pub struct Dungeon {
    dims: Dims,
    layout: Layout,
    pub(super) registry: Registry,
    pub(super) tiles: Vec<Grid<TileId>>,
    pub(super) edges: Vec<Vec<EdgeStateId>>,
    pub(super) entrance: Option<Pos>,
    pub(super) exit: Option<Pos>,
    pub(super) seed: Option<u64>,
    /// Per level, the cells locked against re-solving ([`Dungeon::is_pinned`]).
    pub(super) pins: Vec<Grid<bool>>,
    /// Per level, each cell's set room height, `None` for the default
    /// ([`Dungeon::room_height_at`]).
    pub(super) heights: Vec<Grid<Option<super::RoomHeight>>>,
    /// How many cells of `heights` are set (kept by the height setters).
    pub(super) heights_set: usize,
    /// Per level, every pillar's state by [`Dims::pillar_index`] (all columns by default).
    pub(super) pillars: Vec<Vec<PillarState>>,
    /// Per level, how many of its pillars are open (kept by the pillar setters, so a level
    /// without open pillars skips the revert check of every tile and edge change).
    pub(super) open_pillar_count: Vec<usize>,
    pub(super) stairs: Stairs,
    /// The rooms and passages the dungeon was built from ([`Dungeon::rooms`]).
    pub(super) rooms: RoomTable,
    /// The lock ids of locked doors and where their keys lie ([`Dungeon::lock_at`]).
    pub(super) mission: super::mission::MissionLayer,
    /// The ramps, in order ([`Dungeon::ramps`]).
    pub(super) ramps: Vec<super::Ramp>,
}

impl Dungeon {
    /// A dungeon of `cols x rows` octagons and `levels` levels with the standard registry.
    ///
    /// # Errors
    ///
    /// As [`Dungeon::check_shape`] for the size and level count, and
    /// [`DungeonError::Geometry`] when `proportions` do not validate.
    pub fn new(
        cols: u32,
        rows: u32,
        levels: u32,
        proportions: Proportions,
        fill: Fill,
    ) -> Result<Dungeon, DungeonError> {
        Self::with_registry(cols, rows, levels, proportions, Registry::standard(), fill)
    }

    /// A dungeon with a custom registry; `fill` uses its first rock / plain floor tile and
    /// its first wall / open edge state.
    ///
    /// # Errors
    ///
    /// As [`Dungeon::check_shape`] for the size and level count;
    /// [`DungeonError::Geometry`] when `proportions` do not validate;
    /// [`DungeonError::Registry`] when `registry` lacks the tile or edge state `fill` needs
    /// (rock and wall for [`Fill::Solid`], plain floor and open for [`Fill::Floor`]).
    pub fn with_registry(
        cols: u32,
        rows: u32,
        levels: u32,
        proportions: Proportions,
        registry: Registry,
        fill: Fill,
    ) -> Result<Dungeon, DungeonError> {
        let dims = Self::check_shape(cols, rows, levels)?;
        let layout = Layout::new(proportions)?;
        let missing = |what: &str| DungeonError::Registry { what: format!("fill needs a {what}") };
        let (tile, edge) = match fill {
            Fill::Solid => (
                registry.rock().ok_or_else(|| missing("rock tile"))?,
                registry.wall_edge().ok_or_else(|| missing("wall edge state"))?,
            ),
            Fill::Floor => (
                registry.plain_floor().ok_or_else(|| missing("floor tile"))?,
                registry.open_edge().ok_or_else(|| missing("open edge state"))?,
            ),
        };
        let levels = levels as usize;
        Ok(Dungeon {
            dims,
            layout,
            registry,
            tiles: vec![Grid::filled(dims, tile); levels],
            edges: vec![vec![edge; dims.edge_index_len()]; levels],
            entrance: None,
            exit: None,
            seed: None,
            pins: vec![Grid::filled(dims, false); levels],
            heights: vec![Grid::filled(dims, None); levels],
            heights_set: 0,
            pillars: vec![vec![PillarState::Column; dims.pillar_index_len()]; levels],
            open_pillar_count: vec![0; levels],
            // The fills hold no stair tile (rock and plain floor are not stairs).
            stairs: Stairs::empty(dims),
            rooms: RoomTable::default(),
            mission: super::mission::MissionLayer::default(),
            ramps: Vec::new(),
        })
    }

    /// Checks a size and level count against the grid's and the dungeon's limits.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Grid`] (level 0, with [`GridError::BadSize`]) when `cols` or `rows` is 0
    /// or above [`crate::grid::MAX_OCTAGONS_PER_SIDE`]; [`DungeonError::BadShape`] when
    /// `levels` is not in `1..=`[`MAX_LEVELS`] or the dungeon would hold more than
    /// [`MAX_SLOTS`] slots over all its levels.
    pub fn check_shape(cols: u32, rows: u32, levels: u32) -> Result<Dims, DungeonError> {
        let dims =
            Dims::from_octagons(cols, rows).map_err(|source| DungeonError::Grid { level: 0, source })?;
        let shape_err = |reason: String| DungeonError::BadShape { cols, rows, levels, reason };
        if levels == 0 || levels > MAX_LEVELS {
            return Err(shape_err(format!("levels must be from 1 to {MAX_LEVELS}")));
        }
        if dims.slot_count() as u64 * u64::from(levels) > MAX_SLOTS {
            return Err(shape_err(format!("more than {MAX_SLOTS} slots in all (about 8 bytes each)")));
        }
        Ok(dims)
    }

    /// Slot dimensions of every level.
    #[must_use]
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// Number of levels.
    #[must_use]
    pub fn levels(&self) -> u16 {
        self.tiles.len() as u16
    }

    /// The world proportions.
    #[must_use]
    pub fn proportions(&self) -> &Proportions {
        self.layout.proportions()
    }

    /// The grid-to-world mapping for this dungeon's proportions.
    #[must_use]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The stair table: every stair with its exit, landing and hole, kept current as tiles
    /// and edges change.
    #[must_use]
    pub fn stairs(&self) -> &Stairs {
        &self.stairs
    }

    /// The registry of tiles and edge states.
    #[must_use]
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    pub(super) fn check_level(&self, level: u16) -> Result<usize, DungeonError> {
        if level < self.levels() {
            Ok(usize::from(level))
        } else {
            Err(DungeonError::Level(GridError::LevelOutOfRange { level, levels: self.levels() }))
        }
    }

    pub(super) fn cell(&self, pos: Pos) -> Result<(usize, SlotKind), DungeonError> {
        let l = self.check_level(pos.level)?;
        let kind = self
            .dims
            .cell_kind(pos.slot)
            .map_err(|source| DungeonError::Grid { level: pos.level, source })?;
        Ok((l, kind))
    }

    /// The tile of the cell at `pos`.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `pos.level` is not a level of the dungeon;
    /// [`DungeonError::Grid`] (with [`GridError::OutOfBounds`] or [`GridError::WrongKind`]) when
    /// `pos.slot` is outside the grid or a Void slot.
    pub fn tile(&self, pos: Pos) -> Result<TileId, DungeonError> {
        let (l, _) = self.cell(pos)?;
        self.tiles[l].get(pos.slot).copied().map_err(|source| DungeonError::Grid { level: pos.level, source })
    }

    /// The definition of the tile at `pos`, `None` where [`Dungeon::tile_def`] is an error:
    /// the cheap form for rules that ask many cells (no error is built).
    #[inline]
    pub(crate) fn cell_def(&self, pos: Pos) -> Option<&TileDef> {
        let layer = self.tiles.get(usize::from(pos.level))?;
        if !pos.slot.kind().is_cell() {
            return None;
        }
        self.registry.tile_def(*layer.get(pos.slot).ok()?)
    }

    /// The definition of the tile at `pos`.
    ///
    /// # Errors
    ///
    /// As [`Dungeon::tile`]. (Only registered ids are ever stored, so the lookup in the
    /// registry itself does not fail; were it to, the answer would be
    /// [`DungeonError::UnknownId`].)
    pub fn tile_def(&self, pos: Pos) -> Result<&TileDef, DungeonError> {
        let id = self.tile(pos)?;
        self.registry.tile_def(id).ok_or(DungeonError::UnknownId { what: "tile", id: u32::from(id.0) })
    }

    /// Sets the tile at `pos`. Stairs must stand on an octagon below the top level. A tile
    /// that is not carved turns the open pillars round the cell back into columns
    /// ([`Dungeon::pillar_can_open`]).
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `pos.level` is not a level of the dungeon;
    /// [`DungeonError::Grid`] (with [`GridError::OutOfBounds`] or [`GridError::WrongKind`]) when
    /// `pos.slot` is outside the grid or a Void slot.
    /// [`DungeonError::UnknownId`] when the registry does not define `tile`;
    /// [`DungeonError::StairOffOctagon`] for a stair tile on a connector;
    /// [`DungeonError::StairOffTop`] for a stair tile on the top level.
    ///
    /// # Panics
    ///
    /// Never: the `expect`s restate that `pos` was checked to be a cell of the dungeon.
    pub fn set_tile(&mut self, pos: Pos, tile: TileId) -> Result<(), DungeonError> {
        let (l, kind) = self.cell(pos)?;
        let def = self
            .registry
            .tile_def(tile)
            .ok_or(DungeonError::UnknownId { what: "tile", id: u32::from(tile.0) })?;
        let Slot { row, col } = pos.slot;
        if def.stair {
            if kind != SlotKind::Octagon {
                return Err(DungeonError::StairOffOctagon { level: pos.level, row, col, kind });
            }
            if pos.level + 1 >= self.levels() {
                return Err(DungeonError::StairOffTop { level: pos.level, row, col, levels: self.levels() });
            }
        }
        *self.tiles[l].get_mut(pos.slot).expect("invariant: checked cell") = tile;
        if !def.carved {
            let open = self.open_pillars_at_cell(pos.level, pos.slot);
            self.close_broken_pillars(pos.level, &open);
        }
        let mut around = vec![pos.slot];
        for &dir in self.dims.walls(pos.slot).expect("invariant: checked cell") {
            around.extend(self.dims.neighbor(pos.slot, dir).expect("invariant: checked cell"));
        }
        self.refresh_stairs(pos.level, &around);
        Ok(())
    }

    /// The dense tile layer of one level (row-major over all slots; Void entries unused).
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `level` is not a level of the dungeon.
    pub fn tile_layer(&self, level: u16) -> Result<&Grid<TileId>, DungeonError> {
        Ok(&self.tiles[self.check_level(level)?])
    }

    /// The state of wall `dir` of the cell at `pos`, or `None` on the grid's border (a wall
    /// facing solid rock).
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `pos.level` is not a level of the dungeon;
    /// [`DungeonError::Grid`] when `pos.slot` is outside the grid or a Void slot
    /// ([`GridError::OutOfBounds`], [`GridError::WrongKind`]) or `dir` is not one of its walls
    /// ([`GridError::NoSuchWall`]: a connector has only the four diagonal walls).
    pub fn edge_state(&self, pos: Pos, dir: Direction) -> Result<Option<EdgeStateId>, DungeonError> {
        self.check_level(pos.level)?;
        self.dims.edge(pos.slot, dir).map_err(|source| DungeonError::Grid { level: pos.level, source })?;
        Ok(self.edge_state_at(pos, dir))
    }

    /// The state of wall `dir` of the cell at `pos`, `None` where [`Dungeon::edge_state`]
    /// is an error or has no edge (the grid's border): the cheap form for rules that ask
    /// many walls.
    #[inline]
    pub(crate) fn edge_state_at(&self, pos: Pos, dir: Direction) -> Option<EdgeStateId> {
        self.wall_state_at(pos, dir).map(|(_, state)| state)
    }

    /// The cell across wall `dir` of the cell at `pos` and that wall's state, read once;
    /// `None` as for [`Dungeon::edge_state_at`].
    #[inline]
    pub(crate) fn wall_state_at(&self, pos: Pos, dir: Direction) -> Option<(Slot, EdgeStateId)> {
        let layer = self.edges.get(usize::from(pos.level))?;
        let (beyond, edge) = self.dims.wall_beyond(pos.slot, dir).ok()??;
        Some((beyond, *layer.get(self.dims.edge_index(edge).ok()?)?))
    }

    /// The state of a canonical edge on `level`.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `level` is not a level of the dungeon;
    /// [`DungeonError::Grid`] when `edge` names no edge of the grid (as
    /// [`Dims::edge_sides`]: [`GridError::OutOfBounds`] or [`GridError::WrongKind`]).
    ///
    /// # Panics
    ///
    /// Never: the `expect` restates that `edge` was just checked.
    pub fn edge_state_of(&self, level: u16, edge: EdgeId) -> Result<EdgeStateId, DungeonError> {
        let l = self.check_level(level)?;
        self.dims.edge_sides(edge).map_err(|source| DungeonError::Grid { level, source })?;
        Ok(self.edges[l][self.dims.edge_index(edge).expect("invariant: checked edge")])
    }

    /// Sets wall `dir` of the cell at `pos`; both cells that share the edge see the change.
    ///
    /// # Errors
    ///
    /// As [`Dungeon::edge_state`] for `pos` and `dir`; [`DungeonError::BorderEdge`] when
    /// that wall is on the grid's border (it carries no state); as [`Dungeon::set_edge_of`]
    /// for `state` ([`DungeonError::UnknownId`]).
    pub fn set_edge(&mut self, pos: Pos, dir: Direction, state: EdgeStateId) -> Result<(), DungeonError> {
        self.check_level(pos.level)?;
        let edge = self
            .dims
            .edge(pos.slot, dir)
            .map_err(|source| DungeonError::Grid { level: pos.level, source })?;
        let Some(edge) = edge else {
            let Slot { row, col } = pos.slot;
            return Err(DungeonError::BorderEdge { level: pos.level, row, col, dir });
        };
        self.set_edge_of(pos.level, edge, state)
    }

    /// Sets a canonical edge on `level`. A state that does not carve the seam edge-wide
    /// turns the open pillars at its ends back into columns ([`Dungeon::pillar_can_open`]).
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `level` is not a level of the dungeon;
    /// [`DungeonError::UnknownId`] when the registry does not define `state`;
    /// [`DungeonError::Grid`] when `edge` names no edge of the grid (as
    /// [`Dims::edge_sides`]).
    ///
    /// # Panics
    ///
    /// Never: the `expect`s restate that `edge` was just checked.
    pub fn set_edge_of(&mut self, level: u16, edge: EdgeId, state: EdgeStateId) -> Result<(), DungeonError> {
        let l = self.check_level(level)?;
        self.registry
            .edge_def(state)
            .ok_or(DungeonError::UnknownId { what: "edge state", id: u32::from(state.0) })?;
        self.dims.edge_sides(edge).map_err(|source| DungeonError::Grid { level, source })?;
        let i = self.dims.edge_index(edge).expect("invariant: checked edge");
        self.edges[l][i] = state;
        if self.registry.mechanism(state) != Some(super::Mechanism::Locked) {
            self.mission.forget_lock(level, edge);
        }
        if self.registry.edge_def(state).is_none_or(|def| def.carve != Carve::Full) {
            let open = self.open_pillars_at_edge(level, edge);
            self.close_broken_pillars(level, &open);
        }
        let sides = self.dims.edge_sides(edge).expect("invariant: checked edge");
        let mut stairs = std::mem::take(&mut self.stairs);
        stairs.refresh_exits(self, level, &sides.map(|(slot, _)| slot));
        self.stairs = stairs;
        Ok(())
    }

    /// The dense edge layer of one level, indexed by [`Dims::edge_index`].
    ///
    /// # Errors
    ///
    /// [`DungeonError::Level`] when `level` is not a level of the dungeon.
    pub fn edge_layer(&self, level: u16) -> Result<&[EdgeStateId], DungeonError> {
        Ok(&self.edges[self.check_level(level)?])
    }

    /// Brings the stair table up to date after a change to the cells `slots` of `level`.
    fn refresh_stairs(&mut self, level: u16, slots: &[Slot]) {
        let mut stairs = std::mem::take(&mut self.stairs);
        stairs.refresh(self, level, slots);
        self.stairs = stairs;
    }

    /// Every cell position of every level, level by level, row-major.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.levels()).flat_map(move |l| self.dims.cells().map(move |s| Pos { level: l, slot: s }))
    }

    /// Builds a dungeon from raw layers (the file loader's path); callers then check
    /// [`Dungeon::problems`].
    pub(crate) fn from_parts(
        dims: Dims,
        proportions: Proportions,
        registry: Registry,
        tiles: Vec<Grid<TileId>>,
        edges: Vec<Vec<EdgeStateId>>,
    ) -> Result<Dungeon, DungeonError> {
        let layout = Layout::new(proportions)?;
        let pins = vec![Grid::filled(dims, false); tiles.len()];
        let heights = vec![Grid::filled(dims, None); tiles.len()];
        let pillars = vec![vec![PillarState::Column; dims.pillar_index_len()]; tiles.len()];
        let mut dungeon = Dungeon {
            dims,
            layout,
            registry,
            tiles,
            edges,
            entrance: None,
            exit: None,
            seed: None,
            pins,
            heights,
            heights_set: 0,
            open_pillar_count: vec![0; pillars.len()],
            pillars,
            stairs: Stairs::default(),
            rooms: RoomTable::default(),
            mission: super::mission::MissionLayer::default(),
            ramps: Vec::new(),
        };
        dungeon.stairs = Stairs::of(&dungeon);
        Ok(dungeon)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Dungeon {
        Dungeon::new(3, 3, 2, Proportions::default(), Fill::Solid).unwrap()
    }

    #[test]
    fn shared_edges_have_one_state() {
        let mut d = small();
        let p = Pos::new(0, 2, 2);
        d.set_edge(p, Direction::E, Registry::OPEN).unwrap();
        assert_eq!(d.edge_state(Pos::new(0, 2, 4), Direction::W).unwrap(), Some(Registry::OPEN));
        d.set_edge(p, Direction::NE, Registry::DOOR).unwrap();
        assert_eq!(d.edge_state(Pos::new(0, 1, 3), Direction::SW).unwrap(), Some(Registry::DOOR));
        assert_eq!(d.edge_state(Pos::new(1, 1, 3), Direction::SW).unwrap(), Some(Registry::WALL));
    }

    #[test]
    fn stairs_are_checked() {
        let mut d = small();
        assert!(matches!(
            d.set_tile(Pos::new(0, 1, 1), Registry::STAIR),
            Err(DungeonError::StairOffOctagon { .. })
        ));
        assert!(matches!(
            d.set_tile(Pos::new(1, 0, 0), Registry::STAIR),
            Err(DungeonError::StairOffTop { .. })
        ));
        d.set_tile(Pos::new(0, 0, 0), Registry::STAIR).unwrap();
        assert!(matches!(
            d.problems().as_slice(),
            [DungeonError::StairLandsOnRock { level: 0, row: 0, col: 0 }]
        ));
        d.set_tile(Pos::new(1, 0, 0), Registry::FLOOR).unwrap();
        assert!(d.problems().is_empty());
        let mut tall = Dungeon::new(3, 3, 3, Proportions::default(), Fill::Floor).unwrap();
        tall.set_tile(Pos::new(0, 2, 2), Registry::STAIR).unwrap();
        tall.set_tile(Pos::new(1, 2, 2), Registry::STAIR).unwrap();
        let problems = tall.problems();
        assert_eq!(problems, [DungeonError::StairOnStair { level: 0, row: 2, col: 2 }]);
        assert!(
            problems[0].to_string().contains("level 0: stair at row 2, col 2 lands on the stair at level 1")
        );
    }

    #[test]
    fn bad_addresses_are_errors() {
        let mut d = small();
        assert!(matches!(d.tile(Pos::new(2, 0, 0)), Err(DungeonError::Level(_))));
        assert!(matches!(d.tile(Pos::new(0, 0, 1)), Err(DungeonError::Grid { level: 0, .. })));
        assert!(matches!(
            d.set_edge(Pos::new(0, 0, 0), Direction::N, Registry::OPEN),
            Err(DungeonError::BorderEdge { .. })
        ));
        assert!(matches!(d.set_tile(Pos::new(0, 0, 0), TileId(99)), Err(DungeonError::UnknownId { .. })));
        assert!(matches!(
            d.set_edge(Pos::new(0, 0, 0), Direction::E, EdgeStateId(99)),
            Err(DungeonError::UnknownId { .. })
        ));
        assert!(matches!(
            Dungeon::new(3, 3, 0, Proportions::default(), Fill::Solid),
            Err(DungeonError::BadShape { .. })
        ));
        assert!(matches!(
            Dungeon::new(4096, 4096, 4, Proportions::default(), Fill::Solid),
            Err(DungeonError::BadShape { .. })
        ));
        assert!(matches!(
            Dungeon::new(3, 3, 1, Proportions { cut_ratio: 0.7, ..Default::default() }, Fill::Solid),
            Err(DungeonError::Geometry(_))
        ));
    }
}
