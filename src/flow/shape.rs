//! Room outlines in octagons: each shape of docs/flow.md as a family of footprints, and the
//! one drawn for a room's size range.

use std::collections::BTreeMap;

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use crate::dungeon::RoomShape;

/// A room's octagons as `(row, col)` offsets from the north-west corner of its bounding box,
/// row-major, with the box's size.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Footprint {
    /// The octagons, row-major.
    pub(crate) cells: Vec<(u32, u32)>,
    /// Octagon rows of the bounding box.
    pub(crate) rows: u32,
    /// Octagon columns of the bounding box.
    pub(crate) cols: u32,
}

impl Footprint {
    /// The footprint of the cells of a `rows x cols` box that `keep` keeps (`None` when it
    /// keeps none, or leaves a row or column of the box empty).
    fn of(rows: u32, cols: u32, keep: impl Fn(u32, u32) -> bool) -> Option<Footprint> {
        let cells: Vec<(u32, u32)> =
            (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).filter(|&(r, c)| keep(r, c)).collect();
        let full_rows = (0..rows).all(|r| cells.iter().any(|&(cr, _)| cr == r));
        let full_cols = (0..cols).all(|c| cells.iter().any(|&(_, cc)| cc == c));
        (!cells.is_empty() && full_rows && full_cols).then_some(Footprint { cells, rows, cols })
    }

    /// True when the footprint holds octagon `(row, col)` of its box.
    pub(crate) fn contains(&self, row: u32, col: u32) -> bool {
        self.cells.binary_search(&(row, col)).is_ok()
    }

    /// The footprint turned a quarter clockwise.
    fn turned(&self) -> Footprint {
        let mut cells: Vec<(u32, u32)> = self.cells.iter().map(|&(r, c)| (c, self.rows - 1 - r)).collect();
        cells.sort_unstable();
        Footprint { cells, rows: self.cols, cols: self.rows }
    }

    /// The footprint mirrored east-west.
    fn mirrored(&self) -> Footprint {
        let mut cells: Vec<(u32, u32)> = self.cells.iter().map(|&(r, c)| (r, self.cols - 1 - c)).collect();
        cells.sort_unstable();
        Footprint { cells, rows: self.rows, cols: self.cols }
    }
}

/// Largest side of a room's bounding box, in octagons.
const MAX_SIDE: u32 = 12;

/// Every footprint of `shape` (caverns aside) with `lo..=hi` octagons that fits in a
/// `max_rows x max_cols` box, in a fixed order.
fn family(shape: RoomShape, lo: u32, hi: u32, max_rows: u32, max_cols: u32) -> Vec<Footprint> {
    let mut out = Vec::new();
    let sides = |min: u32| (min..=MAX_SIDE).flat_map(move |h| (min..=MAX_SIDE).map(move |w| (h, w)));
    match shape {
        RoomShape::Hall => {
            for (h, w) in sides(2).filter(|&(h, w)| h.max(w) <= 2 * h.min(w) + 1) {
                out.extend(Footprint::of(h, w, |_, _| true));
            }
        }
        RoomShape::Arena => {
            for (h, w) in sides(3).filter(|&(h, w)| 2 * h.max(w) <= 3 * h.min(w)) {
                let c = arena_corner(h, w);
                out.extend(Footprint::of(h, w, |r, col| !in_corner(r, col, h, w, c, c)));
            }
        }
        RoomShape::LBend => {
            for (h, w) in sides(2) {
                // Arms `a` columns and `b` rows thick, at most half the box each way.
                for a in 1..=w.div_ceil(2).min(w - 1) {
                    for b in 1..=h.div_ceil(2).min(h - 1) {
                        // The arms along the north and west sides: the south-east corner goes.
                        out.extend(Footprint::of(h, w, |r, c| r < b || c < a));
                    }
                }
            }
        }
        RoomShape::Tee => {
            for (h, w) in sides(2) {
                for b in 1..=h.div_ceil(2).min(h - 1) {
                    // A bar `b` rows thick along the north side, a stem `a` wide from its middle.
                    for a in (1..w).filter(|a| (w - a) % 2 == 0 && 2 * a <= w + 1) {
                        let side = (w - a) / 2;
                        out.extend(Footprint::of(h, w, |r, c| r < b || (side..side + a).contains(&c)));
                    }
                }
            }
        }
        RoomShape::Rotunda => {
            for n in 3..=MAX_SIDE {
                let t = rotunda_cut(n);
                out.extend(Footprint::of(n, n, |r, c| corner_distance(r, c, n, n) >= t));
            }
        }
        RoomShape::Corridor => {
            for len in 3..=2 * MAX_SIDE {
                out.extend(Footprint::of(1, len, |_, _| true));
            }
        }
        RoomShape::Cavern => {}
    }
    // Every orientation of each footprint of the right size (a hall and a rotunda look the
    // same turned: sorted, the copies are dropped).
    let size_ok = |f: &Footprint| (lo..=hi).contains(&(f.cells.len() as u32));
    let mut all = Vec::new();
    for f in out.into_iter().filter(size_ok) {
        let mut turn = f;
        for _ in 0..4 {
            let mirrored = turn.mirrored();
            let next = turn.turned();
            all.push(turn);
            all.push(mirrored);
            turn = next;
        }
    }
    all.retain(|f| f.rows <= max_rows && f.cols <= max_cols);
    all.sort_unstable();
    all.dedup();
    all
}

