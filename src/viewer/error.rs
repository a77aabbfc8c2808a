//! Errors of the viewer.

use std::path::PathBuf;

/// Why the viewer could not show or capture a dungeon.
#[derive(Debug, thiserror::Error)]
pub enum ViewerError {
    /// No GPU adapter (not even a CPU one such as lavapipe) is available.
    #[error(
        "no GPU adapter found ({reason}); install a Vulkan driver (for example mesa-vulkan-drivers) or run with a GPU"
    )]
    NoAdapter {
        /// What wgpu said.
        reason: String,
    },
    /// The adapter refused to create a device.
    #[error("adapter {adapter:?} refused a device: {reason}")]
    Device {
        /// The adapter's name.
        adapter: String,
        /// What wgpu said.
        reason: String,
    },
    /// An image size is zero or larger than the adapter allows.
    #[error("image size {width}x{height} is not between 1x1 and {max}x{max}")]
    BadSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// Largest side the adapter supports.
        max: u32,
    },
    /// A level that the dungeon does not have.
    #[error("level {level} does not exist: the dungeon has {levels} level(s)")]
    NoSuchLevel {
        /// Requested level.
        level: u16,
        /// Levels in the dungeon.
        levels: u16,
    },
    /// A `--path` cell the pathing core refuses (off the dungeon, or not a cell).
    #[error("--path: {0}")]
    Path(#[from] crate::path::PathError),
    /// No walkable route joins the two cells of `--path`.
    #[error("no walkable route from {from} to {to}")]
    NoRoute {
        /// Start cell.
        from: crate::grid::Pos,
        /// Goal cell.
        to: crate::grid::Pos,
    },
    /// Reading the rendered image back failed.
    #[error("reading the rendered {width}x{height} image back failed: {reason}")]
    Readback {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// What went wrong.
        reason: String,
    },
    /// Encoding the PNG failed.
    #[error("encoding {path}: {reason}")]
    Png {
        /// The file being written.
        path: PathBuf,
        /// What the encoder said.
        reason: String,
    },
    /// The window or its event loop could not be created.
    #[error("window: {reason}")]
    Window {
        /// What winit or wgpu said.
        reason: String,
    },
    /// Building the mesh failed.
    #[error(transparent)]
    Mesh(#[from] crate::mesh::MeshError),
    /// Exporting what the viewer shows failed.
    #[error(transparent)]
    Export(#[from] crate::export::ExportError),
    /// Writing the file failed.
    #[error(transparent)]
    Write(#[from] crate::io::WriteError),
}
