//! Multi-level dungeon generation (docs/design.md, "Generation"; `docs/wfc.md`): each level is
//! solved with the `octile` tile set straight into a `Dungeon`, stairs join every pair of
//! adjacent levels with the exits the dungeon's stair table prefers, pockets are repaired
//! (or, where the shaft rule walls them off, filled) so every floor cell is reachable from
//! the entrance, loops are carved, and the exit is the reachable octagon on the last level
//! farthest from the entrance. A layout that is not one connected region is drawn again;
//! after too many, generation refuses with [`GenerateError::Disconnected`].

mod atria;
mod carve;
mod check;
mod connect;
mod distance;
mod error;
mod exits;
mod floor;
pub(crate) mod keep;
mod loops;
mod options;
mod palette;
mod pits;
mod ramps;
// Edit's repairs only (`edit` needs the `export` feature).
#[cfg(feature = "export")]
mod repair;
mod solve;

pub use atria::{Atrium, MIN_ATRIUM_CELLS, open_atria, open_atrium};
pub(crate) use carve::Locked;
pub use error::GenerateError;
pub use options::{DEFAULT_LOOP_GAIN, GenerateOptions, OCTAGONS_PER_STAIR};
pub use palette::{Palette, generate_in};
pub use pits::{Pit, open_pits};
pub use ramps::{OCTAGONS_PER_RAMP, cut_ramps};
#[cfg(feature = "export")]
pub(crate) use repair::join_level;

use std::cmp::Reverse;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use self::floor::{Floor, Near};
use self::solve::{Placement, Setup};
use crate::dungeon::{Dungeon, Fill};
use crate::grid::{Pos, SlotKind, Walls};
use crate::path::search::Search;
use crate::path::{DijkstraMap, MapBounds, PathGraph, PathRules, UNREACHED, node_index};
use crate::rooms::RoomGraph;
use crate::wfc::SolveProgress;

/// What generation is doing, reported through the progress callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Solving one level's tiles.
    Solving {
        /// The level.
        level: u16,
        /// All levels.
        levels: u16,
        /// The solver's progress on that level.
        solve: SolveProgress,
    },
    /// Joining pockets and carving loops on one level.
    Connecting {
        /// The level.
        level: u16,
    },
}

/// Generates a dungeon: every level solved, stairs placed, every floor cell reachable from
/// the entrance, entrance and exit set, seed recorded. Same options, same dungeon.
///
/// The result is always one connected region (as `octile info` counts) with its exit a
/// floor octagon on the last level, neither a hole nor the entrance.
///
/// # Errors
/// [`GenerateError::BadOption`] for options out of range (fewer than 2 octagons, no stairs
/// between levels, more stairs than fit), [`GenerateError::Tiles`] for weights or sizes the
/// solver refuses, [`GenerateError::Level`] when a level cannot be solved,
/// [`GenerateError::Disconnected`] when no layout of entrance and stairs connects (in
/// practice only on grids one octagon wide), [`GenerateError::Dungeon`] for the dungeon's
/// own limits.
///
/// ```
/// use octile::generate::{GenerateOptions, generate};
///
/// let options = GenerateOptions { seed: 7, levels: 2, cols: 8, rows: 8, ..Default::default() };
/// let dungeon = generate(&options, &mut |_| {}).unwrap();
/// assert_eq!(octile::path::dungeon_regions(&dungeon).count(), 1);
/// assert_eq!(dungeon.exit().unwrap().level, 1);
/// ```
pub fn generate(
    options: &GenerateOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Dungeon, GenerateError> {
    generate_with(options, None, Workers::DEFAULT, progress)
}

/// Generates a dungeon around a design (`octile generate --keep`): every pinned cell of
/// `design` keeps its tile and every edge it has (and stays pinned), tiles and edge states
/// matched by name, except that a pinned room no carved seam leaves gets one or two
/// doorways on walls facing unpinned cells; the rest is generated as [`generate`] does, on
/// every level. The design's entrance, exit and stairs stay where it has them (a level pair
/// gets only the stairs it lacks). The design decides the size, the level count and the
/// cut ratio (`options`' are replaced by its). No drawn stair, hole or entrance is placed
/// on a pinned cell or beside one. The result is one connected region, as [`generate`]'s.
///
/// # Errors
/// As [`generate`]; [`GenerateError::BadOption`] named `keep` when two pins contradict each
/// other (one's open seam needs a cell floor, the other's wall needs it rock), a pinned
/// room is walled in (no wall of it faces an unpinned cell a doorway could open onto) or
/// the pins leave no room for the stairs or the entrance; [`GenerateError::Disconnected`] when no
/// layout joins everything (pinned floor walled in by other pins, for instance).
pub fn generate_around(
    options: &GenerateOptions,
    design: &Dungeon,
    progress: &mut dyn FnMut(Progress),
) -> Result<Dungeon, GenerateError> {
    let dims = design.dims();
    let options = GenerateOptions {
        cols: dims.octagon_cols(),
        rows: dims.octagon_rows(),
        levels: u32::from(design.levels()),
        cut_ratio: design.proportions().cut_ratio,
        ..options.clone()
    };
    let keep = keep::Keep::of(design, options.seed)?;
    generate_with(&options, Some(&keep), Workers::DEFAULT, progress)
}

/// How a layout reads its path graph and its room graph: one after the other, or side by
/// side on two threads (the `threads` feature). Both are pure reads of the finished layout,
/// so the dungeon is byte-identical either way (a test generates it both ways).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Workers {
    /// On the calling thread, the path graph first (with `threads`, the test's reference).
    #[cfg_attr(all(feature = "threads", not(test)), allow(dead_code))]
    Serial,
    /// The room graph on a thread of its own beside the path graph.
    #[cfg(feature = "threads")]
    Threads,
}

