//! Line of sight between two cells or two world points of one level, and the cells a
//! straight line crosses (the walk is in `trace.rs`).

use glam::DVec2;

use super::trace::Trace;
use super::{Opacity, SightError};
use crate::dungeon::Dungeon;
use crate::grid::{Pos, Slot};

/// Refuses a dungeon sight cannot model (tight spacing: walls without thickness).
pub(crate) fn check_spacing(dungeon: &Dungeon) -> Result<(), SightError> {
    if dungeon.layout().gap() > 0.0 { Ok(()) } else { Err(SightError::TightSpacing) }
}

/// Checks that `level` exists and `point` is finite.
pub(crate) fn check_point(dungeon: &Dungeon, level: u16, point: DVec2) -> Result<(), SightError> {
    dungeon.tile_layer(level)?;
    if point.is_finite() { Ok(()) } else { Err(SightError::NonFinitePoint { level, x: point.x, z: point.y }) }
}

/// Checks that `pos` is a cell of the dungeon and returns its centre in `(x, z)` metres.
pub(crate) fn cell_center(dungeon: &Dungeon, pos: Pos) -> Result<DVec2, SightError> {
    dungeon.tile(pos)?;
    Ok(dungeon.layout().center(pos.slot))
}

/// Line of sight between `a` and `b` on one level, both checked. The endpoints are put in
/// a canonical order first (the smaller `(x, z)` first), so the answer is the same both
/// ways bit for bit.
pub(crate) fn sees<O: Opacity + ?Sized>(sight: &O, level: u16, a: DVec2, b: DVec2) -> bool {
    let (p, q) = if (a.x, a.y) <= (b.x, b.y) { (a, b) } else { (b, a) };
    Trace::new(sight, level, p, q).first_block(None).is_none()
}

/// True when the cells `from` and `to` see each other. On one level: the straight segment
/// between their centres lies in carved space that passes sight (see
/// [`line_of_sight_points`] for exactly what blocks and what grazes). On different levels:
/// the segment between their eye points ([`super::eye_point`]) is clear through the carved
/// volume of every level ([`super::line_of_sight_3d`]: down an atrium, up a stair's
/// shaft, over a railing). The two agree on one level wherever doors are higher than
/// [`super::EYE_HEIGHT`]. Symmetric: `line_of_sight(d, a, b)` equals
/// `line_of_sight(d, b, a)`. A cell in rock sees nothing. `sight` is the dungeon, or any
/// [`Opacity`] source over it (smoke laid over the dungeon: [`super::Veil::over`]).
///
/// # Errors
/// [`SightError::Position`] when either position is not a cell of `dungeon`;
/// [`SightError::TightSpacing`] for a dungeon without seams.
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill, Registry};
/// use octile::geometry::Proportions;
/// use octile::grid::{Direction, Pos};
/// use octile::sight::line_of_sight;
///
/// // Three octagons in a row, all open.
/// let mut d = Dungeon::new(3, 1, 1, Proportions::default(), Fill::Floor)?;
/// let (west, east) = (Pos::new(0, 0, 0), Pos::new(0, 0, 4));
/// assert!(line_of_sight(&d, west, east)?);
/// // A wall across the middle octagon's east edge blocks the view.
/// d.set_edge(Pos::new(0, 0, 2), Direction::E, Registry::WALL)?;
/// assert!(!line_of_sight(&d, west, east)?);
/// assert!(!line_of_sight(&d, east, west)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn line_of_sight<O: Opacity + ?Sized>(sight: &O, from: Pos, to: Pos) -> Result<bool, SightError> {
    let dungeon = sight.dungeon();
    check_spacing(dungeon)?;
    let (a, b) = (cell_center(dungeon, from)?, cell_center(dungeon, to)?);
    if from.level != to.level {
        let (a, b) = (super::eye_point(dungeon, from)?, super::eye_point(dungeon, to)?);
        return Ok(super::space::sees_3d(sight, a, b, &mut Vec::new()));
    }
    Ok(sees(sight, from.level, a, b))
}

