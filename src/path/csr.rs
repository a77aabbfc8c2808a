//! How a [`super::PathGraph`] stores its steps: adjacency in compressed rows, each arc with
//! its full cost and its kind of step, and the table that turns a kind of step into a move
//! on the grid (so a search finds a neighbour's coordinates without reading them).

use crate::grid::{Direction, octagon_wall};

/// One step out of a node: the node it reaches and the full cost of the step (base step,
/// the edge's move cost and the entered tile's move cost).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Arc {
    pub(crate) to: u32,
    pub(crate) cost: u32,
}

/// Adjacency in compressed rows: the arcs of node `v` are `arcs[start[v]..end[v]]`, and
/// `end[v]..start[v + 1]` is spare room for arcs an edge change may add
/// ([`Csr::insert`] then shifts only the row's own arcs); `moves` holds, arc by arc, the
/// kind of step (an index into [`STEPS`]), and `back` the same arcs walked the other way,
/// packed in 4 bytes each (filled by [`Csr::finish`]).
#[derive(Debug, Clone)]
pub(crate) struct Csr {
    start: Vec<u32>,
    end: Vec<u32>,
    arcs: Vec<Arc>,
    moves: Vec<u8>,
    /// Per arc `v -> to`: `to` and the cost of the step `to -> v` (what a flood towards
    /// `v` pays), so a flood reads one array and no entry costs; packed (see
    /// [`BackArcs`]), and empty when they do not pack.
    back: Vec<u32>,
    /// The distinct reverse costs, indexed by the top bits of a packed back arc.
    back_costs: [u32; BackArcs::COSTS],
    /// Whether `back` holds the reverse arcs.
    back_packed: bool,
    /// The dearest cost in `arcs` and `back` (0 when there are none).
    max_cost: u32,
}

impl Default for Csr {
    /// No rows yet: arcs pushed now belong to node 0.
    fn default() -> Self {
        Csr {
            start: vec![0],
            end: Vec::new(),
            arcs: Vec::new(),
            moves: Vec::new(),
            back: Vec::new(),
            back_costs: [0; BackArcs::COSTS],
            back_packed: false,
            max_cost: 0,
        }
    }
}

impl Csr {
    /// Ends the current node's row; the next arcs belong to the next node.
    #[cfg(test)]
    pub(crate) fn close_row(&mut self) {
        self.close_row_with_room(0);
    }

    /// Ends the current node's row, leaving room for `spare` more arcs in it.
    pub(crate) fn close_row_with_room(&mut self, spare: usize) {
        let len = |arcs: &Vec<Arc>| u32::try_from(arcs.len()).expect("invariant: arcs fit in u32");
        self.end.push(len(&self.arcs));
        self.arcs.resize(self.arcs.len() + spare, Arc { to: 0, cost: 0 });
        self.moves.resize(self.moves.len() + spare, 0);
        self.start.push(len(&self.arcs));
    }

    /// Adds an arc of kind `step` to the current node's row.
    pub(crate) fn push(&mut self, arc: Arc, step: u8) {
        self.arcs.push(arc);
        self.moves.push(step);
    }

    /// Fills the reverse costs once every row is closed: an arc's cost less the move cost
    /// of entering its end (`enter`, per node) plus that of entering its start (saturating
    /// at `u32::MAX`, which no flood accepts). They are packed when the node numbers fit in
    /// [`BackArcs::NODE_BITS`] bits and there are at most [`BackArcs::COSTS`] distinct
    /// reverse costs (a default graph has a handful); otherwise [`Csr::back_arcs`] is `None`.
    #[cfg(test)]
    pub(crate) fn finish(&mut self, enter: &[u32]) {
        self.finish_one_way(enter, &[]);
    }

