//! `SightError`: what a sight query refuses, and where.

use crate::dungeon::DungeonError;

/// Why a line of sight, field of view or footprint query was refused.
#[derive(Debug, thiserror::Error, PartialEq)]
#[non_exhaustive]
pub enum SightError {
    /// A position is not a cell of the dungeon (a level out of range, a slot off the grid
    /// or a Void slot).
    #[error(transparent)]
    Position(#[from] DungeonError),
    /// Two positions of a query that stays on one level (a bolt, a beam, a footprint) are
    /// on different levels.
    #[error("this query stays on one level: {from_level} and {to_level} differ")]
    LevelMismatch {
        /// The level of the first position.
        from_level: u16,
        /// The level of the second position.
        to_level: u16,
    },
    /// A world point is not finite.
    #[error("level {level}: point ({x}, {z}) is not finite")]
    NonFinitePoint {
        /// The level the point was given on.
        level: u16,
        /// World `x` (metres).
        x: f64,
        /// World `z` (metres).
        z: f64,
    },
    /// A world point in 3D is not finite.
    #[error("point ({x}, {y}, {z}) is not finite")]
    NonFiniteWorldPoint {
        /// World `x` (metres).
        x: f64,
        /// World `y` (metres, up).
        y: f64,
        /// World `z` (metres).
        z: f64,
    },
    /// A radius or angle is negative or not finite.
    #[error("{what} must be a finite number at least 0, got {value}")]
    BadMeasure {
        /// Which input (`"radius"`, `"half angle"`).
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// The dungeon uses tight spacing (no seams): its walls have no thickness, which sight
    /// does not model yet.
    #[error("sight needs seams between cells; this dungeon uses tight spacing (seam gap 0)")]
    TightSpacing,
}
