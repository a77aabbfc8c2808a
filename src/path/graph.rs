//! The pathing graph (DESIGN.md section 5), read once from a dungeon through its registry
//! into dense arrays: nodes are carved, passable cells on all levels; steps cross open
//! edges (octagon-octagon 1000, octagon-connector 707) or climb stairs. The octagon above a
//! stair is the shaft's hole: it is entered and left horizontally only through the stair's
//! exit ([`Dungeon::shaft_allows`]).

use super::landmarks::Landmarks;
use super::{PathError, Regions, label_regions};
use crate::dungeon::Dungeon;
use crate::geometry::Proportions;
use crate::grid::{Dims, Pos, Slot, SlotKind};

/// Cost of a step between two octagons across a long edge, in thousandths of a long step.
pub const LONG_STEP: u32 = 1000;

/// Cost of a step between an octagon and a connector across a short edge (1000 / sqrt 2,
/// so a diagonal through a connector costs 1414).
pub const SHORT_STEP: u32 = 707;

const NONE: u32 = u32::MAX;

/// `hole` entry of a node that is not the hole above a stair (and `landing` entry of a node
/// that is not a stair).
const NOT_A_HOLE: u8 = u8::MAX;
/// `hole` entry of a hole whose stair has no exit.
const NO_EXIT: u8 = 8;

/// The cost of climbing (or descending) one stair, in thousandths of a long step (a long
/// step is the `2 * cell_spacing` metres between two octagon centres).
///
/// The stair is a spiral of one turn rising `layer_height`; its walking line is taken at a
/// radius of `base / 4`, so its horizontal run is `pi * base / 2` and its 3D length is
/// `hypot(pi * base / 2, layer_height)` metres. With the default proportions that is
/// 23.42 m = 1426 thousandths. The result is at least 1 and saturates at `u32::MAX`.
#[must_use]
pub fn stair_cost(proportions: &Proportions) -> u32 {
    let length = crate::geometry::WalkingLine::of(proportions).length();
    let cost = (length / (2.0 * proportions.cell_spacing()) * f64::from(LONG_STEP)).round();
    if cost.is_nan() || cost < 1.0 {
        1
    } else if cost >= f64::from(u32::MAX) {
        u32::MAX
    } else {
        cost as u32
    }
}

/// Options of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PathRules {
    /// Doors may be opened: steps follow `passable` (a closed door is passable) instead of
    /// `walkable` (what one can cross this turn). Off by default.
    pub open_doors: bool,
}

/// A node of a [`PathGraph`]: a carved, passable cell, numbered densely in order of
/// (level, row, col).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// One step out of a node: the node it reaches and the full cost of the step (base step,
/// the edge's move cost and the entered tile's move cost).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Arc {
    pub(crate) to: u32,
    pub(crate) cost: u32,
}

/// Adjacency in compressed rows: the arcs of node `v` are `arcs[start[v]..start[v + 1]]`;
/// `moves` holds, arc by arc, how the step moves (an index into [`MOVES`]), so a search
/// can find a neighbour's coordinates without reading them from memory.
#[derive(Debug, Clone, Default)]
pub(crate) struct Csr {
    start: Vec<u32>,
    arcs: Vec<Arc>,
    moves: Vec<u8>,
}

impl Csr {
    fn close_row(&mut self) {
        self.start.push(u32::try_from(self.arcs.len()).expect("invariant: arcs fit in u32"));
    }

    fn push(&mut self, arc: Arc, step: u8) {
        self.arcs.push(arc);
        self.moves.push(step);
    }

    pub(crate) fn row(&self, v: u32) -> &[Arc] {
        let v = v as usize;
        &self.arcs[self.start[v] as usize..self.start[v + 1] as usize]
    }

    /// The arcs of `v` with their moves.
    pub(crate) fn row_moves(&self, v: u32) -> (&[Arc], &[u8]) {
        let (a, b) = (self.start[v as usize] as usize, self.start[v as usize + 1] as usize);
        (&self.arcs[a..b], &self.moves[a..b])
    }
}

/// `(d_level, d_row, d_col)` of each kind of step: walls 0..7 clockwise from north (long
/// steps move two slots, short steps one diagonal slot), then up a stair, then down.
const MOVES: [(i32, i32, i32); 10] = [
    (0, -2, 0),
    (0, -1, 1),
    (0, 0, 2),
    (0, 1, 1),
    (0, 2, 0),
    (0, 1, -1),
    (0, 0, -2),
    (0, -1, -1),
    (1, 0, 0),
    (-1, 0, 0),
];
const MOVE_UP: u8 = 8;
const MOVE_DOWN: u8 = 9;

