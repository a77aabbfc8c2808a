//! Why a dungeon could not be meshed.

use crate::dungeon::DungeonError;

/// A dungeon or option the mesh builder refuses.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// A stair the dungeon reports as a problem (off an octagon, on the top level, or
    /// landing on rock): its shaft and hole cannot be built.
    #[error(transparent)]
    Stair(DungeonError),
    /// A mesh option out of range.
    #[error("mesh option `{name}` = {value}: {reason}")]
    BadOption {
        /// Option name, as in [`crate::mesh::MeshOptions`].
        name: &'static str,
        /// The value given.
        value: f64,
        /// What it must be.
        reason: &'static str,
    },
}
