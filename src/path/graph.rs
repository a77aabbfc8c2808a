//! The pathing graph (docs/design.md, "Pathing"): nodes are carved, passable cells on all
//! levels, numbered densely; steps cross open edges (octagon-octagon 1000, octagon-connector 707)
//! or climb stairs. This file holds the graph's type and its queries; `build.rs` reads it
//! from a dungeon, `csr.rs` stores its steps, `heuristic.rs` estimates for A*.

use super::csr::{Arc, Coord, Csr};
use super::landmarks::Landmarks;
use super::{PathError, Regions};
use crate::geometry::Proportions;
use crate::grid::{Dims, Pos, Slot, SlotKind};

/// Cost of a step between two octagons across a long edge, in thousandths of a long step.
pub const LONG_STEP: u32 = 1000;

/// Cost of a step between an octagon and a connector across a short edge (1000 / sqrt 2,
/// so a diagonal through a connector costs 1414).
pub const SHORT_STEP: u32 = 707;

/// `node_of_slot` entry of a slot that is not a node.
pub(super) const NONE: u32 = u32::MAX;

/// The cost of climbing (or descending) one stair, in thousandths of a long step (a long
/// step is the `2 * cell_spacing` metres between two octagon centres).
///
/// The stair is a spiral of one turn rising `layer_height`; its walking line is taken at a
/// radius of `base / 4`, so its horizontal run is `pi * base / 2` and its 3D length is
/// `hypot(pi * base / 2, layer_height)` metres. With the default proportions that is
/// 23.42 m = 1426 thousandths. The result is at least 1 and saturates at `u32::MAX`.
#[must_use]
pub fn stair_cost(proportions: &Proportions) -> u32 {
    distance_cost(crate::geometry::WalkingLine::of(proportions).length(), proportions)
}

/// A distance of `metres` in thousandths of a long step (`2 * cell_spacing` metres),
/// rounded, at least 1 and saturating at `u32::MAX`: how every step cost that is a length
/// is counted.
fn distance_cost(metres: f64, proportions: &Proportions) -> u32 {
    let cost = (metres / (2.0 * proportions.cell_spacing()) * f64::from(LONG_STEP)).round();
    if cost.is_nan() || cost < 1.0 {
        1
    } else if cost >= f64::from(u32::MAX) {
        u32::MAX
    } else {
        cost as u32
    }
}

/// The cost of falling one storey down a void ([`crate::dungeon::Dungeon::drop_landing`]),
/// in thousandths of a long step: the fall height, `layer_height` metres, as a distance
/// (731 with the default proportions). A drop costs its step across the edge plus this
/// per storey fallen. At least 1, saturating at `u32::MAX`.
#[must_use]
pub fn fall_cost(proportions: &Proportions) -> u32 {
    distance_cost(proportions.layer_height, proportions)
}

/// What a ramp ([`crate::dungeon::Ramp`]) adds to the cost of its steps, in thousandths of
/// a long step: its sloped length less its run, `hypot(run, layer_height) - run` metres as a
/// distance (its run is `2 * cell_spacing` per octagon it covers: 129 with the default
/// proportions, where it runs 32.84 m). The octagons under a ramp are nodes of their
/// level, stepped along as any floor; the step between the last of them and the ramp's top
/// on the level above crosses the top's seam and costs a long step plus this, each way.
/// At least 1, saturating at `u32::MAX`.
#[must_use]
pub fn ramp_climb_cost(proportions: &Proportions) -> u32 {
    let run = 2.0 * proportions.cell_spacing() * f64::from(crate::geometry::ramp_run_cells(proportions));
    let h = proportions.layer_height;
    distance_cost((run * run + h * h).sqrt() - run, proportions)
}

/// Options of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PathRules {
    /// Doors may be opened: steps follow `passable` (a closed door is passable) instead of
    /// `walkable` (what one can cross this turn). Off by default.
    pub open_doors: bool,
}

/// A node of a [`PathGraph`]: a carved, passable cell, numbered densely in order of
/// (level, row, col). Only a graph hands them out ([`PathGraph::node`],
/// [`PathGraph::nodes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub(super) u32);

