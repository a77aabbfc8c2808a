//! Laying a flow out on the ground: each room placed on its level with its shape, each
//! connection routed as a corridor (or a stair and two corridors), searched level by level
//! with backtracking; [`super::realise`] turns the layout into a design.

use rand_chacha::ChaCha8Rng;

use super::ground::{Ground, Owner};
use super::route::{self, Router, Way};
use super::shape::Shapes;
use super::site::{self, Site};
use super::spec::Flow;
use crate::dungeon::PassageKind;
use crate::grid::{Direction, Pos, Slot, SlotKind};

/// Where one connection was realised.
#[derive(Debug, Clone)]
pub(super) enum Joint {
    /// A corridor on one level.
    Corridor { level: u16, way: Way },
    /// A stair on octagon `foot` of `level`, with the corridor below that reaches it and the
    /// corridor above that leaves its hole.
    Stair { level: u16, below: Way, above: Way },
}

/// One realised layout: the rooms' sites, each connection's joint, the ground.
pub(super) struct Layout {
    pub(super) sites: Vec<Site>,
    pub(super) joints: Vec<Joint>,
    pub(super) ground: Ground,
}

impl Layout {
    /// The middle octagon of room `room`: where its key goes, and the dungeon's entrance
    /// (exit) in the entrance (goal) room.
    pub(super) fn middle(&self, room: usize) -> Pos {
        let site = &self.sites[room];
        Pos { level: site.level, slot: site.middle() }
    }
}

/// Times one layout lays a level out again, from its first room, before the layout is given
/// up and a fresh one drawn: a level that walls a room in is laid out again on the levels
/// below it, which is far cheaper than starting again.
const LEVEL_RESTARTS: u32 = 8;

/// Times, in one try of a level, a room with no place left sends the search back to the room
/// before it on its level to try that room's next place, before the level is laid out again.
const BACKTRACKS_PER_TRY: u32 = 1;

/// One room being placed in [`lay_out`]: the places it has left to try, the ground's mark
/// before it, and its connections to earlier rooms, which its place routes.
struct Frame {
    room: usize,
    mark: usize,
    places: std::vec::IntoIter<Site>,
    /// Its connections to rooms placed before it, nearest in the order first.
    links: Vec<usize>,
}

/// Rooms placed and every connection routed, or the element that failed and why. Rooms are
/// placed in [`site::placement_order`] (level by level); each where its connections to
/// earlier rooms find corridors, trying its best few places. A room with no place left sends
/// the search back to the room before it on its level, which tries its next place; failing
/// that, the level is laid out again from its first room (up to [`LEVEL_RESTARTS`] times).
pub(super) fn lay_out(
    flow: &Flow,
    shapes: &mut Shapes,
    dims: crate::grid::Dims,
    levels: u16,
    gap: u32,
    rng: &mut ChaCha8Rng,
) -> Result<Layout, (String, String)> {
    let mut ground = Ground::new(dims, levels);
    let mut router = Router::default();
    let mut sites: Vec<Option<Site>> = vec![None; flow.rooms.len()];
    let mut joints: Vec<Option<Joint>> = vec![None; flow.connections.len()];
    let order = site::placement_order(flow);
    let mut rank = vec![usize::MAX; flow.rooms.len()];
    for (k, &room) in order.iter().enumerate() {
        rank[room] = k;
    }
    let mut frames: Vec<Frame> = Vec::with_capacity(order.len());
    // Per level: restarts left, and backtracks left in this try of the level.
    let mut restarts = vec![LEVEL_RESTARTS; usize::from(levels)];
    let mut backtracks = vec![BACKTRACKS_PER_TRY; usize::from(levels)];
    while frames.len() < order.len() {
        let room = order[frames.len()];
        // The room that failed and why, if one did.
        let mut failure = match open_frame(flow, shapes, &ground, &sites, room, &rank, gap, rng) {
            Ok(frame) => {
                frames.push(frame);
                None
            }
            Err(why) => Some((room, why)),
        };
        // Try the top frame's next place; when it has none, go back and try again.
        loop {
            if failure.is_none() {
                let top = frames.last_mut().expect("invariant: a frame is open");
                match next_place(top, flow, &mut router, &mut ground, &mut sites, &mut joints) {
                    Ok(()) => break,
                    Err(why) => failure = Some((top.room, why)),
                }
            }
            let (failed, why) = failure.take().expect("invariant: set above");
            let level = flow.levels[failed];
            let l = usize::from(level);
            if frames.last().is_some_and(|f| f.room == failed) {
                let top = frames.pop().expect("invariant: checked");
                undo(&top, &mut ground, &mut sites, &mut joints);
            }
            let on_level = frames.last().is_some_and(|f| flow.levels[f.room] == level);
            if on_level && backtracks[l] > 0 {
                // The room before it on its level tries its next place.
                backtracks[l] -= 1;
                continue;
            }
            if restarts[l] == 0 {
                return Err(why);
            }
            // The level again, from its first room, with fresh draws.
            restarts[l] -= 1;
            backtracks[l] = BACKTRACKS_PER_TRY;
            while frames.last().is_some_and(|f| flow.levels[f.room] == level) {
                let top = frames.pop().expect("invariant: checked");
                undo(&top, &mut ground, &mut sites, &mut joints);
            }
            break;
        }
    }
    let sites: Vec<Site> = sites.into_iter().map(|s| s.expect("invariant: every room placed")).collect();
    Ok(Layout {
        sites,
        joints: joints.into_iter().map(|j| j.expect("invariant: all routed")).collect(),
        ground,
    })
}

