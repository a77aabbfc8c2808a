//! Targeting footprints: the cells a spell or a shot touches. Own cell, adjacent, bolt
//! (stops at the first blocker), beam (passes through creatures, stops at walls), ball (a
//! bolt that bursts on the near side of what it hits), cone and burst. Walls are the
//! level's geometry (the sight rule of [`super::line_of_sight_points`]); what else blocks
//! a projectile or a burst (a creature, a force field) is a closure the caller passes.
//! Every footprint takes the dungeon or any [`Opacity`] source over it (smoke: a
//! [`super::Veil`] laid over it).

use glam::DVec2;

use super::line::{cell_center, crossing};
use super::{Opacity, SightError, field_of_view};
use crate::geometry::angle;
use crate::grid::Pos;

/// What stopped a bolt or a beam. `P` is the world point type: `(x, z)` metres on one
/// level ([`bolt`]), `(x, y, z)` across storeys ([`super::bolt_3d`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Hit<P = DVec2> {
    /// Nothing: it reached the target cell's centre (its eye point, across storeys).
    Reached,
    /// A wall (rock, a closed door, a pillar; a slab or a railing across storeys) at this
    /// world point.
    Wall(P),
    /// A cell the caller's closure said blocks (the last cell of the path).
    Blocker(Pos),
}

/// The path of a projectile and what stopped it (`P` as for [`Hit`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Bolt<P = DVec2> {
    /// The cells the line from the shooter's centre passes through, in order, from the
    /// shooter's own cell to the cell where it stopped (a blocker's cell included). Each
    /// cell shares an edge with the next on one level; across storeys a cell may follow
    /// the one above or below it.
    pub path: Vec<Pos>,
    /// What stopped it.
    pub hit: Hit<P>,
}

impl<P> Bolt<P> {
    /// The projectile through `cells` (the shooter's first) that the first of them after
    /// the shooter's own for which `blocks` is true stops, else the wall at `wall`, else
    /// nothing.
    pub(crate) fn through(
        cells: impl IntoIterator<Item = Pos>,
        wall: Option<P>,
        mut blocks: impl FnMut(Pos) -> bool,
    ) -> Bolt<P> {
        let mut path = Vec::new();
        for (i, pos) in cells.into_iter().enumerate() {
            path.push(pos);
            if i > 0 && blocks(pos) {
                return Bolt { path, hit: Hit::Blocker(pos) };
            }
        }
        Bolt { path, hit: wall.map_or(Hit::Reached, Hit::Wall) }
    }

    /// Where a ball carried by this projectile bursts: at the target when it got there,
    /// in the last cell before a wall, in the cell before a blocker; `None` when the path
    /// is empty (the shooter stands in rock).
    pub fn burst_cell(&self) -> Option<Pos> {
        match self.hit {
            Hit::Reached | Hit::Wall(_) => self.path.last().copied(),
            Hit::Blocker(_) => self.path.len().checked_sub(2).map(|i| self.path[i]),
        }
    }
}

/// The own-cell footprint: just `pos`, checked to be a cell.
///
/// # Errors
/// [`SightError::Position`] when `pos` is not a cell.
pub fn own<O: Opacity + ?Sized>(sight: &O, pos: Pos) -> Result<Vec<Pos>, SightError> {
    cell_center(sight.dungeon(), pos)?;
    Ok(vec![pos])
}

/// The cells next to `pos` that sight reaches across one seam ([`Opacity::seam_sight`]), in
/// the cell's wall order (clockwise from north).
///
/// # Errors
/// [`SightError::Position`] when `pos` is not a cell.
pub fn adjacent<O: Opacity + ?Sized>(sight: &O, pos: Pos) -> Result<Vec<Pos>, SightError> {
    let dungeon = sight.dungeon();
    cell_center(dungeon, pos)?;
    let dims = dungeon.dims();
    let walls = dims
        .walls(pos.slot)
        .map_err(|source| crate::dungeon::DungeonError::Grid { level: pos.level, source })?;
    Ok(walls
        .iter()
        .filter(|&&dir| sight.seam_sight(pos, dir).is_some())
        .filter_map(|&dir| dims.neighbor(pos.slot, dir).ok().flatten())
        .map(|slot| Pos { slot, ..pos })
        .collect())
}

/// A projectile from the centre of `from` towards the centre of `to`: the cells it
/// crosses until the first wall or the first cell (after its own) for which `blocks` is
/// true, where it stops.
///
/// # Errors
/// As [`super::line_of_sight`].
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::sight::{Hit, bolt};
///
/// let d = Dungeon::new(4, 1, 1, Proportions::default(), Fill::Floor)?;
/// let goblin = Pos::new(0, 0, 4);
/// let shot = bolt(&d, Pos::new(0, 0, 0), Pos::new(0, 0, 6), |p| p == goblin)?;
/// assert_eq!(shot.hit, Hit::Blocker(goblin));
/// assert_eq!(shot.path, [Pos::new(0, 0, 0), Pos::new(0, 0, 2), goblin]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bolt<O: Opacity + ?Sized>(
    sight: &O,
    from: Pos,
    to: Pos,
    blocks: impl FnMut(Pos) -> bool,
) -> Result<Bolt, SightError> {
    let dungeon = sight.dungeon();
    let (a, b) = (cell_center(dungeon, from)?, cell_center(dungeon, to)?);
    if from.level != to.level {
        return Err(SightError::LevelMismatch { from_level: from.level, to_level: to.level });
    }
    let line = crossing(sight, from.level, a, b)?;
    let cells = line.cells.into_iter().map(|slot| Pos { slot, ..from });
    Ok(Bolt::through(cells, line.blocked_at, blocks))
}

