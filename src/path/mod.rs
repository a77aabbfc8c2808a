//! Pathing over the multi-level octile graph (DESIGN.md section 5): regions for now.

mod connectivity;
mod regions;

pub use connectivity::{dungeon_regions, node_index, node_pos};
pub use regions::{BitSet, RegionId, Regions, flood, label_regions};
