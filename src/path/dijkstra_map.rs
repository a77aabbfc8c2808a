//! Dijkstra maps: the cost from every node to the nearest of some goals, bounded to a
//! rectangle of slots and a set of levels. Values are signed, so a map can be scaled by a
//! negative factor and rescanned into a "flee" map; rolling downhill from any reached node
//! follows a cheapest route to a goal. A map can borrow its graph ([`DijkstraMap`]) or
//! own its values and take the graph on each call ([`OwnedDijkstraMap`]); a
//! [`WindowMap`] holds values for its window only.

use std::num::NonZeroU32;
use std::ops::Range;

use super::flood::{FAR, flood};
use super::search::{Parents, Search, UNREACHED as SEARCH_UNREACHED};
use super::{NodeId, PathError, PathGraph, PathRules, RegistryCosts, Route, Step, StepCosts};
use crate::grid::{Dims, Pos};

/// The value of a node the map did not reach (outside its bounds, not a node, or cut off).
pub const UNREACHED: i64 = i64::MAX;

/// Where a [`DijkstraMap`] may spread: slot rows and columns (half-open ranges) and a set
/// of levels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapBounds {
    /// Slot rows, half-open.
    pub rows: Range<u32>,
    /// Slot columns, half-open.
    pub cols: Range<u32>,
    /// Levels included (any order; duplicates and levels past the top are ignored).
    pub levels: Vec<u16>,
}

impl MapBounds {
    /// The whole graph: every slot of every level.
    #[must_use]
    pub fn everywhere(graph: &PathGraph) -> MapBounds {
        MapBounds {
            rows: 0..graph.dims().rows(),
            cols: 0..graph.dims().cols(),
            levels: (0..graph.levels()).collect(),
        }
    }
}

/// The shape of the graph a kept map was built on, checked when the map is used with a
/// graph again: node count, slot dimensions and levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Shape {
    nodes: usize,
    pub(super) dims: Dims,
    pub(super) levels: u16,
}

impl Shape {
    pub(super) fn of(graph: &PathGraph) -> Shape {
        Shape { nodes: graph.node_count(), dims: graph.dims(), levels: graph.levels() }
    }

    /// Refuses a graph of another shape than the map's.
    pub(super) fn check(self, graph: &PathGraph) -> Result<(), PathError> {
        let other = Shape::of(graph);
        if other == self {
            return Ok(());
        }
        Err(PathError::GraphMismatch { map_nodes: self.nodes, graph_nodes: other.nodes })
    }
}

/// Costs to the nearest goal, per node, in thousandths of a long step, with step costs
/// from `C` (the graph's own costs by default; any [`StepCosts`] such as an
/// [`Overlay`](super::Overlay) through [`DijkstraMap::from_seeds_with`]). It borrows its
/// graph; [`DijkstraMap::into_owned`] keeps the values without the borrow (to store next
/// to the graph in a game's state).
///
/// ```
/// use std::num::NonZeroU32;
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::path::{DijkstraMap, MapBounds, PathGraph, PathRules};
///
/// // A corridor of five octagons; the threat stands in the second.
/// let dungeon = Dungeon::new(5, 1, 1, Proportions::default(), Fill::Floor)?;
/// let graph = PathGraph::new(&dungeon)?;
/// let everywhere = MapBounds::everywhere(&graph);
/// let threat = Pos::new(0, 0, 2);
/// let mut map = DijkstraMap::new(&graph, &[threat], &everywhere, &PathRules::default())?;
/// assert_eq!(map.value(Pos::new(0, 0, 8))?, 3000);
/// // Towards the threat: roll downhill.
/// let route = map.descend(Pos::new(0, 0, 8))?.unwrap();
/// assert_eq!(route.steps.last(), Some(&threat));
/// // Away from it: scale by -1.2 and rescan into a flee map.
/// map.scale(-6, NonZeroU32::new(5).unwrap());
/// map.rescan();
/// let flee = map.descend(Pos::new(0, 0, 4))?.unwrap();
/// assert_eq!(flee.steps.last(), Some(&Pos::new(0, 0, 8)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct DijkstraMap<'g, C = RegistryCosts> {
    graph: &'g PathGraph,
    map: OwnedDijkstraMap<C>,
}

