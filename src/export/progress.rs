//! What an export ([`super::Export::progress`]) reports while it works.

use crate::mesh::MeshProgress;

/// How far an export has got, reported through the progress callback. The stages come in
/// this order: every `Mesh` report, every `Document` report, then one `Writing` per file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Building the mesh (see [`crate::mesh::build_with_progress`]).
    Mesh(MeshProgress),
    /// `done` of `total` levels are packed into the glTF buffer (once per level, in order).
    Document {
        /// Levels packed so far.
        done: usize,
        /// All levels.
        total: usize,
    },
    /// About to write one file of `bytes` bytes (a `.gltf` export writes the `.bin`, then
    /// the JSON).
    Writing {
        /// The file's size in bytes.
        bytes: usize,
    },
}
