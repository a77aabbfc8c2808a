//! Errors of the viewer.

use std::path::PathBuf;

/// Why the viewer could not show or capture a dungeon.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    /// An image or window size is zero or larger than the device allows.
    #[error(
        "size {width}x{height} is not between 1x1 and {max}x{max} (the device's max_texture_dimension_2d); choose a smaller --size"
    )]
    BadSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// Largest side the adapter supports.
        max: u32,
    },
    /// A screenshot whose read-back buffer is larger than the device allows.
    #[error(
        "a {width}x{height} screenshot is read back through a {bytes}-byte buffer, more than the device's max_buffer_size of {max} bytes; choose a smaller --size"
    )]
    ReadbackTooLarge {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// Bytes of the read-back buffer (rows padded to 256 bytes).
        bytes: u64,
        /// The device's `max_buffer_size` (bytes).
        max: u64,
    },
    /// A level whose mesh does not fit in one GPU buffer.
    #[error(
        "level {level} is too large to draw: its {what} need {bytes} bytes, more than the device's max_buffer_size of {max} bytes; export it with `octile export` instead"
    )]
    LevelTooLarge {
        /// The level.
        level: usize,
        /// What the buffer holds ("coarse vertices", "coarse indices", "outline").
        what: &'static str,
        /// Bytes the buffer would need.
        bytes: u64,
        /// The device's `max_buffer_size` (bytes).
        max: u64,
    },
    /// `OCTILE_MSAA` holds a sample count the viewer does not offer.
    #[error("OCTILE_MSAA={value:?} is not a sample count the viewer offers: use 1 (off) or 4")]
    BadMsaa {
        /// The variable's value.
        value: String,
    },
    /// `OCTILE_VIEW_CHUNKS` names no chunk policy.
    #[error("OCTILE_VIEW_CHUNKS={value:?} is not a chunk policy: use all, culled or detail")]
    BadChunks {
        /// The variable's value.
        value: String,
    },
    /// A window asked to render zero frames.
    #[error("--frames 0: give at least 1 frame to render before exiting")]
    NoFrames,
    /// A screenshot file whose extension is not `.png` (the viewer writes PNG only).
    #[error("{path}: screenshots are written as PNG; give the file a .png extension")]
    NotPng {
        /// The file asked for.
        path: PathBuf,
    },
    /// No display to open a window on.
    #[error("window: cannot open one ({reason}); use --screenshot OUT.png to render without a window")]
    NoDisplay {
        /// What the window system said.
        reason: String,
    },
    /// The walkthrough cannot start in this dungeon.
    #[error(transparent)]
    Walk(#[from] crate::walk::WalkError),
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
    /// `--critical-path` on a dungeon whose entrance and exit no walk joins, every lock
    /// open (or that has no entrance or exit).
    #[error("no critical path: no walk joins the entrance to the exit, even with every lock open")]
    NoCriticalPath,
    /// No walkable route joins the two cells of `--path`.
    #[error("no walkable route from {from} to {to}")]
    NoRoute {
        /// Start cell.
        from: crate::grid::Pos,
        /// Goal cell.
        to: crate::grid::Pos,
    },
    /// Only closed doors stand between the two cells of `--path`.
    #[error(
        "no walkable route from {from} to {to}: closed doors block it (pass --open-doors, or open them with F in walk mode)"
    )]
    DoorBlocksRoute {
        /// Start cell.
        from: crate::grid::Pos,
        /// Goal cell.
        to: crate::grid::Pos,
    },
    /// A door could not be opened or closed.
    #[error("door: {0}")]
    Dungeon(#[from] crate::dungeon::DungeonError),
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

/// What winit says in an OS error, without the "os error at FILE:LINE: " prefix that names
/// a source file in the cargo registry.
pub(crate) fn os_reason(text: &str) -> String {
    let Some(rest) = text.strip_prefix("os error at ") else { return text.to_owned() };
    // The location is "FILE:LINE: ": skip to the first ": " after a run of digits.
    let mut at = 0;
    while let Some(i) = rest[at..].find(": ") {
        let before = &rest[..at + i];
        if before.rsplit(':').next().is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) {
            return rest[at + i + 2..].trim_end_matches('.').to_owned();
        }
        at += i + 2;
    }
    text.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_errors_lose_their_source_location() {
        let winit = "os error at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/winit-0.30.13/src/platform_impl/linux/mod.rs:765: neither WAYLAND_DISPLAY nor WAYLAND_SOCKET nor DISPLAY is set.";
        assert_eq!(os_reason(winit), "neither WAYLAND_DISPLAY nor WAYLAND_SOCKET nor DISPLAY is set");
        assert_eq!(os_reason("os error at a: b: c"), "os error at a: b: c", "no line number: kept whole");
        assert_eq!(os_reason("something else"), "something else");
        let e = ViewerError::NoDisplay { reason: os_reason(winit) };
        assert!(e.to_string().contains("--screenshot") && !e.to_string().contains(".cargo"), "{e}");
    }
}
