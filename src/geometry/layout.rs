//! `Layout`: the one grid-to-world mapping. Every polygon the mesh builder extrudes comes
//! from here; nobody else recomputes a length. The way back (world point to piece and slot,
//! height to level) is `Layout`'s too, in `locate.rs`.

use glam::{DVec2, DVec3};

use super::polygon::{make_positive, signed_area};
use super::{GeometryError, Proportions};
use crate::grid::{ConnectorWall, Direction, Pos, Slot, SlotKind};

/// Maps slots to world space (metres, `x` east, `y` up, `z` south), and world points back
/// to slots ([`Layout::place_at`]), for one set of validated proportions. Planar polygons
/// are in `(x, z)` and wind positively (see [`super::signed_area`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    proportions: Proportions,
    spacing: f64,
    gap: f64,
    half: f64,
    cut: f64,
}

impl Layout {
    /// A layout for `proportions`, refused when they do not validate.
    ///
    /// # Errors
    ///
    /// [`GeometryError::InvalidProportion`] naming the first field that is not finite, is out
    /// of its range, or breaks a rule between fields (see [`Proportions::validate`]).
    pub fn new(proportions: Proportions) -> Result<Layout, GeometryError> {
        proportions.validate()?;
        Ok(Layout {
            proportions,
            spacing: proportions.cell_spacing(),
            gap: proportions.seam_gap(),
            half: proportions.half_base(),
            cut: proportions.cut(),
        })
    }

    /// The proportions this layout was built from.
    #[must_use]
    pub fn proportions(&self) -> &Proportions {
        &self.proportions
    }

    /// Centre-to-centre slot spacing `s` (metres).
    #[must_use]
    pub fn spacing(&self) -> f64 {
        self.spacing
    }

    /// Seam gap `g` (metres).
    #[must_use]
    pub fn gap(&self) -> f64 {
        self.gap
    }

    /// Centre of `slot` in `(x, z)`: `(col * s, row * s)`.
    #[must_use]
    pub fn center(&self, slot: Slot) -> DVec2 {
        DVec2::new(f64::from(slot.col) * self.spacing, f64::from(slot.row) * self.spacing)
    }

    /// Centre of a position at its level's floor height: `(col * s, L * H, row * s)`.
    #[must_use]
    pub fn world_center(&self, pos: Pos) -> DVec3 {
        let c = self.center(pos.slot);
        DVec3::new(c.x, self.proportions.floor_y(pos.level), c.y)
    }

    /// The octagon at `slot` (any slot is treated as an octagon centre): vertex `i` to `i + 1`
    /// is wall `i`, as in docs/design.md, "World space".
    #[must_use]
    pub fn octagon(&self, slot: Slot) -> [DVec2; 8] {
        let c = self.center(slot);
        std::array::from_fn(|i| self.octagon_corner(i) + c)
    }

    /// Vertex `i` (0 to 7) of an octagon centred at the origin ([`Layout::octagon`]).
    fn octagon_corner(&self, i: usize) -> DVec2 {
        let (h, k) = (self.half, self.cut);
        match i % 8 {
            0 => DVec2::new(-h + k, -h),
            1 => DVec2::new(h - k, -h),
            2 => DVec2::new(h, -h + k),
            3 => DVec2::new(h, h - k),
            4 => DVec2::new(h - k, h),
            5 => DVec2::new(-h + k, h),
            6 => DVec2::new(-h, h - k),
            _ => DVec2::new(-h, -h + k),
        }
    }

    /// Vertex `j` (0 to 3: N, E, S, W) of a connector centred at the origin
    /// ([`Layout::connector`]).
    fn connector_corner(&self, j: usize) -> DVec2 {
        let k = self.cut;
        match j % 4 {
            0 => DVec2::new(0.0, -k),
            1 => DVec2::new(k, 0.0),
            2 => DVec2::new(0.0, k),
            _ => DVec2::new(-k, 0.0),
        }
    }

    /// The connector diamond at `slot`: vertices N, E, S, W; wall `j` runs from vertex
    /// `j - 1` to vertex `j` (0 = W -> N, 1 = N -> E, 2 = E -> S, 3 = S -> W).
    #[must_use]
    pub fn connector(&self, slot: Slot) -> [DVec2; 4] {
        let c = self.center(slot);
        std::array::from_fn(|j| self.connector_corner(j) + c)
    }

    /// The polygon of the cell at `slot` (an octagon or a connector; `None` for Void).
    #[must_use]
    pub fn cell_polygon(&self, slot: Slot) -> Option<Vec<DVec2>> {
        match slot.kind() {
            SlotKind::Octagon => Some(self.octagon(slot).to_vec()),
            SlotKind::Connector => Some(self.connector(slot).to_vec()),
            SlotKind::Void => None,
        }
    }

    /// [`Layout::cell_polygon`] with each corner pulled `by` metres toward the cell's centre
    /// (overlays drawn just inside a cell's walls).
    #[must_use]
    pub fn cell_polygon_inset(&self, slot: Slot, by: f64) -> Option<Vec<DVec2>> {
        let centre = self.center(slot);
        let polygon = self.cell_polygon(slot)?;
        Some(polygon.into_iter().map(|v| v + (centre - v).normalize_or_zero() * by).collect())
    }

