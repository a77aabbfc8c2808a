//! The A* heuristic: integer octile distance plus one stair cost per level apart, raised to
//! the landmark (ALT) bound when the graph has landmarks.

use super::csr::Coord;
use super::landmarks::Landmarks;
use super::{LONG_STEP, NodeId, PathGraph, SHORT_STEP};
use crate::grid::Slot;

/// A lower bound on the remaining cost to one target, in thousandths of a long step.
#[derive(Debug, Clone)]
pub struct Heuristic<'g> {
    graph: &'g PathGraph,
    octile: Octile,
    landmarks: Option<&'g Landmarks>,
    target_dist: [u32; Landmarks::MAX],
}

/// The octile part of a [`Heuristic`] on its own: integer octile distance in thousandths
/// plus one stair cost per level apart, from coordinates alone (what A* runs on when
/// there are no landmarks to consult).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Octile {
    target: Coord,
    stair_cost: u64,
}

/// An estimate A* can run on, from a node and its coordinates.
pub(crate) trait Estimate {
    /// The estimate from node `v` at `c` to the target.
    fn at_coord(&self, v: u32, c: Coord) -> u64;
}

/// The octile distance between two slots of one level, in thousandths of a long step: one
/// slot straight is half a long step (500), one slot diagonal a short step (707), so two
/// octagons side by side are 1000 apart and diagonal neighbours through a connector 1414.
/// The cost of the cheapest route between them over open floor, and the A* heuristic.
///
/// ```
/// use octile::grid::Slot;
/// use octile::path::octile_milli;
///
/// assert_eq!(octile_milli(Slot::new(0, 0), Slot::new(0, 2)), 1000);
/// assert_eq!(octile_milli(Slot::new(0, 0), Slot::new(2, 2)), 1414);
/// assert_eq!(octile_milli(Slot::new(4, 0), Slot::new(0, 2)), 2414);
/// ```
#[must_use]
#[inline]
pub const fn octile_milli(a: Slot, b: Slot) -> u64 {
    octile_of(a.row.abs_diff(b.row), a.col.abs_diff(b.col))
}

/// [`octile_milli`] of row and column differences.
#[inline]
const fn octile_of(dr: u32, dc: u32) -> u64 {
    let (hi, lo) = if dr > dc { (dr as u64, dc as u64) } else { (dc as u64, dr as u64) };
    hi * (LONG_STEP / 2) as u64 + lo * (SHORT_STEP - LONG_STEP / 2) as u64
}

impl Octile {
    /// The estimate from coordinates `c`.
    #[inline]
    pub(crate) fn at(&self, c: Coord) -> u64 {
        let flat = octile_of(c.row.abs_diff(self.target.row), c.col.abs_diff(self.target.col));
        flat + u64::from(c.level.abs_diff(self.target.level)) * self.stair_cost
    }
}

impl Estimate for Octile {
    #[inline]
    fn at_coord(&self, _: u32, c: Coord) -> u64 {
        self.at(c)
    }
}

impl Estimate for Heuristic<'_> {
    #[inline]
    fn at_coord(&self, v: u32, c: Coord) -> u64 {
        Heuristic::at_coord(self, v, c)
    }
}

impl PathGraph {
    /// The A* heuristic towards `target`: octile distance plus a level term, raised by the
    /// landmark bounds when landmarks were built. Never overestimates, and is consistent.
    ///
    /// # Panics
    ///
    /// When `target` is not a node of this graph.
    #[must_use]
    pub fn heuristic(&self, target: NodeId) -> Heuristic<'_> {
        let mut h = self.octile_heuristic(target);
        if let Some(lm) = self.landmarks() {
            h.landmarks = Some(lm);
            h.target_dist = lm.row(target.0);
        }
        h
    }

    /// The plain heuristic towards `target`: integer octile distance in thousandths plus
    /// one stair cost per level apart, without landmarks.
    ///
    /// # Panics
    ///
    /// When `target` is not a node of this graph.
    #[must_use]
    pub fn octile_heuristic(&self, target: NodeId) -> Heuristic<'_> {
        Heuristic {
            graph: self,
            octile: Octile { target: self.coord(target.0), stair_cost: u64::from(self.level_cost()) },
            landmarks: None,
            target_dist: [0; Landmarks::MAX],
        }
    }
}

impl Heuristic<'_> {
    /// The estimate from `node` to the target.
    ///
    /// # Panics
    ///
    /// When `node` is not a node of the graph.
    #[must_use]
    pub fn estimate(&self, node: NodeId) -> u64 {
        self.at(node.0)
    }

    /// Whether landmark bounds take part (else this is its [`Heuristic::octile`] part).
    pub(crate) fn has_landmarks(&self) -> bool {
        self.landmarks.is_some()
    }

    /// The octile part alone.
    pub(crate) fn octile(&self) -> Octile {
        self.octile
    }

    #[inline]
    pub(crate) fn at(&self, v: u32) -> u64 {
        self.at_coord(v, self.graph.coord(v))
    }

    /// The estimate from node `v`, whose coordinates the caller already knows.
    #[inline]
    pub(crate) fn at_coord(&self, v: u32, c: Coord) -> u64 {
        let octile = self.octile.at(c);
        match self.landmarks {
            Some(lm) => octile.max(lm.bound(v, &self.target_dist)),
            None => octile,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dungeon::{Dungeon, Fill};
    use crate::geometry::Proportions;
    use crate::grid::Pos;
    use crate::path::PathGraph;

    #[test]
    fn octile_estimate_is_exact_on_open_floor_and_counts_levels() {
        let d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
        let g = PathGraph::new(&d).unwrap();
        let node = |p: Pos| g.node(p).unwrap().unwrap();
        let h = g.octile_heuristic(node(Pos::new(0, 4, 4)));
        assert_eq!(h.estimate(node(Pos::new(0, 0, 0))), 4 * 707, "diagonal through connectors");
        assert_eq!(h.estimate(node(Pos::new(0, 4, 0))), 2000, "two long steps");
        assert_eq!(h.estimate(node(Pos::new(1, 4, 4))), u64::from(g.stair_cost()));
    }
}
