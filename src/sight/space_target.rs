//! Targeting footprints across storeys: a bolt, a ball, a burst and a cone through the
//! carved volume in 3D (docs/sight.md, "Across storeys"). They are the one-level
//! footprints of [`super::target`] with the segment between two [`eye_point`]s in place of
//! the plan's line between two cell centres: a fireball thrown from a balcony bursts on the
//! atrium's floor a storey down and reaches up the void, a bolt flies down a stair's shaft,
//! and a slab, a railing or a wall stops either. What else blocks (a creature, a force
//! field) is a closure the caller passes, as on one level.

use glam::DVec3;

use super::space::{crossing_3d, eye_point, field_of_view_3d};
use super::target::Bolt;
use super::{Opacity, SightError};
use crate::geometry::angle;
use crate::grid::Pos;

/// A projectile from the eye point of `from` towards the eye point of `to`, on any
/// levels: the cells whose prisms it passes through ([`crossing_3d`]) until it leaves the
/// carved volume, enters a railing, or reaches the first cell (after its own) for which
/// `blocks` is true, where it stops. [`super::Hit::Wall`] holds the world point `(x, y, z)`
/// where it struck.
///
/// # Errors
/// [`SightError::Position`] when `from` or `to` is not a cell, [`SightError::TightSpacing`].
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::sight::{Hit, bolt_3d};
///
/// // Two storeys; the middle octagon of the upper one is void.
/// let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor)?;
/// let void = d.void_tile()?;
/// d.set_tile(Pos::new(1, 2, 2), void)?;
/// // An arrow shot straight down the void from the upper storey reaches the floor below.
/// let shot = bolt_3d(&d, Pos::new(1, 2, 2), Pos::new(0, 2, 2), |_| false)?;
/// assert_eq!(shot.hit, Hit::Reached);
/// assert_eq!(shot.path, [Pos::new(1, 2, 2), Pos::new(0, 2, 2)]);
/// // One shot from a balcony at a cell under the slab strikes the balcony's floor.
/// let shot = bolt_3d(&d, Pos::new(1, 2, 0), Pos::new(0, 2, 0), |_| false)?;
/// assert!(matches!(shot.hit, Hit::Wall(at) if (at.y - d.proportions().floor_y(1)).abs() < 1e-9));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bolt_3d<O: Opacity + ?Sized>(
    sight: &O,
    from: Pos,
    to: Pos,
    blocks: impl FnMut(Pos) -> bool,
) -> Result<Bolt<DVec3>, SightError> {
    let dungeon = sight.dungeon();
    let (a, b) = (eye_point(dungeon, from)?, eye_point(dungeon, to)?);
    let line = crossing_3d(sight, a, b)?;
    Ok(Bolt::through(line.cells, line.blocked_at, blocks))
}

/// A ball across storeys: a [`bolt_3d`] that bursts ([`burst_3d`], `radius` metres) on the
/// near side of what it hits ([`Bolt::burst_cell`]). Returns the bolt and the burst's cells
/// (empty when the shooter stands in rock).
///
/// # Errors
/// As [`bolt_3d`] and [`burst_3d`].
pub fn ball_3d<O: Opacity + ?Sized>(
    sight: &O,
    from: Pos,
    to: Pos,
    radius: f64,
    blocks_bolt: impl FnMut(Pos) -> bool,
    blocks_burst: impl FnMut(Pos) -> bool,
) -> Result<(Bolt<DVec3>, Vec<Pos>), SightError> {
    let shot = bolt_3d(sight, from, to, blocks_bolt)?;
    let cells = match shot.burst_cell() {
        Some(centre) => burst_3d(sight, centre, radius, blocks_burst)?,
        None => Vec::new(),
    };
    Ok((shot, cells))
}

