//! Pathing over the multi-level octile graph (docs/design.md, "Pathing" and "Determinism"): the graph read
//! from a dungeon, A*, Dijkstra maps, and connected regions.

mod astar;
mod astar_record;
mod build;
mod connectivity;
mod csr;
mod dijkstra_map;
mod error;
mod flood;
mod graph;
mod heuristic;
mod landmarks;
mod overlay;
mod queue;
mod regions;
pub(crate) mod search;
mod update;
mod window_map;

pub use astar::{AStar, Route, find_path};
pub(crate) use build::StepList;
pub(crate) use connectivity::node_positions;
pub use connectivity::{dungeon_regions, node_index, node_pos};
pub use dijkstra_map::{DijkstraMap, MapBounds, OwnedDijkstraMap, UNREACHED};
pub use error::PathError;
pub use graph::{
    LONG_STEP, NodeId, PathGraph, PathRules, SHORT_STEP, fall_cost, ramp_climb_cost, stair_cost,
};
pub use heuristic::{Heuristic, octile_milli};
pub use overlay::{CostChange, Overlay, RegistryCosts, Step, StepCosts};
pub use regions::{RegionId, Regions, label_regions};
pub use update::EdgeUpdate;
pub use window_map::WindowMap;
