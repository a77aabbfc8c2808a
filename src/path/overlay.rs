//! Cost overlays: what a step costs, as a source the searches read ([`StepCosts`]), with
//! the graph's own costs (the dungeon's registry move costs, read once when the graph is
//! built) as the default source ([`RegistryCosts`]), and a wrapper that overrides single
//! cells and edges without copying the dungeon or the graph ([`Overlay`]: smoke, a hazard,
//! a swimmer's costs).
//!
//! [`super::AStar::search_with`], [`super::AStar::find_with`] and
//! [`super::DijkstraMap::from_seeds_with`] take any source. The searches are generic over
//! it, so the default source compiles to exactly the code that reads the graph's costs.

use std::collections::BTreeMap;

use super::{LONG_STEP, NodeId, PathGraph, SHORT_STEP};
use crate::grid::Pos;

/// One step of a search: from a node to an adjacent node, with the graph's cost for it.
/// Its parts ([`Step::length`], [`Step::edge_cost`], [`Step::enter_cost`]) are read from
/// the graph only when asked for.
#[derive(Debug, Clone, Copy)]
pub struct Step<'g> {
    graph: &'g PathGraph,
    from: u32,
    to: u32,
    cost: u64,
}

impl<'g> Step<'g> {
    #[inline]
    pub(crate) fn new(graph: &'g PathGraph, from: u32, to: u32, cost: u64) -> Step<'g> {
        Step { graph, from, to, cost }
    }

    /// The node the step leaves.
    #[must_use]
    pub fn start(&self) -> NodeId {
        NodeId(self.from)
    }

    /// The node the step enters.
    #[must_use]
    pub fn end(&self) -> NodeId {
        NodeId(self.to)
    }

    /// The position of the cell the step leaves.
    #[must_use]
    pub fn start_pos(&self) -> Pos {
        self.graph.pos(self.start())
    }

    /// The position of the cell the step enters.
    #[must_use]
    pub fn end_pos(&self) -> Pos {
        self.graph.pos(self.end())
    }

    /// The graph's cost of the step (length plus the crossed edge's move cost plus the
    /// entered tile's move cost), in thousandths of a long step.
    #[must_use]
    pub fn graph_cost(&self) -> u64 {
        self.cost
    }

    /// The step's length, the least any source may charge for it: [`LONG_STEP`] between
    /// two octagons, [`SHORT_STEP`] between an octagon and a connector, the graph's
    /// [`PathGraph::stair_cost`] up or down a stair.
    #[must_use]
    pub fn length(&self) -> u64 {
        let (a, b) = (self.graph.coord(self.from), self.graph.coord(self.to));
        u64::from(if a.level != b.level {
            self.graph.stair_cost()
        } else if a.row != b.row && a.col != b.col {
            SHORT_STEP
        } else {
            LONG_STEP
        })
    }

    /// The registry move cost of the entered tile, in thousandths of a long step.
    #[must_use]
    pub fn enter_cost(&self) -> u64 {
        u64::from(self.graph.enter_cost(self.to))
    }

    /// The registry move cost of the crossed edge (0 for a stair step).
    #[must_use]
    pub fn edge_cost(&self) -> u64 {
        self.cost.saturating_sub(self.length() + self.enter_cost())
    }
}

/// A source of step costs: "what does it cost to enter" for the searches.
///
/// Contract: a cost is never below [`Step::length`] (the A* heuristic is the octile
/// distance in those lengths; a cheaper step would make A* miss the cheapest route, though
/// what it returns is still a route with its true cost). A source that may charge less
/// than the graph's own cost says so with [`StepCosts::never_below_graph`] returning
/// `false`; A* then leaves out the graph's landmarks, whose bounds assume the graph's
/// costs.
pub trait StepCosts {
    /// The cost of `step` in thousandths of a long step, or `None` when the step is
    /// forbidden.
    fn cost(&self, step: Step<'_>) -> Option<u64>;

    /// Whether every step costs at least [`Step::graph_cost`] (so landmark bounds hold).
    fn never_below_graph(&self) -> bool {
        false
    }
}

/// The default source: the graph's own costs, read from the dungeon's registry when the
/// graph was built (see [`Step::graph_cost`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RegistryCosts;

impl StepCosts for RegistryCosts {
    #[inline(always)]
    fn cost(&self, step: Step<'_>) -> Option<u64> {
        Some(step.cost)
    }

    #[inline(always)]
    fn never_below_graph(&self) -> bool {
        true
    }
}

impl<T: StepCosts + ?Sized> StepCosts for &T {
    #[inline]
    fn cost(&self, step: Step<'_>) -> Option<u64> {
        (**self).cost(step)
    }

