//! Octile builds 3D multi-level dungeons on the octile grid (octagons joined by 45-degree
//! connector diamonds) and exports them as glTF.
//!
//! The pipeline flows one way:
//!
//! ```text
//! grid -> (wfc generation, path queries) -> dungeon -> mesh -> export (.glb) | viewer
//! ```
//!
//! Generate a small two-level dungeon with a fixed seed, walk from its entrance to its exit,
//! extrude it and export it as a `.glb` in memory:
//!
//! ```
//! use octile::export::{ExportOptions, to_glb};
//! use octile::generate::{GenerateOptions, generate};
//! use octile::path::{PathRules, find_path};
//!
//! let options = GenerateOptions { seed: 7, levels: 2, cols: 6, rows: 6, ..Default::default() };
//! let dungeon = generate(&options, &mut |_progress| {})?;
//! let (entrance, exit) = (dungeon.entrance().unwrap(), dungeon.exit().unwrap());
//! let route = find_path(&dungeon, entrance, exit, &PathRules::default())?.expect("generated dungeons are connected");
//! assert_eq!(route.steps.last(), Some(&exit));
//!
//! let mesh = octile::mesh::build(&dungeon, &Default::default())?;
//! assert_eq!(mesh.levels.len(), 2);
//! let glb = to_glb(&dungeon, &ExportOptions::default())?;
//! assert_eq!(&glb[0..4], b"glTF");
//! // The same seed and options give the same bytes.
//! assert_eq!(glb, to_glb(&generate(&options, &mut |_| {})?, &ExportOptions::default())?);
//! # Ok::<(), octile::Error>(())
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
pub mod sight;
#[cfg(feature = "viewer")]
pub mod viewer;
pub mod walk;
pub mod wfc;

pub use error::Error;
