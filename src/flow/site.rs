//! Where each room of a flow stands: a footprint of its shape and size on its level, clear of
//! the other rooms by a gap of rock, near the rooms it connects to.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::ground::Ground;
use super::shape::{Footprint, Shapes};
use super::spec::Flow;
use crate::grid::Slot;

/// One placed room: its level, the octagon coordinates of its box's north-west corner, and
/// its footprint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Site {
    pub(crate) level: u16,
    pub(crate) row: u32,
    pub(crate) col: u32,
    pub(crate) footprint: Footprint,
}

impl Site {
    /// The room's octagons, row-major.
    pub(crate) fn octagons(&self) -> impl Iterator<Item = Slot> + '_ {
        self.footprint.cells.iter().map(|&(r, c)| Slot::octagon(self.row + r, self.col + c))
    }

    /// The room's cells: its octagons and each connector whose four octagons are all its own,
    /// row-major.
    pub(crate) fn cells(&self) -> Vec<Slot> {
        let f = &self.footprint;
        let mut out: Vec<Slot> = self.octagons().collect();
        for r in 0..f.rows.saturating_sub(1) {
            for c in 0..f.cols.saturating_sub(1) {
                if f.contains(r, c)
                    && f.contains(r + 1, c)
                    && f.contains(r, c + 1)
                    && f.contains(r + 1, c + 1)
                {
                    out.push(Slot::new(2 * (self.row + r) + 1, 2 * (self.col + c) + 1));
                }
            }
        }
        out.sort_unstable_by_key(|s| (s.row, s.col));
        out
    }

    /// The centre of the room's box, in octagon coordinates (row, col).
    pub(crate) fn centre(&self) -> (f64, f64) {
        let f = &self.footprint;
        (f64::from(self.row) + f64::from(f.rows - 1) / 2.0, f64::from(self.col) + f64::from(f.cols - 1) / 2.0)
    }

    /// The room's octagon nearest its box's centre (first in row-major order on a tie).
    pub(crate) fn middle(&self) -> Slot {
        let (cr, cc) = self.centre();
        let d = |s: &Slot| {
            let (r, c) = s.octagon_coords().expect("invariant: octagons");
            (f64::from(r) - cr).powi(2) + (f64::from(c) - cc).powi(2)
        };
        self.octagons()
            .fold(None, |best: Option<(f64, Slot)>, s| match best {
                Some((bd, _)) if bd <= d(&s) => best,
                _ => Some((d(&s), s)),
            })
            .map(|(_, s)| s)
            .expect("invariant: a footprint has octagons")
    }

    /// The room's box in octagon coordinates: first row, first column, last row, last column.
    pub(crate) fn goal(&self) -> (u32, u32, u32, u32) {
        let f = &self.footprint;
        (self.row, self.col, self.row + f.rows - 1, self.col + f.cols - 1)
    }

    /// Half the diagonal of the room's box, in octagons.
    fn radius(&self) -> f64 {
        let f = &self.footprint;
        (f64::from(f.rows).powi(2) + f64::from(f.cols).powi(2)).sqrt() / 2.0
    }
}

/// Random origins tried for each room before every origin is scanned.
const SAMPLES: u32 = 48;

/// Places tried for one room, best first.
pub(crate) const CANDIDATES: usize = 6;

/// What [`candidates`] is asked to place: the room, the rock it keeps from other rooms (in
/// octagons), and the octagons it may stand on (per slot index; `None`: any).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ask<'a> {
    pub(crate) room: usize,
    pub(crate) gap: u32,
    pub(crate) allowed: Option<&'a [bool]>,
}

