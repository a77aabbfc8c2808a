//! A plain reference solver, for tests only: the solver's rules written the slow, obvious
//! way (one `bool` per cell and tile, arc consistency tile by tile, the next cell by a scan
//! of all cells, a copy of every domain at each decision), so that any faster bookkeeping in
//! [`Solver`](super::Solver) can be checked to give the very same tiles.
//!
//! The rules it states: tie-breaking noise is a Fisher-Yates permutation of the cells drawn
//! first; the next cell is the undecided one of lowest (fixed-point entropy, noise); its tile
//! is drawn by weight from one `u64` of the RNG; a contradiction restores the domains of the
//! last decision, bans its tile and propagates again, up to the budget.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::entropy::{entropy_key, fixed_weights, weight_log};
use super::{SocketId, SolveInput, TileIndex, TileSet, Topology};
use crate::wfc::Neighbor;

/// How a reference solve ended: the tiles, or no solution (unsatisfiable, or over budget).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Outcome {
    /// One tile per cell, or `None` when no solution was found.
    pub tiles: Option<Vec<TileIndex>>,
    /// Backtracks used.
    pub backtracks: u32,
}

/// Domains as one `bool` per (cell, tile).
struct Plain<'a> {
    topology: &'a Topology,
    tileset: &'a TileSet,
    tiles: usize,
    domain: Vec<bool>,
}

impl Plain<'_> {
    fn has(&self, cell: usize, t: usize) -> bool {
        self.domain[cell * self.tiles + t]
    }

    fn len(&self, cell: usize) -> usize {
        (0..self.tiles).filter(|&t| self.has(cell, t)).count()
    }

    fn socket(&self, t: usize, dir: usize) -> SocketId {
        self.tileset.socket(TileIndex::new(t as u16), dir)
    }

    /// Whether tile `t` of a cell may show its socket on wall `dir` against some socket
    /// in `offered`.
    fn meets_any(&self, t: usize, dir: usize, offered: &[SocketId]) -> bool {
        offered.iter().any(|&s| self.tileset.is_legal(self.socket(t, dir), s))
    }

    /// Arc consistency from the cells in `changed`: every neighbour keeps only the tiles
    /// that can face some tile of the cell. False when a domain empties.
    fn propagate(&mut self, mut changed: Vec<usize>) -> bool {
        let dirs = self.topology.dirs();
        while let Some(c) = changed.pop() {
            if self.len(c) == 0 {
                return false;
            }
            for d in 0..dirs {
                let Neighbor::Cell(n) = self.topology.neighbor(c, d) else { continue };
                let n = n as usize;
                let offered: Vec<SocketId> =
                    (0..self.tiles).filter(|&u| self.has(c, u)).map(|u| self.socket(u, d)).collect();
                let e = self.topology.opposite(d);
                let mut lost = false;
                for t in 0..self.tiles {
                    if self.has(n, t) && !self.meets_any(t, e, &offered) {
                        self.domain[n * self.tiles + t] = false;
                        lost = true;
                    }
                }
                if lost {
                    if self.len(n) == 0 {
                        return false;
                    }
                    changed.push(n);
                }
            }
        }
        true
    }
}

/// Solves like [`Solver::solve`](super::Solver::solve), the plain way. `input`'s fixed
/// cells must be in range.
pub(super) fn solve(
    topology: &Topology,
    tileset: &TileSet,
    input: &SolveInput,
    rng: &mut ChaCha8Rng,
) -> Outcome {
    let (cells, tiles) = (topology.cell_count(), tileset.len());
    let weights: Vec<f64> = tileset.tiles().iter().map(|t| t.weight).collect();
    let fixed = fixed_weights(&weights);
    let mut noise: Vec<u32> = (0..cells as u32).collect();
    for k in (1..cells).rev() {
        let j = (rng.next_u64() % (k as u64 + 1)) as usize;
        noise.swap(k, j);
    }
    let mut plain = Plain { topology, tileset, tiles, domain: vec![false; cells * tiles] };
    for c in 0..cells {
        for (t, spec) in tileset.tiles().iter().enumerate() {
            plain.domain[c * tiles + t] = spec.class == topology.class(c) && spec.weight > 0.0;
        }
    }
    for f in &input.fixed {
        let c = f.cell as usize;
        for t in 0..tiles {
            plain.domain[c * tiles + t] &= f.allowed.iter().any(|a| a.index() == t);
        }
    }
    if let Some(border) = input.border {
        for c in 0..cells {
            for d in 0..topology.dirs() {
                if topology.neighbor(c, d) == Neighbor::Border {
                    for t in 0..tiles {
                        plain.domain[c * tiles + t] &= plain.meets_any(t, d, &[border]);
                    }
                }
            }
        }
    }
    let mut backtracks = 0;
    if !plain.propagate((0..cells).collect()) {
        return Outcome { tiles: None, backtracks };
    }
    // (domains before the decision, cell, tile)
    let mut decisions: Vec<(Vec<bool>, usize, usize)> = Vec::new();
    loop {
        let entropy = |p: &Plain, c: usize| {
            let present = || (0..tiles).filter(|&t| p.has(c, t));
            entropy_key(present().map(|t| fixed[t]).sum(), present().map(|t| weight_log(fixed[t])).sum())
        };
        let next = (0..cells).filter(|&c| plain.len(c) > 1).min_by_key(|&c| (entropy(&plain, c), noise[c]));
        let Some(cell) = next else { break };
        let tile = choose(&plain, cell, &weights, rng);
        decisions.push((plain.domain.clone(), cell, tile));
        for t in 0..tiles {
            plain.domain[cell * tiles + t] = t == tile;
        }
        let mut ok = plain.propagate(vec![cell]);
        while !ok {
            let Some((before, cell, tile)) = decisions.pop() else {
                return Outcome { tiles: None, backtracks };
            };
            if backtracks >= input.budget {
                return Outcome { tiles: None, backtracks };
            }
            backtracks += 1;
            plain.domain = before;
            plain.domain[cell * tiles + tile] = false;
            ok = plain.propagate(vec![cell]);
        }
    }
    let solution = (0..cells)
        .map(|c| TileIndex::new((0..tiles).find(|&t| plain.has(c, t)).expect("solved") as u16))
        .collect();
    Outcome { tiles: Some(solution), backtracks }
}

