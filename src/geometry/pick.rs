//! Picking: which cell, or which wall of a cell, a ray (from a camera through the cursor)
//! points at on one level. Pure geometry on [`Layout`]'s polygons, on the CPU (no GPU
//! read-back), so it is the same for every camera and testable without a window.
//!
//! The level is the slab from its floor up to its room height. A ray that starts inside
//! the slab in a cell (a walker's eye) leaves that cell's prism through one of its walls
//! (that wall is picked) or lands on its floor. A ray from outside the slab (an orbit or
//! top camera) lands on the level's floor plane: on a cell it picks the cell, or the wall
//! nearest the landing point when that point is within [`wall_band`] of it; on a seam it
//! picks the seam's edge; on a pillar or off the grid nothing.

use glam::{DVec2, DVec3};

use super::{Layout, Place};
use crate::grid::{Dims, Direction, Pos, Slot, SlotKind};

/// A ray in world space (metres, `y` up). `dir` need not be unit length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    /// Where the ray starts.
    pub origin: DVec3,
    /// Which way it goes.
    pub dir: DVec3,
}

impl Ray {
    /// The point at parameter `t` (`origin + t * dir`).
    #[must_use]
    pub fn at(&self, t: f64) -> DVec3 {
        self.origin + self.dir * t
    }
}

/// What a ray picks: a cell, or one wall of a cell (named from that cell's side, as
/// [`crate::dungeon::Dungeon::set_edge`] takes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The cell at this position.
    Cell(Pos),
    /// Wall `Direction` of the cell at `Pos` (a diagonal one for a connector).
    Wall(Pos, Direction),
}

impl Target {
    /// The cell the target is in (a wall's own cell).
    #[must_use]
    pub fn pos(self) -> Pos {
        match self {
            Target::Cell(pos) | Target::Wall(pos, _) => pos,
        }
    }
}

/// A pick: the target and the world point where the ray met it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pick {
    /// The cell or wall picked.
    pub target: Target,
    /// Where the ray met the wall or the floor (world metres).
    pub point: DVec3,
}

/// How close (metres) to a wall of the cell at `slot` a floor point must be for the wall to
/// be picked instead of the cell: 30% of the cell's inradius, at most 1.2 m.
#[must_use]
pub fn wall_band(layout: &Layout, slot: Slot) -> f64 {
    let inradius = match slot.kind() {
        SlotKind::Connector => layout.proportions().cut() / std::f64::consts::SQRT_2,
        _ => layout.proportions().half_base(),
    };
    (0.3 * inradius).min(1.2)
}

/// The directions of the walls of a cell of `kind`, in the order of its polygon's edges
/// (edge `i` of [`Layout::cell_polygon`] runs from vertex `i` to `i + 1`).
fn polygon_walls(kind: SlotKind) -> &'static [Direction] {
    match kind {
        // Connector vertices N, E, S, W: N -> E faces NE (wall 1), ..., W -> N faces NW.
        SlotKind::Connector => &[Direction::NE, Direction::SE, Direction::SW, Direction::NW],
        _ => &Direction::ALL,
    }
}

/// What `ray` points at on `level` of a dungeon of `dims` laid out by `layout`; `None`
/// when it misses the level's slab, lands off the grid or on a pillar, or leaves a
/// walker's cell through its ceiling. See the module documentation for the rules.
#[must_use]
pub fn pick(layout: &Layout, dims: Dims, level: u16, ray: Ray) -> Option<Pick> {
    if !ray.origin.is_finite() || !ray.dir.is_finite() || ray.dir.length_squared() == 0.0 {
        return None;
    }
    let floor = layout.proportions().floor_y(level);
    let top = floor + layout.proportions().room_height;
    let inside = (floor..=top).contains(&ray.origin.y);
    let start = DVec2::new(ray.origin.x, ray.origin.z);
    let from_cell = match layout.place_at(start) {
        Some(Place::Cell(slot)) if inside && dims.contains(slot) => Some(slot),
        _ => None,
    };
    let target = match from_cell {
        Some(slot) => from_inside(layout, Pos { level, slot }, ray, floor, top)?,
        None => {
            let t = (floor - ray.origin.y) / ray.dir.y;
            if !(t.is_finite() && t >= 0.0) {
                return None;
            }
            let point = ray.at(t);
            Pick { target: on_floor(layout, dims, level, DVec2::new(point.x, point.z))?, point }
        }
    };
    dims.contains(target.target.pos().slot).then_some(target)
}

