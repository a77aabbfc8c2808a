//! Sight across storeys: line of sight and field of view through the carved volume in 3D
//! (docs/sight.md, "Across storeys").
//!
//! The carved volume is the union of prisms over the pieces of the plan: each cell of each
//! level from its floor up to [`Dungeon::carved_top`], each carved seam up to
//! [`Dungeon::seam_height`] (a door's passage up to [`Dungeon::door_height_at`]), each open
//! pillar up to [`Dungeon::opening_height`] of its cells. A column open through a storey
//! ([`Dungeon::open_above`], a stair's shaft) has no slab, so its prisms meet end to end.
//! Railings stand in it as solids of their own ([`Dungeon::railing_at`]). A segment is clear
//! where such prisms cover it, up to [`super::TOLERANCE`], and no railing's inside holds
//! any of it: the same closed, grazing-is-clear rule as on one level, with heights.
//! The walk is the plan's ([`super::trace`]): the segment's shadow on the plan crosses
//! squares in order, and in each square only the levels the segment passes through there
//! are asked.

use glam::{DVec2, DVec3};

use super::SightError;
use super::fov::VisibleCells;
use super::line::check_spacing;
use super::opacity::{Opacity, door_passage};
use super::trace::{Met, Piece, SPANS, Span, TOLERANCE, clip, square_pieces, sweep, walk_squares};
use crate::dungeon::{Carve, Dungeon, RAILING_HEIGHT};
use crate::grid::{Pos, Slot, SlotKind};

/// Height of an eye over its floor (metres): where a cell sees from and is seen at across
/// storeys ([`eye_point`]). Over a railing ([`RAILING_HEIGHT`], 1 m) and under the lowest
/// door of the crate's legal room heights (2 m), so on one level the segment between two
/// eyes sees what the plan sees ([`super::line_of_sight`]).
pub const EYE_HEIGHT: f64 = 1.6;

/// The eye point of the cell at `pos`: its centre, [`EYE_HEIGHT`] over its level's floor,
/// world metres (`y` up).
///
/// # Errors
/// [`SightError::Position`] when `pos` is not a cell of `dungeon`.
pub fn eye_point(dungeon: &Dungeon, pos: Pos) -> Result<DVec3, SightError> {
    dungeon.tile(pos)?;
    let c = dungeon.layout().center(pos.slot);
    Ok(DVec3::new(c.x, dungeon.proportions().floor_y(pos.level) + EYE_HEIGHT, c.y))
}

/// True when world points `a` and `b` (metres, `y` up) see each other through the carved
/// volume of every level: down an atrium, up a stair's shaft, over a railing, under a
/// bridge. Every point of the closed segment between them lies in carved space that passes
/// sight (the prisms of the module docs, each piece asked of `sight` on its own level),
/// up to [`super::TOLERANCE`], and none lies inside a railing. Grazing rock, a slab's face
/// or a railing's top does not block; a point in rock sees nothing. The stair solids and
/// door leaves are not obstacles (a door's edge state says whether it passes sight).
///
/// Symmetric: the endpoints are ordered canonically before the walk.
///
/// # Errors
/// [`SightError::NonFiniteWorldPoint`], [`SightError::TightSpacing`].
///
/// # Example
/// ```
/// use glam::DVec3;
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::sight::{eye_point, line_of_sight_3d};
///
/// // Two storeys of open floor; the middle octagon of the upper one is void: an atrium.
/// let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor)?;
/// let void = d.void_tile()?;
/// d.set_tile(Pos::new(1, 2, 2), void)?;
/// let eye = |level, row, col| eye_point(&d, Pos::new(level, row, col));
/// // Straight up from the atrium's floor into the void above it.
/// assert!(line_of_sight_3d(&d, eye(0, 2, 2)?, eye(1, 2, 2)?)?, "up the atrium");
/// // Across the void from balcony to balcony, over both railings.
/// assert!(line_of_sight_3d(&d, eye(1, 2, 0)?, eye(1, 2, 4)?)?, "across the atrium");
/// // Standing back from the rim, the balcony's own floor hides the floor a storey down.
/// assert!(!line_of_sight_3d(&d, eye(1, 2, 0)?, eye(0, 2, 2)?)?, "the balcony's floor");
/// // Straight down through the void, from under its ceiling to the floor below.
/// let below = eye(0, 2, 2)?;
/// let top = DVec3::new(below.x, d.proportions().floor_y(1) + 3.0, below.z);
/// assert!(line_of_sight_3d(&d, top, below)?, "down the void");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn line_of_sight_3d<O: Opacity + ?Sized>(sight: &O, a: DVec3, b: DVec3) -> Result<bool, SightError> {
    check_world_points(sight.dungeon(), [a, b])?;
    Ok(sees_3d(sight, a, b, &mut Vec::new()))
}

