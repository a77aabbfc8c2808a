//! The mission layer on the room graph: the critical path from the entrance room to the
//! goal room, each room's depth, normalized depth and branch depth, the graph's cycles and
//! dead ends ([`mission`]); and where realisation puts each lock's key ([`place_keys`]).
//!
//! The room graph is the dungeon's room table: a room per node, a passage per edge. A
//! passage is walked both ways except a one-way passage (from `from` to `to` only); a
//! locked passage needs its key. Depths count passages from the entrance room with every
//! lock open.

use std::collections::VecDeque;

use crate::dungeon::{Dungeon, DungeonError, PassageKind, RoomId, RoomRole};
use crate::grid::Pos;

/// A room's place in the mission ([`Mission::rooms`], by [`RoomId`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoomDepth {
    /// Passages from the entrance room on the fewest-passage walk (every lock open);
    /// `None` when the room cannot be reached.
    pub depth: Option<u32>,
    /// 0 at the entrance room to 1 at the goal room: a room of the critical path is at its
    /// index there over the path's last index; a room off it takes the value of the
    /// critical-path room its branch leaves from.
    pub normalized: Option<f64>,
    /// Passages from the nearest critical-path room (0 on the path).
    pub branch: Option<u32>,
}

/// The mission graph's measures ([`mission`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Mission {
    /// The rooms from the entrance room to the goal room on the fewest-passage walk (every
    /// lock open, one-way passages walked their way only; ties go to the earlier passage).
    pub critical_path: Vec<RoomId>,
    /// Each room's depths, by [`RoomId`].
    pub rooms: Vec<RoomDepth>,
    /// Independent cycles of the room graph (passages less rooms plus its pieces).
    pub cycles: usize,
    /// Rooms with one passage, other than the entrance and goal rooms.
    pub dead_ends: Vec<RoomId>,
    /// The distinct lock ids of locked passages, lowest first.
    pub locks: Vec<u32>,
    /// The levels the critical path stands on, lowest first.
    pub levels: Vec<u16>,
    /// The fewest-passage walk from the entrance room to the goal room that opens each
    /// locked passage only with its key in hand (a key is picked up on entering its room;
    /// one-way passages walked their way only; ties go to the earlier passage), room by
    /// room; empty when there is none (a key in no room, or behind its own lock).
    pub key_route: Vec<RoomId>,
    /// Nonlinearity, as metazelda measures it: the rooms [`Mission::key_route`] enters more
    /// than once (the player walks back through them, to a key and on to its lock); `None`
    /// when there is no such route.
    pub nonlinearity: Option<usize>,
}

/// The room graph read from a dungeon's room table.
struct RoomGraph {
    /// Per room: `(next room, lock id of a locked passage)` for each passage leaving it.
    out: Vec<Vec<(usize, Option<u32>)>>,
    /// The same passages walked backwards: per room, the rooms with a passage into it.
    back: Vec<Vec<(usize, Option<u32>)>>,
    /// Per room: passages touching it.
    degree: Vec<usize>,
}

impl RoomGraph {
    fn of(d: &Dungeon) -> RoomGraph {
        let passages =
            d.passages().iter().map(|p| (usize::from(p.from.0), usize::from(p.to.0), p.kind, p.lock));
        RoomGraph::new(d.rooms().len(), passages)
    }

    /// The graph of `rooms` rooms joined by `passages`, each `(from, to, kind, lock id)`.
    fn new(
        rooms: usize,
        passages: impl Iterator<Item = (usize, usize, PassageKind, Option<u32>)>,
    ) -> RoomGraph {
        let mut out = vec![Vec::new(); rooms];
        let mut back = vec![Vec::new(); rooms];
        let mut degree = vec![0; rooms];
        for (a, b, kind, lock) in passages {
            let lock = if kind == PassageKind::Locked { lock.or(Some(u32::MAX)) } else { None };
            out[a].push((b, lock));
            back[b].push((a, lock));
            if kind != PassageKind::OneWay {
                out[b].push((a, lock));
                back[a].push((b, lock));
            }
            degree[a] += 1;
            degree[b] += 1;
        }
        RoomGraph { out, back, degree }
    }

