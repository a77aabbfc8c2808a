//! Integer geometry on the slot array: the Chebyshev distance, and the cells of a square,
//! a disc or a cone round a slot, found by iterators that allocate nothing, plus the
//! nearest cell that passes a test, searched ring by ring in a pinned order. Distances
//! are in slots (one slot is the same length, the cell spacing, along rows and columns),
//! so a disc of radius `r` slots is a circle of `r * spacing` metres.

use super::{Dims, Direction, Slot};

/// The Chebyshev (king's move) distance between two slots, in slots: the larger of the
/// row and column differences.
#[must_use]
pub const fn chebyshev(a: Slot, b: Slot) -> u32 {
    let (dr, dc) = (a.row.abs_diff(b.row), a.col.abs_diff(b.col));
    if dr > dc { dr } else { dc }
}

/// The cells (octagons and connectors) of `dims` within the square of Chebyshev radius
/// `radius` round `centre` (`centre` itself included when it is a cell), row-major,
/// clipped to the grid.
///
/// ```
/// use octile::grid::{Dims, Slot, square};
///
/// let dims = Dims::from_octagons(5, 5)?;
/// let cells: Vec<Slot> = square(dims, Slot::new(0, 0), 1).collect();
/// assert_eq!(cells, [Slot::new(0, 0), Slot::new(1, 1)], "Void slots are not cells");
/// assert_eq!(square(dims, Slot::new(4, 4), 2).count(), 9 + 4);
/// # Ok::<(), octile::grid::GridError>(())
/// ```
pub fn square(dims: Dims, centre: Slot, radius: u32) -> impl Iterator<Item = Slot> {
    let span =
        |c: u32, len: u32| c.saturating_sub(radius)..c.saturating_add(radius).saturating_add(1).min(len);
    let (rows, cols) = (span(centre.row, dims.rows()), span(centre.col, dims.cols()));
    rows.flat_map(move |row| cols.clone().map(move |col| Slot::new(row, col))).filter(|s| s.kind().is_cell())
}

/// The cells of [`square`] whose centre is at most `radius` slots from `centre`'s
/// (`d_row² + d_col² <= radius²`, exact in integers), row-major.
pub fn disc(dims: Dims, centre: Slot, radius: u32) -> impl Iterator<Item = Slot> {
    let r2 = u64::from(radius) * u64::from(radius);
    square(dims, centre, radius).filter(move |&s| distance2(centre, s) <= r2)
}

/// The cells of [`disc`] other than `centre` that lie within 45 degrees either side of
/// `dir` as seen from `centre` (boundary included): a quarter of the disc, decided in
/// integers (no trigonometry), row-major.
///
/// ```
/// use octile::grid::{Dims, Direction, Slot, cone};
///
/// let dims = Dims::from_octagons(9, 9)?;
/// let north: Vec<Slot> = cone(dims, Slot::new(8, 8), Direction::N, 2).collect();
/// // (6, 6) and (6, 10) are within 45 degrees but 2.83 slots away.
/// assert_eq!(north, [Slot::new(6, 8), Slot::new(7, 7), Slot::new(7, 9)]);
/// # Ok::<(), octile::grid::GridError>(())
/// ```
pub fn cone(dims: Dims, centre: Slot, dir: Direction, radius: u32) -> impl Iterator<Item = Slot> {
    disc(dims, centre, radius).filter(move |&s| s != centre && within_45(dir, offset(centre, s)))
}

/// The first cell of `dims`, nearest to `centre` by [`chebyshev`] distance (up to
/// `max_radius`), for which `accept` is true. Pinned order: ring by ring outwards from
/// `centre` itself; each ring clockwise from its north-west corner (east along the top
/// row, south down the right column, west along the bottom row, north up the left column).
///
/// ```
/// use octile::grid::{Dims, Slot, nearest_from};
///
/// let dims = Dims::from_octagons(5, 5)?;
/// // The nearest octagon (even, even) to a connector: the ring's north-west corner first.
/// let near = nearest_from(dims, Slot::new(3, 3), 4, |s| s.row % 2 == 0 && s.col % 2 == 0);
/// assert_eq!(near, Some(Slot::new(2, 2)));
/// # Ok::<(), octile::grid::GridError>(())
/// ```
pub fn nearest_from(
    dims: Dims,
    centre: Slot,
    max_radius: u32,
    mut accept: impl FnMut(Slot) -> bool,
) -> Option<Slot> {
    (0..=max_radius)
        .flat_map(|r| ring(centre, r))
        .filter_map(|(row, col)| {
            let slot = Slot::new(u32::try_from(row).ok()?, u32::try_from(col).ok()?);
            (dims.contains(slot) && slot.kind().is_cell()).then_some(slot)
        })
        .find(|&s| accept(s))
}

