//! Mesh extrusion: the dungeon's carved volume as triangles per level and material role.

mod types;

pub use types::{DungeonMesh, LevelMesh, MaterialRole, Primitive, Vertex};
mod build;
pub use build::{MeshError, MeshOptions, build};