/// Refuses a dungeon without seams and a point that is not finite.
fn check_world_points(dungeon: &Dungeon, points: [DVec3; 2]) -> Result<(), SightError> {
    check_spacing(dungeon)?;
    match points.into_iter().find(|p| !p.is_finite()) {
        Some(p) => Err(SightError::NonFiniteWorldPoint { x: p.x, y: p.y, z: p.z }),
        None => Ok(()),
    }
}

/// What a straight segment through the carved volume met ([`crossing_3d`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SpaceCrossing {
    /// The cells whose prisms the segment passes through for more than
    /// [`super::TOLERANCE`], in the order it enters them, up to where it stopped (the
    /// start's own cell first). Down a void or a stair's shaft it passes from a cell to
    /// the one above or below it.
    pub cells: Vec<Pos>,
    /// Where the segment first leaves the carved volume or enters a railing (world metres,
    /// `y` up), `None` when it reaches its end in the clear.
    pub blocked_at: Option<DVec3>,
}

/// The cells a straight segment from world point `from` to `to` crosses through the
/// carved volume of every level until it first leaves it (or enters a railing), in order:
/// the walk of [`line_of_sight_3d`], directional (walked from `from`), with the same
/// blocking rule. What a projectile across storeys flies through
/// ([`super::bolt_3d`]).
///
/// # Errors
/// As [`line_of_sight_3d`].
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::sight::{crossing_3d, eye_point};
///
/// let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor)?;
/// let void = d.void_tile()?;
/// d.set_tile(Pos::new(1, 2, 2), void)?;
/// // Straight down the void: out of the cell on the upper storey into the one below.
/// let (top, floor) = (eye_point(&d, Pos::new(1, 2, 2))?, eye_point(&d, Pos::new(0, 2, 2))?);
/// let fall = crossing_3d(&d, top, floor)?;
/// assert_eq!(fall.cells, [Pos::new(1, 2, 2), Pos::new(0, 2, 2)]);
/// assert_eq!(fall.blocked_at, None);
/// // Down beside it, the balcony's floor stops the segment where it leaves the cell.
/// let balcony = eye_point(&d, Pos::new(1, 2, 0))?;
/// let under = eye_point(&d, Pos::new(0, 2, 0))?;
/// let stop = crossing_3d(&d, balcony, under)?.blocked_at.expect("the floor");
/// assert!((stop.y - d.proportions().floor_y(1)).abs() < 1e-9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn crossing_3d<O: Opacity + ?Sized>(
    sight: &O,
    from: DVec3,
    to: DVec3,
) -> Result<SpaceCrossing, SightError> {
    check_world_points(sight.dungeon(), [from, to])?;
    let walk = Walk::new(sight, from, to);
    let mut entered = Vec::new();
    let block = walk.first_block(&mut Vec::new(), Some(&mut entered));
    entered.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let stop = block.unwrap_or(f64::INFINITY);
    let mut cells: Vec<Pos> = Vec::new();
    for (t, pos) in entered {
        if t < stop && !cells.contains(&pos) {
            cells.push(pos);
        }
    }
    Ok(SpaceCrossing { cells, blocked_at: block.map(|t| walk.at(t)) })
}

/// Line of sight between finite `a` and `b` across storeys, in canonical order, with
/// `spans` as scratch.
pub(crate) fn sees_3d<O: Opacity + ?Sized>(sight: &O, a: DVec3, b: DVec3, spans: &mut Vec<Span>) -> bool {
    if floored_between(sight.dungeon(), a, b) {
        return false;
    }
    let (p, q) = if a.to_array() <= b.to_array() { (a, b) } else { (b, a) };
    Walk::new(sight, p, q).is_clear(spans)
}

