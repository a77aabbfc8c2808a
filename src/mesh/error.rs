//! Why a dungeon could not be meshed.

use crate::dungeon::DungeonError;

/// A dungeon or option the mesh builder refuses.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MeshError {
    /// A stair the dungeon reports as a problem (off an octagon, on the top level, or
    /// landing on rock): its shaft and hole cannot be built.
    #[error(transparent)]
    Stair(DungeonError),
    /// A column the dungeon reports as a problem ([`DungeonError::VoidUnsupported`],
    /// [`DungeonError::DoorIntoVoid`]): a void over nothing carved, or a door whose wall
    /// would stop under a slab that is not there.
    #[error(transparent)]
    Column(DungeonError),
    /// A level the dungeon has not ([`crate::mesh::level_surface`]).
    #[error(transparent)]
    Level(DungeonError),
    /// The mesh would have more triangles than [`crate::mesh::MeshOptions::max_triangles`]
    /// (estimated before anything is built, so that a huge dungeon is refused instead of
    /// running out of memory).
    #[error(
        "the mesh would have up to {estimate} triangles, over the limit of {limit} \
         (MeshOptions::max_triangles; raise it with --max-triangles)"
    )]
    TooLarge {
        /// Triangles estimated ([`crate::mesh::estimated_triangles`], an upper estimate).
        estimate: u64,
        /// The limit.
        limit: u64,
    },
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