/// The side of the square an arena of `h x w` octagons loses at each corner.
pub(crate) fn arena_corner(h: u32, w: u32) -> u32 {
    (h.min(w) / 3).max(1)
}

/// The corner triangle's leg a rotunda of side `n` loses at each corner.
pub(crate) fn rotunda_cut(n: u32) -> u32 {
    n.div_ceil(3).max(1).min(n / 2)
}

/// Octagon `(r, c)` of an `h x w` box's distance from its nearest corner, counted in steps
/// along rows plus steps along columns.
fn corner_distance(r: u32, c: u32, h: u32, w: u32) -> u32 {
    r.min(h - 1 - r) + c.min(w - 1 - c)
}

/// True when `(r, c)` lies in one of the four `ch x cw` corner rectangles of an `h x w` box.
fn in_corner(r: u32, c: u32, h: u32, w: u32, ch: u32, cw: u32) -> bool {
    (r < ch || r >= h - ch) && (c < cw || c >= w - cw)
}

/// The footprints a grid of `rows x cols` octagons holds, by shape and size range, each
/// family listed once and kept (a spec asks for the same few many times).
#[derive(Debug, Clone)]
pub(crate) struct Shapes {
    rows: u32,
    cols: u32,
    families: BTreeMap<(RoomShape, u32, u32), Vec<Footprint>>,
}

impl Shapes {
    /// No family listed yet, for a grid of `rows x cols` octagons.
    pub(crate) fn new(rows: u32, cols: u32) -> Shapes {
        Shapes { rows, cols, families: BTreeMap::new() }
    }

    /// A footprint of `shape` with `lo..=hi` octagons that fits the grid, drawn from `rng`;
    /// `None` when the shape has none of that size there.
    pub(crate) fn draw(
        &mut self,
        shape: RoomShape,
        (lo, hi): (u32, u32),
        rng: &mut ChaCha8Rng,
    ) -> Option<Footprint> {
        if shape == RoomShape::Cavern {
            return cavern(lo, hi, self.rows, self.cols, rng);
        }
        let (rows, cols) = (self.rows, self.cols);
        let all = self.families.entry((shape, lo, hi)).or_insert_with(|| family(shape, lo, hi, rows, cols));
        if all.is_empty() {
            return None;
        }
        let pick = rng.next_u32() as usize % all.len();
        Some(all[pick].clone())
    }
}