impl Workers {
    /// What [`generate`] uses: two threads where the `threads` feature gives them.
    #[cfg(feature = "threads")]
    const DEFAULT: Workers = Workers::Threads;
    /// What [`generate`] uses: the calling thread alone (no `threads` feature).
    #[cfg(not(feature = "threads"))]
    const DEFAULT: Workers = Workers::Serial;

    /// The path graph and the room graph of `d`, whose cells' walls are `walls`.
    fn read_graphs(self, d: &Dungeon, walls: &Walls) -> (PathGraph, RoomGraph) {
        let path_graph = || {
            PathGraph::with_walls(d, walls).expect("invariant: the standard registry's step costs fit in u32")
        };
        match self {
            Workers::Serial => (path_graph(), RoomGraph::with_walls(d, walls)),
            #[cfg(feature = "threads")]
            Workers::Threads => std::thread::scope(|s| {
                let rooms = s.spawn(|| RoomGraph::with_walls(d, walls));
                let graph = path_graph();
                (graph, rooms.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            }),
        }
    }
}

/// [`generate`], keeping a design's pins when `keep` is given, reading each layout's graphs
/// as `workers` says.
fn generate_with(
    options: &GenerateOptions,
    keep: Option<&keep::Keep<'_>>,
    workers: Workers,
    progress: &mut dyn FnMut(Progress),
) -> Result<Dungeon, GenerateError> {
    let setup = solve::setup(options)?;
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let tries = layout_tries(options);
    let mut reason = String::new();
    for _ in 0..tries {
        match layout(&setup, options, keep, workers, &mut rng, progress)? {
            Ok((mut d, rooms)) => {
                add_doors(&mut d, &rooms, options.doors, &mut rng)?;
                if let Some(keep) = keep {
                    // Doors go on room-corridor seams, a pinned cell's among them.
                    keep.restore(&mut d)?;
                }
                return Ok(d);
            }
            Err(why) => reason = why,
        }
    }
    Err(GenerateError::Disconnected {
        cols: options.cols,
        rows: options.rows,
        levels: options.levels,
        stairs: options.stairs,
        seed: options.seed,
        tries,
        reason,
        advice: GenerateError::disconnected_advice(
            options.cols,
            options.rows,
            options.levels,
            keep.is_some(),
        ),
    })
}

/// Doors on the room-corridor seams of a finished dungeon ([`crate::rooms::place_doors`]),
/// whose room graph is `rooms`, drawn from the generator's RNG after the layout, so a
/// dungeon differs from its door-less twin only in those edges. Doors are passable:
/// connectivity and stair exits stay as checked.
fn add_doors(
    d: &mut Dungeon,
    rooms: &RoomGraph,
    density: f64,
    rng: &mut ChaCha8Rng,
) -> Result<(), GenerateError> {
    match crate::rooms::place_doors_by(d, density, rng, Some(rooms)) {
        Ok(_) => Ok(()),
        Err(crate::rooms::DoorError::Dungeon(e)) => Err(GenerateError::Dungeon(e)),
        Err(e) => {
            Err(GenerateError::BadOption { name: "doors", value: density.to_string(), reason: e.to_string() })
        }
    }
}

/// Octagons (over all levels) whose layouts [`generate`] may try, in all: small dungeons get
/// up to [`MAX_LAYOUTS`] tries, large ones (which rarely need a second) at least 8.
const LAYOUT_BUDGET: u64 = 1 << 20;

/// Most layouts [`generate`] tries.
const MAX_LAYOUTS: u32 = 256;

/// How many layouts of entrance and stairs [`generate`] tries before it refuses.
fn layout_tries(options: &GenerateOptions) -> u32 {
    let octagons = u64::from(options.cols) * u64::from(options.rows) * u64::from(options.levels);
    (LAYOUT_BUDGET / octagons.max(1)).clamp(8, u64::from(MAX_LAYOUTS)) as u32
}

/// One layout: draw the entrance and stairs, solve every level, carve the stairs' exits,
/// connect, choose the exit; with the layout's room graph, for its doors. `Ok(Err(reason))`
/// when the result is not a dungeon `generate` may return ([`check::unsound`]); the caller
/// then draws again from the same RNG stream. `workers` reads the finished layout's graphs.
fn layout(
    setup: &Setup,
    options: &GenerateOptions,
    keep: Option<&keep::Keep<'_>>,
    workers: Workers,
    rng: &mut ChaCha8Rng,
    progress: &mut dyn FnMut(Progress),
) -> Result<Result<(Dungeon, RoomGraph), String>, GenerateError> {
    // Entrance and stairs first, so the solver is told where floor must be.
    let placement = Placement::draw(rng, setup, options, keep)?;
    let registry = keep.map_or_else(crate::dungeon::Registry::standard, |k| k.registry().clone());
    let mut d = Dungeon::with_registry(
        options.cols,
        options.rows,
        options.levels,
        setup.proportions,
        registry,
        Fill::Solid,
    )?;
    solve::solve_levels(&mut d, setup, &placement, options, keep, rng, progress)?;
    open_between_floors(&mut d, &setup.near);
    if let Some(keep) = keep {
        keep.restore(&mut d)?;
    }
    // The hole above each stair is left only through the stair's exit: choose it now, so
    // repairs and loops respect it.
    let feet: Vec<Pos> = placement
        .stairs
        .iter()
        .enumerate()
        .flat_map(|(level, cells)| cells.iter().map(move |&c| (level as u16, c)))
        .map(|(level, c)| Pos { level, slot: setup.slots[c] })
        .collect();
    let chosen = exits::carve_exits(&mut d, &feet, keep);
    exits::seal_shafts(&mut d, &chosen);
    let entrance = Pos { level: 0, slot: setup.slots[placement.entrance] };
    if let Err(why) = connect_levels(&mut d, setup, &placement, options, keep, entrance, progress) {
        return Ok(Err(why));
    }
    d.set_entrance(Some(entrance))?;
    // One path graph for the exit and the soundness check (markers do not change it), and
    // beside it (on a thread of its own with `Workers::Threads`) the room graph the doors
    // are chosen from (it reads neither the exit nor the seed; every door site is read from
    // it before any door is placed, and the doors then change those portals' kinds, so it
    // is not kept).
    let (graph, rooms) = workers.read_graphs(&d, &setup.walls);
    let exit = match placement.exit {
        Some((level, c)) => Pos { level, slot: setup.slots[c] },
        None => farthest_octagon(&d, &graph, entrance),
    };
    d.set_exit(Some(exit))?;
    d.set_seed(Some(options.seed));
    Ok(match check::unsound(&d, &graph, placement.exit.is_some()) {
        None => Ok((d, rooms)),
        Some(why) => Err(why),
    })
}

/// Opens every seam between two carved cells (the solved levels, before the shafts are
/// sealed); `near` are the grid's neighbours.
fn open_between_floors(d: &mut Dungeon, near: &Near) {
    let dims = d.dims();
    let opened = crate::dungeon::Registry::OPEN;
    for level in 0..d.levels() {
        let carved = d.carved_slots(level).expect("invariant: a level of the dungeon");
        for i in (0..carved.len()).filter(|&i| carved[i]) {
            let pos = Pos { level, slot: dims.slot_at(i).expect("invariant: an index below slot_count") };
            // Carving a carved cell does nothing: open its seams directly (each seam once: the
            // second side finds it open already).
            for wall in near.of_slot(i).iter().filter(|w| carved[w.to as usize]) {
                let edges = d.edge_layer(level).expect("invariant: a level of the dungeon");
                if edges[wall.edge as usize] != opened {
                    d.set_edge(pos, wall.dir, opened).expect("invariant: a wall with a cell beyond");
                }
            }
        }
    }
}

/// Repairs bottom-up, then carves loops: level 0 joins the entrance's region; every higher
/// level joins the holes of the stairs from below, which are already joined. Floor the
/// shaft rule walls off is filled back with rock; the last level gets room for the exit.
/// `Err` names a stair that cannot be joined, or a last level with no room for the exit.
fn connect_levels(
    d: &mut Dungeon,
    setup: &Setup,
    placement: &Placement,
    options: &GenerateOptions,
    keep: Option<&keep::Keep<'_>>,
    entrance: Pos,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), String> {
    let guard = |level: u16| keep.map_or(Locked::NONE, |k| k.guard(level));
    let n = d.dims().slot_count();
    let node = |d: &Dungeon, p: Pos| node_index(d, p).expect("invariant: a cell of the dungeon");
    let mut main = vec![false; n * usize::from(d.levels())];
    main[node(d, entrance)] = true;
    let mut search = Search::new();
    let mut floor = Floor::of(d, &setup.near);
    for level in 0..d.levels() {
        progress(Progress::Connecting { level });
        if level > 0 {
            for &c in &placement.stairs[usize::from(level) - 1] {
                main[node(d, Pos { level, slot: setup.slots[c] })] = true;
            }
        }
        if keep.is_some() {
            // A pinned entrance or hole is never expanded by the search (pins are locked):
            // its room, and whatever its open seams reach, is joined already.
            connect::spread_over_seams(d, level, &mut main);
        }
        connect::connect_level_on(d, &mut floor, level, &mut main, &mut search, guard(level));
        let kept = keep.map_or(Locked::NONE, |k| k.kept_carved(level));
        connect::fill_pockets_on(d, &mut floor, level, &main, kept)?;
        loops::add_loops(
            d,
            &mut floor,
            level,
            options.loops,
            options.loop_gain,
            &[entrance],
            &mut search,
            guard(level),
        );
    }
    let last = d.levels() - 1;
    connect::make_exit_room(d, &mut floor, last, entrance, &mut main, &mut search, guard(last))?;
    if cfg!(debug_assertions) {
        floor.assert_current(d, &setup.near, 0..d.levels());
    }
    Ok(())
}

/// The exit: the octagon on the last level farthest from `entrance` by walking
/// ([`DijkstraMap`] on `graph`, the path graph of `d`), neither the hole above a stair nor the entrance itself; ties go to the
/// first in (row, col) order. Falls back to the entrance when there is none (the soundness
/// check then refuses the layout).
fn farthest_octagon(d: &Dungeon, graph: &PathGraph, entrance: Pos) -> Pos {
    let rules = PathRules::default();
    let map = DijkstraMap::new(graph, &[entrance], &MapBounds::everywhere(graph), &rules)
        .expect("invariant: the entrance is a cell of the dungeon");
    let last = d.levels() - 1;
    d.dims()
        .cells()
        .filter(|s| s.kind() == SlotKind::Octagon)
        .map(|slot| Pos { level: last, slot })
        .filter(|&p| d.stair_below(p).is_none() && p != entrance)
        .filter_map(|p| Some((map.value(p).ok().filter(|&v| v != UNREACHED)?, p)))
        .max_by_key(|&(v, p)| (v, Reverse((p.slot.row, p.slot.col))))
        .map_or(entrance, |(_, p)| p)
}

#[cfg(all(test, feature = "threads"))]
mod tests {
    use super::*;

    /// The serial path (what a build without `threads`, such as wasm32, runs) and the
    /// threaded one give byte-identical dungeon files, with and without doors and loops.
    #[test]
    fn serial_and_threaded_generation_are_byte_identical() {
        let cases = [
            GenerateOptions { seed: 7, levels: 2, cols: 8, rows: 8, doors: 0.5, ..Default::default() },
            GenerateOptions { seed: 3, levels: 3, cols: 10, rows: 6, ..Default::default() },
            GenerateOptions { seed: 11, levels: 1, cols: 12, rows: 12, loops: 3, ..Default::default() },
        ];
        for options in &cases {
            let serial = generate_with(options, None, Workers::Serial, &mut |_| {}).unwrap();
            let threaded = generate_with(options, None, Workers::Threads, &mut |_| {}).unwrap();
            assert_eq!(crate::format::to_json(&serial), crate::format::to_json(&threaded), "{options:?}");
        }
    }
}