impl<'g> DijkstraMap<'g> {
    /// A map with value 0 at every goal, spreading within `bounds` under `rules`. Goals
    /// that are not floor or lie outside the bounds are ignored.
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a goal outside the
    /// dungeon or on a Void slot.
    pub fn new(
        graph: &'g PathGraph,
        goals: &[Pos],
        bounds: &MapBounds,
        rules: &PathRules,
    ) -> Result<DijkstraMap<'g>, PathError> {
        let map = OwnedDijkstraMap::new(graph, goals, bounds, rules)?;
        Ok(DijkstraMap { graph, map })
    }

    /// A map seeded with a value per position (lower is more attractive); otherwise as
    /// [`DijkstraMap::new`].
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a seed outside the
    /// dungeon or on a Void slot.
    pub fn from_seeds(
        graph: &'g PathGraph,
        seeds: &[(Pos, i64)],
        bounds: &MapBounds,
        rules: &PathRules,
    ) -> Result<DijkstraMap<'g>, PathError> {
        DijkstraMap::from_seeds_with(graph, seeds, bounds, rules, RegistryCosts)
    }
}

impl<'g, C: StepCosts> DijkstraMap<'g, C> {
    /// As [`DijkstraMap::from_seeds`], with step costs read from `costs` (kept by the map
    /// for [`DijkstraMap::rescan`] and [`DijkstraMap::descend`]; pass a reference to keep
    /// the source yourself). A step `costs` forbids is not taken.
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a seed outside the
    /// dungeon or on a Void slot.
    pub fn from_seeds_with(
        graph: &'g PathGraph,
        seeds: &[(Pos, i64)],
        bounds: &MapBounds,
        rules: &PathRules,
        costs: C,
    ) -> Result<DijkstraMap<'g, C>, PathError> {
        let map = OwnedDijkstraMap::from_seeds_with(graph, seeds, bounds, rules, costs)?;
        Ok(DijkstraMap { graph, map })
    }

    /// The value at `pos` ([`UNREACHED`] for cells that are not floor or were not reached).
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a position outside the
    /// dungeon or on a Void slot.
    pub fn value(&self, pos: Pos) -> Result<i64, PathError> {
        self.map.value(self.graph, pos)
    }

    /// The value of every node, indexed by [`NodeId::index`].
    #[must_use]
    pub fn values(&self) -> &[i64] {
        self.map.values()
    }

    /// Multiplies every reached value by `num / den` (rounding towards minus infinity,
    /// saturating). A negative factor (about -1.2) followed by [`DijkstraMap::rescan`]
    /// turns a map towards threats into one that flees them.
    pub fn scale(&mut self, num: i32, den: NonZeroU32) {
        self.map.scale(num, den);
    }

    /// Lowers every value to the cheapest of itself and (a neighbour's value plus the step
    /// to it), to a fixed point: afterwards the map is consistent, so descending it works.
    ///
    /// # Panics
    ///
    /// Never: the map was built on its own graph, as the `expect` restates.
    pub fn rescan(&mut self) {
        self.map.rescan(self.graph).expect("invariant: the map's own graph");
    }

    /// Rolls downhill from `from`: repeatedly steps to the neighbour with the least value
    /// plus step cost, while that neighbour's value is lower than the current one. On a
    /// map built by [`DijkstraMap::new`] this is a cheapest route to the nearest goal.
    /// `Ok(None)` when `from` was not reached.
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a position outside the
    /// dungeon or on a Void slot.
    pub fn descend(&self, from: Pos) -> Result<Option<Route>, PathError> {
        self.map.descend(self.graph, from)
    }

    /// The map's values without the borrow of the graph: a value a game keeps in its state
    /// next to the graph, and hands the graph to when it reads the map.
    #[must_use]
    pub fn into_owned(self) -> OwnedDijkstraMap<C> {
        self.map
    }
}

