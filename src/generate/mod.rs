//! Multi-level dungeon generation (DESIGN.md section 4): each level is solved with the
//! `octile` tile set, stairs join every pair of adjacent levels, pockets are repaired so
//! every floor cell is reachable from the entrance, loops are carved, and the exit is the
//! reachable octagon on the last level farthest from the entrance.

mod connect;
mod distance;
mod error;
mod floors;
mod options;

pub use error::GenerateError;
pub use options::GenerateOptions;

use std::cmp::Reverse;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use self::floors::Floors;
use crate::dungeon::{Dungeon, Fill, Registry};
use crate::geometry::{Layout, Proportions};
use crate::grid::{Pos, SlotKind};
use crate::path::{DijkstraMap, MapBounds, PathGraph, PathRules, UNREACHED};
use crate::wfc::{
    FixedCell, MEMORY_LIMIT, Neighbor, SOCKET_SOLID, SolveInput, SolveProgress, Solver, estimated_bytes,
    octile,
};

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
    options.validate()?;
    let proportions = Proportions::default().with_cut_ratio(options.cut_ratio);
    Layout::new(proportions).map_err(crate::dungeon::DungeonError::from)?;
    let dims = Dungeon::check_shape(options.cols, options.rows, options.levels)?;
    let tileset = octile::tileset(&options.weights).map_err(GenerateError::Tiles)?;
    let cells = (dims.octagon_count() + dims.connector_count()) as u64;
    let bytes = estimated_bytes(cells, &tileset);
    if bytes > MEMORY_LIMIT {
        return Err(GenerateError::Tiles(crate::wfc::SolveError::TooLarge {
            cells: cells as usize,
            bytes,
            limit: MEMORY_LIMIT,
        }));
    }
    let levels = options.levels as usize;
    let mut floors = Floors::new(dims, levels);
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let octagons: Vec<usize> =
        (0..floors.cells).filter(|&c| floors.slots[c].kind() == SlotKind::Octagon).collect();

    // Entrance and stairs first, so the solver is told where floor must be.
    let entrance = octagons[pick(&mut rng, octagons.len())];
    let mut stairs: Vec<Vec<usize>> = Vec::new();
    for pair in 0..levels.saturating_sub(1) {
        let mut taken: Vec<usize> = if pair == 0 { vec![entrance] } else { stairs[pair - 1].clone() };
        let mut mine = Vec::new();
        while mine.len() < options.stairs as usize {
            let c = octagons[pick(&mut rng, octagons.len())];
            if !taken.contains(&c) {
                taken.push(c);
                mine.push(c);
            }
        }
        stairs.push(mine);
    }

    let mut solver = Solver::new(&floors.topology, &tileset).map_err(GenerateError::Tiles)?;
    let open = octile::open_octagon_tiles();
    let any_floor: Vec<_> = (0..=255u8).map(|m| octile::octagon_tile(Some(m))).collect();
    for level in 0..levels {
        let mut fixed_cells: Vec<usize> = Vec::new();
        if level == 0 {
            fixed_cells.push(entrance);
        }
        if level + 1 < levels {
            fixed_cells.extend(&stairs[level]);
        }
        if level > 0 {
            fixed_cells.extend(&stairs[level - 1]);
        }
        let input = SolveInput {
            seed: options.seed,
            border: Some(SOCKET_SOLID),
            fixed: fixed_cells
                .iter()
                .map(|&c| {
                    // An octagon with no neighbour (a 1x1 grid) cannot open any wall.
                    let alone = (0..8).all(|d| !matches!(floors.topology.neighbor(c, d), Neighbor::Cell(_)));
                    FixedCell {
                        cell: c as u32,
                        allowed: if alone { any_floor.clone() } else { open.clone() },
                    }
                })
                .collect(),
            budget: options.budget,
        };
        let lv = level as u16;
        let mut attempt = 0;
        let tiles = loop {
            attempt += 1;
            let mut report = |solve: SolveProgress| {
                progress(Progress::Solving { level: lv, levels: options.levels as u16, solve })
            };
            match solver.solve(&input, &mut rng, &mut report) {
                Ok(t) => break t,
                Err(source) if attempt >= options.attempts => {
                    return Err(GenerateError::Level {
                        level: lv,
                        seed: options.seed,
                        attempts: attempt,
                        source,
                    });
                }
                Err(_) => {}
            }
        };
        for (c, t) in tiles.iter().enumerate() {
            floors.floor[level * floors.cells + c] = octile::decode(*t).1.is_some();
        }
        if level + 1 < levels {
            for &c in &stairs[level] {
                floors.stair[level * floors.cells + c] = true;
            }
        }
    }

    // The hole above each stair is left only through the stair's exit: choose it now, so
    // repairs and loops respect it.
    for (level, mine) in stairs.iter().enumerate() {
        for &c in mine {
            floors.choose_exit(level, c);
        }
    }

    // Repair bottom-up: level 0 joins the entrance's region; every higher level joins the
    // landings of the stairs from below, which are already joined.
    let stair = crate::path::stair_cost(&proportions);
    let mut main = vec![false; floors.floor.len()];
    main[entrance] = true;
    for level in 0..levels {
        progress(Progress::Connecting { level: level as u16 });
        if level > 0 {
            for &c in &stairs[level - 1] {
                main[level * floors.cells + c] = true;
            }
        }
        connect::connect_level(&mut floors, level, &mut main);
        connect::add_loops(&mut floors, level, options.loops, &[entrance], stair);
    }

    let mut d = build(&floors, options, proportions)?;
    let entrance = pos_of(&floors, entrance);
    d.set_entrance(Some(entrance))?;
    d.set_exit(Some(farthest_octagon(&d, entrance)))?;
    d.set_seed(Some(options.seed));
    Ok(d)
}

