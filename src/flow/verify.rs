//! The flow proof ([`verify`]): a search over (cell, keys held) that says whether a dungeon
//! with locked doors, keys and one-way doors can be finished, and no lock walked round.
//!
//! The search runs on the pathing graph's steps with doors openable (read by the rules of
//! [`crate::path::PathGraph`] under `PathRules { open_doors: true }`), so it steps where a
//! path search steps: carved
//! seams, closed and secret doors, stairs, one-way doors their way only. A locked door is
//! crossed (either way) once its key is held; a key is held from the moment its cell is
//! reached and never lost. The search is over states (cell, keys held), not cells: a walk
//! through a one-way door may not come back, so a key picked up beyond one is not at hand
//! where the walk started.

use std::collections::VecDeque;
use std::fmt;

use crate::dungeon::{Dungeon, PassageKind};
use crate::grid::Pos;
use std::ops::ControlFlow;

use crate::path::StepList;
use crate::path::search::{Parents, Search};

/// A position in the user's words: `level,row,col`.
struct At(Pos);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.0.level, self.0.slot.row, self.0.slot.col)
    }
}

/// Why a dungeon's flow does not hold ([`Verdict::failures`]). A lock is named by its id and
/// the cell on the side it is opened from (`level,row,col`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// The dungeon has no entrance, or no exit (the goal), or one that is not a carved cell
    /// (or its pathing graph cannot be read: `graph`, a step whose cost overflows).
    #[error("the dungeon has no {what} on a carved cell")]
    NoMarker {
        /// `entrance`, `exit` or `graph`.
        what: &'static str,
    },
    /// No walk from the entrance, picking up keys on the way, reaches the exit.
    #[error("the goal at {} cannot be reached from the entrance at {}", At(*goal), At(*entrance))]
    GoalUnreachable {
        /// The entrance.
        entrance: Pos,
        /// The exit.
        goal: Pos,
    },
    /// A lock whose key is not placed.
    #[error("lock {lock} at {} has no key", At(*at))]
    NoKey {
        /// The lock id.
        lock: u32,
        /// The lock's cell.
        at: Pos,
    },
    /// A key that is reached only through its own lock (or not at all).
    #[error("key {lock} at {} is not reachable before lock {lock} at {}", At(*key), At(*at))]
    KeyBehindLock {
        /// The lock id.
        lock: u32,
        /// The key's cell.
        key: Pos,
        /// The lock's cell.
        at: Pos,
    },
    /// The far side of a lock is reached without opening it; `from -> to` is the step of
    /// such a walk that enters the guarded room (or the far side itself).
    #[error("lock {lock} at {} can be bypassed through {} -> {}", At(*at), At(*from), At(*to))]
    Bypassed {
        /// The lock id.
        lock: u32,
        /// The lock's cell.
        at: Pos,
        /// Where the bypassing step starts.
        from: Pos,
        /// Where it ends.
        to: Pos,
    },
    /// A lock the critical path opens, although the goal is reached without it.
    #[error("lock {lock} at {} is on the critical path but not needed: the goal is reached without it", At(*at))]
    NotNeeded {
        /// The lock id.
        lock: u32,
        /// The lock's cell.
        at: Pos,
    },
    /// A key that opens no lock of the dungeon.
    #[error("key {lock} at {} opens no lock", At(*at))]
    StrayKey {
        /// The key's lock id.
        lock: u32,
        /// The key's cell.
        at: Pos,
    },
    /// More distinct lock ids than the proof tracks.
    #[error("the dungeon has {count} lock ids; the proof tracks at most {max}")]
    TooManyLocks {
        /// Distinct lock ids of doors and keys.
        count: usize,
        /// The most it tracks.
        max: usize,
    },
}

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Verdict {
    /// Every failure, in a fixed order: markers, the goal, then lock by lock (lowest id
    /// first) its key, bypasses and need, then stray keys. Empty when the flow holds.
    pub failures: Vec<Failure>,
    /// The critical path: the cheapest walk from the entrance to the exit with every lock
    /// open, cell by cell (empty when there is none).
    pub critical_path: Vec<Pos>,
    /// Its cost in thousandths of a long step ([`crate::path::LONG_STEP`]).
    pub critical_cost: u64,
    /// The lock ids the critical path opens, in the order it meets them.
    pub critical_locks: Vec<u32>,
    /// Locked doors with a lock id.
    pub locks: usize,
    /// Placed keys.
    pub keys: usize,
}

