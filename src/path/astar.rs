//! A* over a [`PathGraph`], with scratch buffers kept between searches, and the one-call
//! [`find_path`].

use std::hint::select_unpredictable;

use super::csr::Csr;
use super::heuristic::Estimate;
use super::queue::BucketQueue;
use super::{NodeId, PathError, PathGraph, PathRules, RegistryCosts, Step, StepCosts};
use crate::dungeon::Dungeon;
use crate::grid::Pos;

const NO_PARENT: u32 = u32::MAX;

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
#[derive(Debug, Clone)]
pub struct AStar {
    /// Per node, what the search knows of it (one record, so a step reads one cache line).
    nodes: Vec<Record>,
    open_stamp: u32,
    /// Open nodes keyed by `f` (a bucket per key: costs are small integers).
    queue: BucketQueue,
    expanded: usize,
}

/// A* state of one node.
#[derive(Debug, Clone, Copy, Default)]
struct Record {
    /// Cost of the best route found so far (valid when stamped).
    g: u64,
    /// `open_stamp` when seen by the current search, `open_stamp + 1` when closed, anything
    /// lower when untouched (so nothing is cleared between searches).
    stamp: u32,
    /// The node before it on that route.
    parent: u32,
}

impl Default for AStar {
    fn default() -> Self {
        AStar::new()
    }
}

impl AStar {
    /// A search with empty buffers (they grow to the graph's size on first use).
    #[must_use]
    pub fn new() -> AStar {
        AStar { nodes: Vec::new(), open_stamp: 0, queue: BucketQueue::default(), expanded: 0 }
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
        self.begin(graph.node_count());
        let csr = graph.csr(rules);
        let h = graph.heuristic(to);
        if costs.never_below_graph() && h.has_landmarks() {
            self.run(graph, csr, from, to, costs, &h)
        } else {
            self.run(graph, csr, from, to, costs, &h.octile())
        }
    }

    /// The search loop, monomorphised for the cost source and the estimate.
    fn run<C: StepCosts, H: Estimate>(
        &mut self,
        graph: &PathGraph,
        csr: &Csr,
        from: NodeId,
        to: NodeId,
        costs: &C,
        h: &H,
    ) -> Option<Route> {
        let (open, closed) = (self.open_stamp, self.open_stamp + 1);
        self.nodes[from.index()] = Record { g: 0, stamp: open, parent: NO_PARENT };
        self.queue.push(h.at_coord(from.0, graph.coord(from.0)), from.0);
        while let Some((_, v)) = self.queue.pop() {
            let record = &mut self.nodes[v as usize];
            if record.stamp == closed {
                continue;
            }
            record.stamp = closed;
            let g = record.g;
            self.expanded += 1;
            if v == to.0 {
                return Some(self.route(graph, v));
            }
            let here = graph.coord(v);
            let (arcs, moves) = csr.row_moves(v);
            // Whether a step improves its end is a coin toss (a closed node, an open one
            // reached as cheaply, or a better route), so it is computed, not branched on:
            // the record takes the new values or keeps its own, and the queue counts the
            // entry it writes only when the step improves.
            for (arc, &step) in arcs.iter().zip(moves) {
                let Some(cost) = costs.cost(Step::new(graph, v, arc.to, u64::from(arc.cost))) else {
                    continue;
                };
                let ng = g + cost;
                let next = &mut self.nodes[arc.to as usize];
                // Untouched stamps are below `open`; a closed node never improves
                // (consistent heuristic).
                let improves = (next.stamp < open) | ((next.stamp == open) & (ng < next.g));
                next.g = select_unpredictable(improves, ng, next.g);
                next.parent = select_unpredictable(improves, v, next.parent);
                next.stamp = select_unpredictable(improves, open, next.stamp);
                self.queue.push_if(improves, ng + h.at_coord(arc.to, here.moved(step)), arc.to);
            }
        }
        None
    }

    /// Prepares the buffers for a new search over `nodes` nodes.
    fn begin(&mut self, nodes: usize) {
        if self.nodes.len() < nodes {
            self.nodes.resize(nodes, Record::default());
        }
        self.queue.clear();
        // Stamps of earlier searches are below `open_stamp`; restart the count before it wraps.
        if self.open_stamp >= u32::MAX - 2 {
            self.nodes.fill(Record::default());
            self.open_stamp = 0;
        }
        self.open_stamp += 2;
    }

    fn route(&self, graph: &PathGraph, goal: u32) -> Route {
        let mut steps = Vec::new();
        let mut v = goal;
        while v != NO_PARENT {
            steps.push(graph.pos(NodeId(v)));
            v = self.nodes[v as usize].parent;
        }
        steps.reverse();
        Route { steps, cost: self.nodes[goal as usize].g }
    }
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
    fn door_needs_open_doors_rule() {
        let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
        let (a, b) = (Pos::new(0, 0, 0), Pos::new(0, 0, 2));
        assert_eq!(find_path(&d, a, b, &PathRules::default()).unwrap(), None);
        let open = PathRules { open_doors: true };
        assert_eq!(find_path(&d, a, b, &open).unwrap().unwrap().cost, 1000);
    }
}