/// The frame of `room`: its connections to rooms placed before it (by `rank`) and its best
/// places, each where a corridor from every room it joins on its level can reach.
#[allow(clippy::too_many_arguments)]
fn open_frame(
    flow: &Flow,
    shapes: &mut Shapes,
    ground: &Ground,
    sites: &[Option<Site>],
    room: usize,
    rank: &[usize],
    gap: u32,
    rng: &mut ChaCha8Rng,
) -> Result<Frame, (String, String)> {
    let mut links: Vec<usize> = (0..flow.connections.len())
        .filter(|&c| {
            let (a, b, _, _) = flow.connections[c];
            (a == room && rank[b] < rank[room]) || (b == room && rank[a] < rank[room])
        })
        .collect();
    links.sort_by_key(|&c| {
        let (a, b, _, _) = flow.connections[c];
        (rank[if a == room { b } else { a }], c)
    });
    let level = flow.levels[room];
    let mut allowed: Option<Vec<bool>> = None;
    for &c in &links {
        let (a, b, kind, _) = flow.connections[c];
        let other = if a == room { b } else { a };
        if kind == PassageKind::Stair {
            continue;
        }
        let sources: Vec<Slot> = sites[other].as_ref().expect("invariant: placed").octagons().collect();
        let reach = route::reachable(ground, level, &sources);
        allowed = Some(match allowed {
            None => reach,
            Some(prev) => prev.iter().zip(&reach).map(|(x, y)| *x && *y).collect(),
        });
    }
    let ask = site::Ask { room, gap, allowed: allowed.as_deref() };
    let places = site::candidates(flow, shapes, ground, sites, ask, rng)
        .map_err(|why| (room_name(flow, room), why))?;
    Ok(Frame { room, mark: ground.mark(), places: places.into_iter(), links })
}

/// Places `frame`'s room at its next place whose connections all route and that walls in
/// no room still waiting for its neighbours; `Err` with the last reason when none is left.
fn next_place(
    frame: &mut Frame,
    flow: &Flow,
    router: &mut Router,
    ground: &mut Ground,
    sites: &mut [Option<Site>],
    joints: &mut [Option<Joint>],
) -> Result<(), (String, String)> {
    let room = frame.room;
    let level = flow.levels[room];
    let mut why = (room_name(flow, room), "no place for it".to_string());
    undo(frame, ground, sites, joints);
    while let Some(place) = frame.places.next() {
        for cell in place.cells() {
            ground.set(place.level, cell, Owner::Room(room));
        }
        sites[room] = Some(place);
        let mut routed = true;
        for &c in &frame.links {
            match route_connection(router, ground, flow, sites, c) {
                Some(joint) => {
                    commit(ground, c, &joint);
                    joints[c] = Some(joint);
                }
                None => {
                    let (a, b, _, _) = flow.connections[c];
                    let name = format!("connection {} ({} -> {})", c + 1, flow.rooms[a].id, flow.rooms[b].id);
                    why = (name, "no corridor finds a way between the rooms around what is placed".into());
                    routed = false;
                    break;
                }
            }
        }
        if routed && room_for_the_rest(ground, flow, sites, level) {
            return Ok(());
        }
        if routed {
            why = (
                room_name(flow, room),
                "every place for it walls in rooms whose neighbours are still to place".into(),
            );
        }
        undo(frame, ground, sites, joints);
    }
    Err(why)
}