impl Verdict {
    /// Whether the flow holds: no failure.
    #[must_use]
    pub fn holds(&self) -> bool {
        self.failures.is_empty()
    }

    /// The first failure, the one `octile validate` prints.
    #[must_use]
    pub fn first(&self) -> Option<&Failure> {
        self.failures.first()
    }
}

/// One line for people, as `octile validate`, `octile edit` and the editor's HUD print it:
/// `flow holds (3 lock(s), 3 key(s), critical path of 47 cells)`, or `flow: ` and the first
/// failure.
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.first() {
            Some(failure) => write!(f, "flow: {failure}"),
            None => write!(
                f,
                "flow holds ({} lock(s), {} key(s), critical path of {} cells)",
                self.locks,
                self.keys,
                self.critical_path.len()
            ),
        }
    }
}

/// Most distinct lock ids the proof tracks (the key sets seen at a cell are a 64-bit set).
pub const MAX_LOCKS: usize = 6;

/// One locked door in graph terms.
struct Door {
    /// The door's two nodes, lower first.
    nodes: (u32, u32),
    /// Index of its lock id in the sorted distinct ids.
    key: usize,
}

/// The proof's view of a dungeon: the steps, the doors and keys as nodes.
struct Board<'d> {
    dungeon: &'d Dungeon,
    steps: StepList,
    ids: Vec<u32>,
    /// Sorted by `nodes`.
    doors: Vec<Door>,
    /// Per arc of `steps`: the key index of the locked door it crosses, or [`NO_DOOR`].
    arc_door: Vec<u8>,
    /// Per node: the key indices whose keys lie there, as a set.
    key_mask: Vec<u64>,
    /// Per key index: its node.
    key_node: Vec<Option<u32>>,
}

/// `arc_door` of an arc through no locked door.
const NO_DOOR: u8 = u8::MAX;

/// What one flood reached.
struct Reach {
    /// Per node: the node it was first reached from (`u32::MAX` for the start and for
    /// nodes not reached; `seen` says which).
    parent: Vec<u32>,
    seen: Vec<bool>,
}

impl Board<'_> {
    fn door_of(&self, a: u32, b: u32) -> Option<usize> {
        let key = (a.min(b), a.max(b));
        self.doors.binary_search_by_key(&key, |d| d.nodes).ok().map(|i| self.doors[i].key)
    }

    /// Everything reached from `start` by some walk: a breadth-first search over
    /// (node, keys held), picking up the keys of each node entered and crossing a locked
    /// door only with its key; the doors of key index `walled` never open (and its key is
    /// never picked up). A node is reached when any state at it is; its parent is the node
    /// it was first reached from.
    fn flood(&self, start: u32, walled: Option<usize>) -> Reach {
        let n = self.steps.node_count();
        let mut reach = Reach { parent: vec![u32::MAX; n], seen: vec![false; n] };
        let keep = !walled.map_or(0, |k| 1u64 << k);
        // Per node, the key sets seen there (bit `s` for set `s`).
        let mut sets = vec![0u64; n];
        let first = self.key_mask[start as usize] & keep;
        sets[start as usize] |= 1 << first;
        reach.seen[start as usize] = true;
        let mut queue = VecDeque::from([(start, first)]);
        while let Some((v, held)) = queue.pop_front() {
            for at in self.steps.range(v) {
                let (w, _) = self.steps.arc(at);
                let door = self.arc_door[at];
                if door != NO_DOOR && (held & keep & (1 << door)) == 0 {
                    continue;
                }
                let next = held | (self.key_mask[w as usize] & keep);
                if sets[w as usize] & (1 << next) != 0 {
                    continue;
                }
                sets[w as usize] |= 1 << next;
                if !reach.seen[w as usize] {
                    reach.seen[w as usize] = true;
                    reach.parent[w as usize] = v;
                }
                queue.push_back((w, next));
            }
        }
        reach
    }

    fn pos(&self, v: u32) -> Pos {
        self.steps.pos(v)
    }
}

