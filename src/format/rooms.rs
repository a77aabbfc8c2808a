//! The room table in the dungeon file (version 3): each room with its cells as runs along
//! slot rows, each passage with its rooms by name.

use serde::{Deserialize, Serialize};

use super::Problem;
use crate::dungeon::{
    Dungeon, DungeonError, Passage, PassageKind, Room, RoomId, RoomRole, RoomShape, SizeClass,
};
use crate::grid::{Pos, Slot};

/// One room: its table entry and its cells, as runs along slot rows.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RoomEntry {
    name: String,
    role: RoomRole,
    shape: RoomShape,
    size: SizeClass,
    level: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    height: Option<f64>,
    /// `[row, first_col, last_col]`: the cells of `row` from `first_col` to `last_col`
    /// (cells of one row are 2 columns apart).
    cells: Vec<[u32; 3]>,
}

/// One passage, its rooms by name.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PassageEntry {
    from: String,
    to: String,
    kind: PassageKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lock: Option<u32>,
}

/// The room table as the file writes it: each room's cells as runs along slot rows.
pub(super) fn room_entries(dungeon: &Dungeon) -> (Vec<RoomEntry>, Vec<PassageEntry>) {
    let rooms = dungeon
        .rooms()
        .iter()
        .enumerate()
        .map(|(i, room)| {
            let mut runs: Vec<[u32; 3]> = Vec::new();
            for p in dungeon.room_cells(RoomId(i as u16)) {
                match runs.last_mut() {
                    Some(run) if run[0] == p.slot.row && run[2] + 2 == p.slot.col => run[2] = p.slot.col,
                    _ => runs.push([p.slot.row, p.slot.col, p.slot.col]),
                }
            }
            RoomEntry {
                name: room.name.clone(),
                role: room.role,
                shape: room.shape,
                size: room.size,
                level: u32::from(room.level),
                height: room.height,
                cells: runs,
            }
        })
        .collect();
    let name = |id: RoomId| dungeon.rooms()[usize::from(id.0)].name.clone();
    let passages = dungeon
        .passages()
        .iter()
        .map(|p| PassageEntry { from: name(p.from), to: name(p.to), kind: p.kind, lock: p.lock })
        .collect();
    (rooms, passages)
}

/// Adds the file's rooms and passages to `dungeon`, each refusal a problem.
pub(super) fn add_rooms(
    dungeon: &mut Dungeon,
    rooms: Vec<RoomEntry>,
    passages: Vec<PassageEntry>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for entry in rooms {
        let Ok(level) = u16::try_from(entry.level) else {
            let why = format!("level {} is not a level of the dungeon", entry.level);
            problems.push(Problem::Dungeon(DungeonError::Room { room: entry.name, why }));
            continue;
        };
        let mut cells = Vec::new();
        for [row, first, last] in entry.cells {
            if last < first
                || (last - first) & 1 == 1
                || last - first > 2 * crate::grid::MAX_OCTAGONS_PER_SIDE
            {
                let why =
                    format!("cells [{row}, {first}, {last}] is not a run of cells (first <= last, 2 apart)");
                problems.push(Problem::Dungeon(DungeonError::Room { room: entry.name.clone(), why }));
                continue;
            }
            cells.extend((first..=last).step_by(2).map(|col| Pos { level, slot: Slot::new(row, col) }));
        }
        let room = Room {
            name: entry.name,
            role: entry.role,
            shape: entry.shape,
            size: entry.size,
            level,
            height: entry.height,
        };
        if let Err(e) = dungeon.add_room(room, &cells) {
            problems.push(Problem::Dungeon(e));
        }
    }
    for entry in passages {
        let (Some(from), Some(to)) = (dungeon.room_named(&entry.from), dungeon.room_named(&entry.to)) else {
            let missing = if dungeon.room_named(&entry.from).is_none() { &entry.from } else { &entry.to };
            let why = "a passage names it, but `rooms` has no room of that name".to_string();
            problems.push(Problem::Dungeon(DungeonError::Room { room: missing.clone(), why }));
            continue;
        };
        if let Err(e) = dungeon.add_passage(Passage { from, to, kind: entry.kind, lock: entry.lock }) {
            problems.push(Problem::Dungeon(e));
        }
    }
    problems
}
