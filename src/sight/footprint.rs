//! One targeting API: a [`TargetMode`] resolved by [`footprint`] into the cells a spell or
//! a shot touches and the path its projectile flies. Areas are integer shapes of the grid
//! ([`crate::grid::disc`], [`crate::grid::cone`]) tested cell by cell with a line from
//! their centre, so a burst or a cone never runs a whole field of view, and nothing uses
//! the platform's trigonometry: the answer is the same on every platform.

use super::line::{cell_center, crossing, sees};
use super::target::{adjacent, bolt};
use super::{Hit, Opacity, SightError};
use crate::grid::{Direction, Pos, cone, disc};

/// How a spell or a shot is aimed. Radii are in slots (one slot is the cell spacing along
/// a row or a column: two octagons side by side are 2 slots apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetMode {
    /// The caster's own cell.
    Own,
    /// The cells next to the caster that sight reaches across one seam.
    Adjacent,
    /// A projectile towards `to` that stops at the first wall or blocker; it affects the
    /// cell where it stops.
    Bolt {
        /// The cell aimed at.
        to: Pos,
    },
    /// A projectile towards `to` that passes through blockers and stops at walls; it
    /// affects every cell on its way.
    Beam {
        /// The cell aimed at.
        to: Pos,
    },
    /// A [`TargetMode::Bolt`] that bursts ([`TargetMode::Burst`]) on the near side of what
    /// it hits: at the target when it gets there, in the last cell before a wall, in the
    /// cell before a blocker.
    Ball {
        /// The cell aimed at.
        to: Pos,
        /// The burst's radius, in slots.
        radius: u32,
    },
    /// The cells within `radius` slots of the caster, in the quarter of the disc within 45
    /// degrees of `dir` ([`crate::grid::cone`]), reached by a clear line from the caster.
    Cone {
        /// The direction of the cone's axis.
        dir: Direction,
        /// The radius, in slots.
        radius: u32,
    },
    /// The cells within `radius` slots of the caster ([`crate::grid::disc`]) reached by a
    /// clear line from the caster, the caster's own cell included.
    Burst {
        /// The radius, in slots.
        radius: u32,
    },
}

/// What a [`TargetMode`] touches.
#[derive(Debug, Clone, PartialEq)]
pub struct Footprint {
    /// The cells affected, in the order the mode gives them (a beam's in flight order,
    /// an area's row-major).
    pub cells: Vec<Pos>,
    /// The projectile's path, from the caster's cell to where it stopped (empty for the
    /// modes without one: own, adjacent, cone, burst).
    pub path: Vec<Pos>,
    /// What stopped the projectile (`None` for the modes without one).
    pub hit: Option<Hit>,
}

