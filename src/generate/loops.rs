//! Loops: short tunnels through rock, each joining two floor cells whose walking costs
//! differ most for the rock carved, so each closes the longest cycle it can. The costs come
//! from [`super::distance`] (the crate's general Dijkstra), brought up to date after each
//! tunnel; the tunnels are found by bounded searches from every floor cell, skipping those
//! that cannot beat the best found so far.

use super::carve::Locked;
use super::connect::Level;
use super::distance::{after_carving, floor_distances};
use super::floor::Floor;
use crate::dungeon::Dungeon;
use crate::grid::{Direction, Pos, octagon_wall};
use crate::path::LONG_STEP;
use crate::path::search::{Search, UNREACHED};

/// Longest tunnel through rock, in cells, that a loop may carve.
pub(crate) const MAX_TUNNEL: usize = 3;

/// Carves up to `count` short tunnels (at most [`MAX_TUNNEL`] rock cells) on `level`, each
/// joining two floor cells whose walking costs from `sources` differ most for the rock
/// carved, so each tunnel closes the longest cycle it can, and none saving fewer than
/// `min_gain` long steps ([`super::GenerateOptions::loop_gain`]). Returns the number carved.
#[allow(clippy::too_many_arguments)]
pub(crate) fn add_loops(
    d: &mut Dungeon,
    floor: &mut Floor,
    level: u16,
    count: u32,
    min_gain: u32,
    sources: &[Pos],
    search: &mut Search,
    locked: Locked<'_>,
) -> u32 {
    if count == 0 {
        return 0;
    }
    let n = d.dims().slot_count();
    let base = usize::from(level) * n;
    let mut made = 0;
    floor_distances(d, floor, sources, search);
    let mut tunnels = Tunnels::of(floor, level, locked, u64::from(min_gain) * u64::from(LONG_STEP));
    for _ in 0..count {
        let costs = &search.costs()[base..base + n];
        let Some(tunnel) = tunnels.best(d.dims().cols(), costs) else {
            break;
        };
        for &c in &tunnel {
            let p = Level { d: &*d, level }.pos(c);
            floor.carve(d, p, c, locked);
            tunnels.view.carved[c as usize] = true;
        }
        made += 1;
        if made < count {
            // The next tunnel is chosen on the costs with this one carved.
            let carved: Vec<u32> = tunnel.iter().map(|&c| (base + c as usize) as u32).collect();
            after_carving(d, floor, &carved, search);
        }
    }
    made
}

/// The loop carver's state on one level: the level's view, kept up to date as tunnels are
/// carved, and the scratch of its bounded searches.
struct Tunnels {
    view: LevelView,
    /// The smallest gain a tunnel may have, in thousandths of a long step.
    min_gain: u64,
    seen: Vec<u32>,
    parent: Vec<u32>,
    frontier: Vec<u32>,
    next: Vec<u32>,
}

impl Tunnels {
    fn of(floor: &Floor, level: u16, locked: Locked<'_>, min_gain: u64) -> Tunnels {
        let n = floor.slots();
        Tunnels {
            view: LevelView::of(floor, level, locked),
            min_gain,
            seen: vec![u32::MAX; n],
            parent: vec![u32::MAX; n],
            frontier: Vec::new(),
            next: Vec::new(),
        }
    }

    /// The rock cells of the best tunnel, given walking costs `dist` per level-local node
    /// on a grid of `cols` slot columns: the one with the largest gain of at least
    /// [`Tunnels::min_gain`], the first found (cells in row-major order, breadth first, walls
    /// clockwise) among equals.
    fn best(&mut self, cols: u32, dist: &[u64]) -> Option<Vec<u32>> {
        let n = dist.len();
        let Tunnels { view, min_gain, seen, parent, frontier, next } = self;
        let min_gain = *min_gain;
        // Marks from an earlier call must not match a start of this one.
        seen.fill(u32::MAX);
        let mut best: Option<(u64, Vec<u32>)> = None;
        let nearby = NearbyMax::of(view, dist, cols);
        // Slot indices are row-major, and only cells are carved.
        for a in 0..n as u32 {
            let da = dist[a as usize];
            if da == UNREACHED || !view.carved[a as usize] {
                continue;
            }
            // No tunnel from `a` gains more than the farthest reached floor it can end on minus
            // `a`'s cost and one step: starts that cannot beat the best so far (ties keep the
            // first) are skipped.
            let bound = nearby.around(a as usize).saturating_sub(da + u64::from(LONG_STEP));
            if bound < min_gain || best.as_ref().is_some_and(|(g, _)| bound <= *g) {
                continue;
            }
            frontier.clear();
            seen[a as usize] = a;
            frontier.push(a);
            for depth in 0..MAX_TUNNEL {
                next.clear();
                for &u in frontier.iter() {
                    for &v in view.steps(u) {
                        if seen[v as usize] == a {
                            continue;
                        }
                        seen[v as usize] = a;
                        if !view.carved[v as usize] {
                            parent[v as usize] = u;
                            next.push(v);
                            continue;
                        }
                        // A floor cell reached through `depth` rock cells (none when u == a).
                        let dv = dist[v as usize];
                        if depth == 0 || dv == UNREACHED || dv <= da {
                            continue;
                        }
                        let gain = (dv - da).saturating_sub(depth as u64 * u64::from(LONG_STEP));
                        if gain >= min_gain && best.as_ref().is_none_or(|(g, _)| gain > *g) {
                            let mut tunnel = Vec::new();
                            let mut x = u;
                            while x != a {
                                tunnel.push(x);
                                x = parent[x as usize];
                            }
                            best = Some((gain, tunnel));
                        }
                    }
                }
                std::mem::swap(frontier, next);
            }
        }
        best.map(|(_, tunnel)| tunnel)
    }
}

