#![cfg_attr(feature = "export", doc = include_str!("../README.md"))]
#![cfg_attr(
    not(feature = "export"),
    doc = "Octile's runtime core (no `export` feature): the octile grid, its geometry, the \
           dungeon model and its file format, path queries, sight and targeting, room graphs \
           and seeded generation, in pure Rust without threads; it builds for \
           wasm32-unknown-unknown. The `export` feature adds meshes and glTF export, and the \
           crate's README (its documentation with that feature) lists every tier.

```
use octile::generate::{GenerateOptions, generate};
use octile::path::{PathRules, find_path};
use octile::sight::field_of_view;

let options = GenerateOptions { seed: 7, levels: 2, cols: 6, rows: 6, ..Default::default() };
let dungeon = generate(&options, &mut |_progress| {})?;
let (entrance, exit) = (dungeon.entrance().unwrap(), dungeon.exit().unwrap());
let route = find_path(&dungeon, entrance, exit, &PathRules { open_doors: true })?;
assert!(route.is_some(), \"generate returns one region\");
assert!(field_of_view(&dungeon, entrance, 40.0)?.contains_pos(entrance));
# Ok::<(), octile::Error>(())
```"
)]

pub mod dungeon;
#[cfg(feature = "export")]
pub mod edit;
pub mod error;
#[cfg(feature = "export")]
pub mod export;
pub mod flow;
pub mod format;
pub mod generate;
pub mod geometry;
pub mod grid;
pub mod io;
#[cfg(feature = "export")]
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
