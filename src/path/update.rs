//! Keeping a [`PathGraph`] current when an edge's state changes (a door opened or closed,
//! a wall knocked through): the steps across that one edge and the regions they join or
//! split are updated in place, instead of reading the whole dungeon again.

use super::csr::{Arc, Csr, step_across};
use super::{LONG_STEP, NodeId, PathError, PathGraph, Regions, SHORT_STEP};
use crate::dungeon::{Dungeon, RegionChange};
use crate::grid::{ConnectorWall, Direction, Pos, SlotKind};

/// What [`PathGraph::update_edge`] changed in the regions of the edge's two cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeUpdate {
    /// The walkable regions ([`super::PathRules::default`], doors as they stand).
    pub walk_regions: RegionChange,
    /// The passable regions (`PathRules { open_doors: true }`).
    pub pass_regions: RegionChange,
}

impl EdgeUpdate {
    const UNCHANGED: EdgeUpdate =
        EdgeUpdate { walk_regions: RegionChange::Unchanged, pass_regions: RegionChange::Unchanged };
}

impl PathGraph {
    /// Brings the graph up to date after the state of wall `dir` of the cell at `pos`
    /// changed on `dungeon` (the dungeon the graph was read from, changed since only in
    /// edge states, each change passed here): the steps across that edge are added,
    /// removed or re-costed under both rule sets, and the regions of both rule sets are
    /// joined or split, numbered exactly as [`PathGraph::new`] would number them. The
    /// report says what happened to the regions of the edge's two cells.
    ///
    /// Cost: a join relabels in one pass over the nodes; a step removed searches outward
    /// from both cells at once until the searches meet (another way round: no split) or
    /// one runs out (a split, whose smaller side it has then walked). An edge of a stair's
    /// octagon (its foot or the hole above it) can move the stair's exit, which changes
    /// other steps: the graph is then read again (without landmarks), as it is for every
    /// edge of a dungeon with ramps ([`Dungeon::ramps`]). Otherwise landmarks
    /// ([`PathGraph::with_landmarks`]) are kept when no passable step got cheaper or
    /// appeared (their bounds still hold), and dropped when one did.
    ///
    /// ```
    /// use octile::dungeon::{Dungeon, Fill, Registry, RegionChange};
    /// use octile::geometry::Proportions;
    /// use octile::grid::{Direction, Pos};
    /// use octile::path::{PathGraph, PathRules};
    ///
    /// let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor)?;
    /// let west = Pos::new(0, 0, 0);
    /// d.set_edge(west, Direction::E, Registry::DOOR)?;
    /// let mut graph = PathGraph::new(&d)?;
    /// d.open_door(west, Direction::E)?;
    /// let update = graph.update_edge(&d, west, Direction::E)?;
    /// assert_eq!(update.walk_regions, RegionChange::Joined);
    /// assert_eq!(graph.regions(&PathRules::default()).count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`PathError::DungeonMismatch`] when `dungeon` has other dimensions or levels than
    /// the graph; [`PathError::OutOfDungeon`] or [`PathError::NotACell`] for `pos`;
    /// [`PathError::CostOverflow`] when the step's cost does not fit in `u32` (the graph is
    /// then unchanged).
    pub fn update_edge(
        &mut self,
        dungeon: &Dungeon,
        pos: Pos,
        dir: Direction,
    ) -> Result<EdgeUpdate, PathError> {
        if dungeon.dims() != self.dims || dungeon.levels() != self.levels {
            let (dims, levels) = (dungeon.dims(), dungeon.levels());
            return Err(PathError::DungeonMismatch {
                graph: (self.levels, self.dims.rows(), self.dims.cols()),
                dungeon: (levels, dims.rows(), dims.cols()),
            });
        }
        let a = self.node(pos)?;
        let Ok(Some(other)) = self.dims.neighbor(pos.slot, dir) else { return Ok(EdgeUpdate::UNCHANGED) };
        let other = Pos { slot: other, ..pos };
        let (Some(a), Some(b)) = (a, self.node(other)?) else { return Ok(EdgeUpdate::UNCHANGED) };
        let stairs = dungeon.stairs();
        // A stair's exit, or a ramp's steps (which cross levels), may move: read again.
        if [pos, other].iter().any(|&p| stairs.at(p).is_some() || stairs.below(p).is_some())
            || !dungeon.ramps().is_empty()
        {
            return self.reread(dungeon, a, b);
        }
        let state = dungeon.edge_state_at(pos, dir);
        let def = state.and_then(|s| dungeon.registry().edge_def(s));
        // A one-way door's steps go one way: read such a graph again.
        let one_way = def
            .and_then(|e| e.mechanism)
            .is_some_and(|m| !m.allows(pos.slot, other.slot) || !m.allows(other.slot, pos.slot));
        if !self.against.is_empty() || one_way {
            return self.reread(dungeon, a, b);
        }
        let walkable = |p: Pos| dungeon.tile_def(p).is_ok_and(|t| t.walkable);
        let passable = def.is_some_and(|e| e.passable);
        let walk = passable && def.is_some_and(|e| e.walkable) && walkable(pos) && walkable(other);
        let base = if dir.is_diagonal() { SHORT_STEP } else { LONG_STEP };
        let cross = base.checked_add(def.map_or(0, |e| e.move_cost));
        let overflow = || PathError::CostOverflow {
            level: pos.level,
            row: pos.slot.row,
            col: pos.slot.col,
            dir: Some(dir),
        };
        let cost =
            |to: NodeId| cross.and_then(|c| c.checked_add(self.enter[to.index()])).ok_or_else(overflow);
        let step = Steps { a, b, dir, ab: cost(b)?, ba: cost(a)?, a_kind: pos.slot.kind() };
        let (pass_change, cheaper) = step.apply(&mut self.pass, &mut self.pass_regions, passable);
        let (walk_change, _) = step.apply(&mut self.walk, &mut self.walk_regions, walk);
        if cheaper {
            self.landmarks = None;
        }
        Ok(EdgeUpdate { walk_regions: walk_change, pass_regions: pass_change })
    }