    /// [`Csr::finish`] for a graph with one-way steps: `missing` lists, as `(from, to)` in
    /// order of `from`, the steps that do not exist although the step `to -> from` does; a
    /// flood never walks them backwards (their reverse cost is `u32::MAX`).
    pub(crate) fn finish_one_way(&mut self, enter: &[u32], missing: &[(u32, u32)]) {
        let nodes = self.node_count();
        let is_missing = |from: u32, to: u32| {
            let at = missing.partition_point(|&(f, _)| f < from);
            missing[at..].iter().take_while(|&&(f, _)| f == from).any(|&(_, t)| t == to)
        };
        // Aligned with `arcs`; `None` in the spare room.
        let mut reverse = Vec::with_capacity(self.arcs.len());
        for v in 0..nodes {
            let (a, b, c) = (self.start[v] as usize, self.end[v] as usize, self.start[v + 1] as usize);
            for arc in &self.arcs[a..b] {
                let cross = arc.cost - enter[arc.to as usize];
                let cost = if !missing.is_empty() && is_missing(arc.to, v as u32) {
                    u32::MAX
                } else {
                    cross.saturating_add(enter[v])
                };
                reverse.push(Some(Arc { to: arc.to, cost }));
            }
            reverse.resize(reverse.len() + (c - b), None);
        }
        let costs =
            (0..nodes).flat_map(|v| self.row(v as u32)).chain(reverse.iter().flatten()).map(|a| a.cost);
        self.max_cost = costs.max().unwrap_or(0);
        self.back.clear();
        self.back_costs = [0; BackArcs::COSTS];
        self.back_packed = nodes <= 1 << BackArcs::NODE_BITS;
        let mut distinct = 0;
        for arc in &reverse {
            if !self.back_packed {
                break;
            }
            let Some(arc) = arc else {
                self.back.push(0); // spare room, never read
                continue;
            };
            let class = match self.back_costs[..distinct].iter().position(|&c| c == arc.cost) {
                Some(class) => class,
                None if distinct < BackArcs::COSTS => {
                    self.back_costs[distinct] = arc.cost;
                    distinct += 1;
                    distinct - 1
                }
                None => {
                    self.back_packed = false;
                    break;
                }
            };
            self.back.push(arc.to | ((class as u32) << BackArcs::NODE_BITS));
        }
        if !self.back_packed {
            self.back = Vec::new();
        }
    }

    /// Number of rows (nodes).
    pub(crate) fn node_count(&self) -> usize {
        self.start.len() - 1
    }

    /// The arc at position `at` of the arc arrays.
    pub(crate) fn row_arc(&self, at: usize) -> Arc {
        self.arcs[at]
    }

    /// The position in the arc arrays of the arc `v -> to`, if there is one.
    pub(crate) fn find(&self, v: u32, to: u32) -> Option<usize> {
        let a = self.start[v as usize] as usize;
        self.row(v).iter().position(|arc| arc.to == to).map(|i| a + i)
    }

    /// Makes room for one more arc at the end of `v`'s row: none to do when the row has
    /// spare room; otherwise every later row shifts by one slot (time linear in the arcs
    /// after it).
    fn grow_row(&mut self, v: usize) {
        let b = self.end[v] as usize;
        if b < self.start[v + 1] as usize {
            return;
        }
        self.arcs.insert(b, Arc { to: 0, cost: 0 });
        self.moves.insert(b, 0);
        if self.back_packed {
            self.back.insert(b, 0);
        }
        for s in &mut self.start[v + 1..] {
            *s += 1;
        }
        for e in &mut self.end[v + 1..] {
            *e += 1;
        }
    }

    /// Inserts the arc `v -> arc.to` of kind `step` into `v`'s row, keeping the row in
    /// the order the graph is read in (`rank` of each kind increasing: the cell's walls in
    /// [`crate::grid::Dims::walls`] order, then up, then down), with `reverse` the cost of
    /// the step `arc.to -> v`. Every later row
    /// shifts by one arc: time linear in the arcs after it. The packed reverse arcs stay
    /// packed while the cost table has room; otherwise they are dropped (floods fall back to
    /// the general search, as for a graph read that way).
    pub(crate) fn insert(&mut self, v: u32, arc: Arc, step: u8, reverse: u32, rank: impl Fn(u8) -> u8) {
        let v = v as usize;
        self.grow_row(v);
        let (a, b) = (self.start[v] as usize, self.end[v] as usize);
        let at = a + self.moves[a..b].partition_point(|&m| rank(m) < rank(step));
        self.arcs.copy_within(at..b, at + 1);
        self.arcs[at] = arc;
        self.moves.copy_within(at..b, at + 1);
        self.moves[at] = step;
        self.end[v] += 1;
        self.max_cost = self.max_cost.max(arc.cost).max(reverse);
        if self.back_packed {
            match self.cost_class(reverse) {
                Some(class) => {
                    self.back.copy_within(at..b, at + 1);
                    self.back[at] = arc.to | (class << BackArcs::NODE_BITS);
                }
                None => {
                    self.back_packed = false;
                    self.back = Vec::new();
                }
            }
        }
    }