    /// The critical path from `entrance` to `goal` (empty when the goal is not reached) and
    /// every room's depths ([`Mission::critical_path`], [`Mission::rooms`]).
    fn depths(&self, entrance: usize, goal: usize) -> (Vec<usize>, Vec<RoomDepth>) {
        let n = self.out.len();
        let (depth, parent) = self.walk(&[entrance], |_| true);
        let mut critical_path = Vec::new();
        if depth[goal].is_some() {
            let mut r = Some(goal);
            while let Some(room) = r {
                critical_path.push(room);
                r = parent[room];
            }
            critical_path.reverse();
        }
        // Branch depth and attachment: breadth first from every critical-path room at once.
        let (branch, attach) = self.walk(&critical_path, |_| true);
        let last = critical_path.len().saturating_sub(1).max(1) as f64;
        let mut along = vec![None; n];
        for (i, &r) in critical_path.iter().enumerate() {
            along[r] = Some(i as f64 / last);
        }
        let normalized = |r: usize| {
            let mut at = r;
            while along[at].is_none() {
                at = attach[at]?;
            }
            along[at]
        };
        let rooms = (0..n)
            .map(|r| RoomDepth { depth: depth[r], normalized: normalized(r), branch: branch[r] })
            .collect();
        (critical_path, rooms)
    }

    /// [`Mission::key_route`] of `d` from `entrance` to `goal`: breadth first over (room,
    /// keys held), a key by its index in `locks` (the distinct lock ids, sorted). Empty when
    /// the goal is not reached or there are more locks than [`MAX_ROUTE_LOCKS`].
    fn key_route(&self, d: &Dungeon, entrance: usize, goal: usize, locks: &[u32]) -> Vec<usize> {
        if locks.len() > MAX_ROUTE_LOCKS {
            return Vec::new();
        }
        // Each room's keys, as a set.
        let mut keys_in = vec![0u32; self.out.len()];
        for (id, at) in d.keys() {
            if let (Ok(k), Some(room)) = (locks.binary_search(&id), d.room_at(at)) {
                keys_in[usize::from(room.0)] |= 1 << k;
            }
        }
        let sets = 1usize << locks.len();
        let state = |room: usize, held: u32| room * sets + held as usize;
        let mut parent = vec![usize::MAX; self.out.len() * sets];
        let first = keys_in[entrance];
        let start = state(entrance, first);
        parent[start] = start;
        let mut queue = VecDeque::from([(entrance, first)]);
        let mut end = (entrance == goal).then_some(start);
        while let Some((room, held)) = queue.pop_front() {
            if end.is_some() {
                break;
            }
            for &(next, lock) in &self.out[room] {
                let opens = lock.is_none_or(|id| locks.binary_search(&id).is_ok_and(|k| held >> k & 1 == 1));
                let now = held | keys_in[next];
                let s = state(next, now);
                if !opens || parent[s] != usize::MAX {
                    continue;
                }
                parent[s] = state(room, held);
                if next == goal {
                    end = Some(s);
                    break;
                }
                queue.push_back((next, now));
            }
        }
        let Some(mut s) = end else { return Vec::new() };
        let mut route = vec![s / sets];
        while parent[s] != s {
            s = parent[s];
            route.push(s / sets);
        }
        route.reverse();
        route
    }

    /// Breadth first from `starts`: per room its distance and the room it was reached
    /// from, through passages whose lock `open` accepts.
    fn walk(&self, starts: &[usize], open: impl Fn(u32) -> bool) -> (Vec<Option<u32>>, Vec<Option<usize>>) {
        Self::walk_over(&self.out, starts, open)
    }

