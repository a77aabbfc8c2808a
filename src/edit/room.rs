//! Painting a room (`room L R1,C1..R2,C2`, [`Command::PaintRoom`]): a rectangle of floor
//! walled from what surrounds it but for one doorway per side, so a sketched room reads as a
//! room and `generate --keep` has its doorways where the designer put them.

#[cfg(doc)]
use super::Command;
use super::apply::paint;
use super::change::Recorder;
use super::seams::derived_state;
use super::{EditError, rect_cells};
use crate::grid::{Direction, Pos, Slot, SlotKind};

/// Paints the room between corners `from` and `to` of `level` (see [`Command::PaintRoom`]).
pub(super) fn paint_room(rec: &mut Recorder<'_>, level: u16, from: Slot, to: Slot) -> Result<(), EditError> {
    let dims = rec.d.dims();
    let cells = rect_cells(dims, level, from, to)?;
    let reg = rec.d.registry();
    let (Some(floor), Some(open), Some(wall)) = (reg.plain_floor(), reg.open_edge(), reg.wall_edge()) else {
        return Err(lacks());
    };
    let (rows, cols) =
        (from.row.min(to.row)..=from.row.max(to.row), from.col.min(to.col)..=from.col.max(to.col));
    let inside = |s: Slot| rows.contains(&s.row) && cols.contains(&s.col);
    paint(rec, &cells, floor)?;
    // Walls toward everything outside (painting opened the seams to floor round it).
    for &pos in &cells {
        for &dir in dims.walls(pos.slot).expect("invariant: a cell") {
            let Ok(Some(beyond)) = dims.neighbor(pos.slot, dir) else { continue };
            if !inside(beyond) {
                let edge =
                    dims.edge(pos.slot, dir).ok().flatten().expect("invariant: a wall with a cell beyond");
                rec.set_edge_of(level, edge, wall)?;
            }
        }
    }
    for dir in [Direction::N, Direction::E, Direction::S, Direction::W] {
        let Some(door) = middle_of_side(&cells, dir) else { continue };
        let Ok(Some(slot)) = dims.neighbor(door.slot, dir) else { continue };
        let beyond = Pos { level, slot };
        if !rec.d.stairs().allows_step(door, dir, beyond) {
            continue;
        }
        if !rec.d.is_carved(beyond) {
            rec.set_tile(beyond, floor)?;
            for &side in dims.walls(slot).expect("invariant: a cell") {
                let Ok(Some(next)) = dims.neighbor(slot, side) else { continue };
                let edge =
                    dims.edge(slot, side).ok().flatten().expect("invariant: a wall with a cell beyond");
                let state = if inside(next) { Some(wall) } else { derived_state(rec.d, level, edge) };
                rec.set_edge_of(level, edge, state.ok_or_else(lacks)?)?;
            }
        }
        let edge = dims.edge(door.slot, dir).ok().flatten().expect("invariant: a wall with a cell beyond");
        rec.set_edge_of(level, edge, open)?;
    }
    // Painting opened the pillars inside; the walls round the room closed none of them.
    Ok(())
}

/// What `room` needs of the registry and it lacks.
fn lacks() -> EditError {
    EditError::RegistryLacks { what: "plain floor tile and open and wall edge states", command: "room" }
}

/// The octagon in the middle of the room's side facing `dir` (of the octagons nearest that
/// side, the middle one, the first of two): where its doorway opens.
fn middle_of_side(cells: &[Pos], dir: Direction) -> Option<Pos> {
    let octagons = cells.iter().copied().filter(|p| p.slot.kind() == SlotKind::Octagon);
    // How far a cell lies toward `dir`, and where along the side.
    let key = |p: &Pos| -> (i64, u32) {
        let (row, col) = (i64::from(p.slot.row), i64::from(p.slot.col));
        match dir {
            Direction::N => (-row, p.slot.col),
            Direction::S => (row, p.slot.col),
            Direction::E => (col, p.slot.row),
            _ => (-col, p.slot.row),
        }
    };
    let edge = octagons.clone().map(|p| key(&p).0).max()?;
    let mut side: Vec<Pos> = octagons.filter(|p| key(p).0 == edge).collect();
    side.sort_unstable_by_key(|p| key(p).1);
    Some(side[(side.len() - 1) / 2])
}