    /// Removes the arc at position `at` of `v`'s row ([`Csr::find`]), leaving its slot as
    /// spare room. The dearest cost is kept as it was (an upper bound).
    pub(crate) fn remove(&mut self, v: u32, at: usize) {
        let b = self.end[v as usize] as usize;
        self.arcs.copy_within(at + 1..b, at);
        self.moves.copy_within(at + 1..b, at);
        if self.back_packed {
            self.back.copy_within(at + 1..b, at);
        }
        self.end[v as usize] -= 1;
    }

    /// Sets the cost of the arc at position `at` to `cost`, with `reverse` the cost of the
    /// step back.
    pub(crate) fn set_cost(&mut self, at: usize, cost: u32, reverse: u32) {
        self.arcs[at].cost = cost;
        self.max_cost = self.max_cost.max(cost).max(reverse);
        if self.back_packed {
            match self.cost_class(reverse) {
                Some(class) => {
                    let to = self.back[at] & ((1 << BackArcs::NODE_BITS) - 1);
                    self.back[at] = to | (class << BackArcs::NODE_BITS);
                }
                None => {
                    self.back_packed = false;
                    self.back = Vec::new();
                }
            }
        }
    }

    /// The class of reverse cost `cost` in the packed table, adding it when there is room.
    /// (Every step costs at least 1, so 0 marks a free entry.)
    fn cost_class(&mut self, cost: u32) -> Option<u32> {
        let i = self.back_costs.iter().position(|&c| c == cost || c == 0)?;
        self.back_costs[i] = cost;
        Some(i as u32)
    }

    /// The dearest step cost of either direction (0 when there are no arcs).
    pub(crate) fn max_cost(&self) -> u32 {
        self.max_cost
    }

    /// The arcs walked backwards, packed, or `None` when they do not pack (see
    /// [`Csr::finish`]).
    pub(crate) fn back_arcs(&self) -> Option<BackArcs<'_>> {
        self.back_packed.then_some(BackArcs {
            start: &self.start,
            end: &self.end,
            back: &self.back,
            costs: &self.back_costs,
        })
    }

    /// The arcs of `v`.
    pub(crate) fn row(&self, v: u32) -> &[Arc] {
        let v = v as usize;
        &self.arcs[self.start[v] as usize..self.end[v] as usize]
    }

    /// The arcs of `v` with their kinds of step.
    #[inline]
    pub(crate) fn row_moves(&self, v: u32) -> (&[Arc], &[u8]) {
        let (a, b) = (self.start[v as usize] as usize, self.end[v as usize] as usize);
        (&self.arcs[a..b], &self.moves[a..b])
    }
}

/// The arcs of a [`Csr`] walked backwards, 4 bytes each: per arc `v -> to`, `to` in the low
/// [`BackArcs::NODE_BITS`] bits and, in the bits above, the index into a table of the
/// distinct costs of the step `to -> v`. Half the bytes of a `(to, cost)` pair, so a
/// distance flood over a large graph reads half the memory.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BackArcs<'a> {
    start: &'a [u32],
    end: &'a [u32],
    back: &'a [u32],
    costs: &'a [u32; BackArcs::COSTS],
}

impl BackArcs<'_> {
    /// Bits of a node number (a dungeon has at most 2^26 cells).
    pub(crate) const NODE_BITS: u32 = 26;
    /// Distinct reverse costs a packed table can name.
    pub(crate) const COSTS: usize = 1 << (32 - Self::NODE_BITS);

    /// The packed arcs of `v` walked backwards (unpack with [`BackArcs::unpack`]).
    #[inline]
    pub(crate) fn row(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.back[self.start[v] as usize..self.end[v] as usize]
    }

    /// A packed arc's `(to, cost of to -> v)`.
    #[inline(always)]
    pub(crate) fn unpack(&self, packed: u32) -> (u32, u32) {
        let class = (packed >> Self::NODE_BITS) as usize % Self::COSTS;
        (packed & ((1 << Self::NODE_BITS) - 1), self.costs[class])
    }
}