    /// [`RoomGraph::walk`] over the adjacency `arcs` (`out`, or `back` for the rooms that
    /// reach the starts).
    fn walk_over(
        arcs: &[Vec<(usize, Option<u32>)>],
        starts: &[usize],
        open: impl Fn(u32) -> bool,
    ) -> (Vec<Option<u32>>, Vec<Option<usize>>) {
        let n = arcs.len();
        let (mut dist, mut parent) = (vec![None; n], vec![None; n]);
        let mut queue = VecDeque::new();
        for &s in starts {
            dist[s] = Some(0);
            queue.push_back(s);
        }
        while let Some(r) = queue.pop_front() {
            let d = dist[r].expect("invariant: queued rooms are reached");
            for &(next, lock) in &arcs[r] {
                if dist[next].is_none() && lock.is_none_or(&open) {
                    dist[next] = Some(d + 1);
                    parent[next] = Some(r);
                    queue.push_back(next);
                }
            }
        }
        (dist, parent)
    }
}

/// Most distinct lock ids [`Mission::key_route`] is searched for (its states are a room
/// and a set of keys held).
pub const MAX_ROUTE_LOCKS: usize = 10;

/// The distinct lock ids of `d`'s passages, lowest first ([`Mission::locks`]).
fn lock_ids(d: &Dungeon) -> Vec<u32> {
    let mut locks: Vec<u32> = d.passages().iter().filter_map(|p| p.lock).collect();
    locks.sort_unstable();
    locks.dedup();
    locks
}

fn role_room(d: &Dungeon, role: RoomRole) -> Option<usize> {
    d.rooms().iter().position(|r| r.role == role)
}

/// The mission measures of `d`'s room table, or `None` when it has no entrance room or no
/// goal room (a dungeon made cell by cell, or a maze).
///
/// ```
/// use octile::flow::{Grammar, mission, realise};
/// use octile::generate::GenerateOptions;
///
/// let options = GenerateOptions { seed: 3, cols: 16, rows: 16, levels: 1, ..Default::default() };
/// let spec = octile::flow::write(Grammar::Linear, 16, 16, 1, 2, 3).unwrap();
/// let d = realise(&spec.check(&Default::default()).unwrap(), &options, &mut |_| {}).unwrap();
/// let m = mission(&d).unwrap();
/// assert_eq!(m.rooms[usize::from(m.critical_path[0].0)].normalized, Some(0.0));
/// ```
#[must_use]
pub fn mission(d: &Dungeon) -> Option<Mission> {
    let (entrance, goal) = (role_room(d, RoomRole::Entrance)?, role_room(d, RoomRole::Goal)?);
    let graph = RoomGraph::of(d);
    let n = graph.out.len();
    let (critical_path, rooms) = graph.depths(entrance, goal);
    // Pieces of the room graph (direction ignored), for the cycle count.
    let mut piece = vec![usize::MAX; n];
    let mut pieces = 0;
    for s in 0..n {
        if piece[s] != usize::MAX {
            continue;
        }
        piece[s] = pieces;
        let mut stack = vec![s];
        while let Some(r) = stack.pop() {
            for p in d.passages() {
                let (a, b) = (usize::from(p.from.0), usize::from(p.to.0));
                for (x, y) in [(a, b), (b, a)] {
                    if x == r && piece[y] == usize::MAX {
                        piece[y] = pieces;
                        stack.push(y);
                    }
                }
            }
        }
        pieces += 1;
    }
    let cycles = (d.passages().len() + pieces).saturating_sub(n);
    let dead_ends = (0..n)
        .filter(|&r| graph.degree[r] == 1 && r != entrance && r != goal)
        .map(|r| RoomId(r as u16))
        .collect();
    let locks = lock_ids(d);
    let mut levels: Vec<u16> = critical_path.iter().map(|&r| d.rooms()[r].level).collect();
    levels.sort_unstable();
    levels.dedup();
    let key_route = graph.key_route(d, entrance, goal, &locks);
    let nonlinearity = (!key_route.is_empty()).then(|| {
        let mut entered = vec![0u32; n];
        for &r in &key_route {
            entered[r] += 1;
        }
        entered.iter().filter(|&&e| e > 1).count()
    });
    Some(Mission {
        critical_path: critical_path.into_iter().map(|r| RoomId(r as u16)).collect(),
        rooms,
        cycles,
        dead_ends,
        locks,
        levels,
        key_route: key_route.into_iter().map(|r| RoomId(r as u16)).collect(),
        nonlinearity,
    })
}

