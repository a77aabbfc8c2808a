//! Columns across storeys (docs/design.md, "Columns across storeys"): a cell's carved space
//! may run up through the storeys above it, whose cells over it are *void* (carved, no
//! floor). This module owns every rule of it: which tile is void ([`Dungeon::void_tile`]),
//! what is open above ([`Dungeon::open_above`], [`Dungeon::seam_open_above`],
//! [`Dungeon::pillar_open_above`]), where a deck stands ([`Dungeon::under_deck`]), where one
//! lands after a drop ([`Dungeon::drop_landing`]), which edges carry a railing
//! ([`Dungeon::railing_edges`]) and what a column may not hold
//! ([`Dungeon::column_problems`]).

use super::{Carve, Dungeon, DungeonError, EdgeStateId, Mechanism, Registry, TileId};
use glam::DVec2;

use crate::grid::{Direction, EdgeId, PillarId, Pos, Slot};

/// Thickness of a deck (metres): the rock under a floor cell that stands over an atrium's
/// carved space, beside a void (a bridge or the edge of a balcony).
pub const DECK_THICKNESS: f64 = 0.5;

/// Height of a railing above its floor (metres).
pub const RAILING_HEIGHT: f64 = 1.0;

/// Thickness of a railing (metres), from the void's edge in over the floor side.
pub const RAILING_THICKNESS: f64 = 0.15;

/// One railing: an open edge of `level` between a floor (or stair) cell and a void cell
/// whose edge state is not a drop point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct RailingEdge {
    /// The level the railing stands on.
    pub level: u16,
    /// The edge.
    pub edge: EdgeId,
    /// The cell on the floor side.
    pub floor: Slot,
    /// The void cell, and its wall that the edge is.
    pub void: (Slot, Direction),
}

/// Where a railing stands in plan ([`Dungeon::railing_line`]), world `(x, z)` metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RailingLine {
    /// Its start, on the void cell's wall.
    pub start: DVec2,
    /// Unit direction along it; `(-along.y, along.x)` points over the floor side.
    pub along: DVec2,
    /// Its length (metres): the void cell's wall.
    pub length: f64,
}

impl RailingLine {
    /// The railing's footprint: the rectangle from the void's wall [`RAILING_THICKNESS`]
    /// over the floor side, counter-clockwise seen from above (positive in the crate's
    /// `(x, z)` plan, [`crate::geometry::signed_area`]).
    #[must_use]
    pub fn footprint(&self) -> [DVec2; 4] {
        let end = self.start + self.along * self.length;
        let over = DVec2::new(-self.along.y, self.along.x) * RAILING_THICKNESS;
        crate::geometry::make_positive([self.start, end, end + over, self.start + over])
    }
}

/// One drop: a drop-point edge of `level` from a cell that is not void into a void cell,
/// and where one who steps across it lands ([`Dungeon::drop_landing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Drop {
    /// The edge.
    pub edge: EdgeId,
    /// The cell it is stepped off, and its wall that the edge is.
    pub from: (Pos, Direction),
    /// The void cell stepped into.
    pub into: Pos,
    /// The walkable cell down the void's column one lands on.
    pub landing: Pos,
}

/// One edge of a void's rim ([`Dungeon::rim`]): its two sides as (cell, wall) and whether
/// it is a drop point.
struct Rim {
    edge: EdgeId,
    floor: (Slot, Direction),
    void: (Slot, Direction),
    drop: bool,
}

impl Dungeon {
    /// Every drop of `level`, in dense edge order: each rim edge ([`Dungeon::railing_edges`]'s
    /// edges and these together) whose state is a drop point, from the cell that is not void
    /// into the void, where the void's column lands on a walkable cell.
    #[must_use]
    pub fn drops(&self, level: u16) -> Vec<Drop> {
        let rim = self.rim(level).into_iter().filter(|r| r.drop);
        rim.filter_map(|r| {
            let into = Pos { level, slot: r.void.0 };
            let landing = self.drop_landing(into)?;
            Some(Drop { edge: r.edge, from: (Pos { level, slot: r.floor.0 }, r.floor.1), into, landing })
        })
        .collect()
    }

    /// The rim of `level`'s voids, in dense edge order: every edge carved edge-wide between
    /// a void cell and a cell that is not, with whether its state is a drop point, but for
    /// the tops of ramps ([`Dungeon::is_ramp_top`]). The one reading that railings and drops
    /// are both taken from.
    fn rim(&self, level: u16) -> Vec<Rim> {
        if !self.may_have_voids() {
            return Vec::new();
        }
        self.dims().edges().filter_map(|edge| self.rim_edge(level, edge)).collect()
    }

    /// Edge `edge` of `level` as a rim edge of a void ([`Dungeon::rim`]), when it is one.
    fn rim_edge(&self, level: u16, edge: EdgeId) -> Option<Rim> {
        let sides = self.dims().edge_sides(edge).ok()?;
        let void = sides.map(|(slot, _)| self.is_void(Pos { level, slot }));
        if void[0] == void[1] || self.is_ramp_top(level, edge) {
            return None;
        }
        let (slot, dir) = sides[0];
        let def = self.carved_seam(Pos { level, slot }, dir).filter(|d| d.carve == Carve::Full)?;
        let (void, floor) = if void[0] { (sides[0], sides[1]) } else { (sides[1], sides[0]) };
        Some(Rim { edge, floor, void, drop: def.drop })
    }

