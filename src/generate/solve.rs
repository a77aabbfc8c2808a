//! The first stage of generation: check the options, draw the entrance and the stairs, and
//! solve each level's tiles with the `octile` tile set, writing floor and stair tiles into
//! the dungeon.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::floor::Near;
use super::keep::Keep;
use super::{GenerateError, GenerateOptions, Progress};
use crate::dungeon::{Dungeon, Registry};
use crate::geometry::{Layout, Proportions};
use crate::grid::{Slot, SlotKind, Walls};
use crate::wfc::{
    FixedCell, MEMORY_LIMIT, Neighbor, SOCKET_SOLID, SolveError, SolveInput, SolveProgress, Solver, TileSet,
    Topology, estimated_bytes, octile,
};

/// What solving needs: the proportions, the tile set, and the level topology with the slot
/// of each of its cells.
pub(crate) struct Setup {
    pub(crate) proportions: Proportions,
    pub(crate) tileset: TileSet,
    pub(crate) topology: Topology,
    pub(crate) slots: Vec<Slot>,
    /// The walls of every cell of the grid, read once for every layout.
    pub(crate) walls: Walls,
    /// The grid's neighbours of every slot, clockwise from north, read once for every layout.
    pub(crate) near: Near,
}

/// Checks the options, the proportions, the size and the solver's memory need.
pub(crate) fn setup(options: &GenerateOptions) -> Result<Setup, GenerateError> {
    options.validate()?;
    let proportions = Proportions::default().with_cut_ratio(options.cut_ratio);
    Layout::new(proportions).map_err(crate::dungeon::DungeonError::from)?;
    let dims = Dungeon::check_shape(options.cols, options.rows, options.levels)?;
    let tileset = octile::tileset(&options.weights).map_err(GenerateError::Tiles)?;
    let cells = (dims.octagon_count() + dims.connector_count()) as u64;
    let bytes = estimated_bytes(cells, &tileset);
    if bytes > MEMORY_LIMIT {
        return Err(GenerateError::Tiles(SolveError::TooLarge {
            cells: cells as usize,
            bytes,
            limit: MEMORY_LIMIT,
        }));
    }
    let walls = Walls::of(dims);
    Ok(Setup {
        near: Near::of(&walls),
        walls,
        proportions,
        tileset,
        topology: Topology::octile(dims),
        slots: crate::wfc::octile_cell_slots(dims),
    })
}

/// Where the entrance, the stairs and (for a design that has one) the exit stand, as cells
/// of the level topology.
pub(crate) struct Placement {
    /// The entrance's cell on level 0.
    pub(crate) entrance: usize,
    /// Per level pair `L, L + 1`: the cells of its stairs (their feet on level `L`), the
    /// design's first.
    pub(crate) stairs: Vec<Vec<usize>>,
    /// The design's exit (level, cell), kept where the design put it.
    pub(crate) exit: Option<(u16, usize)>,
}

impl Placement {
    /// Draws the entrance, then the stairs pair by pair: a pair's stairs avoid each other
    /// and the cells below them (the entrance, or the previous pair's stairs, whose holes
    /// are on this level). With `keep`, the design's entrance, exit and stairs stay where
    /// the design has them, a pair gets only the stairs it lacks, and no drawn one stands on
    /// or beside a pinned cell (a stair on the levels of its foot and its hole); refuses when
    /// the pins leave too little room.
    pub(crate) fn draw(
        rng: &mut ChaCha8Rng,
        setup: &Setup,
        options: &GenerateOptions,
        keep: Option<&Keep<'_>>,
    ) -> Result<Placement, GenerateError> {
        let near = |level: usize, c: usize| keep.is_some_and(|k| k.near(level as u16, setup.slots[c]));
        let octagons = |ok: &dyn Fn(usize) -> bool| -> Vec<usize> {
            (0..setup.slots.len()).filter(|&c| setup.slots[c].kind() == SlotKind::Octagon && ok(c)).collect()
        };
        let no_room = |what: &str| GenerateError::BadOption {
            name: "keep",
            value: format!("{} pinned cell(s)", keep.map_or(0, Keep::count)),
            reason: format!("the pins leave no room for {what} (none may stand on or beside a pin)"),
        };
        let cell = |slot: Slot| setup.slots.binary_search_by_key(&(slot.row, slot.col), |s| (s.row, s.col));
        let cell = |slot: Slot| cell(slot).expect("invariant: a cell of the grid");
        let entrance = match keep.and_then(Keep::entrance) {
            Some(slot) => cell(slot),
            None => {
                let room = octagons(&|c| !near(0, c));
                if room.is_empty() {
                    return Err(no_room("the entrance"));
                }
                room[pick(rng, room.len())]
            }
        };
        let mut stairs: Vec<Vec<usize>> = Vec::new();
        for pair in 0..(options.levels as usize).saturating_sub(1) {
            let mut mine: Vec<usize> =
                keep.map_or_else(Vec::new, |k| k.stairs(pair as u16).into_iter().map(cell).collect());
            let mut taken: Vec<usize> = if pair == 0 { vec![entrance] } else { stairs[pair - 1].clone() };
            taken.extend(&mine);
            if let Some(k) = keep {
                // Nor on the design's stairs of the pair above (whose holes are a level up).
                taken.extend(k.stairs(pair as u16 + 1).into_iter().map(cell));
            }
            let wanted = (options.stairs as usize).saturating_sub(mine.len());
            let room = octagons(&|c| !near(pair, c) && !near(pair + 1, c));
            if room.iter().filter(|c| !taken.contains(c)).count() < wanted {
                return Err(no_room(&format!("{} stair(s) from level {pair}", options.stairs)));
            }
            let design = mine.len();
            while mine.len() - design < wanted {
                let c = room[pick(rng, room.len())];
                if !taken.contains(&c) {
                    taken.push(c);
                    mine.push(c);
                }
            }
            stairs.push(mine);
        }
        let exit = keep.and_then(Keep::exit).map(|p| (p.level, cell(p.slot)));
        Ok(Placement { entrance, stairs, exit })
    }