/// Proves (or refutes) the flow of `dungeon`: that its goal (the exit) is reached from the
/// entrance, keys picked up on the way opening locked doors and one-way doors walked their
/// way only; that each lock's key is reached without that lock; that no lock's far side is
/// reached without opening it (no bypass, through a loop, a secret door or filler); and that
/// every lock on the critical path is needed (without its key the goal is not reached).
/// Stray keys (opening no lock) are failures too. A dungeon without locks or keys needs
/// only its goal reached.
///
/// A lock's far side is the side in the `to` room of its locked passage when the room
/// table says so, otherwise the side the flood with the lock shut does not reach first.
///
/// ```
/// use octile::dungeon::{Dungeon, Fill, Mechanism};
/// use octile::geometry::Proportions;
/// use octile::grid::{Direction, Pos};
///
/// // Three octagons in a row; a locked door between the middle one and the east one.
/// let mut d = Dungeon::new(3, 1, 1, Proportions::default(), Fill::Floor)?;
/// let (west, middle, east) = (Pos::new(0, 0, 0), Pos::new(0, 0, 2), Pos::new(0, 0, 4));
/// let locked = d.mission_state(Mechanism::Locked)?;
/// d.set_edge(middle, Direction::E, locked)?;
/// d.set_lock(middle, Direction::E, Some(1))?;
/// d.set_entrance(Some(west))?;
/// d.set_exit(Some(east))?;
/// let verdict = octile::flow::verify(&d);
/// let said: Vec<String> = verdict.failures.iter().map(|f| f.to_string()).collect();
/// assert_eq!(said, [
///     "the goal at 0,0,4 cannot be reached from the entrance at 0,0,0",
///     "lock 1 at 0,0,2 has no key",
/// ]);
/// d.set_key(1, Some(west))?;
/// assert!(octile::flow::verify(&d).holds());
/// # Ok::<(), octile::dungeon::DungeonError>(())
/// ```
#[must_use]
pub fn verify(dungeon: &Dungeon) -> Verdict {
    let mut verdict =
        Verdict { locks: dungeon.locks().count(), keys: dungeon.keys().count(), ..Verdict::default() };
    let Ok(steps) = StepList::read(dungeon) else {
        verdict.failures.push(Failure::NoMarker { what: "graph" });
        return verdict;
    };
    let node_in = |g: &StepList, p: Option<Pos>| p.and_then(|p| g.node(dungeon, p));
    let node = |p: Option<Pos>| node_in(&steps, p);
    let (Some(start), Some(goal)) = (node(dungeon.entrance()), node(dungeon.exit())) else {
        let what = if node(dungeon.entrance()).is_none() { "entrance" } else { "exit" };
        verdict.failures.push(Failure::NoMarker { what });
        return verdict;
    };
    let mut ids: Vec<u32> = dungeon.locks().map(|l| l.id).chain(dungeon.keys().map(|(id, _)| id)).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() > MAX_LOCKS {
        verdict.failures.push(Failure::TooManyLocks { count: ids.len(), max: MAX_LOCKS });
        return verdict;
    }
    let index = |id: u32| ids.binary_search(&id).ok();
    let mut doors: Vec<Door> = Vec::new();
    for lock in dungeon.locks() {
        let (Some((a, _, b)), Some(key)) = (dungeon.edge_cells(lock.edge), index(lock.id)) else { continue };
        let (a, b) =
            (node(Some(Pos { level: lock.level, slot: a })), node(Some(Pos { level: lock.level, slot: b })));
        if let (Some(a), Some(b)) = (a, b) {
            doors.push(Door { nodes: (a.min(b), a.max(b)), key });
        }
    }
    doors.sort_by_key(|d| d.nodes);
    let mut key_node = vec![None; ids.len()];
    let mut keys_at = Vec::new();
    for (id, p) in dungeon.keys() {
        if let (Some(v), Some(k)) = (node(Some(p)), index(id)) {
            key_node[k] = Some(v);
            keys_at.push((v, k));
        }
    }
    keys_at.sort_unstable();
    let mut key_mask = vec![0u64; steps.node_count()];
    for &(v, k) in &keys_at {
        key_mask[v as usize] |= 1 << k;
    }
    let mut board = Board { dungeon, steps, ids, doors, arc_door: Vec::new(), key_mask, key_node };
    board.arc_door = (0..board.steps.node_count() as u32)
        .flat_map(|v| board.steps.range(v).map(move |at| (v, at)))
        .map(|(v, at)| board.door_of(v, board.steps.arc(at).0).map_or(NO_DOOR, |k| k as u8))
        .collect();
    let board = board;
    let all = board.flood(start, None);
    if !all.seen[goal as usize] {
        verdict.failures.push(Failure::GoalUnreachable { entrance: board.pos(start), goal: board.pos(goal) });
    }
    // The critical path: the cheapest walk with every lock open (Dijkstra, stopping at
    // the goal).
    let mut search = Search::new();
    search.reset(board.steps.node_count(), Parents::Record);
    search.start(start, 0);
    let steps = &board.steps;
    let reached = search.run(
        |u| steps.range(u).map(move |at| (steps.arc(at).0, u64::from(steps.arc(at).1))),
        |v, cost| if v == goal { ControlFlow::Break(cost) } else { ControlFlow::Continue(()) },
    );
    if let Some(cost) = reached {
        verdict.critical_cost = cost;
        let mut path = vec![goal];
        while let Some(p) = search.parent(*path.last().unwrap_or(&start)) {
            path.push(p);
        }
        path.reverse();
        for pair in path.windows(2) {
            if let Some(k) = board.door_of(pair[0], pair[1]) {
                verdict.critical_locks.push(board.ids[k]);
            }
        }
        verdict.critical_path = path.into_iter().map(|v| board.pos(v)).collect();
    }
    for k in 0..board.ids.len() {
        check_lock(&board, &all, start, goal, k, &mut verdict);
    }
    for (id, p) in dungeon.keys() {
        if !board.doors.iter().any(|d| board.ids[d.key] == id) {
            verdict.failures.push(Failure::StrayKey { lock: id, at: p });
        }
    }
    verdict
}

