//! Generation in a game's own tiles ([`Palette`], [`generate_in`]): the layout is made with
//! the standard tiles, then written in the palette's ids ([`Dungeon::translated`]).

use super::{GenerateError, GenerateOptions, Progress, generate};
use crate::dungeon::{Carve, Dungeon, DungeonError, EdgeStateId, Registry, TileId, Translation};

/// The tiles and edge states of a game's registry that generation writes: which tile is
/// rock, floor and stair, and which edge states are wall, open seam, closed door and open
/// door. Each must mean to the crate's rules what the standard one does
/// ([`crate::dungeon::TileDef::same_rules`]); its cost, opacity, material and name are the
/// game's.
#[derive(Debug, Clone, PartialEq)]
pub struct Palette {
    /// The game's registry.
    pub registry: Registry,
    /// Its rock tile.
    pub rock: TileId,
    /// Its floor tile.
    pub floor: TileId,
    /// Its stair tile.
    pub stair: TileId,
    /// Its wall (carves nothing).
    pub wall: EdgeStateId,
    /// Its open seam.
    pub open: EdgeStateId,
    /// Its closed door (doors are generated closed).
    pub door: EdgeStateId,
    /// The open door its closed door opens to.
    pub door_open: EdgeStateId,
}

impl Palette {
    /// `registry` with its tiles named `rock`, `floor` and `stair`, and its edge states found
    /// by meaning: the first wall, the first open seam (no drop point), the first closed
    /// door without a mechanism and the state it opens to.
    ///
    /// # Errors
    /// [`GenerateError::Palette`] naming the role whose tile or edge state is missing or
    /// means something else than the standard one.
    pub fn new(registry: Registry, rock: &str, floor: &str, stair: &str) -> Result<Palette, GenerateError> {
        let standard = Registry::standard();
        let tile = |role: &'static str, name: &str, like: TileId| -> Result<TileId, GenerateError> {
            let id = registry.tile(name).ok_or_else(|| GenerateError::Palette {
                role,
                reason: format!("the registry has no tile `{name}`"),
            })?;
            let (def, want) = (registry.tile_def(id), standard.tile_def(like));
            if def.zip(want).is_some_and(|(d, w)| d.same_rules(w)) {
                Ok(id)
            } else {
                Err(GenerateError::Palette {
                    role,
                    reason: format!(
                        "tile `{name}` is not one: it differs from the standard {role} in being carved, a stair, a \
                         void, walkable or passable"
                    ),
                })
            }
        };
        let edge = |role: &'static str, like: EdgeStateId| -> Result<EdgeStateId, GenerateError> {
            let found = standard.edge_def(like).and_then(|want| {
                let i = registry.edges().iter().position(|e| e.same_rules(want))?;
                Some(EdgeStateId(i as u8))
            });
            found.ok_or_else(|| GenerateError::Palette {
                role,
                reason: format!("the registry has no edge state that means what `{role}` does"),
            })
        };
        let door = edge("door", Registry::DOOR)?;
        let door_open = registry.opens_to(door).ok_or_else(|| GenerateError::Palette {
            role: "door",
            reason: "its first closed door opens to no state".into(),
        })?;
        let opened = registry.edge_def(door_open).is_some_and(|e| e.carve == Carve::Door && e.walkable);
        if !opened {
            return Err(GenerateError::Palette {
                role: "door",
                reason: "its first closed door opens to a state that is not an open door".into(),
            });
        }
        Ok(Palette {
            rock: tile("rock", rock, Registry::SOLID)?,
            floor: tile("floor", floor, Registry::FLOOR)?,
            stair: tile("stair", stair, Registry::STAIR)?,
            wall: edge("wall", Registry::WALL)?,
            open: edge("open", Registry::OPEN)?,
            door,
            door_open,
            registry,
        })
    }

    /// `d` (made with the standard tiles, or any registry whose tiles the palette can take)
    /// in the palette's ids: each tile and edge state goes to the palette's of the same
    /// meaning (rock, floor, stair, wall, open, door, open door first, then the registry's
    /// first of the same meaning); one the registry has nothing for (a void, a drop point, a
    /// mission door) is added to it under its own name.
    ///
    /// # Errors
    /// [`DungeonError::Register`] when such an addition clashes with a name or symbol of
    /// the registry; as [`Dungeon::translated`].
    pub fn apply(&self, d: &Dungeon) -> Result<Dungeon, DungeonError> {
        let mut registry = self.registry.clone();
        let mut translation = Translation::default();
        for old in d.registry().tiles() {
            let chosen = [self.rock, self.floor, self.stair]
                .into_iter()
                .find(|&id| registry.tile_def(id).is_some_and(|t| t.same_rules(old)))
                .or_else(|| {
                    registry.tiles().iter().position(|t| t.same_rules(old)).map(|i| TileId(i as u16))
                });
            translation.tiles.push(match chosen {
                Some(id) => id,
                None => registry.add_tile(old.clone())?,
            });
        }
        for old in d.registry().edges() {
            let chosen = [self.wall, self.open, self.door, self.door_open]
                .into_iter()
                .find(|&id| registry.edge_def(id).is_some_and(|e| e.same_rules(old)))
                .or_else(|| {
                    registry.edges().iter().position(|e| e.same_rules(old)).map(|i| EdgeStateId(i as u8))
                });
            translation.edges.push(match chosen {
                Some(id) => id,
                None => registry.add_edge(old.clone())?,
            });
        }
        d.translated(registry, &translation)
    }
}

/// [`generate`] in a game's own tiles: the same layout, written in `palette`'s ids
/// ([`Palette::apply`]). Generation reads only the standard meanings, so the layout is the
/// one [`generate`] makes for `options`; the game's costs and opacity apply when it is
/// walked and seen.
///
/// ```
/// use octile::dungeon::{EdgeDef, Registry, TileDef};
/// use octile::generate::{GenerateOptions, Palette, generate_in};
///
/// let registry = Registry::from_defs(
///     vec![TileDef::rock("basalt", '#'), TileDef::floor("moss", ','), TileDef::stair("ladder", 'H')],
///     vec![
///         EdgeDef::wall("masonry", '|'),
///         EdgeDef::open("arch", 'o'),
///         EdgeDef::door("iron_door", 'D', "iron_door_open"),
///         EdgeDef::open_door("iron_door_open", '/', "iron_door"),
///     ],
/// )?;
/// let palette = Palette::new(registry, "basalt", "moss", "ladder")?;
/// let d = generate_in(&palette, &GenerateOptions::default(), &mut |_| {})?;
/// let entrance = d.tile(d.entrance().unwrap())?;
/// assert_eq!(d.registry().tile_def(entrance).unwrap().name, "moss");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`generate`], and [`GenerateError::Dungeon`] as [`Palette::apply`].
pub fn generate_in(
    palette: &Palette,
    options: &GenerateOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Dungeon, GenerateError> {
    Ok(palette.apply(&generate(options, progress)?)?)
}
