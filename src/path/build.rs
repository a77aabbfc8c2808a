//! Reading a [`PathGraph`] from a dungeon, once, through its registry: the nodes (carved,
//! passable cells), then their steps under both rule sets, then their regions. The octagon
//! above a stair is the shaft's hole: it is entered and left horizontally only through the
//! stair's exit, a rule the dungeon's stair table owns ([`Dungeon::shaft`]).

use super::csr::{
    Arc, Coord, Csr, MAX_DROP_STOREYS, STEP_DOWN, STEP_UP, step_across, step_drop, step_ramp_up,
};
use super::graph::NONE;
use super::{
    LONG_STEP, PathError, PathGraph, SHORT_STEP, fall_cost, label_regions, ramp_climb_cost, stair_cost,
};
use crate::dungeon::{Dungeon, EdgeDef, Shaft};
use crate::grid::{Direction, Pos, Slot, Walls};

/// The cells that are nodes, with what the steps need to know of them.
pub(super) struct Cells {
    /// Per slot of every level: its node, or [`NONE`].
    node_of_slot: Vec<u32>,
    coords: Vec<Coord>,
    /// Per node: the move cost of entering it.
    enter: Vec<u32>,
    walkable: Vec<bool>,
    /// Per node: whether it holds a stair up ([`Dungeon::is_stair`]: a stair tile on an
    /// octagon below the top level).
    stair: Vec<bool>,
    /// The drops between nodes, in order of the node stepped off ([`Cells::read_drops`]).
    drops: Vec<NodeDrop>,
    /// The steps onto and off the tops of ramps, in order of the node stepped from
    /// ([`Cells::read_ramps`]).
    ramps: Vec<NodeRamp>,
}

/// One step between the last octagon under a ramp ([`Dungeon::ramps`]) and the ramp's top
/// on the level above, one way.
struct NodeRamp {
    from: u32,
    to: u32,
    /// The wall of `from` it leaves through (the ramp's direction going up, the opposite
    /// coming down).
    dir: Direction,
    /// The top's seam, on the level above.
    edge: crate::grid::EdgeId,
    /// The level of that seam.
    level: u16,
    up: bool,
}

/// One drop ([`Dungeon::drops`]) between two nodes.
struct NodeDrop {
    from: u32,
    to: u32,
    /// The wall of `from` it crosses, and that wall's edge.
    dir: Direction,
    edge: crate::grid::EdgeId,
    /// Storeys fallen.
    fall: u16,
}

impl Cells {
    /// The carved, passable cells of every level, numbered in order of (level, row, col).
    pub(super) fn read(dungeon: &Dungeon) -> Cells {
        let dims = dungeon.dims();
        let reg = dungeon.registry();
        let mut cells = Cells {
            node_of_slot: vec![NONE; dims.slot_count() * usize::from(dungeon.levels())],
            coords: Vec::new(),
            enter: Vec::new(),
            walkable: Vec::new(),
            stair: Vec::new(),
            drops: Vec::new(),
            ramps: Vec::new(),
        };
        for level in 0..dungeon.levels() {
            let layer = dungeon.tile_layer(level).expect("invariant: level in range").as_slice();
            for (i, &tile) in layer.iter().enumerate() {
                let slot = dims.slot_at(i).expect("invariant: index in range");
                let def = reg.tile_def(tile).expect("invariant: only registered ids are stored");
                if !slot.kind().is_cell() || !def.carved || !def.passable {
                    continue;
                }
                cells.node_of_slot[usize::from(level) * dims.slot_count() + i] =
                    u32::try_from(cells.coords.len()).expect("invariant: MAX_SLOTS fits in u32");
                cells.coords.push(Coord { level: u32::from(level), row: slot.row, col: slot.col });
                cells.enter.push(def.move_cost);
                cells.walkable.push(def.walkable);
                cells.stair.push(dungeon.is_stair(Pos { level, slot }));
            }
        }
        cells.read_drops(dungeon);
        cells.read_ramps(dungeon);
        cells
    }

    /// Number of slots of every level together (the flat indices of [`super::node_index`]).
    pub(super) fn slot_count(&self) -> usize {
        self.node_of_slot.len()
    }

    /// The node at flat slot index `i`, if any.
    pub(super) fn node_of_slot(&self, i: usize) -> Option<u32> {
        Some(self.node_of_slot[i]).filter(|&v| v != NONE)
    }