    fn never_below_graph(&self) -> bool {
        (**self).never_below_graph()
    }
}

/// How an [`Overlay`] changes the cost of one cell or one edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CostChange {
    /// Adds this many thousandths of a long step (smoke, a hazard).
    Add(u32),
    /// Replaces the registry move cost (of the entered tile for a cell, of the crossed
    /// edge for an edge) by this many thousandths (a swimmer in water). The step still
    /// costs at least its [`Step::length`].
    Set(u32),
    /// Forbids the step (into the cell, or across the edge in either direction).
    Block,
}

/// Overrides of single cells' and edges' costs on top of another source (by default the
/// graph's own costs), kept apart from the dungeon and the graph: building one copies
/// nothing, and dropping it restores the plain costs.
///
/// A cell's change applies to every step that enters it; an edge's change applies to the
/// step between its two cells in both directions (two cells side by side on a level, or
/// the two ends of a stair). An overlay cannot add steps the graph does not have.
///
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::path::{AStar, CostChange, Overlay, PathGraph, PathRules};
///
/// let dungeon = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor).unwrap();
/// let graph = PathGraph::new(&dungeon).unwrap();
/// let (from, to) = (Pos::new(0, 0, 2), Pos::new(0, 4, 2));
/// let mut astar = AStar::new();
/// let plain = astar.find(&graph, from, to, &PathRules::default()).unwrap().unwrap();
/// assert_eq!(plain.steps, [from, Pos::new(0, 2, 2), to]);
///
/// // Smoke fills the middle octagon: going round it is now cheaper.
/// let mut smoke = Overlay::new();
/// smoke.set_cell(Pos::new(0, 2, 2), CostChange::Add(5000));
/// let round = astar.find_with(&graph, from, to, &PathRules::default(), &smoke).unwrap().unwrap();
/// assert!(!round.steps.contains(&Pos::new(0, 2, 2)));
/// assert_eq!(round.cost, 4 * 707);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Overlay<C = RegistryCosts> {
    inner: C,
    cells: BTreeMap<Pos, CostChange>,
    /// Keyed by the edge's two cells, the lesser first.
    edges: BTreeMap<(Pos, Pos), CostChange>,
}

impl Overlay<RegistryCosts> {
    /// An empty overlay on the graph's own costs.
    #[must_use]
    pub fn new() -> Overlay<RegistryCosts> {
        Overlay::over(RegistryCosts)
    }
}

impl<C: StepCosts> Overlay<C> {
    /// An empty overlay on `inner` (overlays stack: a swimmer's costs under a patch of
    /// smoke).
    #[must_use]
    pub fn over(inner: C) -> Overlay<C> {
        Overlay { inner, cells: BTreeMap::new(), edges: BTreeMap::new() }
    }

    /// Changes the cost of entering the cell at `pos` (replacing an earlier change there).
    pub fn set_cell(&mut self, pos: Pos, change: CostChange) -> &mut Self {
        self.cells.insert(pos, change);
        self
    }

    /// Changes the cost of the step between the adjacent cells `a` and `b`, both ways
    /// (replacing an earlier change there). A pair that is not a step of the graph is kept
    /// but never read.
    pub fn set_edge(&mut self, a: Pos, b: Pos, change: CostChange) -> &mut Self {
        self.edges.insert(edge_key(a, b), change);
        self
    }

    /// Removes the change of the cell at `pos`, returning it.
    pub fn clear_cell(&mut self, pos: Pos) -> Option<CostChange> {
        self.cells.remove(&pos)
    }

    /// Removes the change of the edge between `a` and `b`, returning it.
    pub fn clear_edge(&mut self, a: Pos, b: Pos) -> Option<CostChange> {
        self.edges.remove(&edge_key(a, b))
    }

    /// The change of the cell at `pos`, if any.
    #[must_use]
    pub fn cell(&self, pos: Pos) -> Option<CostChange> {
        self.cells.get(&pos).copied()
    }

    /// The change of the edge between `a` and `b`, if any.
    #[must_use]
    pub fn edge(&self, a: Pos, b: Pos) -> Option<CostChange> {
        self.edges.get(&edge_key(a, b)).copied()
    }
}

fn edge_key(a: Pos, b: Pos) -> (Pos, Pos) {
    if a <= b { (a, b) } else { (b, a) }
}