/// Kind of step up a stair.
pub(crate) const STEP_UP: u8 = 8;
/// Kind of step down a stair.
pub(crate) const STEP_DOWN: u8 = 9;

/// The first kind of step up a ramp ([`step_ramp_up`]): one per long wall.
const STEP_RAMP_UP: u8 = 10;

/// The first kind of drop ([`step_drop`]).
const STEP_DROP: u8 = 16;

/// The kind of a step up a ramp that rises through long wall `dir` (north, east, south or
/// west): one level up and across `dir`. (Down a ramp, the step moves as a drop of one
/// storey does, and has that kind: [`step_drop`].)
pub(crate) const fn step_ramp_up(dir: Direction) -> u8 {
    STEP_RAMP_UP + (dir.index() / 2) as u8
}

/// Most storeys one drop falls ([`step_drop`] encodes its depth in a step kind): a void
/// column deeper than this is no drop point.
pub(crate) const MAX_DROP_STOREYS: u16 = 30;

/// The kind of a drop across wall `dir` falling `storeys` levels (1 to
/// [`MAX_DROP_STOREYS`]).
pub(crate) const fn step_drop(dir: Direction, storeys: u16) -> u8 {
    STEP_DROP + (storeys as u8 - 1) * 8 + dir.index() as u8
}

/// The kind of step across wall `dir` (equal to the wall's index).
pub(crate) const fn step_across(dir: Direction) -> u8 {
    dir.index() as u8
}

/// `(d_level, d_row, d_col)` of each kind of step: across walls 0..7 (clockwise from north,
/// the grid's own wall table: long walls two slots, short walls one diagonal slot, for
/// octagons and connectors alike), then [`STEP_UP`], then [`STEP_DOWN`], then up a ramp
/// through each long wall ([`step_ramp_up`]). (Padded to 16 so that indexing needs no bounds check.)
const STEPS: [(i32, i32, i32); 16] = step_table();

const fn step_table() -> [(i32, i32, i32); 16] {
    let mut table = [(0, 0, 0); 16];
    let mut i = 0;
    while i < 8 {
        let (d_row, d_col) = octagon_wall(Direction::from_index(i)).1;
        table[i] = (0, d_row, d_col);
        i += 1;
    }
    table[STEP_UP as usize] = (1, 0, 0);
    table[STEP_DOWN as usize] = (-1, 0, 0);
    let mut j = 0;
    while j < 4 {
        let (d_row, d_col) = octagon_wall(Direction::from_index(2 * j)).1;
        table[STEP_RAMP_UP as usize + j] = (1, d_row, d_col);
        j += 1;
    }
    table
}

/// Where a node is, unpacked for the heuristic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Coord {
    pub(crate) level: u32,
    pub(crate) row: u32,
    pub(crate) col: u32,
}