impl NodeId {
    /// The node's index, `0..node_count`, into per-node arrays such as
    /// [`super::DijkstraMap::values`] and [`PathGraph::regions`].
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The multi-level octile graph of one dungeon, with dense per-node arrays (no hashing).
/// Build it once ([`PathGraph::new`]), then run any number of [`super::AStar`] searches or
/// [`super::DijkstraMap`] floods on it.
#[derive(Debug, Clone)]
pub struct PathGraph {
    pub(super) dims: Dims,
    pub(super) levels: u16,
    /// Per slot of every level (`level * slot_count + index`): its node, or [`NONE`].
    pub(super) node_of_slot: Vec<u32>,
    pub(super) coords: Vec<Coord>,
    /// Per node: the move cost of entering it.
    pub(super) enter: Vec<u32>,
    pub(super) walk: Csr,
    pub(super) pass: Csr,
    pub(super) walk_regions: Regions,
    pub(super) pass_regions: Regions,
    pub(super) stair_cost: u32,
    /// The least a step between levels costs per level: the stair cost, or where the
    /// dungeon has drops the fall cost when that is less (the heuristic's level term).
    pub(super) level_cost: u32,
    /// Whether any step is a drop (one-way down a void): the graph is not symmetric, so it
    /// keeps no landmarks.
    pub(super) has_drops: bool,
    pub(super) landmarks: Option<Landmarks>,
    /// The steps one-way doors refuse, as `(from, to)` in order of `from` (their reverse
    /// steps exist). Non-empty makes an edge change read the graph again
    /// ([`PathGraph::update_edge`]).
    pub(super) against: Vec<(u32, u32)>,
}

impl PathGraph {
    /// The same graph with `count` landmarks (at most 16) for the A* heuristic (ALT:
    /// triangle-inequality bounds from precomputed distances), chosen by farthest-point
    /// selection in the largest passable region. Costs `count + 1` full Dijkstra floods;
    /// worth it when many searches run on one graph. A graph with drops keeps none (its
    /// distances are not the same both ways).
    #[must_use]
    pub fn with_landmarks(mut self, count: usize) -> PathGraph {
        // Landmark bounds need distances that read the same both ways; drops do not.
        self.landmarks =
            if self.has_drops { None } else { Landmarks::build(&self, count.min(Landmarks::MAX)) };
        self
    }

    /// Number of landmarks in use (0 when none).
    #[must_use]
    pub fn landmark_count(&self) -> usize {
        self.landmarks.as_ref().map_or(0, Landmarks::count)
    }

    /// Number of nodes.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.coords.len()
    }

    /// Every node, in increasing index.
    ///
    /// # Panics
    ///
    /// Never: a graph has at most one node per cell, and a dungeon's cell count
    /// ([`crate::dungeon::MAX_SLOTS`]) fits in `u32`.
    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + use<> {
        let n = u32::try_from(self.coords.len()).expect("invariant: node count fits in u32");
        (0..n).map(NodeId)
    }

    /// Number of levels.
    #[must_use]
    pub fn levels(&self) -> u16 {
        self.levels
    }

    /// Slot dimensions of every level.
    #[must_use]
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// The least a step between levels costs per level ([`stair_cost`], or [`fall_cost`]
    /// when the graph has drops and that is less): what the A* heuristic counts per level
    /// apart.
    #[must_use]
    pub fn level_cost(&self) -> u32 {
        self.level_cost
    }

    /// The cost of one stair step in this graph (see [`stair_cost`]).
    #[must_use]
    pub fn stair_cost(&self) -> u32 {
        self.stair_cost
    }

