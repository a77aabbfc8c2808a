//! What one cell tile or one edge state means ([`TileDef`], [`EdgeDef`]), with the
//! constructors of the common ones; the [`super::Registry`] holds them by name.

use serde::{Deserialize, Serialize};

#[cfg(doc)]
use super::Registry;

/// How an edge state carves the seam between two carved cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Carve {
    /// The seam stays rock: a wall stands on both cells' edges.
    None,
    /// The whole seam is carved: the two cells join.
    Full,
    /// A door-wide, door-high passage is carved through the seam.
    Door,
}

/// What a cell tile means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileDef {
    /// Unique name, as written in dungeon files ("solid", "floor", "stair").
    pub name: String,
    /// One printable ASCII character that draws this tile in the file's plan.
    pub symbol: char,
    /// The cell is carved out of the rock (has a floor, ceiling and walls).
    pub carved: bool,
    /// The cell holds a stair up to the same octagon on the level above.
    pub stair: bool,
    /// One can step onto it this turn.
    pub walkable: bool,
    /// It joins regions (connectivity), even when not walkable right now.
    pub passable: bool,
    /// It blocks sight.
    pub opaque: bool,
    /// Extra cost to enter, in thousandths of a long step (0 for plain floor).
    pub move_cost: u32,
    /// Material name for meshes and export.
    pub material: String,
    /// Whether it stops a projectile (an arrow, a bolt): `None` takes the default,
    /// [`TileDef::blocks_projectiles`] (rock blocks, carved cells do not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks_projectiles: Option<bool>,
    /// The tile this one becomes when it burns ([`crate::dungeon::Dungeon::burn`]), by
    /// name; `None` when it does not burn. Resolved to an id when the registry is built
    /// ([`Registry::tile_burns_to`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burns_to: Option<String>,
    /// The cell is open space over the cell below it (docs/design.md, "Columns across
    /// storeys"): carved as the upper part of that cell's column, with no floor, so one
    /// who stands in it falls to the first floor down the column. Such a tile is carved,
    /// not walkable and not passable ([`TileDef::void`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub void: bool,
}

impl TileDef {
    /// A floor tile: carved, walkable, passable, clear, no extra cost, material `floor`.
    ///
    /// ```
    /// use octile::dungeon::{Registry, TileDef};
    ///
    /// let mut registry = Registry::new();
    /// let mud = registry.add_tile(TileDef { move_cost: 500, ..TileDef::floor("mud", '~') })?;
    /// assert_eq!(registry.plain_floor(), Some(mud));
    /// assert!(!registry.tile_def(mud).unwrap().blocks_projectiles());
    /// # Ok::<(), octile::dungeon::DungeonError>(())
    /// ```
    #[must_use]
    pub fn floor(name: &str, symbol: char) -> TileDef {
        TileDef {
            name: name.into(),
            symbol,
            carved: true,
            stair: false,
            walkable: true,
            passable: true,
            opaque: false,
            move_cost: 0,
            material: "floor".into(),
            blocks_projectiles: None,
            burns_to: None,
            void: false,
        }
    }

    /// Open space over the cell below (an atrium's upper storeys, a pit's mouth): carved,
    /// not walkable or passable, clear, no floor, material `void`.
    #[must_use]
    pub fn void(name: &str, symbol: char) -> TileDef {
        TileDef {
            walkable: false,
            passable: false,
            void: true,
            material: "void".into(),
            ..TileDef::floor(name, symbol)
        }
    }

    /// A rock tile: not carved, not walkable or passable, opaque, material `rock`.
    #[must_use]
    pub fn rock(name: &str, symbol: char) -> TileDef {
        TileDef {
            carved: false,
            walkable: false,
            passable: false,
            opaque: true,
            material: "rock".into(),
            ..TileDef::floor(name, symbol)
        }
    }

    /// A stair tile (a carved floor holding a stair up), material `stair`.
    #[must_use]
    pub fn stair(name: &str, symbol: char) -> TileDef {
        TileDef { stair: true, material: "stair".into(), ..TileDef::floor(name, symbol) }
    }

