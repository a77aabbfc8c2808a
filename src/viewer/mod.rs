//! placeholder
pub mod route;