/// Places the key of every lock id of `d`'s locked passages (metazelda's key-levels): the
/// key of lock `n` goes to a room reached from the entrance room, and that reaches it back,
/// through locks below `n` only (so never behind its own lock or a later one, nor past a
/// one-way passage with no way back). Among those it prefers, in order: a room of role `key`
/// that holds no key yet; the deepest key-level (a room only the last lock below `n` opens
/// the way to, so the keys lead the player on, lock by lock); a room that holds no key yet;
/// a room off the critical path; the one farthest out on its branch; the deepest; the
/// lowest id. At `cells[room]` (a cell of each room, by [`RoomId`]).
///
/// # Errors
/// As [`Dungeon::set_key`] for a cell that is not the dungeon's.
pub(crate) fn place_keys(d: &mut Dungeon, cells: &[Pos]) -> Result<(), DungeonError> {
    let (Some(entrance), Some(goal)) = (role_room(d, RoomRole::Entrance), role_room(d, RoomRole::Goal))
    else {
        return Ok(());
    };
    let graph = RoomGraph::of(d);
    let rooms = graph.out.len();
    let (critical_path, depths) = graph.depths(entrance, goal);
    let mut on_path = vec![false; rooms];
    for r in critical_path {
        on_path[r] = true;
    }
    // Per room: the key-level, the fewest of the locks (in id order) that must be open to
    // reach it (0: none); and whether it holds a key already.
    let mut key_level = vec![usize::MAX; rooms];
    let mut holds_key = vec![false; rooms];
    for (i, &lock) in lock_ids(d).iter().enumerate() {
        // Reached through locks below this one, and with a way back (a one-way passage may
        // lead where no walk returns from).
        let (reached, _) = graph.walk(&[entrance], |l| l < lock);
        let (returns, _) = RoomGraph::walk_over(&graph.back, &[entrance], |l| l < lock);
        for r in 0..rooms {
            if reached[r].is_some() && key_level[r] == usize::MAX {
                key_level[r] = i;
            }
        }
        let best = (0..rooms).filter(|&r| reached[r].is_some() && returns[r].is_some()).max_by_key(|&r| {
            let room = &d.rooms()[r];
            (
                room.role == RoomRole::Key && !holds_key[r],
                key_level[r],
                !holds_key[r],
                !on_path[r],
                r != entrance,
                depths[r].branch,
                reached[r],
                std::cmp::Reverse(r),
            )
        });
        if let Some((r, &cell)) = best.and_then(|r| cells.get(r).map(|c| (r, c))) {
            d.set_key(lock, Some(cell))?;
            holds_key[r] = true;
        }
    }
    Ok(())
}

/// The shape of a checked spec's room graph before it is realised: per room its depths
/// ([`RoomDepth`], as [`mission`] measures a dungeon's), whether it is on the critical path,
/// and how many connections touch it.
pub(crate) struct SpecShape {
    /// Each room's depths, by room index.
    pub depths: Vec<RoomDepth>,
    /// Each room: on the critical path.
    pub on_path: Vec<bool>,
    /// Each room: connections touching it.
    pub degree: Vec<usize>,
}

/// [`SpecShape`] of `rooms` rooms joined by `connections` (as [`crate::flow::Flow`] holds
/// them) from `entrance` to `goal`: the same walk as [`mission`]'s, on the spec.
pub(crate) fn spec_shape(
    rooms: usize,
    connections: &[(usize, usize, PassageKind, Option<u32>)],
    entrance: usize,
    goal: usize,
) -> SpecShape {
    let graph = RoomGraph::new(rooms, connections.iter().copied());
    let (critical_path, depths) = graph.depths(entrance, goal);
    let mut on_path = vec![false; rooms];
    for r in critical_path {
        on_path[r] = true;
    }
    SpecShape { depths, on_path, degree: graph.degree }
}