    /// The flat slot index of node `v`.
    pub(super) fn slot_of_node(&self, dungeon: &Dungeon, v: u32) -> usize {
        let c = self.coords[v as usize];
        let dims = dungeon.dims();
        c.level as usize * dims.slot_count()
            + dims.index(Slot::new(c.row, c.col)).expect("invariant: node on the grid")
    }

    /// The node at `slot` on `level`, if any.
    fn node_at(&self, dungeon: &Dungeon, level: u16, slot: Slot) -> Option<u32> {
        let dims = dungeon.dims();
        let i =
            usize::from(level) * dims.slot_count() + dims.index(slot).expect("invariant: slot on the grid");
        Some(self.node_of_slot[i]).filter(|&v| v != NONE)
    }
}

/// The shaft rule per node: the dungeon's stair table's [`Shaft`] value of each node's
/// cell, cached once (the table owns the rule; [`Shaft::lets_through`] applies it).
pub(super) struct Shafts(Vec<Shaft>);

impl Shafts {
    /// Reads the table's value at each stair's foot and hole (every other cell's is the
    /// default, which lets everything through), in time linear in the number of stairs.
    pub(super) fn read(dungeon: &Dungeon, cells: &Cells) -> Shafts {
        let mut shafts = vec![Shaft::default(); cells.coords.len()];
        for stair in dungeon.stairs().iter() {
            for pos in [stair.foot, stair.hole()] {
                if let Some(v) = cells.node_at(dungeon, pos.level, pos.slot) {
                    shafts[v as usize] = dungeon.shaft(pos);
                }
            }
        }
        Shafts(shafts)
    }

    /// Whether node `v` may be left (or entered) horizontally through its wall `dir`.
    fn allows(&self, v: u32, dir: Direction) -> bool {
        self.0[v as usize].lets_through(dir)
    }
}

/// The steps of both rule sets, row by row: `pass` (passable) and `walk` (walkable), and
/// the steps no search takes that still join regions (one-way doors walked the wrong way),
/// as `(from, to)` nodes in order of `from`.
#[derive(Default)]
struct Steps {
    walk: Csr,
    pass: Csr,
    against: Vec<(u32, u32)>,
    /// Those of `against` that are walkable steps.
    against_walk: Vec<(u32, u32)>,
    /// How many steps are drops.
    drops: usize,
}

impl Steps {
    /// Adds a step of the current node: always passable; walkable when `walkable`.
    fn push(&mut self, arc: Arc, step: u8, walkable: bool) {
        self.pass.push(arc, step);
        if walkable {
            self.walk.push(arc, step);
        }
    }

    /// Ends the current node's rows, leaving room in each for a step across every wall
    /// to a neighbouring node (`across` of them), so that an edge change adds its step
    /// in place ([`PathGraph::update_edge`]); `walk` and `pass` are the row's steps across
    /// walls already in each.
    fn close_row(&mut self, across: usize, walk: usize, pass: usize) {
        self.walk.close_row_with_room(across - walk);
        self.pass.close_row_with_room(across - pass);
    }
}

/// One passable step out of a node, before its cost: the rule of which steps exist, shared
/// by [`PathGraph::new`] and [`super::dungeon_regions`].
pub(super) struct Step<'d> {
    /// The node it reaches.
    pub(super) to: u32,
    /// Its kind: the index of the wall crossed, or [`STEP_UP`] / [`STEP_DOWN`].
    pub(super) kind: u8,
    /// The wall it crosses and that wall's edge; `None` for a stair step.
    pub(super) across: Option<(Direction, &'d EdgeDef)>,
    /// It crosses a one-way door the wrong way ([`crate::dungeon::Mechanism::allows`]):
    /// no search takes it, but it joins regions (connectivity ignores direction).
    pub(super) against: bool,
    /// Storeys it falls: a drop across a drop-point edge into a void, landing on the first
    /// floor down the column ([`Dungeon::drop_landing`]); 0 for every other step. A drop is
    /// one-way: no step climbs it back.
    pub(super) fall: u16,
    /// It is the step onto or off a ramp's top ([`ramp_climb_cost`] more than a long step).
    pub(super) ramp: bool,
}

