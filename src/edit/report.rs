//! The connectivity report every applied edit returns: editing may split the dungeon, so the
//! editor says how many regions there are and which floor cells cannot be reached, rather
//! than refusing the edit.

use crate::dungeon::Dungeon;
use crate::grid::Pos;
use crate::path::{dungeon_regions, node_index, node_pos};

/// Regions and unreachable cells of a dungeon, as `octile info` counts them
/// ([`dungeon_regions`]: passable floor over passable edges and stairs).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Connectivity {
    /// Number of connected regions.
    pub regions: usize,
    /// The floor cells outside the main region (the entrance's, or the largest when there
    /// is no entrance on floor; the first of equals), level by level, row-major.
    pub unreachable: Vec<Pos>,
}

impl Connectivity {
    /// The report of `d`.
    #[must_use]
    pub fn of(d: &Dungeon) -> Connectivity {
        let regions = dungeon_regions(d);
        let sizes = regions.sizes();
        let by_entrance = d.entrance().and_then(|p| node_index(d, p)).and_then(|i| regions.region(i));
        let main = by_entrance
            .map(|r| r.index())
            .or_else(|| (0..sizes.len()).max_by_key(|&r| (sizes[r], std::cmp::Reverse(r))));
        let len = d.dims().slot_count() * usize::from(d.levels());
        let unreachable = (0..len)
            .filter(|&i| regions.region(i).is_some_and(|r| Some(r.index()) != main))
            .filter_map(|i| node_pos(d, i))
            .collect();
        Connectivity { regions: regions.count(), unreachable }
    }

    /// True when every floor cell is in one region.
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.regions <= 1
    }
}

impl std::fmt::Display for Connectivity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} region{}", self.regions, if self.regions == 1 { "" } else { "s" })?;
        if !self.unreachable.is_empty() {
            write!(
                f,
                ", {} unreachable cell{}",
                self.unreachable.len(),
                if self.unreachable.len() == 1 { "" } else { "s" }
            )?;
        }
        Ok(())
    }
}