    /// The area of the cell at `slot` (square metres; 0 for a Void slot): the signed area of
    /// its outline ([`Layout::cell_polygon`]), without building the outline's list.
    #[must_use]
    pub fn cell_area(&self, slot: Slot) -> f64 {
        match slot.kind() {
            SlotKind::Octagon => signed_area(&self.octagon(slot)),
            SlotKind::Connector => signed_area(&self.connector(slot)),
            SlotKind::Void => 0.0,
        }
    }

    /// Wall `dir` of the cell at `slot` as a segment `[from, to]`, running along the cell's
    /// positive winding (the cell's inside is on the left of from -> to, seen with z up).
    /// `None` for a Void slot or a connector asked for a cardinal wall.
    #[must_use]
    pub fn wall(&self, slot: Slot, dir: Direction) -> Option<[DVec2; 2]> {
        match slot.kind() {
            // The corners of the cell's own polygon, computed alone (bit-identical to them).
            SlotKind::Octagon => {
                let (c, i) = (self.center(slot), dir.index());
                Some([self.octagon_corner(i) + c, self.octagon_corner(i + 1) + c])
            }
            SlotKind::Connector => {
                let j = ConnectorWall::from_facing(dir)?.index();
                let c = self.center(slot);
                Some([self.connector_corner(j + 3) + c, self.connector_corner(j) + c])
            }
            SlotKind::Void => None,
        }
    }

    /// The seam between the two cells of `edge`: a rectangle between their facing walls
    /// (a long seam `g x (B - 2k)`, or a diagonal seam `S x g / sqrt 2`). Its vertices are
    /// `[a1, a0, b1, b0]` for the first side's wall `a0 -> a1` and the second's `b0 -> b1`,
    /// so `seam[0..2]` lies on the first cell and `seam[2..4]` on the second.
    #[must_use]
    pub fn seam(&self, first: (Slot, Direction), second: (Slot, Direction)) -> Option<[DVec2; 4]> {
        let [a0, a1] = self.wall(first.0, first.1)?;
        let [b0, b1] = self.wall(second.0, second.1)?;
        Some([a1, a0, b1, b0])
    }

    /// The seam of a canonical edge, given the sides the grid reports for it
    /// ([`crate::grid::Dims::edge_sides`]).
    #[must_use]
    pub fn edge_seam(&self, sides: [(Slot, Direction); 2]) -> Option<[DVec2; 4]> {
        self.seam(sides[0], sides[1])
    }

    /// The door passage a door edge carves through the seam between `first` and `second`:
    /// a rectangle `door_width` wide, centred along the seam and running its whole depth,
    /// with vertices `[a1, a0, b1, b0]` as in [`Layout::seam`] (`a0 -> a1` is the part of
    /// the first cell's wall that the passage opens, `b0 -> b1` the second's). `None` when
    /// either side has no such wall.
    #[must_use]
    pub fn door(&self, first: (Slot, Direction), second: (Slot, Direction)) -> Option<[DVec2; 4]> {
        let [a0, a1] = self.wall(first.0, first.1)?;
        let [b0, b1] = self.wall(second.0, second.1)?;
        let len = (a1 - a0).length();
        let t0 = ((len - self.proportions.door_width) / 2.0 / len).clamp(0.0, 0.5);
        let t1 = 1.0 - t0;
        Some([a0.lerp(a1, t1), a0.lerp(a1, t0), b0.lerp(b1, t1), b0.lerp(b1, t0)])
    }

    /// The opening a door cuts in one cell's wall: the part of wall `dir` of `slot` that
    /// [`Layout::door`] opens, in the wall's running order. `sides` are the edge's two sides
    /// ([`crate::grid::Dims::edge_sides`]); `None` when `(slot, dir)` is neither of them.
    #[must_use]
    pub fn door_opening(
        &self,
        sides: [(Slot, Direction); 2],
        slot: Slot,
        dir: Direction,
    ) -> Option<[DVec2; 2]> {
        let [a1, a0, b1, b0] = self.door(sides[0], sides[1])?;
        if sides[0] == (slot, dir) {
            Some([a0, a1])
        } else if sides[1] == (slot, dir) {
            Some([b0, b1])
        } else {
            None
        }
    }

    /// The long seam of a Void slot as a positively wound rectangle (any slot of mixed
    /// parity; `None` otherwise).
    #[must_use]
    pub fn long_seam(&self, void: Slot) -> Option<[DVec2; 4]> {
        if void.kind() != SlotKind::Void {
            return None;
        }
        // Built from the two octagons' own walls, so its corners are bit-identical to theirs.
        let (first, second) = if void.row & 1 == 1 {
            (
                (Slot::new(void.row - 1, void.col), Direction::S),
                (Slot::new(void.row + 1, void.col), Direction::N),
            )
        } else {
            (
                (Slot::new(void.row, void.col - 1), Direction::E),
                (Slot::new(void.row, void.col + 1), Direction::W),
            )
        };
        Some(make_positive(self.seam(first, second)?))
    }