impl Coord {
    /// The coordinates after one step of kind `step` (see [`STEPS`] and [`step_drop`]).
    #[inline]
    pub(crate) fn moved(self, step: u8) -> Coord {
        let (dl, dr, dc) = if step < STEP_DROP {
            STEPS[usize::from(step) % STEPS.len()]
        } else {
            let k = step - STEP_DROP;
            let (_, dr, dc) = STEPS[usize::from(k % 8)];
            (-i32::from(k / 8 + 1), dr, dc)
        };
        Coord {
            level: self.level.wrapping_add_signed(dl),
            row: self.row.wrapping_add_signed(dr),
            col: self.col.wrapping_add_signed(dc),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Dims, Slot};

    #[test]
    fn steps_across_walls_reach_the_grids_neighbours() {
        let dims = Dims::from_octagons(3, 3).unwrap();
        for slot in [Slot::new(2, 2), Slot::new(1, 1), Slot::new(3, 3)] {
            for &dir in dims.walls(slot).unwrap() {
                let to = dims.neighbor(slot, dir).unwrap().unwrap();
                let from = Coord { level: 1, row: slot.row, col: slot.col };
                assert_eq!(from.moved(step_across(dir)), Coord { level: 1, row: to.row, col: to.col });
            }
        }
        let c = Coord { level: 1, row: 2, col: 2 };
        assert_eq!(c.moved(STEP_UP).level, 2);
        assert_eq!(c.moved(STEP_DOWN), Coord { level: 0, ..c });
    }

    #[test]
    fn back_arcs_pack_up_to_the_cost_table_size() {
        let build = |distinct: u32| {
            let mut csr = Csr::default();
            for c in 0..distinct {
                csr.push(Arc { to: 1, cost: 1000 + c }, 2);
            }
            csr.close_row();
            csr.close_row();
            csr.finish(&[0, 0]);
            csr
        };
        let csr = build(BackArcs::COSTS as u32);
        let back = csr.back_arcs().expect("64 distinct costs pack");
        let last = back.unpack(back.row(0)[BackArcs::COSTS - 1]);
        assert_eq!(last, (1, 1000 + BackArcs::COSTS as u32 - 1));
        assert!(build(BackArcs::COSTS as u32 + 1).back_arcs().is_none(), "65 do not: floods give up");
    }

    #[test]
    fn arcs_insert_into_spare_room_or_shift_later_rows_and_remove_in_place() {
        // Row 0 has room for one more arc, row 1 none, row 2 one arc.
        let mut csr = Csr::default();
        csr.push(Arc { to: 1, cost: 1000 }, 2);
        csr.close_row_with_room(1);
        csr.close_row();
        csr.push(Arc { to: 0, cost: 707 }, 5);
        csr.close_row();
        csr.finish(&[0, 0, 0]);
        let rank = |m: u8| m;
        csr.insert(0, Arc { to: 2, cost: 707 }, 1, 707, rank);
        assert_eq!(csr.row_moves(0).1, [1, 2], "kept in order of kind, in the spare room");
        csr.insert(1, Arc { to: 2, cost: 1000 }, 4, 1000, rank);
        csr.insert(1, Arc { to: 0, cost: 1000 }, 6, 1000, rank);
        assert_eq!(csr.row(1).iter().map(|a| a.to).collect::<Vec<_>>(), [2, 0]);
        assert_eq!(
            csr.row(2).iter().map(|a| (a.to, a.cost)).collect::<Vec<_>>(),
            [(0, 707)],
            "shifted intact"
        );
        let back = csr.back_arcs().unwrap();
        assert_eq!(back.unpack(back.row(0)[0]), (2, 707));
        assert_eq!(back.unpack(back.row(2)[0]), (0, 707));
        let at = csr.find(1, 2).unwrap();
        csr.remove(1, at);
        assert_eq!(csr.row(1).iter().map(|a| a.to).collect::<Vec<_>>(), [0]);
        assert_eq!(csr.find(1, 2), None);
        let back = csr.back_arcs().unwrap();
        assert_eq!(back.unpack(back.row(1)[0]), (0, 1000));
        assert_eq!(csr.node_count(), 3);
    }

    #[test]
    fn rows_hold_their_own_arcs() {
        let mut csr = Csr::default();
        csr.push(Arc { to: 1, cost: 5 }, 2);
        csr.close_row();
        csr.close_row();
        csr.push(Arc { to: 0, cost: 7 }, 6);
        csr.close_row();
        csr.finish(&[2, 0, 3]);
        assert_eq!(csr.row(0).len(), 1);
        let back = csr.back_arcs().unwrap();
        assert_eq!(back.unpack(back.row(0)[0]), (1, 7), "5 - 0 + 2");
        assert_eq!(back.unpack(back.row(2)[0]), (0, 8), "7 - 2 + 3");
        assert!(back.row(1).is_empty());
        assert_eq!(csr.max_cost(), 8);
        assert!(csr.row(1).is_empty());
        let (arcs, moves) = csr.row_moves(2);
        assert_eq!((arcs[0].to, arcs[0].cost, moves), (0, 7, &[6u8][..]));
    }
}
