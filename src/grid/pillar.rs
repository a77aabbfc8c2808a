//! Pillars: the triangles at the ends of every long seam (docs/design.md, "World space" and "Pillars"),
//! named canonically by their connector and the tip they sit at, and what each touches.
//!
//! A pillar touches three cells (the octagons A and B either side of its long seam, and
//! its connector C) and three seams (the long seam A-B and the diagonal seams A-C and B-C).
//! Its right-angle corner is C's tip. Each connector has four pillars, one per tip.

use super::{ConnectorWall, Dims, Direction, EdgeId, GridError, Slot, SlotKind};

/// One pillar's canonical id: its connector's slot and the tip (N, E, S or W) it sits at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PillarId {
    connector: Slot,
    tip: Direction,
}

impl PillarId {
    /// The pillar at tip `tip` of the connector at `connector`.
    ///
    /// # Errors
    ///
    /// [`GridError::WrongKind`] when `connector` is not a connector slot;
    /// [`GridError::NoSuchTip`] when `tip` is a diagonal (a connector's tips are N, E, S, W).
    pub fn new(connector: Slot, tip: Direction) -> Result<PillarId, GridError> {
        match connector.kind() {
            SlotKind::Connector => {}
            kind => return Err(GridError::WrongKind { slot: connector, kind, expected: "a connector" }),
        }
        if tip.is_diagonal() {
            return Err(GridError::NoSuchTip { slot: connector, dir: tip });
        }
        Ok(PillarId { connector, tip })
    }

    /// The connector the pillar's right-angle corner touches.
    #[must_use]
    pub const fn connector(self) -> Slot {
        self.connector
    }

    /// The connector's tip the pillar sits at: N, E, S or W.
    #[must_use]
    pub const fn tip(self) -> Direction {
        self.tip
    }

    /// The two diagonals either side of the tip (counter-clockwise first): the directions
    /// from the connector to the octagons A and B.
    fn flanks(self) -> [Direction; 2] {
        let i = self.tip.index();
        [Direction::from_index(i + 7), Direction::from_index(i + 1)]
    }

    /// The octagons A and B either side of the pillar's long seam (counter-clockwise of the
    /// tip first). Upper bounds are the caller's business ([`Dims::check_pillar`]: a
    /// connector inside the grid has all four octagons round it inside too).
    ///
    /// # Panics
    ///
    /// Never: a connector's row and column are odd, so at least 1.
    #[must_use]
    pub fn octagons(self) -> [Slot; 2] {
        self.flanks().map(|d| {
            let (dr, dc) = d.unit();
            self.connector.offset(dr, dc).expect("invariant: a connector is not on row or col 0")
        })
    }

    /// The three cells the pillar touches: octagons A and B, then the connector C.
    #[must_use]
    pub fn cells(self) -> [Slot; 3] {
        let [a, b] = self.octagons();
        [a, b, self.connector]
    }

    /// The long seam A-B, named by its Void slot.
    ///
    /// # Panics
    ///
    /// Never: a connector's row and column are odd, so at least 1.
    #[must_use]
    pub fn long_seam(self) -> EdgeId {
        let (dr, dc) = self.tip.unit();
        EdgeId::Long(self.connector.offset(dr, dc).expect("invariant: a connector is not on row or col 0"))
    }

    /// The three seams the pillar touches: the long seam A-B, then the diagonal seams A-C
    /// and B-C.
    ///
    /// # Panics
    ///
    /// Never: the flanks of a cardinal tip are diagonals, which name connector walls.
    #[must_use]
    pub fn seams(self) -> [EdgeId; 3] {
        let [a, b] = self.flanks().map(|d| {
            EdgeId::Short(self.connector, ConnectorWall::from_facing(d).expect("invariant: a diagonal"))
        });
        [self.long_seam(), a, b]
    }
}

impl std::fmt::Display for PillarId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the pillar at tip {} of the connector at {}", self.tip.name(), self.connector)
    }
}

impl Dims {
    /// Checks that `pillar`'s connector lies inside the grid (then so do its octagons and
    /// seams).
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when it does not.
    pub fn check_pillar(self, pillar: PillarId) -> Result<(), GridError> {
        self.index(pillar.connector).map(|_| ())
    }

    /// Size of the dense pillar index space of one level: four per connector.
    #[must_use]
    pub const fn pillar_index_len(self) -> usize {
        4 * self.connector_count()
    }

