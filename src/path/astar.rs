//! A* over a [`PathGraph`], with scratch buffers kept between searches, and the one-call
//! [`find_path`].

#[cfg(not(target_family = "wasm"))]
use std::hint::select_unpredictable;

use super::astar_record::{Compact, Record, Records, Wide};
use super::csr::Csr;
use super::heuristic::Estimate;
use super::queue::BucketQueue;
use super::{NodeId, PathError, PathGraph, PathRules, RegistryCosts, Step, StepCosts};
use crate::dungeon::Dungeon;
use crate::grid::Pos;

/// A route through the dungeon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// Every cell visited, from the start to the goal, both included.
    pub steps: Vec<Pos>,
    /// Total cost in thousandths of a long step (the sum of the steps' costs).
    pub cost: u64,
}

/// A* search that keeps its per-node buffers and queue between searches, so repeated
/// queries on one graph allocate nothing. Ties are broken the same way on every run
/// (among equal `f`, the node reached last is expanded first).
///
/// ```
/// use octile::dungeon::{Dungeon, Fill, Registry};
/// use octile::geometry::Proportions;
/// use octile::grid::{Direction, Pos};
/// use octile::path::{AStar, PathGraph, PathRules};
///
/// // A 3 x 2 hall with a wall east of the first octagon: the route goes round it.
/// let mut d = Dungeon::new(3, 2, 1, Proportions::default(), Fill::Floor)?;
/// d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::WALL)?;
/// let graph = PathGraph::new(&d)?;
/// let mut astar = AStar::new(); // kept: later searches reuse its buffers
/// let route = astar.find(&graph, Pos::new(0, 0, 0), Pos::new(0, 0, 2), &PathRules::default())?.unwrap();
/// assert_eq!(route.steps, [Pos::new(0, 0, 0), Pos::new(0, 1, 1), Pos::new(0, 0, 2)]);
/// assert_eq!(route.cost, 2 * 707);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct AStar {
    /// Per node, what the search knows of it, packed in 8 bytes (see `astar_record.rs`)...
    compact: Records<Compact>,
    /// ... or in 16 when a node number or a cost does not fit in 8.
    wide: Records<Wide>,
    /// Open nodes keyed by `f` (a bucket per key: costs are small integers).
    queue: BucketQueue,
    /// Scratch of one expansion: the steps that improved their end, `(g, node, kind of
    /// step)`, and spare room.
    improved: Vec<(u64, u32, u8)>,
    expanded: usize,
}

/// A search in [`Compact`] records met a route cost they cannot hold.
struct CostTooHigh;

impl Default for AStar {
    fn default() -> Self {
        AStar::new()
    }
}

impl AStar {
    /// A search with empty buffers (they grow to the graph's size on first use).
    #[must_use]
    pub fn new() -> AStar {
        AStar {
            compact: Records::default(),
            wide: Records::default(),
            queue: BucketQueue::default(),
            improved: Vec::new(),
            expanded: 0,
        }
    }

    /// Number of nodes expanded by the last search.
    #[must_use]
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// The cheapest route between two positions, `Ok(None)` when there is none (including
    /// when either end is not floor).
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a position outside the
    /// dungeon or on a Void slot.
    pub fn find(
        &mut self,
        graph: &PathGraph,
        from: Pos,
        to: Pos,
        rules: &PathRules,
    ) -> Result<Option<Route>, PathError> {
        self.find_with(graph, from, to, rules, &RegistryCosts)
    }

    /// As [`AStar::find`], with step costs read from `costs` (an
    /// [`Overlay`](super::Overlay), say) instead of the graph's own.
    ///
    /// # Errors
    ///
    /// As [`AStar::find`].
    pub fn find_with<C: StepCosts>(
        &mut self,
        graph: &PathGraph,
        from: Pos,
        to: Pos,
        rules: &PathRules,
        costs: &C,
    ) -> Result<Option<Route>, PathError> {
        let (a, b) = (graph.node(from)?, graph.node(to)?);
        Ok(match (a, b) {
            (Some(a), Some(b)) => self.search_with(graph, a, b, rules, costs),
            _ => None,
        })
    }

    /// The cheapest route between two nodes of `graph` under `rules`, or `None` when there
    /// is none.
    ///
    /// # Panics
    ///
    /// On a [`NodeId`] that `graph` did not hand out.
    pub fn search(
        &mut self,
        graph: &PathGraph,
        from: NodeId,
        to: NodeId,
        rules: &PathRules,
    ) -> Option<Route> {
        self.search_with(graph, from, to, rules, &RegistryCosts)
    }