/// A [`DijkstraMap`] that owns everything it holds and borrows nothing: its methods take
/// the graph it was built on, so it can sit in a game's state next to that graph (a
/// borrowing map cannot: the graph could not be moved or changed while it lives). It
/// remembers the graph's shape (node count, slot dimensions, levels) and refuses a graph
/// of another shape with [`PathError::GraphMismatch`].
///
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::path::{MapBounds, OwnedDijkstraMap, PathGraph, PathRules};
///
/// struct Game {
///     graph: PathGraph,
///     towards_player: OwnedDijkstraMap,
/// }
///
/// let dungeon = Dungeon::new(4, 1, 1, Proportions::default(), Fill::Floor)?;
/// let graph = PathGraph::new(&dungeon)?;
/// let bounds = MapBounds::everywhere(&graph);
/// let towards_player =
///     OwnedDijkstraMap::new(&graph, &[Pos::new(0, 0, 0)], &bounds, &PathRules::default())?;
/// let game = Game { graph, towards_player };
/// assert_eq!(game.towards_player.value(&game.graph, Pos::new(0, 0, 6))?, 3000);
/// let step = game.towards_player.descend(&game.graph, Pos::new(0, 0, 6))?.unwrap();
/// assert_eq!(step.steps[1], Pos::new(0, 0, 4));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct OwnedDijkstraMap<C = RegistryCosts> {
    shape: Shape,
    rules: PathRules,
    costs: C,
    /// Which nodes lie within the bounds; `None` when the bounds cover the whole graph.
    inside: Option<Vec<bool>>,
    values: Vec<i64>,
}

impl OwnedDijkstraMap {
    /// As [`DijkstraMap::new`], kept without a borrow of `graph`.
    ///
    /// # Errors
    ///
    /// As [`DijkstraMap::new`].
    pub fn new(
        graph: &PathGraph,
        goals: &[Pos],
        bounds: &MapBounds,
        rules: &PathRules,
    ) -> Result<OwnedDijkstraMap, PathError> {
        let seeds: Vec<(Pos, i64)> = goals.iter().map(|&p| (p, 0)).collect();
        OwnedDijkstraMap::from_seeds_with(graph, &seeds, bounds, rules, RegistryCosts)
    }
}

impl<C: StepCosts> OwnedDijkstraMap<C> {
    /// As [`DijkstraMap::from_seeds_with`], kept without a borrow of `graph`.
    ///
    /// # Errors
    ///
    /// As [`DijkstraMap::from_seeds_with`].
    pub fn from_seeds_with(
        graph: &PathGraph,
        seeds: &[(Pos, i64)],
        bounds: &MapBounds,
        rules: &PathRules,
        costs: C,
    ) -> Result<OwnedDijkstraMap<C>, PathError> {
        let inside = inside_mask(graph, bounds);
        let mut starts = Vec::with_capacity(seeds.len());
        for &(pos, value) in seeds {
            if let Some(v) = graph.node(pos)?
                && inside.as_ref().is_none_or(|m| m[v.index()])
            {
                starts.push((v.0, value.min(UNREACHED - 1)));
            }
        }
        let mut map =
            OwnedDijkstraMap { shape: Shape::of(graph), rules: *rules, costs, values: Vec::new(), inside };
        map.values = map.spread(graph, &starts);
        Ok(map)
    }

    /// The value at `pos` on `graph` ([`UNREACHED`] for cells that are not floor or were
    /// not reached).
    ///
    /// # Errors
    ///
    /// [`PathError::GraphMismatch`] for a graph of another shape than the map's;
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a position outside the
    /// dungeon or on a Void slot.
    pub fn value(&self, graph: &PathGraph, pos: Pos) -> Result<i64, PathError> {
        self.shape.check(graph)?;
        Ok(graph.node(pos)?.map_or(UNREACHED, |v| self.values[v.index()]))
    }

