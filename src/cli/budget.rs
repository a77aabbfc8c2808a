//! Work budgets of the commands whose cost grows with the dungeon and that have no
//! library-side limit: the path graph (`octile path`), the SVG plan (`octile plan`) and
//! the room graph and region labels (`octile info`, `octile edit`). Each counts the
//! dungeon's carved cells (one pass, no allocation per cell) and refuses a dungeon past its
//! flag's limit before the work is done. Meshing has its own budget in the library
//! (`MeshOptions::max_triangles`).

use anyhow::bail;
use octile::dungeon::Dungeon;

/// Default of `octile path --max-nodes`: 16 million path graph nodes (the graph takes about
/// 130 bytes a node, so about 2 GB).
pub const DEFAULT_MAX_NODES: u64 = 16_000_000;

/// Default of `octile plan --max-svg-bytes`: 512 MiB of SVG (the drawing holds about 2.5
/// times its size in memory while it is written).
pub const DEFAULT_MAX_SVG_BYTES: u64 = 512 * 1024 * 1024;

/// Default of `--max-cells` (`octile info`, `octile edit`): 6 million carved cells. The
/// room graph and the region labels take about 200 bytes of memory a carved cell (measured
/// on an all-floor dungeon; about 500 for `info --json`, which lists every room's cells), so
/// the default stays within about 3 GB. The largest dungeon the format allows (4096 x 4096
/// octagons of floor, 33.5 million cells) is over it.
pub const DEFAULT_MAX_CELLS: u64 = 6_000_000;

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

/// Refuses a plan whose SVG is estimated over `max_bytes`: the levels (estimated from the
/// carved cells) and `shade` bytes of field-of-view shading (`octile::plan::fov_svg_bytes`,
/// 0 without `--fov`).
///
/// # Errors
/// The estimate is over `max_bytes`.
pub fn check_svg_bytes(dungeon: &Dungeon, shade: u64, max_bytes: u64) -> anyhow::Result<()> {
    let bytes = carved_cells(dungeon).saturating_mul(SVG_BYTES_PER_CELL).saturating_add(shade);
    if bytes > max_bytes {
        let with = if shade > 0 { format!(" ({shade} of them the --fov shading)") } else { String::new() };
        bail!(
            "the plan would be about {bytes} bytes of SVG{with}, over the limit of {max_bytes}; \
             raise it with --max-svg-bytes"
        );
    }
    Ok(())
}

/// Refuses to label the regions and rooms of a dungeon of more than `max_cells` carved
/// cells: `work` says what the command would do (`the room graph`, `the region labels`).
///
/// # Errors
/// The dungeon has more carved cells than `max_cells`.
pub fn check_cells(dungeon: &Dungeon, max_cells: u64, work: &str) -> anyhow::Result<()> {
    let cells = carved_cells(dungeon);
    if cells > max_cells {
        bail!(
            "{work} would cover {cells} carved cells, over the limit of {max_cells}; \
             raise it with --max-cells (about 200 bytes of memory a cell, 500 for info --json)"
        );
    }
    Ok(())
}
