//! Doors where a room meets a corridor: the sites come from the room
//! graph, the choice from a seeded RNG and a density, so the same dungeon, RNG state and
//! density give the same doors.

use rand_core::Rng;

use super::{PortalKind, PortalPlace, RoomGraph};
use crate::dungeon::{Carve, Dungeon, DungeonError, EdgeStateId};
use crate::grid::{EdgeId, Pos};

/// Why doors cannot be placed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DoorError {
    /// The density is not a number in `0..=1`.
    #[error("door density {density} must be a number from 0 (no doors) to 1 (every site)")]
    BadDensity {
        /// The density given.
        density: f64,
    },
    /// The registry has no edge state that carves a door.
    #[error("the registry has no door edge state (carve \"door\")")]
    NoDoorState,
    /// The dungeon refused an edge change.
    #[error(transparent)]
    Dungeon(#[from] DungeonError),
}

/// The seams where a door may go, in the graph's portal order: open portals between a room
/// and a corridor whose two cells are neither a stair nor the hole above one (so no door
/// stands on a stair's landing or exit wall). `(level, edge)` each.
#[must_use]
pub fn door_sites(dungeon: &Dungeon, graph: &RoomGraph) -> Vec<(u16, EdgeId)> {
    let dims = dungeon.dims();
    let clear = |pos: Pos| !dungeon.is_stair(pos) && dungeon.stair_below(pos).is_none();
    graph
        .portals()
        .iter()
        .filter(|p| p.kind == PortalKind::Open)
        .filter_map(|p| match p.place {
            PortalPlace::Seam { level, edge } => Some((level, edge)),
            PortalPlace::Stair { .. } => None,
        })
        .filter(|&(level, edge)| {
            dims.edge_sides(edge).is_ok_and(|sides| sides.iter().all(|&(slot, _)| clear(Pos { level, slot })))
        })
        .collect()
}

/// Puts a door (the registry's first edge state that carves a door) on each of
/// [`door_sites`] with probability `density`: one draw from `rng` per site, in site order,
/// whatever the density, so a higher density keeps every door of a lower one. Doors never
/// change the room graph (a door's seam is carved like an open one), nor connectivity (a
/// closed door is passable). Returns how many doors were placed.
///
/// # Errors
/// [`DoorError::BadDensity`] for a density outside `0..=1` or NaN, [`DoorError::NoDoorState`]
/// when the registry has no door.
pub fn place_doors(dungeon: &mut Dungeon, density: f64, rng: &mut impl Rng) -> Result<usize, DoorError> {
    place_doors_by(dungeon, density, rng, None)
}

/// [`place_doors`] with `graph`, the room graph of `dungeon` built already (the generator
/// builds it beside other work), or `None` to build it here.
///
/// # Errors
/// As [`place_doors`].
pub(crate) fn place_doors_by(
    dungeon: &mut Dungeon,
    density: f64,
    rng: &mut impl Rng,
    graph: Option<&RoomGraph>,
) -> Result<usize, DoorError> {
    if !(0.0..=1.0).contains(&density) {
        return Err(DoorError::BadDensity { density });
    }
    let door = dungeon
        .registry()
        .edges()
        .iter()
        .position(|e| e.carve == Carve::Door)
        .and_then(|i| u8::try_from(i).ok())
        .map(EdgeStateId)
        .ok_or(DoorError::NoDoorState)?;
    let sites = match graph {
        Some(graph) => door_sites(dungeon, graph),
        None => door_sites(dungeon, &RoomGraph::of(dungeon)),
    };
    // density * 2^64 as a threshold on a uniform u64; 1.0 takes every draw.
    let threshold = density * 18_446_744_073_709_551_616.0;
    let mut placed = 0;
    for (level, edge) in sites {
        let draw = rng.next_u64();
        if density >= 1.0 || (draw as f64) < threshold {
            dungeon.set_edge_of(level, edge, door)?;
            placed += 1;
        }
    }
    Ok(placed)
}
