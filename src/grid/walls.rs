//! Every cell's walls with what lies beyond them, read once for a grid: for readers that
//! visit every cell of every level (path and room graphs, generation), so that each visit
//! is an array read instead of [`Dims::neighbor`] and [`Dims::edge`] with their checks.

use super::{Dims, Direction};

/// One wall of a cell that has a neighbour beyond it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wall {
    /// The wall's direction from the cell.
    pub dir: Direction,
    /// The slot index ([`Dims::index`]) of the cell beyond it.
    pub to: u32,
    /// The index ([`Dims::edge_index`]) of the edge between the two cells: the same edge
    /// from both sides.
    pub edge: u32,
}

/// The walls of every cell of one grid that have a neighbour (in [`Dims::walls`] order;
/// walls on the grid's border are left out), by slot index; the same on every level.
/// Void slots have none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Walls {
    start: Vec<u32>,
    walls: Vec<Wall>,
}

impl Walls {
    /// Reads the walls of every cell of `dims` ([`Dims::wall_beyond`] owns the rules; this
    /// asks it once per wall).
    ///
    /// # Panics
    ///
    /// Never: the `expect`s restate that the walls of a cell of the grid are asked.
    #[must_use]
    pub fn of(dims: Dims) -> Walls {
        let slots = dims.slot_count();
        let mut walls = Walls { start: Vec::with_capacity(slots + 1), walls: Vec::with_capacity(slots * 3) };
        walls.start.push(0);
        for i in 0..slots {
            let slot = dims.slot_at(i).expect("invariant: an index below slot_count");
            for &dir in dims.walls(slot).unwrap_or(&[]) {
                let Some((beyond, edge)) = dims.wall_beyond(slot, dir).expect("invariant: a wall of a cell")
                else {
                    continue;
                };
                walls.walls.push(Wall {
                    dir,
                    to: dims.index(beyond).expect("invariant: a neighbour in the grid") as u32,
                    edge: dims.edge_index(edge).expect("invariant: an edge of the grid") as u32,
                });
            }
            walls.start.push(walls.walls.len() as u32);
        }
        walls
    }

    /// The walls with a neighbour of the slot with index `i` (none for a Void slot or an
    /// index past the grid).
    #[must_use]
    pub fn of_slot(&self, i: usize) -> &[Wall] {
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&from), Some(&to)) => &self.walls[from as usize..to as usize],
            _ => &[],
        }
    }

    /// The number of slots the table covers ([`Dims::slot_count`] of its grid).
    #[must_use]
    pub fn slot_count(&self) -> usize {
        self.start.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Slot;

    #[test]
    fn every_wall_matches_the_grids_own_answers() {
        let dims = Dims::from_octagons(4, 3).unwrap();
        let walls = Walls::of(dims);
        assert_eq!(walls.slot_count(), dims.slot_count());
        let mut seen = 0;
        for i in 0..dims.slot_count() {
            let slot: Slot = dims.slot_at(i).unwrap();
            let expected: Vec<Wall> = dims
                .walls(slot)
                .unwrap_or(&[])
                .iter()
                .filter_map(|&dir| {
                    let beyond = dims.neighbor(slot, dir).unwrap()?;
                    let edge = dims.edge(slot, dir).unwrap().unwrap();
                    let (to, edge) = (dims.index(beyond).unwrap(), dims.edge_index(edge).unwrap());
                    Some(Wall { dir, to: to as u32, edge: edge as u32 })
                })
                .collect();
            assert_eq!(walls.of_slot(i), expected.as_slice(), "slot {slot:?}");
            seen += expected.len();
        }
        // Each edge between two cells is seen once from each side.
        assert_eq!(seen, 2 * dims.edges().count());
        assert!(walls.of_slot(dims.slot_count()).is_empty());
    }
}
