//! The registry: what each cell tile and each edge state means, looked up by name.
//! Algorithms ask the registry (walkable, passable, carved ...); they never match on names.

use super::DungeonError;
use super::defs::{Carve, EdgeDef, Mechanism, TileDef};

/// Why a tile or edge state was not registered, or a name not found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegisterError {
    /// A tile or edge state already has this name (tiles and edge states share one set
    /// of names).
    #[error("registry: name {name:?} is defined twice")]
    Duplicate {
        /// The name.
        name: String,
    },
    /// A tile or edge state already draws with this symbol.
    #[error("registry: symbol {symbol:?} of {name:?} is already used by {by:?}")]
    SymbolTaken {
        /// The symbol.
        symbol: char,
        /// The name of the definition refused.
        name: String,
        /// The name of the definition that has it.
        by: String,
    },
    /// A name that is empty or has characters other than ASCII letters, digits, `_`, `-`.
    #[error("registry: name {name:?} must be non-empty ASCII letters, digits, '_' or '-'")]
    BadName {
        /// The name.
        name: String,
    },
    /// A symbol that is not one printable ASCII character.
    #[error("registry: symbol {symbol:?} of {name:?} must be one printable ASCII character")]
    BadSymbol {
        /// The name of the definition.
        name: String,
        /// The symbol.
        symbol: char,
    },
    /// The registry holds as many of these as its ids can name.
    #[error("registry: too many {what} (at most {max})")]
    Full {
        /// `tiles` or `edge states`.
        what: &'static str,
        /// How many it may hold.
        max: usize,
    },
    /// A tile whose `burns_to` names no tile of the registry.
    #[error("registry: tile {tile:?} burns_to {target:?}, which is not a tile of the registry")]
    UnknownBurn {
        /// The tile that names it.
        tile: String,
        /// The name that is not a tile.
        target: String,
    },
    /// No definition has this name ([`Registry::expect_tile`], [`Registry::expect_edge`]).
    #[error("registry: no {what} is named {name:?}")]
    Missing {
        /// `tile` or `edge state`.
        what: &'static str,
        /// The name asked for.
        name: String,
    },
}

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