    /// As [`AStar::search`], with step costs read from `costs` instead of the graph's own
    /// (monomorphised: with [`RegistryCosts`] this is [`AStar::search`]). A step `costs`
    /// forbids is not taken; when `costs` may charge less than the graph
    /// ([`StepCosts::never_below_graph`] is false) the graph's landmarks are left out of
    /// the heuristic.
    ///
    /// # Panics
    ///
    /// On a [`NodeId`] that `graph` did not hand out.
    pub fn search_with<C: StepCosts>(
        &mut self,
        graph: &PathGraph,
        from: NodeId,
        to: NodeId,
        rules: &PathRules,
        costs: &C,
    ) -> Option<Route> {
        self.expanded = 0;
        if from == to {
            return Some(Route { steps: vec![graph.pos(from)], cost: 0 });
        }
        if !graph.connected(from, to, rules) {
            return None;
        }
        let csr = graph.csr(rules);
        let h = graph.heuristic(to);
        if costs.never_below_graph() && h.has_landmarks() {
            self.run(graph, csr, from, to, costs, &h)
        } else {
            self.run(graph, csr, from, to, costs, &h.octile())
        }
    }

    /// The search in compact records, rerun in wide ones when a node number or a route
    /// cost does not fit.
    fn run<C: StepCosts, H: Estimate>(
        &mut self,
        graph: &PathGraph,
        csr: &Csr,
        from: NodeId,
        to: NodeId,
        costs: &C,
        h: &H,
    ) -> Option<Route> {
        let n = graph.node_count();
        let search = Search { graph, csr, from: from.0, to: to.0, costs, h };
        if n < Compact::NO_PARENT as usize {
            let (open, closed) = self.compact.begin(n);
            let found = search.run(
                &mut self.compact.nodes,
                &mut self.queue,
                &mut self.improved,
                &mut self.expanded,
                open,
                closed,
            );
            if let Ok(found) = found {
                return found;
            }
        }
        let (open, closed) = self.wide.begin(n);
        match search.run(
            &mut self.wide.nodes,
            &mut self.queue,
            &mut self.improved,
            &mut self.expanded,
            open,
            closed,
        ) {
            Ok(found) => found,
            Err(CostTooHigh) => unreachable!("a wide record holds any u64 cost"),
        }
    }
}

/// One search's inputs.
struct Search<'a, C, H> {
    graph: &'a PathGraph,
    csr: &'a Csr,
    from: u32,
    to: u32,
    costs: &'a C,
    h: &'a H,
}

impl<C: StepCosts, H: Estimate> Search<'_, C, H> {
    /// The search loop, monomorphised for the record width, the cost source and the
    /// estimate. `nodes` has a record per node, none stamped `open` or `closed` or below.
    fn run<R: Record>(
        &self,
        nodes: &mut [R],
        queue: &mut BucketQueue,
        improved: &mut Vec<(u64, u32, u8)>,
        expanded: &mut usize,
        open: u32,
        closed: u32,
    ) -> Result<Option<Route>, CostTooHigh> {
        let (graph, h) = (self.graph, self.h);
        *expanded = 0;
        queue.clear();
        nodes[self.from as usize] = R::pack(open, 0, R::NO_PARENT);
        queue.push(h.at_coord(self.from, graph.coord(self.from)), self.from);
        while let Some((_, v)) = queue.pop() {
            let record = nodes[v as usize];
            if record.stamp() == closed {
                continue;
            }
            nodes[v as usize] = record.restamped(closed);
            let g = record.g();
            *expanded += 1;
            if v == self.to {
                return Ok(Some(route(graph, nodes, v)));
            }
            let here = graph.coord(v);
            let (arcs, moves) = self.csr.row_moves(v);
            // Whether a step improves its end is a coin toss (a closed node, an open one
            // reached as cheaply, or a better route), so it is computed, not branched on:
            // the record takes the new one or keeps its own, and the step is written to the
            // next free slot of `improved` and kept by counting it. The kept steps are
            // queued after, in arc order, as a branching loop would queue them.
            if improved.len() < arcs.len() {
                improved.resize(arcs.len(), (0, 0, 0));
            }
            let mut count = 0;
            let mut too_high = false;
            for (arc, &step) in arcs.iter().zip(moves) {
                let Some(cost) = self.costs.cost(Step::new(graph, v, arc.to, u64::from(arc.cost))) else {
                    continue;
                };
                let ng = g + cost;
                too_high |= ng > R::G_MAX;
                let next = &mut nodes[arc.to as usize];
                let new = R::pack(open, ng.min(R::G_MAX), v);
                let improves = new.improves(*next);
                *next = select_unpredictable(improves, new, *next);
                improved[count] = (ng, arc.to, step);
                count += usize::from(improves);
            }
            for &(ng, to, step) in &improved[..count] {
                queue.push(ng + h.at_coord(to, here.moved(step)), to);
            }
            if too_high {
                return Err(CostTooHigh);
            }
        }
        Ok(None)
    }
}

