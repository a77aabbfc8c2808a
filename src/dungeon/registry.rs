//! The registry: what each cell tile and each edge state means, looked up by name.
//! Algorithms ask the registry (walkable, passable, carved ...); they never match on names.

use serde::{Deserialize, Serialize};

use super::DungeonError;

/// Index of a cell tile in a [`Registry`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TileId(pub(crate) u16);

/// Index of an edge state in a [`Registry`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct EdgeStateId(pub(crate) u8);

impl TileId {
    /// The tile's position in its registry's tile list.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl EdgeStateId {
    /// The state's position in its registry's edge-state list.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

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
}

/// The tiles and edge states a dungeon uses, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registry {
    tiles: Vec<TileDef>,
    edges: Vec<EdgeDef>,
    /// Per edge state: `[opens_to, closes_to]` resolved to ids.
    transitions: Vec<[Option<EdgeStateId>; 2]>,
}

impl Registry {
    /// `solid` in the standard registry.
    pub const SOLID: TileId = TileId(0);
    /// `floor` in the standard registry.
    pub const FLOOR: TileId = TileId(1);
    /// `stair` in the standard registry.
    pub const STAIR: TileId = TileId(2);
    /// `wall` in the standard registry.
    pub const WALL: EdgeStateId = EdgeStateId(0);
    /// `open` in the standard registry.
    pub const OPEN: EdgeStateId = EdgeStateId(1);
    /// `door` (closed) in the standard registry.
    pub const DOOR: EdgeStateId = EdgeStateId(2);
    /// `door_open` (an open door) in the standard registry.
    pub const DOOR_OPEN: EdgeStateId = EdgeStateId(3);

    /// The standard set: tiles `solid`, `floor`, `stair`; edges `wall`, `open`, `door` (a
    /// closed door: passable, not walkable, opaque; opens to `door_open`) and `door_open`
    /// (walkable, passable, not opaque; closes to `door`). Both doors carve a door-wide
    /// passage ([`Carve::Door`]).
    ///
    /// # Panics
    ///
    /// Never: the standard definitions are valid (the `expect` restates it; a unit test
    /// builds them).
    #[must_use]
    pub fn standard() -> Registry {
        let tile = |name: &str, symbol, carved, stair, material: &str| TileDef {
            name: name.into(),
            symbol,
            carved,
            stair,
            walkable: carved,
            passable: carved,
            opaque: !carved,
            move_cost: 0,
            material: material.into(),
        };
        let edge = |name: &str, symbol, carve, walkable, passable, material: &str| EdgeDef {
            name: name.into(),
            symbol,
            carve,
            walkable,
            passable,
            opaque: carve != Carve::Full,
            move_cost: 0,
            material: material.into(),
            opens_to: None,
            closes_to: None,
        };
        let door = EdgeDef {
            opens_to: Some("door_open".into()),
            ..edge("door", 'D', Carve::Door, false, true, "door_frame")
        };
        let door_open = EdgeDef {
            closes_to: Some("door".into()),
            opaque: false,
            ..edge("door_open", '/', Carve::Door, true, true, "door_frame")
        };
        let tiles = vec![
            tile("solid", '#', false, false, "rock"),
            tile("floor", '.', true, false, "floor"),
            tile("stair", 'S', true, true, "stair"),
        ];
        let edges = vec![
            edge("wall", '|', Carve::None, false, false, "wall"),
            edge("open", 'o', Carve::Full, true, true, "floor"),
            door,
            door_open,
        ];
        Registry::from_defs(tiles, edges).expect("invariant: the standard registry is valid")
    }

    /// A registry from explicit definitions; names and symbols must be unique and
    /// symbols printable ASCII.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Registry`] when `tiles` or `edges` is empty, when there are more than
    /// 65535 tiles or 255 edge states, or when a definition is refused as by
    /// [`Registry::add_tile`] / [`Registry::add_edge`] (bad or repeated name or symbol).
    pub fn from_defs(tiles: Vec<TileDef>, edges: Vec<EdgeDef>) -> Result<Registry, DungeonError> {
        if tiles.is_empty() || edges.is_empty() {
            return Err(DungeonError::Registry { what: "needs at least one tile and one edge state".into() });
        }
        if tiles.len() > usize::from(u16::MAX) || edges.len() > usize::from(u8::MAX) {
            return Err(DungeonError::Registry {
                what: "too many tiles (max 65535) or edge states (max 255)".into(),
            });
        }
        let mut reg = Registry { tiles: Vec::new(), edges: Vec::new(), transitions: Vec::new() };
        for t in tiles {
            reg.add_tile(t)?;
        }
        for e in edges {
            reg.push_edge(e)?;
        }
        reg.resolve_transitions()?;
        Ok(reg)
    }