/// A cavern: octagons grown from one, each new one beside (across a long edge) one taken,
/// to a size drawn from `lo..=hi`, inside a `max_rows x max_cols` box.
fn cavern(lo: u32, hi: u32, max_rows: u32, max_cols: u32, rng: &mut ChaCha8Rng) -> Option<Footprint> {
    let lo = lo.max(2);
    if hi < lo || max_rows == 0 || max_cols == 0 {
        return None;
    }
    let target = lo + rng.next_u32() % (hi - lo + 1);
    // Grow in a box a little larger than a square of that area, then trim to the cells.
    let side = ((f64::from(target)).sqrt().ceil() as u32 + 2).min(MAX_SIDE);
    let (rows, cols) = (side.min(max_rows), side.min(max_cols));
    if rows * cols < target {
        return None;
    }
    let mut taken = vec![false; (rows * cols) as usize];
    let start = (rows / 2, cols / 2);
    taken[(start.0 * cols + start.1) as usize] = true;
    let mut count = 1;
    while count < target {
        // Frontier cells in row-major order; the draw picks one.
        let frontier: Vec<(u32, u32)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| !taken[(r * cols + c) as usize])
            .filter(|&(r, c)| {
                let near = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
                near.iter().any(|&(nr, nc)| nr < rows && nc < cols && taken[(nr * cols + nc) as usize])
            })
            .collect();
        if frontier.is_empty() {
            return None;
        }
        let (r, c) = frontier[rng.next_u32() as usize % frontier.len()];
        taken[(r * cols + c) as usize] = true;
        count += 1;
    }
    let (r0, c0) = (0..rows * cols)
        .filter(|&i| taken[i as usize])
        .fold((u32::MAX, u32::MAX), |(a, b), i| (a.min(i / cols), b.min(i % cols)));
    let (r1, c1) = (0..rows * cols)
        .filter(|&i| taken[i as usize])
        .fold((0, 0), |(a, b), i| (a.max(i / cols), b.max(i % cols)));
    Footprint::of(r1 - r0 + 1, c1 - c0 + 1, |r, c| taken[((r + r0) * cols + c + c0) as usize])
}

#[cfg(test)]
mod tests {
    use rand_core::SeedableRng;

    use super::*;
    use crate::dungeon::SizeClass;

    #[test]
    fn every_shape_has_footprints_in_its_sizes() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for shape in RoomShape::ALL {
            for class in SizeClass::ALL {
                let range = (*class.octagons().start(), *class.octagons().end());
                let f = Shapes::new(24, 24).draw(shape, range, &mut rng);
                let fits = matches!(shape, RoomShape::Corridor) && class == SizeClass::Huge;
                if fits {
                    assert!(f.is_none(), "{shape} {class}: a corridor is at most 24 long");
                    continue;
                }
                let f = f.unwrap_or_else(|| panic!("{shape} {class}"));
                assert!((range.0..=range.1).contains(&(f.cells.len() as u32)), "{shape} {class}: {f:?}");
                assert!(f.cells.iter().all(|&(r, c)| r < f.rows && c < f.cols));
            }
        }
    }

    #[test]
    fn shapes_are_what_their_names_say() {
        let arena =
            family(RoomShape::Arena, 1, 64, 5, 5).into_iter().find(|f| f.rows == 5 && f.cols == 5).unwrap();
        assert_eq!(arena.cells.len(), 21);
        assert!(!arena.contains(0, 0) && arena.contains(0, 1) && arena.contains(2, 2));
        let rotunda = family(RoomShape::Rotunda, 1, 64, 6, 6).into_iter().find(|f| f.rows == 6).unwrap();
        assert_eq!(rotunda.cells.len(), 36 - 4 * 3, "a 6-wide rotunda loses a 2-leg triangle at each corner");
        let l = family(RoomShape::LBend, 1, 64, 3, 3)
            .into_iter()
            .find(|f| f.rows == 3 && f.cols == 3 && f.cells.len() == 5)
            .unwrap();
        let missing =
            (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).filter(|&(r, c)| !l.contains(r, c)).count();
        assert_eq!(missing, 4, "one 2x2 corner gone");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let cave = Shapes::new(20, 20).draw(RoomShape::Cavern, (12, 12), &mut rng).unwrap();
        assert_eq!(cave.cells.len(), 12);
    }
}