    /// Whether the tile stops a projectile: the explicit `blocks_projectiles` when set,
    /// otherwise true exactly for a tile that is not carved (rock).
    #[must_use]
    pub fn blocks_projectiles(&self) -> bool {
        self.blocks_projectiles.unwrap_or(!self.carved)
    }
}

/// What an edge state means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeDef {
    /// Unique name, as written in dungeon files ("open", "wall", "door").
    pub name: String,
    /// One printable ASCII character that draws this state in the file's plan.
    pub symbol: char,
    /// How the seam is carved when both cells are carved.
    pub carve: Carve,
    /// One can cross it this turn.
    pub walkable: bool,
    /// It joins regions (a closed door is passable but not walkable).
    pub passable: bool,
    /// It blocks sight.
    pub opaque: bool,
    /// Extra cost to cross, in thousandths of a long step.
    pub move_cost: u32,
    /// Material name for meshes and export (door frames, for instance).
    pub material: String,
    /// The state this one becomes when opened ([`crate::dungeon::Dungeon::open_door`]),
    /// by name; `None` when it cannot be opened. Resolved to an id when the registry is
    /// built ([`Registry::opens_to`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opens_to: Option<String>,
    /// The state this one becomes when closed ([`crate::dungeon::Dungeon::close_door`]), by
    /// name; `None` when it cannot be closed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closes_to: Option<String>,
    /// Whether it stops a projectile: `None` takes the default,
    /// [`EdgeDef::blocks_projectiles`] (a wall and a closed door block, an open seam or an
    /// open door does not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks_projectiles: Option<bool>,
    /// The state this one becomes when it burns ([`crate::dungeon::Dungeon::burn_edge`]),
    /// by name; `None` when it does not burn. Resolved to an id when the registry is built
    /// ([`Registry::edge_burns_to`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burns_to: Option<String>,
    /// What a mission door asks of whoever crosses it (a key, a direction, finding it);
    /// `None` for every other edge state ([`Mechanism`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mechanism: Option<Mechanism>,
    /// A drop point: an open edge between a floor and a void cell that carries no railing,
    /// so that stepping across it is a one-way move down to the first floor of the void's
    /// column ([`EdgeDef::drop`]). On an edge between two floors it is an open seam.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drop: bool,
}

/// What a mission door asks of whoever crosses it (docs/flow.md, "Keys, locks, one-way
/// doors"). Path searches ([`crate::path`]) honour one-way doors; the flow proof
/// ([`crate::flow::verify`]) honours all three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mechanism {
    /// A locked door: crossing it needs the key of the lock id the dungeon's lock layer
    /// gives the edge ([`crate::dungeon::Dungeon::lock_at`]). Keys are kept once found.
    Locked,
    /// A one-way door crossed only *into* the later of its two cells in row-major order:
    /// southward, or eastward between cells of one slot row (so across a long edge south
    /// or east, across a short edge into the cell to the south).
    OneWayForward,
    /// A one-way door crossed only into the earlier of its two cells (north, or west
    /// between cells of one row): [`Mechanism::OneWayForward`] turned round.
    OneWayBackward,
    /// A secret door: crossed like a closed door by whoever has found it.
    Secret,
}

impl Mechanism {
    /// Every mechanism, in declaration order.
    pub const ALL: [Mechanism; 4] =
        [Mechanism::Locked, Mechanism::OneWayForward, Mechanism::OneWayBackward, Mechanism::Secret];

    /// Whether a door of this mechanism may be crossed from the cell at `from` to the
    /// cell at `to` (its two sides, on one level) as far as direction goes: false only for
    /// a one-way door walked the wrong way.
    #[must_use]
    pub fn allows(self, from: crate::grid::Slot, to: crate::grid::Slot) -> bool {
        let forward = (to.row, to.col) > (from.row, from.col);
        match self {
            Mechanism::OneWayForward => forward,
            Mechanism::OneWayBackward => !forward,
            Mechanism::Locked | Mechanism::Secret => true,
        }
    }

    /// The one-way mechanism that lets a walker cross from `from` into `to` (two sides of
    /// one edge).
    #[must_use]
    pub fn one_way(from: crate::grid::Slot, to: crate::grid::Slot) -> Mechanism {
        if (to.row, to.col) > (from.row, from.col) {
            Mechanism::OneWayForward
        } else {
            Mechanism::OneWayBackward
        }
    }
}