/// A segment `p + t d`, `t` in `[0, 1]`, through the carved volume.
struct Walk<'a, O: Opacity + ?Sized> {
    sight: &'a O,
    p: DVec3,
    d: DVec3,
    /// The plan shadow of `p` and `d`.
    plan: (DVec2, DVec2),
    /// [`TOLERANCE`] in parameter units.
    eps: f64,
    /// Whether any level has open pillars.
    pillars: bool,
    /// Whether the dungeon may have voids (and so railings).
    voids: bool,
    /// [`Dungeon::lowest_carved_top`].
    lowest_top: f64,
}

impl<'a, O: Opacity + ?Sized> Walk<'a, O> {
    fn new(sight: &'a O, p: DVec3, q: DVec3) -> Walk<'a, O> {
        let d = q - p;
        let len = d.length();
        let dungeon = sight.dungeon();
        Walk {
            sight,
            p,
            d,
            plan: (DVec2::new(p.x, p.z), DVec2::new(d.x, d.z)),
            eps: if len > 0.0 { TOLERANCE / len } else { 0.0 },
            pillars: (0..dungeon.levels()).any(|l| dungeon.has_open_pillars_on(l)),
            voids: dungeon.may_have_voids(),
            lowest_top: dungeon.lowest_carved_top(),
        }
    }

    /// The parameter interval of `[lo, hi]` in which the segment's height lies in
    /// `[y0, y1]`; `None` when it is empty.
    fn between(&self, (lo, hi): (f64, f64), y0: f64, y1: f64) -> Option<(f64, f64)> {
        let (py, dy) = (self.p.y, self.d.y);
        let (a, b) = if dy > 0.0 {
            ((y0 - py) / dy, (y1 - py) / dy)
        } else if dy < 0.0 {
            ((y1 - py) / dy, (y0 - py) / dy)
        } else if py >= y0 - TOLERANCE && py <= y1 + TOLERANCE {
            (0.0, 1.0)
        } else {
            return None;
        };
        let (lo, hi) = (lo.max(a), hi.min(b));
        (lo <= hi).then_some((lo, hi))
    }

    /// The levels whose carved space the segment may be in between parameters `t0` and
    /// `t1` (each level's pieces lie between its floor and the next one's).
    fn levels(&self, t0: f64, t1: f64) -> std::ops::Range<u16> {
        let dungeon = self.sight.dungeon();
        let lh = dungeon.proportions().layer_height;
        let (y0, y1) = (self.p.y + self.d.y * t0, self.p.y + self.d.y * t1);
        let (low, high) = (y0.min(y1) - TOLERANCE, y0.max(y1) + TOLERANCE);
        let top = f64::from(dungeon.levels()) - 1.0;
        let first = (low / lh).floor().max(0.0);
        let last = (high / lh).floor().min(top);
        if last < first || top < 0.0 {
            return 0..0;
        }
        first as u16..last as u16 + 1
    }

    /// The span of the met piece `m` on `level` where it passes sight and the segment is in
    /// its prism.
    fn span(&self, level: u16, m: &Met) -> Option<Span> {
        let dungeon = self.sight.dungeon();
        let floor = dungeon.proportions().floor_y(level);
        let pos = |slot: Slot| Pos { level, slot };
        // Where the segment stays under every ceiling over the piece, its prism's top
        // cuts nothing and is not asked (any height at least the true top gives the same
        // interval; the layer's height is one).
        let under_all = |range: (f64, f64)| {
            let (y0, y1) = (self.p.y + self.d.y * range.0, self.p.y + self.d.y * range.1);
            y0.max(y1) < floor + self.lowest_top - TOLERANCE
        };
        let top = |range: (f64, f64), height: &dyn Fn() -> f64| {
            if under_all(range) { dungeon.proportions().layer_height } else { height() }
        };
        let mut cell = None;
        let (range, top) = match m.piece {
            Piece::Cell(slot) => {
                if !self.sight.cell_passes(pos(slot)) {
                    return None;
                }
                cell = Some(pos(slot));
                let range = (m.lo, m.hi);
                (range, top(range, &|| dungeon.carved_top(pos(slot))))
            }
            Piece::Seam(slot, dir) => {
                let edge = dungeon.dims().edge(slot, dir).ok()??;
                match self.sight.seam_sight(pos(slot), dir)? {
                    Carve::Full => {
                        let range = (m.lo, m.hi);
                        (range, top(range, &|| dungeon.seam_height(level, edge)))
                    }
                    Carve::Door => {
                        let door = door_passage(dungeon, pos(slot), dir)?;
                        (clip(&door, self.plan.0, self.plan.1)?, dungeon.door_height_at(level, edge))
                    }
                    Carve::None => return None,
                }
            }
            Piece::Pillar(pillar) => {
                if !self.sight.pillar_passes(level, pillar) {
                    return None;
                }
                let range = (m.lo, m.hi);
                (range, top(range, &|| dungeon.opening_height(level, &pillar.cells())))
            }
        };
        let (lo, hi) = self.between(range, floor, floor + top)?;
        Some(Span { lo, hi, cell })
    }

    /// Whether the segment is at a railing's height over `level`'s floor anywhere between
    /// parameters `t0` and `t1` (else no railing of that level can hold any of it there).
    fn near_railings(&self, level: u16, t0: f64, t1: f64) -> bool {
        let floor = self.sight.dungeon().proportions().floor_y(level);
        self.between((t0, t1), floor, floor + RAILING_HEIGHT).is_some()
    }

    /// Where the segment first enters the inside of a railing on a seam of `met` on
    /// `level` (a railing stands over its seam, so a segment that enters it meets the
    /// seam); `None` when it enters none.
    fn railing_entry(&self, level: u16, met: &[Met]) -> Option<f64> {
        let dungeon = self.sight.dungeon();
        let floor = dungeon.proportions().floor_y(level);
        met.iter()
            .filter_map(|m| {
                let Piece::Seam(slot, dir) = m.piece else { return None };
                let edge = dungeon.dims().edge(slot, dir).ok()??;
                let line = dungeon.railing_line(&dungeon.railing_at(level, edge)?)?;
                // Its inside: the box less a tolerance all round (its faces graze).
                let (y0, y1) = (floor + 2.0 * TOLERANCE, floor + RAILING_HEIGHT - 2.0 * TOLERANCE);
                let (lo, hi) = self.between(inside(&line.footprint(), self.plan.0, self.plan.1)?, y0, y1)?;
                (hi > lo).then_some(lo)
            })
            .reduce(f64::min)
    }

    /// Walks the segment square by square from `t = 0`. Returns the parameter where it
    /// first leaves the carved volume or enters a railing, `None` when it is clear all the
    /// way. When `cells` is given, every cell whose prism the segment passes through for
    /// more than [`TOLERANCE`] is pushed with the parameter where it enters (a cell may be
    /// pushed more than once, and cells beyond the blocking parameter may be pushed too:
    /// callers sort and cut).
    fn first_block(&self, spans: &mut Vec<Span>, mut cells: Option<&mut Vec<(f64, Pos)>>) -> Option<f64> {
        let dungeon = self.sight.dungeon();
        let (p, d) = self.plan;
        let mut covered = 0.0_f64;
        let mut met = [Met { lo: 0.0, hi: 0.0, piece: Piece::Cell(Slot::new(0, 0)) }; SPANS];
        walk_squares(dungeon.layout().spacing(), p, d, |square, enter, exit| {
            // Covered through this square already: only railings could still block, and
            // only a caller that lists cells needs its pieces.
            let done = covered >= exit && cells.is_none();
            let railings = self.voids && self.levels(enter, exit).any(|l| self.near_railings(l, enter, exit));
            if done && !railings {
                return None;
            }
            let n = square_pieces(dungeon, self.pillars, p, d, square, &mut met);
            spans.clear();
            let mut railing: Option<f64> = None;
            for level in self.levels(enter, exit) {
                if railings
                    && self.near_railings(level, enter, exit)
                    && let Some(t) = self.railing_entry(level, &met[..n])
                {
                    railing = Some(railing.map_or(t, |r| r.min(t)));
                }
                // Spans can only lengthen what is covered: past `exit` already, they are
                // not needed.
                if !done {
                    spans.extend(met[..n].iter().filter_map(|m| self.span(level, m)));
                }
            }
            sweep(spans, &mut covered, self.eps, cells.as_deref_mut());
            let gap = (covered < exit - self.eps).then_some(covered);
            [railing, gap].into_iter().flatten().reduce(f64::min)
        })
    }

    /// Whether the segment is clear all the way.
    fn is_clear(&self, spans: &mut Vec<Span>) -> bool {
        self.first_block(spans, None).is_none()
    }

    /// The world point at parameter `t`.
    fn at(&self, t: f64) -> DVec3 {
        self.p + self.d * t
    }
}

/// Whether the segment `a-b` surely crosses a floor: at the height of the floor of a
/// level above the first that it passes more than a micrometre above its lower end, its
/// plan point lies inside a cell of that level, by more than a micrometre, that has a
/// floor there (not void, not the hole over a stair). Under such a floor there is rock (a
/// slab, or a deck at least [`crate::dungeon::DECK_THICKNESS`] thick) and over it the
/// cell's space or its rock, so the segment runs through rock for more than a micrometre
/// there: it is blocked, and the walk is skipped. `false` says nothing.
fn floored_between(dungeon: &Dungeon, a: DVec3, b: DVec3) -> bool {
    let (layout, lh) = (dungeon.layout(), dungeon.proportions().layer_height);
    let (lo, hi) = if a.y <= b.y { (a, b) } else { (b, a) };
    let d = hi - lo;
    if d.y <= 0.0 {
        return false;
    }
    let first = ((lo.y / lh).floor() as i64 + 1).max(1);
    let last = ((hi.y / lh).floor() as i64).min(i64::from(dungeon.levels()) - 1);
    (first..=last).any(|level| {
        let Ok(level) = u16::try_from(level) else { return false };
        let y = dungeon.proportions().floor_y(level);
        if y - lo.y <= 1e-6 {
            return false;
        }
        let at = lo + d * ((y - lo.y) / d.y);
        let Some(slot) = layout.cell_deeper_than(DVec2::new(at.x, at.z), 1e-6) else { return false };
        let pos = Pos { level, slot };
        dungeon.dims().contains(slot) && !dungeon.is_void(pos) && dungeon.stair_below(pos).is_none()
    })
}

/// The open parameter interval of `p + t d`, `t` in `[0, 1]`, that lies inside the convex,
/// positively wound `polygon` by more than [`TOLERANCE`]; `None` when there is none.
fn inside(polygon: &[DVec2], p: DVec2, d: DVec2) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    let n = polygon.len();
    for i in 0..n {
        let a = polygon[i];
        let e = polygon[(i + 1) % n] - a;
        let (f0, fd) = (e.perp_dot(p - a) - TOLERANCE * e.length(), e.perp_dot(d));
        if fd > 0.0 {
            lo = lo.max(-f0 / fd);
        } else if fd < 0.0 {
            hi = hi.min(-f0 / fd);
        } else if f0 <= 0.0 {
            return None;
        }
        if lo >= hi {
            return None;
        }
    }
    Some((lo, hi))
}

