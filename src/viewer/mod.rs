//! The wgpu viewer: a window with orbit, top and first-person walkthrough cameras, level
//! modes and a path overlay, and headless screenshots. Behind the `viewer` feature.
//!
//! What an application uses is re-exported here: [`run`] opens the window, [`screenshot()`]
//! and [`offscreen_view`] draw without one, with [`ViewOptions`] (its [`CameraKind`],
//! [`LevelMode`], [`MapMode`], [`AdapterPreference`]), [`Shot`], [`keys_help`] and
//! [`ViewerError`]. The modules still public beside them are the renderer's parts that the
//! GPU tests and benches reach into; the window's input, HUD, key table, focus, limits,
//! scene, textures, state and window are private.
//!
//! The renderer draws into any `&TextureView`, so the window ([`run`]) and the
//! screenshot ([`screenshot()`]) share it. Collision and walking live in the core
//! ([`crate::walk`]), so they are tested without a GPU.

pub mod camera;
pub mod chunks;
pub mod doors;
pub mod edit;
mod error;
pub(crate) mod focus;
pub mod gpu;
pub(crate) mod hud;
mod input;
pub(crate) mod keys;
pub(crate) mod limits;
pub mod markers;
pub mod memory;
pub mod options;
pub mod palette;
mod pipeline;
pub mod renderer;
pub mod room_tints;
pub(crate) mod scene;
pub mod screenshot;
pub(crate) mod state;
pub(crate) mod textures;
pub mod torchlight;
pub(crate) mod window;

pub use camera::CameraKind;
pub use error::ViewerError;
pub use gpu::AdapterPreference;
pub use options::{
    DEFAULT_LOOK_SENSITIVITY, Prepared, ViewOptions, export_view, offscreen_view, path_ribbon, prepare,
    screenshot,
};
pub use screenshot::Shot;
pub use state::{LevelMode, MapMode};
pub use window::{keys_help, run};
