//! The overlay geometry of edit mode and fog of war, on the CPU: triangle lists in world
//! metres (`[x, y, z]` per vertex). The fog is a dark box inside each dimmed cell (its
//! floor and its sides), the hover highlight a bright floor polygon or a panel on a wall.

use glam::{DVec2, DVec3};

use crate::geometry::{Layout, Target};
use crate::grid::Pos;

/// How far inside a cell's walls the overlays stand (metres), so they are drawn in front
/// of the wall and floor faces they cover.
const INSET: f64 = 0.04;

/// One overlay vertex: a world position in metres.
pub type OverlayVertex = [f32; 3];

fn push(out: &mut Vec<OverlayVertex>, p: DVec3) {
    out.push(p.as_vec3().to_array());
}

fn at(p: DVec2, y: f64) -> DVec3 {
    DVec3::new(p.x, y, p.y)
}

/// The polygon of the cell at `pos` pulled `INSET` toward its centre.
fn inset_polygon(layout: &Layout, pos: Pos) -> Vec<DVec2> {
    layout.cell_polygon_inset(pos.slot, INSET).unwrap_or_default()
}

/// Appends the fan of a convex polygon at height `y`.
fn push_fan(out: &mut Vec<OverlayVertex>, polygon: &[DVec2], y: f64) {
    for i in 1..polygon.len().saturating_sub(1) {
        for v in [polygon[0], polygon[i], polygon[i + 1]] {
            push(out, at(v, y));
        }
    }
}

/// Appends the quad standing on segment `a-b` from height `y0` to `y1`.
fn push_panel(out: &mut Vec<OverlayVertex>, a: DVec2, b: DVec2, y0: f64, y1: f64) {
    for (p, y) in [(a, y0), (b, y0), (b, y1), (a, y0), (b, y1), (a, y1)] {
        push(out, at(p, y));
    }
}

/// The fog over `cells`: per cell, its floor and its sides up to the room height, just
/// inside its walls.
#[must_use]
pub fn fog_boxes(layout: &Layout, cells: &[Pos]) -> Vec<OverlayVertex> {
    let p = layout.proportions();
    let mut out = Vec::new();
    for &pos in cells {
        let floor = p.floor_y(pos.level);
        let (y0, y1) = (floor + INSET, floor + p.room_height - INSET);
        let polygon = inset_polygon(layout, pos);
        push_fan(&mut out, &polygon, y0);
        for i in 0..polygon.len() {
            push_panel(&mut out, polygon[i], polygon[(i + 1) % polygon.len()], y0, y1);
        }
    }
    out
}

/// The hover highlight of `target`: a cell's floor, or a panel just inside a wall from
/// floor to room height (with a strip of the cell's floor along it).
#[must_use]
pub fn highlight(layout: &Layout, target: Target) -> Vec<OverlayVertex> {
    let p = layout.proportions();
    let mut out = Vec::new();
    let pos = target.pos();
    let floor = p.floor_y(pos.level) + INSET;
    match target {
        Target::Cell(_) => push_fan(&mut out, &inset_polygon(layout, pos), floor),
        Target::Wall(_, dir) => {
            let Some([a, b]) = layout.wall(pos.slot, dir) else { return out };
            let inward = (layout.center(pos.slot) - (a + b) / 2.0).normalize_or_zero();
            let (a, b) = (a + inward * INSET, b + inward * INSET);
            push_panel(&mut out, a, b, floor, floor + p.room_height - 2.0 * INSET);
            let depth = inward * crate::geometry::wall_band(layout, pos.slot);
            push_fan(&mut out, &[a, b, b + depth, a + depth], floor);
        }
    }
    out
}

/// Outlines of `cells`: a thin strip along each wall on the floor, just inside the cell.
#[must_use]
pub fn outlines(layout: &Layout, cells: &[Pos]) -> Vec<OverlayVertex> {
    const WIDTH: f64 = 0.12;
    let mut out = Vec::new();
    for &pos in cells {
        let y = layout.proportions().floor_y(pos.level) + INSET;
        let centre = layout.center(pos.slot);
        let polygon = inset_polygon(layout, pos);
        for i in 0..polygon.len() {
            let (a, b) = (polygon[i], polygon[(i + 1) % polygon.len()]);
            let (a2, b2) =
                (a + (centre - a).normalize_or_zero() * WIDTH, b + (centre - b).normalize_or_zero() * WIDTH);
            for v in [a, b, b2, a, b2, a2] {
                push(&mut out, at(v, y));
            }
        }
    }
    out
}

/// The floors of `cells` (pinned cells are tinted with them).
#[must_use]
pub fn floors(layout: &Layout, cells: &[Pos]) -> Vec<OverlayVertex> {
    let mut out = Vec::new();
    for &pos in cells {
        push_fan(&mut out, &inset_polygon(layout, pos), layout.proportions().floor_y(pos.level) + INSET);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Proportions;
    use crate::grid::{Direction, Slot};
    use crate::walk::contains;

    #[test]
    fn overlays_stand_inside_their_cell() {
        let layout = Layout::new(Proportions::default()).unwrap();
        let pos = Pos::new(1, 2, 2);
        let polygon = layout.cell_polygon(Slot::new(2, 2)).unwrap();
        let fog = fog_boxes(&layout, &[pos]);
        // 6 fan triangles and 8 side quads (2 triangles each) of an octagon.
        assert_eq!(fog.len(), (6 + 16) * 3);
        let floor = layout.proportions().floor_y(1);
        for v in fog.iter().chain(&highlight(&layout, Target::Wall(pos, Direction::E))) {
            assert!(contains(&polygon, DVec2::new(f64::from(v[0]), f64::from(v[2]))), "{v:?}");
            assert!(f64::from(v[1]) > floor && f64::from(v[1]) < floor + layout.proportions().room_height);
        }
        assert_eq!(highlight(&layout, Target::Cell(pos)).len(), 6 * 3);
    }
}