/// A ray from inside the prism of the cell at `pos`: the wall it leaves through, or the
/// floor it lands on (then as [`on_floor`] within that cell).
fn from_inside(layout: &Layout, pos: Pos, ray: Ray, floor: f64, top: f64) -> Option<Pick> {
    let polygon = layout.cell_polygon(pos.slot)?;
    let (o, d) = (DVec2::new(ray.origin.x, ray.origin.z), DVec2::new(ray.dir.x, ray.dir.z));
    // The first edge the 2-D ray leaves the convex polygon through.
    let n = polygon.len();
    let mut exit: Option<(f64, usize)> = None;
    for i in 0..n {
        let (a, b) = (polygon[i], polygon[(i + 1) % n]);
        let outward = -(b - a).perp();
        let towards = d.dot(outward);
        if towards <= 0.0 {
            continue;
        }
        let t = (a - o).dot(outward) / towards;
        if exit.is_none_or(|(best, _)| t < best) {
            exit = Some((t.max(0.0), i));
        }
    }
    let vertical = if ray.dir.y < 0.0 {
        Some(((floor - ray.origin.y) / ray.dir.y, true))
    } else if ray.dir.y > 0.0 {
        Some(((top - ray.origin.y) / ray.dir.y, false))
    } else {
        None
    };
    match (exit, vertical) {
        (Some((t, i)), v) if v.is_none_or(|(tv, _)| t < tv) => {
            Some(Pick { target: Target::Wall(pos, polygon_walls(pos.slot.kind())[i]), point: ray.at(t) })
        }
        (_, Some((t, true))) => {
            let point = ray.at(t);
            Some(Pick { target: in_cell(layout, pos, DVec2::new(point.x, point.z)), point })
        }
        _ => None,
    }
}

/// The target at floor point `p` (world `(x, z)`) of `level`: a cell or its nearest wall
/// within [`wall_band`], a seam's edge, or `None` on a pillar or off the grid.
fn on_floor(layout: &Layout, dims: Dims, level: u16, p: DVec2) -> Option<Target> {
    match layout.place_at(p)? {
        Place::Cell(slot) => dims.contains(slot).then(|| in_cell(layout, Pos { level, slot }, p)),
        Place::Seam(edge) => {
            let sides = dims.edge_sides(edge).ok()?;
            let nearest = sides.into_iter().min_by(|a, b| {
                let (da, db) = (layout.center(a.0).distance(p), layout.center(b.0).distance(p));
                da.total_cmp(&db)
            })?;
            Some(Target::Wall(Pos { level, slot: nearest.0 }, nearest.1))
        }
        Place::Pillar(..) => None,
    }
}

/// The cell at `pos`, or its wall nearest floor point `p` when `p` is within
/// [`wall_band`] of it.
fn in_cell(layout: &Layout, pos: Pos, p: DVec2) -> Target {
    let walls = polygon_walls(pos.slot.kind());
    let nearest = walls
        .iter()
        .filter_map(|&dir| {
            let [a, b] = layout.wall(pos.slot, dir)?;
            Some((crate::walk::segment_distance(p, a, b), dir))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    match nearest {
        Some((distance, dir)) if distance <= wall_band(layout, pos.slot) => Target::Wall(pos, dir),
        _ => Target::Cell(pos),
    }
}