impl Cells {
    /// Replaces `out` with the passable steps of node `v`, in a fixed order: across its
    /// walls clockwise from north (a passable edge onto a node of its level, where the shaft
    /// rule allows both sides), then up its stair, then down the stair below.
    pub(super) fn steps_of<'d>(
        &self,
        dungeon: &'d Dungeon,
        walls: &Walls,
        shafts: &Shafts,
        v: u32,
        out: &mut Vec<Step<'d>>,
    ) {
        out.clear();
        let (dims, reg) = (dungeon.dims(), dungeon.registry());
        let c = self.coords[v as usize];
        let (level, slot) = (c.level as u16, Slot::new(c.row, c.col));
        let edges = dungeon.edge_layer(level).expect("invariant: level in range");
        let base = usize::from(level) * dims.slot_count();
        let i = dims.index(slot).expect("invariant: nodes are cells");
        for wall in walls.of_slot(i) {
            let Some(to) = self.node_of_slot(base + wall.to as usize) else { continue };
            if !shafts.allows(v, wall.dir) || !shafts.allows(to, wall.dir.opposite()) {
                continue;
            }
            let def =
                reg.edge_def(edges[wall.edge as usize]).expect("invariant: only registered ids are stored");
            if def.passable {
                let against = def.mechanism.is_some_and(|m| {
                    let t = self.coords[to as usize];
                    !m.allows(slot, Slot::new(t.row, t.col))
                });
                out.push(Step {
                    to,
                    kind: step_across(wall.dir),
                    across: Some((wall.dir, def)),
                    against,
                    fall: 0,
                    ramp: false,
                });
            }
        }
        if !self.drops.is_empty() {
            self.drops_of(dungeon, v, out);
        }
        if self.stair[v as usize]
            && let Some(up) = self.node_at(dungeon, level + 1, slot)
        {
            out.push(Step { to: up, kind: STEP_UP, across: None, against: false, fall: 0, ramp: false });
        }
        if level > 0
            && let Some(down) = self.node_at(dungeon, level - 1, slot).filter(|&d| self.stair[d as usize])
        {
            out.push(Step { to: down, kind: STEP_DOWN, across: None, against: false, fall: 0, ramp: false });
        }
        if !self.ramps.is_empty() {
            self.ramps_of(dungeon, v, out);
        }
    }

    /// Appends to `out` the steps onto or off a ramp's top out of node `v` ([`Cells::ramps`]).
    fn ramps_of<'d>(&self, dungeon: &'d Dungeon, v: u32, out: &mut Vec<Step<'d>>) {
        let at = self.ramps.partition_point(|r| r.from < v);
        for r in self.ramps[at..].iter().take_while(|r| r.from == v) {
            let state = dungeon.edge_state_of(r.level, r.edge).expect("invariant: an edge of the grid");
            let def = dungeon.registry().edge_def(state).expect("invariant: only registered ids are stored");
            if !def.passable {
                continue;
            }
            let kind = if r.up { step_ramp_up(r.dir) } else { step_drop(r.dir, 1) };
            out.push(Step {
                to: r.to,
                kind,
                across: Some((r.dir, def)),
                against: false,
                fall: 0,
                ramp: true,
            });
        }
    }

    /// The steps onto and off the top of every sound ramp ([`Dungeon::ramp_is_sound`]),
    /// between the last octagon under it and its top, by node stepped from.
    fn read_ramps(&mut self, dungeon: &Dungeon) {
        for ramp in dungeon.sound_ramps() {
            let (Some(cells), Some(edge)) = (dungeon.ramp_cells(ramp), dungeon.ramp_top_edge(ramp)) else {
                continue;
            };
            let last = *cells.run.last().expect("invariant: a ramp runs over an octagon at least");
            let (Some(under), Some(top)) = (
                self.node_at(dungeon, last.level, last.slot),
                self.node_at(dungeon, cells.top.level, cells.top.slot),
            ) else {
                continue;
            };
            let level = cells.top.level;
            self.ramps.push(NodeRamp { from: under, to: top, dir: ramp.dir, edge, level, up: true });
            self.ramps.push(NodeRamp {
                from: top,
                to: under,
                dir: ramp.dir.opposite(),
                edge,
                level,
                up: false,
            });
        }
        self.ramps.sort_by_key(|r| (r.from, r.dir.index()));
    }

    /// Appends to `out` the drops out of node `v` ([`Cells::drops`]).
    fn drops_of<'d>(&self, dungeon: &'d Dungeon, v: u32, out: &mut Vec<Step<'d>>) {
        let at = self.drops.partition_point(|d| d.from < v);
        for d in self.drops[at..].iter().take_while(|d| d.from == v) {
            let c = self.coords[v as usize];
            let state =
                dungeon.edge_state_of(c.level as u16, d.edge).expect("invariant: an edge of the grid");
            let def = dungeon.registry().edge_def(state).expect("invariant: only registered ids are stored");
            out.push(Step {
                to: d.to,
                kind: step_drop(d.dir, d.fall),
                across: Some((d.dir, def)),
                against: false,
                fall: d.fall,
                ramp: false,
            });
        }
    }

    /// The drops between nodes, by node stepped off: the dungeon's own list
    /// ([`Dungeon::drops`]), each from a node to the node it lands on, no deeper than
    /// [`MAX_DROP_STOREYS`].
    fn read_drops(&mut self, dungeon: &Dungeon) {
        for level in 0..dungeon.levels() {
            for drop in dungeon.drops(level) {
                let (from, dir) = drop.from;
                let fall = level - drop.landing.level;
                let (Some(from), Some(to)) = (
                    self.node_at(dungeon, from.level, from.slot),
                    self.node_at(dungeon, drop.landing.level, drop.landing.slot),
                ) else {
                    continue;
                };
                if fall <= MAX_DROP_STOREYS {
                    self.drops.push(NodeDrop { from, to, dir, fall, edge: drop.edge });
                }
            }
        }
        self.drops.sort_by_key(|d| (d.from, d.dir.index()));
    }
}

