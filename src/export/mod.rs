//! glTF export (placeholder while the mesh builds).

/// Export failures.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Meshing failed.
    #[error(transparent)]
    Mesh(#[from] crate::mesh::MeshError),
}
