//! Octile builds 3D multi-level dungeons on the octile grid (octagons joined by 45-degree
//! connector diamonds) and exports them as glTF.
//!
//! The pipeline flows one way:
//!
//! ```text
//! grid -> (wfc generation, path queries) -> dungeon -> mesh -> export (.glb) | viewer
//! ```
//!
//! ```
//! use octile::dungeon::{Dungeon, Fill};
//! use octile::geometry::Proportions;
//! use octile::grid::Pos;
//!
//! let dungeon = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
//! assert_eq!(dungeon.levels(), 2);
//! assert!(dungeon.tile_def(Pos::new(0, 0, 0)).unwrap().walkable);
//! ```

#![deny(missing_docs)]

pub mod dungeon;
pub mod error;
pub mod export;
pub mod format;
pub mod generate;
pub mod geometry;
pub mod grid;
pub mod io;
pub mod mesh;
pub mod path;
pub mod plan;
#[cfg(feature = "viewer")]
pub mod viewer;
pub mod walk;
pub mod wfc;

pub use error::Error;