/// Where a node is, unpacked for the heuristic.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Coord {
    pub(crate) level: u32,
    pub(crate) row: u32,
    pub(crate) col: u32,
}

impl Coord {
    /// The coordinates after one step of kind `step` (see [`MOVES`]).
    #[inline]
    pub(crate) fn moved(self, step: u8) -> Coord {
        let (dl, dr, dc) = MOVES[usize::from(step)];
        Coord {
            level: self.level.wrapping_add_signed(dl),
            row: self.row.wrapping_add_signed(dr),
            col: self.col.wrapping_add_signed(dc),
        }
    }
}

/// The multi-level octile graph of one dungeon, with dense per-node arrays (no hashing).
/// Build it once, then run any number of [`super::AStar`] searches or
/// [`super::DijkstraMap`] floods on it.
#[derive(Debug, Clone)]
pub struct PathGraph {
    dims: Dims,
    levels: u16,
    node_of_slot: Vec<u32>,
    coords: Vec<Coord>,
    enter: Vec<u32>,
    walk: Csr,
    pass: Csr,
    walk_regions: Regions,
    pass_regions: Regions,
    stair_cost: u32,
    landmarks: Option<Landmarks>,
}

impl PathGraph {
    /// Reads the graph of `dungeon`. Fails only when a step's cost does not fit in `u32`.
    pub fn new(dungeon: &Dungeon) -> Result<PathGraph, PathError> {
        let dims = dungeon.dims();
        let n = dims.slot_count();
        let levels = dungeon.levels();
        let reg = dungeon.registry();
        let mut node_of_slot = vec![NONE; n * usize::from(levels)];
        let (mut coords, mut enter, mut walkable, mut stair) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for level in 0..levels {
            let layer = dungeon.tile_layer(level).expect("invariant: level in range").as_slice();
            for (i, &tile) in layer.iter().enumerate() {
                let slot = dims.slot_at(i).expect("invariant: index in range");
                let def = reg.tile_def(tile).expect("invariant: only registered ids are stored");
                if !slot.kind().is_cell() || !def.carved || !def.passable {
                    continue;
                }
                node_of_slot[usize::from(level) * n + i] =
                    u32::try_from(coords.len()).expect("invariant: MAX_SLOTS fits in u32");
                coords.push(Coord { level: u32::from(level), row: slot.row, col: slot.col });
                enter.push(def.move_cost);
                walkable.push(def.walkable);
                stair.push(def.stair);
            }
        }
        // The shaft rule of `Dungeon::shaft_allows`, read once per node: the exit wall of the
        // stair below each hole, and the wall each stair's landing stands against.
        let (mut hole, mut landing) = (Vec::with_capacity(coords.len()), Vec::with_capacity(coords.len()));
        for c in &coords {
            let pos = Pos::new(c.level as u16, c.row, c.col);
            hole.push(match dungeon.stair_below(pos) {
                None => NOT_A_HOLE,
                Some(stair) => dungeon.stair_exit(stair).map_or(NO_EXIT, |d| d.index() as u8),
            });
            landing.push(dungeon.stair_landing(pos).map_or(NOT_A_HOLE, |d| d.index() as u8));
        }
        let allows = |v: usize, dir: u8| (hole[v] == NOT_A_HOLE || hole[v] == dir) && landing[v] != dir;
        let stair_cost = stair_cost(dungeon.proportions());
        let (mut walk, mut pass) = (Csr::default(), Csr::default());
        walk.close_row();
        pass.close_row();
        for (v, c) in coords.iter().enumerate() {
            let slot = Slot::new(c.row, c.col);
            let level = c.level as u16;
            let edges = dungeon.edge_layer(level).expect("invariant: level in range");
            for &dir in dims.walls(slot).expect("invariant: nodes are cells") {
                let Some(other) = dims.neighbor(slot, dir).expect("invariant: cell") else { continue };
                let to = node_of_slot[usize::from(level) * n + dims.index(other).expect("invariant")];
                if to == NONE
                    || !allows(v, dir.index() as u8)
                    || !allows(to as usize, dir.opposite().index() as u8)
                {
                    continue;
                }
                let edge = dims.edge(slot, dir).expect("invariant: cell").expect("invariant: has neighbour");
                let state = edges[dims.edge_index(edge).expect("invariant: valid edge")];
                let def = reg.edge_def(state).expect("invariant: only registered ids are stored");
                if !def.passable {
                    continue;
                }
                let base = if dir.is_diagonal() { SHORT_STEP } else { LONG_STEP };
                let cost = base
                    .checked_add(def.move_cost)
                    .and_then(|x| x.checked_add(enter[to as usize]))
                    .ok_or(PathError::CostOverflow { level, row: c.row, col: c.col, dir: Some(dir) })?;
                let arc = Arc { to, cost };
                let step = dir.index() as u8;
                pass.push(arc, step);
                if def.walkable && walkable[v] && walkable[to as usize] {
                    walk.push(arc, step);
                }
            }
            let i = dims.index(slot).expect("invariant");
            let mut climb = |to: u32, step: u8| {
                let cost = stair_cost.checked_add(enter[to as usize]).ok_or(PathError::CostOverflow {
                    level,
                    row: c.row,
                    col: c.col,
                    dir: None,
                })?;
                let arc = Arc { to, cost };
                pass.push(arc, step);
                if walkable[v] && walkable[to as usize] {
                    walk.push(arc, step);
                }
                Ok::<(), PathError>(())
            };
            if stair[v] && level + 1 < levels {
                let up = node_of_slot[usize::from(level + 1) * n + i];
                if up != NONE {
                    climb(up, MOVE_UP)?;
                }
            }
            if level > 0 {
                let down = node_of_slot[usize::from(level - 1) * n + i];
                if down != NONE && stair[down as usize] {
                    climb(down, MOVE_DOWN)?;
                }
            }
            walk.close_row();
            pass.close_row();
        }
        let label = |csr: &Csr| {
            label_regions(
                coords.len(),
                |_| true,
                |v, out| out.extend(csr.row(v as u32).iter().map(|a| a.to as usize)),
            )
        };
        let walk_regions = label(&walk);
        let pass_regions = label(&pass);
        Ok(PathGraph {
            dims,
            levels,
            node_of_slot,
            coords,
            enter,
            walk,
            pass,
            walk_regions,
            pass_regions,
            stair_cost,
            landmarks: None,
        })
    }