/// The tiles and edge states a dungeon uses, by name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Registry {
    tiles: Vec<TileDef>,
    edges: Vec<EdgeDef>,
    /// Per edge state: `[opens_to, closes_to, burns_to]` resolved to ids.
    transitions: Vec<[Option<EdgeStateId>; 3]>,
    /// Per tile: its `burns_to` resolved to an id.
    tile_burns: Vec<Option<TileId>>,
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
        let tiles =
            vec![TileDef::rock("solid", '#'), TileDef::floor("floor", '.'), TileDef::stair("stair", 'S')];
        let edges = vec![
            EdgeDef::wall("wall", '|'),
            EdgeDef::open("open", 'o'),
            EdgeDef::door("door", 'D', "door_open"),
            EdgeDef::open_door("door_open", '/', "door"),
        ];
        Registry::from_defs(tiles, edges).expect("invariant: the standard registry is valid")
    }

    /// An empty registry, to fill with [`Registry::add_tile`] and [`Registry::add_edge`]
    /// (the tile constructors such as [`TileDef::floor`] give the common tiles). A
    /// dungeon needs at least the tiles and edge states its fill uses
    /// ([`crate::dungeon::Dungeon::with_registry`]).
    ///
    /// ```
    /// use octile::dungeon::{Dungeon, EdgeDef, Fill, Registry, TileDef};
    /// use octile::geometry::Proportions;
    ///
    /// let mut registry = Registry::new();
    /// let rock = registry.add_tile(TileDef::rock("granite", '#'))?;
    /// registry.add_tile(TileDef::floor("flagstones", '.'))?;
    /// registry.add_edge(EdgeDef::wall("wall", '|'))?;
    /// registry.add_edge(EdgeDef::open("arch", 'o'))?;
    /// let d = Dungeon::with_registry(3, 3, 1, Proportions::default(), registry, Fill::Solid)?;
    /// assert_eq!(d.tile(octile::grid::Pos::new(0, 0, 0))?, rock);
    /// # Ok::<(), octile::dungeon::DungeonError>(())
    /// ```
    #[must_use]
    pub fn new() -> Registry {
        Registry { tiles: Vec::new(), edges: Vec::new(), transitions: Vec::new(), tile_burns: Vec::new() }
    }

    /// The tile named `name`, or a typed error naming it ([`Registry::tile`] is the
    /// `Option` twin).
    ///
    /// # Errors
    ///
    /// [`RegisterError::Missing`] when no tile has that name.
    pub fn expect_tile(&self, name: &str) -> Result<TileId, RegisterError> {
        self.tile(name).ok_or_else(|| RegisterError::Missing { what: "tile", name: name.into() })
    }

    /// The edge state named `name`, or a typed error naming it ([`Registry::edge`] is the
    /// `Option` twin).
    ///
    /// # Errors
    ///
    /// [`RegisterError::Missing`] when no edge state has that name.
    pub fn expect_edge(&self, name: &str) -> Result<EdgeStateId, RegisterError> {
        self.edge(name).ok_or_else(|| RegisterError::Missing { what: "edge state", name: name.into() })
    }

    /// A registry from explicit definitions; names and symbols must be unique and
    /// symbols printable ASCII.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Registry`] when `tiles` or `edges` is empty, when there are more than
    /// 65535 tiles or 255 edge states, or when a definition is refused as by
    /// [`Registry::add_tile`] / [`Registry::add_edge`] ([`DungeonError::Register`]: bad or
    /// repeated name or symbol).
    pub fn from_defs(tiles: Vec<TileDef>, edges: Vec<EdgeDef>) -> Result<Registry, DungeonError> {
        if tiles.is_empty() || edges.is_empty() {
            return Err(DungeonError::Registry { what: "needs at least one tile and one edge state".into() });
        }
        if tiles.len() > usize::from(u16::MAX) || edges.len() > usize::from(u8::MAX) {
            return Err(DungeonError::Registry {
                what: "too many tiles (max 65535) or edge states (max 255)".into(),
            });
        }
        let mut reg = Registry::new();
        for t in tiles {
            reg.push_tile(t)?;
        }
        for e in edges {
            reg.push_edge(e)?;
        }
        reg.resolve_tile_burns()?;
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
            .map(|e| {
                Ok([
                    resolve(e, "opens_to", &e.opens_to)?,
                    resolve(e, "closes_to", &e.closes_to)?,
                    resolve(e, "burns_to", &e.burns_to)?,
                ])
            })
            .collect::<Result<_, DungeonError>>()?;
        self.transitions = transitions;
        Ok(())
    }

    /// Resolves every tile's `burns_to` name to an id.
    fn resolve_tile_burns(&mut self) -> Result<(), RegisterError> {
        let burns = self
            .tiles
            .iter()
            .map(|t| {
                let target = t.burns_to.as_deref();
                target
                    .map(|name| {
                        self.tile(name).ok_or_else(|| RegisterError::UnknownBurn {
                            tile: t.name.clone(),
                            target: name.into(),
                        })
                    })
                    .transpose()
            })
            .collect::<Result<_, RegisterError>>()?;
        self.tile_burns = burns;
        Ok(())
    }

    fn check_new(&self, name: &str, symbol: char) -> Result<(), RegisterError> {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(RegisterError::BadName { name: name.into() });
        }
        if !symbol.is_ascii_graphic() {
            return Err(RegisterError::BadSymbol { name: name.into(), symbol });
        }
        let names = self
            .tiles
            .iter()
            .map(|t| (&t.name, t.symbol))
            .chain(self.edges.iter().map(|e| (&e.name, e.symbol)));
        for (n, s) in names {
            if n == name {
                return Err(RegisterError::Duplicate { name: name.into() });
            }
            if s == symbol {
                return Err(RegisterError::SymbolTaken { symbol, name: name.into(), by: n.clone() });
            }
        }
        Ok(())
    }

    /// Adds a tile; its id is the next free index.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Register`] with the [`RegisterError`]: [`RegisterError::BadName`]
    /// when the name is empty or has characters other than ASCII letters, digits, `_` and
    /// `-`; [`RegisterError::BadSymbol`] when the symbol is not one printable ASCII
    /// character; [`RegisterError::Duplicate`] when a tile or edge state already has this
    /// name, [`RegisterError::SymbolTaken`] this symbol; [`RegisterError::Full`] when the
    /// registry holds 65536 tiles; [`RegisterError::UnknownBurn`] when its `burns_to`
    /// names no tile of the registry (it may name itself; tiles that name each other are
    /// added together with [`Registry::from_defs`]). A refused tile is not kept.
    pub fn add_tile(&mut self, def: TileDef) -> Result<TileId, DungeonError> {
        let id = self.push_tile(def)?;
        if let Err(e) = self.resolve_tile_burns() {
            self.tiles.pop();
            return Err(e.into());
        }
        Ok(id)
    }

    /// Adds a tile without resolving its `burns_to`.
    fn push_tile(&mut self, def: TileDef) -> Result<TileId, RegisterError> {
        self.check_new(&def.name, def.symbol)?;
        let id =
            u16::try_from(self.tiles.len()).map_err(|_| RegisterError::Full { what: "tiles", max: 65536 })?;
        self.tiles.push(def);
        Ok(TileId(id))
    }

    /// The tile tile `id` becomes when it burns (its `burns_to`), or `None` when it does
    /// not burn or is not in this registry.
    #[must_use]
    pub fn tile_burns_to(&self, id: TileId) -> Option<TileId> {
        self.tile_burns.get(id.index()).copied().flatten()
    }

    /// The state edge state `id` becomes when it burns (its `burns_to`), or `None` when it
    /// does not burn or is not in this registry.
    #[must_use]
    pub fn edge_burns_to(&self, id: EdgeStateId) -> Option<EdgeStateId> {
        self.transitions.get(id.index()).and_then(|t| t[2])
    }

    /// Adds an edge state; its id is the next free index.
    ///
    /// # Errors
    ///
    /// [`DungeonError::Register`] as [`Registry::add_tile`] (with [`RegisterError::Full`]
    /// at 256 edge states); [`DungeonError::UnknownTransition`] when its `opens_to`,
    /// `closes_to` or `burns_to` names a state not in the registry (it may name itself; states that name
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
            .map_err(|_| RegisterError::Full { what: "edge states", max: 256 })?;
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

    /// The state a designer's "cycle this wall" moves edge state `id` to: the next state in
    /// registry order, skipping run-time states (those with a `closes_to`, such as the
    /// standard `door_open`, which a game reaches by opening a door). A run-time state
    /// cycles on from the state it closes to. For the standard registry: wall -> open ->
    /// door -> wall. `None` when `id` is not in this registry.
    #[must_use]
    pub fn next_in_cycle(&self, id: EdgeStateId) -> Option<EdgeStateId> {
        let from = self.closes_to(id).unwrap_or(id).index();
        let count = self.edges.len();
        if from >= count {
            return None;
        }
        (1..=count)
            .map(|step| (from + step) % count)
            .find(|&i| self.edges[i].closes_to.is_none())
            .map(|i| EdgeStateId(i as u8))
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

    /// The first edge state with mechanism `mechanism` (a locked, one-way or secret door).
    #[must_use]
    pub fn mission_state(&self, mechanism: Mechanism) -> Option<EdgeStateId> {
        self.edges.iter().position(|e| e.mechanism == Some(mechanism)).map(|i| EdgeStateId(i as u8))
    }

    /// The mechanism of edge state `id`, when it is a mission door.
    #[must_use]
    pub fn mechanism(&self, id: EdgeStateId) -> Option<Mechanism> {
        self.edge_def(id).and_then(|e| e.mechanism)
    }

    /// The first void tile ([`TileDef::void`](TileDef#structfield.void)), if the registry has one.
    #[must_use]
    pub fn void_tile(&self) -> Option<TileId> {
        self.tiles.iter().position(|t| t.void).map(|i| TileId(i as u16))
    }

    /// The first drop-point edge state ([`EdgeDef::drop`](EdgeDef#structfield.drop)), if the
    /// registry has one.
    #[must_use]
    pub fn drop_state(&self) -> Option<EdgeStateId> {
        self.edges.iter().position(|e| e.drop).map(|i| EdgeStateId(i as u8))
    }

    /// The standard void tile, `void` (`_`), added to a dungeon that needs one
    /// ([`crate::dungeon::Dungeon::void_tile`]).
    #[must_use]
    pub fn standard_void() -> TileDef {
        TileDef::void("void", '_')
    }

    /// The standard drop point, `drop` (`v`), added to a dungeon that needs one
    /// ([`crate::dungeon::Dungeon::drop_state`]).
    #[must_use]
    pub fn standard_drop() -> EdgeDef {
        EdgeDef::drop("drop", 'v')
    }

    /// The standard mission door of `mechanism`, added by realisation to a dungeon that
    /// needs it ([`crate::dungeon::Dungeon::mission_state`]): `door_locked` (`L`),
    /// `door_one_way` (`>`, forward), `door_one_way_back` (`<`) and `door_secret` (`?`),
    /// each [`EdgeDef::mission_door`].
    #[must_use]
    pub fn standard_mission_door(mechanism: Mechanism) -> EdgeDef {
        let (name, symbol) = match mechanism {
            Mechanism::Locked => ("door_locked", 'L'),
            Mechanism::OneWayForward => ("door_one_way", '>'),
            Mechanism::OneWayBackward => ("door_one_way_back", '<'),
            Mechanism::Secret => ("door_secret", '?'),
        };
        EdgeDef::mission_door(name, symbol, mechanism)
    }

    /// The first plain open door: a door-wide, walkable edge state that is no mission door
    /// (what a view opens a locked, one-way or secret door to, as if its key were held).
    #[must_use]
    pub fn plain_open_door(&self) -> Option<EdgeStateId> {
        let plain = |e: &EdgeDef| e.carve == Carve::Door && e.walkable && e.mechanism.is_none();
        self.edges.iter().position(plain).map(|i| EdgeStateId(i as u8))
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
    fn cycling_skips_run_time_states() {
        let r = Registry::standard();
        let next = |id| r.next_in_cycle(id).unwrap();
        assert_eq!(next(Registry::WALL), Registry::OPEN);
        assert_eq!(next(Registry::OPEN), Registry::DOOR);
        assert_eq!(next(Registry::DOOR), Registry::WALL);
        assert_eq!(next(Registry::DOOR_OPEN), Registry::WALL, "an open door cycles on as a door");
        assert_eq!(r.next_in_cycle(EdgeStateId(9)), None);
    }

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
        let dup = r.add_tile(t.clone()).unwrap_err();
        assert_eq!(dup, DungeonError::Register(RegisterError::Duplicate { name: "floor".into() }));
        assert_eq!(dup.to_string(), "registry: name \"floor\" is defined twice");
        t.name = "moss".into();
        assert_eq!(
            r.add_tile(t.clone()),
            Err(RegisterError::SymbolTaken { symbol: '.', name: "moss".into(), by: "floor".into() }.into()),
            "same symbol"
        );
        t.symbol = 'm';
        assert_eq!(r.add_tile(t), Ok(TileId(3)));
        let mut bad = r.edge_def(Registry::OPEN).unwrap().clone();
        bad.name = "bad name".into();
        assert_eq!(r.add_edge(bad.clone()), Err(RegisterError::BadName { name: "bad name".into() }.into()));
        (bad.name, bad.symbol) = ("fine".into(), '\n');
        assert_eq!(
            r.add_edge(bad),
            Err(RegisterError::BadSymbol { name: "fine".into(), symbol: '\n' }.into())
        );
    }

    #[test]
    fn burns_resolve_late_and_unknown_names_are_refused() {
        let grass = TileDef { burns_to: Some("ash".into()), ..TileDef::floor("grass", '"') };
        let r = Registry::from_defs(
            vec![TileDef::rock("rock", '#'), grass.clone(), TileDef::floor("ash", '.')],
            vec![
                EdgeDef { burns_to: Some("open".into()), ..EdgeDef::door("door", 'D', "open") },
                EdgeDef::open("open", 'o'),
            ],
        )
        .unwrap();
        let (grass_id, ash) = (r.expect_tile("grass").unwrap(), r.expect_tile("ash").unwrap());
        assert_eq!((r.tile_burns_to(grass_id), r.tile_burns_to(ash)), (Some(ash), None));
        assert_eq!(r.edge_burns_to(r.expect_edge("door").unwrap()), r.edge("open"));
        assert_eq!(r.edge_burns_to(r.expect_edge("open").unwrap()), None);
        let mut r2 = Registry::new();
        let err = r2.add_tile(grass).unwrap_err();
        assert_eq!(err, RegisterError::UnknownBurn { tile: "grass".into(), target: "ash".into() }.into());
        assert!(r2.tiles().is_empty(), "a refused tile is not kept");
        let mut bad = EdgeDef::wall("wall", '|');
        bad.burns_to = Some("rubble".into());
        assert!(matches!(r2.add_edge(bad), Err(DungeonError::UnknownTransition { field: "burns_to", .. })));
        assert_eq!(Registry::standard().tile_burns_to(Registry::FLOOR), None, "nothing burns by default");
    }

    #[test]
    fn a_full_registry_refuses_one_more() {
        // Unique printable symbols run out (94) long before ids do (256 edge states), so a
        // full table is only built by hand here, with symbols no definition can take.
        let mut r = Registry::new();
        r.edges.extend((0..256).map(|i| EdgeDef::wall(&format!("w{i}"), ' ')));
        assert_eq!(
            r.push_edge(EdgeDef::wall("last", '~')).unwrap_err(),
            DungeonError::Register(RegisterError::Full { what: "edge states", max: 256 })
        );
    }

    #[test]
    fn an_empty_registry_is_filled_by_constructors_and_names_are_expected() {
        let mut r = Registry::new();
        assert!(r.tiles().is_empty() && r.edges().is_empty());
        assert_eq!(r, Registry::default());
        assert_eq!(
            r.expect_tile("floor"),
            Err(RegisterError::Missing { what: "tile", name: "floor".into() })
        );
        let floor = r.add_tile(TileDef::floor("floor", '.')).unwrap();
        assert_eq!(r.expect_tile("floor"), Ok(floor));
        let err = r.expect_edge("door").unwrap_err();
        assert_eq!(err.to_string(), "registry: no edge state is named \"door\"");
        // The constructors give the standard definitions.
        let s = Registry::standard();
        assert_eq!(s.tile_def(Registry::SOLID), Some(&TileDef::rock("solid", '#')));
        assert_eq!(s.tile_def(Registry::STAIR), Some(&TileDef::stair("stair", 'S')));
        assert_eq!(s.edge_def(Registry::DOOR_OPEN), Some(&EdgeDef::open_door("door_open", '/', "door")));
        let standard_flags: Vec<bool> = s.tiles().iter().map(TileDef::blocks_projectiles).collect();
        assert_eq!(standard_flags, [true, false, false]);
        let edge_flags: Vec<bool> = s.edges().iter().map(EdgeDef::blocks_projectiles).collect();
        assert_eq!(edge_flags, [true, false, true, false], "wall, open, door, door_open");
        let glass = EdgeDef { blocks_projectiles: Some(true), ..EdgeDef::open("glass", 'g') };
        assert!(glass.blocks_projectiles() && !glass.opaque);
    }
}