/// One level's carved cells and the steps the shaft rule allows between its cells (walls
/// clockwise from north; none into or out of a locked cell), copied from the floor arrays for
/// the many bounded tunnel searches.
struct LevelView {
    carved: Vec<bool>,
    start: Vec<u32>,
    to: Vec<u32>,
}

/// Slots a side of [`NearbyMax`]'s blocks.
const BLOCK: usize = 8;

/// The most a reached floor cell costs in each square block of [`BLOCK`] slots, so that a
/// tunnel's start can bound what it may reach without searching: a tunnel of at most
/// [`MAX_TUNNEL`] rock cells ends at most `MAX_TUNNEL + 1` steps away, each step at most
/// as many rows and columns as the grid's farthest neighbour.
struct NearbyMax {
    cols: usize,
    block_cols: usize,
    block_rows: usize,
    /// How many slots around a start a tunnel may end, in rows and in columns.
    reach: usize,
    max: Vec<u64>,
}

impl NearbyMax {
    fn of(view: &LevelView, dist: &[u64], cols: u32) -> NearbyMax {
        let cols = cols as usize;
        let rows = dist.len() / cols;
        let (block_cols, block_rows) = (cols.div_ceil(BLOCK), rows.div_ceil(BLOCK));
        let mut max = vec![0; block_cols * block_rows];
        for (row, (dist, carved)) in dist.chunks(cols).zip(view.carved.chunks(cols)).enumerate() {
            let blocks = &mut max[row / BLOCK * block_cols..][..block_cols];
            for (col, (&d, &c)) in dist.iter().zip(carved).enumerate() {
                if c && d != UNREACHED {
                    blocks[col / BLOCK] = blocks[col / BLOCK].max(d);
                }
            }
        }
        // The farthest a step reaches, in rows or columns: an octagon's wall to the octagon
        // beyond (the steps are the grid's neighbours across walls).
        let span = Direction::ALL
            .iter()
            .flat_map(|&dir| [octagon_wall(dir).1, dir.unit()])
            .map(|(dr, dc)| dr.unsigned_abs().max(dc.unsigned_abs()) as usize)
            .max()
            .unwrap_or(0);
        NearbyMax { cols, block_cols, block_rows, reach: span * (MAX_TUNNEL + 1), max }
    }

    /// An upper bound on the cost of every reached floor cell a tunnel from slot `a` can
    /// end on (0 when there is none).
    fn around(&self, a: usize) -> u64 {
        let (r, c) = (a / self.cols, a % self.cols);
        let blocks = |at: usize, len: usize| {
            (at.saturating_sub(self.reach) / BLOCK)..=((at + self.reach) / BLOCK).min(len - 1)
        };
        let mut most = 0;
        for br in blocks(r, self.block_rows) {
            for bc in blocks(c, self.block_cols) {
                most = most.max(self.max[br * self.block_cols + bc]);
            }
        }
        most
    }
}

impl LevelView {
    fn of(floor: &Floor, level: u16, locked: Locked<'_>) -> LevelView {
        let n = floor.slots();
        let base = usize::from(level) * n;
        let mut view = LevelView {
            carved: (0..n).map(|i| floor.carved(base + i)).collect(),
            start: Vec::with_capacity(n + 1),
            to: Vec::new(),
        };
        view.start.push(0);
        for i in 0..n as u32 {
            let steps = floor.steps(level, i);
            if !locked.at(i as usize) {
                view.to.extend(steps.iter().map(|&(v, _)| v).filter(|&v| !locked.at(v as usize)));
            }
            view.start.push(view.to.len() as u32);
        }
        view
    }

    fn steps(&self, node: u32) -> &[u32] {
        &self.to[self.start[node as usize] as usize..self.start[node as usize + 1] as usize]
    }
}
