//! The crate-wide error, wrapping one error enum per stage.

/// Any error of the octile library.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    /// Path queries.
    #[error(transparent)]
    Path(#[from] crate::path::PathError),
    /// Writing a file.
    #[error(transparent)]
    Write(#[from] crate::io::WriteError),
    /// Mesh extrusion.
    #[cfg(feature = "export")]
    #[error(transparent)]
    Mesh(#[from] crate::mesh::MeshError),
    /// glTF export.
    #[cfg(feature = "export")]
    #[error(transparent)]
    Export(#[from] crate::export::ExportError),
    /// WFC setup or solving.
    #[error(transparent)]
    Solve(#[from] crate::wfc::SolveError),
    /// Dungeon generation.
    #[error(transparent)]
    Generate(#[from] crate::generate::GenerateError),
    /// Line of sight, field of view and targeting.
    #[error(transparent)]
    Sight(#[from] crate::sight::SightError),
    /// The walk model (a body that cannot walk these rooms).
    #[error(transparent)]
    Walk(#[from] crate::walk::WalkError),
    /// The viewer (window, GPU, screenshots).
    #[cfg(feature = "viewer")]
    #[error(transparent)]
    Viewer(#[from] crate::viewer::ViewerError),
}
