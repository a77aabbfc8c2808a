//! The solver's constant tables, built once per tile set: tiles by class and by (wall,
//! socket), the tiles each set of sockets allows across a wall, and the sockets each byte of
//! a domain offers on every wall.

use super::{SocketId, TileSet};

/// Per class, the tiles of that class with a positive weight; per (wall, socket), the tiles
/// showing that socket on that wall. Both as domain words.
pub(super) fn tile_masks(tileset: &TileSet, classes: usize) -> (Vec<u64>, Vec<u64>) {
    let (dirs, sockets, words) = (tileset.dirs(), tileset.socket_count(), tileset.len().div_ceil(64));
    let mut class_mask = vec![0u64; classes * words];
    let mut socket_mask = vec![0u64; dirs * sockets * words];
    for (t, spec) in tileset.tiles().iter().enumerate() {
        let bit = 1u64 << (t % 64);
        if spec.weight > 0.0 && usize::from(spec.class) < classes {
            class_mask[usize::from(spec.class) * words + t / 64] |= bit;
        }
        for d in 0..dirs {
            let s = usize::from(spec.sockets[d].0);
            socket_mask[(d * sockets + s) * words + t / 64] |= bit;
        }
    }
    (class_mask, socket_mask)
}

/// Per (chunk of 8 sockets, wall, subset of that chunk's sockets), the tiles whose socket on
/// that wall is legal against some socket of the subset; with the chunk count and the subsets
/// per chunk. The tiles a set of sockets allows are the union over its chunks.
pub(super) fn allow_table(tileset: &TileSet, socket_mask: &[u64]) -> (usize, usize, Vec<u64>) {
    let (dirs, sockets, words) = (tileset.dirs(), tileset.socket_count(), tileset.len().div_ceil(64));
    let chunks = sockets.div_ceil(8);
    let chunk_sets = 1usize << sockets.min(8);
    let mut allow = vec![0u64; chunks * dirs * chunk_sets * words];
    for k in 0..chunks {
        for d in 0..dirs {
            let base = (k * dirs + d) * chunk_sets;
            // A subset's tiles: those of the subset less its lowest socket, plus the tiles
            // whose socket on `d` is legal against that socket.
            for sub in 1..chunk_sets {
                let low = 8 * k + sub.trailing_zeros() as usize;
                let rest = (base + (sub & (sub - 1))) * words;
                for i in 0..words {
                    let mut meets = allow[rest + i];
                    if low < sockets {
                        for mine in 0..sockets {
                            if tileset.is_legal(SocketId(mine as u8), SocketId(low as u8)) {
                                meets |= socket_mask[(d * sockets + mine) * words + i];
                            }
                        }
                    }
                    allow[(base + sub) * words + i] = meets;
                }
            }
        }
    }
    (chunks, chunk_sets, allow)
}

/// Per (domain byte `p`, byte value `v`): the sockets the tiles `8p + b` (for the bits `b`
/// of `v`) show, packed [`packed_stride`] bits per wall, wall 0 lowest (the top bit of each
/// wall's field, the guard, is never set). One table lookup per domain byte then gives
/// every wall's offered sockets at once. Empty when the packing needs more than 64 bits, or
/// the sockets more than one chunk of the allow table (8).
pub(super) fn offer_bytes(tileset: &TileSet) -> Vec<u64> {
    let (dirs, sockets) = (tileset.dirs(), tileset.socket_count());
    let stride = packed_stride(sockets);
    if dirs * stride > 64 || sockets > 8 {
        return Vec::new();
    }
    let bytes = tileset.len().div_ceil(8);
    let shows = |t: usize| {
        tileset.tiles().get(t).map_or(0, |spec| {
            spec.sockets.iter().enumerate().fold(0u64, |m, (d, s)| m | 1 << (d * stride + s.index()))
        })
    };
    let mut table = vec![0u64; bytes * 256];
    for p in 0..bytes {
        for v in 1..256usize {
            table[p * 256 + v] = table[p * 256 + (v & (v - 1))] | shows(8 * p + v.trailing_zeros() as usize);
        }
    }
    table
}

/// Bits per wall in a packed set of every wall's sockets: one per socket, and a guard bit
/// above them that no offered set has (so a field with it set differs from every set).
pub(super) fn packed_stride(sockets: usize) -> usize {
    sockets + 1
}

/// Per (domain byte `p`, byte value `v`): the sums of `fixed_weight` and `weight_log` over
/// the tiles `8p + b` for the bits `b` of `v` (both tables padded to whole domain words).
pub(super) fn sum_bytes(fixed_weight: &[u64], weight_log: &[u64]) -> Vec<(u64, u64)> {
    let bytes = fixed_weight.len() / 8;
    let mut table = vec![(0u64, 0u64); bytes * 256];
    for p in 0..bytes {
        for v in 1..256usize {
            let t = 8 * p + v.trailing_zeros() as usize;
            let (w, wl) = table[p * 256 + (v & (v - 1))];
            table[p * 256 + v] = (w + fixed_weight[t], wl + weight_log[t]);
        }
    }
    table
}

