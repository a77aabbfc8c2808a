//! A dungeon read in another registry ([`Dungeon::translated`]): the same cells and edges,
//! each tile and edge state replaced by one of the other registry's with the meaning the
//! crate's rules read, everything else (markers, rooms, heights, pillars, ramps, locks,
//! keys, pins) kept.

use super::{Dungeon, DungeonError, EdgeDef, EdgeStateId, Registry, Stairs, TileDef, TileId};

/// Where each tile and edge state of one registry goes in another ([`Dungeon::translated`]):
/// entry `i` of `tiles` is the new id of tile id `i`, entry `i` of `edges` that of edge
/// state id `i`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Translation {
    /// New tile ids, by old tile id.
    pub tiles: Vec<TileId>,
    /// New edge state ids, by old edge state id.
    pub edges: Vec<EdgeStateId>,
}

impl TileDef {
    /// Whether `other` means to the crate's rules what this tile does: the same carved,
    /// stair, void, walkable and passable flags (costs, opacity, materials and names may
    /// differ). What a [`Translation`] must keep.
    #[must_use]
    pub fn same_rules(&self, other: &TileDef) -> bool {
        let rules = |t: &TileDef| (t.carved, t.stair, t.void, t.walkable, t.passable);
        rules(self) == rules(other)
    }
}

impl EdgeDef {
    /// As [`TileDef::same_rules`], for an edge state: the same carve, walkable, passable,
    /// mechanism and drop.
    #[must_use]
    pub fn same_rules(&self, other: &EdgeDef) -> bool {
        let rules = |e: &EdgeDef| (e.carve, e.walkable, e.passable, e.mechanism, e.drop);
        rules(self) == rules(other)
    }
}

impl Dungeon {
    /// This dungeon read in `registry`: every tile and edge state replaced as `translation`
    /// says, everything else kept. Each replacement must keep the meaning the crate's rules
    /// read (a tile's carved, stair, void, walkable and passable flags; an edge state's
    /// carve, walkable, passable, mechanism and drop), so paths, regions, meshes and the
    /// flow proof see the same dungeon; its cost, opacity, material and name are the new
    /// registry's. Only the ids the dungeon uses need an entry that fits.
    ///
    /// # Errors
    /// [`DungeonError::Registry`] naming the first tile or edge state the translation has
    /// no entry for, maps to an id `registry` lacks, or maps to one of another meaning.
    pub fn translated(&self, registry: Registry, translation: &Translation) -> Result<Dungeon, DungeonError> {
        let bad = |what: String| Err(DungeonError::Registry { what });
        let mut used_tiles = vec![false; self.registry.tiles().len()];
        for layer in &self.tiles {
            for (_, &t) in layer.iter() {
                used_tiles[t.index()] = true;
            }
        }
        let mut used_edges = vec![false; self.registry.edges().len()];
        for layer in &self.edges {
            for &e in layer {
                used_edges[e.index()] = true;
            }
        }
        for (i, old) in self.registry.tiles().iter().enumerate().filter(|&(i, _)| used_tiles[i]) {
            let Some(&new) = translation.tiles.get(i) else {
                return bad(format!("the translation has no tile for `{}`", old.name));
            };
            let Some(def) = registry.tile_def(new) else {
                return bad(format!(
                    "tile `{}` maps to id {}, which the new registry lacks",
                    old.name,
                    new.index()
                ));
            };
            if !def.same_rules(old) {
                return bad(format!(
                    "tile `{}` maps to `{}`, which differs in being carved, a stair, a void, walkable or passable",
                    old.name, def.name
                ));
            }
        }
        for (i, old) in self.registry.edges().iter().enumerate().filter(|&(i, _)| used_edges[i]) {
            let Some(&new) = translation.edges.get(i) else {
                return bad(format!("the translation has no edge state for `{}`", old.name));
            };
            let Some(def) = registry.edge_def(new) else {
                return bad(format!(
                    "edge state `{}` maps to id {}, which the new registry lacks",
                    old.name,
                    new.index()
                ));
            };
            if !def.same_rules(old) {
                return bad(format!(
                    "edge state `{}` maps to `{}`, which differs in its carve, walking, passing, mechanism or drop",
                    old.name, def.name
                ));
            }
        }
        let mut to = self.clone();
        for layer in &mut to.tiles {
            *layer = layer.map(|t| translation.tiles[t.index()]);
        }
        for layer in &mut to.edges {
            for e in layer.iter_mut() {
                *e = translation.edges[e.index()];
            }
        }
        to.registry = registry;
        to.stairs = Stairs::of(&to);
        Ok(to)
    }
}