    /// A dense index for a pillar: `4 * connector_index + tip`, connectors row-major, tips
    /// N, E, S, W.
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] when the pillar's connector is outside the grid.
    pub fn pillar_index(self, pillar: PillarId) -> Result<usize, GridError> {
        self.check_pillar(pillar)?;
        let Slot { row, col } = pillar.connector;
        let connector = (row as usize / 2) * (self.octagon_cols() as usize - 1) + col as usize / 2;
        Ok(4 * connector + pillar.tip.index() / 2)
    }

    /// The pillar with dense index `index` ([`Dims::pillar_index`]), or `None` past the end.
    #[must_use]
    pub fn pillar_at(self, index: usize) -> Option<PillarId> {
        if index >= self.pillar_index_len() {
            return None;
        }
        let (connector, tip) = (index / 4, index % 4);
        let per_row = self.octagon_cols() as usize - 1;
        let slot = Slot::new(2 * (connector / per_row) as u32 + 1, 2 * (connector % per_row) as u32 + 1);
        Some(PillarId { connector: slot, tip: Direction::CARDINALS[tip] })
    }

    /// Every pillar of the level, in dense-index order.
    pub fn pillars(self) -> impl Iterator<Item = PillarId> {
        (0..self.pillar_index_len()).filter_map(move |i| self.pillar_at(i))
    }

    /// The four pillars of the connector at `connector`, tips N, E, S, W.
    ///
    /// # Errors
    ///
    /// [`GridError::OutOfBounds`] outside the grid; [`GridError::WrongKind`] when it is not a
    /// connector.
    pub fn connector_pillars(self, connector: Slot) -> Result<[PillarId; 4], GridError> {
        match self.cell_kind(connector)? {
            SlotKind::Connector => Ok(Direction::CARDINALS.map(|tip| PillarId { connector, tip })),
            kind => Err(GridError::WrongKind { slot: connector, kind, expected: "a connector" }),
        }
    }

    /// The pillars that touch the cell at `slot`: a connector's four, an octagon's up to
    /// eight (two at each diagonal, where a connector inside the grid stands).
    ///
    /// # Errors
    ///
    /// As [`Dims::cell_kind`].
    pub fn cell_pillars(self, slot: Slot) -> Result<Vec<PillarId>, GridError> {
        if self.cell_kind(slot)? == SlotKind::Connector {
            return Ok(self.connector_pillars(slot)?.to_vec());
        }
        let mut out = Vec::with_capacity(8);
        for d in Direction::DIAGONALS {
            let (dr, dc) = d.unit();
            let Some(connector) = slot.offset(dr, dc).filter(|&c| self.contains(c)) else { continue };
            // The connector's two tips either side of the diagonal back to this octagon.
            let back = d.opposite().index();
            for tip in [Direction::from_index(back + 7), Direction::from_index(back + 1)] {
                out.push(PillarId { connector, tip });
            }
        }
        Ok(out)
    }

    /// The pillars that touch the seam `edge`: one at each end of it that has a connector
    /// inside the grid (a long seam on the grid's border has one; a diagonal seam always
    /// two, both at its connector).
    ///
    /// # Errors
    ///
    /// As [`Dims::edge_sides`].
    pub fn edge_pillars(self, edge: EdgeId) -> Result<Vec<PillarId>, GridError> {
        self.edge_sides(edge)?;
        Ok(match edge {
            EdgeId::Long(void) => {
                // The seam's ends lie along it: east and west of an east-west seam (its
                // octagons north and south), north and south of a north-south one.
                let ends = if void.row & 1 == 1 {
                    [(0, -1, Direction::E), (0, 1, Direction::W)]
                } else {
                    [(-1, 0, Direction::S), (1, 0, Direction::N)]
                };
                ends.into_iter()
                    .filter_map(|(dr, dc, tip)| {
                        let connector = void.offset(dr, dc).filter(|&c| self.contains(c))?;
                        Some(PillarId { connector, tip })
                    })
                    .collect()
            }
            EdgeId::Short(connector, wall) => {
                let i = wall.facing().index();
                [Direction::from_index(i + 7), Direction::from_index(i + 1)]
                    .map(|tip| PillarId { connector, tip })
                    .to_vec()
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pillar_names_its_cells_and_seams() {
        let p = PillarId::new(Slot::new(3, 5), Direction::N).unwrap();
        assert_eq!(p.cells(), [Slot::new(2, 4), Slot::new(2, 6), Slot::new(3, 5)]);
        let tl = ConnectorWall::TL;
        let tr = ConnectorWall::TR;
        assert_eq!(
            p.seams(),
            [
                EdgeId::Long(Slot::new(2, 5)),
                EdgeId::Short(Slot::new(3, 5), tl),
                EdgeId::Short(Slot::new(3, 5), tr)
            ]
        );
        let e = PillarId::new(Slot::new(3, 5), Direction::E).unwrap();
        assert_eq!(e.octagons(), [Slot::new(2, 6), Slot::new(4, 6)]);
        assert_eq!(e.long_seam(), EdgeId::Long(Slot::new(3, 6)));
        assert!(matches!(PillarId::new(Slot::new(2, 2), Direction::N), Err(GridError::WrongKind { .. })));
        let err = PillarId::new(Slot::new(1, 1), Direction::NE).unwrap_err();
        assert!(matches!(err, GridError::NoSuchTip { .. }), "{err}");
        assert!(err.to_string().contains("row 1, col 1") && err.to_string().contains("NE"), "{err}");
    }

    #[test]
    fn every_seam_a_pillar_touches_lists_the_pillar_and_joins_two_of_its_cells() {
        let d = Dims::from_octagons(4, 3).unwrap();
        let mut seen = 0;
        for p in d.pillars() {
            assert_eq!(d.pillar_at(d.pillar_index(p).unwrap()), Some(p));
            let cells = p.cells();
            for seam in p.seams() {
                assert!(d.edge_pillars(seam).unwrap().contains(&p), "{p} {seam:?}");
                let [(a, _), (b, _)] = d.edge_sides(seam).unwrap();
                assert!(cells.contains(&a) && cells.contains(&b), "{p} {seam:?}");
            }
            for cell in cells {
                assert!(d.cell_pillars(cell).unwrap().contains(&p), "{p} {cell}");
            }
            seen += 1;
        }
        assert_eq!(seen, 4 * d.connector_count());
        // Each listing names only pillars that touch it.
        for cell in d.cells() {
            for p in d.cell_pillars(cell).unwrap() {
                assert!(p.cells().contains(&cell));
            }
        }
        for edge in d.edges() {
            let listed = d.edge_pillars(edge).unwrap();
            assert!(!listed.is_empty() && listed.len() <= 2, "{edge:?}");
            for p in listed {
                assert!(p.seams().contains(&edge));
            }
        }
        let outside = PillarId::new(Slot::new(5, 1), Direction::N).unwrap();
        assert!(matches!(d.pillar_index(outside), Err(GridError::OutOfBounds { .. })));
        assert_eq!(d.pillar_at(d.pillar_index_len()), None);
    }
}
