#![doc = include_str!("../README.md")]

pub mod dungeon;
pub mod edit;
pub mod error;
pub mod export;
pub mod flow;
pub mod format;
pub mod generate;
pub mod geometry;
pub mod grid;
pub mod io;
pub mod mesh;
pub mod path;
pub mod plan;
pub mod rooms;
pub mod sight;
// The viewer draws and times frames: platform trig and `Instant` are its business, and no
// byte-identical output comes from it (clippy.toml keeps them out of everything else).
#[cfg(feature = "viewer")]
#[allow(clippy::disallowed_methods, clippy::disallowed_types)]
pub mod viewer;
pub mod walk;
pub mod wfc;

pub use error::Error;