/// Places for room `room` of `flow` on `ground`, best first (at most [`CANDIDATES`]): a
/// footprint of its shape and size drawn from `rng`, on its level, `gap` octagons of rock or
/// more from every other room, as near as can be to the distance from the rooms in `sites`
/// it connects to that leaves a short corridor; with `allowed` (per slot index), only on
/// octagons it marks. `Err(why)` when none fits.
pub(crate) fn candidates(
    flow: &Flow,
    shapes: &mut Shapes,
    ground: &Ground,
    sites: &[Option<Site>],
    ask: Ask<'_>,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Site>, String> {
    let Ask { room, gap, allowed } = ask;
    let (rows, cols) = (ground.dims.octagon_rows(), ground.dims.octagon_cols());
    let spec = &flow.rooms[room];
    let level = flow.levels[room];
    let neighbours: Vec<usize> = flow.neighbours(room).map(|(b, _)| b).collect();
    let mut found: Vec<(f64, Site)> = Vec::new();
    // Origins already looked at, by octagon index (row * cols + col), for the last footprint.
    let mut seen = vec![false; (rows * cols) as usize];
    for _ in 0..4 {
        let Some(footprint) = shapes.draw(spec.shape, spec.size.octagons(), rng) else {
            let (lo, hi) = spec.size.octagons();
            return Err(format!("no {} of {lo} to {hi} octagons fits in {cols}x{rows} octagons", spec.shape));
        };
        let (h, w) = (footprint.rows, footprint.cols);
        let fits = |r: u32, c: u32| {
            footprint.cells.iter().all(|&(fr, fc)| {
                let slot = Slot::octagon(r + fr, c + fc);
                let ok = allowed.is_none_or(|a| a[ground.dims.index(slot).expect("invariant: inside")]);
                ok && ground.clear_around(level, slot, gap, room)
            })
        };
        let score = |site: &Site| {
            let (sr, sc) = site.centre();
            neighbours
                .iter()
                .filter_map(|&b| sites[b].as_ref())
                .map(|other| {
                    let (or, oc) = other.centre();
                    let dist = ((sr - or).powi(2) + (sc - oc).powi(2)).sqrt();
                    (dist - (site.radius() + other.radius() + f64::from(gap) + 2.0)).abs()
                })
                .sum::<f64>()
        };
        seen.fill(false);
        let mut consider = |r: u32, c: u32, found: &mut Vec<(f64, Site)>| {
            let i = (r * cols + c) as usize;
            if !seen[i] && fits(r, c) {
                seen[i] = true;
                let site = Site { level, row: r, col: c, footprint: footprint.clone() };
                found.push((score(&site), site));
            }
        };
        // Half the samples round the rooms it joins on its level (a short corridor away),
        // half anywhere.
        let near: Vec<&Site> =
            neighbours.iter().filter_map(|&b| sites[b].as_ref()).filter(|s| s.level == level).collect();
        for k in 0..SAMPLES {
            let (r, c) = match near.get(k as usize % near.len().max(1)) {
                Some(other) if k % 2 == 0 => {
                    let reach = (other.footprint.rows.max(other.footprint.cols) + h.max(w)) / 2 + gap + 3;
                    let (or, oc) = other.centre();
                    let span = 2 * reach + 1;
                    let r = (or - f64::from(h) / 2.0).round() as i64 + i64::from(rng.next_u32() % span)
                        - i64::from(reach);
                    let c = (oc - f64::from(w) / 2.0).round() as i64 + i64::from(rng.next_u32() % span)
                        - i64::from(reach);
                    (r.clamp(0, i64::from(rows - h)) as u32, c.clamp(0, i64::from(cols - w)) as u32)
                }
                _ => (rng.next_u32() % (rows - h + 1), rng.next_u32() % (cols - w + 1)),
            };
            consider(r, c, &mut found);
        }
        if found.is_empty() {
            for r in 0..=rows - h {
                for c in 0..=cols - w {
                    consider(r, c, &mut found);
                }
            }
        }
        if !found.is_empty() {
            break;
        }
    }
    if found.is_empty() {
        return Err(format!(
            "no free place on level {level} at least {gap} octagon(s) from the other rooms{}",
            if allowed.is_some() { " that a corridor from the rooms it joins can reach" } else { "" }
        ));
    }
    // Stable: equal scores keep the order they were drawn in.
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(found.into_iter().take(CANDIDATES).map(|(_, s)| s).collect())
}

/// The rooms in the order they are placed: level by level from the lowest, and on each
/// level depth first from the entrance along the connections (the spec's last connection
/// first), so a room's branch is placed before other corridors can wall it in, and a level
/// that cannot be laid out is laid out again without moving the levels below it.
pub(crate) fn placement_order(flow: &Flow) -> Vec<usize> {
    let n = flow.rooms.len();
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut stack = vec![flow.entrance()];
    while let Some(a) = stack.pop() {
        if seen[a] {
            continue;
        }
        seen[a] = true;
        order.push(a);
        // Pushed in the spec's order, so its last connection is followed first: a branch
        // before the main path goes on, so a loop's far end is placed while there is room.
        let next: Vec<usize> = flow.neighbours(a).map(|(b, _)| b).filter(|&b| !seen[b]).collect();
        stack.extend(next);
    }
    // Stable: each level keeps the depth-first order.
    order.sort_by_key(|&room| flow.levels[room]);
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::FlowSpec;

    /// Two levels: the entrance's main path goes on to `b` and a branch to `c` (spec order),
    /// a stair from `b` up to `d`, and `e` beyond `d`. Level 0 is placed before level 1, and
    /// the branch before the main path goes on.
    #[test]
    fn rooms_are_placed_level_by_level_branches_first() {
        let json = serde_json::json!({
            "format": "octile-flow", "version": 1,
            "rooms": [
                { "id": "a", "role": "entrance", "level": 0 },
                { "id": "b", "level": 0 },
                { "id": "c", "level": 0 },
                { "id": "d", "level": 1 },
                { "id": "e", "role": "goal", "level": 1 },
            ],
            "connections": [
                { "from": "a", "to": "b" },
                { "from": "a", "to": "c" },
                { "from": "b", "to": "d", "kind": "stair" },
                { "from": "d", "to": "e" },
            ],
        });
        let flow = FlowSpec::from_json(&json.to_string()).unwrap().check(&Default::default()).unwrap();
        let ids: Vec<&str> = placement_order(&flow).into_iter().map(|r| flow.rooms[r].id.as_str()).collect();
        assert_eq!(ids, ["a", "c", "b", "d", "e"]);
    }
}
