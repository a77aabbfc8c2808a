//! Why a dungeon could not be exported.

use std::path::PathBuf;

use crate::grid::Pos;

/// An export that failed, saying where.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// Meshing failed.
    #[error(transparent)]
    Mesh(#[from] crate::mesh::MeshError),
    /// Writing the file failed.
    #[error(transparent)]
    Write(#[from] crate::io::WriteError),
    /// The output path cannot be used.
    #[error("cannot export to {path}: {reason}")]
    BadPath {
        /// The path given.
        path: PathBuf,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A route position that is not a cell of the dungeon.
    #[error("route step {index} at {pos} is not a cell of the dungeon")]
    RouteOffGrid {
        /// Index of the step in the route.
        index: usize,
        /// The position given.
        pos: Pos,
    },
    /// A mesh given to [`super::Export::mesh`] that is not the dungeon's: its level count
    /// differs.
    #[error(
        "the mesh has {mesh_levels} level(s) but the dungeon has {levels}; export the dungeon's own mesh"
    )]
    MeshMismatch {
        /// Levels in the mesh.
        mesh_levels: usize,
        /// Levels in the dungeon.
        levels: u16,
    },
    /// The mesh is too large for the glTF container.
    #[error("{what} is {size} bytes, over the glTF limit of {limit}")]
    TooLarge {
        /// Which part overflows.
        what: &'static str,
        /// Its size.
        size: u64,
        /// The most allowed.
        limit: u64,
    },
}