/// The cost of `step` (its base step, the edge's move cost and `enter`, the entered node's
/// move cost), `None` when it overflows: the one rule every reading of the graph costs
/// steps by.
fn step_cost(step: &Step<'_>, enter: u32, costs: LevelCosts) -> Option<u32> {
    match step.across {
        Some((dir, edge)) => {
            let base = if dir.is_diagonal() { SHORT_STEP } else { LONG_STEP };
            let fall = costs.fall.checked_mul(u32::from(step.fall))?;
            let climb = if step.ramp { costs.ramp } else { 0 };
            base.checked_add(edge.move_cost)
                .and_then(|x| x.checked_add(enter))
                .and_then(|x| x.checked_add(fall))
                .and_then(|x| x.checked_add(climb))
        }
        None => costs.stair.checked_add(enter),
    }
}

/// What steps between levels cost: a stair ([`stair_cost`]), a storey fallen
/// ([`fall_cost`]) and what a ramp's top step adds ([`ramp_climb_cost`]).
#[derive(Clone, Copy)]
struct LevelCosts {
    stair: u32,
    fall: u32,
    ramp: u32,
}

impl LevelCosts {
    fn of(dungeon: &Dungeon) -> LevelCosts {
        let p = dungeon.proportions();
        LevelCosts { stair: stair_cost(p), fall: fall_cost(p), ramp: ramp_climb_cost(p) }
    }

    /// The least any step between levels of a graph costs per level beyond its walk across
    /// (the heuristic's bound): a stair's, a fall's where there are drops, a ramp's climb
    /// where there are ramps.
    fn least(self, drops: bool, ramps: bool) -> u32 {
        let mut least = self.stair;
        if drops {
            least = least.min(self.fall);
        }
        if ramps {
            least = least.min(self.ramp);
        }
        least
    }
}

/// A lean reading of the graph with doors open: each node's steps (one-way doors their
/// way only) and their costs, by the same rules as [`PathGraph::new`], and nothing else (no
/// walkable steps, regions or reverse arcs): for a few searches over a dungeon read once
/// (the flow proof, [`crate::flow::verify`]).
pub(crate) struct StepList {
    cells: Cells,
    /// Node `v`'s arcs are `arcs[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    arcs: Vec<Arc>,
}

impl StepList {
    /// Reads the steps of `dungeon`.
    ///
    /// # Errors
    ///
    /// [`PathError::CostOverflow`] when a step's cost does not fit in `u32`.
    pub(crate) fn read(dungeon: &Dungeon) -> Result<StepList, PathError> {
        let cells = Cells::read(dungeon);
        let shafts = Shafts::read(dungeon, &cells);
        let walls = Walls::of(dungeon.dims());
        let costs = LevelCosts::of(dungeon);
        let (mut start, mut arcs, mut out) = (vec![0u32], Vec::new(), Vec::new());
        for (v, c) in (0u32..).zip(&cells.coords) {
            cells.steps_of(dungeon, &walls, &shafts, v, &mut out);
            for step in out.iter().filter(|s| !s.against) {
                let cost =
                    step_cost(step, cells.enter[step.to as usize], costs).ok_or(PathError::CostOverflow {
                        level: c.level as u16,
                        row: c.row,
                        col: c.col,
                        dir: step.across.map(|(dir, _)| dir),
                    })?;
                arcs.push(Arc { to: step.to, cost });
            }
            start.push(u32::try_from(arcs.len()).unwrap_or(u32::MAX));
        }
        Ok(StepList { cells, start, arcs })
    }