/// Takes `frame`'s room and the connections it routed off the ground.
fn undo(frame: &Frame, ground: &mut Ground, sites: &mut [Option<Site>], joints: &mut [Option<Joint>]) {
    ground.roll_back(frame.mark);
    sites[frame.room] = None;
    for &c in &frame.links {
        joints[c] = None;
    }
}

/// How an error names room `room` of `flow`.
fn room_name(flow: &Flow, room: usize) -> String {
    format!("room {:?}", flow.rooms[room].id)
}

/// Whether every placed room on `level` that still has rooms to join there can reach free
/// ground enough for them: the free octagons it touches (joined as corridors step) at least
/// three times the largest sizes of the unplaced rooms it leads to through unplaced rooms.
/// Placing a room or a corridor that fails this walls a room into a pocket too small for
/// what hangs off it.
fn room_for_the_rest(ground: &Ground, flow: &Flow, sites: &[Option<Site>], level: u16) -> bool {
    let dims = ground.dims;
    // The pieces of free ground and their sizes, found once a room needs them (most
    // placements leave no room of the level waiting).
    let mut pieces: Option<(Vec<u32>, Vec<u32>)> = None;
    let labelled = || {
        let labels = route::pieces(ground, level);
        let mut sizes =
            vec![0u32; labels.iter().filter(|&&l| l != u32::MAX).map(|&l| l as usize + 1).max().unwrap_or(0)];
        for &l in labels.iter().filter(|&&l| l != u32::MAX) {
            sizes[l as usize] += 1;
        }
        (labels, sizes)
    };
    for (room, site) in sites.iter().enumerate() {
        let Some(site) = site.as_ref().filter(|s| s.level == level) else { continue };
        // The unplaced rooms of this level reached from `room` through unplaced rooms.
        let mut pending: Vec<usize> = Vec::new();
        let mut stack = vec![room];
        while let Some(r) = stack.pop() {
            for (other, kind) in flow.neighbours(r) {
                if kind != PassageKind::Stair && sites[other].is_none() && !pending.contains(&other) {
                    pending.push(other);
                    stack.push(other);
                }
            }
        }
        if pending.is_empty() {
            continue;
        }
        // A room of `lo` octagons needs them and some rock round them.
        let need: u32 = pending
            .iter()
            .map(|&r| {
                let lo = flow.rooms[r].size.octagons().0;
                lo + 2 * lo.isqrt() + 2
            })
            .sum();
        let (labels, sizes) = pieces.get_or_insert_with(labelled);
        let mut touched: Vec<u32> = Vec::new();
        for o in site.octagons() {
            for dir in Direction::ALL {
                let Some(next) = route::octagon_beyond(ground, o, dir) else { continue };
                let l = labels[dims.index(next).expect("invariant: on the grid")];
                if l != u32::MAX && !touched.contains(&l) {
                    touched.push(l);
                }
            }
        }
        if touched.iter().map(|&l| sizes[l as usize]).sum::<u32>() < need {
            return false;
        }
    }
    true
}