    /// Resolves every edge state's `opens_to` / `closes_to` name to an id.
    fn resolve_transitions(&mut self) -> Result<(), DungeonError> {
        let resolve = |edge: &EdgeDef, field: &'static str, target: &Option<String>| {
            target
                .as_deref()
                .map(|name| {
                    self.edge(name).ok_or_else(|| DungeonError::UnknownTransition {
                        edge: edge.name.clone(),
                        field,
                        target: name.into(),
                    })
                })
                .transpose()
        };
        let transitions = self
            .edges
            .iter()
            .map(|e| Ok([resolve(e, "opens_to", &e.opens_to)?, resolve(e, "closes_to", &e.closes_to)?]))
            .collect::<Result<_, DungeonError>>()?;
        self.transitions = transitions;
        Ok(())
    }

    fn check_new(&self, name: &str, symbol: char) -> Result<(), DungeonError> {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(DungeonError::Registry {
                what: format!("name {name:?} must be non-empty ASCII letters, digits, '_' or '-'"),
            });
        }
        if !symbol.is_ascii_graphic() {
            return Err(DungeonError::Registry {
                what: format!("symbol {symbol:?} of {name:?} must be one printable ASCII character"),
            });
        }
        let names = self
            .tiles
            .iter()
            .map(|t| (&t.name, t.symbol))
            .chain(self.edges.iter().map(|e| (&e.name, e.symbol)));
        for (n, s) in names {
            if n == name {
                return Err(DungeonError::Registry { what: format!("name {name:?} is defined twice") });
            }
            if s == symbol {
                return Err(DungeonError::Registry {
                    what: format!("symbol {symbol:?} of {name:?} is already used by {n:?}"),
                });
            }
        }
        Ok(())
    }

    /// Adds a tile; its id is the next free index.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Registry`] when the name is empty or has characters other than ASCII
    /// letters, digits, `_` and `-`; when the symbol is not one printable ASCII character;
    /// when a tile or edge state already has this name or symbol; or when the registry is
    /// full (65536 tiles).
    pub fn add_tile(&mut self, def: TileDef) -> Result<TileId, DungeonError> {
        self.check_new(&def.name, def.symbol)?;
        let id = u16::try_from(self.tiles.len())
            .map_err(|_| DungeonError::Registry { what: "too many tiles".into() })?;
        self.tiles.push(def);
        Ok(TileId(id))
    }

    /// Adds an edge state; its id is the next free index.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Registry`] when the name is empty or has characters other than ASCII
    /// letters, digits, `_` and `-`; when the symbol is not one printable ASCII character;
    /// when a tile or edge state already has this name or symbol; or when the registry is
    /// full (256 edge states); [`DungeonError::UnknownTransition`] when its `opens_to` or
    /// `closes_to` names a state not in the registry (it may name itself; states that name
    /// each other are added together with [`Registry::from_defs`]).
    pub fn add_edge(&mut self, def: EdgeDef) -> Result<EdgeStateId, DungeonError> {
        let id = self.push_edge(def)?;
        if let Err(e) = self.resolve_transitions() {
            self.edges.pop();
            return Err(e);
        }
        Ok(id)
    }

    /// Adds an edge state without resolving its transitions.
    fn push_edge(&mut self, def: EdgeDef) -> Result<EdgeStateId, DungeonError> {
        self.check_new(&def.name, def.symbol)?;
        let id = u8::try_from(self.edges.len())
            .map_err(|_| DungeonError::Registry { what: "too many edge states".into() })?;
        self.edges.push(def);
        Ok(EdgeStateId(id))
    }

    /// The state edge state `id` becomes when opened (its `opens_to`), or `None` when it
    /// cannot be opened or is not in this registry.
    #[must_use]
    pub fn opens_to(&self, id: EdgeStateId) -> Option<EdgeStateId> {
        self.transitions.get(id.index()).and_then(|t| t[0])
    }

    /// The state edge state `id` becomes when closed (its `closes_to`), or `None` when it
    /// cannot be closed or is not in this registry.
    #[must_use]
    pub fn closes_to(&self, id: EdgeStateId) -> Option<EdgeStateId> {
        self.transitions.get(id.index()).and_then(|t| t[1])
    }

    /// The tile named `name`.
    #[must_use]
    pub fn tile(&self, name: &str) -> Option<TileId> {
        self.tiles.iter().position(|t| t.name == name).map(|i| TileId(i as u16))
    }

    /// The edge state named `name`.
    #[must_use]
    pub fn edge(&self, name: &str) -> Option<EdgeStateId> {
        self.edges.iter().position(|e| e.name == name).map(|i| EdgeStateId(i as u8))
    }

    /// The tile drawn with `symbol`.
    #[must_use]
    pub fn tile_by_symbol(&self, symbol: char) -> Option<TileId> {
        self.tiles.iter().position(|t| t.symbol == symbol).map(|i| TileId(i as u16))
    }

    /// The edge state drawn with `symbol`.
    #[must_use]
    pub fn edge_by_symbol(&self, symbol: char) -> Option<EdgeStateId> {
        self.edges.iter().position(|e| e.symbol == symbol).map(|i| EdgeStateId(i as u8))
    }

    /// The definition of tile `id`, or `None` when it is not in this registry.
    #[must_use]
    pub fn tile_def(&self, id: TileId) -> Option<&TileDef> {
        self.tiles.get(usize::from(id.0))
    }

    /// The definition of edge state `id`, or `None` when it is not in this registry.
    #[must_use]
    pub fn edge_def(&self, id: EdgeStateId) -> Option<&EdgeDef> {
        self.edges.get(usize::from(id.0))
    }

    /// All tile definitions, by id.
    #[must_use]
    pub fn tiles(&self) -> &[TileDef] {
        &self.tiles
    }

    /// All edge definitions, by id.
    #[must_use]
    pub fn edges(&self) -> &[EdgeDef] {
        &self.edges
    }

    /// The first tile that is carved and walkable but not a stair (the generator's floor).
    #[must_use]
    pub fn plain_floor(&self) -> Option<TileId> {
        self.tiles.iter().position(|t| t.carved && t.walkable && !t.stair).map(|i| TileId(i as u16))
    }

    /// The first tile that is not carved (rock).
    #[must_use]
    pub fn rock(&self) -> Option<TileId> {
        self.tiles.iter().position(|t| !t.carved).map(|i| TileId(i as u16))
    }

    /// The first stair tile.
    #[must_use]
    pub fn stair(&self) -> Option<TileId> {
        self.tiles.iter().position(|t| t.stair).map(|i| TileId(i as u16))
    }

    /// The first edge state that carves fully (open).
    #[must_use]
    pub fn open_edge(&self) -> Option<EdgeStateId> {
        self.edges.iter().position(|e| e.carve == Carve::Full).map(|i| EdgeStateId(i as u8))
    }

    /// The first edge state that carves nothing (wall).
    #[must_use]
    pub fn wall_edge(&self) -> Option<EdgeStateId> {
        self.edges.iter().position(|e| e.carve == Carve::None).map(|i| EdgeStateId(i as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_ids_and_lookups_agree() {
        let r = Registry::standard();
        assert_eq!(r.tile("solid"), Some(Registry::SOLID));
        assert_eq!(r.tile("floor"), Some(Registry::FLOOR));
        assert_eq!(r.tile("stair"), Some(Registry::STAIR));
        assert_eq!(r.edge("wall"), Some(Registry::WALL));
        assert_eq!(r.edge("open"), Some(Registry::OPEN));
        assert_eq!(r.edge("door"), Some(Registry::DOOR));
        assert_eq!(r.plain_floor(), Some(Registry::FLOOR));
        assert_eq!(r.rock(), Some(Registry::SOLID));
        assert_eq!(r.stair(), Some(Registry::STAIR));
        assert_eq!(r.open_edge(), Some(Registry::OPEN));
        assert_eq!(r.wall_edge(), Some(Registry::WALL));
        let door = r.edge_def(Registry::DOOR).unwrap();
        assert!(door.passable && !door.walkable && door.opaque);
        let open = r.edge_def(Registry::DOOR_OPEN).unwrap();
        assert!(open.passable && open.walkable && !open.opaque && open.carve == Carve::Door);
        assert_eq!(r.edge("door_open"), Some(Registry::DOOR_OPEN));
        assert_eq!(r.tile("lava"), None);
    }

    #[test]
    fn transitions_resolve_to_ids_and_unknown_names_are_refused() {
        let r = Registry::standard();
        assert_eq!(r.opens_to(Registry::DOOR), Some(Registry::DOOR_OPEN));
        assert_eq!(r.closes_to(Registry::DOOR_OPEN), Some(Registry::DOOR));
        assert_eq!((r.opens_to(Registry::WALL), r.closes_to(Registry::DOOR)), (None, None));
        let mut edges = r.edges().to_vec();
        edges[2].opens_to = Some("ajar".into());
        let err = Registry::from_defs(r.tiles().to_vec(), edges).unwrap_err();
        assert_eq!(
            err,
            DungeonError::UnknownTransition { edge: "door".into(), field: "opens_to", target: "ajar".into() }
        );
        assert!(err.to_string().contains("\"ajar\""), "{err}");
        let mut grate = r.edge_def(Registry::DOOR).unwrap().clone();
        (grate.name, grate.symbol, grate.opens_to, grate.closes_to) =
            ("grate".into(), 'g', None, Some("gone".into()));
        let mut r2 = r.clone();
        assert!(matches!(
            r2.add_edge(grate.clone()),
            Err(DungeonError::UnknownTransition { field: "closes_to", .. })
        ));
        assert_eq!(r2, r, "a refused edge state is not kept");
        grate.closes_to = Some("door".into());
        let id = r2.add_edge(grate).unwrap();
        assert_eq!(r2.closes_to(id), Some(Registry::DOOR));
    }

    #[test]
    fn duplicates_are_refused() {
        let mut r = Registry::standard();
        let mut t = r.tile_def(Registry::FLOOR).unwrap().clone();
        assert!(matches!(r.add_tile(t.clone()), Err(DungeonError::Registry { .. })));
        t.name = "moss".into();
        assert!(matches!(r.add_tile(t.clone()), Err(DungeonError::Registry { .. })), "same symbol");
        t.symbol = 'm';
        assert_eq!(r.add_tile(t), Ok(TileId(3)));
        let mut bad = r.edge_def(Registry::OPEN).unwrap().clone();
        bad.name = "bad name".into();
        assert!(r.add_edge(bad).is_err());
    }
}