    /// The same graph with `count` landmarks (at most 16) for the A* heuristic (ALT:
    /// triangle-inequality bounds from precomputed distances), chosen by farthest-point
    /// selection in the largest passable region. Costs `count + 1` full Dijkstra floods;
    /// worth it when many searches run on one graph.
    #[must_use]
    pub fn with_landmarks(mut self, count: usize) -> PathGraph {
        self.landmarks = Landmarks::build(&self, count.min(Landmarks::MAX));
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

    /// The cost of one stair step in this graph (see [`stair_cost`]).
    #[must_use]
    pub fn stair_cost(&self) -> u32 {
        self.stair_cost
    }

    /// The node at `pos`: `Ok(None)` for a cell that is not a node (rock, or not passable);
    /// an error for a position outside the dungeon or on a Void slot.
    pub fn node(&self, pos: Pos) -> Result<Option<NodeId>, PathError> {
        let Slot { row, col } = pos.slot;
        if pos.level >= self.levels || !self.dims.contains(pos.slot) {
            return Err(PathError::OutOfDungeon {
                level: pos.level,
                row,
                col,
                levels: self.levels,
                rows: self.dims.rows(),
                cols: self.dims.cols(),
            });
        }
        if pos.slot.kind() == SlotKind::Void {
            return Err(PathError::NotACell { level: pos.level, row, col });
        }
        let i = usize::from(pos.level) * self.dims.slot_count() + self.dims.index(pos.slot).expect("checked");
        Ok(Some(self.node_of_slot[i]).filter(|&v| v != NONE).map(NodeId))
    }

    /// The position of `node`. Panics when `node` is not a node of this graph.
    #[must_use]
    pub fn pos(&self, node: NodeId) -> Pos {
        let c = self.coords[node.0 as usize];
        Pos::new(c.level as u16, c.row, c.col)
    }

    /// The steps out of `node` under `rules` and their full costs (crossing plus the entered
    /// tile's move cost), in a fixed order (walls clockwise from north, then up, then down).
    pub fn successors(&self, node: NodeId, rules: &PathRules) -> impl Iterator<Item = (NodeId, u64)> + '_ {
        self.csr(rules).row(node.0).iter().map(|a| (NodeId(a.to), u64::from(a.cost)))
    }

    /// The cost of one step from `from` to an adjacent node `to` under `rules`, or `None`
    /// when that is not a legal step.
    #[must_use]
    pub fn step_cost(&self, from: NodeId, to: NodeId, rules: &PathRules) -> Option<u64> {
        self.successors(from, rules).find(|&(n, _)| n == to).map(|(_, c)| c)
    }