#[cfg(test)]
pub(super) mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    use super::super::{SolveInput, Solver};
    use crate::grid::Dims;
    use crate::wfc::{Neighbor, SocketId, TileIndex, TileSet, TileSpec, Topology};

    /// A made-up tile set over the octile topology's 8 walls: `tiles` tiles, `sockets`
    /// sockets, each socket legal against itself and against a few others drawn at random;
    /// every class has a tile showing one socket on every wall, so a tiling exists.
    pub(in super::super) fn random_set(tiles: usize, sockets: usize, seed: u64) -> TileSet {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut legal: Vec<(SocketId, SocketId)> =
            (0..sockets).map(|s| (SocketId::new(s as u8), SocketId::new(s as u8))).collect();
        for _ in 0..sockets {
            let a = (rng.next_u64() % sockets as u64) as u8;
            let b = (rng.next_u64() % sockets as u64) as u8;
            legal.push((SocketId::new(a), SocketId::new(b)));
        }
        let specs = (0..tiles)
            .map(|t| {
                let class = u8::from(t % 2 == 1);
                let sockets = if t < 2 {
                    vec![SocketId::new(0); 8]
                } else {
                    (0..8).map(|_| SocketId::new((rng.next_u64() % sockets as u64) as u8)).collect()
                };
                TileSpec { class, weight: 0.5 + (rng.next_u64() % 100) as f64 / 10.0, sockets }
            })
            .collect();
        let names: Vec<String> = (0..sockets).map(|s| format!("s{s}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        TileSet::new(8, &names, &legal, specs).unwrap()
    }

    fn assert_legal(topo: &Topology, set: &TileSet, tiles: &[TileIndex]) {
        for (c, &t) in tiles.iter().enumerate() {
            for d in 0..8 {
                if let Neighbor::Cell(n) = topo.neighbor(c, d) {
                    let (a, b) = (set.socket(t, d), set.socket(tiles[n as usize], topo.opposite(d)));
                    assert!(set.is_legal(a, b), "cell {c} wall {d}: {a:?} against {b:?}");
                }
            }
        }
    }

    /// Every width of domain (1, 2 and 6 words, the last through the generic path) and both
    /// ways of finding the offered sockets (the byte table, and per wall when 8 walls of 9
    /// sockets do not pack into 64 bits) give legal tilings; forcing the per-wall way on a
    /// set that packs gives the very same tiles.
    #[test]
    fn every_path_solves_and_the_paths_agree() {
        let topo = Topology::octile(Dims::from_octagons(6, 5).unwrap());
        for (tiles, sockets) in [(40, 3), (100, 4), (350, 5), (60, 9), (330, 9)] {
            let set = random_set(tiles, sockets, tiles as u64);
            let mut packed = Solver::new(&topo, &set).unwrap();
            assert_eq!(packed.offer_bytes.is_empty(), sockets > 7, "{tiles} tiles, {sockets} sockets");
            let mut per_wall = packed.clone();
            per_wall.unpack_offers();
            for seed in 0..4 {
                let input = SolveInput { seed, ..SolveInput::default() };
                let a = packed.solve(&input, &mut ChaCha8Rng::seed_from_u64(seed), &mut |_| {}).unwrap();
                let b = per_wall.solve(&input, &mut ChaCha8Rng::seed_from_u64(seed), &mut |_| {}).unwrap();
                assert_legal(&topo, &set, &a);
                assert_eq!(a, b, "{tiles} tiles, {sockets} sockets, seed {seed}");
            }
        }
    }

    /// The allow table is the union over a set's sockets, byte chunk by byte chunk.
    #[test]
    fn allow_table_is_the_union_of_single_sockets() {
        let set = random_set(70, 11, 3);
        let solver = Solver::new(&Topology::octile(Dims::from_octagons(2, 2).unwrap()), &set).unwrap();
        for dir in 0..8 {
            for sockets in [0b1u16, 0b101_0000_0001, 0b111_1111_1111, 0b100_0000_0000] {
                for i in 0..solver.words {
                    let union = (0..11)
                        .filter(|&s| sockets >> s & 1 == 1)
                        .fold(0, |m, s| m | solver.allowed::<0>(dir, 1 << s, i));
                    assert_eq!(solver.allowed::<0>(dir, sockets, i), union);
                    let direct = (0..set.len()).filter(|&t| t / 64 == i).fold(0u64, |m, t| {
                        let mine = set.socket(TileIndex::new(t as u16), dir);
                        let ok =
                            (0..11).any(|s| sockets >> s & 1 == 1 && set.is_legal(mine, SocketId::new(s)));
                        if ok { m | 1 << (t % 64) } else { m }
                    });
                    assert_eq!(union, direct, "dir {dir} sockets {sockets:b} word {i}");
                }
            }
        }
    }
}
