//! What [`super::build_with_progress`] reports while it works.

/// How far a mesh build has got, reported through the progress callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshProgress {
    /// `done` of `total` levels are built. Reported once per level, in level order
    /// (`done` runs 1, 2, ..., `total` whatever order the worker threads finish in).
    Levels {
        /// Levels built so far (levels `0..done`, each without error).
        done: u16,
        /// All levels of the dungeon.
        total: u16,
    },
}