impl EdgeDef {
    /// An open seam: carved fully, walkable, passable, clear, material `floor`.
    #[must_use]
    pub fn open(name: &str, symbol: char) -> EdgeDef {
        EdgeDef {
            name: name.into(),
            symbol,
            carve: Carve::Full,
            walkable: true,
            passable: true,
            opaque: false,
            move_cost: 0,
            material: "floor".into(),
            opens_to: None,
            closes_to: None,
            blocks_projectiles: None,
            burns_to: None,
            mechanism: None,
            drop: false,
        }
    }

    /// A drop point ([`EdgeDef::drop`](EdgeDef#structfield.drop)): an open seam, walkable,
    /// passable and clear, with no railing where it meets a void; material `floor`.
    #[must_use]
    pub fn drop(name: &str, symbol: char) -> EdgeDef {
        EdgeDef { drop: true, ..EdgeDef::open(name, symbol) }
    }

    /// A wall: carves nothing, not walkable or passable, opaque, material `wall`.
    #[must_use]
    pub fn wall(name: &str, symbol: char) -> EdgeDef {
        EdgeDef {
            carve: Carve::None,
            walkable: false,
            passable: false,
            opaque: true,
            material: "wall".into(),
            ..EdgeDef::open(name, symbol)
        }
    }

    /// A closed door that opens to the state named `opens_to`: a door-wide passage
    /// ([`Carve::Door`]), passable but not walkable, opaque, material `door_frame`.
    ///
    /// ```
    /// use octile::dungeon::{EdgeDef, Registry, TileDef};
    ///
    /// // The door is listed before the state it opens to: names resolve when the tables
    /// // are built.
    /// let registry = Registry::from_defs(
    ///     vec![TileDef::rock("rock", '#'), TileDef::floor("floor", '.')],
    ///     vec![
    ///         EdgeDef::wall("wall", '|'),
    ///         EdgeDef::door("gate", 'G', "gate_open"),
    ///         EdgeDef::open_door("gate_open", 'g', "gate"),
    ///     ],
    /// )?;
    /// let gate = registry.expect_edge("gate")?;
    /// assert_eq!(registry.opens_to(gate), registry.edge("gate_open"));
    /// assert!(registry.edge_def(gate).unwrap().blocks_projectiles());
    /// # Ok::<(), octile::dungeon::DungeonError>(())
    /// ```
    #[must_use]
    pub fn door(name: &str, symbol: char, opens_to: &str) -> EdgeDef {
        EdgeDef {
            carve: Carve::Door,
            walkable: false,
            opaque: true,
            material: "door_frame".into(),
            opens_to: Some(opens_to.into()),
            ..EdgeDef::open(name, symbol)
        }
    }

    /// An open door that closes to the state named `closes_to`: a door-wide passage,
    /// walkable, passable, clear, material `door_frame`.
    #[must_use]
    pub fn open_door(name: &str, symbol: char, closes_to: &str) -> EdgeDef {
        EdgeDef {
            carve: Carve::Door,
            material: "door_frame".into(),
            closes_to: Some(closes_to.into()),
            ..EdgeDef::open(name, symbol)
        }
    }

    /// A mission door with `mechanism` ([`Mechanism`]): a closed door (door-wide, passable,
    /// not walkable, opaque, material `door_frame`) that opens to nothing by itself: a game
    /// opens it with a key, from the right side, or once found.
    #[must_use]
    pub fn mission_door(name: &str, symbol: char, mechanism: Mechanism) -> EdgeDef {
        EdgeDef { opens_to: None, mechanism: Some(mechanism), ..EdgeDef::door(name, symbol, name) }
    }

    /// Whether the edge stops a projectile crossing it: the explicit `blocks_projectiles`
    /// when set, otherwise true when it carves nothing (a wall) or cannot be crossed this
    /// turn (a closed door).
    #[must_use]
    pub fn blocks_projectiles(&self) -> bool {
        self.blocks_projectiles.unwrap_or(self.carve == Carve::None || !self.walkable)
    }
}
