//! What passes sight: the one place that turns the dungeon's registry flags into "this
//! cell / this seam lets sight through". Line of sight, field of view and footprints all
//! ask these functions, and they read the dungeon on every call (no cached copy), so an
//! edge state changed on the dungeon (a door opened or closed) is seen by the next query.

use glam::DVec2;

use crate::dungeon::{Carve, Dungeon};
use crate::geometry::make_positive;
use crate::grid::{Direction, PillarId, Pos};

/// True when the cell at `pos` lets sight through: its tile is carved and not `opaque` in
/// the registry. False for rock, an opaque tile and a position that is not a cell.
#[must_use]
pub fn cell_passes_sight(dungeon: &Dungeon, pos: Pos) -> bool {
    dungeon.tile_def(pos).is_ok_and(|t| t.carved && !t.opaque)
}

/// True when sight can cross wall `dir` of the cell at `pos`: the seam beyond it is carved
/// ([`Dungeon::carved_seam`]: open, or a door-wide passage), its edge state is not `opaque`
/// in the registry, and both cells pass sight ([`cell_passes_sight`]). A closed door is
/// opaque; the same edge set to a non-opaque state passes.
#[must_use]
pub fn seam_passes_sight(dungeon: &Dungeon, pos: Pos, dir: Direction) -> bool {
    seam_sight(dungeon, pos, dir).is_some()
}

/// How sight crosses the seam beyond wall `dir` of the cell at `pos`: `Some(Carve::Full)`
/// through the whole seam (an open edge), `Some(Carve::Door)` only through the door-wide
/// passage ([`door_passage`]), `None` not at all ([`seam_passes_sight`] is false).
#[must_use]
pub(crate) fn seam_sight(dungeon: &Dungeon, pos: Pos, dir: Direction) -> Option<Carve> {
    let def = dungeon.carved_seam(pos, dir)?;
    let other = dungeon.dims().neighbor(pos.slot, dir).ok()??;
    let clear = !def.opaque
        && cell_passes_sight(dungeon, pos)
        && cell_passes_sight(dungeon, Pos { slot: other, ..pos });
    clear.then_some(def.carve)
}

/// True when sight crosses `pillar` on `level`: it is open
/// ([`Dungeon::is_pillar_open`]) and its three cells and three seams pass sight
/// ([`cell_passes_sight`], and no seam's edge state is `opaque`).
#[must_use]
pub fn pillar_passes_sight(dungeon: &Dungeon, level: u16, pillar: PillarId) -> bool {
    if !dungeon.is_pillar_open(level, pillar) {
        return false;
    }
    let cells = pillar.cells().into_iter().all(|slot| cell_passes_sight(dungeon, Pos { level, slot }));
    let seams = pillar.seams().into_iter().all(|seam| {
        let state = dungeon.edge_state_of(level, seam).ok();
        state.and_then(|s| dungeon.registry().edge_def(s)).is_some_and(|def| !def.opaque)
    });
    cells && seams
}

/// The door-wide passage through the seam beyond wall `dir` of the cell at `pos`, as a
/// positively wound quad in world `(x, z)` metres ([`crate::geometry::Layout::door`], the
/// opening [`crate::geometry::Layout::door_opening`] gives each side). `None` on the
/// grid's border.
#[must_use]
pub(crate) fn door_passage(dungeon: &Dungeon, pos: Pos, dir: Direction) -> Option<[DVec2; 4]> {
    let dims = dungeon.dims();
    let sides = dims.edge_sides(dims.edge(pos.slot, dir).ok()??).ok()?;
    Some(make_positive(dungeon.layout().door(sides[0], sides[1])?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::{Proportions, signed_area};

    #[test]
    fn doors_open_a_door_wide_passage_only_when_not_opaque() {
        let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        let pos = Pos::new(0, 0, 0);
        assert_eq!(seam_sight(&d, pos, Direction::E), Some(Carve::Full));
        d.set_edge(pos, Direction::E, Registry::DOOR).unwrap();
        assert_eq!(seam_sight(&d, pos, Direction::E), None, "a closed door is opaque");
        let mut registry = d.registry().clone();
        let mut open_door = registry.edge_def(Registry::DOOR).unwrap().clone();
        open_door.name = "open_door".into();
        open_door.symbol = 'd';
        open_door.opaque = false;
        let open = registry.add_edge(open_door).unwrap();
        let mut d = Dungeon::with_registry(2, 1, 1, Proportions::default(), registry, Fill::Floor).unwrap();
        d.set_edge(pos, Direction::E, open).unwrap();
        assert_eq!(seam_sight(&d, pos, Direction::E), Some(Carve::Door));
        let door = door_passage(&d, pos, Direction::E).unwrap();
        let whole = d.layout().long_seam(crate::grid::Slot::new(0, 1)).unwrap();
        assert!(signed_area(&door) > 0.0 && signed_area(&door) < signed_area(&whole));
        d.set_tile(Pos::new(0, 0, 2), Registry::SOLID).unwrap();
        assert!(!seam_passes_sight(&d, pos, Direction::E), "rock beyond blocks the seam");
    }
}