/// A tile of `cell` drawn by weight: one `u64` from the RNG scaled to the domain's total
/// weight, then the first tile (lowest first) at which the running sum passes it.
fn choose(plain: &Plain, cell: usize, weights: &[f64], rng: &mut ChaCha8Rng) -> usize {
    let present: Vec<usize> = (0..plain.tiles).filter(|&t| plain.has(cell, t)).collect();
    let total: f64 = present.iter().map(|&t| weights[t]).sum();
    let mut r = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64) * total;
    for &t in &present {
        r -= weights[t];
        if r < 0.0 {
            return t;
        }
    }
    *present.last().expect("a chosen cell has tiles")
}

#[cfg(test)]
mod tests {
    use rand_core::SeedableRng;

    use super::super::tables::tests::random_set;
    use super::super::{FixedCell, Solver};
    use super::*;
    use crate::grid::Dims;
    use crate::wfc::{SOCKET_SOLID, octile, square17};

    /// Solves every seed with one reused solver and with the reference; both give the same
    /// tiles (or both find none), and at least one seed is solved. Returns the backtracks the
    /// reference used.
    fn agree(topology: &Topology, tileset: &TileSet, input: &SolveInput, seeds: std::ops::Range<u64>) -> u32 {
        let mut solver = Solver::new(topology, tileset).unwrap();
        let (mut backtracks, mut solved) = (0, 0);
        for seed in seeds {
            let input = SolveInput { seed, ..input.clone() };
            let fast = solver.solve(&input, &mut ChaCha8Rng::seed_from_u64(seed), &mut |_| {});
            let plain = solve(topology, tileset, &input, &mut ChaCha8Rng::seed_from_u64(seed));
            assert_eq!(fast.ok(), plain.tiles, "seed {seed}, {} cells", topology.cell_count());
            backtracks += plain.backtracks;
            solved += usize::from(plain.tiles.is_some());
        }
        assert!(solved > 0, "no seed solved: the comparison would prove little");
        backtracks
    }

    #[test]
    fn square17_matches_the_reference() {
        let solid = SolveInput { border: Some(SOCKET_SOLID), ..SolveInput::default() };
        let weights = [
            square17::Weights::default(),
            square17::Weights { void_weight: 0.05, open_weight: 3.0, wall_factor: 1.5 },
            square17::Weights { void_weight: 20.0, open_weight: 1.0, wall_factor: 0.1 },
        ];
        for w in weights {
            let set = square17::tileset(&w).unwrap();
            for (cols, rows, seeds) in [(1, 1, 0..3), (5, 3, 0..6), (24, 17, 0..4), (40, 40, 7..8)] {
                agree(&Topology::square(cols, rows), &set, &solid, seeds.clone());
                agree(&Topology::square(cols, rows), &set, &SolveInput::default(), seeds);
            }
        }
    }

    #[test]
    fn octile_with_fixed_cells_matches_the_reference() {
        let set = octile::tileset(&octile::Weights::default()).unwrap();
        let topo = Topology::octile(Dims::from_octagons(5, 4).unwrap());
        let open = octile::open_octagon_tiles();
        let octagons: Vec<u32> =
            (0..topo.cell_count()).filter(|&c| topo.class(c) == 0).map(|c| c as u32).collect();
        let fixed = vec![
            FixedCell { cell: octagons[0], allowed: open.clone() },
            FixedCell { cell: octagons[6], allowed: vec![octile::octagon_tile(None)] },
            FixedCell { cell: octagons[13], allowed: open },
        ];
        let input = SolveInput { border: Some(SOCKET_SOLID), fixed, ..SolveInput::default() };
        agree(&topo, &set, &input, 0..4);
    }

    /// Made-up tile sets of 1, 2 and 6 domain words, with sockets that pack into the byte
    /// table and sockets that do not (9 sockets on 8 walls), some needing backtracking.
    #[test]
    fn random_tile_sets_match_the_reference() {
        let topo = Topology::octile(Dims::from_octagons(4, 3).unwrap());
        let mut backtracks = 0;
        for (tiles, sockets) in [(12, 2), (40, 3), (100, 4), (60, 9), (330, 9)] {
            let set = random_set(tiles, sockets, tiles as u64);
            backtracks += agree(&topo, &set, &SolveInput::default(), 0..6);
        }
        assert!(backtracks > 0, "some solve backtracks");
    }
}
