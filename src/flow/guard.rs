//! Locks that cannot be walked round: where a spec's connections (a cycle, most often) let a
//! player reach the far side of a locked door without passing it, the ways round become
//! one-way doors walked from behind the lock back (Unexplored's lock-and-key cycle: the way
//! round is the shortcut home once the lock is open).

use crate::dungeon::PassageKind;

/// One connection of a flow: `(from, to, kind, lock)`, room indices.
pub(crate) type Connection = (usize, usize, PassageKind, Option<u32>);

/// BFS distances (in connections) between every room and the nearest of `ends` over
/// `connections` without `skip`: one-way connections walked their way only, everything else
/// both ways. `towards`: the distance of a walk from each room to an end, else of a walk
/// from an end to each room. `usize::MAX`: no such walk.
fn distances(
    rooms: usize,
    connections: &[Connection],
    skip: usize,
    ends: &[usize],
    towards: bool,
) -> Vec<usize> {
    let mut dist = vec![usize::MAX; rooms];
    for &end in ends {
        dist[end] = 0;
    }
    let mut queue: std::collections::VecDeque<usize> = ends.iter().copied().collect();
    while let Some(r) = queue.pop_front() {
        for (c, &(a, b, kind, _)) in connections.iter().enumerate() {
            if c == skip {
                continue;
            }
            // Walking away from `end`, a one-way connection is taken from `a`; walking
            // towards it (the search runs backwards), from `b`.
            let (ahead, behind) = if towards { (b, a) } else { (a, b) };
            let next = if ahead == r {
                behind
            } else if behind == r && kind != PassageKind::OneWay {
                ahead
            } else {
                continue;
            };
            if dist[next] == usize::MAX {
                dist[next] = dist[r] + 1;
                queue.push_back(next);
            }
        }
    }
    dist
}