/// A burst across storeys centred on the cell `centre`: the cells of every level whose eye
/// point is at most `radius` metres from its eye point and seen from it
/// ([`field_of_view_3d`]), and whose segment from it ([`crossing_3d`]) passes no cell,
/// between the two, for which `blocks` is true. Level by level in slot order; the centre's
/// own cell is included when it passes sight.
///
/// # Errors
/// As [`field_of_view_3d`].
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::sight::burst_3d;
///
/// let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor)?;
/// let void = d.void_tile()?;
/// d.set_tile(Pos::new(1, 2, 2), void)?;
/// // A blast on the atrium's floor reaches up into the void, not onto the storey above.
/// let blast = burst_3d(&d, Pos::new(0, 2, 2), 20.0, |_| false)?;
/// assert!(blast.contains(&Pos::new(1, 2, 2)) && blast.contains(&Pos::new(0, 2, 4)));
/// assert!(!blast.contains(&Pos::new(1, 2, 0)), "over the rim");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn burst_3d<O: Opacity + ?Sized>(
    sight: &O,
    centre: Pos,
    radius: f64,
    mut blocks: impl FnMut(Pos) -> bool,
) -> Result<Vec<Pos>, SightError> {
    let seen = field_of_view_3d(sight, centre, radius)?;
    let dungeon = sight.dungeon();
    let eye = eye_point(dungeon, centre)?;
    let mut out = Vec::with_capacity(seen.len());
    for pos in seen.iter() {
        let line = crossing_3d(sight, eye, eye_point(dungeon, pos)?)?;
        let mut inner = line.cells.iter().skip(1).filter(|&&p| p != pos);
        if line.blocked_at.is_none() && !inner.any(|&p| blocks(p)) {
            out.push(pos);
        }
    }
    Ok(out)
}

