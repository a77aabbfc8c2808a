//! The visible part of each visible cell's floor, for a game that draws fog of war finer
//! than whole cells: the cell's polygon clipped by what the eye sees.
//!
//! How: the eye's visibility region within the radius is a star-shaped polygon. Rays are
//! cast from the eye ([`super::crossing`]'s walk) towards every corner of every piece that
//! can bound it (cell polygons and door passages; pillars and seams share their corners)
//! and a hair either side of each, plus [`FLOOR_ARC_RAYS`] evenly spaced rays for the
//! circle of the radius; consecutive hits, joined in angle order, outline the region. Each
//! cell's polygon is clipped (convexly) by the fan of triangles `eye, hit i, hit i + 1`.

use glam::DVec2;

use super::fov::field_of_view_from;
use super::line::cell_center;
use super::trace::Trace;
use super::{Opacity, SightError};
use crate::dungeon::{Carve, Dungeon};
use crate::geometry::{angle, clip_convex, signed_area};
use crate::grid::{Pos, Slot};

/// Evenly spaced rays that outline the circle of the radius (one every 0.5 degrees): where
/// the view is bounded by the radius rather than by rock, the outline is a polygon inscribed
/// in the circle, inside it by at most `radius * (1 - cos(0.25 deg))` (3.8e-4 m at 40 m).
pub const FLOOR_ARC_RAYS: usize = 720;

/// Angle (radians) of the rays cast either side of each corner.
const SIDE_ANGLE: f64 = 1e-7;

/// The visible part of one cell's floor.
#[derive(Debug, Clone, PartialEq)]
pub struct VisibleFloor {
    /// The cell (on the level of the query).
    pub slot: Slot,
    /// Convex, positively wound polygons in world `(x, z)` metres, inside the cell's
    /// polygon and not overlapping, whose union is the part of the cell's floor the eye
    /// sees (slices of a fan from the eye: several pieces even for a cell seen whole).
    pub pieces: Vec<Vec<DVec2>>,
}

impl VisibleFloor {
    /// The visible floor area, in square metres.
    #[must_use]
    pub fn area(&self) -> f64 {
        self.pieces.iter().map(|p| signed_area(p)).sum()
    }
}

/// The visible floor of every cell visible from the centre of cell `viewer` within
/// `radius` metres: see [`visible_floor_from`].
///
/// # Errors
/// [`SightError::Position`] when `viewer` is not a cell; otherwise as
/// [`visible_floor_from`].
///
/// # Example
/// ```
/// use octile::dungeon::{Dungeon, Fill, Registry};
/// use octile::geometry::{Proportions, signed_area};
/// use octile::grid::{Pos, Slot};
/// use octile::sight::visible_floor;
///
/// // A 3x3 hall with rock in the middle.
/// let mut d = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor)?;
/// d.set_tile(Pos::new(0, 2, 2), Registry::SOLID)?;
/// let floors = visible_floor(&d, Pos::new(0, 0, 0), 200.0)?;
/// let full = |slot: Slot| signed_area(&d.layout().cell_polygon(slot).unwrap());
/// let own = floors.iter().find(|f| f.slot == Slot::new(0, 0)).unwrap();
/// assert!((own.area() - full(own.slot)).abs() < 1e-6, "the eye's own cell is seen whole");
/// assert!(floors.iter().all(|f| f.area() <= full(f.slot) + 1e-9));
/// assert!(floors.iter().any(|f| f.area() < 0.99 * full(f.slot)), "some are seen in part");
/// assert!(floors.iter().all(|f| f.slot != Slot::new(4, 4)), "the far corner hides behind the rock");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn visible_floor<O: Opacity + ?Sized>(
    sight: &O,
    viewer: Pos,
    radius: f64,
) -> Result<Vec<VisibleFloor>, SightError> {
    let eye = cell_center(sight.dungeon(), viewer)?;
    visible_floor_from(sight, viewer.level, eye, radius)
}

/// For every cell of `level` visible from world point `eye` within `radius` metres (the
/// cells of [`super::field_of_view_from`], whose centres the eye sees), the part of its
/// floor polygon the eye sees: the points `p` of the cell's polygon with
/// `|p - eye| <= radius` and [`super::line_of_sight_points`]`(eye, p)`. Cells whose centre
/// is hidden are left out even when a corner of their floor shows. Row-major order.
/// `sight` is the dungeon or any [`Opacity`] source over it.
///
/// Accuracy: along rock the outline is exact but for a sliver 1e-7 radian wide beside each
/// corner that casts a shadow (1e-5 m wide at 100 m: its rays pass a hair either side of
/// the corner); along the radius the circle is inscribed with [`FLOOR_ARC_RAYS`] chords.
/// Cost: three ray walks per corner of the cells within the radius plus
/// [`FLOOR_ARC_RAYS`], then one convex clip per visible cell and fan triangle whose boxes
/// overlap: far more than [`super::field_of_view_from`], so compute it when the eye
/// moves, not every frame.
///
/// # Errors
/// As [`super::field_of_view_from`].
///
/// # Panics
/// Never: the visible cells are cells of the grid, which all have polygons.
pub fn visible_floor_from<O: Opacity + ?Sized>(
    sight: &O,
    level: u16,
    eye: DVec2,
    radius: f64,
) -> Result<Vec<VisibleFloor>, SightError> {
    let cells = field_of_view_from(sight, level, eye, radius)?;
    let dungeon = sight.dungeon();
    if cells.is_empty() {
        return Ok(Vec::new());
    }
    let layout = dungeon.layout();
    let dims = dungeon.dims();
    // Rays need not run past the level (beyond its grid everything is rock).
    let extent = DVec2::new(f64::from(dims.cols()), f64::from(dims.rows())) * layout.spacing();
    let reach = radius.min(extent.length() + 2.0 * layout.spacing());
    let outline = outline(sight, level, eye, reach);
    let fan: Vec<([DVec2; 3], [DVec2; 2])> = (0..outline.len())
        .filter_map(|i| {
            let tri = [eye, outline[i], outline[(i + 1) % outline.len()]];
            (signed_area(&tri) > 1e-12).then(|| (tri, bounds(&tri)))
        })
        .collect();
    let floors = cells
        .iter()
        .map(|slot| {
            let poly = layout.cell_polygon(slot).expect("invariant: visible cells have polygons");
            let [lo, hi] = bounds(&poly);
            let pieces = fan
                .iter()
                .filter(|(_, [tlo, thi])| tlo.cmple(hi).all() && thi.cmpge(lo).all())
                .map(|(tri, _)| without_repeats(clip_convex(&poly, tri)))
                .filter(|piece| piece.len() >= 3 && signed_area(piece) > 1e-12)
                .collect();
            VisibleFloor { slot, pieces }
        })
        .collect();
    Ok(floors)
}