/// Turns every way round each lock one-way, walked from behind it back. For each locked
/// connection (in order) from room `front` to room `back`, when `back` can be walked to from
/// `front` without it (a way round), and with it taken out:
///
/// - the approach is every room on a fewest-connection walk from the entrance to `front`
///   (the player's way to the lock; only `front` when the entrance does not reach it);
/// - the rooms behind the lock are those off the approach that walk to `back` in fewer
///   connections than to the approach (a one-way connection counts only its way, so a
///   one-way door home from behind the lock is no way round);
/// - every connection but a stair or a lock between a room behind and one in front becomes
///   one-way, walked from the room behind.
///
/// The entrance is never behind a lock. A stair round a lock stays as it is (a stair has no
/// direction), and [`super::verify`] then says the lock can be bypassed.
pub(crate) fn guard_locks(rooms: usize, entrance: usize, connections: &mut [Connection]) {
    for l in 0..connections.len() {
        let (front, back, kind, _) = connections[l];
        if kind != PassageKind::Locked {
            continue;
        }
        if distances(rooms, connections, l, &[front], false)[back] == usize::MAX {
            continue;
        }
        let from_entrance = distances(rooms, connections, l, &[entrance], false);
        let to_front = distances(rooms, connections, l, &[front], true);
        let approach: Vec<usize> = match from_entrance[front] {
            usize::MAX => vec![front],
            length => (0..rooms)
                .filter(|&r| from_entrance[r] != usize::MAX && to_front[r] != usize::MAX)
                .filter(|&r| from_entrance[r] + to_front[r] == length)
                .collect(),
        };
        let to_approach = distances(rooms, connections, l, &approach, true);
        let to_back = distances(rooms, connections, l, &[back], true);
        let behind: Vec<bool> = (0..rooms).map(|r| r != entrance && to_back[r] < to_approach[r]).collect();
        if !behind[back] {
            continue;
        }
        for c in connections.iter_mut() {
            let (a, b, kind, _) = *c;
            if matches!(kind, PassageKind::Stair | PassageKind::Locked) || behind[a] == behind[b] {
                continue;
            }
            let (from, to) = if behind[a] { (a, b) } else { (b, a) };
            *c = (from, to, PassageKind::OneWay, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PassageKind::{Door, Locked, OneWay, Open, Stair};

    /// Unexplored's lock-and-key cycle: hub -> hall, hall -> vault locked, and the cycle's
    /// vault - hub: the way round becomes vault -> hub, one-way.
    #[test]
    fn the_way_round_a_lock_becomes_one_way_from_behind() {
        let mut c = vec![(0, 1, Open, None), (1, 2, Locked, Some(1)), (0, 2, Door, None)];
        guard_locks(3, 0, &mut c);
        assert_eq!(c, vec![(0, 1, Open, None), (1, 2, Locked, Some(1)), (2, 0, OneWay, None)]);
        // Behind the lock a player still walks home, in front no way reaches the vault.
        let home = distances(3, &c, usize::MAX, &[2], false);
        assert!(home[0] != usize::MAX);
        assert_eq!(distances(3, &c, 1, &[0], false)[2], usize::MAX, "the vault only through its lock");
    }

    #[test]
    fn a_lock_nothing_walks_round_and_a_stair_round_one_stay_as_they_are() {
        let mut line = vec![(0, 1, Door, None), (1, 2, Locked, Some(1)), (2, 3, Door, None)];
        let before = line.clone();
        guard_locks(4, 0, &mut line);
        assert_eq!(line, before);
        let mut stair = vec![(0, 1, Door, None), (1, 2, Locked, Some(1)), (2, 0, Stair, None)];
        let before = stair.clone();
        guard_locks(3, 0, &mut stair);
        assert_eq!(stair, before);
    }

    /// A longer loop: every room past the lock on the loop stays two-way inside, and only the
    /// connection that crosses back to the entrance's side turns.
    #[test]
    fn only_the_connections_crossing_back_turn() {
        // 0 entrance - 1 - 2 (lock 1 -> 2) - 3 - 4 - 0: rooms 2 and 3 are behind (nearer 2
        // than 1 without the lock); 4 is as near each side and stays in front.
        let mut c = vec![
            (0, 1, Door, None),
            (1, 2, Locked, Some(1)),
            (2, 3, Door, None),
            (3, 4, Door, None),
            (4, 0, Door, None),
        ];
        guard_locks(5, 0, &mut c);
        assert_eq!(c[2], (2, 3, Door, None), "inside the part behind the lock");
        assert_eq!(c[3], (3, 4, OneWay, None), "the crossing, walked from behind");
        assert_eq!(c[4], (4, 0, Door, None));
        assert_eq!(distances(5, &c, 1, &[0], false)[2], usize::MAX);
        assert_eq!(distances(5, &c, 1, &[0], false)[3], usize::MAX);
    }

    /// A one-way door home from behind a lock to a room well before it is no way round:
    /// nothing in front turns (it once turned the entrance's own door, sealing the player
    /// in). Rooms: 0 entrance - 1 hall - 2 anteroom - 3 hub, 3 -> 4 vault locked, 4 -> 1
    /// one-way home, 4 - 5 goal.
    #[test]
    fn a_one_way_door_home_from_behind_a_lock_turns_nothing_in_front() {
        let mut c = vec![
            (0, 1, Door, None),
            (1, 2, Door, None),
            (2, 3, Door, None),
            (3, 4, Locked, Some(1)),
            (4, 1, OneWay, None),
            (4, 5, Door, None),
        ];
        let before = c.clone();
        guard_locks(6, 0, &mut c);
        assert_eq!(c, before);
        // And where the same door home is two-way, it is the way round, and it turns (not
        // the hall's doors on the way to the lock, though the hall is one step from the
        // vault and two from the hub).
        let mut round = before.clone();
        round[4] = (4, 1, Door, None);
        guard_locks(6, 0, &mut round);
        assert_eq!(round[4], (4, 1, OneWay, None));
        assert_eq!(round[..4], before[..4], "the entrance's side is as it was");
    }
}
