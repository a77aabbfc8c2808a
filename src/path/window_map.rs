//! A Dijkstra map that holds values for its window only ([`WindowMap`]): a monster's chase
//! map over the 41x41 slots round the player allocates and touches that window, not the
//! dungeon.

use std::num::NonZeroU32;
use std::ops::Range;

use super::dijkstra_map::{Shape, UNREACHED, descend, offset, scale_values, value};
use super::search::{Parents, Search};
#[cfg(doc)]
use super::{DijkstraMap, OwnedDijkstraMap};
use super::{MapBounds, NodeId, PathError, PathGraph, PathRules, RegistryCosts, Route, Step, StepCosts};
use crate::grid::{Pos, Slot, SlotKind};

/// A Dijkstra map bounded to a window that holds values for the window's slots only
/// (levels x rows x cols of [`MapBounds`]) and touches only the nodes inside it: its cost
/// grows with the window, not with the dungeon. A 41 x 41-slot window on a 64 x 64
/// dungeon of four levels holds 1,681 values, not one per node of the graph. Owned, like
/// [`OwnedDijkstraMap`]: its methods take the graph.
///
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::path::{MapBounds, PathGraph, PathRules, UNREACHED, WindowMap};
///
/// let dungeon = Dungeon::new(64, 64, 1, Proportions::default(), Fill::Floor)?;
/// let graph = PathGraph::new(&dungeon)?;
/// let (monster, player) = (Pos::new(0, 60, 60), Pos::new(0, 64, 64));
/// let around = MapBounds { rows: 44..85, cols: 44..85, levels: vec![0] };
/// let map = WindowMap::new(&graph, &[player], &around, &PathRules::default())?;
/// assert_eq!(map.len(), 41 * 41);
/// assert_eq!(map.value(Pos::new(0, 64, 60))?, 2000);
/// assert_eq!(map.value(Pos::new(0, 0, 0))?, UNREACHED, "outside the window");
/// let chase = map.descend(&graph, monster)?.unwrap();
/// assert_eq!(chase.steps.last(), Some(&player));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct WindowMap<C = RegistryCosts> {
    shape: Shape,
    rules: PathRules,
    costs: C,
    rows: Range<u32>,
    cols: Range<u32>,
    /// Per level of the graph: its place among the window's levels, or [`NOT_IN`].
    level_index: Vec<u32>,
    /// The window's levels, in increasing order.
    levels: Vec<u16>,
    /// Per slot of the window, level by level, row-major.
    values: Vec<i64>,
}

/// `WindowMap::level_index` entry of a level outside the window.
const NOT_IN: u32 = u32::MAX;

impl WindowMap {
    /// A window map with value 0 at every goal, spreading within `bounds` (clipped to the
    /// graph) under `rules`. Goals that are not floor or lie outside the window are
    /// ignored.
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a goal outside the
    /// dungeon or on a Void slot.
    pub fn new(
        graph: &PathGraph,
        goals: &[Pos],
        bounds: &MapBounds,
        rules: &PathRules,
    ) -> Result<WindowMap, PathError> {
        let seeds: Vec<(Pos, i64)> = goals.iter().map(|&p| (p, 0)).collect();
        WindowMap::from_seeds_with(graph, &seeds, bounds, rules, RegistryCosts)
    }
}

impl<C: StepCosts> WindowMap<C> {
    /// A window map seeded with a value per position, with step costs from `costs`; as
    /// [`DijkstraMap::from_seeds_with`] otherwise.
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a seed outside the
    /// dungeon or on a Void slot.
    pub fn from_seeds_with(
        graph: &PathGraph,
        seeds: &[(Pos, i64)],
        bounds: &MapBounds,
        rules: &PathRules,
        costs: C,
    ) -> Result<WindowMap<C>, PathError> {
        let dims = graph.dims();
        let clip = |r: &Range<u32>, len: u32| r.start.min(len)..r.end.clamp(r.start.min(len), len);
        let (rows, cols) = (clip(&bounds.rows, dims.rows()), clip(&bounds.cols, dims.cols()));
        let mut levels: Vec<u16> = bounds.levels.iter().copied().filter(|&l| l < graph.levels()).collect();
        levels.sort_unstable();
        levels.dedup();
        let mut level_index = vec![NOT_IN; usize::from(graph.levels())];
        for (i, &l) in levels.iter().enumerate() {
            level_index[usize::from(l)] = i as u32;
        }
        let len = levels.len() * rows.len() * cols.len();
        let mut map = WindowMap {
            shape: Shape::of(graph),
            rules: *rules,
            costs,
            rows,
            cols,
            level_index,
            levels,
            values: vec![UNREACHED; len],
        };
        let mut starts = Vec::with_capacity(seeds.len());
        for &(pos, value) in seeds {
            if graph.node(pos)?.is_some()
                && let Some(i) = map.local(pos)
            {
                starts.push((i, value.min(UNREACHED - 1)));
            }
        }
        map.spread(graph, &starts);
        Ok(map)
    }