    /// The value of every node, indexed by [`NodeId::index`].
    #[must_use]
    pub fn values(&self) -> &[i64] {
        &self.values
    }

    /// As [`DijkstraMap::scale`].
    pub fn scale(&mut self, num: i32, den: NonZeroU32) {
        scale_values(&mut self.values, num, den);
    }

    /// As [`DijkstraMap::rescan`], on `graph`.
    ///
    /// # Errors
    ///
    /// [`PathError::GraphMismatch`] for a graph of another shape than the map's.
    pub fn rescan(&mut self, graph: &PathGraph) -> Result<(), PathError> {
        self.shape.check(graph)?;
        let reached: Vec<(u32, i64)> = (0..self.values.len() as u32)
            .map(|v| (v, self.values[v as usize]))
            .filter(|s| s.1 != UNREACHED)
            .collect();
        self.values = self.spread(graph, &reached);
        Ok(())
    }

    /// As [`DijkstraMap::descend`], on `graph`.
    ///
    /// # Errors
    ///
    /// [`PathError::GraphMismatch`] for a graph of another shape than the map's;
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a position outside the
    /// dungeon or on a Void slot.
    pub fn descend(&self, graph: &PathGraph, from: Pos) -> Result<Option<Route>, PathError> {
        self.shape.check(graph)?;
        let Some(v) = graph.node(from)? else { return Ok(None) };
        Ok(descend(graph, &self.rules, &self.costs, v.0, |u| self.values[u as usize]))
    }

    /// Dijkstra from the nodes `starts` with their values (a node listed twice takes the
    /// lower), lowering the values of the nodes that can step to them: the value of every
    /// node, [`UNREACHED`] where none of them is reached.
    fn spread(&self, graph: &PathGraph, starts: &[(u32, i64)]) -> Vec<i64> {
        let n = graph.node_count();
        let Some(min) = starts.iter().map(|s| s.1).min() else { return vec![UNREACHED; n] };
        // The search counts up from 0; a value is `min` plus the search's cost.
        let starts: Vec<(u32, u64)> = starts.iter().map(|&(v, x)| (v, offset(x, min))).collect();
        let csr = graph.csr(&self.rules);
        let inside = self.inside.as_deref();
        let flooded = match inside {
            None => flood(graph, csr, |_| true, &self.costs, &starts),
            Some(m) => flood(graph, csr, |v| m[v as usize], &self.costs, &starts),
        };
        if let Some(dist) = flooded {
            // Collected, not filled then overwritten: one pass over the values.
            return if min <= UNREACHED - i64::from(FAR) {
                // No sum can reach UNREACHED: a plain add (which vectorises).
                dist.iter().map(|&d| if d == FAR { UNREACHED } else { min + i64::from(d) }).collect()
            } else {
                // `min + d` at or past UNREACHED saturates to UNREACHED.
                dist.iter()
                    .map(|&d| if d == FAR { UNREACHED } else { min.saturating_add(i64::from(d)) })
                    .collect()
            };
        }
        let mut search = Search::new();
        search.reset(n, Parents::Skip);
        for &(v, cost) in &starts {
            search.start(v, cost);
        }
        let costs = &self.costs;
        // The arcs out of `u` lead to the nodes that can step into `u`, at the reverse cost;
        // behind a one-way door, the node that steps into `u` where `u` may not step back.
        search.run_to_end(|u| {
            let arcs = csr
                .row(u)
                .iter()
                .filter(move |a| inside.is_none_or(|m| m[a.to as usize]) && graph.steps_back(u, a))
                .map(move |a| (a.to, graph.reverse_cost(u, a)));
            let one_way = graph
                .refused_from(u)
                .filter(move |&x| inside.is_none_or(|m| m[x as usize]))
                .filter_map(move |x| csr.row(x).iter().find(|a| a.to == u).map(|a| (x, u64::from(a.cost))));
            arcs.chain(one_way)
                .filter_map(move |(x, cost)| costs.cost(Step::new(graph, x, u, cost)).map(|c| (x, c)))
        });
        search.costs().iter().map(|&cost| value(cost, min)).collect()
    }
}