/// Resolves `mode`, cast from the cell `from`, into its [`Footprint`], against the plan
/// and opacity of `sight` (the dungeon, or smoke laid over it). What else blocks is the
/// caller's: `blocks_projectile(pos)` stops a bolt (or a ball's flight) in the cell `pos`
/// (a creature), and `blocks_area(pos)` keeps a burst, a ball's burst or a cone from
/// spreading through `pos` (a force field); the caster's own cell never blocks its cast.
///
/// Areas are tested cell by cell: a cell of the shape is in when the line from the
/// centre of the area's origin to its centre is clear (the line-of-sight rule) and passes
/// no cell, between the two, that `blocks_area` refuses.
///
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::sight::{Hit, TargetMode, footprint};
///
/// // A hall of 6 x 3 octagons; a goblin stands between the caster and the far wall.
/// let d = Dungeon::new(6, 3, 1, Proportions::default(), Fill::Floor)?;
/// let (caster, goblin) = (Pos::new(0, 2, 0), Pos::new(0, 2, 6));
/// let fireball = TargetMode::Ball { to: Pos::new(0, 2, 10), radius: 2 };
/// let hit = footprint(&d, caster, &fireball, |p| p == goblin, |_| false)?;
/// assert_eq!(hit.hit, Some(Hit::Blocker(goblin)));
/// assert_eq!(hit.path.last(), Some(&goblin));
/// // It bursts in the cell before the goblin, and the blast reaches the goblin.
/// assert!(hit.cells.contains(&Pos::new(0, 2, 4)) && hit.cells.contains(&goblin));
/// # Ok::<(), octile::sight::SightError>(())
/// ```
///
/// # Errors
///
/// [`SightError::Position`] when `from` (or a mode's target) is not a cell;
/// [`SightError::LevelMismatch`] for a target on another level;
/// [`SightError::TightSpacing`] for a dungeon without seams.
pub fn footprint<O: Opacity + ?Sized>(
    sight: &O,
    from: Pos,
    mode: &TargetMode,
    mut blocks_projectile: impl FnMut(Pos) -> bool,
    mut blocks_area: impl FnMut(Pos) -> bool,
) -> Result<Footprint, SightError> {
    let area = |cells| Footprint { cells, path: Vec::new(), hit: None };
    match *mode {
        TargetMode::Own => {
            cell_center(sight.dungeon(), from)?;
            Ok(area(vec![from]))
        }
        TargetMode::Adjacent => Ok(area(adjacent(sight, from)?)),
        TargetMode::Bolt { to } => {
            let shot = bolt(sight, from, to, &mut blocks_projectile)?;
            let cells = shot.path.last().copied().into_iter().collect();
            Ok(Footprint { cells, path: shot.path, hit: Some(shot.hit) })
        }
        TargetMode::Beam { to } => {
            let shot = bolt(sight, from, to, |_| false)?;
            Ok(Footprint { cells: shot.path.clone(), path: shot.path, hit: Some(shot.hit) })
        }
        TargetMode::Ball { to, radius } => {
            let shot = bolt(sight, from, to, &mut blocks_projectile)?;
            let cells = match shot.burst_cell() {
                Some(centre) => spread(sight, centre, disc_of(sight, centre, radius), &mut blocks_area)?,
                None => Vec::new(),
            };
            Ok(Footprint { cells, path: shot.path, hit: Some(shot.hit) })
        }
        TargetMode::Cone { dir, radius } => {
            let shape: Vec<Pos> = cone(sight.dungeon().dims(), from.slot, dir, radius)
                .map(|slot| Pos { slot, ..from })
                .collect();
            Ok(area(spread(sight, from, shape, &mut blocks_area)?))
        }
        TargetMode::Burst { radius } => {
            Ok(area(spread(sight, from, disc_of(sight, from, radius), &mut blocks_area)?))
        }
    }
}

/// The cells of the disc of `radius` slots round `centre`.
fn disc_of<O: Opacity + ?Sized>(sight: &O, centre: Pos, radius: u32) -> Vec<Pos> {
    disc(sight.dungeon().dims(), centre.slot, radius).map(|slot| Pos { slot, ..centre }).collect()
}

