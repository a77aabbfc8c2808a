//! The wgpu viewer: a window with orbit, top and first-person walkthrough cameras, level
//! modes and a path overlay, and headless screenshots. Behind the `viewer` feature.
//!
//! The renderer draws into any `&TextureView`, so the window ([`window`]) and the
//! screenshot ([`screenshot()`]) share it. Collision and walking live in the core
//! ([`crate::walk`]), so they are tested without a GPU.

pub mod camera;
pub mod chunks;
pub mod doors;
pub mod edit;
mod error;
pub mod focus;
pub mod gpu;
pub mod hud;
mod input;
pub mod keys;
pub mod limits;
pub mod markers;
pub mod memory;
pub mod options;
pub mod palette;
mod pipeline;
pub mod renderer;
pub mod room_tints;
pub mod scene;
pub mod screenshot;
pub mod state;
pub mod textures;
pub mod torchlight;
pub mod window;

pub use error::ViewerError;
pub use options::{Prepared, ViewOptions, export_view, offscreen_view, path_ribbon, prepare, screenshot};
