//! `square17`: the tutorial tile set on a square grid. Tile 0 is solid ("void"); tiles 1..=16
//! are floor with a 4-bit wall mask (bit 0 N, 1 E, 2 S, 3 W; a set bit is a wall).

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::tileset::floor_weight;
use super::{
    LEGAL_SEAMS, SOCKET_NAMES, SOCKET_SOLID, SolveError, SolveInput, SolveProgress, Solver, TileIndex,
    TileSet, TileSpec, Topology, check_weight, socket_of,
};

/// Weights of the square17 tiles: solid gets `void_weight`; a floor tile with `w` walls
/// gets `open_weight * wall_factor^w`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Weight of the solid tile.
    pub void_weight: f64,
    /// Weight of a floor tile with no walls.
    pub open_weight: f64,
    /// Factor per wall (< 1 makes walled tiles rarer).
    pub wall_factor: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights { void_weight: 2.0, open_weight: 1.0, wall_factor: 0.4 }
    }
}

impl Weights {
    /// Checks every weight is finite and not negative.
    ///
    /// # Errors
    /// [`SolveError::BadWeight`] naming the first weight that is not.
    pub fn validate(&self) -> Result<(), SolveError> {
        check_weight("void_weight", self.void_weight)?;
        check_weight("open_weight", self.open_weight)?;
        check_weight("wall_factor", self.wall_factor)?;
        Ok(())
    }
}

/// The tile of a cell: `None` solid, `Some(mask)` floor.
#[must_use]
pub fn tile(mask: Option<u8>) -> TileIndex {
    TileIndex(mask.map_or(0, |m| u16::from(m & 15) + 1))
}

/// The cell a tile stands for: `None` solid, `Some(mask)` floor.
#[must_use]
pub fn mask_of(tile: TileIndex) -> Option<u8> {
    (tile.0 > 0).then(|| (tile.0 - 1) as u8)
}

/// The 17 tiles with the given weights.
///
/// # Errors
/// As [`Weights::validate`].
pub fn tileset(weights: &Weights) -> Result<TileSet, SolveError> {
    weights.validate()?;
    let tiles = std::iter::once(None)
        .chain((0u8..16).map(Some))
        .map(|mask| TileSpec {
            class: 0,
            weight: match mask {
                None => weights.void_weight,
                Some(m) => floor_weight(weights.open_weight, weights.wall_factor, m.count_ones()),
            },
            sockets: (0..4).map(|b| socket_of(mask, b)).collect(),
        })
        .collect();
    TileSet::new(4, &SOCKET_NAMES, &LEGAL_SEAMS, tiles)
}

/// A solved square grid: one `Option<u8>` per cell, row-major (`None` solid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SquareGrid {
    /// Columns.
    pub cols: u32,
    /// Rows.
    pub rows: u32,
    /// Cells, row-major: `None` solid, `Some(mask)` floor.
    pub cells: Vec<Option<u8>>,
}

impl SquareGrid {
    /// One line per row, one character per cell: `#` solid, otherwise the mask as one
    /// lowercase hex digit.
    ///
    /// # Panics
    /// Never: masks are 4-bit.
    #[must_use]
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(self.cells.len() + self.rows as usize);
        for row in self.cells.chunks(self.cols as usize) {
            for c in row {
                out.push(match c {
                    None => '#',
                    Some(m) => char::from_digit(u32::from(*m), 16).expect("invariant: 4-bit mask"),
                });
            }
            out.push('\n');
        }
        out
    }

    /// Which cells are floor, row-major.
    #[must_use]
    pub fn floor_map(&self) -> Vec<bool> {
        self.cells.iter().map(Option::is_some).collect()
    }
}

/// The masks a floor/solid map implies: a floor cell's bit is set on every side that faces
/// solid or the outside. `floor` is row-major, one entry per cell.
///
/// # Panics
/// When `floor` does not have `cols * rows` entries.
#[must_use]
pub fn derive_masks(floor: &[bool], cols: u32, rows: u32) -> Vec<Option<u8>> {
    let (cols, rows) = (cols as usize, rows as usize);
    let cells = cols.checked_mul(rows);
    assert!(
        cells == Some(floor.len()),
        "derive_masks: the floor map has {} entries, but a {cols}x{rows} grid has {}",
        floor.len(),
        u128::from(cols as u64) * u128::from(rows as u64)
    );
    let at = |r: usize, c: usize| floor[r * cols + c];
    (0..rows * cols)
        .map(|i| {
            let (r, c) = (i / cols, i % cols);
            at(r, c).then(|| {
                let open = [
                    r > 0 && at(r - 1, c),
                    c + 1 < cols && at(r, c + 1),
                    r + 1 < rows && at(r + 1, c),
                    c > 0 && at(r, c - 1),
                ];
                open.iter().enumerate().fold(0u8, |m, (b, o)| if *o { m } else { m | 1 << b })
            })
        })
        .collect()
}

