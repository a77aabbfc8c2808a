//! The eight compass directions and the wall tables of octagons and connectors.

use serde::{Deserialize, Serialize};

/// The eight compass directions, clockwise from north (north is -Z, east is +X in world space).
///
/// An octagon's wall `i` faces `Direction::ALL[i]`; a connector's walls face the four diagonals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// North (-Z, row - 1).
    N,
    /// North-east.
    NE,
    /// East (+X, col + 1).
    E,
    /// South-east.
    SE,
    /// South (+Z, row + 1).
    S,
    /// South-west.
    SW,
    /// West (-X, col - 1).
    W,
    /// North-west.
    NW,
}

impl Direction {
    /// All eight directions, clockwise from north; index `i` is octagon wall `i`.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// The four diagonal directions in connector wall order: TL, TR, BR, BL.
    pub const DIAGONALS: [Direction; 4] = [Direction::NW, Direction::NE, Direction::SE, Direction::SW];

    /// The four cardinal directions, clockwise from north.
    pub const CARDINALS: [Direction; 4] = [Direction::N, Direction::E, Direction::S, Direction::W];

    /// Index 0..7 clockwise from north (equal to the octagon wall index).
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction with clockwise index `i` (taken modulo 8).
    #[must_use]
    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i & 7]
    }

    /// The opposite direction.
    #[must_use]
    pub const fn opposite(self) -> Direction {
        Direction::from_index(self.index() + 4)
    }

    /// True for NE, SE, SW, NW.
    #[must_use]
    pub const fn is_diagonal(self) -> bool {
        self.index() & 1 == 1
    }

    /// Slot offset `(d_row, d_col)` of one step of unit length in this direction.
    #[must_use]
    pub const fn unit(self) -> (i32, i32) {
        match self {
            Direction::N => (-1, 0),
            Direction::NE => (-1, 1),
            Direction::E => (0, 1),
            Direction::SE => (1, 1),
            Direction::S => (1, 0),
            Direction::SW => (1, -1),
            Direction::W => (0, -1),
            Direction::NW => (-1, -1),
        }
    }

    /// The direction whose [`Direction::unit`] offset is `(d_row, d_col)`, or `None` when no
    /// direction has it (`(0, 0)` or a component outside -1..=1).
    #[must_use]
    pub fn from_unit(d_row: i32, d_col: i32) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.unit() == (d_row, d_col))
    }

    /// Short compass name ("N", "NE", ...).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Direction::N => "N",
            Direction::NE => "NE",
            Direction::E => "E",
            Direction::SE => "SE",
            Direction::S => "S",
            Direction::SW => "SW",
            Direction::W => "W",
            Direction::NW => "NW",
        }
    }
}

/// The kind of an octagon wall: long walls face octagons, short walls face connectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeLength {
    /// A long edge (B - 2k), shared with an octagon across a long seam.
    Long,
    /// A short edge (k * sqrt 2), shared with a connector across a diagonal seam.
    Short,
}

/// One of a connector's four walls, clockwise from the top-left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ConnectorWall {
    /// Wall 0, top-left: runs W -> N and faces north-west.
    TL,
    /// Wall 1, top-right: runs N -> E and faces north-east.
    TR,
    /// Wall 2, bottom-right: runs E -> S and faces south-east.
    BR,
    /// Wall 3, bottom-left: runs S -> W and faces south-west.
    BL,
}

impl ConnectorWall {
    /// All four walls in index order.
    pub const ALL: [ConnectorWall; 4] =
        [ConnectorWall::TL, ConnectorWall::TR, ConnectorWall::BR, ConnectorWall::BL];

    /// Index 0..3.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The wall with index `i`, or `None` outside 0..3.
    #[must_use]
    pub const fn from_index(i: usize) -> Option<ConnectorWall> {
        if i < 4 { Some(ConnectorWall::ALL[i]) } else { None }
    }

    /// The diagonal this wall faces.
    #[must_use]
    pub const fn facing(self) -> Direction {
        Direction::DIAGONALS[self.index()]
    }

    /// The connector wall that faces `dir`, or `None` for a cardinal direction.
    #[must_use]
    pub const fn from_facing(dir: Direction) -> Option<ConnectorWall> {
        match dir {
            Direction::NW => Some(ConnectorWall::TL),
            Direction::NE => Some(ConnectorWall::TR),
            Direction::SE => Some(ConnectorWall::BR),
            Direction::SW => Some(ConnectorWall::BL),
            _ => None,
        }
    }

    /// Short name ("TL", "TR", "BR", "BL").
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ConnectorWall::TL => "TL",
            ConnectorWall::TR => "TR",
            ConnectorWall::BR => "BR",
            ConnectorWall::BL => "BL",
        }
    }
}

/// The octagon wall table: for wall `i`, its length kind and the slot offset of the cell it
/// faces (two slots away for octagons, one diagonal step for connectors).
#[must_use]
pub const fn octagon_wall(dir: Direction) -> (EdgeLength, (i32, i32)) {
    let (dr, dc) = dir.unit();
    if dir.is_diagonal() { (EdgeLength::Short, (dr, dc)) } else { (EdgeLength::Long, (2 * dr, 2 * dc)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octagon_wall_table_matches_design() {
        // docs/design.md, "The grid": wall, length, neighbour offset.
        let table = [
            (EdgeLength::Long, (-2, 0)),
            (EdgeLength::Short, (-1, 1)),
            (EdgeLength::Long, (0, 2)),
            (EdgeLength::Short, (1, 1)),
            (EdgeLength::Long, (2, 0)),
            (EdgeLength::Short, (1, -1)),
            (EdgeLength::Long, (0, -2)),
            (EdgeLength::Short, (-1, -1)),
        ];
        for (i, want) in table.iter().enumerate() {
            assert_eq!(octagon_wall(Direction::from_index(i)), *want, "wall {i}");
        }
    }

    #[test]
    fn connector_walls_face_diagonals() {
        assert_eq!(ConnectorWall::TL.facing(), Direction::NW);
        assert_eq!(ConnectorWall::TR.facing(), Direction::NE);
        assert_eq!(ConnectorWall::BR.facing(), Direction::SE);
        assert_eq!(ConnectorWall::BL.facing(), Direction::SW);
        for w in ConnectorWall::ALL {
            assert_eq!(ConnectorWall::from_facing(w.facing()), Some(w));
        }
        assert_eq!(ConnectorWall::from_facing(Direction::N), None);
        assert_eq!(ConnectorWall::from_index(4), None);
    }

    #[test]
    fn from_unit_inverts_unit() {
        for d in Direction::ALL {
            let (r, c) = d.unit();
            assert_eq!(Direction::from_unit(r, c), Some(d));
        }
        assert_eq!(Direction::from_unit(0, 0), None);
        assert_eq!(Direction::from_unit(2, 0), None);
    }

    #[test]
    fn opposite_is_an_involution() {
        for d in Direction::ALL {
            assert_eq!(d.opposite().opposite(), d);
            assert_ne!(d.opposite(), d);
        }
        assert_eq!(Direction::N.opposite(), Direction::S);
        assert_eq!(Direction::NE.opposite(), Direction::SW);
    }
}