    /// Number of nodes.
    pub(crate) fn node_count(&self) -> usize {
        self.cells.coords.len()
    }

    /// The positions in the arc list of node `v`'s arcs.
    pub(crate) fn range(&self, v: u32) -> std::ops::Range<usize> {
        self.start[v as usize] as usize..self.start[v as usize + 1] as usize
    }

    /// Every arc, node by node (see [`StepList::range`]): `(to, cost)`.
    pub(crate) fn arc(&self, at: usize) -> (u32, u32) {
        let a = self.arcs[at];
        (a.to, a.cost)
    }

    /// The node at `pos`, if it is one.
    pub(crate) fn node(&self, dungeon: &Dungeon, pos: Pos) -> Option<u32> {
        let dims = dungeon.dims();
        let i = dims.index(pos.slot).ok().filter(|_| pos.level < dungeon.levels())?;
        self.cells.node_of_slot(usize::from(pos.level) * dims.slot_count() + i)
    }

    /// The position of node `v`.
    pub(crate) fn pos(&self, v: u32) -> Pos {
        let c = self.cells.coords[v as usize];
        Pos::new(c.level as u16, c.row, c.col)
    }
}

/// Reads the steps of every node with their costs, under both rule sets.
fn read_steps(dungeon: &Dungeon, walls: &Walls, cells: &Cells) -> Result<Steps, PathError> {
    let shafts = Shafts::read(dungeon, cells);
    let costs = LevelCosts::of(dungeon);
    let mut steps = Steps::default();
    let mut out = Vec::new();
    let dims = dungeon.dims();
    for (v, c) in (0u32..).zip(&cells.coords) {
        cells.steps_of(dungeon, walls, &shafts, v, &mut out);
        let base = c.level as usize * dims.slot_count();
        let i = dims.index(Slot::new(c.row, c.col)).expect("invariant: nodes are cells");
        let across =
            walls.of_slot(i).iter().filter(|w| cells.node_of_slot(base + w.to as usize).is_some()).count();
        let (mut walk_across, mut pass_across) = (0, 0);
        for step in &out {
            let (to, enter) = (step.to, cells.enter[step.to as usize]);
            let walkable = step.across.is_none_or(|(_, e)| e.walkable)
                && cells.walkable[v as usize]
                && cells.walkable[to as usize];
            if step.against {
                steps.against.push((v, to));
                if walkable {
                    steps.against_walk.push((v, to));
                }
                continue;
            }
            let cost = step_cost(step, enter, costs);
            let dir = step.across.map(|(dir, _)| dir);
            let cost =
                cost.ok_or(PathError::CostOverflow { level: c.level as u16, row: c.row, col: c.col, dir })?;
            steps.push(Arc { to, cost }, step.kind, walkable);
            if step.fall > 0 {
                // No step climbs a drop back: its reverse is missing, as a one-way door's.
                steps.drops += 1;
                steps.against.push((to, v));
                if walkable {
                    steps.against_walk.push((to, v));
                }
            } else if step.across.is_some() && !step.ramp {
                pass_across += 1;
                walk_across += usize::from(walkable);
            }
        }
        steps.close_row(across, walk_across, pass_across);
    }
    // Drops add their missing reverses out of order of `from`.
    if steps.drops > 0 {
        steps.against.sort_unstable();
        steps.against_walk.sort_unstable();
    }
    Ok(steps)
}

impl PathGraph {
    /// Reads the graph of `dungeon`.
    ///
    /// # Errors
    ///
    /// [`PathError::CostOverflow`] when a step's cost does not fit in `u32`.
    pub fn new(dungeon: &Dungeon) -> Result<PathGraph, PathError> {
        PathGraph::with_walls(dungeon, &Walls::of(dungeon.dims()))
    }