    /// The diagonal seam between connector `conn`'s wall `wall` and the octagon short edge
    /// facing it, positively wound (`None` when `conn` is not a connector slot).
    #[must_use]
    pub fn diagonal_seam(&self, conn: Slot, wall: ConnectorWall) -> Option<[DVec2; 4]> {
        if conn.kind() != SlotKind::Connector {
            return None;
        }
        let dir = wall.facing();
        let (dr, dc) = dir.unit();
        let oct = conn.offset(dr, dc)?;
        let seam = self.seam((conn, dir), (oct, dir.opposite()))?;
        Some(make_positive(seam))
    }

    /// The pillar beside connector `conn` in cardinal direction `side`: a right isosceles
    /// triangle (hypotenuse `g` on the end of a long seam, apex on the connector's vertex),
    /// positively wound. `None` for a non-connector slot or a diagonal `side`.
    #[must_use]
    pub fn pillar(&self, conn: Slot, side: Direction) -> Option<[DVec2; 3]> {
        if conn.kind() != SlotKind::Connector || side.is_diagonal() {
            return None;
        }
        let apex = self.connector_corner(side.index() / 2) + self.center(conn);
        // The two base corners are the nearest corners of the octagons either side of `side`
        // (copied from their polygons, so they are bit-identical to the cells' corners).
        let corner = |diagonal: Direction| {
            let (dr, dc) = diagonal.unit();
            let [a, b] = self.wall(conn.offset(dr, dc)?, diagonal.opposite())?;
            Some(if a.distance_squared(apex) < b.distance_squared(apex) { a } else { b })
        };
        let left = corner(Direction::from_index(side.index() + 7))?;
        let right = corner(Direction::from_index(side.index() + 1))?;
        Some(make_positive([apex, left, right]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::signed_area;

    #[test]
    fn polygons_wind_positively() {
        let l = Layout::new(Proportions::default()).unwrap();
        assert!(signed_area(&l.octagon(Slot::new(0, 0))) > 0.0);
        assert!(signed_area(&l.connector(Slot::new(1, 1))) > 0.0);
        assert!(signed_area(&l.long_seam(Slot::new(0, 1)).unwrap()) > 0.0);
        assert!(signed_area(&l.long_seam(Slot::new(1, 0)).unwrap()) > 0.0);
        for w in ConnectorWall::ALL {
            assert!(signed_area(&l.diagonal_seam(Slot::new(1, 1), w).unwrap()) > 0.0);
        }
        for d in Direction::CARDINALS {
            assert!(signed_area(&l.pillar(Slot::new(1, 1), d).unwrap()) > 0.0);
        }
    }

    #[test]
    fn doors_are_door_wide_and_centred() {
        let l = Layout::new(Proportions::default()).unwrap();
        let first = (Slot::new(1, 1), Direction::NE);
        let second = (Slot::new(0, 2), Direction::SW);
        let seam = l.seam(first, second).unwrap();
        let door = l.door(first, second).unwrap();
        assert!((door[0].distance(door[1]) - 2.0).abs() < 1e-9);
        assert!((door[2].distance(door[3]) - 2.0).abs() < 1e-9);
        assert!((door[1].distance(door[2]) - seam[1].distance(seam[2])).abs() < 1e-9);
        let mid = |p: &[DVec2; 4]| (p[0] + p[1] + p[2] + p[3]) / 4.0;
        assert!(mid(&door).distance(mid(&seam)) < 1e-9);
        assert!(l.door((Slot::new(0, 1), Direction::N), second).is_none());
    }

    #[test]
    fn seams_and_pillars_share_the_cells_corners_exactly() {
        let l = Layout::new(Proportions::default().with_cut_ratio(0.29)).unwrap();
        let east = l.long_seam(Slot::new(2, 3)).unwrap();
        let west_oct = l.octagon(Slot::new(2, 2));
        let east_oct = l.octagon(Slot::new(2, 4));
        for corner in [west_oct[2], west_oct[3], east_oct[6], east_oct[7]] {
            assert!(east.contains(&corner), "{corner} is a seam corner");
        }
        let pillar = l.pillar(Slot::new(3, 3), Direction::N).unwrap();
        assert!(pillar.contains(&l.connector(Slot::new(3, 3))[0]));
        assert!(pillar.contains(&west_oct[3]) && pillar.contains(&east_oct[6]));
    }

    #[test]
    fn wrong_slots_give_none() {
        let l = Layout::new(Proportions::default()).unwrap();
        assert!(l.long_seam(Slot::new(0, 0)).is_none());
        assert!(l.diagonal_seam(Slot::new(0, 0), ConnectorWall::TL).is_none());
        assert!(l.pillar(Slot::new(1, 1), Direction::NE).is_none());
        assert!(l.wall(Slot::new(1, 1), Direction::N).is_none());
        assert!(l.cell_polygon(Slot::new(0, 1)).is_none());
    }
}
