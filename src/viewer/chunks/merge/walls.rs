//! Rock walls that run on in a straight line, joined into one quad.

use glam::DVec2;

use super::same;
use crate::geometry::Layout;
use crate::viewer::chunks::{ChunkKey, owner_chunk};
use crate::walk::{LevelPlan, WallKind};

/// How far (metres) a wall's midpoint is moved into its carved side to find the piece, and
/// so the chunk, it bounds.
pub(super) const WALL_PROBE: f64 = 0.05;

/// One wall quad of the coarse mesh: its chunk and its run `a -> b` (carved space on the
/// side of `(b - a).perp()`, as [`crate::walk::Wall`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WallRun {
    /// The mesh chunk of the piece it bounds.
    pub chunk: ChunkKey,
    /// Start.
    pub a: DVec2,
    /// End.
    pub b: DVec2,
    /// How high it stands above the floor (metres; the plan walls', which a run shares).
    pub height: f64,
}

/// `plan`'s rock walls, each run of walls that goes straight on (one starts where the one
/// before ends, in the same direction, in the same chunk, as high) joined into one. A wall goes to
/// the chunk of the piece it bounds; walls shorter than 0.1 mm are left out.
#[must_use]
pub fn wall_runs(plan: &LevelPlan, layout: &Layout) -> Vec<WallRun> {
    let walls: Vec<WallRun> = plan
        .walls
        .iter()
        .filter(|w| w.kind == WallKind::Rock && (w.b - w.a).length() >= 1e-4)
        .map(|w| {
            let probe = (w.a + w.b) * 0.5 + (w.b - w.a).perp().normalize() * WALL_PROBE;
            WallRun { chunk: owner_chunk(layout, probe), a: w.a, b: w.b, height: w.height }
        })
        .collect();
    // Walls sorted by their start rounded to a tenth of a millimetre: a wall's successor is
    // found by one binary search for its end. (Two equal points that round apart, a chance
    // of about 1e-8 each, only leave two quads where one would do.)
    let key = |p: DVec2| ((p.x * 1e4).round() as i64, (p.y * 1e4).round() as i64);
    let mut starts: Vec<((i64, i64), usize)> = walls.iter().enumerate().map(|(i, w)| (key(w.a), i)).collect();
    starts.sort_unstable();
    let next_of = |i: usize| -> Option<usize> {
        let w = walls[i];
        let end = key(w.b);
        let dir = (w.b - w.a).normalize();
        let from = starts.partition_point(|&(k, _)| k < end);
        starts[from..].iter().take_while(|&&(k, _)| k == end).map(|&(_, j)| j).find(|&j| {
            let v = walls[j];
            v.chunk == w.chunk
                && v.height == w.height
                && same(v.a, w.b)
                && (v.b - v.a).normalize().dot(dir) > 1.0 - 1e-9
        })
    };
    let next: Vec<Option<usize>> = (0..walls.len()).map(next_of).collect();
    let mut has_before = vec![false; walls.len()];
    for &j in next.iter().flatten() {
        has_before[j] = true;
    }
    let mut out = Vec::with_capacity(walls.len());
    let mut taken = vec![false; walls.len()];
    // Runs from their first wall; then any loop left (walls round a closed straight line
    // cannot make one, but a wall is never lost).
    let firsts = (0..walls.len()).filter(|&i| !has_before[i]).chain(0..walls.len());
    for first in firsts {
        if taken[first] {
            continue;
        }
        let mut run = walls[first];
        taken[first] = true;
        let mut at = first;
        while let Some(j) = next[at].filter(|&j| !taken[j]) {
            taken[j] = true;
            run.b = walls[j].b;
            at = j;
        }
        out.push(run);
    }
    out
}
