//! Carved cells and carved seams: the rules, asked of one cell ([`Dungeon::is_carved`]) or
//! one wall ([`Dungeon::carved_seam`]), and the same rules read for a whole level at a time
//! for readers that walk every cell ([`Dungeon::carved_slots`] with
//! [`Dungeon::carved_seam_of`]).

use super::{Carve, Dungeon, EdgeDef, TileId};
use crate::grid::{Direction, Pos, Wall};

/// The seam rule: a seam is carved when its edge state carves (open or a door) and the
/// cells on both sides are carved.
fn seam_if_carved(def: &EdgeDef, both_sides_carved: bool) -> Option<&EdgeDef> {
    (def.carve != Carve::None && both_sides_carved).then_some(def)
}

impl Dungeon {
    /// Whether the cell at `pos` is carved (its tile's definition says so); `false` for a
    /// position outside the dungeon or on a Void slot.
    #[must_use]
    pub fn is_carved(&self, pos: Pos) -> bool {
        self.cell_def(pos).is_some_and(|t| t.carved)
    }

    /// Whether wall `dir` of the cell at `pos` has an edge state that carves (open or a
    /// door), whatever the cells either side are: `false` for the grid's border and
    /// positions outside the dungeon. [`Dungeon::carved_seam`] adds the cells.
    #[must_use]
    pub fn edge_carves(&self, pos: Pos, dir: Direction) -> bool {
        let state = self.edge_state_at(pos, dir);
        state.and_then(|s| self.registry().edge_def(s)).is_some_and(|def| def.carve != Carve::None)
    }

    /// The edge definition of wall `dir` of the cell at `pos` when the seam through it is
    /// carved (both cells carved, an edge state that carves: open or a door), else `None`
    /// (the grid's border, rock on either side, or a wall state).
    #[must_use]
    pub fn carved_seam(&self, pos: Pos, dir: Direction) -> Option<&EdgeDef> {
        let (other, state) = self.wall_state_at(pos, dir)?;
        let def = self.registry().edge_def(state)?;
        seam_if_carved(def, self.is_carved(pos) && self.is_carved(Pos { slot: other, ..pos }))
    }

    /// Per slot of `level`, by slot index ([`crate::grid::Dims::index`]): whether it is a
    /// cell whose tile is carved (`false` for Void slots), read from the level's dense layer
    /// with one registry lookup per tile kind.
    ///
    /// # Errors
    ///
    /// [`super::DungeonError::Level`] when `level` is not a level of the dungeon.
    pub fn carved_slots(&self, level: u16) -> Result<Vec<bool>, super::DungeonError> {
        let carved_tile: Vec<bool> = self.registry().tiles().iter().map(|t| t.carved).collect();
        let layer = self.tile_layer(level)?.as_slice();
        let carved = |tile: TileId| carved_tile.get(usize::from(tile.0)).copied().unwrap_or(false);
        // The layer is row-major over every slot, as `Dims::slots` walks them.
        Ok(layer
            .iter()
            .zip(self.dims().slots())
            .map(|(&tile, slot)| slot.kind().is_cell() && carved(tile))
            .collect())
    }

    /// [`Dungeon::carved_seam`] through `wall` ([`crate::grid::Walls`] of the dungeon's
    /// grid) of the cell with slot index `from` on `level`, for readers that walk every
    /// cell: `carved` is [`Dungeon::carved_slots`] of that level. `None` as there, and also
    /// when `level`, `wall` or `carved` do not belong to this dungeon.
    #[must_use]
    pub fn carved_seam_of(&self, level: u16, carved: &[bool], from: usize, wall: &Wall) -> Option<&EdgeDef> {
        let state = *self.edge_layer(level).ok()?.get(wall.edge as usize)?;
        let def = self.registry().edge_def(state)?;
        let side = |i: usize| carved.get(i).copied().unwrap_or(false);
        seam_if_carved(def, side(from) && side(wall.to as usize))
    }
}

#[cfg(test)]
mod tests {
    use crate::generate::{GenerateOptions, generate};
    use crate::grid::{Pos, Walls};

    #[test]
    fn a_level_read_at_once_gives_the_same_cells_and_seams_as_asking_each() {
        let options =
            GenerateOptions { seed: 5, levels: 2, cols: 9, rows: 7, doors: 0.5, ..Default::default() };
        let d = generate(&options, &mut |_| {}).unwrap();
        let dims = d.dims();
        let walls = Walls::of(dims);
        let (mut carved_seams, mut doors) = (0, 0);
        for level in 0..d.levels() {
            let carved = d.carved_slots(level).unwrap();
            for (i, &flag) in carved.iter().enumerate() {
                let pos = Pos { level, slot: dims.slot_at(i).unwrap() };
                assert_eq!(flag, d.cell_def(pos).is_some_and(|t| t.carved), "{pos:?}");
                for wall in walls.of_slot(i) {
                    let one = d.carved_seam(pos, wall.dir);
                    assert_eq!(d.carved_seam_of(level, &carved, i, wall), one, "{pos:?} {:?}", wall.dir);
                    carved_seams += usize::from(one.is_some());
                    doors += usize::from(one.is_some_and(|e| e.carve == super::Carve::Door));
                }
            }
        }
        assert!(carved_seams > 50 && doors > 0, "{carved_seams} seams, {doors} doors");
        assert!(d.carved_slots(d.levels()).is_err());
    }
}