    /// [`PathGraph::new`] with the walls of the dungeon's grid read already (the generator
    /// reads them once for every layout).
    ///
    /// # Errors
    ///
    /// As [`PathGraph::new`].
    pub(crate) fn with_walls(dungeon: &Dungeon, walls: &Walls) -> Result<PathGraph, PathError> {
        let cells = Cells::read(dungeon);
        let Steps { mut walk, mut pass, against, against_walk, drops } = read_steps(dungeon, walls, &cells)?;
        walk.finish_one_way(&cells.enter, &against);
        pass.finish_one_way(&cells.enter, &against);
        // Regions ignore direction: a one-way door joins its sides both ways round.
        let label = |csr: &Csr, against: &[(u32, u32)]| {
            label_regions(
                cells.coords.len(),
                |_| true,
                |v, out| {
                    out.extend(csr.row(v as u32).iter().map(|a| a.to as usize));
                    if !against.is_empty() {
                        let at = against.partition_point(|&(from, _)| (from as usize) < v);
                        let back = against[at..].iter().take_while(|&&(from, _)| from as usize == v);
                        out.extend(back.map(|&(_, to)| to as usize));
                    }
                },
            )
        };
        Ok(PathGraph {
            dims: dungeon.dims(),
            levels: dungeon.levels(),
            walk_regions: label(&walk, &against_walk),
            pass_regions: label(&pass, &against),
            node_of_slot: cells.node_of_slot,
            coords: cells.coords,
            enter: cells.enter,
            walk,
            pass,
            stair_cost: stair_cost(dungeon.proportions()),
            level_cost: LevelCosts::of(dungeon).least(drops > 0, !cells.ramps.is_empty()),
            has_drops: drops > 0,
            landmarks: None,
            against,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::path::PathRules;

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
    fn a_one_way_door_is_walked_its_way_only_and_joins_regions() {
        use crate::dungeon::Mechanism;
        use crate::path::{AStar, DijkstraMap, MapBounds, UNREACHED};
        // Three octagons in a row: west -> middle through a one-way door (eastward only).
        let mut d = Dungeon::new(3, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        let (west, middle, east) = (Pos::new(0, 0, 0), Pos::new(0, 0, 2), Pos::new(0, 0, 4));
        let east_only = d.mission_state(Mechanism::OneWayForward).unwrap();
        d.set_edge(west, Direction::E, east_only).unwrap();
        let mut g = PathGraph::new(&d).unwrap();
        let rules = PathRules { open_doors: true };
        let mut astar = AStar::new();
        assert!(astar.find(&g, west, east, &rules).unwrap().is_some());
        assert_eq!(astar.find(&g, east, west, &rules).unwrap(), None, "not back through it");
        assert_eq!(g.regions(&rules).count(), 1, "regions ignore direction");
        assert_eq!(crate::path::dungeon_regions(&d).count(), 1);
        // A map towards the west octagon: nothing east of the door walks there.
        let map = DijkstraMap::new(&g, &[west], &MapBounds::everywhere(&g), &rules).unwrap();
        assert_eq!(map.value(middle).unwrap(), UNREACHED);
        let map = DijkstraMap::new(&g, &[east], &MapBounds::everywhere(&g), &rules).unwrap();
        assert_eq!(map.value(west).unwrap(), 2000, "the west octagon walks east through it");
        // Turned round, the graph follows (read again on the change).
        let west_only = d.mission_state(Mechanism::OneWayBackward).unwrap();
        d.set_edge(west, Direction::E, west_only).unwrap();
        g.update_edge(&d, west, Direction::E).unwrap();
        assert!(astar.find(&g, west, east, &rules).unwrap().is_none());
        assert!(astar.find(&g, east, west, &rules).unwrap().is_some());
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
            for v in g.nodes() {
                let from = g.pos(v);
                for (n, _) in g.successors(v, &rules) {
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

    #[test]
    fn every_step_kind_moves_to_the_node_it_reaches() {
        let mut d = Dungeon::new(3, 2, 2, Proportions::default(), Fill::Floor).unwrap();
        d.set_tile(Pos::new(0, 2, 2), Registry::STAIR).unwrap();
        let g = PathGraph::new(&d).unwrap();
        let mut climbs = 0;
        for v in g.nodes() {
            let (arcs, moves) = g.pass_csr().row_moves(v.0);
            for (arc, &step) in arcs.iter().zip(moves) {
                assert_eq!(g.coord(v.0).moved(step), g.coord(arc.to), "{} step {step}", g.pos(v));
                climbs += usize::from(step >= STEP_UP);
            }
        }
        assert_eq!(climbs, 2, "one stair, up and down");
    }
}