/// A value `x` as a search cost counted up from `min` (the lowest start).
pub(super) fn offset(x: i64, min: i64) -> u64 {
    (i128::from(x) - i128::from(min)) as u64
}

/// The value of search cost `cost` counted up from `min`: [`UNREACHED`] where not
/// reached, and where the sum reaches it.
pub(super) fn value(cost: u64, min: i64) -> i64 {
    if cost == SEARCH_UNREACHED {
        return UNREACHED;
    }
    let value = i128::from(min) + i128::from(cost);
    if value >= i128::from(UNREACHED) { UNREACHED } else { value as i64 }
}

/// [`DijkstraMap::scale`] of a list of values.
pub(super) fn scale_values(values: &mut [i64], num: i32, den: NonZeroU32) {
    for x in values.iter_mut().filter(|x| **x != UNREACHED) {
        let scaled = (i128::from(*x) * i128::from(num)).div_euclid(i128::from(den.get()));
        *x = scaled.clamp(i128::from(i64::MIN), i128::from(UNREACHED - 1)) as i64;
    }
}

/// [`DijkstraMap::descend`] from node `v`, with the values of the nodes read by
/// `value_of` ([`UNREACHED`] where not reached): `None` when `v` was not reached.
pub(super) fn descend<C: StepCosts>(
    graph: &PathGraph,
    rules: &PathRules,
    costs: &C,
    mut v: u32,
    value_of: impl Fn(u32) -> i64,
) -> Option<Route> {
    if value_of(v) == UNREACHED {
        return None;
    }
    let mut route = Route { steps: vec![graph.pos(NodeId(v))], cost: 0 };
    let csr = graph.csr(rules);
    loop {
        let here = value_of(v);
        let mut best: Option<(i128, u32, u64)> = None;
        for arc in csr.row(v) {
            let x = value_of(arc.to);
            if x == UNREACHED || x >= here {
                continue;
            }
            let Some(step) = costs.cost(Step::new(graph, v, arc.to, u64::from(arc.cost))) else {
                continue;
            };
            let total = i128::from(x) + i128::from(step);
            if best.is_none_or(|(b, _, _)| total < b) {
                best = Some((total, arc.to, step));
            }
        }
        let Some((_, next, step)) = best else { return Some(route) };
        route.steps.push(graph.pos(NodeId(next)));
        route.cost += step;
        v = next;
    }
}