/// True when world points `a` and `b` (`(x, z)` metres) on `level` see each other: every
/// point of the closed segment between them lies in a closed piece of the plan that passes
/// sight (a carved, non-opaque cell; an open seam; the door-wide passage of a door whose
/// edge state is not opaque), up to [`super::TOLERANCE`]. So:
/// - a wall, a closed door, a pillar, rock and the outside of the grid block;
/// - touching rock is not blocking: a line that grazes a pillar's corner or runs along a
///   wall face sees past it, and a line through the point where two rock pieces meet
///   corner to corner passes;
/// - an endpoint in rock sees nothing (not even itself).
///
/// Symmetric: the endpoints are ordered canonically before the walk. `sight` is the
/// dungeon or any [`Opacity`] source over it.
///
/// # Errors
/// [`SightError::Position`] for a level out of range, [`SightError::NonFinitePoint`],
/// [`SightError::TightSpacing`].
///
/// # Example
/// ```
/// use glam::DVec2;
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::sight::line_of_sight_points;
///
/// let d = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Floor)?;
/// let s = d.layout().spacing();
/// // Across the open connector in the middle, from one octagon to the diagonal one.
/// assert!(line_of_sight_points(&d, 0, DVec2::ZERO, DVec2::new(2.0 * s, 2.0 * s))?);
/// // Straight through the pillar beside that connector.
/// let pillar = DVec2::new(s, s - d.proportions().cut() - 0.5);
/// assert!(!line_of_sight_points(&d, 0, DVec2::new(s - 3.0, 0.0), pillar)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn line_of_sight_points<O: Opacity + ?Sized>(
    sight: &O,
    level: u16,
    a: DVec2,
    b: DVec2,
) -> Result<bool, SightError> {
    let dungeon = sight.dungeon();
    check_spacing(dungeon)?;
    check_point(dungeon, level, a)?;
    check_point(dungeon, level, b)?;
    Ok(sees(sight, level, a, b))
}

/// What a straight line from `from` towards `to` met: the cells it passed through in order
/// and where it stopped.
#[derive(Debug, Clone, PartialEq)]
pub struct Crossing {
    /// The cells the line passes through for more than [`super::TOLERANCE`], in the order
    /// it enters them, up to where it stopped (the start's own cell first).
    pub cells: Vec<Slot>,
    /// Where the line first enters rock (world `(x, z)` metres), `None` when it reaches
    /// `to` in the clear.
    pub blocked_at: Option<DVec2>,
}

/// The cells a straight line from world point `from` to `to` on `level` crosses until it
/// first enters rock, in order. Directional (a line is walked from `from`), unlike
/// [`line_of_sight_points`]; the blocking rule is the same.
///
/// # Errors
/// As [`line_of_sight_points`].
pub fn crossing<O: Opacity + ?Sized>(
    sight: &O,
    level: u16,
    from: DVec2,
    to: DVec2,
) -> Result<Crossing, SightError> {
    let dungeon = sight.dungeon();
    check_spacing(dungeon)?;
    check_point(dungeon, level, from)?;
    check_point(dungeon, level, to)?;
    let trace = Trace::new(sight, level, from, to);
    let mut entered = Vec::new();
    let block = trace.first_block(Some(&mut entered));
    entered.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let stop = block.unwrap_or(f64::INFINITY);
    let mut cells: Vec<Slot> = Vec::new();
    for (t, pos) in entered {
        if t < stop && !cells.contains(&pos.slot) {
            cells.push(pos.slot);
        }
    }
    Ok(Crossing { cells, blocked_at: block.map(|t| trace.at(t)) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::{Proportions, Spacing};
    use crate::grid::Direction;

    #[test]
    fn open_floor_sees_and_walls_block() {
        let mut d = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor).unwrap();
        let (a, b) = (Pos::new(0, 0, 0), Pos::new(0, 4, 4));
        assert!(line_of_sight(&d, a, b).unwrap());
        d.set_tile(Pos::new(0, 2, 2), Registry::SOLID).unwrap();
        // The diagonal passes through the middle octagon, now rock.
        assert!(!line_of_sight(&d, a, b).unwrap());
        let c = crossing(&d, 0, d.layout().center(a.slot), d.layout().center(b.slot)).unwrap();
        assert_eq!(c.cells, [Slot::new(0, 0), Slot::new(1, 1)]);
        assert!(c.blocked_at.is_some());
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::WALL).unwrap();
        assert!(!line_of_sight(&d, a, Pos::new(0, 0, 2)).unwrap());
    }

    #[test]
    fn bad_input_is_refused() {
        let d = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Floor).unwrap();
        assert!(matches!(
            line_of_sight(&d, Pos::new(0, 0, 1), Pos::new(0, 0, 0)),
            Err(SightError::Position(_))
        ));
        assert!(matches!(
            line_of_sight_points(&d, 0, DVec2::new(f64::NAN, 0.0), DVec2::ZERO),
            Err(SightError::NonFinitePoint { level: 0, .. })
        ));
        let two = Dungeon::new(2, 2, 2, Proportions::default(), Fill::Floor).unwrap();
        assert_eq!(line_of_sight(&two, Pos::new(0, 0, 0), Pos::new(1, 0, 0)), Ok(false), "a slab between");
        let tight = Proportions { spacing: Spacing::Tight, ..Default::default() };
        let t = Dungeon::new(2, 2, 1, tight, Fill::Floor).unwrap();
        assert_eq!(line_of_sight(&t, Pos::new(0, 0, 0), Pos::new(0, 0, 2)), Err(SightError::TightSpacing));
    }
}