    /// Reads the graph of `dungeon` again, reporting how the regions of nodes `a` and `b`
    /// changed.
    fn reread(&mut self, dungeon: &Dungeon, a: NodeId, b: NodeId) -> Result<EdgeUpdate, PathError> {
        let fresh = PathGraph::new(dungeon)?;
        let joined = |g: &PathGraph, regions: fn(&PathGraph) -> &Regions| {
            let r = regions(g);
            r.region(a.index()).is_some() && r.region(a.index()) == r.region(b.index())
        };
        let change =
            |regions: fn(&PathGraph) -> &Regions| match (joined(self, regions), joined(&fresh, regions)) {
                (false, true) => RegionChange::Joined,
                (true, false) => RegionChange::Split,
                _ => RegionChange::Unchanged,
            };
        let update = EdgeUpdate {
            walk_regions: change(|g| &g.walk_regions),
            pass_regions: change(|g| &g.pass_regions),
        };
        *self = fresh;
        Ok(update)
    }
}

/// The step between nodes `a` and `b` across wall `dir` of `a`, and its cost each way.
struct Steps {
    a: NodeId,
    b: NodeId,
    dir: Direction,
    ab: u32,
    ba: u32,
    /// The kind of `a`'s cell (`b`'s is the other cell kind, or an octagon too).
    a_kind: SlotKind,
}

/// The rank of a kind of step in the row of a cell of kind `kind`: the position of its
/// wall in [`crate::grid::Dims::walls`] (clockwise from north for an octagon, TL, TR, BR,
/// BL for a connector), then up, then down.
fn rank(kind: SlotKind) -> impl Fn(u8) -> u8 {
    move |step| {
        let dir = Direction::from_index(usize::from(step));
        match ConnectorWall::from_facing(dir) {
            Some(wall) if kind == SlotKind::Connector && step < 8 => wall.index() as u8,
            _ => step,
        }
    }
}

