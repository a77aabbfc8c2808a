//! The `octile` tile set: octagons (class 0) are solid or floor with an 8-bit wall mask
//! (bit `i` = octagon wall `i`, clockwise from north); connectors (class 1) are solid or
//! floor with a 4-bit mask (bit `j` = connector wall `j`: TL, TR, BR, BL). The socket rule is
//! the same across long and short edges. Wall directions are `Direction::ALL` indices.

use super::tileset::floor_weight;
use super::{LEGAL_SEAMS, SOCKET_NAMES, SolveError, TileIndex, TileSet, TileSpec, check_weight, socket_of};
use crate::grid::{ConnectorWall, Direction, SlotKind};

/// Tile index of the solid octagon; floor octagons follow (`1 + mask`).
const OCT_SOLID: u16 = 0;
/// Tile index of the solid connector; floor connectors follow (`CONN_SOLID + 1 + mask`).
const CONN_SOLID: u16 = 257;
/// Number of tiles: 1 + 256 octagons, 1 + 16 connectors.
pub const TILE_COUNT: usize = 274;

/// Weights of the octile tiles. A floor octagon with `w` walls weighs
/// `open_weight * wall_factor^w`; a floor connector with `w` walls weighs
/// `connector_open_weight * wall_factor^w`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Weight of the solid octagon.
    pub void_weight: f64,
    /// Weight of a floor octagon with no walls.
    pub open_weight: f64,
    /// Factor per wall (< 1 makes walled tiles rarer).
    pub wall_factor: f64,
    /// Weight of the solid connector (diagonals are tuned apart from octagons).
    pub connector_void_weight: f64,
    /// Weight of a floor connector with no walls.
    pub connector_open_weight: f64,
    /// Whether a floor connector may open on one side or none (a diagonal stub ending in
    /// rock, or an isolated diamond). Off by default: every diagonal passage then joins two
    /// octagons.
    pub dead_end_connectors: bool,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            void_weight: 12.0,
            open_weight: 2.0,
            wall_factor: 0.6,
            connector_void_weight: 4.0,
            connector_open_weight: 1.0,
            dead_end_connectors: false,
        }
    }
}

impl Weights {
    /// Checks every weight is finite and not negative.
    ///
    /// # Errors
    ///
    /// [`SolveError::BadWeight`] naming the first weight that is negative, infinite or NaN.
    pub fn validate(&self) -> Result<(), SolveError> {
        check_weight("void_weight", self.void_weight)?;
        check_weight("open_weight", self.open_weight)?;
        check_weight("wall_factor", self.wall_factor)?;
        check_weight("connector_void_weight", self.connector_void_weight)?;
        check_weight("connector_open_weight", self.connector_open_weight)?;
        Ok(())
    }
}

/// The tile of an octagon: `None` solid, `Some(mask)` floor with that 8-bit wall mask.
#[must_use]
pub fn octagon_tile(mask: Option<u8>) -> TileIndex {
    TileIndex(mask.map_or(OCT_SOLID, |m| u16::from(m) + 1))
}

/// The tile of a connector: `None` solid, `Some(mask)` floor with that 4-bit wall mask.
#[must_use]
pub fn connector_tile(mask: Option<u8>) -> TileIndex {
    TileIndex(mask.map_or(CONN_SOLID, |m| CONN_SOLID + 1 + u16::from(m & 15)))
}

/// What a tile stands for: its cell kind, and `None` solid or `Some(mask)` floor.
#[must_use]
pub fn decode(tile: TileIndex) -> (SlotKind, Option<u8>) {
    match tile.0 {
        OCT_SOLID => (SlotKind::Octagon, None),
        t if t < CONN_SOLID => (SlotKind::Octagon, Some((t - 1) as u8)),
        CONN_SOLID => (SlotKind::Connector, None),
        t => (SlotKind::Connector, Some((t - CONN_SOLID - 1) as u8)),
    }
}

/// Every floor octagon tile with at least one open wall (the tiles stairs and the entrance
/// may take).
#[must_use]
pub fn open_octagon_tiles() -> Vec<TileIndex> {
    (0u8..255).map(|m| octagon_tile(Some(m))).collect()
}

/// The bit of a connector mask for the wall facing `dir` (a diagonal).
#[must_use]
pub fn connector_bit(dir: Direction) -> Option<usize> {
    ConnectorWall::from_facing(dir).map(ConnectorWall::index)
}

/// The 274 tiles with the given weights, over the 8 directions of `Topology::octile`.
///
/// # Errors
///
/// [`SolveError::BadWeight`] naming the option when a weight does not pass
/// [`Weights::validate`], or naming the tile (`tile N`) when finite weights multiply out to
/// an infinite tile weight (for example `open_weight` near `f64::MAX` with `wall_factor`
/// above 1).
pub fn tileset(weights: &Weights) -> Result<TileSet, SolveError> {
    weights.validate()?;
    let floor_weight = |open: f64, m: u8| floor_weight(open, weights.wall_factor, m.count_ones());
    let mut tiles = Vec::with_capacity(TILE_COUNT);
    for mask in std::iter::once(None).chain((0..=255u8).map(Some)) {
        tiles.push(TileSpec {
            class: 0,
            weight: mask.map_or(weights.void_weight, |m| floor_weight(weights.open_weight, m)),
            sockets: (0..8).map(|b| socket_of(mask, b)).collect(),
        });
    }
    for mask in std::iter::once(None).chain((0..16u8).map(Some)) {
        tiles.push(TileSpec {
            class: 1,
            weight: match mask {
                None => weights.connector_void_weight,
                Some(m) if m.count_ones() >= 3 && !weights.dead_end_connectors => 0.0,
                Some(m) => floor_weight(weights.connector_open_weight, m),
            },
            sockets: Direction::ALL
                .iter()
                .map(|&d| match connector_bit(d) {
                    Some(b) => socket_of(mask, b),
                    None => socket_of(None, 0),
                })
                .collect(),
        });
    }
    TileSet::new(8, &SOCKET_NAMES, &LEGAL_SEAMS, tiles)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_decode() {
        let set = tileset(&Weights::default()).unwrap();
        assert_eq!(set.len(), TILE_COUNT);
        assert_eq!(decode(octagon_tile(None)), (SlotKind::Octagon, None));
        assert_eq!(decode(octagon_tile(Some(255))), (SlotKind::Octagon, Some(255)));
        assert_eq!(decode(connector_tile(None)), (SlotKind::Connector, None));
        assert_eq!(decode(connector_tile(Some(9))), (SlotKind::Connector, Some(9)));
        assert_eq!(set.tile(connector_tile(Some(0))).class, 1);
        assert_eq!(open_octagon_tiles().len(), 255);
        let w = Weights { connector_open_weight: -1.0, ..Weights::default() };
        assert!(matches!(tileset(&w), Err(SolveError::BadWeight { .. })));
    }
}
