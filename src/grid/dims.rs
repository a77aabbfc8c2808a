//! Grid dimensions, neighbours across walls and canonical edge ids.

use super::{ConnectorWall, Direction, GridError, Slot, SlotKind, octagon_wall};

/// The largest number of octagons along one side that a grid may have.
pub const MAX_OCTAGONS_PER_SIDE: u32 = 4096;

/// The slot dimensions of one level, built from octagon columns and rows:
/// `(2 * rows - 1) x (2 * cols - 1)` slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dims {
    oct_cols: u32,
    oct_rows: u32,
}

/// One physical edge between two cells, named canonically so both cells see one id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EdgeId {
    /// A long edge between two octagons, named by the Void slot between them.
    Long(Slot),
    /// A short edge between an octagon and a connector, named by the connector and its wall.
    Short(Slot, ConnectorWall),
}

impl std::fmt::Display for EdgeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EdgeId::Long(s) => match s.seam_sides() {
                Some((a, b)) => write!(f, "the wall between the octagons at {a} and {b}"),
                None => write!(f, "long edge at {s}"),
            },
            EdgeId::Short(s, w) => {
                let (dr, dc) = w.facing().unit();
                match s.offset(dr, dc) {
                    Some(o) => write!(f, "the wall between the connector at {s} and the octagon at {o}"),
                    None => write!(f, "short edge {} of connector at {s}", w.name()),
                }
            }
        }
    }
}

impl Dims {
    /// Dimensions for `cols x rows` octagons (width first, as in the CLI).
    ///
    /// # Errors
    ///
    /// [`GridError::BadSize`] when `cols` or `rows` is 0 or above
    /// [`MAX_OCTAGONS_PER_SIDE`].
    pub fn from_octagons(cols: u32, rows: u32) -> Result<Dims, GridError> {
        if cols == 0 || rows == 0 {
            return Err(GridError::BadSize { cols, rows, reason: "needs at least 1x1 octagons" });
        }
        if cols > MAX_OCTAGONS_PER_SIDE || rows > MAX_OCTAGONS_PER_SIDE {
            return Err(GridError::BadSize { cols, rows, reason: "at most 4096 octagons per side" });
        }
        Ok(Dims { oct_cols: cols, oct_rows: rows })
    }

    /// Octagon columns.
    #[must_use]
    pub const fn octagon_cols(self) -> u32 {
        self.oct_cols
    }

    /// Octagon rows.
    #[must_use]
    pub const fn octagon_rows(self) -> u32 {
        self.oct_rows
    }

    /// Slot rows: `2 * octagon_rows - 1`.
    #[must_use]
    pub const fn rows(self) -> u32 {
        2 * self.oct_rows - 1
    }

    /// Slot columns: `2 * octagon_cols - 1`.
    #[must_use]
    pub const fn cols(self) -> u32 {
        2 * self.oct_cols - 1
    }

    /// Number of slots on one level.
    #[must_use]
    pub const fn slot_count(self) -> usize {
        self.rows() as usize * self.cols() as usize
    }

    /// Number of octagons on one level.
    #[must_use]
    pub const fn octagon_count(self) -> usize {
        self.oct_rows as usize * self.oct_cols as usize
    }

    /// Number of connectors on one level.
    #[must_use]
    pub const fn connector_count(self) -> usize {
        (self.oct_rows as usize - 1) * (self.oct_cols as usize - 1)
    }

    /// Whether `slot` lies inside the grid.
    #[must_use]
    pub const fn contains(self, slot: Slot) -> bool {
        slot.row < self.rows() && slot.col < self.cols()
    }

    /// Row-major flat index of `slot`.
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when `slot` is outside the grid.
    pub fn index(self, slot: Slot) -> Result<usize, GridError> {
        if self.contains(slot) {
            Ok(slot.row as usize * self.cols() as usize + slot.col as usize)
        } else {
            Err(self.out_of_bounds(slot))
        }
    }

    /// The slot at a row-major flat index, or `None` past the end.
    #[must_use]
    pub fn slot_at(self, index: usize) -> Option<Slot> {
        if index >= self.slot_count() {
            return None;
        }
        let cols = self.cols() as usize;
        Some(Slot::new((index / cols) as u32, (index % cols) as u32))
    }

