//! The mission layer in the dungeon file (version 4): `locks`, the lock id of each locked
//! door by a cell and its wall, and `keys`, where each lock's key lies.

use serde::{Deserialize, Serialize};

use super::Problem;
use crate::dungeon::Dungeon;
use crate::grid::{Direction, Pos};

/// One locked door's lock id: a cell, its wall (`N`, `NE`, ... as in `octile edit`) and the
/// id.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LockEntry {
    at: [u32; 3],
    wall: String,
    lock: u32,
}

/// Where one key lies.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct KeyEntry {
    lock: u32,
    at: [u32; 3],
}

/// The dungeon's locks (named from the earlier of the door's two cells) and keys, in the
/// order the dungeon lists them.
pub(super) fn mission_entries(dungeon: &Dungeon) -> (Vec<LockEntry>, Vec<KeyEntry>) {
    let locks = dungeon
        .locks()
        .filter_map(|lock| {
            let (slot, dir, _) = dungeon.edge_cells(lock.edge)?;
            Some(LockEntry {
                at: [u32::from(lock.level), slot.row, slot.col],
                wall: dir.name().into(),
                lock: lock.id,
            })
        })
        .collect();
    let keys = dungeon
        .keys()
        .map(|(lock, p)| KeyEntry { lock, at: [u32::from(p.level), p.slot.row, p.slot.col] })
        .collect();
    (locks, keys)
}

/// Sets the locks and keys the file lists, returning a problem per entry refused.
pub(super) fn add_mission(dungeon: &mut Dungeon, locks: &[LockEntry], keys: &[KeyEntry]) -> Vec<Problem> {
    let to_pos = |p: [u32; 3]| Pos::new(u16::try_from(p[0]).unwrap_or(u16::MAX), p[1], p[2]);
    let mut problems = Vec::new();
    for entry in locks {
        let pos = to_pos(entry.at);
        let Some(dir) = Direction::ALL.into_iter().find(|d| d.name().eq_ignore_ascii_case(&entry.wall))
        else {
            problems.push(Problem::BadLock {
                at: entry.at,
                wall: entry.wall.clone(),
                why: "the wall must be one of N, NE, E, SE, S, SW, W, NW".into(),
            });
            continue;
        };
        if let Err(cause) = dungeon.set_lock(pos, dir, Some(entry.lock)) {
            problems.push(Problem::BadLock {
                at: entry.at,
                wall: entry.wall.clone(),
                why: cause.to_string(),
            });
        }
    }
    for entry in keys {
        if let Err(cause) = dungeon.set_key(entry.lock, Some(to_pos(entry.at))) {
            problems.push(Problem::BadMarker { what: "key", cause });
        }
    }
    problems
}