    /// The cells of `level` the solver must make open floor: the entrance, the stairs up,
    /// the holes of the stairs from below and a design's exit.
    fn fixed_on(&self, level: usize) -> Vec<usize> {
        let mut fixed = Vec::new();
        if level == 0 {
            fixed.push(self.entrance);
        }
        fixed.extend(self.stairs.get(level).into_iter().flatten());
        if level > 0 {
            fixed.extend(&self.stairs[level - 1]);
        }
        fixed.extend(self.exit.filter(|&(l, _)| usize::from(l) == level).map(|(_, c)| c));
        fixed
    }
}

/// A uniform draw from `0..n`.
fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Solves every level in order and writes its floor and stair tiles into `d` (a dungeon of
/// rock). Each level may take `options.attempts` tries, all from the same RNG stream.
pub(crate) fn solve_levels(
    d: &mut Dungeon,
    setup: &Setup,
    placement: &Placement,
    options: &GenerateOptions,
    keep: Option<&Keep<'_>>,
    rng: &mut ChaCha8Rng,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), GenerateError> {
    let cell_of = crate::wfc::octile_cell_index(d.dims());
    let mut solver = Solver::new(&setup.topology, &setup.tileset).map_err(GenerateError::Tiles)?;
    let open = octile::open_octagon_tiles();
    let any_floor: Vec<_> = (0..=255u8).map(|m| octile::octagon_tile(Some(m))).collect();
    let levels = options.levels as u16;
    // The tiles are written into copies of the layers and the dungeon is rebuilt from them
    // once (its stair table read once, not refreshed per tile).
    let mut tiles = (0..levels).map(|l| d.tile_layer(l).cloned()).collect::<Result<Vec<_>, _>>()?;
    for level in 0..levels {
        let input = SolveInput {
            seed: options.seed,
            border: Some(SOCKET_SOLID),
            fixed: placement
                .fixed_on(usize::from(level))
                .into_iter()
                // A pinned cell's class is the pin's.
                .filter(|&c| !keep.is_some_and(|k| k.pins(level, setup.slots[c])))
                .map(|c| {
                    // An octagon with no neighbour (a 1x1 grid) cannot open any wall.
                    let alone = (0..8).all(|d| !matches!(setup.topology.neighbor(c, d), Neighbor::Cell(_)));
                    FixedCell {
                        cell: c as u32,
                        allowed: if alone { any_floor.clone() } else { open.clone() },
                    }
                })
                .chain(keep.into_iter().flat_map(|k| k.fixed(level, &cell_of)))
                .collect(),
            budget: options.budget,
        };
        let mut attempt = 0;
        let solved = loop {
            attempt += 1;
            let mut report = |solve: SolveProgress| progress(Progress::Solving { level, levels, solve });
            match solver.solve(&input, rng, &mut report) {
                Ok(t) => break t,
                Err(cause) if attempt >= options.attempts => {
                    return Err(GenerateError::Level { level, seed: options.seed, attempts: attempt, cause });
                }
                Err(_) => {}
            }
        };
        let layer = &mut tiles[usize::from(level)];
        let mut set =
            |c: usize, tile| *layer.get_mut(setup.slots[c]).expect("invariant: a cell of the grid") = tile;
        for (c, _) in solved.iter().enumerate().filter(|(_, t)| octile::decode(**t).1.is_some()) {
            set(c, Registry::FLOOR);
        }
        // Stairs stand on octagons below the top level (the placement draws them there).
        for &c in placement.stairs.get(usize::from(level)).into_iter().flatten() {
            set(c, Registry::STAIR);
        }
    }
    let edges = (0..levels).map(|l| d.edge_layer(l).map(<[_]>::to_vec)).collect::<Result<Vec<_>, _>>()?;
    *d = Dungeon::from_parts(d.dims(), *d.proportions(), d.registry().clone(), tiles, edges)?;
    Ok(())
}