    /// Every slot, row-major.
    pub fn slots(self) -> impl Iterator<Item = Slot> {
        let cols = self.cols();
        (0..self.rows()).flat_map(move |r| (0..cols).map(move |c| Slot::new(r, c)))
    }

    /// Every cell slot (octagons and connectors), row-major.
    pub fn cells(self) -> impl Iterator<Item = Slot> {
        self.slots().filter(|s| s.kind().is_cell())
    }

    /// The kind of a slot that must be a cell (octagon or connector).
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when `slot` is outside the grid; [`GridError::WrongKind`] when it is a
    /// Void slot.
    pub fn cell_kind(self, slot: Slot) -> Result<SlotKind, GridError> {
        if !self.contains(slot) {
            return Err(self.out_of_bounds(slot));
        }
        match slot.kind() {
            SlotKind::Void => Err(GridError::WrongKind {
                slot,
                kind: SlotKind::Void,
                expected: "a cell (octagon or connector)",
            }),
            kind => Ok(kind),
        }
    }

    /// Checks that `slot` is an octagon inside the grid.
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when `slot` is outside the grid; [`GridError::WrongKind`] when it is a
    /// Void slot or a connector.
    pub fn require_octagon(self, slot: Slot) -> Result<(), GridError> {
        match self.cell_kind(slot)? {
            SlotKind::Octagon => Ok(()),
            kind => Err(GridError::WrongKind { slot, kind, expected: "an octagon" }),
        }
    }