/// The outline of what `eye` sees within `reach`: ray hits in increasing angle, with hits
/// on one straight line between their neighbours dropped.
fn outline<O: Opacity + ?Sized>(sight: &O, level: u16, eye: DVec2, reach: f64) -> Vec<DVec2> {
    let tau = std::f64::consts::TAU;
    let mut angles: Vec<f64> = (0..FLOOR_ARC_RAYS).map(|i| i as f64 * tau / FLOOR_ARC_RAYS as f64).collect();
    for corner in corners(sight.dungeon(), level, eye, reach) {
        let d = corner - eye;
        if d.length() > 1e-9 {
            let a = angle::atan2(d.y, d.x);
            angles.extend([a - SIDE_ANGLE, a, a + SIDE_ANGLE].map(|a| a.rem_euclid(tau)));
        }
    }
    angles.sort_by(f64::total_cmp);
    angles.dedup();
    let hits: Vec<DVec2> = angles
        .iter()
        .map(|&a| {
            let q = eye + angle::unit(a) * reach;
            let trace = Trace::new(sight, level, eye, q);
            trace.first_block(None).map_or(q, |t| trace.at(t))
        })
        .collect();
    drop_collinear(hits)
}

/// Drops every point that lies (within 1e-9 m) on the segment between its neighbours.
fn drop_collinear(points: Vec<DVec2>) -> Vec<DVec2> {
    let mut out: Vec<DVec2> = Vec::with_capacity(points.len());
    for p in points {
        while out.len() >= 2 {
            let (a, b) = (out[out.len() - 2], out[out.len() - 1]);
            let (ab, ap) = (p - a, b - a);
            let on_line = ab.perp_dot(ap).abs() <= 1e-9 * ab.length();
            if on_line && ab.dot(ap) > 0.0 && ap.length_squared() < ab.length_squared() {
                out.pop();
            } else {
                break;
            }
        }
        out.push(p);
    }
    out
}

/// Every corner of the cell polygons and door passages of `level` within `reach` of `eye`
/// (the rows and columns the radius spans only).
fn corners(dungeon: &Dungeon, level: u16, eye: DVec2, reach: f64) -> Vec<DVec2> {
    let (layout, dims) = (dungeon.layout(), dungeon.dims());
    let s = layout.spacing();
    let span = |c: f64, len: u32| {
        let lo = ((c - reach) / s).floor() - 1.0;
        let hi = ((c + reach) / s).ceil() + 1.0;
        (lo.max(0.0) as u32)..(hi.min(f64::from(len) - 1.0).max(0.0) as u32 + 1)
    };
    let mut out = Vec::new();
    for row in span(eye.y, dims.rows()) {
        for col in span(eye.x, dims.cols()) {
            let slot = Slot::new(row, col);
            let Some(poly) = layout.cell_polygon(slot) else { continue };
            out.extend(poly.iter().copied().filter(|v| v.distance(eye) <= reach));
            for &dir in dims.walls(slot).unwrap_or(&[]) {
                let door =
                    dungeon.carved_seam(Pos { level, slot }, dir).is_some_and(|e| e.carve == Carve::Door);
                let Ok(Some(other)) = dims.neighbor(slot, dir) else { continue };
                if let Some(quad) = door.then(|| layout.door((slot, dir), (other, dir.opposite()))).flatten()
                {
                    out.extend(quad.into_iter().filter(|v| v.distance(eye) <= reach));
                }
            }
        }
    }
    out
}

/// `polygon` without vertices within 1e-9 m of the one before (a clip repeats a vertex
/// where a triangle's corner lies on the cell's outline).
fn without_repeats(mut polygon: Vec<DVec2>) -> Vec<DVec2> {
    polygon.dedup_by(|b, a| a.distance(*b) <= 1e-9);
    while polygon.len() > 1 && polygon[0].distance(polygon[polygon.len() - 1]) <= 1e-9 {
        polygon.pop();
    }
    polygon
}

/// The bounding box `[min, max]` of `points`.
fn bounds(points: &[DVec2]) -> [DVec2; 2] {
    let lo = points.iter().fold(DVec2::splat(f64::INFINITY), |a, &p| a.min(p));
    let hi = points.iter().fold(DVec2::splat(f64::NEG_INFINITY), |a, &p| a.max(p));
    [lo, hi]
}
