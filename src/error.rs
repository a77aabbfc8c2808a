//! The crate-wide error, wrapping one error enum per stage.

/// Any error of the octile library.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Grid addressing.
    #[error(transparent)]
    Grid(#[from] crate::grid::GridError),
    /// World geometry.
    #[error(transparent)]
    Geometry(#[from] crate::geometry::GeometryError),
    /// The dungeon model.
    #[error(transparent)]
    Dungeon(#[from] crate::dungeon::DungeonError),
    /// Dungeon files.
    #[error(transparent)]
    Format(#[from] crate::format::FormatError),
    /// Writing a file.
    #[error(transparent)]
    Write(#[from] crate::io::WriteError),
    /// The viewer (window, GPU, screenshots).
    #[cfg(feature = "viewer")]
    #[error(transparent)]
    Viewer(#[from] crate::viewer::ViewerError),
}
