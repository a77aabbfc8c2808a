//! Text plan of one level, in the dungeon file's symbols (tiles on cells, long-edge states
//! on Void slots).

use octile::dungeon::Dungeon;
use octile::grid::{EdgeId, Slot, SlotKind};

/// One line per slot row of `level`.
pub fn level_text(dungeon: &Dungeon, level: u16) -> String {
    let dims = dungeon.dims();
    let reg = dungeon.registry();
    let mut out = String::new();
    for row in 0..dims.rows() {
        for col in 0..dims.cols() {
            let slot = Slot::new(row, col);
            let c = match slot.kind() {
                SlotKind::Void => dungeon
                    .edge_state_of(level, EdgeId::Long(slot))
                    .ok()
                    .and_then(|e| reg.edge_def(e))
                    .map_or('?', |e| if e.carve == octile::dungeon::Carve::None { ' ' } else { e.symbol }),
                _ => dungeon.tile_def(octile::grid::Pos { level, slot }).map_or('?', |t| t.symbol),
            };
            out.push(c);
        }
        out.push('\n');
    }
    out
}
