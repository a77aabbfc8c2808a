//! Why a dungeon could not be meshed.

/// A dungeon or option the mesh builder refuses.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// A stair on the top level has nowhere to lead.
    #[error("level {level}: stair at row {row}, col {col} is on the top level; a stair needs a level above")]
    StairOffTop {
        /// Level of the stair.
        level: u16,
        /// Slot row.
        row: u32,
        /// Slot column.
        col: u32,
    },
    /// A stair whose octagon on the level above is rock.
    #[error("level {level}: stair at row {row}, col {col} leads into rock on level {}", level + 1)]
    StairLandsOnRock {
        /// Level of the stair.
        level: u16,
        /// Slot row.
        row: u32,
        /// Slot column.
        col: u32,
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
