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
#[cfg(feature = "viewer")]
pub mod viewer;
pub mod walk;
pub mod wfc;

pub use error::Error;