/// The route to `goal` through the parents in `nodes`.
fn route<R: Record>(graph: &PathGraph, nodes: &[R], goal: u32) -> Route {
    let mut steps = Vec::new();
    let mut v = goal;
    while v != R::NO_PARENT {
        steps.push(graph.pos(NodeId(v)));
        v = nodes[v as usize].parent();
    }
    steps.reverse();
    Route { steps, cost: nodes[goal as usize].g() }
}

/// The cheapest route from `from` to `to` in `dungeon` under `rules` (builds the graph and
/// runs one A* search; build a [`PathGraph`] and keep an [`AStar`] for repeated queries).
///
/// # Errors
///
/// [`PathError::CostOverflow`] when a step's cost does not fit in `u32`;
/// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a position outside the
/// dungeon or on a Void slot.
pub fn find_path(
    dungeon: &Dungeon,
    from: Pos,
    to: Pos,
    rules: &PathRules,
) -> Result<Option<Route>, PathError> {
    let graph = PathGraph::new(dungeon)?;
    AStar::new().find(&graph, from, to, rules)
}

/// `if condition { a } else { b }` on wasm, whose `select` instruction is branchless anyway:
/// the toolchain that builds octile's wasm32 core (tools/wasm-smoke.sh: Debian's Rust 1.85)
/// predates `std::hint::select_unpredictable` (1.88).
#[cfg(target_family = "wasm")]
fn select_unpredictable<T>(condition: bool, a: T, b: T) -> T {
    if condition { a } else { b }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::Direction;

    #[test]
    fn open_floor_diagonal_goes_through_connectors() {
        let d = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor).unwrap();
        let r = find_path(&d, Pos::new(0, 0, 0), Pos::new(0, 4, 4), &PathRules::default()).unwrap().unwrap();
        assert_eq!(r.cost, 4 * 707);
        assert_eq!(r.steps.len(), 5);
        assert_eq!(r.steps[0], Pos::new(0, 0, 0));
        assert_eq!(*r.steps.last().unwrap(), Pos::new(0, 4, 4));
    }

    #[test]
    fn same_start_and_goal_and_rock() {
        let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        let p = Pos::new(0, 0, 0);
        assert_eq!(find_path(&d, p, p, &PathRules::default()).unwrap().unwrap().cost, 0);
        d.set_tile(Pos::new(0, 0, 2), Registry::SOLID).unwrap();
        assert_eq!(find_path(&d, p, Pos::new(0, 0, 2), &PathRules::default()).unwrap(), None);
        assert!(find_path(&d, p, Pos::new(0, 0, 1), &PathRules::default()).is_err());
    }

    #[test]
    fn costs_past_the_compact_records_rerun_wide_with_the_same_answer() {
        use crate::path::{CostChange, Overlay};
        let d = Dungeon::new(4, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        let g = PathGraph::new(&d).unwrap();
        let (a, b) = (Pos::new(0, 0, 0), Pos::new(0, 0, 6));
        let mut swamp = Overlay::new();
        // Three cells costing 300 million each: the route (over 2^29) passes what a compact
        // record holds, so the search is rerun in wide records.
        for col in [2, 4, 6] {
            swamp.set_cell(Pos::new(0, 0, col), CostChange::Add(300_000_000));
        }
        let mut astar = AStar::new();
        let r = astar.find_with(&g, a, b, &PathRules::default(), &swamp).unwrap().unwrap();
        assert_eq!(r.cost, 3 * (1000 + 300_000_000));
        assert_eq!(r.steps, [a, Pos::new(0, 0, 2), Pos::new(0, 0, 4), b]);
        assert_eq!(astar.expanded(), 4);
        // And the compact records still serve the next search.
        assert_eq!(astar.find(&g, a, b, &PathRules::default()).unwrap().unwrap().cost, 3000);
    }

    #[test]
    fn door_needs_open_doors_rule() {
        let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
        let (a, b) = (Pos::new(0, 0, 0), Pos::new(0, 0, 2));
        assert_eq!(find_path(&d, a, b, &PathRules::default()).unwrap(), None);
        let open = PathRules { open_doors: true };
        assert_eq!(find_path(&d, a, b, &open).unwrap().unwrap().cost, 1000);
    }
}