/// Solves a `cols x rows` square17 grid with the outside solid, seeded by `seed`.
///
/// # Errors
/// [`SolveError::BadInput`] for an empty grid or one of more than
/// [`crate::wfc::MAX_CELLS`] cells, the errors of [`tileset`], and the solver's when no
/// tiling is found within its budget.
///
/// ```
/// use octile::wfc::square17::{Weights, derive_masks, generate};
///
/// let grid = generate(16, 8, &Weights::default(), 3, &mut |_| {}).unwrap();
/// assert_eq!(grid.render().lines().count(), 8);
/// assert_eq!(grid.cells, derive_masks(&grid.floor_map(), 16, 8));
/// ```
pub fn generate(
    cols: u32,
    rows: u32,
    weights: &Weights,
    seed: u64,
    progress: &mut dyn FnMut(SolveProgress),
) -> Result<SquareGrid, SolveError> {
    if cols == 0 || rows == 0 {
        return Err(SolveError::BadInput {
            reason: format!("grid {cols}x{rows}: both sides must be at least 1"),
        });
    }
    let tileset = tileset(weights)?;
    let cells = u64::from(cols) * u64::from(rows);
    let bytes = super::estimated_bytes(cells, &tileset);
    if bytes > super::MEMORY_LIMIT {
        return Err(SolveError::TooLarge { cells: cells as usize, bytes, limit: super::MEMORY_LIMIT });
    }
    let mut solver = Solver::from_topology(Topology::try_square(cols, rows)?, &tileset)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let input = SolveInput { seed, border: Some(SOCKET_SOLID), ..SolveInput::default() };
    let tiles = solver.solve(&input, &mut rng, progress)?;
    Ok(SquareGrid { cols, rows, cells: tiles.into_iter().map(mask_of).collect() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_round_trip() {
        assert_eq!(mask_of(tile(None)), None);
        for m in 0..16 {
            assert_eq!(mask_of(tile(Some(m))), Some(m));
        }
        assert_eq!(tileset(&Weights::default()).unwrap().len(), 17);
    }

    /// Regression: a floor map of the wrong length indexed out of bounds.
    #[test]
    fn derive_masks_names_a_wrong_length() {
        let panic = std::panic::catch_unwind(|| derive_masks(&[true; 5], 3, 2)).unwrap_err();
        let message = panic.downcast_ref::<String>().unwrap();
        assert!(message.contains("5 entries") && message.contains("3x2 grid has 6"), "{message}");
    }

    #[test]
    fn derive_masks_of_a_plus() {
        // .#.
        // ...
        // .#.
        let floor = [true, false, true, true, true, true, true, false, true];
        let m = derive_masks(&floor, 3, 3);
        assert_eq!(m[1], None);
        assert_eq!(m[4], Some(0b0101)); // N and S face solid
        assert_eq!(m[0], Some(0b1011)); // N, E, W
    }

    #[test]
    fn small_grid_solves_and_renders() {
        let g = generate(8, 5, &Weights::default(), 3, &mut |_| {}).unwrap();
        let text = g.render();
        assert_eq!(text.lines().count(), 5);
        assert!(text.lines().all(|l| l.len() == 8));
        assert_eq!(g.cells, derive_masks(&g.floor_map(), 8, 5));
    }

    #[test]
    fn bad_weights_are_refused() {
        let w = Weights { wall_factor: f64::NAN, ..Weights::default() };
        assert!(matches!(generate(4, 4, &w, 1, &mut |_| {}), Err(SolveError::BadWeight { .. })));
        assert!(matches!(
            generate(0, 4, &Weights::default(), 1, &mut |_| {}),
            Err(SolveError::BadInput { .. })
        ));
        assert!(matches!(
            generate(60_000, 60_000, &Weights::default(), 1, &mut |_| {}),
            Err(SolveError::TooLarge { .. })
        ));
    }
}
