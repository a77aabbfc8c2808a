//! Work budgets of the commands whose cost grows with the dungeon and that have no
//! library-side limit: the path graph (`octile path`) and the SVG plan (`octile plan`).
//! Each counts the dungeon's carved cells (one pass, no allocation per cell) and refuses a
//! dungeon past its flag's limit before the work is done. Meshing has its own budget in the
//! library (`MeshOptions::max_triangles`).

use anyhow::bail;
use octile::dungeon::Dungeon;

/// Default of `octile path --max-nodes`: 16 million path graph nodes (the graph takes about
/// 130 bytes a node, so about 2 GB).
pub const DEFAULT_MAX_NODES: u64 = 16_000_000;

/// Default of `octile plan --max-svg-bytes`: 512 MiB of SVG (the drawing holds about 2.5
/// times its size in memory while it is written).
pub const DEFAULT_MAX_SVG_BYTES: u64 = 512 * 1024 * 1024;

/// Bytes of SVG per carved cell, a little over the most measured (about 560 on an all-floor
/// dungeon).
const SVG_BYTES_PER_CELL: u64 = 640;

/// The carved cells of every level: the path graph's node count for passable tiles, and
/// what the plan draws.
pub fn carved_cells(dungeon: &Dungeon) -> u64 {
    dungeon.cells().filter(|&p| dungeon.is_carved(p)).count() as u64
}

/// Refuses a path graph of more than `max_nodes` nodes (counted as carved cells, which is
/// at least the graph's nodes).
///
/// # Errors
/// The dungeon has more carved cells than `max_nodes`.
pub fn check_path_nodes(dungeon: &Dungeon, max_nodes: u64) -> anyhow::Result<()> {
    let nodes = carved_cells(dungeon);
    if nodes > max_nodes {
        bail!(
            "the path graph would have up to {nodes} nodes (carved cells), over the limit of {max_nodes}; \
             raise it with --max-nodes (about 130 bytes of memory a node)"
        );
    }
    Ok(())
}

/// Refuses a plan whose SVG is estimated over `max_bytes`.
///
/// # Errors
/// The estimate is over `max_bytes`.
pub fn check_svg_bytes(dungeon: &Dungeon, max_bytes: u64) -> anyhow::Result<()> {
    let bytes = carved_cells(dungeon).saturating_mul(SVG_BYTES_PER_CELL);
    if bytes > max_bytes {
        bail!(
            "the plan would be about {bytes} bytes of SVG, over the limit of {max_bytes}; \
             raise it with --max-svg-bytes"
        );
    }
    Ok(())
}