/// A beam from the centre of `from` towards the centre of `to`: like [`bolt`], but it
/// passes through every creature and stops only at walls.
///
/// # Errors
/// As [`bolt`].
pub fn beam<O: Opacity + ?Sized>(sight: &O, from: Pos, to: Pos) -> Result<Bolt, SightError> {
    bolt(sight, from, to, |_| false)
}

/// A ball: a [`bolt`] that bursts ([`burst`], `radius` metres) on the near side of what it
/// hits: at the target when it gets there, in the last cell before a wall, in the cell
/// before a blocker. Returns the bolt and the burst's cells (empty when the shooter stands
/// in rock).
///
/// # Errors
/// As [`bolt`] and [`burst`].
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::sight::{Hit, ball};
///
/// let d = Dungeon::new(6, 1, 1, Proportions::default(), Fill::Floor)?;
/// let ogre = Pos::new(0, 0, 6);
/// let (shot, blast) = ball(&d, Pos::new(0, 0, 0), Pos::new(0, 0, 10), 20.0, |p| p == ogre, |_| false)?;
/// assert_eq!(shot.hit, Hit::Blocker(ogre));
/// // It bursts in the cell before the ogre; 20 m reach one octagon either side of it.
/// assert_eq!(blast, [Pos::new(0, 0, 2), Pos::new(0, 0, 4), ogre]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn ball<O: Opacity + ?Sized>(
    sight: &O,
    from: Pos,
    to: Pos,
    radius: f64,
    blocks_bolt: impl FnMut(Pos) -> bool,
    blocks_burst: impl FnMut(Pos) -> bool,
) -> Result<(Bolt, Vec<Pos>), SightError> {
    let shot = bolt(sight, from, to, blocks_bolt)?;
    let cells = match shot.burst_cell() {
        Some(centre) => burst(sight, centre, radius, blocks_burst)?,
        None => Vec::new(),
    };
    Ok((shot, cells))
}

/// A burst centred on the cell `centre`: the cells whose centre is at most `radius` metres
/// from it and seen from it ([`field_of_view`]), and whose line from the centre crosses no
/// cell (between the two) for which `blocks` is true. Row-major; the centre's own cell is
/// included when it is carved.
///
/// # Errors
/// As [`field_of_view`].
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill, Registry};
/// use octile::geometry::Proportions;
/// use octile::grid::{Direction, Pos};
/// use octile::sight::burst;
///
/// let mut d = Dungeon::new(3, 1, 1, Proportions::default(), Fill::Floor)?;
/// d.set_edge(Pos::new(0, 0, 2), Direction::E, Registry::WALL)?;
/// let hit = burst(&d, Pos::new(0, 0, 2), 20.0, |_| false)?;
/// assert!(hit.contains(&Pos::new(0, 0, 0)));
/// assert!(!hit.contains(&Pos::new(0, 0, 4)), "behind the wall");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn burst<O: Opacity + ?Sized>(
    sight: &O,
    centre: Pos,
    radius: f64,
    mut blocks: impl FnMut(Pos) -> bool,
) -> Result<Vec<Pos>, SightError> {
    let seen = field_of_view(sight, centre, radius)?;
    let dungeon = sight.dungeon();
    let eye = cell_center(dungeon, centre)?;
    let layout = dungeon.layout();
    let mut out = Vec::with_capacity(seen.len());
    for slot in seen.iter() {
        let line = crossing(sight, centre.level, eye, layout.center(slot))?;
        let inner = line.cells.iter().skip(1).filter(|&&s| s != slot);
        let stopped = inner.into_iter().any(|&s| blocks(Pos { slot: s, ..centre }));
        if line.blocked_at.is_none() && !stopped {
            out.push(Pos { slot, ..centre });
        }
    }
    Ok(out)
}

/// A cone from the cell `origin` aimed at the centre of `toward`: the cells of a [`burst`]
/// from `origin` (`radius` metres, `blocks`) other than `origin` itself whose centre lies
/// within `half_angle` radians of the aim, seen from `origin`'s centre.
///
/// # Errors
/// As [`burst`]; [`SightError::BadMeasure`] for a half angle outside `0..=PI` and for
/// `toward` at `origin`'s centre (no aim).
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::sight::cone;
///
/// let d = Dungeon::new(5, 5, 1, Proportions::default(), Fill::Floor)?;
/// let (origin, east) = (Pos::new(0, 4, 4), Pos::new(0, 4, 8));
/// let breath = cone(&d, origin, east, 0.5, 40.0, |_| false)?;
/// assert!(breath.contains(&Pos::new(0, 4, 6)) && breath.contains(&east));
/// assert!(!breath.contains(&Pos::new(0, 4, 2)), "behind the origin");
/// assert!(!breath.contains(&origin));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn cone<O: Opacity + ?Sized>(
    sight: &O,
    origin: Pos,
    toward: Pos,
    half_angle: f64,
    radius: f64,
    blocks: impl FnMut(Pos) -> bool,
) -> Result<Vec<Pos>, SightError> {
    if !(0.0..=std::f64::consts::PI).contains(&half_angle) {
        return Err(SightError::BadMeasure { what: "half angle", value: half_angle });
    }
    let dungeon = sight.dungeon();
    let (o, t) = (cell_center(dungeon, origin)?, cell_center(dungeon, toward)?);
    let aim = (t - o).normalize_or_zero();
    if aim == DVec2::ZERO {
        return Err(SightError::BadMeasure { what: "aim distance", value: 0.0 });
    }
    let cos_half = angle::cos(half_angle);
    let layout = dungeon.layout();
    let mut cells = burst(sight, origin, radius, blocks)?;
    cells.retain(|p| {
        let v = layout.center(p.slot) - o;
        *p != origin && v.dot(aim) >= cos_half * v.length()
    });
    Ok(cells)
}
