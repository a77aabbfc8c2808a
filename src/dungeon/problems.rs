//! What `octile validate` reports: the problems a dungeon's layers can hold that its
//! setters cannot refuse one at a time (stairs that land nowhere, markers on rock).

use super::{Dungeon, DungeonError};
use crate::grid::{Pos, Slot, SlotKind};

impl Dungeon {
    /// Every problem with this dungeon (empty when there is none), in this order: a stair
    /// tile declared not carved (its shaft would be open, and a walker would fall through
    /// it); per level, stair tiles that do not stand on an octagon below the top level (only
    /// raw layers can hold these; they are not in the stair table) and stairs that land on
    /// rock or on another stair (stairs do not stack: see [`Dungeon::stair_exit`]); void
    /// cells over nothing carved and doors into void or open-above cells
    /// ([`Dungeon::column_problems`]); an entrance or exit on rock (their setters only
    /// require a cell of the dungeon, carved or not). Connectivity is not a problem here: `octile info` reports regions.
    #[must_use]
    pub fn problems(&self) -> Vec<DungeonError> {
        let mut out: Vec<DungeonError> = (self.registry().tiles().iter())
            .filter(|def| def.stair && !def.carved)
            .map(|def| DungeonError::StairNotCarved { symbol: def.symbol })
            .collect();
        out.extend((0..self.levels()).flat_map(|level| self.stair_problems(level)));
        out.extend((0..self.levels()).flat_map(|level| self.column_problems(level)));
        out.extend(self.marker_problems());
        out
    }

    /// The problems of [`Dungeon::problems`] with the entrance and exit: each on rock.
    #[must_use]
    pub fn marker_problems(&self) -> Vec<DungeonError> {
        let mut out = Vec::new();
        for (what, marker) in [("entrance", self.entrance()), ("exit", self.exit())] {
            if let Some(pos) = marker.filter(|&p| !self.cell_def(p).is_some_and(|def| def.carved)) {
                let Pos { level, slot: Slot { row, col } } = pos;
                out.push(DungeonError::MarkerOnRock { what, level, row, col });
            }
        }
        out
    }

    /// The problems of [`Dungeon::problems`] with stair tiles on `level`, in (row, col)
    /// order (empty for a level outside the dungeon).
    #[must_use]
    pub fn stair_problems(&self, level: u16) -> Vec<DungeonError> {
        let mut out = Vec::new();
        for slot in self.dims().cells() {
            let pos = Pos { level, slot };
            if !self.cell_def(pos).is_some_and(|def| def.stair) {
                continue;
            }
            let Slot { row, col } = slot;
            let kind = slot.kind();
            let above = self.tile_def(Pos { level: level + 1, ..pos }).ok();
            if kind != SlotKind::Octagon {
                out.push(DungeonError::StairOffOctagon { level, row, col, kind });
            } else if level + 1 >= self.levels() {
                out.push(DungeonError::StairOffTop { level, row, col, levels: self.levels() });
            } else if !above.is_some_and(|d| d.carved) {
                out.push(DungeonError::StairLandsOnRock { level, row, col });
            } else if above.is_some_and(|d| d.stair) {
                out.push(DungeonError::StairOnStair { level, row, col });
            }
        }
        out
    }
}