/// Applies `change` to `cost`, whose replaceable part is `part`.
fn apply(cost: u64, change: CostChange, part: impl FnOnce() -> u64) -> Option<u64> {
    match change {
        CostChange::Add(x) => Some(cost.saturating_add(u64::from(x))),
        CostChange::Set(x) => Some(cost.saturating_sub(part()).saturating_add(u64::from(x))),
        CostChange::Block => None,
    }
}

impl<C: StepCosts> StepCosts for Overlay<C> {
    fn cost(&self, step: Step<'_>) -> Option<u64> {
        let mut cost = self.inner.cost(step)?;
        if self.cells.is_empty() && self.edges.is_empty() {
            return Some(cost);
        }
        let to = step.end_pos();
        if !self.edges.is_empty()
            && let Some(&change) = self.edges.get(&edge_key(step.start_pos(), to))
        {
            cost = apply(cost, change, || step.edge_cost())?;
        }
        if let Some(&change) = self.cells.get(&to) {
            cost = apply(cost, change, || step.enter_cost())?;
        }
        Some(cost.max(step.length()))
    }

    fn never_below_graph(&self) -> bool {
        let lowers = |c: &CostChange| matches!(c, CostChange::Set(_));
        self.inner.never_below_graph() && !self.cells.values().any(lowers) && !self.edges.values().any(lowers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Dungeon, Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::Direction;
    use crate::path::{AStar, DijkstraMap, MapBounds, PathRules};

    fn hall() -> (Dungeon, PathGraph) {
        let d = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor).unwrap();
        let g = PathGraph::new(&d).unwrap();
        (d, g)
    }

    #[test]
    fn raised_cell_is_routed_around_and_dungeon_is_unchanged() {
        let (d, g) = hall();
        let before = d.clone();
        let (from, to, mid) = (Pos::new(0, 0, 2), Pos::new(0, 4, 2), Pos::new(0, 2, 2));
        let rules = PathRules::default();
        let mut astar = AStar::new();
        let plain = astar.find(&g, from, to, &rules).unwrap().unwrap();
        assert!(plain.steps.contains(&mid));
        let mut smoke = Overlay::new();
        smoke.set_cell(mid, CostChange::Add(5000));
        let round = astar.find_with(&g, from, to, &rules, &smoke).unwrap().unwrap();
        assert!(!round.steps.contains(&mid), "{:?}", round.steps);
        assert!(round.cost > plain.cost);
        assert_eq!(d, before);
        // The plain search on the same graph is unaffected.
        assert_eq!(astar.find(&g, from, to, &rules).unwrap().unwrap(), plain);
    }

    #[test]
    fn blocked_edge_and_set_cost_and_dijkstra() {
        let (_, g) = hall();
        let (a, b) = (Pos::new(0, 0, 0), Pos::new(0, 0, 2));
        let rules = PathRules::default();
        let mut o = Overlay::new();
        o.set_edge(b, a, CostChange::Block);
        assert_eq!(o.edge(a, b), Some(CostChange::Block));
        let r = AStar::new().find_with(&g, a, b, &rules, &o).unwrap().unwrap();
        assert_eq!(r.cost, 2 * 707, "round through the connector");
        let all = MapBounds::everywhere(&g);
        let m = DijkstraMap::from_seeds_with(&g, &[(a, 0)], &all, &rules, &o).unwrap();
        assert_eq!(m.value(b).unwrap(), 2 * 707);
        assert_eq!(m.descend(b).unwrap().unwrap().cost, 2 * 707);
        assert_eq!(o.clear_edge(a, b), Some(CostChange::Block));
        assert!(o.never_below_graph());
        // A cell whose move cost is set below its length still costs its length.
        o.set_cell(b, CostChange::Set(0));
        assert!(!o.never_below_graph());
        let r = AStar::new().find_with(&g, a, b, &rules, &o).unwrap().unwrap();
        assert_eq!(r.cost, 1000);
    }

    #[test]
    fn set_replaces_the_registry_part_only() {
        let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
        let g = PathGraph::new(&d).unwrap();
        let rules = PathRules { open_doors: true };
        let (a, b) = (Pos::new(0, 0, 0), Pos::new(0, 0, 2));
        let base = AStar::new().find(&g, a, b, &rules).unwrap().unwrap().cost;
        let mut o = Overlay::new();
        o.set_edge(a, b, CostChange::Set(250)).set_cell(b, CostChange::Add(7));
        let r = AStar::new().find_with(&g, a, b, &rules, &o).unwrap().unwrap();
        let door = d.registry().edge_def(Registry::DOOR).unwrap().move_cost;
        assert_eq!(r.cost, base - u64::from(door) + 250 + 7);
    }
}
