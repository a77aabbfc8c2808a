//! Plans: every level of a dungeon drawn side by side as SVG, from `geometry::Layout`
//! polygons (octagons, diamonds, open seams, walls as thick lines, doors, stairs, entrance
//! and exit, a metre scale).

mod svg;

pub use svg::{PlanOptions, to_svg};