    /// The railing on edge `edge` of `level`, when it carries one ([`Dungeon::railing_edges`]'s
    /// rule, for one edge: what sight asks of each seam it crosses).
    #[must_use]
    pub fn railing_at(&self, level: u16, edge: EdgeId) -> Option<RailingEdge> {
        if !self.may_have_voids() {
            return None;
        }
        let r = self.rim_edge(level, edge).filter(|r| !r.drop)?;
        Some(RailingEdge { level, edge: r.edge, floor: r.floor.0, void: r.void })
    }

    /// Where the railing `rail` stands in plan: along its void cell's wall, from the end
    /// that puts the floor side on its left (`(-along.y, along.x)` points over the floor).
    /// `None` when the void's wall has no segment (a wall the layout does not have).
    #[must_use]
    pub fn railing_line(&self, rail: &RailingEdge) -> Option<RailingLine> {
        let layout = self.layout();
        let (void, dir) = rail.void;
        let [a, b] = layout.wall(void, dir)?;
        let length = a.distance(b);
        let along = (b - a) / length;
        let out_of_void = (a + b) / 2.0 - layout.center(void);
        let (start, along) =
            if DVec2::new(-along.y, along.x).dot(out_of_void) >= 0.0 { (a, along) } else { (b, -along) };
        Some(RailingLine { start, along, length })
    }

    /// The dungeon's void tile: the registry's first ([`Registry::void_tile`]), or the
    /// standard one ([`Registry::standard_void`]) added now.
    ///
    /// # Errors
    /// As [`Registry::add_tile`] when the registry has no room for it or its name or symbol
    /// is taken.
    pub fn void_tile(&mut self) -> Result<TileId, DungeonError> {
        match self.registry.void_tile() {
            Some(id) => Ok(id),
            None => self.registry.add_tile(Registry::standard_void()),
        }
    }

    /// The dungeon's drop-point edge state: the registry's first
    /// ([`Registry::drop_state`]), or the standard one ([`Registry::standard_drop`]) added
    /// now.
    ///
    /// # Errors
    /// As [`Registry::add_edge`] when the registry has no room for it or its name or symbol
    /// is taken.
    pub fn drop_state(&mut self) -> Result<EdgeStateId, DungeonError> {
        match self.registry.drop_state() {
            Some(id) => Ok(id),
            None => self.add_edge_state(Registry::standard_drop()),
        }
    }

