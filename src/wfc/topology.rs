//! `Topology`: which cells a WFC problem has, which cell lies across each of their walls,
//! and which wall of the neighbour faces back. The solver never knows what shape a cell is.

use super::SolveError;
use crate::grid::{Dims, Direction, Slot, SlotKind};

/// What lies across one wall of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Neighbor {
    /// Another cell of the problem (by cell index).
    Cell(u32),
    /// The outside of the grid (the border socket applies).
    Border,
    /// The cell has no wall in this direction (a connector's cardinal directions).
    Absent,
}

const BORDER: u32 = u32::MAX;
const ABSENT: u32 = u32::MAX - 1;
/// The most cells a topology holds: cell indices are `u32`, and the two largest values mark
/// the border and absent walls.
pub const MAX_CELLS: u64 = ABSENT as u64;

/// Cells, their walls (`dirs` per cell, some absent) and neighbours across each wall.
///
/// Wall `d` of a cell faces wall `opposite(d)` of the neighbour across it. Every cell has a
/// class (0, 1, ...): the solver only offers a cell the tiles of its class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    dirs: usize,
    opposite: Vec<u8>,
    neighbors: Vec<u32>,
    classes: Vec<u8>,
    coords: Vec<(u32, u32)>,
}

impl Topology {
    /// A square grid of `cols x rows` cells, row-major; walls 0 N, 1 E, 2 S, 3 W.
    ///
    /// # Panics
    /// When `cols * rows` is over [`MAX_CELLS`] (cell indices are `u32`); see
    /// [`Topology::try_square`] for an error instead.
    #[must_use]
    pub fn square(cols: u32, rows: u32) -> Topology {
        Topology::try_square(cols, rows).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Topology::square`], or an error for a grid of more than [`MAX_CELLS`] cells
    /// (checked before anything is allocated).
    ///
    /// # Errors
    /// [`SolveError::BadInput`] when `cols * rows` is over [`MAX_CELLS`].
    pub fn try_square(cols: u32, rows: u32) -> Result<Topology, SolveError> {
        let cells = u64::from(cols) * u64::from(rows);
        let n = usize::try_from(cells).ok().filter(|_| cells <= MAX_CELLS).ok_or_else(|| {
            SolveError::BadInput {
                reason: format!(
                    "grid {cols}x{rows}: {cells} cells, over the {MAX_CELLS} a topology can number \
                 (octile::wfc::MAX_CELLS)"
                ),
            }
        })?;
        let mut coords = Vec::with_capacity(n);
        for r in 0..rows {
            coords.extend((0..cols).map(|c| (r, c)));
        }
        let mut neighbors = vec![BORDER; n * 4];
        for (walls, &(r, c)) in neighbors.chunks_exact_mut(4).zip(&coords) {
            let at = r * cols + c;
            if r > 0 {
                walls[0] = at - cols;
            }
            if c + 1 < cols {
                walls[1] = at + 1;
            }
            if r + 1 < rows {
                walls[2] = at + cols;
            }
            if c > 0 {
                walls[3] = at - 1;
            }
        }
        Ok(Topology { dirs: 4, opposite: vec![2, 3, 0, 1], neighbors, classes: vec![0; n], coords })
    }

    /// One level of the octile grid: every cell slot (octagons class 0, connectors class 1)
    /// in row-major order; wall `d` is `Direction::ALL[d]` (connectors have only the four
    /// diagonals, the cardinals are [`Neighbor::Absent`]).
    ///
    /// # Panics
    /// Never: it asks `dims` only about its own cell slots and their walls.
    #[must_use]
    pub fn octile(dims: Dims) -> Topology {
        let cell_of = octile_cell_index(dims);
        let mut neighbors = Vec::new();
        let mut classes = Vec::new();
        let mut coords = Vec::new();
        for slot in dims.cells() {
            let kind = slot.kind();
            for dir in Direction::ALL {
                let v = if kind == SlotKind::Connector && !dir.is_diagonal() {
                    ABSENT
                } else {
                    match dims.neighbor(slot, dir).expect("invariant: cell slot and its own walls") {
                        Some(n) => cell_of[dims.index(n).expect("invariant: inside")],
                        None => BORDER,
                    }
                };
                neighbors.push(v);
            }
            classes.push(u8::from(kind == SlotKind::Connector));
            coords.push((slot.row, slot.col));
        }
        let opposite = Direction::ALL.iter().map(|d| d.opposite().index() as u8).collect();
        Topology { dirs: 8, opposite, neighbors, classes, coords }
    }

    /// Number of cells.
    #[must_use]
    pub fn cell_count(&self) -> usize {
        self.classes.len()
    }

    /// Walls per cell (some may be absent).
    #[must_use]
    pub fn dirs(&self) -> usize {
        self.dirs
    }

    /// The wall of the neighbour that faces wall `dir`.
    #[must_use]
    pub fn opposite(&self, dir: usize) -> usize {
        usize::from(self.opposite[dir])
    }

    /// What lies across wall `dir` of `cell`.
    #[must_use]
    pub fn neighbor(&self, cell: usize, dir: usize) -> Neighbor {
        match self.neighbors[cell * self.dirs + dir] {
            BORDER => Neighbor::Border,
            ABSENT => Neighbor::Absent,
            n => Neighbor::Cell(n),
        }
    }

    /// The class of `cell` (which tiles it may take).
    #[must_use]
    pub fn class(&self, cell: usize) -> u8 {
        self.classes[cell]
    }

    /// `(row, col)` of `cell` in the grid it was built from (slot coordinates for octile).
    #[must_use]
    pub fn coords(&self, cell: usize) -> (u32, u32) {
        self.coords[cell]
    }

    /// The class of every cell, by cell index.
    pub(crate) fn classes(&self) -> &[u8] {
        &self.classes
    }

    /// The neighbour table (as [`Topology::raw_neighbors`]), the classes and the
    /// coordinates of every cell, moved out.
    pub(crate) fn into_parts(self) -> (Vec<u32>, Vec<u8>, Vec<(u32, u32)>) {
        (self.neighbors, self.classes, self.coords)
    }

    /// Raw neighbour table for the solver's inner loop: `u32::MAX` border, `u32::MAX - 1`
    /// absent.
    pub(crate) fn raw_neighbors(&self) -> &[u32] {
        &self.neighbors
    }

    pub(crate) const RAW_BORDER: u32 = BORDER;
}

/// For every slot of `dims`, the octile cell index of that slot (`u32::MAX` for Void slots):
/// cells are numbered row-major over cell slots, as in [`Topology::octile`].
#[must_use]
pub fn octile_cell_index(dims: Dims) -> Vec<u32> {
    let mut out = vec![u32::MAX; dims.slot_count()];
    let mut next = 0u32;
    for (i, slot) in dims.slots().enumerate() {
        if slot.kind().is_cell() {
            out[i] = next;
            next += 1;
        }
    }
    out
}

/// The slot of every octile cell index (the inverse of [`octile_cell_index`]).
#[must_use]
pub fn octile_cell_slots(dims: Dims) -> Vec<Slot> {
    dims.cells().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_symmetric(t: &Topology) {
        for c in 0..t.cell_count() {
            for d in 0..t.dirs() {
                if let Neighbor::Cell(n) = t.neighbor(c, d) {
                    assert_eq!(
                        t.neighbor(n as usize, t.opposite(d)),
                        Neighbor::Cell(c as u32),
                        "cell {c} dir {d}"
                    );
                }
            }
        }
    }

    #[test]
    fn square_neighbours_are_symmetric() {
        let t = Topology::square(5, 3);
        assert_eq!(t.cell_count(), 15);
        assert_eq!(t.neighbor(0, 0), Neighbor::Border);
        assert_eq!(t.neighbor(0, 1), Neighbor::Cell(1));
        assert_eq!(t.neighbor(0, 2), Neighbor::Cell(5));
        assert_symmetric(&t);
    }

    /// Regression: `square(70000, 70000)` overflowed `u32` cell indices.
    #[test]
    fn a_square_grid_too_large_to_number_is_refused() {
        let err = Topology::try_square(70_000, 70_000).unwrap_err().to_string();
        assert!(err.contains("70000x70000") && err.contains("MAX_CELLS"), "{err}");
        let ok = Topology::try_square(3, 2).unwrap();
        assert_eq!(ok, Topology::square(3, 2));
        let panic = std::panic::catch_unwind(|| Topology::square(70_000, 70_000)).unwrap_err();
        let message = panic.downcast_ref::<String>().unwrap();
        assert!(message.contains("MAX_CELLS"), "{message}");
    }

    #[test]
    fn octile_neighbours_are_symmetric() {
        let dims = Dims::from_octagons(4, 3).unwrap();
        let t = Topology::octile(dims);
        assert_eq!(t.cell_count(), dims.octagon_count() + dims.connector_count());
        assert_symmetric(&t);
        let conn = octile_cell_index(dims)[dims.index(Slot::new(1, 1)).unwrap()] as usize;
        assert_eq!(t.class(conn), 1);
        assert_eq!(t.neighbor(conn, Direction::N.index()), Neighbor::Absent);
        assert_eq!(t.coords(conn), (1, 1));
        assert_eq!(octile_cell_slots(dims)[conn], Slot::new(1, 1));
    }
}