    /// Whether `a` and `b` are in one connected region under `rules`.
    #[must_use]
    pub fn connected(&self, a: NodeId, b: NodeId, rules: &PathRules) -> bool {
        let r = self.regions(rules);
        r.region(a.0 as usize) == r.region(b.0 as usize)
    }

    /// Connected regions of the nodes (indexed by [`NodeId`]) under `rules`.
    #[must_use]
    pub fn regions(&self, rules: &PathRules) -> &Regions {
        if rules.open_doors { &self.pass_regions } else { &self.walk_regions }
    }

    /// The A* heuristic towards `target`: octile distance plus a level term, raised by the
    /// landmark bounds when landmarks were built. Never overestimates, and is consistent.
    #[must_use]
    pub fn heuristic(&self, target: NodeId) -> Heuristic<'_> {
        let mut h = self.octile_heuristic(target);
        if let Some(lm) = &self.landmarks {
            h.landmarks = Some(lm);
            h.target_dist = lm.row(target.0);
        }
        h
    }

    /// The plain heuristic towards `target`: integer octile distance in thousandths plus
    /// one stair cost per level apart, without landmarks.
    #[must_use]
    pub fn octile_heuristic(&self, target: NodeId) -> Heuristic<'_> {
        Heuristic {
            graph: self,
            target: self.coords[target.0 as usize],
            landmarks: None,
            target_dist: [0; Landmarks::MAX],
        }
    }

    pub(crate) fn csr(&self, rules: &PathRules) -> &Csr {
        if rules.open_doors { &self.pass } else { &self.walk }
    }

    pub(crate) fn coord(&self, v: u32) -> Coord {
        self.coords[v as usize]
    }

    pub(crate) fn pass_csr(&self) -> &Csr {
        &self.pass
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

/// A lower bound on the remaining cost to one target, in thousandths of a long step.
#[derive(Debug, Clone)]
pub struct Heuristic<'g> {
    graph: &'g PathGraph,
    target: Coord,
    landmarks: Option<&'g Landmarks>,
    target_dist: [u32; Landmarks::MAX],
}

