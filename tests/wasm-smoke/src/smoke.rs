//! What the wasm32 smoke test computes, in safe Rust on octile's public API alone. The
//! cdylib (`lib.rs`) exports it to node; octile's native test `tests/wasm_smoke.rs` includes
//! this file and checks the same numbers, in `expected.json`.

use octile::dungeon::Dungeon;
use octile::generate::{GenerateOptions, generate};
use octile::path::{AStar, DijkstraMap, MapBounds, PathGraph, PathRules, UNREACHED};
use octile::sight::field_of_view;

/// The names of the numbers [`smoke`] returns, in order.
pub const NAMES: [&str; 10] = [
    "maze_json_fnv",
    "maze_path_steps",
    "maze_path_cost",
    "maze_map_reached",
    "maze_map_sum",
    "maze_fov_cells",
    "maze_fov_fnv",
    "rooms_json_fnv",
    "rooms_path_cost",
    "rooms_count",
];

/// FNV-1a, 64 bits: a checksum that is the same on every platform.
fn fnv(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The dungeon file's checksum, then A* from the entrance to the exit (steps, cost), a
/// Dijkstra map from the entrance (cells reached, sum of values), and the field of view of
/// 40 m from the entrance (cells, checksum of their slots).
fn queries(d: &Dungeon) -> Result<[u64; 7], String> {
    let text = |e: octile::Error| e.to_string();
    let (entrance, exit) = (d.entrance().ok_or("no entrance")?, d.exit().ok_or("no exit")?);
    let rules = PathRules { open_doors: true };
    let graph = PathGraph::new(d).map_err(|e| text(e.into()))?;
    let route = AStar::new().find(&graph, entrance, exit, &rules).map_err(|e| text(e.into()))?;
    let (steps, cost) = route.map_or((0, 0), |r| (r.steps.len() as u64, r.cost));
    let map = DijkstraMap::new(&graph, &[entrance], &MapBounds::everywhere(&graph), &rules)
        .map_err(|e| text(e.into()))?;
    let reached: Vec<i64> = map.values().iter().copied().filter(|&v| v != UNREACHED).collect();
    let sum = reached.iter().map(|&v| v as u64).fold(0u64, u64::wrapping_add);
    let seen = field_of_view(d, entrance, 40.0).map_err(|e| text(e.into()))?;
    let seen_fnv = fnv(seen.iter().flat_map(|s| [s.row.to_le_bytes(), s.col.to_le_bytes()].concat()));
    let json = fnv(octile::format::to_json(d).into_bytes());
    Ok([json, steps, cost, reached.len() as u64, sum, seen.len() as u64, seen_fnv])
}

/// Every number of [`NAMES`] for `seed`: a 10x10x2 maze with doors (`generate`) and a
/// 12x12x2 room graph (`flow::realise` of the default grammar's spec).
///
/// # Errors
/// The message of whatever octile refuses (nothing is expected to be refused).
pub fn smoke(seed: u64) -> Result<[u64; 10], String> {
    let options = GenerateOptions { seed, levels: 2, cols: 10, rows: 10, doors: 0.5, ..Default::default() };
    let maze = queries(&generate(&options, &mut |_| {}).map_err(|e| e.to_string())?)?;
    let options = GenerateOptions { seed, levels: 2, cols: 12, rows: 12, ..Default::default() };
    let spec = octile::flow::write(octile::flow::Grammar::Default, 12, 12, 2, 2, seed)
        .ok_or("the default grammar has no spec for 12x12x2")?;
    let flow = spec.check(&octile::geometry::Proportions::default()).map_err(|e| e.to_string())?;
    let rooms = octile::flow::realise(&flow, &options, &mut |_| {}).map_err(|e| e.to_string())?;
    let room_queries = queries(&rooms)?;
    let mut out = [0; 10];
    out[..7].copy_from_slice(&maze);
    out[7] = room_queries[0];
    out[8] = room_queries[2];
    out[9] = rooms.rooms().len() as u64;
    Ok(out)
}