impl Steps {
    /// Makes `csr` hold the step both ways when `wanted` (at its cost), and not otherwise,
    /// updating `regions`. Returns the change to the two nodes' regions and whether the
    /// step got cheaper (or appeared).
    fn apply(&self, csr: &mut Csr, regions: &mut Regions, wanted: bool) -> (RegionChange, bool) {
        let (a, b) = (self.a.0, self.b.0);
        match (csr.find(a, b), wanted) {
            (None, true) => {
                let b_kind = if self.a_kind == SlotKind::Connector || !self.dir.is_diagonal() {
                    SlotKind::Octagon
                } else {
                    SlotKind::Connector
                };
                csr.insert(
                    a,
                    Arc { to: b, cost: self.ab },
                    step_across(self.dir),
                    self.ba,
                    rank(self.a_kind),
                );
                let back = step_across(self.dir.opposite());
                csr.insert(b, Arc { to: a, cost: self.ba }, back, self.ab, rank(b_kind));
                let joined = regions.join(a as usize, b as usize);
                (if joined { RegionChange::Joined } else { RegionChange::Unchanged }, true)
            }
            (Some(at), false) => {
                csr.remove(a, at);
                let back = csr.find(b, a).expect("invariant: steps are stored both ways");
                csr.remove(b, back);
                match cut_off(csr, a, b) {
                    Some(part) => {
                        regions.split_off(&part);
                        (RegionChange::Split, false)
                    }
                    None => (RegionChange::Unchanged, false),
                }
            }
            (Some(at), true) => {
                let cheaper = self.ab < csr.row_arc(at).cost;
                csr.set_cost(at, self.ab, self.ba);
                let back = csr.find(b, a).expect("invariant: steps are stored both ways");
                csr.set_cost(back, self.ba, self.ab);
                (RegionChange::Unchanged, cheaper)
            }
            (None, false) => (RegionChange::Unchanged, false),
        }
    }
}

