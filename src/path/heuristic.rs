//! The A* heuristic: integer octile distance plus one stair cost per level apart, raised to
//! the landmark (ALT) bound when the graph has landmarks.

use super::csr::Coord;
use super::landmarks::Landmarks;
use super::{LONG_STEP, NodeId, PathGraph, SHORT_STEP};

/// A lower bound on the remaining cost to one target, in thousandths of a long step.
#[derive(Debug, Clone)]
pub struct Heuristic<'g> {
    graph: &'g PathGraph,
    target: Coord,
    landmarks: Option<&'g Landmarks>,
    target_dist: [u32; Landmarks::MAX],
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
            target: self.coord(target.0),
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

    #[inline]
    pub(crate) fn at(&self, v: u32) -> u64 {
        self.at_coord(v, self.graph.coord(v))
    }

    /// The estimate from node `v`, whose coordinates the caller already knows.
    #[inline]
    pub(crate) fn at_coord(&self, v: u32, c: Coord) -> u64 {
        let dr = u64::from(c.row.abs_diff(self.target.row));
        let dc = u64::from(c.col.abs_diff(self.target.col));
        let (hi, lo) = if dr > dc { (dr, dc) } else { (dc, dr) };
        // One slot straight is half a long step; one slot diagonal is a short step.
        let flat = hi * u64::from(LONG_STEP / 2) + lo * u64::from(SHORT_STEP - LONG_STEP / 2);
        let levels = u64::from(c.level.abs_diff(self.target.level));
        let octile = flat + levels * u64::from(self.graph.stair_cost());
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