/// A cone across storeys from the cell `origin` aimed at the eye point of `toward` (on any
/// level): the cells of a [`burst_3d`] from `origin` (`radius` metres, `blocks`) other than
/// `origin` itself whose eye point lies within `half_angle` radians of the aim, seen from
/// `origin`'s eye point. Aimed down an atrium, it fills the floor below; aimed level, it
/// is the one-level cone with heights.
///
/// # Errors
/// As [`burst_3d`]; [`SightError::BadMeasure`] for a half angle outside `0..=PI` and for
/// `toward` at `origin`'s eye point (no aim).
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::sight::cone_3d;
///
/// // A void of 3 x 3 octagons over a floor of 5 x 5.
/// let mut d = Dungeon::new(5, 5, 2, Proportions::default(), Fill::Floor)?;
/// let void = d.void_tile()?;
/// for slot in d.dims().cells().filter(|s| (2..=6).contains(&s.row) && (2..=6).contains(&s.col)) {
///     d.set_tile(Pos { level: 1, slot }, void)?;
/// }
/// // Breath aimed from the void's middle straight at the floor under it stays down there.
/// let breath = cone_3d(&d, Pos::new(1, 4, 4), Pos::new(0, 4, 4), 0.6, 30.0, |_| false)?;
/// assert!(breath.contains(&Pos::new(0, 4, 4)));
/// assert!(breath.iter().all(|p| p.level == 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn cone_3d<O: Opacity + ?Sized>(
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
    let (o, t) = (eye_point(dungeon, origin)?, eye_point(dungeon, toward)?);
    let aim = (t - o).normalize_or_zero();
    if aim == DVec3::ZERO {
        return Err(SightError::BadMeasure { what: "aim distance", value: 0.0 });
    }
    let cos_half = angle::cos(half_angle);
    let mut cells = Vec::new();
    for p in burst_3d(sight, origin, radius, blocks)? {
        let v = eye_point(dungeon, p)? - o;
        if p != origin && v.dot(aim) >= cos_half * v.length() {
            cells.push(p);
        }
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Dungeon, Fill, Registry};
    use crate::geometry::Proportions;
    use crate::sight::{Hit, burst, line_of_sight_3d};

    /// Three storeys of 5x5 open floor; the middle 3x3 octagons of levels 1 and 2 are
    /// void: an atrium three storeys tall over level 0.
    fn atrium() -> Dungeon {
        let mut d = Dungeon::new(5, 5, 3, Proportions::default(), Fill::Floor).unwrap();
        let void = d.void_tile().unwrap();
        for level in 1..=2 {
            for slot in d.dims().cells().filter(|s| (2..=6).contains(&s.row) && (2..=6).contains(&s.col)) {
                d.set_tile(Pos { level, slot }, void).unwrap();
            }
        }
        d
    }

    #[test]
    fn a_bolt_down_the_atrium_flies_through_each_storey_and_stops_at_a_blocker() {
        let d = atrium();
        let (top, floor) = (Pos::new(2, 4, 4), Pos::new(0, 4, 4));
        let shot = bolt_3d(&d, top, floor, |_| false).unwrap();
        assert_eq!(shot.hit, Hit::Reached);
        assert_eq!(shot.path, [top, Pos::new(1, 4, 4), floor]);
        // A gargoyle hovering in the middle storey stops it; a ball bursts above it.
        let gargoyle = Pos::new(1, 4, 4);
        let (shot, blast) = ball_3d(&d, top, floor, 13.0, |p| p == gargoyle, |_| false).unwrap();
        assert_eq!(shot.hit, Hit::Blocker(gargoyle));
        assert_eq!(shot.path, [top, gargoyle]);
        assert!(blast.contains(&top) && blast.contains(&gargoyle) && !blast.contains(&floor), "{blast:?}");
        // A shot from a balcony into the floor under it strikes the balcony's floor.
        let shot = bolt_3d(&d, Pos::new(1, 0, 4), Pos::new(0, 0, 4), |_| false).unwrap();
        let Hit::Wall(at) = shot.hit else { panic!("{:?}", shot.hit) };
        assert!((at.y - d.proportions().floor_y(1)).abs() < 1e-9, "{at}");
        assert_eq!(shot.path, [Pos::new(1, 0, 4)]);
    }

    #[test]
    fn a_burst_across_storeys_is_the_field_of_view_less_what_blockers_shield() {
        let d = atrium();
        let centre = Pos::new(0, 4, 4);
        let eye = eye_point(&d, centre).unwrap();
        let open = burst_3d(&d, centre, 30.0, |_| false).unwrap();
        for pos in d.cells() {
            let there = eye_point(&d, pos).unwrap();
            let want = crate::sight::cell_passes_sight(&d, pos)
                && there.distance(eye) <= 30.0
                && line_of_sight_3d(&d, eye, there).unwrap();
            assert_eq!(open.contains(&pos), want, "{pos}");
        }
        assert!(open.iter().any(|p| p.level == 2), "up to the top storey");
        // On its own level, with nothing across storeys in reach, it is the plan's burst.
        let flat = Dungeon::new(5, 5, 1, Proportions::default(), Fill::Floor).unwrap();
        assert_eq!(
            burst_3d(&flat, centre, 20.0, |_| false).unwrap(),
            burst(&flat, centre, 20.0, |_| false).unwrap()
        );
        // A blocker in the middle storey of the void shields the cell above it.
        let shield = Pos::new(1, 4, 4);
        let shielded = burst_3d(&d, centre, 30.0, |p| p == shield).unwrap();
        assert!(shielded.contains(&shield), "the blocker's own cell is hit");
        assert!(!shielded.contains(&Pos::new(2, 4, 4)), "the cell straight above it is not");
        assert!(shielded.len() < open.len());
    }

    #[test]
    fn a_cone_across_storeys_keeps_to_its_aim_and_refuses_bad_input() {
        let d = atrium();
        let (origin, down) = (Pos::new(2, 4, 4), Pos::new(0, 4, 4));
        let breath = cone_3d(&d, origin, down, 0.5, 40.0, |_| false).unwrap();
        assert!(breath.contains(&down) && breath.contains(&Pos::new(1, 4, 4)));
        assert!(breath.iter().all(|p| p.level < 2), "below the origin only: {breath:?}");
        assert!(matches!(
            cone_3d(&d, origin, origin, 0.5, 40.0, |_| false),
            Err(SightError::BadMeasure { .. })
        ));
        assert!(matches!(
            cone_3d(&d, origin, down, 4.0, 40.0, |_| false),
            Err(SightError::BadMeasure { .. })
        ));
        assert!(matches!(bolt_3d(&d, Pos::new(0, 0, 1), down, |_| false), Err(SightError::Position(_))));
        // A stair's shaft passes a bolt up a storey.
        let mut s = Dungeon::new(3, 1, 2, Proportions::default(), Fill::Floor).unwrap();
        s.set_tile(Pos::new(0, 0, 2), Registry::STAIR).unwrap();
        let up = bolt_3d(&s, Pos::new(0, 0, 2), Pos::new(1, 0, 2), |_| false).unwrap();
        assert_eq!(up.hit, Hit::Reached);
    }
}