/// After the step between `a` and `b` was removed from `csr`: `None` when they are still
/// joined, otherwise the nodes of the side that was walked to its end (the smaller one,
/// within a step). Both sides are searched breadth first, one node each in turn, until a
/// side meets a node the other reached or runs out.
fn cut_off(csr: &Csr, a: u32, b: u32) -> Option<Vec<usize>> {
    const NONE: u8 = 0;
    let mut mark = vec![NONE; csr.node_count()];
    let mut seen: [Vec<u32>; 2] = [vec![a], vec![b]];
    let mut next = [0usize; 2];
    mark[a as usize] = 1;
    mark[b as usize] = 2;
    loop {
        for side in 0..2 {
            let Some(&u) = seen[side].get(next[side]) else {
                return Some(seen[side].iter().map(|&v| v as usize).collect());
            };
            next[side] += 1;
            let me = side as u8 + 1;
            for arc in csr.row(u) {
                match mark[arc.to as usize] {
                    NONE => {
                        mark[arc.to as usize] = me;
                        seen[side].push(arc.to);
                    }
                    m if m != me => return None,
                    _ => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::Registry;
    use crate::generate::{GenerateOptions, generate};
    use crate::path::{DijkstraMap, MapBounds, PathRules};

    /// Every step of both rule sets, node by node, and both region labellings.
    fn same_graph(updated: &PathGraph, fresh: &PathGraph, what: &str) {
        assert_eq!(updated.node_count(), fresh.node_count(), "{what}");
        for rules in [PathRules::default(), PathRules { open_doors: true }] {
            for v in fresh.nodes() {
                let got: Vec<_> = updated.successors(v, &rules).collect();
                let want: Vec<_> = fresh.successors(v, &rules).collect();
                assert_eq!(got, want, "{what}: steps of {} {rules:?}", fresh.pos(v));
            }
            assert_eq!(updated.regions(&rules), fresh.regions(&rules), "{what}: regions {rules:?}");
        }
    }

    /// How the regions of `sides` differ between two graphs read from scratch.
    fn reference(before: &PathGraph, after: &PathGraph, sides: [Pos; 2]) -> EdgeUpdate {
        let joined = |g: &PathGraph, rules: &PathRules| match (g.node(sides[0]), g.node(sides[1])) {
            (Ok(Some(a)), Ok(Some(b))) => g.connected(a, b, rules),
            _ => false,
        };
        let change = |rules: PathRules| match (joined(before, &rules), joined(after, &rules)) {
            (false, true) => RegionChange::Joined,
            (true, false) => RegionChange::Split,
            _ => RegionChange::Unchanged,
        };
        EdgeUpdate {
            walk_regions: change(PathRules::default()),
            pass_regions: change(PathRules { open_doors: true }),
        }
    }

    #[test]
    fn edges_changed_one_by_one_keep_the_graph_equal_to_one_read_afresh() {
        let options =
            GenerateOptions { seed: 3, levels: 3, cols: 10, rows: 8, doors: 0.4, ..Default::default() };
        let mut d = generate(&options, &mut |_| {}).unwrap();
        let mut graph = PathGraph::new(&d).unwrap();
        let dims = d.dims();
        // Every edge between two carved cells, in a fixed pseudo-random order, cycled
        // through wall -> open -> door -> door_open -> wall ... a few times.
        let mut walls: Vec<(Pos, Direction)> = Vec::new();
        for pos in d.cells().filter(|&p| d.is_carved(p)) {
            for &dir in dims.walls(pos.slot).unwrap() {
                if let Ok(Some(o)) = dims.neighbor(pos.slot, dir)
                    && (pos.slot < o)
                    && d.is_carved(Pos { slot: o, ..pos })
                {
                    walls.push((pos, dir));
                }
            }
        }
        let states = [Registry::WALL, Registry::OPEN, Registry::DOOR, Registry::DOOR_OPEN];
        let (mut x, mut counts) = (0x9e37_79b9_u64, [0usize; 3]);
        for round in 0..600 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (pos, dir) = walls[(x % walls.len() as u64) as usize];
            let state = states[((x >> 32) % 4) as usize];
            let before = PathGraph::new(&d).unwrap();
            d.set_edge(pos, dir, state).unwrap();
            let update = graph.update_edge(&d, pos, dir).unwrap();
            let fresh = PathGraph::new(&d).unwrap();
            let other = Pos { slot: dims.neighbor(pos.slot, dir).unwrap().unwrap(), ..pos };
            assert_eq!(update, reference(&before, &fresh, [pos, other]), "round {round}: {pos} {dir:?}");
            same_graph(&graph, &fresh, &format!("round {round}: {pos} {dir:?} to {state:?}"));
            for change in [update.walk_regions, update.pass_regions] {
                counts[match change {
                    RegionChange::Joined => 0,
                    RegionChange::Split => 1,
                    _ => 2,
                }] += 1;
            }
        }
        assert!(counts[0] > 20 && counts[1] > 20, "joins and splits both happen: {counts:?}");
        // The packed reverse arcs the distance flood reads were kept right too.
        let all = MapBounds::everywhere(&graph);
        let fresh = PathGraph::new(&d).unwrap();
        let goal = [fresh.pos(NodeId(0))];
        for rules in [PathRules::default(), PathRules { open_doors: true }] {
            let kept = DijkstraMap::new(&graph, &goal, &all, &rules).unwrap();
            assert_eq!(kept.values(), DijkstraMap::new(&fresh, &goal, &all, &rules).unwrap().values());
        }
    }

    #[test]
    fn a_dungeon_of_another_shape_is_refused() {
        let d = Dungeon::new(2, 1, 1, crate::geometry::Proportions::default(), crate::dungeon::Fill::Floor)
            .unwrap();
        let other =
            Dungeon::new(3, 1, 1, crate::geometry::Proportions::default(), crate::dungeon::Fill::Floor)
                .unwrap();
        let mut g = PathGraph::new(&d).unwrap();
        let err = g.update_edge(&other, Pos::new(0, 0, 0), Direction::E).unwrap_err();
        assert_eq!(err, PathError::DungeonMismatch { graph: (1, 1, 3), dungeon: (1, 1, 5) });
        assert!(matches!(
            g.update_edge(&d, Pos::new(0, 0, 1), Direction::E),
            Err(PathError::NotACell { .. })
        ));
        assert_eq!(
            g.update_edge(&d, Pos::new(0, 0, 0), Direction::W),
            Ok(EdgeUpdate::UNCHANGED),
            "the border"
        );
    }
}
