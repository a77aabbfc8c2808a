//! Dijkstra maps: the cost from every node to the nearest of some goals, bounded to a
//! rectangle of slots and a set of levels. Values are signed, so a map can be scaled by a
//! negative factor and rescanned into a "flee" map; rolling downhill from any reached node
//! follows a cheapest route to a goal.

use std::num::NonZeroU32;
use std::ops::Range;

use super::flood::{FAR, flood};
use super::search::{Parents, Search, UNREACHED as SEARCH_UNREACHED};
use super::{NodeId, PathError, PathGraph, PathRules, RegistryCosts, Route, Step, StepCosts};
use crate::grid::Pos;

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

/// Costs to the nearest goal, per node, in thousandths of a long step, with step costs
/// from `C` (the graph's own costs by default; any [`StepCosts`] such as an
/// [`Overlay`](super::Overlay) through [`DijkstraMap::from_seeds_with`]).
#[derive(Debug, Clone)]
pub struct DijkstraMap<'g, C = RegistryCosts> {
    graph: &'g PathGraph,
    rules: PathRules,
    costs: C,
    /// Which nodes lie within the bounds; `None` when the bounds cover the whole graph.
    inside: Option<Vec<bool>>,
    values: Vec<i64>,
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
        let seeds: Vec<(Pos, i64)> = goals.iter().map(|&p| (p, 0)).collect();
        DijkstraMap::from_seeds(graph, &seeds, bounds, rules)
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
        let inside = inside_mask(graph, bounds);
        let mut starts = Vec::with_capacity(seeds.len());
        for &(pos, value) in seeds {
            if let Some(v) = graph.node(pos)?
                && inside.as_ref().is_none_or(|m| m[v.index()])
            {
                starts.push((v.0, value.min(UNREACHED - 1)));
            }
        }
        let mut map = DijkstraMap { graph, rules: *rules, costs, values: Vec::new(), inside };
        map.values = map.spread(&starts);
        Ok(map)
    }

    /// The value at `pos` ([`UNREACHED`] for cells that are not floor or were not reached).
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a position outside the
    /// dungeon or on a Void slot.
    pub fn value(&self, pos: Pos) -> Result<i64, PathError> {
        Ok(self.graph.node(pos)?.map_or(UNREACHED, |v| self.values[v.index()]))
    }

    /// The value of every node, indexed by [`NodeId::index`].
    #[must_use]
    pub fn values(&self) -> &[i64] {
        &self.values
    }

    /// Multiplies every reached value by `num / den` (rounding towards minus infinity,
    /// saturating). A negative factor (about -1.2) followed by [`DijkstraMap::rescan`]
    /// turns a map towards threats into one that flees them.
    pub fn scale(&mut self, num: i32, den: NonZeroU32) {
        for x in self.values.iter_mut().filter(|x| **x != UNREACHED) {
            let scaled = (i128::from(*x) * i128::from(num)).div_euclid(i128::from(den.get()));
            *x = scaled.clamp(i128::from(i64::MIN), i128::from(UNREACHED - 1)) as i64;
        }
    }

    /// Lowers every value to the cheapest of itself and (a neighbour's value plus the step
    /// to it), to a fixed point: afterwards the map is consistent, so descending it works.
    pub fn rescan(&mut self) {
        let reached: Vec<(u32, i64)> = (0..self.values.len() as u32)
            .map(|v| (v, self.values[v as usize]))
            .filter(|s| s.1 != UNREACHED)
            .collect();
        self.values = self.spread(&reached);
    }

    /// Dijkstra from the nodes `starts` with their values (a node listed twice takes the
    /// lower), lowering the values of the nodes that can step to them: the value of every
    /// node, [`UNREACHED`] where none of them is reached.
    fn spread(&self, starts: &[(u32, i64)]) -> Vec<i64> {
        let n = self.graph.node_count();
        let Some(min) = starts.iter().map(|s| s.1).min() else { return vec![UNREACHED; n] };
        // The search counts up from 0; a value is `min` plus the search's cost.
        let offset = |x: i64| (i128::from(x) - i128::from(min)) as u64;
        let starts: Vec<(u32, u64)> = starts.iter().map(|&(v, x)| (v, offset(x))).collect();
        let value = |cost: u64| {
            let value = i128::from(min) + i128::from(cost);
            if value >= i128::from(UNREACHED) { UNREACHED } else { value as i64 }
        };
        let (graph, csr) = (self.graph, self.graph.csr(&self.rules));
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
        // The arcs out of `u` lead to the nodes that can step into `u`, at the reverse cost.
        search.run_to_end(|u| {
            let arcs = csr.row(u).iter().filter(move |a| inside.is_none_or(|m| m[a.to as usize]));
            arcs.filter_map(move |a| {
                costs.cost(Step::new(graph, a.to, u, graph.reverse_cost(u, a))).map(|c| (a.to, c))
            })
        });
        search
            .costs()
            .iter()
            .map(|&cost| if cost == SEARCH_UNREACHED { UNREACHED } else { value(cost) })
            .collect()
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
        let Some(mut v) = self.graph.node(from)?.map(|v| v.0) else { return Ok(None) };
        if self.values[v as usize] == UNREACHED {
            return Ok(None);
        }
        let mut route = Route { steps: vec![from], cost: 0 };
        let csr = self.graph.csr(&self.rules);
        loop {
            let here = self.values[v as usize];
            let mut best: Option<(i128, u32, u64)> = None;
            for arc in csr.row(v) {
                let x = self.values[arc.to as usize];
                if x == UNREACHED || x >= here {
                    continue;
                }
                let Some(step) = self.costs.cost(Step::new(self.graph, v, arc.to, u64::from(arc.cost)))
                else {
                    continue;
                };
                let total = i128::from(x) + i128::from(step);
                if best.is_none_or(|(b, _, _)| total < b) {
                    best = Some((total, arc.to, step));
                }
            }
            let Some((_, next, step)) = best else { return Ok(Some(route)) };
            route.steps.push(self.graph.pos(NodeId(next)));
            route.cost += step;
            v = next;
        }
    }
}

/// The nodes within `bounds`, or `None` when the bounds cover every node.
fn inside_mask(graph: &PathGraph, bounds: &MapBounds) -> Option<Vec<bool>> {
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