    /// Makes the registry know the standard state called `name` when it has nothing of that
    /// name yet: the void tile `void` ([`Dungeon::void_tile`]), the drop point `drop`
    /// ([`Dungeon::drop_state`]) or a mission door (`door_locked`, `door_one_way`,
    /// `door_one_way_back`, `door_secret`: [`Dungeon::mission_state`]), the states a
    /// dungeon gets only once it needs them. False for any other name (nothing changes).
    ///
    /// # Errors
    /// As [`Dungeon::void_tile`] when the registry has no room for it or its symbol is taken.
    pub fn add_standard_state(&mut self, name: &str) -> Result<bool, DungeonError> {
        if self.registry.tile(name).is_some() || self.registry.edge(name).is_some() {
            return Ok(false);
        }
        if name == Registry::standard_void().name {
            self.void_tile()?;
        } else if name == Registry::standard_drop().name {
            self.drop_state()?;
        } else if let Some(m) =
            Mechanism::ALL.into_iter().find(|&m| Registry::standard_mission_door(m).name == name)
        {
            self.mission_state(m)?;
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    /// Whether the registry has a void tile, so that some columns may run through storeys
    /// (cheap: readers skip every column rule when it does not).
    #[must_use]
    pub fn may_have_voids(&self) -> bool {
        self.registry.void_tile().is_some()
    }

    /// Whether the cell at `pos` is void; `false` outside the dungeon.
    #[must_use]
    pub fn is_void(&self, pos: Pos) -> bool {
        self.cell_def(pos).is_some_and(|def| def.void)
    }

    /// Whether the cell at `pos` is carved and open above: the cell over it on the next
    /// level is void, so its carved space runs on up with no ceiling. A stair never is
    /// (a void over a stair is a [`Dungeon::column_problems`] problem).
    #[must_use]
    pub fn open_above(&self, pos: Pos) -> bool {
        self.may_have_voids()
            && pos.level + 1 < self.levels()
            && self.is_void(Pos { level: pos.level + 1, ..pos })
            && self.cell_def(pos).is_some_and(|def| def.carved && !def.stair)
    }

    /// Whether the seam `edge` of `level` is open above: carved edge-wide on `level` and on
    /// the level above, with both its cells void there, so no slab closes it.
    #[must_use]
    pub fn seam_open_above(&self, level: u16, edge: EdgeId) -> bool {
        if !self.may_have_voids() {
            return false;
        }
        let Ok([(slot, dir), (other, _)]) = self.dims().edge_sides(edge) else { return false };
        let full = |level: u16| {
            self.carved_seam(Pos { level, slot }, dir).is_some_and(|def| def.carve == Carve::Full)
        };
        let up = level + 1;
        full(level)
            && full(up)
            && self.is_void(Pos { level: up, slot })
            && self.is_void(Pos { level: up, slot: other })
    }

    /// Whether the open pillar `pillar` of `level` is open above: open on the level above
    /// too, with its three cells void there.
    #[must_use]
    pub fn pillar_open_above(&self, level: u16, pillar: PillarId) -> bool {
        let up = level + 1;
        self.may_have_voids()
            && self.is_pillar_open(level, pillar)
            && self.is_pillar_open(up, pillar)
            && pillar.cells().iter().all(|&slot| self.is_void(Pos { level: up, slot }))
    }

    /// Whether the cell at `pos` stands under a deck: carved, not a stair, not open above,
    /// beside a cell open above across an edge-wide seam (part of an atrium's space), with a
    /// floor over it that meets a void across an edge-wide seam (a bridge or a balcony's
    /// edge). Its ceiling is then the deck's underside, [`DECK_THICKNESS`] under the next
    /// floor ([`Dungeon::room_height_at`]).
    #[must_use]
    pub fn under_deck(&self, pos: Pos) -> bool {
        if !self.may_have_voids() || self.open_above(pos) {
            return false;
        }
        let above = Pos { level: pos.level + 1, ..pos };
        let (Some(here), Some(up)) = (self.cell_def(pos), self.cell_def(above)) else { return false };
        if !here.carved || here.stair || !up.carved || up.void {
            return false;
        }
        // The cell beyond first: it is a tile lookup, the seam's carve is dearer.
        let beside = |p: Pos, want: &dyn Fn(Pos) -> bool| {
            self.dims().walls(p.slot).unwrap_or(&[]).iter().any(|&dir| {
                let beyond = self.dims().neighbor(p.slot, dir).ok().flatten();
                beyond.is_some_and(|slot| want(Pos { slot, ..p }))
                    && self.carved_seam(p, dir).is_some_and(|def| def.carve == Carve::Full)
            })
        };
        beside(above, &|p| self.is_void(p)) && beside(pos, &|p| self.open_above(p))
    }

    /// Where one lands who falls into the void cell at `pos`: the first cell down its
    /// column that is not void, when it is walkable (`None` when `pos` is not void or the
    /// column ends on something one cannot stand on).
    #[must_use]
    pub fn drop_landing(&self, pos: Pos) -> Option<Pos> {
        if !self.is_void(pos) {
            return None;
        }
        let mut level = pos.level;
        while level > 0 {
            level -= 1;
            let below = Pos { level, ..pos };
            let def = self.tile_def(below).ok()?;
            if !def.void {
                return def.walkable.then_some(below);
            }
        }
        None
    }

    /// Every railing of `level`, in dense edge order: each edge carved edge-wide between a
    /// void cell and a cell that is not void, whose state is not a drop point
    /// ([`super::EdgeDef::drop`](super::EdgeDef#structfield.drop)).
    #[must_use]
    pub fn railing_edges(&self, level: u16) -> Vec<RailingEdge> {
        let rim = self.rim(level).into_iter().filter(|r| !r.drop);
        rim.map(|r| RailingEdge { level, edge: r.edge, floor: r.floor.0, void: r.void }).collect()
    }

    /// The problems of [`Dungeon::problems`] with the columns of `level`: first its ramps'
    /// ([`Dungeon::ramp_problems`]), then in (row, col) order a void cell on the ground
    /// level or over rock or a stair, and a door on a wall of a void cell or of a cell open
    /// above (a door's wall stops under the slab that such a cell has not).
    #[must_use]
    pub fn column_problems(&self, level: u16) -> Vec<DungeonError> {
        let mut out = self.ramp_problems(level);
        if !self.may_have_voids() {
            return out;
        }
        for slot in self.dims().cells() {
            let pos = Pos { level, slot };
            let Slot { row, col } = slot;
            if self.is_void(pos) {
                let below = level.checked_sub(1).and_then(|l| self.tile_def(Pos { level: l, slot }).ok());
                let why = match below {
                    None => Some("it is on the ground level"),
                    Some(def) if !def.carved => Some("the cell below it is rock"),
                    Some(def) if def.stair => Some("the cell below it holds a stair"),
                    Some(_) => None,
                };
                if let Some(why) = why {
                    out.push(DungeonError::VoidUnsupported { level, row, col, why });
                }
            }
            if self.is_void(pos) || self.open_above(pos) {
                for &dir in self.dims().walls(slot).unwrap_or(&[]) {
                    if self.carved_seam(pos, dir).is_some_and(|def| def.carve == Carve::Door) {
                        out.push(DungeonError::DoorIntoVoid { level, row, col, dir });
                    }
                }
            }
        }
        out
    }
}