    /// The wall directions of the cell at `slot`: 8 for an octagon, the 4 diagonals for a
    /// connector.
    ///
    /// # Errors
    ///
    /// As [`Dims::cell_kind`]: [`GridError::OutOfBounds`] when `slot` is outside the grid,
    /// [`GridError::WrongKind`] when it is a Void slot.
    pub fn walls(self, slot: Slot) -> Result<&'static [Direction], GridError> {
        Ok(match self.cell_kind(slot)? {
            SlotKind::Octagon => &Direction::ALL,
            _ => &Direction::DIAGONALS,
        })
    }

    /// The kind of the cell at `slot`, when `dir` is one of its [`Dims::walls`].
    fn check_wall(self, slot: Slot, dir: Direction) -> Result<SlotKind, GridError> {
        let kind = self.cell_kind(slot)?;
        // [`Dims::walls`]: all eight for an octagon, the diagonals for a connector.
        if kind != SlotKind::Octagon && !dir.is_diagonal() {
            return Err(GridError::NoSuchWall { slot, kind, dir });
        }
        Ok(kind)
    }

    /// The cell across wall `dir` of a cell of kind `kind` at `slot` (a checked wall), if
    /// it is inside the grid.
    fn across(self, kind: SlotKind, slot: Slot, dir: Direction) -> Option<Slot> {
        let (dr, dc) = match kind {
            SlotKind::Octagon => octagon_wall(dir).1,
            _ => dir.unit(),
        };
        slot.offset(dr, dc).filter(|s| self.contains(*s))
    }

    /// The cell on the other side of wall `dir` of the cell at `slot` (it sees this cell
    /// through wall `dir.opposite()`), or `None` when that wall is on the grid's border.
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when `slot` is outside the grid; [`GridError::WrongKind`] when it is a
    /// Void slot; [`GridError::NoSuchWall`] when `dir` is not one of its [`Dims::walls`] (a
    /// cardinal direction of a connector).
    pub fn neighbor(self, slot: Slot, dir: Direction) -> Result<Option<Slot>, GridError> {
        let kind = self.check_wall(slot, dir)?;
        Ok(self.across(kind, slot, dir))
    }

    /// The canonical id of wall `dir` of the cell at `slot`, or `None` on the grid's border
    /// (border edges face the solid outside and carry no state).
    ///
    /// # Errors
    ///
    /// As [`Dims::neighbor`]: [`GridError::OutOfBounds`], [`GridError::WrongKind`] or
    /// [`GridError::NoSuchWall`].
    pub fn edge(self, slot: Slot, dir: Direction) -> Result<Option<EdgeId>, GridError> {
        Ok(self.wall_beyond(slot, dir)?.map(|(_, edge)| edge))
    }

    /// [`Dims::neighbor`] and [`Dims::edge`] of one wall together, checked once: the cell
    /// across wall `dir` of the cell at `slot` and the edge between them, or `None` when
    /// that wall is on the grid's border.
    ///
    /// # Errors
    ///
    /// As [`Dims::neighbor`].
    ///
    /// # Panics
    ///
    /// Never: the `expect`s restate that `dir` was checked to be a wall of the cell and that
    /// the neighbour across it exists.
    pub fn wall_beyond(self, slot: Slot, dir: Direction) -> Result<Option<(Slot, EdgeId)>, GridError> {
        let kind = self.check_wall(slot, dir)?;
        let Some(beyond) = self.across(kind, slot, dir) else {
            return Ok(None);
        };
        Ok(Some((
            beyond,
            match kind {
                SlotKind::Connector => {
                    EdgeId::Short(slot, ConnectorWall::from_facing(dir).expect("invariant: checked diagonal"))
                }
                _ if dir.is_diagonal() => {
                    let (dr, dc) = dir.unit();
                    let conn = slot.offset(dr, dc).expect("invariant: neighbour exists");
                    EdgeId::Short(
                        conn,
                        ConnectorWall::from_facing(dir.opposite()).expect("invariant: diagonal"),
                    )
                }
                _ => {
                    let (dr, dc) = dir.unit();
                    EdgeId::Long(slot.offset(dr, dc).expect("invariant: neighbour exists"))
                }
            },
        )))
    }

    /// The two sides of an edge: each cell and the wall through which it sees the edge.
    /// For a long edge the first side is the north or west octagon; for a short edge the
    /// first side is the connector.
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when the edge's slot is outside the grid;
    /// [`GridError::WrongKind`] when a long edge's slot is not a Void slot or a short edge's
    /// slot is not a connector.
    ///
    /// # Panics
    ///
    /// Never: a connector is never on the grid's border, so the octagon across each of its
    /// walls exists.
    pub fn edge_sides(self, edge: EdgeId) -> Result<[(Slot, Direction); 2], GridError> {
        match edge {
            EdgeId::Long(void) => {
                if !self.contains(void) {
                    return Err(self.out_of_bounds(void));
                }
                if void.kind() != SlotKind::Void {
                    return Err(GridError::WrongKind {
                        slot: void,
                        kind: void.kind(),
                        expected: "a Void slot (a long edge)",
                    });
                }
                // Void slots always lie between two octagons inside the grid.
                let (a, b, dir) = if void.row & 1 == 1 {
                    (Slot::new(void.row - 1, void.col), Slot::new(void.row + 1, void.col), Direction::S)
                } else {
                    (Slot::new(void.row, void.col - 1), Slot::new(void.row, void.col + 1), Direction::E)
                };
                Ok([(a, dir), (b, dir.opposite())])
            }
            EdgeId::Short(conn, wall) => {
                match self.cell_kind(conn)? {
                    SlotKind::Connector => {}
                    kind => {
                        return Err(GridError::WrongKind {
                            slot: conn,
                            kind,
                            expected: "a connector (a short edge)",
                        });
                    }
                }
                let dir = wall.facing();
                let oct = self.neighbor(conn, dir)?.expect("invariant: connectors are interior");
                Ok([(conn, dir), (oct, dir.opposite())])
            }
        }
    }

    /// Size of the dense edge index space of one level (see [`Dims::edge_index`]).
    #[must_use]
    pub const fn edge_index_len(self) -> usize {
        self.slot_count() * 5
    }

    /// A dense index for an edge: a long edge uses its Void slot's flat index, a short edge
    /// `slot_count + 4 * connector_index + wall`. Only the slot's bounds are checked, not
    /// its kind: validate an edge of unknown origin with [`Dims::edge_sides`] first.
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when the edge's slot is outside the grid.
    pub fn edge_index(self, edge: EdgeId) -> Result<usize, GridError> {
        match edge {
            EdgeId::Long(void) => self.index(void),
            EdgeId::Short(conn, wall) => Ok(self.slot_count() + 4 * self.index(conn)? + wall.index()),
        }
    }

    /// The edge with dense index `index` ([`Dims::edge_index`]), or `None` when that index
    /// names no edge.
    #[must_use]
    pub fn edge_at(self, index: usize) -> Option<EdgeId> {
        let n = self.slot_count();
        if index < n {
            let slot = self.slot_at(index)?;
            (slot.kind() == SlotKind::Void).then_some(EdgeId::Long(slot))
        } else {
            let slot = self.slot_at((index - n) / 4)?;
            (slot.kind() == SlotKind::Connector)
                .then(|| EdgeId::Short(slot, ConnectorWall::ALL[(index - n) % 4]))
        }
    }

    /// Every edge of the level (long edges by Void slot, then short edges by connector),
    /// in dense-index order.
    pub fn edges(self) -> impl Iterator<Item = EdgeId> {
        (0..self.edge_index_len()).filter_map(move |i| self.edge_at(i))
    }

    fn out_of_bounds(self, slot: Slot) -> GridError {
        GridError::OutOfBounds { slot, rows: self.rows(), cols: self.cols() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edge_is_named_by_the_cells_a_user_sees() {
        let long = EdgeId::Long(Slot::new(4, 5)).to_string();
        assert_eq!(long, "the wall between the octagons at row 4, col 4 and row 4, col 6");
        let short = EdgeId::Short(Slot::new(1, 1), ConnectorWall::from_index(0).unwrap()).to_string();
        assert_eq!(short, "the wall between the connector at row 1, col 1 and the octagon at row 0, col 0");
    }

    #[test]
    fn ten_by_ten_counts() {
        let d = Dims::from_octagons(10, 10).unwrap();
        assert_eq!((d.rows(), d.cols()), (19, 19));
        let kinds: Vec<_> = d.slots().map(|s| s.kind()).collect();
        assert_eq!(kinds.iter().filter(|k| **k == SlotKind::Octagon).count(), 100);
        assert_eq!(kinds.iter().filter(|k| **k == SlotKind::Connector).count(), 81);
        assert_eq!(kinds.iter().filter(|k| **k == SlotKind::Void).count(), 180);
        assert_eq!(d.octagon_count(), 100);
        assert_eq!(d.connector_count(), 81);
    }

    #[test]
    fn bad_sizes_are_typed_errors() {
        assert!(matches!(Dims::from_octagons(0, 3), Err(GridError::BadSize { .. })));
        assert!(matches!(Dims::from_octagons(5000, 3), Err(GridError::BadSize { .. })));
    }

    #[test]
    fn wrong_kind_and_outside_are_errors() {
        let d = Dims::from_octagons(3, 3).unwrap();
        assert!(matches!(d.neighbor(Slot::new(0, 1), Direction::N), Err(GridError::WrongKind { .. })));
        assert!(matches!(d.neighbor(Slot::new(1, 1), Direction::N), Err(GridError::NoSuchWall { .. })));
        assert!(matches!(d.neighbor(Slot::new(9, 0), Direction::N), Err(GridError::OutOfBounds { .. })));
        assert!(matches!(d.require_octagon(Slot::new(1, 1)), Err(GridError::WrongKind { .. })));
        assert!(matches!(d.edge_sides(EdgeId::Long(Slot::new(0, 0))), Err(GridError::WrongKind { .. })));
    }

    #[test]
    fn border_walls_have_no_edge() {
        let d = Dims::from_octagons(1, 1).unwrap();
        for dir in Direction::ALL {
            assert_eq!(d.neighbor(Slot::new(0, 0), dir).unwrap(), None);
            assert_eq!(d.edge(Slot::new(0, 0), dir).unwrap(), None);
        }
        assert_eq!(d.edges().count(), 0);
    }

    #[test]
    fn edge_index_round_trips() {
        let d = Dims::from_octagons(4, 3).unwrap();
        let mut last = None;
        for e in d.edges() {
            let i = d.edge_index(e).unwrap();
            assert_eq!(d.edge_at(i), Some(e));
            assert!(last < Some(i), "edges come in dense-index order");
            last = Some(i);
        }
        // Every Void slot is a long edge; every connector has four short edges.
        let voids = d.slots().filter(|s| s.kind() == SlotKind::Void).count();
        assert_eq!(d.edges().count(), voids + 4 * d.connector_count());
        assert_eq!(d.edge_at(0), None); // slot (0,0) is an octagon, not an edge
    }
}