    /// The number of slots the window holds values for (levels x rows x cols).
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when the window holds no slot (the bounds miss the graph).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value at `pos` ([`UNREACHED`] outside the window, for cells that are not floor
    /// and for those not reached).
    ///
    /// # Errors
    ///
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a position outside the
    /// dungeon (of the graph the map was built on) or on a Void slot.
    pub fn value(&self, pos: Pos) -> Result<i64, PathError> {
        let Shape { dims, levels, .. } = self.shape;
        let Slot { row, col } = pos.slot;
        if pos.level >= levels || !dims.contains(pos.slot) {
            let (rows, cols) = (dims.rows(), dims.cols());
            return Err(PathError::OutOfDungeon { level: pos.level, row, col, levels, rows, cols });
        }
        if pos.slot.kind() == SlotKind::Void {
            return Err(PathError::NotACell { level: pos.level, row, col });
        }
        Ok(self.local(pos).map_or(UNREACHED, |i| self.values[i as usize]))
    }

    /// As [`DijkstraMap::scale`].
    pub fn scale(&mut self, num: i32, den: NonZeroU32) {
        scale_values(&mut self.values, num, den);
    }

    /// As [`DijkstraMap::rescan`], on `graph`, within the window.
    ///
    /// # Errors
    ///
    /// [`PathError::GraphMismatch`] for a graph of another shape than the map's.
    pub fn rescan(&mut self, graph: &PathGraph) -> Result<(), PathError> {
        self.shape.check(graph)?;
        let reached: Vec<(u32, i64)> =
            (0u32..).zip(self.values.iter().copied()).filter(|s| s.1 != UNREACHED).collect();
        self.spread(graph, &reached);
        Ok(())
    }

    /// As [`DijkstraMap::descend`], on `graph`, within the window.
    ///
    /// # Errors
    ///
    /// [`PathError::GraphMismatch`] for a graph of another shape than the map's;
    /// [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for a position outside the
    /// dungeon or on a Void slot.
    pub fn descend(&self, graph: &PathGraph, from: Pos) -> Result<Option<Route>, PathError> {
        self.shape.check(graph)?;
        let Some(v) = graph.node(from)? else { return Ok(None) };
        let value_of =
            |u: u32| self.local(graph.pos(NodeId(u))).map_or(UNREACHED, |i| self.values[i as usize]);
        Ok(descend(graph, &self.rules, &self.costs, v.0, value_of))
    }

    /// The window index of `pos`, or `None` outside the window.
    fn local(&self, pos: Pos) -> Option<u32> {
        let l = *self.level_index.get(usize::from(pos.level)).filter(|&&l| l != NOT_IN)?;
        let Slot { row, col } = pos.slot;
        if !self.rows.contains(&row) || !self.cols.contains(&col) {
            return None;
        }
        let (h, w) = (self.rows.len(), self.cols.len());
        let i = (l as usize * h + (row - self.rows.start) as usize) * w + (col - self.cols.start) as usize;
        Some(i as u32)
    }

    /// The position of window index `i`.
    fn pos_of(&self, i: u32) -> Pos {
        let (h, w) = (self.rows.len(), self.cols.len());
        let (i, l) = (i as usize, i as usize / (h * w));
        let (row, col) = ((i / w) % h, i % w);
        Pos::new(self.levels[l], self.rows.start + row as u32, self.cols.start + col as u32)
    }

    /// Dijkstra within the window from `starts` (window indices and values), writing
    /// every slot's value: the general search over window indices, so its scratch is the
    /// window's size.
    fn spread(&mut self, graph: &PathGraph, starts: &[(u32, i64)]) {
        let Some(min) = starts.iter().map(|s| s.1).min() else {
            self.values.fill(UNREACHED);
            return;
        };
        let csr = graph.csr(&self.rules);
        let mut search = Search::new();
        search.reset(self.values.len(), Parents::Skip);
        for &(i, x) in starts {
            search.start(i, offset(x, min));
        }
        let this = &*self;
        let node_of = |i: u32| graph.node(this.pos_of(i)).ok().flatten().map(|v| v.0);
        // The arcs out of `u` lead to the nodes that can step into `u`, at the reverse cost.
        search.run_to_end(|i| {
            let (u, arcs) = node_of(i).map_or((0, &[][..]), |u| (u, csr.row(u)));
            arcs.iter().filter_map(move |a| {
                let to = this.local(graph.pos(NodeId(a.to)))?;
                let cost = this.costs.cost(Step::new(graph, a.to, u, graph.reverse_cost(u, a)))?;
                Some((to, cost))
            })
        });
        let values: Vec<i64> = search.costs().iter().map(|&cost| value(cost, min)).collect();
        self.values = values;
    }
}