/// Routes connection `c` between two placed rooms: a corridor, or a stair with its two.
fn route_connection(
    router: &mut Router,
    ground: &mut Ground,
    flow: &Flow,
    sites: &[Option<Site>],
    c: usize,
) -> Option<Joint> {
    let (a, b, kind, _) = flow.connections[c];
    let (sa, sb) = (sites[a].as_ref()?, sites[b].as_ref()?);
    if kind == PassageKind::Stair {
        return stair_joint(router, ground, sa, sb, a, b, c);
    }
    let level = sa.level;
    let sources: Vec<Slot> = sa.octagons().collect();
    let target = |s: Slot| ground.owner(level, s) == Owner::Room(b);
    router
        .find(ground, level, &sources, sb.goal(), &target, &|_| true)
        .map(|way| Joint::Corridor { level, way })
}

/// Gives the cells of connection `c`'s joint to its corridor.
fn commit(ground: &mut Ground, c: usize, joint: &Joint) {
    let ways: Vec<(u16, &Way)> = match joint {
        Joint::Corridor { level, way } => vec![(*level, way)],
        Joint::Stair { level, below, above } => vec![(*level, below), (*level + 1, above)],
    };
    for (level, way) in ways {
        for cell in way.cells() {
            ground.set(level, cell, Owner::Corridor(c));
        }
    }
    if let Joint::Stair { level, above, .. } = joint {
        // The stair's octagon is the corridor's on both levels.
        ground.set(*level, above.octagons[0], Owner::Corridor(c));
        ground.set(*level + 1, above.octagons[0], Owner::Corridor(c));
    }
}

/// A stair between rooms `a` and `b` (on adjacent levels) for connection `c`: the octagon,
/// free on both levels, that is nearest both rooms and from which both corridors find a way;
/// the corridor above leaves the hole by the wall that becomes the stair's exit, and the
/// corridor below may not enter the stair through that wall (its landing stands there).
fn stair_joint(
    router: &mut Router,
    ground: &mut Ground,
    sa: &Site,
    sb: &Site,
    a: usize,
    b: usize,
    c: usize,
) -> Option<Joint> {
    let ((_, low_site), (high, high_site)) =
        if sa.level < sb.level { ((a, sa), (b, sb)) } else { ((b, sb), (a, sa)) };
    let level = low_site.level;
    let dims = ground.dims;
    let (lr, lc) = low_site.centre();
    let (hr, hc) = high_site.centre();
    let mut candidates: Vec<(f64, Slot)> = dims
        .cells()
        .filter(|s| s.kind() == SlotKind::Octagon)
        .filter(|&s| ground.is_free(level, s) && ground.is_free(level + 1, s))
        .map(|s| {
            let (r, col) = s.octagon_coords().expect("invariant: octagons");
            let (r, col) = (f64::from(r), f64::from(col));
            let d = ((r - lr).powi(2) + (col - lc).powi(2)).sqrt()
                + ((r - hr).powi(2) + (col - hc).powi(2)).sqrt();
            (d, s)
        })
        .collect();
    candidates.sort_by(|x, y| x.0.total_cmp(&y.0).then((x.1.row, x.1.col).cmp(&(y.1.row, y.1.col))));
    for &(_, foot) in candidates.iter().take(8) {
        ground.set(level, foot, Owner::Corridor(c));
        ground.set(level + 1, foot, Owner::Corridor(c));
        let up = |s: Slot| ground.owner(level + 1, s) == Owner::Room(high);
        if let Some(above) = router.find(ground, level + 1, &[foot], high_site.goal(), &up, &|_| true) {
            let exit = above.steps[0];
            // The corridor above is the ground's before the one below is routed.
            for cell in above.cells() {
                ground.set(level + 1, cell, Owner::Corridor(c));
            }
            let sources: Vec<Slot> = low_site.octagons().collect();
            let at_foot = |s: Slot| s == foot;
            let (r, c) = foot.octagon_coords().expect("invariant: an octagon");
            let below =
                router.find(ground, level, &sources, (r, c, r, c), &at_foot, &|dir| dir != exit.opposite());
            if let Some(below) = below {
                return Some(Joint::Stair { level, below, above });
            }
            for cell in above.cells() {
                ground.set(level + 1, cell, Owner::Free);
            }
        }
        ground.set(level, foot, Owner::Free);
        ground.set(level + 1, foot, Owner::Free);
    }
    None
}
