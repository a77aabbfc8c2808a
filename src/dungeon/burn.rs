//! Burning: a cell's tile or an edge's state becomes what its registry entry burns to
//! (`burns_to`, [`super::Registry::tile_burns_to`]). The registry says what burns and into
//! what; this file only follows it.

use super::{Dungeon, DungeonError, EdgeStateId, TileId};
use crate::grid::{Direction, Pos, Slot};

impl Dungeon {
    /// Burns the cell at `pos`: its tile becomes the tile its registry entry `burns_to`.
    /// Returns the new tile, or `None` when the tile does not burn (nothing changes).
    ///
    /// ```
    /// use octile::dungeon::{Dungeon, EdgeDef, Fill, Registry, TileDef};
    /// use octile::geometry::Proportions;
    /// use octile::grid::Pos;
    ///
    /// let registry = Registry::from_defs(
    ///     vec![
    ///         TileDef::rock("rock", '#'),
    ///         TileDef { burns_to: Some("ash".into()), ..TileDef::floor("grass", '"') },
    ///         TileDef::floor("ash", '.'),
    ///     ],
    ///     vec![EdgeDef::wall("wall", '|'), EdgeDef::open("open", 'o')],
    /// )?;
    /// let ash = registry.expect_tile("ash")?;
    /// let mut d = Dungeon::with_registry(2, 1, 1, Proportions::default(), registry, Fill::Floor)?;
    /// let meadow = Pos::new(0, 0, 0);
    /// assert_eq!(d.burn(meadow)?, Some(ash));
    /// assert_eq!(d.burn(meadow)?, None, "ash does not burn");
    /// # Ok::<(), octile::dungeon::DungeonError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Dungeon::set_tile`] (a position that is not a cell; a stair tile where a stair
    /// cannot stand). Nothing changes on error.
    pub fn burn(&mut self, pos: Pos) -> Result<Option<TileId>, DungeonError> {
        let Some(after) = self.registry().tile_burns_to(self.tile(pos)?) else { return Ok(None) };
        self.set_tile(pos, after)?;
        Ok(Some(after))
    }

    /// Burns the edge on wall `dir` of the cell at `pos` (a wooden door to an open
    /// doorway): its state becomes the one its registry entry `burns_to`. Returns the new
    /// state, or `None` when the state does not burn. A game keeping a path graph passes
    /// the change on with [`crate::path::PathGraph::update_edge`].
    ///
    /// # Errors
    ///
    /// As [`Dungeon::edge_state`]; [`DungeonError::BorderEdge`] for a wall on the grid's
    /// border.
    pub fn burn_edge(&mut self, pos: Pos, dir: Direction) -> Result<Option<EdgeStateId>, DungeonError> {
        let Slot { row, col } = pos.slot;
        let border = DungeonError::BorderEdge { level: pos.level, row, col, dir };
        let before = self.edge_state(pos, dir)?.ok_or(border)?;
        let Some(after) = self.registry().edge_burns_to(before) else { return Ok(None) };
        self.set_edge(pos, dir, after)?;
        Ok(Some(after))
    }
}

#[cfg(test)]
mod tests {
    use crate::dungeon::{Dungeon, DungeonError, EdgeDef, Fill, Registry, TileDef};
    use crate::geometry::Proportions;
    use crate::grid::{Direction, Pos};
    use crate::path::{PathGraph, PathRules};

    #[test]
    fn a_burnt_door_opens_the_way_and_the_kept_graph_follows() {
        let registry = Registry::from_defs(
            vec![TileDef::rock("rock", '#'), TileDef::floor("floor", '.')],
            vec![
                EdgeDef::wall("wall", '|'),
                EdgeDef::open("open", 'o'),
                EdgeDef { burns_to: Some("open".into()), ..EdgeDef::door("wood", 'W', "wood_open") },
                EdgeDef::open_door("wood_open", '/', "wood"),
            ],
        )
        .unwrap();
        let wood = registry.expect_edge("wood").unwrap();
        let mut d = Dungeon::with_registry(2, 1, 1, Proportions::default(), registry, Fill::Floor).unwrap();
        let west = Pos::new(0, 0, 0);
        d.set_edge(west, Direction::E, wood).unwrap();
        let mut graph = PathGraph::new(&d).unwrap();
        assert_eq!(graph.regions(&PathRules::default()).count(), 2);
        assert_eq!(d.burn_edge(west, Direction::E).unwrap(), d.registry().edge("open"));
        graph.update_edge(&d, west, Direction::E).unwrap();
        assert_eq!(graph.regions(&PathRules::default()).count(), 1);
        assert_eq!(d.burn_edge(west, Direction::E).unwrap(), None, "an open seam does not burn");
        assert_eq!(d.burn(west).unwrap(), None, "nothing in this registry's tiles burns");
        assert!(matches!(d.burn_edge(west, Direction::W), Err(DungeonError::BorderEdge { .. })));
        assert!(d.burn(Pos::new(0, 0, 1)).is_err(), "not a cell");
    }
}