/// The cells visible across storeys ([`field_of_view_3d`]): one bit grid per level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisibleVolume {
    levels: Vec<VisibleCells>,
}

impl VisibleVolume {
    /// The visible cells of `level` (`None` for a level the dungeon has not).
    #[must_use]
    pub fn level(&self, level: u16) -> Option<&VisibleCells> {
        self.levels.get(usize::from(level))
    }

    /// True when the cell at `pos` is visible.
    #[must_use]
    pub fn contains(&self, pos: Pos) -> bool {
        self.level(pos.level).is_some_and(|l| l.contains(pos.slot))
    }

    /// Number of visible cells, all levels together.
    #[must_use]
    pub fn len(&self) -> usize {
        self.levels.iter().map(VisibleCells::len).sum()
    }

    /// True when no cell is visible.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.levels.iter().all(VisibleCells::is_empty)
    }

    /// Every visible cell, level by level in slot order.
    pub fn iter(&self) -> impl Iterator<Item = Pos> + '_ {
        self.levels.iter().flat_map(|l| l.iter().map(move |slot| Pos { level: l.level(), slot }))
    }
}

/// The cells of every level visible from the cell `viewer` within `radius` metres, across
/// storeys: a cell is visible when its [`eye_point`] is at most `radius` from the viewer's
/// and [`line_of_sight_3d`] holds between the two. On the viewer's own level this is the
/// plan's field of view ([`super::field_of_view`]) where doors are higher than
/// [`EYE_HEIGHT`]; through atria, voids and stair shafts it reaches the storeys above and
/// below.
///
/// Cost: proportional to the cells within reach. It floods from the viewer's cell across
/// seams that pass sight, and up and down columns with no slab (a cell open above into its
/// void, a stair into its hole, and back), into cells whose prism a segment from the eye
/// shorter than `radius` could touch, and tests each one's eye point with one line of
/// sight. A clear segment crosses only pieces joined that way, so the flood misses no
/// visible cell.
///
/// # Errors
/// [`SightError::Position`] when `viewer` is not a cell, [`SightError::BadMeasure`] for a
/// negative or non-finite radius, [`SightError::TightSpacing`].
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::Pos;
/// use octile::sight::field_of_view_3d;
///
/// let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor)?;
/// let void = d.void_tile()?;
/// d.set_tile(Pos::new(1, 2, 2), void)?;
/// // From the atrium's floor: its own storey, and the void above, but not the storey
/// // above beyond the atrium's rim.
/// let seen = field_of_view_3d(&d, Pos::new(0, 2, 2), 40.0)?;
/// assert!(seen.contains(Pos::new(0, 4, 4)), "its own storey");
/// assert!(seen.contains(Pos::new(1, 2, 2)), "the void above");
/// assert!(!seen.contains(Pos::new(1, 4, 4)), "behind the rim");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn field_of_view_3d<O: Opacity + ?Sized>(
    sight: &O,
    viewer: Pos,
    radius: f64,
) -> Result<VisibleVolume, SightError> {
    let dungeon = sight.dungeon();
    check_spacing(dungeon)?;
    let eye = eye_point(dungeon, viewer)?;
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(SightError::BadMeasure { what: "radius", value: radius });
    }
    let (dims, layout) = (dungeon.dims(), dungeon.layout());
    let lh = dungeon.proportions().layer_height;
    let octagon_reach = layout.octagon(Slot::new(0, 0))[0].length();
    let connector_reach = layout.connector(Slot::new(0, 0))[0].length();
    let plan_eye = DVec2::new(eye.x, eye.z);
    // Whether a segment from the eye shorter than `radius` could touch the cell's prism.
    let within = |pos: Pos| {
        let reach = if pos.slot.kind() == SlotKind::Octagon { octagon_reach } else { connector_reach };
        let floor = dungeon.proportions().floor_y(pos.level);
        let rise = (floor - eye.y).max(eye.y - floor - lh).max(0.0);
        layout.center(pos.slot).distance(plan_eye) <= radius + reach && rise <= radius
    };
    let levels = dungeon.levels();
    let mut seen = VisibleVolume { levels: (0..levels).map(|l| VisibleCells::new(l, dims)).collect() };
    let mut queued = seen.clone();
    let mut spans = Vec::new();
    let mut stack = Vec::new();
    if sight.cell_passes(viewer) {
        queued.levels[usize::from(viewer.level)].insert(viewer.slot);
        stack.push(viewer);
    }
    // On the viewer's own level both eyes are at one height, where the segment between
    // them sees what the plan sees: the plan's field of view answers there, at a fraction
    // of a walk a cell (tests/sight_storeys.rs checks that they agree).
    let plane = super::field_of_view(sight, viewer, radius)?;
    while let Some(pos) = stack.pop() {
        let visible = if pos.level == viewer.level {
            plane.contains(pos.slot)
        } else {
            let target = eye_point(dungeon, pos)?;
            target.distance(eye) <= radius && sees_3d(sight, eye, target, &mut spans)
        };
        if visible {
            seen.levels[usize::from(pos.level)].insert(pos.slot);
        }
        let walls = dims.walls(pos.slot).unwrap_or(&[]);
        let across = walls.iter().filter_map(|&dir| {
            let next = dims.neighbor(pos.slot, dir).ok()??;
            sight.seam_sight(pos, dir).map(|_| Pos { slot: next, ..pos })
        });
        let up =
            (dungeon.open_above(pos) || dungeon.is_stair(pos)).then(|| Pos { level: pos.level + 1, ..pos });
        let down = pos
            .level
            .checked_sub(1)
            .map(|level| Pos { level, ..pos })
            .filter(|below| dungeon.is_void(pos) || dungeon.is_stair(*below));
        let vertical = [up, down].into_iter().flatten().filter(|&p| p.level < levels && sight.cell_passes(p));
        for next in across.chain(vertical) {
            let queue = &mut queued.levels[usize::from(next.level)];
            if !queue.contains(next.slot) && within(next) {
                queue.insert(next.slot);
                stack.push(next);
            }
        }
    }
    Ok(seen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::Direction;

    /// Three storeys of 5x5 open floor; the middle 3x3 octagons (and what lies between
    /// them) of levels 1 and 2 are void: an atrium three storeys tall over level 0.
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
    fn an_atrium_is_seen_into_from_its_balconies_and_the_slab_hides_the_rest() {
        let d = atrium();
        let eye = |l, r, c| eye_point(&d, Pos::new(l, r, c)).unwrap();
        assert!(
            line_of_sight_3d(&d, eye(2, 2, 4), eye(0, 6, 4)).unwrap(),
            "from the atrium's top to its floor"
        );
        assert!(line_of_sight_3d(&d, eye(0, 6, 4), eye(2, 2, 4)).unwrap(), "and back up");
        assert!(line_of_sight_3d(&d, eye(1, 0, 4), eye(1, 8, 4)).unwrap(), "across it, over both railings");
        // From a balcony's lip, over its railing, down to the floor a storey below; from the
        // middle of the balcony the floor it stands on hides that.
        let s = d.layout().spacing();
        let lip = DVec3::new(4.0 * s, d.proportions().floor_y(1) + EYE_HEIGHT, 9.5);
        assert!(line_of_sight_3d(&d, lip, eye(0, 4, 4)).unwrap(), "from the lip");
        assert!(!line_of_sight_3d(&d, eye(1, 0, 4), eye(0, 4, 4)).unwrap(), "through the balcony's floor");
        assert!(!line_of_sight_3d(&d, eye(1, 0, 0), eye(0, 0, 8)).unwrap(), "through the slab");
        // A low line from the balcony's floor into the void runs into the railing.
        let lip = d.layout().center(Slot::new(0, 4));
        let low = DVec3::new(lip.x, d.proportions().floor_y(1) + 0.5, lip.y);
        let (start, far) = (low, low + DVec3::Z * 12.0);
        assert!(line_of_sight_3d(&d, start, start + DVec3::Z * 2.0).unwrap(), "short of the railing");
        assert!(!line_of_sight_3d(&d, start, far).unwrap(), "through the railing");
        let over = DVec3::Y * (RAILING_HEIGHT - 0.5 + 0.01);
        assert!(line_of_sight_3d(&d, start + over, far + over).unwrap(), "just over it");
        // A drop point has no railing.
        let mut open = d.clone();
        let drop = open.drop_state().unwrap();
        open.set_edge(Pos::new(1, 0, 4), Direction::S, drop).unwrap();
        assert!(line_of_sight_3d(&open, start, far).unwrap(), "through the drop point");
    }

    #[test]
    fn a_stair_shaft_joins_two_storeys_and_a_slab_parts_them() {
        let mut d = Dungeon::new(3, 1, 2, Proportions::default(), Fill::Floor).unwrap();
        let below = eye_point(&d, Pos::new(0, 0, 2)).unwrap();
        let above = below + DVec3::Y * d.proportions().layer_height;
        assert!(!line_of_sight_3d(&d, below, above).unwrap(), "the slab");
        d.set_tile(Pos::new(0, 0, 2), Registry::STAIR).unwrap();
        assert!(line_of_sight_3d(&d, below, above).unwrap(), "up the shaft");
        let seen = field_of_view_3d(&d, Pos::new(0, 0, 2), 60.0).unwrap();
        assert!(seen.contains(Pos::new(1, 0, 2)), "the hole above the stair");
        assert!(seen.contains(Pos::new(0, 0, 0)), "beside it");
        assert!(!seen.contains(Pos::new(1, 0, 0)), "beyond the shaft's walls");
    }

    #[test]
    fn the_field_of_view_across_storeys_is_the_brute_force_and_the_plan_on_one_level() {
        let mut d = atrium();
        d.set_tile(Pos::new(0, 0, 8), Registry::SOLID).unwrap();
        d.set_edge(Pos::new(1, 8, 0), Direction::E, Registry::WALL).unwrap();
        for viewer in [Pos::new(0, 4, 4), Pos::new(1, 0, 4), Pos::new(2, 8, 8), Pos::new(0, 0, 0)] {
            let seen = field_of_view_3d(&d, viewer, 40.0).unwrap();
            let eye = eye_point(&d, viewer).unwrap();
            for pos in d.cells() {
                let target = eye_point(&d, pos).unwrap();
                let expect = d.cell_passes(pos)
                    && target.distance(eye) <= 40.0
                    && line_of_sight_3d(&d, eye, target).unwrap();
                assert_eq!(seen.contains(pos), expect, "{viewer} -> {pos}");
            }
            let plan = super::super::field_of_view(&d, viewer, 40.0).unwrap();
            assert_eq!(seen.level(viewer.level), Some(&plan), "the plan's view on {viewer}'s level");
        }
        let up = field_of_view_3d(&d, Pos::new(0, 4, 4), 40.0).unwrap();
        assert!(up.contains(Pos::new(2, 4, 4)) && up.contains(Pos::new(1, 6, 2)), "up the atrium");
        assert!(!up.contains(Pos::new(1, 0, 0)), "a corner of the storey above, behind the slab's edge");
    }

    #[test]
    fn a_floor_blocks_only_a_segment_that_runs_through_its_slab() {
        let d = atrium();
        let floor = d.proportions().floor_y(1);
        let c = d.layout().center(Slot::new(0, 0));
        let up = DVec3::new(c.x, floor + EYE_HEIGHT, c.y);
        let under = |by: f64| DVec3::new(c.x, floor - by, c.y);
        // Starting a hair under the floor (less than the tolerance of rock) is starting on it.
        assert!(line_of_sight_3d(&d, under(1e-10), up).unwrap(), "from the floor's face");
        assert!(line_of_sight_3d(&d, up, under(1e-10)).unwrap(), "to the floor's face");
        assert!(!line_of_sight_3d(&d, under(1e-3), up).unwrap(), "from inside the slab");
        assert!(!line_of_sight_3d(&d, eye_point(&d, Pos::new(0, 0, 0)).unwrap(), up).unwrap(), "through it");
        // Above the top level and under the ground there is rock, and no floor to ask.
        let sky = DVec3::new(c.x, d.proportions().floor_y(3) + 1.0, c.y);
        assert!(!line_of_sight_3d(&d, up, sky).unwrap(), "over the top level");
    }

    #[test]
    fn bad_input_is_refused() {
        let d = atrium();
        assert!(matches!(
            line_of_sight_3d(&d, DVec3::new(0.0, f64::NAN, 0.0), DVec3::ZERO),
            Err(SightError::NonFiniteWorldPoint { .. })
        ));
        assert!(matches!(field_of_view_3d(&d, Pos::new(0, 0, 1), 1.0), Err(SightError::Position(_))));
        assert!(matches!(field_of_view_3d(&d, Pos::new(0, 0, 0), -1.0), Err(SightError::BadMeasure { .. })));
        assert!(!line_of_sight_3d(&d, DVec3::new(0.0, -5.0, 0.0), DVec3::new(0.0, 1.0, 0.0)).unwrap());
    }
}