impl Heuristic<'_> {
    /// The estimate from `node` to the target.
    #[must_use]
    pub fn estimate(&self, node: NodeId) -> u64 {
        self.at(node.0)
    }

    #[inline]
    pub(crate) fn at(&self, v: u32) -> u64 {
        self.at_coord(v, self.graph.coords[v as usize])
    }

    /// The estimate from node `v`, whose coordinates the caller already knows.
    #[inline]
    pub(crate) fn at_coord(&self, v: u32, c: Coord) -> u64 {
        let dr = u64::from(c.row.abs_diff(self.target.row));
        let dc = u64::from(c.col.abs_diff(self.target.col));
        let (hi, lo) = if dr > dc { (dr, dc) } else { (dc, dr) };
        // One slot straight is half a long step; one slot diagonal is a short step.
        let flat = hi * u64::from(LONG_STEP / 2) + lo * u64::from(SHORT_STEP - LONG_STEP / 2);
        let octile = flat + u64::from(c.level.abs_diff(self.target.level)) * u64::from(self.graph.stair_cost);
        match self.landmarks {
            Some(lm) => octile.max(lm.bound(v, &self.target_dist)),
            None => octile,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::grid::Direction;

    #[test]
    fn default_stair_cost_is_documented_value() {
        assert_eq!(stair_cost(&Proportions::default()), 1426);
    }

    #[test]
    fn steps_have_design_costs() {
        let d = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Floor).unwrap();
        let g = PathGraph::new(&d).unwrap();
        assert_eq!(g.node_count(), 5);
        let o = g.node(Pos::new(0, 0, 0)).unwrap().unwrap();
        let e = g.node(Pos::new(0, 0, 2)).unwrap().unwrap();
        let c = g.node(Pos::new(0, 1, 1)).unwrap().unwrap();
        let rules = PathRules::default();
        assert_eq!(g.step_cost(o, e, &rules), Some(1000));
        assert_eq!(g.step_cost(o, c, &rules), Some(707));
        assert_eq!(g.step_cost(c, e, &rules), Some(707));
        assert_eq!(g.successors(o, &rules).count(), 3);
        assert_eq!(g.pos(c), Pos::new(0, 1, 1));
    }

    #[test]
    fn the_hole_above_a_stair_is_left_only_through_the_exit() {
        let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
        let stair = Pos::new(0, 2, 2);
        d.set_tile(stair, Registry::STAIR).unwrap();
        d.set_edge(stair, Direction::N, Registry::WALL).unwrap();
        d.set_edge(Pos::new(1, 2, 2), Direction::E, Registry::DOOR).unwrap();
        let g = PathGraph::new(&d).unwrap();
        let node = |p: Pos| g.node(p).unwrap().unwrap();
        let top = node(Pos::new(1, 2, 2));
        for rules in [PathRules::default(), PathRules { open_doors: true }] {
            let out: Vec<Pos> = g.successors(top, &rules).map(|(n, _)| g.pos(n)).collect();
            assert_eq!(out, [Pos::new(1, 0, 2), stair], "{rules:?}");
            // Every same-level arc agrees with the dungeon's rule, both ways.
            for v in 0..g.node_count() as u32 {
                let from = g.pos(NodeId(v));
                for (n, _) in g.successors(NodeId(v), &rules) {
                    let to = g.pos(n);
                    if to.level == from.level {
                        let dir = Direction::ALL
                            .into_iter()
                            .find(|&dir| d.dims().neighbor(from.slot, dir) == Ok(Some(to.slot)))
                            .unwrap();
                        assert!(d.shaft_allows(from, dir), "{from} -> {to}");
                    }
                }
            }
        }
        assert_eq!(d.stair_exit(stair), Some(Direction::N));
        // Into the hole from the east (a door) or the south: refused.
        assert_eq!(g.step_cost(node(Pos::new(1, 2, 4)), top, &PathRules { open_doors: true }), None);
        assert_eq!(g.step_cost(node(Pos::new(1, 4, 2)), top, &PathRules::default()), None);
        assert_eq!(g.step_cost(node(Pos::new(1, 0, 2)), top, &PathRules::default()), Some(1000));
        // Below, the landing stands against the north wall: walled here, but open the wall
        // and the step is still refused.
        d.set_edge(stair, Direction::N, Registry::OPEN).unwrap();
        d.set_edge(stair, Direction::E, Registry::WALL).unwrap();
        d.set_edge(Pos::new(1, 2, 2), Direction::E, Registry::OPEN).unwrap();
        assert_eq!(d.stair_exit(stair), Some(Direction::E), "east is now the one closed below");
        let g = PathGraph::new(&d).unwrap();
        let node = |p: Pos| g.node(p).unwrap().unwrap();
        assert_eq!(g.step_cost(node(stair), node(Pos::new(0, 0, 2)), &PathRules::default()), Some(1000));
        d.set_edge(stair, Direction::E, Registry::OPEN).unwrap();
        assert_eq!(d.stair_exit(stair), Some(Direction::N), "every open wall above is open below");
        let g = PathGraph::new(&d).unwrap();
        let node = |p: Pos| g.node(p).unwrap().unwrap();
        assert_eq!(g.step_cost(node(stair), node(Pos::new(0, 0, 2)), &PathRules::default()), None);
        assert_eq!(g.step_cost(node(Pos::new(0, 0, 2)), node(stair), &PathRules::default()), None);
        assert_eq!(g.step_cost(node(stair), node(Pos::new(0, 2, 4)), &PathRules::default()), Some(1000));
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
    fn overflowing_move_cost_is_an_error() {
        let mut reg = Registry::standard();
        let mut tar = reg.edges()[1].clone();
        tar.name = "tar".into();
        tar.symbol = 'T';
        tar.move_cost = u32::MAX;
        let tar = reg.add_edge(tar).unwrap();
        let mut d = Dungeon::with_registry(2, 1, 1, Proportions::default(), reg, Fill::Floor).unwrap();
        d.set_edge(Pos::new(0, 0, 0), Direction::E, tar).unwrap();
        assert_eq!(
            PathGraph::new(&d).unwrap_err(),
            PathError::CostOverflow { level: 0, row: 0, col: 0, dir: Some(Direction::E) }
        );
    }

    #[test]
    fn overflowing_stair_is_an_error_naming_the_stair() {
        let mut reg = Registry::standard();
        let mut lava = reg.tiles()[1].clone();
        lava.name = "lava".into();
        lava.symbol = 'L';
        lava.move_cost = u32::MAX;
        let lava = reg.add_tile(lava).unwrap();
        let mut d = Dungeon::with_registry(1, 1, 2, Proportions::default(), reg, Fill::Floor).unwrap();
        d.set_tile(Pos::new(0, 0, 0), Registry::STAIR).unwrap();
        d.set_tile(Pos::new(1, 0, 0), lava).unwrap();
        let err = PathGraph::new(&d).unwrap_err();
        assert_eq!(err, PathError::CostOverflow { level: 0, row: 0, col: 0, dir: None });
        assert!(err.to_string().contains("the stair step"), "{err}");
        let wrapped: crate::Error = err.into();
        assert!(wrapped.to_string().starts_with("level 0, row 0, col 0"));
    }
}
