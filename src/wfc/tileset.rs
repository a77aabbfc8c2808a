//! `TileSet`: tiles, the socket each tile shows on each wall, which socket pairs may meet
//! across a seam, a weight and a cell class per tile.

use super::SolveError;

/// Index of a socket in a [`TileSet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SocketId(pub(crate) u8);

/// Index of a tile in a [`TileSet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TileIndex(pub(crate) u16);

impl SocketId {
    /// Socket number `id` of a tile set (checked against its socket list by [`TileSet::new`]).
    #[must_use]
    pub const fn new(id: u8) -> SocketId {
        SocketId(id)
    }

    /// The socket's position in its tile set's socket list.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl TileIndex {
    /// Tile number `index` of a tile set (a solver checks it against the set's length).
    #[must_use]
    pub const fn new(index: u16) -> TileIndex {
        TileIndex(index)
    }

    /// The tile's position in its tile set.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// One tile: its cell class, its weight (relative frequency, finite and >= 0; a zero-weight
/// tile is never placed) and its socket on every wall direction of the topology.
#[derive(Debug, Clone, PartialEq)]
pub struct TileSpec {
    /// Cells of this class may take the tile.
    pub class: u8,
    /// Relative frequency.
    pub weight: f64,
    /// Socket per wall direction (directions a cell of this class lacks are ignored).
    pub sockets: Vec<SocketId>,
}

/// A validated tile set.
#[derive(Debug, Clone, PartialEq)]
pub struct TileSet {
    dirs: usize,
    socket_names: Vec<String>,
    legal: Vec<bool>,
    tiles: Vec<TileSpec>,
}

/// Most tiles a tile set may hold.
pub const MAX_TILES: usize = 4096;
/// Most sockets a tile set may hold.
pub const MAX_SOCKETS: usize = 16;

impl TileSet {
    /// A tile set over `dirs` wall directions; `legal` lists the socket pairs that may meet
    /// (the relation is made symmetric).
    ///
    /// # Errors
    ///
    /// [`SolveError::BadTileSet`] when there are no sockets or more than [`MAX_SOCKETS`], no
    /// tiles or more than [`MAX_TILES`], a pair in `legal` names a socket past the last, or a
    /// tile does not have exactly `dirs` sockets each naming a known socket;
    /// [`SolveError::BadWeight`] (named `tile N`) for a tile weight that is negative,
    /// infinite or NaN.
    pub fn new(
        dirs: usize,
        socket_names: &[&str],
        legal: &[(SocketId, SocketId)],
        tiles: Vec<TileSpec>,
    ) -> Result<TileSet, SolveError> {
        let bad = |reason: String| Err(SolveError::BadTileSet { reason });
        let s = socket_names.len();
        if s == 0 || s > MAX_SOCKETS {
            return bad(format!("{s} sockets; 1..={MAX_SOCKETS} allowed"));
        }
        if tiles.is_empty() || tiles.len() > MAX_TILES {
            return bad(format!("{} tiles; 1..={MAX_TILES} allowed", tiles.len()));
        }
        let mut table = vec![false; s * s];
        for &(a, b) in legal {
            if usize::from(a.0) >= s || usize::from(b.0) >= s {
                return bad(format!("legal pair ({}, {}) names a socket past {s}", a.0, b.0));
            }
            table[usize::from(a.0) * s + usize::from(b.0)] = true;
            table[usize::from(b.0) * s + usize::from(a.0)] = true;
        }
        for (i, t) in tiles.iter().enumerate() {
            if !t.weight.is_finite() || t.weight < 0.0 {
                return Err(SolveError::BadWeight { name: format!("tile {i}"), value: t.weight });
            }
            if t.sockets.len() != dirs || t.sockets.iter().any(|x| usize::from(x.0) >= s) {
                return bad(format!("tile {i} needs {dirs} sockets, each below {s}"));
            }
        }
        let socket_names = socket_names.iter().map(|n| (*n).to_string()).collect();
        Ok(TileSet { dirs, socket_names, legal: table, tiles })
    }

    /// Wall directions per tile.
    #[must_use]
    pub fn dirs(&self) -> usize {
        self.dirs
    }

    /// Number of tiles.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether there are no tiles (never true for a validated set).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Number of sockets.
    #[must_use]
    pub fn socket_count(&self) -> usize {
        self.socket_names.len()
    }

    /// The name of a socket.
    #[must_use]
    pub fn socket_name(&self, s: SocketId) -> &str {
        &self.socket_names[usize::from(s.0)]
    }

    /// Whether sockets `a` and `b` may meet across a seam.
    #[must_use]
    pub fn is_legal(&self, a: SocketId, b: SocketId) -> bool {
        self.legal[usize::from(a.0) * self.socket_count() + usize::from(b.0)]
    }

    /// The tile at `i`.
    #[must_use]
    pub fn tile(&self, i: TileIndex) -> &TileSpec {
        &self.tiles[usize::from(i.0)]
    }

    /// Every tile.
    #[must_use]
    pub fn tiles(&self) -> &[TileSpec] {
        &self.tiles
    }

    /// The socket tile `t` shows on wall `dir`.
    #[must_use]
    pub fn socket(&self, t: TileIndex, dir: usize) -> SocketId {
        self.tiles[usize::from(t.0)].sockets[dir]
    }
}

/// A weight option that must be finite and not negative (`name` is the option's name).
///
/// # Errors
///
/// [`SolveError::BadWeight`] carrying `name` and `value` when `value` is negative,
/// infinite or NaN.
pub fn check_weight(name: &str, value: f64) -> Result<f64, SolveError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(SolveError::BadWeight { name: name.to_string(), value })
    }
}

/// The weight of a floor tile with `walls` walls: `open * factor^walls`, the power taken by
/// repeated multiplication, one IEEE product per wall, so it has the same bits on every
/// platform (`f64::powi` does not promise that).
#[must_use]
pub(super) fn floor_weight(open: f64, factor: f64, walls: u32) -> f64 {
    open * (0..walls).fold(1.0, |power, _| power * factor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_sets_are_refused() {
        let t = |w: f64| TileSpec { class: 0, weight: w, sockets: vec![SocketId(0); 4] };
        assert!(matches!(TileSet::new(4, &["a"], &[], vec![t(f64::NAN)]), Err(SolveError::BadWeight { .. })));
        assert!(matches!(TileSet::new(4, &[], &[], vec![t(1.0)]), Err(SolveError::BadTileSet { .. })));
        assert!(matches!(
            TileSet::new(4, &["a"], &[(SocketId(0), SocketId(3))], vec![t(1.0)]),
            Err(SolveError::BadTileSet { .. })
        ));
        let ok = TileSet::new(4, &["a", "b"], &[(SocketId(0), SocketId(1))], vec![t(1.0)]).unwrap();
        assert!(ok.is_legal(SocketId(1), SocketId(0)));
        assert!(!ok.is_legal(SocketId(0), SocketId(0)));
        assert!(check_weight("void_weight", -1.0).is_err());
    }

    #[test]
    fn floor_weight_is_a_plain_product() {
        assert_eq!(floor_weight(3.0, 0.4, 0), 3.0);
        let w = floor_weight(2.0, 0.4, 5);
        assert!((w - 2.0 * 0.4f64.powi(5)).abs() < 1e-16);
        // The bits of ((((1 * 0.4) * 0.4) * 0.4) * 0.4) * 0.4 * 2, pinned for every platform.
        assert_eq!(w.to_bits(), 0x3f94_f8b5_88e3_68f3);
    }
}