/// The exit: the octagon on the last level farthest from `entrance` by walking
/// ([`DijkstraMap`]), not the hole above a stair; ties go to the first in (row, col) order.
fn farthest_octagon(d: &Dungeon, entrance: Pos) -> Pos {
    let graph = PathGraph::new(d).expect("invariant: the standard registry's step costs fit in u32");
    let rules = PathRules::default();
    let map = DijkstraMap::new(&graph, &[entrance], &MapBounds::everywhere(&graph), &rules)
        .expect("invariant: the entrance is a cell of the dungeon");
    let last = d.levels() - 1;
    d.dims()
        .cells()
        .filter(|s| s.kind() == SlotKind::Octagon)
        .map(|slot| Pos { level: last, slot })
        .filter(|&p| d.stair_below(p).is_none())
        .filter_map(|p| Some((map.value(p).ok().filter(|&v| v != UNREACHED)?, p)))
        .max_by_key(|&(v, p)| (v, Reverse((p.slot.row, p.slot.col))))
        .map_or(entrance, |(_, p)| p)
}

fn pos_of(floors: &Floors, node: usize) -> Pos {
    let s = floors.slots[node % floors.cells];
    Pos::new((node / floors.cells) as u16, s.row, s.col)
}

fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// The dungeon of `floors`: floor and stair tiles; every edge between two floor cells open,
/// except the walls of a hole above a stair other than its exit, and the wall a stair's
/// landing stands against on the stair's own level.
fn build(
    floors: &Floors,
    options: &GenerateOptions,
    proportions: Proportions,
) -> Result<Dungeon, GenerateError> {
    let mut d = Dungeon::new(options.cols, options.rows, options.levels, proportions, Fill::Solid)?;
    let dims = d.dims();
    let n = floors.cells;
    for node in 0..floors.floor.len() {
        if floors.floor[node] {
            d.set_tile(
                pos_of(floors, node),
                if floors.stair[node] { Registry::STAIR } else { Registry::FLOOR },
            )?;
        }
    }
    let index = crate::wfc::octile_cell_index(dims);
    for level in 0..floors.levels {
        for edge in dims.edges().collect::<Vec<_>>() {
            let sides = dims
                .edge_sides(edge)
                .map_err(|source| crate::dungeon::DungeonError::Grid { level: level as u16, source })?;
            let open = sides.iter().all(|(slot, dir)| {
                let node =
                    level * n + index[dims.index(*slot).expect("invariant: edge sides are inside")] as usize;
                floors.floor[node] && floors.allows(node, *dir)
            });
            if open {
                d.set_edge_of(level as u16, edge, Registry::OPEN)?;
            }
        }
    }
    Ok(d)
}