/// The checks of one lock id (key index `k`): its key, each of its doors' bypasses, and
/// whether the critical path needs it.
fn check_lock(board: &Board<'_>, all: &Reach, start: u32, goal: u32, k: usize, verdict: &mut Verdict) {
    let id = board.ids[k];
    let doors: Vec<&Door> = board.doors.iter().filter(|d| d.key == k).collect();
    if doors.is_empty() {
        return;
    }
    let shut = board.flood(start, Some(k));
    // Each door as (near, far) sides.
    let sides: Vec<(u32, u32)> = doors.iter().map(|d| board.sides(d, &shut)).collect();
    let at = board.pos(sides[0].0);
    match board.key_node[k] {
        None => verdict.failures.push(Failure::NoKey { lock: id, at }),
        Some(v) if !shut.seen[v as usize] => {
            verdict.failures.push(Failure::KeyBehindLock { lock: id, key: board.pos(v), at });
        }
        Some(_) => {}
    }
    let mut bypassed = false;
    for &(near, far) in &sides {
        if shut.seen[near as usize] && shut.seen[far as usize] {
            let (from, to) = board.entering_step(&shut, far);
            verdict.failures.push(Failure::Bypassed { lock: id, at: board.pos(near), from, to });
            bypassed = true;
        }
    }
    if !bypassed
        && verdict.critical_locks.contains(&id)
        && all.seen[goal as usize]
        && shut.seen[goal as usize]
    {
        verdict.failures.push(Failure::NotNeeded { lock: id, at });
    }
}