/// The cells of `shape` that a clear line from `origin`'s centre reaches without passing a
/// cell (between the two) that `blocks` refuses; empty when `origin` does not pass sight.
fn spread<O: Opacity + ?Sized>(
    sight: &O,
    origin: Pos,
    shape: Vec<Pos>,
    blocks: &mut impl FnMut(Pos) -> bool,
) -> Result<Vec<Pos>, SightError> {
    let dungeon = sight.dungeon();
    let eye = cell_center(dungeon, origin)?;
    if !sight.cell_passes(origin) {
        return Ok(Vec::new());
    }
    let layout = dungeon.layout();
    let mut out = Vec::with_capacity(shape.len());
    for pos in shape {
        let centre = layout.center(pos.slot);
        // The plain line of sight first: it skips the cells it would list.
        if !sight.cell_passes(pos) || !sees(sight, origin.level, eye, centre) {
            continue;
        }
        let line = crossing(sight, origin.level, eye, centre)?;
        let inner = line.cells.iter().skip(1).filter(|&&s| s != pos.slot);
        let stopped = inner.into_iter().any(|&s| blocks(Pos { slot: s, ..origin }));
        if line.blocked_at.is_none() && !stopped {
            out.push(pos);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Dungeon, Fill, Registry};
    use crate::geometry::Proportions;
    use crate::sight::{Veil, ball, beam, burst};

    /// A 7 x 6 hall with walls, a rock cell and smoke laid over it.
    fn hall() -> Dungeon {
        let mut d = Dungeon::new(7, 6, 1, Proportions::default(), Fill::Floor).unwrap();
        for (row, col, dir) in [(2, 2, Direction::E), (4, 6, Direction::S), (6, 8, Direction::W)] {
            d.set_edge(Pos::new(0, row, col), dir, Registry::WALL).unwrap();
        }
        d.set_tile(Pos::new(0, 6, 4), Registry::SOLID).unwrap();
        d
    }

    #[test]
    fn bursts_and_balls_match_the_field_of_view_footprints() {
        let d = hall();
        let mut veil = Veil::new();
        veil.block_cell(Pos::new(0, 4, 8));
        let smoke = veil.over(&d);
        let s = d.layout().spacing();
        let blocker = Pos::new(0, 5, 5);
        for centre in [Pos::new(0, 4, 4), Pos::new(0, 0, 0), Pos::new(0, 7, 9), Pos::new(0, 10, 12)] {
            for radius in [0, 1, 3, 6] {
                let metres = f64::from(radius) * s + 1e-9;
                let mode = TargetMode::Burst { radius };
                let ours = footprint(&smoke, centre, &mode, |_| false, |p| p == blocker).unwrap();
                let theirs = burst(&smoke, centre, metres, |p| p == blocker).unwrap();
                assert_eq!(ours.cells, theirs, "burst at {centre} radius {radius}");
                let to = Pos::new(0, 4, 12);
                let mode = TargetMode::Ball { to, radius };
                let ours = footprint(&smoke, centre, &mode, |p| p == blocker, |_| false).unwrap();
                let (shot, cells) = ball(&smoke, centre, to, metres, |p| p == blocker, |_| false).unwrap();
                assert_eq!((ours.path, ours.hit, ours.cells), (shot.path, Some(shot.hit), cells));
            }
        }
        let line = footprint(
            &d,
            Pos::new(0, 0, 0),
            &TargetMode::Beam { to: Pos::new(0, 0, 12) },
            |_| true,
            |_| true,
        );
        assert_eq!(line.unwrap().cells, beam(&d, Pos::new(0, 0, 0), Pos::new(0, 0, 12)).unwrap().path);
    }

    #[test]
    fn a_cone_is_the_burst_within_45_degrees_and_the_simple_modes_hold() {
        let d = hall();
        let origin = Pos::new(0, 4, 4);
        let all =
            footprint(&d, origin, &TargetMode::Burst { radius: 5 }, |_| false, |_| false).unwrap().cells;
        let mut union = Vec::new();
        for dir in Direction::ALL {
            let part =
                footprint(&d, origin, &TargetMode::Cone { dir, radius: 5 }, |_| false, |_| false).unwrap();
            assert!(part.cells.iter().all(|p| all.contains(p) && *p != origin), "{dir:?}");
            assert!(!part.cells.is_empty() && part.path.is_empty() && part.hit.is_none());
            union.extend(part.cells);
        }
        union.sort();
        union.dedup();
        assert_eq!(union, all.iter().copied().filter(|&p| p != origin).collect::<Vec<_>>());
        let own = footprint(&d, origin, &TargetMode::Own, |_| true, |_| true).unwrap();
        assert_eq!(own.cells, [origin]);
        let next = footprint(&d, origin, &TargetMode::Adjacent, |_| true, |_| true).unwrap();
        assert_eq!(next.cells, adjacent(&d, origin).unwrap());
        let shot = footprint(
            &d,
            origin,
            &TargetMode::Bolt { to: Pos::new(0, 4, 12) },
            |p| p.slot.col == 8,
            |_| false,
        );
        let shot = shot.unwrap();
        assert_eq!(
            (shot.cells.as_slice(), shot.hit),
            (&[Pos::new(0, 4, 8)][..], Some(Hit::Blocker(Pos::new(0, 4, 8))))
        );
        assert!(matches!(
            footprint(&d, Pos::new(0, 0, 1), &TargetMode::Own, |_| false, |_| false),
            Err(SightError::Position(_))
        ));
        let rock = Pos::new(0, 6, 4);
        assert!(
            footprint(&d, rock, &TargetMode::Burst { radius: 3 }, |_| false, |_| false)
                .unwrap()
                .cells
                .is_empty()
        );
    }
}