    /// The node at `pos`: `Ok(None)` for a cell that is not a node (rock, or not passable).
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] for a position outside the dungeon,
    /// [`PathError::NotACell`] for one on a Void slot.
    pub fn node(&self, pos: Pos) -> Result<Option<NodeId>, PathError> {
        let Slot { row, col } = pos.slot;
        let slot_index = if pos.level < self.levels { self.dims.index(pos.slot).ok() } else { None };
        let Some(slot_index) = slot_index else {
            return Err(PathError::OutOfDungeon {
                level: pos.level,
                row,
                col,
                levels: self.levels,
                rows: self.dims.rows(),
                cols: self.dims.cols(),
            });
        };
        if pos.slot.kind() == SlotKind::Void {
            return Err(PathError::NotACell { level: pos.level, row, col });
        }
        let i = usize::from(pos.level) * self.dims.slot_count() + slot_index;
        Ok(Some(self.node_of_slot[i]).filter(|&v| v != NONE).map(NodeId))
    }

    /// The position of `node`.
    ///
    /// # Panics
    ///
    /// When `node` is not a node of this graph.
    #[must_use]
    pub fn pos(&self, node: NodeId) -> Pos {
        let c = self.coords[node.index()];
        Pos::new(c.level as u16, c.row, c.col)
    }

    /// The steps out of `node` under `rules` and their full costs (crossing plus the entered
    /// tile's move cost), in a fixed order (walls clockwise from north, then up, then down).
    ///
    /// # Panics
    ///
    /// When `node` is not a node of this graph.
    pub fn successors(&self, node: NodeId, rules: &PathRules) -> impl Iterator<Item = (NodeId, u64)> + '_ {
        self.csr(rules).row(node.0).iter().map(|a| (NodeId(a.to), u64::from(a.cost)))
    }

    /// The cost of one step from `from` to an adjacent node `to` under `rules`, or `None`
    /// when that is not a legal step.
    ///
    /// # Panics
    ///
    /// When `from` is not a node of this graph.
    #[must_use]
    pub fn step_cost(&self, from: NodeId, to: NodeId, rules: &PathRules) -> Option<u64> {
        self.successors(from, rules).find(|&(n, _)| n == to).map(|(_, c)| c)
    }

    /// Whether `a` and `b` are in one connected region under `rules` (false when either is
    /// not a node of this graph, such as a node of another graph).
    #[must_use]
    pub fn connected(&self, a: NodeId, b: NodeId, rules: &PathRules) -> bool {
        let r = self.regions(rules);
        r.region(a.index()).is_some_and(|region| r.region(b.index()) == Some(region))
    }

    /// Connected regions of the nodes (indexed by [`NodeId::index`]) under `rules`.
    #[must_use]
    pub fn regions(&self, rules: &PathRules) -> &Regions {
        if rules.open_doors { &self.pass_regions } else { &self.walk_regions }
    }

    pub(crate) fn csr(&self, rules: &PathRules) -> &Csr {
        if rules.open_doors { &self.pass } else { &self.walk }
    }

    /// The registry move cost of entering node `v`.
    pub(crate) fn enter_cost(&self, v: u32) -> u32 {
        self.enter[v as usize]
    }

    pub(crate) fn coord(&self, v: u32) -> Coord {
        self.coords[v as usize]
    }

    pub(crate) fn landmarks(&self) -> Option<&Landmarks> {
        self.landmarks.as_ref()
    }

    pub(crate) fn pass_csr(&self) -> &Csr {
        &self.pass
    }

    /// Whether the step `arc.to -> from` exists, for the arc `from -> arc.to` (false only
    /// behind a one-way door).
    pub(crate) fn steps_back(&self, from: u32, arc: &Arc) -> bool {
        if self.against.is_empty() {
            return true;
        }
        let at = self.against.partition_point(|&(f, _)| f < arc.to);
        !self.against[at..].iter().take_while(|&&(f, _)| f == arc.to).any(|&(_, t)| t == from)
    }

    /// The nodes `from` may not step to through a one-way door although they step to it.
    pub(crate) fn refused_from(&self, from: u32) -> impl Iterator<Item = u32> + '_ {
        let at = self.against.partition_point(|&(f, _)| f < from);
        self.against[at..].iter().take_while(move |&&(f, _)| f == from).map(|&(_, to)| to)
    }

    /// Cost of `arc` without the entered tile's move cost (symmetric in both directions).
    pub(crate) fn cross_cost(&self, arc: &Arc) -> u64 {
        u64::from(arc.cost) - u64::from(self.enter[arc.to as usize])
    }

    /// Cost of the reverse of `arc` (from `arc.to` back to the node `from` it leaves).
    pub(crate) fn reverse_cost(&self, from: u32, arc: &Arc) -> u64 {
        self.cross_cost(arc) + u64::from(self.enter[from as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Dungeon, Fill};

    #[test]
    fn default_stair_cost_is_documented_value() {
        assert_eq!(stair_cost(&Proportions::default()), 1426);
    }

    #[test]
    fn bad_positions_are_errors() {
        let d = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Solid).unwrap();
        let g = PathGraph::new(&d).unwrap();
        assert!(matches!(g.node(Pos::new(1, 0, 0)), Err(PathError::OutOfDungeon { level: 1, .. })));
        assert!(matches!(g.node(Pos::new(0, 3, 0)), Err(PathError::OutOfDungeon { row: 3, .. })));
        assert!(matches!(g.node(Pos::new(0, 0, 1)), Err(PathError::NotACell { col: 1, .. })));
        assert_eq!(g.node(Pos::new(0, 0, 0)), Ok(None));
    }

    #[test]
    fn nodes_are_numbered_by_level_row_col_and_index_their_arrays() {
        let d = Dungeon::new(2, 1, 2, Proportions::default(), Fill::Floor).unwrap();
        let g = PathGraph::new(&d).unwrap();
        let positions: Vec<Pos> = g.nodes().map(|v| g.pos(v)).collect();
        let mut sorted = positions.clone();
        sorted.sort_by_key(|p| (p.level, p.slot.row, p.slot.col));
        assert_eq!((positions.len(), &positions), (g.node_count(), &sorted));
        for v in g.nodes() {
            assert_eq!(g.node(g.pos(v)), Ok(Some(v)));
            assert!(g.regions(&PathRules::default()).region(v.index()).is_some());
        }
    }
}