impl Board<'_> {
    /// A door's (near, far) nodes: far is the side in the `to` room of a locked passage of
    /// its id, else the side the shut flood did not reach, else the later-reached side.
    fn sides(&self, door: &Door, shut: &Reach) -> (u32, u32) {
        let (a, b) = door.nodes;
        let id = self.ids[door.key];
        let to_room = self
            .dungeon
            .passages()
            .iter()
            .filter(|p| p.kind == PassageKind::Locked && p.lock == Some(id))
            .map(|p| p.to)
            .collect::<Vec<_>>();
        let in_to = |v: u32| self.dungeon.room_at(self.pos(v)).is_some_and(|r| to_room.contains(&r));
        match (in_to(a), in_to(b)) {
            (false, true) => return (a, b),
            (true, false) => return (b, a),
            _ => {}
        }
        match (shut.seen[a as usize], shut.seen[b as usize]) {
            (true, false) => (a, b),
            (false, true) => (b, a),
            _ => {
                let depth = |mut v: u32| {
                    let mut d = 0usize;
                    while shut.parent[v as usize] != u32::MAX {
                        v = shut.parent[v as usize];
                        d += 1;
                    }
                    d
                };
                if depth(a) <= depth(b) { (a, b) } else { (b, a) }
            }
        }
    }

    /// The step of the shut flood's walk to `far` that last enters `far`'s room from
    /// outside it (the step into `far` itself when `far` is in no room).
    fn entering_step(&self, shut: &Reach, far: u32) -> (Pos, Pos) {
        let room = self.dungeon.room_at(self.pos(far));
        let mut v = far;
        let mut step = (self.pos(shut.parent[far as usize].min(far)), self.pos(far));
        if shut.parent[far as usize] != u32::MAX {
            step = (self.pos(shut.parent[far as usize]), self.pos(far));
        }
        if room.is_none() {
            return step;
        }
        while shut.parent[v as usize] != u32::MAX {
            let p = shut.parent[v as usize];
            if self.dungeon.room_at(self.pos(p)) != room {
                return (self.pos(p), self.pos(v));
            }
            v = p;
        }
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Mechanism, Registry};
    use crate::geometry::Proportions;
    use crate::grid::Direction;

    /// Two rows of three octagons, all floor (no connectors carved): the north row
    /// 0,0,0 - 0,0,2 - 0,0,4 and the south row 0,2,0 - 0,2,2 - 0,2,4, joined by long
    /// seams between them.
    fn two_rows() -> Dungeon {
        let mut d = Dungeon::new(3, 2, 1, Proportions::default(), Fill::Floor).unwrap();
        for c in [1, 3] {
            d.set_tile(Pos::new(0, 1, c), Registry::SOLID).unwrap();
        }
        d
    }

    fn lock(d: &mut Dungeon, at: Pos, dir: Direction, id: u32) {
        let locked = d.mission_state(Mechanism::Locked).unwrap();
        d.set_edge(at, dir, locked).unwrap();
        d.set_lock(at, dir, Some(id)).unwrap();
    }

    #[test]
    fn markers_keys_and_needless_locks_are_named() {
        let mut d = two_rows();
        assert_eq!(verify(&d).first(), Some(&Failure::NoMarker { what: "entrance" }));
        let (west, goal) = (Pos::new(0, 0, 0), Pos::new(0, 0, 4));
        d.set_entrance(Some(west)).unwrap();
        d.set_exit(Some(goal)).unwrap();
        assert!(verify(&d).holds(), "no locks: the goal reached is enough");
        d.set_key(9, Some(west)).unwrap();
        let stray = verify(&d);
        assert_eq!(stray.failures, [Failure::StrayKey { lock: 9, at: west }]);
        assert_eq!(stray.first().unwrap().to_string(), "key 9 at 0,0,0 opens no lock");
        d.set_key(9, None).unwrap();
        // Lock 1 on the short way (north row: west, then the lock, then a one-way door
        // east into the goal); the south row is the long way round. The lock's far side
        // cannot be reached round it (walled from the south, one-way from the goal), yet
        // the goal can: the lock is not needed.
        let (far, south_middle, south_east) = (Pos::new(0, 0, 2), Pos::new(0, 2, 2), Pos::new(0, 2, 4));
        lock(&mut d, west, Direction::E, 1);
        d.set_key(1, Some(west)).unwrap();
        let east = d.mission_state(Mechanism::OneWayForward).unwrap();
        d.set_edge(far, Direction::E, east).unwrap();
        d.set_edge(far, Direction::S, Registry::WALL).unwrap();
        let v = verify(&d);
        assert_eq!(v.critical_locks, [1]);
        assert_eq!(v.failures, [Failure::NotNeeded { lock: 1, at: west }], "{:?}", v.failures);
        assert!(v.first().unwrap().to_string().contains("not needed"));
        // The key beyond a one-way door no walk comes back through: reached, but not at
        // hand at the lock, so the goal is not reached (a flood of cells alone would say
        // it is).
        d.set_key(1, Some(south_east)).unwrap();
        d.set_edge(south_east, Direction::N, Registry::WALL).unwrap();
        d.set_edge(south_middle, Direction::E, east).unwrap();
        let v = verify(&d);
        assert_eq!(v.failures, [Failure::GoalUnreachable { entrance: west, goal }], "{:?}", v.failures);
    }

    #[test]
    fn more_locks_than_tracked_are_refused() {
        let mut d = Dungeon::new(8, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        d.set_entrance(Some(Pos::new(0, 0, 0))).unwrap();
        d.set_exit(Some(Pos::new(0, 0, 14))).unwrap();
        for i in 0..7 {
            lock(&mut d, Pos::new(0, 0, 2 * i), Direction::E, i);
        }
        assert_eq!(verify(&d).failures, [Failure::TooManyLocks { count: 7, max: MAX_LOCKS }]);
    }
}