/// The slots at Chebyshev distance `r` from `centre` as signed `(row, col)`, in the pinned
/// order of [`nearest_from`].
fn ring(centre: Slot, r: u32) -> impl Iterator<Item = (i64, i64)> {
    let (cr, cc, r) = (i64::from(centre.row), i64::from(centre.col), i64::from(r));
    let side = 2 * r;
    let count = if r == 0 { 1 } else { 4 * side };
    (0..count).map(move |k| {
        if r == 0 {
            return (cr, cc);
        }
        let (edge, t) = (k / side, k % side);
        match edge {
            0 => (cr - r, cc - r + t),
            1 => (cr - r + t, cc + r),
            2 => (cr + r, cc + r - t),
            _ => (cr + r - t, cc - r),
        }
    })
}

/// `(d_row, d_col)` from `a` to `b`.
fn offset(a: Slot, b: Slot) -> (i64, i64) {
    (i64::from(b.row) - i64::from(a.row), i64::from(b.col) - i64::from(a.col))
}

/// The squared distance between two slots' centres, in slots.
fn distance2(a: Slot, b: Slot) -> u64 {
    let (dr, dc) = offset(a, b);
    (dr * dr + dc * dc) as u64
}

/// Whether offset `(dr, dc)` lies within 45 degrees of `dir` (boundary included).
fn within_45(dir: Direction, (dr, dc): (i64, i64)) -> bool {
    let (ur, uc) = dir.unit();
    let (ur, uc) = (i64::from(ur), i64::from(uc));
    if dir.is_diagonal() {
        // The quadrant between the diagonal's two cardinals.
        dr * ur >= 0 && dc * uc >= 0
    } else {
        // Along the cardinal at least as far as across it.
        let (along, across) = (dr * ur + dc * uc, (dr * uc - dc * ur).abs());
        along >= across
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: every slot of the grid, tested one by one with floats.
    fn brute(dims: Dims, keep: impl Fn(Slot) -> bool) -> Vec<Slot> {
        dims.cells().filter(|&s| keep(s)).collect()
    }

    #[test]
    fn shapes_match_a_brute_force_reference() {
        let dims = Dims::from_octagons(7, 6).unwrap();
        for centre in [Slot::new(0, 0), Slot::new(5, 6), Slot::new(10, 12), Slot::new(3, 3)] {
            for radius in [0, 1, 2, 3, 5, 40] {
                let sq: Vec<Slot> = square(dims, centre, radius).collect();
                assert_eq!(sq, brute(dims, |s| chebyshev(centre, s) <= radius), "{centre} {radius}");
                let d: Vec<Slot> = disc(dims, centre, radius).collect();
                let euclid = |s: Slot| {
                    let (dr, dc) = offset(centre, s);
                    ((dr * dr + dc * dc) as f64).sqrt() <= f64::from(radius)
                };
                assert_eq!(d, brute(dims, euclid));
                for dir in Direction::ALL {
                    let c: Vec<Slot> = cone(dims, centre, dir, radius).collect();
                    let (ur, uc) = dir.unit();
                    let angle = |s: Slot| {
                        let (dr, dc) = offset(centre, s);
                        let (v, u) = ((dr as f64, dc as f64), (f64::from(ur), f64::from(uc)));
                        let cos = (v.0 * u.0 + v.1 * u.1)
                            / ((v.0 * v.0 + v.1 * v.1).sqrt() * (u.0 * u.0 + u.1 * u.1).sqrt());
                        cos >= std::f64::consts::FRAC_1_SQRT_2 - 1e-12
                    };
                    assert_eq!(
                        c,
                        brute(dims, |s| s != centre && euclid(s) && angle(s)),
                        "{centre} {dir:?} {radius}"
                    );
                }
            }
        }
    }

    #[test]
    fn nearest_follows_rings_in_the_pinned_order() {
        let dims = Dims::from_octagons(6, 6).unwrap();
        let centre = Slot::new(5, 5);
        // Every cell once, by ring, each ring from its north-west corner clockwise.
        let mut order = Vec::new();
        let mut taken: Vec<Slot> = Vec::new();
        while let Some(s) = nearest_from(dims, centre, 20, |s| !taken.contains(&s)) {
            taken.push(s);
            order.push(s);
        }
        assert_eq!(order.len(), dims.cells().count());
        assert!(order.windows(2).all(|w| chebyshev(centre, w[0]) <= chebyshev(centre, w[1])));
        assert_eq!(&order[..5], [centre, Slot::new(4, 4), Slot::new(4, 6), Slot::new(6, 6), Slot::new(6, 4)]);
        assert_eq!(nearest_from(dims, centre, 0, |s| s != centre), None, "radius 0 is the centre alone");
        assert_eq!(
            nearest_from(dims, Slot::new(0, 0), 3, |s| s.col == 2 && s.row == 2),
            Some(Slot::new(2, 2))
        );
    }
}