/// The nodes within `bounds`, or `None` when the bounds cover every node.
pub(super) fn inside_mask(graph: &PathGraph, bounds: &MapBounds) -> Option<Vec<bool>> {
    let mut levels = vec![false; usize::from(graph.levels())];
    for &l in &bounds.levels {
        if let Some(x) = levels.get_mut(usize::from(l)) {
            *x = true;
        }
    }
    let dims = graph.dims();
    let whole = |r: &Range<u32>, len: u32| r.start == 0 && r.end >= len;
    if levels.iter().all(|&x| x) && whole(&bounds.rows, dims.rows()) && whole(&bounds.cols, dims.cols()) {
        return None;
    }
    let mask = (0..graph.node_count() as u32).map(|v| {
        let p = graph.pos(NodeId(v));
        levels[usize::from(p.level)] && bounds.rows.contains(&p.slot.row) && bounds.cols.contains(&p.slot.col)
    });
    Some(mask.collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Dungeon, Fill};
    use crate::geometry::Proportions;
    use crate::path::WindowMap;

    fn corridor() -> PathGraph {
        let d = Dungeon::new(5, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        PathGraph::new(&d).unwrap()
    }

    #[test]
    fn distances_bounds_and_descent() {
        let g = corridor();
        let all = MapBounds::everywhere(&g);
        let m = DijkstraMap::new(&g, &[Pos::new(0, 0, 0)], &all, &PathRules::default()).unwrap();
        assert_eq!(m.value(Pos::new(0, 0, 8)).unwrap(), 4000);
        let r = m.descend(Pos::new(0, 0, 8)).unwrap().unwrap();
        assert_eq!((r.cost, r.steps.len()), (4000, 5));
        let cut = MapBounds { cols: 0..5, ..all.clone() };
        let m = DijkstraMap::new(&g, &[Pos::new(0, 0, 0)], &cut, &PathRules::default()).unwrap();
        assert_eq!(m.value(Pos::new(0, 0, 4)).unwrap(), 2000);
        assert_eq!(m.value(Pos::new(0, 0, 6)).unwrap(), UNREACHED);
        assert_eq!(m.descend(Pos::new(0, 0, 6)).unwrap(), None);
        assert!(m.value(Pos::new(0, 0, 1)).is_err());
        let no_levels = MapBounds { levels: vec![3], ..all };
        let m = DijkstraMap::new(&g, &[Pos::new(0, 0, 0)], &no_levels, &PathRules::default()).unwrap();
        assert!(m.values().iter().all(|&x| x == UNREACHED));
        assert_eq!(m.descend(Pos::new(0, 0, 0)).unwrap(), None);
    }

    /// Three levels of a generated dungeon with stairs, and its graph.
    fn generated() -> PathGraph {
        let options = crate::generate::GenerateOptions {
            seed: 11,
            levels: 3,
            cols: 12,
            rows: 10,
            doors: 0.3,
            // The looser maze (loops saving 3 long steps) the tests' windows were chosen on.
            loop_gain: 3,
            ..Default::default()
        };
        let d = crate::generate::generate(&options, &mut |_| {}).unwrap();
        PathGraph::new(&d).unwrap()
    }

    #[test]
    fn a_kept_map_gives_the_borrowed_maps_answers_and_refuses_another_graph() {
        let g = generated();
        let all = MapBounds::everywhere(&g);
        let goal = g.pos(NodeId(0));
        let rules = PathRules { open_doors: true };
        let borrowed = DijkstraMap::new(&g, &[goal], &all, &rules).unwrap();
        let mut kept = OwnedDijkstraMap::new(&g, &[goal], &all, &rules).unwrap();
        assert_eq!(kept.values(), borrowed.values());
        let far = g
            .nodes()
            .max_by_key(|v| (borrowed.values()[v.index()] != UNREACHED, borrowed.values()[v.index()]));
        let far = g.pos(far.unwrap());
        assert_eq!(kept.descend(&g, far).unwrap(), borrowed.descend(far).unwrap());
        assert_eq!(kept.value(&g, far).unwrap(), borrowed.value(far).unwrap());
        assert_eq!(borrowed.clone().into_owned().values(), kept.values());
        let other = corridor();
        let mismatch =
            PathError::GraphMismatch { map_nodes: g.node_count(), graph_nodes: other.node_count() };
        assert_eq!(kept.value(&other, Pos::new(0, 0, 0)), Err(mismatch.clone()));
        assert_eq!(kept.rescan(&other), Err(mismatch.clone()));
        assert_eq!(kept.descend(&other, Pos::new(0, 0, 0)), Err(mismatch));
        kept.scale(-6, NonZeroU32::new(5).unwrap());
        kept.rescan(&g).unwrap();
        let mut flee = borrowed;
        flee.scale(-6, NonZeroU32::new(5).unwrap());
        flee.rescan();
        assert_eq!(kept.values(), flee.values());
    }

    #[test]
    fn a_window_map_holds_only_its_window_and_agrees_with_the_bounded_map() {
        let g = generated();
        let dims = g.dims();
        let bounds = MapBounds { rows: 1..18, cols: 2..21, levels: vec![2, 1, 1, 9] };
        let inside: Vec<NodeId> = g
            .nodes()
            .filter(|&v| {
                let p = g.pos(v);
                p.level >= 1 && bounds.rows.contains(&p.slot.row) && bounds.cols.contains(&p.slot.col)
            })
            .collect();
        let goals = [g.pos(inside[0]), g.pos(inside[inside.len() / 2])];
        let mut smoke = super::super::Overlay::new();
        smoke.set_cell(g.pos(inside[inside.len() / 3]), super::super::CostChange::Add(3000));
        for rules in [PathRules::default(), PathRules { open_doors: true }] {
            let seeds: Vec<(Pos, i64)> = goals.iter().map(|&p| (p, -500)).collect();
            let full = DijkstraMap::from_seeds_with(&g, &seeds, &bounds, &rules, &smoke).unwrap();
            let window = WindowMap::from_seeds_with(&g, &seeds, &bounds, &rules, &smoke).unwrap();
            assert_eq!(window.len(), 2 * 17 * 19, "levels 1 and 2 of 17 x 19 slots");
            let mut reached = 0;
            for v in g.nodes() {
                let p = g.pos(v);
                assert_eq!(window.value(p).unwrap(), full.values()[v.index()], "{p} {rules:?}");
                if full.values()[v.index()] != UNREACHED {
                    reached += 1;
                    assert_eq!(window.descend(&g, p).unwrap(), full.descend(p).unwrap(), "{p}");
                }
            }
            assert!(reached > 20, "{reached} nodes reached in the window");
        }
        let window = WindowMap::new(&g, &goals, &bounds, &PathRules::default()).unwrap();
        assert!(matches!(window.value(Pos::new(3, 0, 0)), Err(PathError::OutOfDungeon { .. })));
        assert!(matches!(window.value(Pos::new(0, 0, 1)), Err(PathError::NotACell { .. })));
        let empty = MapBounds { rows: 0..dims.rows(), cols: 900..1000, levels: vec![0] };
        let none = WindowMap::new(&g, &goals, &empty, &PathRules::default()).unwrap();
        assert!(none.is_empty());
        assert_eq!(none.value(goals[0]).unwrap(), UNREACHED);
    }

    #[test]
    fn a_window_flee_map_runs_away_within_the_window() {
        let g = corridor();
        let bounds = MapBounds { rows: 0..1, cols: 0..7, levels: vec![0] };
        let mut m = WindowMap::new(&g, &[Pos::new(0, 0, 2)], &bounds, &PathRules::default()).unwrap();
        m.scale(-6, NonZeroU32::new(5).unwrap());
        m.rescan(&g).unwrap();
        let r = m.descend(&g, Pos::new(0, 0, 4)).unwrap().unwrap();
        assert_eq!(*r.steps.last().unwrap(), Pos::new(0, 0, 6), "the far end of the window");
        assert_eq!(m.value(Pos::new(0, 0, 8)).unwrap(), UNREACHED);
    }

    #[test]
    fn flee_map_runs_away() {
        let g = corridor();
        let all = MapBounds::everywhere(&g);
        let mut m = DijkstraMap::new(&g, &[Pos::new(0, 0, 2)], &all, &PathRules::default()).unwrap();
        m.scale(-6, NonZeroU32::new(5).unwrap());
        assert_eq!(m.value(Pos::new(0, 0, 8)).unwrap(), -3600);
        m.rescan();
        // From next to the threat, fleeing leads to the far end, not the near one.
        let r = m.descend(Pos::new(0, 0, 4)).unwrap().unwrap();
        assert_eq!(*r.steps.last().unwrap(), Pos::new(0, 0, 8));
    }
}
