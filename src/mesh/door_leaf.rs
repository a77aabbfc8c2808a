//! Door leaves: the swinging part of a door, apart from the frame the level mesh carves.
//!
//! Each door edge whose seam is carved ([`Dungeon::carved_seam`]) gets one [`DoorLeaf`]: a
//! hinge point and a direction, read from [`crate::geometry::Layout::door_opening`] of the edge's *first*
//! side ([`crate::grid::Dims::edge_sides`]): the hinge is the first end of the opening the
//! door cuts in that cell's wall, the leaf runs along the opening to its other end. The leaf
//! mesh ([`leaf_mesh`]) is built once in the hinge's own frame (origin on the hinge at floor
//! height, +X along the closed leaf, +Y up, +Z into the first cell), so an engine or the
//! viewer swings a door by turning it about its local +Y. This module is the one owner of
//! where a door hinges: the markers' door hinges ([`crate::rooms::Markers`]) ask it.

use glam::{DQuat, DVec2, DVec3};

use super::{Primitive, Vertex};
use crate::dungeon::{Carve, Dungeon};
use crate::geometry::angle;
use crate::grid::{EdgeId, Pos};

/// Thickness of a door leaf (metres). The closed leaf stands in the passage just beyond
/// the first cell's wall plane (local `z` in `[-LEAF_THICKNESS, 0]`).
pub const LEAF_THICKNESS: f64 = 0.08;

/// Gap between a leaf and its frame at each side and at the top (metres), and between the
/// leaf and the floor.
pub const LEAF_GAP: f64 = 0.01;

/// Base colour of a door leaf (linear RGBA, opaque): a darker wood than the door frame.
pub const LEAF_COLOUR: [f32; 4] = [0.25, 0.14, 0.07, 1.0];

/// One door's leaf, placed: where its hinge is and which way it closes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DoorLeaf {
    /// The door's level.
    pub level: u16,
    /// The door's edge.
    pub edge: EdgeId,
    /// The first side of the edge: the cell whose wall the hinge is on.
    pub cell: Pos,
    /// The hinge point: world metres, at the level's floor height.
    pub hinge: DVec3,
    /// Unit plan direction `(x, z)` from the hinge along the closed leaf to its latch end.
    pub along: DVec2,
    /// Width of the opening (metres): the distance from the hinge to the latch end.
    pub width: f64,
    /// Height of the opening (metres, [`Dungeon::door_height_at`]).
    pub height: f64,
    /// Whether the door's edge state is walkable (an open door) rather than closed.
    pub open: bool,
}

impl DoorLeaf {
    /// The rotation about +Y that turns the leaf's local +X onto [`DoorLeaf::along`] (local
    /// +Z then points into [`DoorLeaf::cell`]). Built from the direction with square roots
    /// only (half-angle formulas), so it is the same on every platform.
    #[must_use]
    pub fn rotation(&self) -> DQuat {
        yaw_onto(self.along)
    }

    /// Where the leaf-local point `local` (the frame of [`leaf_mesh`]) is in the world when
    /// the leaf is swung `swing` radians about its hinge (positive turns local +X towards
    /// local -Z, into the passage).
    #[must_use]
    pub fn to_world(&self, local: DVec3, swing: f64) -> DVec3 {
        // `DQuat::from_rotation_y(swing)`, with the sine and cosine of `geometry::angle`.
        let (s, c) = angle::sin_cos(swing * 0.5);
        self.hinge + self.rotation() * (DQuat::from_xyzw(0.0, s, 0.0, c) * local)
    }
}

/// The rotation about +Y that turns +X onto the unit plan direction `dir` `(x, z)`, built
/// with square roots only (half-angle formulas), so it is the same on every platform.
#[must_use]
pub fn yaw_onto(dir: DVec2) -> DQuat {
    // A yaw t turns +X onto (cos t, 0, -sin t): cos t = dir.x, sin t = -dir.y.
    let (cos, sin) = (dir.x.clamp(-1.0, 1.0), -dir.y);
    let half_cos = ((1.0 + cos) / 2.0).sqrt();
    let half_sin = ((1.0 - cos) / 2.0).sqrt();
    let half_sin = if sin < 0.0 { -half_sin } else { half_sin };
    DQuat::from_xyzw(0.0, half_sin, 0.0, half_cos)
}

/// Every door leaf of `dungeon`: one per door edge (carve [`Carve::Door`]) whose seam is
/// carved, level by level in edge order.
#[must_use]
pub fn door_leaves(dungeon: &Dungeon) -> Vec<DoorLeaf> {
    let dims = dungeon.dims();
    let layout = dungeon.layout();
    let registry = dungeon.registry();
    let mut out = Vec::new();
    for level in 0..dungeon.levels() {
        let y = dungeon.proportions().floor_y(level);
        let Ok(states) = dungeon.edge_layer(level) else { continue }; // every level has one
        // Only an edge in a door state can be a door's seam: the rest are passed over
        // without reading their sides.
        let doors = states
            .iter()
            .enumerate()
            .filter(|(_, s)| registry.edge_def(**s).is_some_and(|d| d.carve == Carve::Door));
        for edge in doors.filter_map(|(i, _)| dims.edge_at(i)) {
            let Ok(sides) = dims.edge_sides(edge) else { continue };
            let (slot, dir) = sides[0];
            let cell = Pos { level, slot };
            let Some(def) = dungeon.carved_seam(cell, dir).filter(|d| d.carve == Carve::Door) else {
                continue;
            };
            let Some([hinge, latch]) = layout.door_opening(sides, slot, dir) else { continue };
            // Rounded to the nanometre, so doors of one design width share one leaf mesh
            // (a long and a short seam's openings differ in the last bits).
            let width = (hinge.distance(latch) * 1e9).round() / 1e9;
            out.push(DoorLeaf {
                level,
                edge,
                cell,
                hinge: DVec3::new(hinge.x, y, hinge.y),
                along: (latch - hinge) / width,
                width,
                height: dungeon.door_height_at(level, edge),
                open: def.walkable,
            });
        }
    }
    out
}

/// The leaf of a door `width` metres wide as a closed box in its hinge frame (metres;
/// origin on the hinge at floor height, +X along the closed leaf, +Y up, the leaf in
/// `z` from `-LEAF_THICKNESS` to 0): [`LEAF_GAP`] short of the frame at both sides and the
/// top and off the floor, for an opening `height` metres high ([`DoorLeaf::height`]). 24
/// vertices (flat normals, UV0 in metres, UV1 zero), 12 triangles, counter-clockwise seen
/// from outside.
///
/// # Panics
/// Never: the `expect` restates that a box has 24 vertices.
#[must_use]
pub fn leaf_mesh(width: f64, height: f64) -> Primitive {
    let lo = DVec3::new(LEAF_GAP, LEAF_GAP, -LEAF_THICKNESS);
    let hi = DVec3::new((width - LEAF_GAP).max(2.0 * LEAF_GAP), height - LEAF_GAP, 0.0);
    box_mesh(lo, hi)
}

/// The axis-aligned box from `lo` to `hi` (metres) as a closed solid: 24 vertices (flat
/// normals, UV0 in metres, UV1 zero), 12 triangles, counter-clockwise seen from outside.
/// The stand-alone solids (door leaves, railings) are such boxes in their own frames.
pub(crate) fn box_mesh(lo: DVec3, hi: DVec3) -> Primitive {
    let mut prim = Primitive::default();
    // Each face: its normal and two in-plane axes (u, v) with u x v = normal.
    for (base, (normal, u, v)) in (0u32..).step_by(4).zip([
        (DVec3::X, DVec3::NEG_Z, DVec3::Y),
        (DVec3::NEG_X, DVec3::Z, DVec3::Y),
        (DVec3::Y, DVec3::X, DVec3::NEG_Z),
        (DVec3::NEG_Y, DVec3::X, DVec3::Z),
        (DVec3::Z, DVec3::X, DVec3::Y),
        (DVec3::NEG_Z, DVec3::NEG_X, DVec3::Y),
    ]) {
        let centre = (lo + hi) / 2.0;
        let half = (hi - lo) / 2.0;
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p = centre
                + normal * half.dot(normal.abs())
                + u * su * half.dot(u.abs())
                + v * sv * half.dot(v.abs());
            prim.vertices.push(Vertex {
                position: p.to_array().map(|c| c as f32),
                normal: normal.to_array().map(|c| c as f32),
                uv: [p.dot(u) as f32, p.dot(v) as f32],
                uv1: [0.0; 2],
            });
        }
        prim.indices.extend([0, 1, 2, 0, 2, 3].map(|i| base + i));
    }
    prim
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::Direction;

    #[test]
    fn the_leaf_is_a_closed_box_on_its_hinge() {
        let p = Proportions::default();
        let m = leaf_mesh(p.door_width, p.door_height);
        assert_eq!((m.vertices.len(), m.indices.len()), (24, 36));
        let xs: Vec<f32> = m.vertices.iter().map(|v| v.position[0]).collect();
        assert!(xs.iter().all(|&x| x >= 0.0 && f64::from(x) <= p.door_width));
        // Counter-clockwise from outside: each triangle's winding normal is its vertex normal.
        for t in m.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| glam::Vec3::from(m.vertices[t[k] as usize].position));
            let n = glam::Vec3::from(m.vertices[t[0] as usize].normal);
            assert!((b - a).cross(c - a).dot(n) > 0.0);
        }
    }

    #[test]
    fn every_door_seam_gets_a_leaf_and_nothing_else_does() {
        for seed in [1, 2, 3] {
            let options = crate::generate::GenerateOptions {
                seed,
                levels: 2,
                cols: 12,
                rows: 10,
                doors: 0.9,
                ..Default::default()
            };
            let d = crate::generate::generate(&options, &mut |_| {}).unwrap();
            // Every edge of every level, asked through the seam rule.
            let mut seams = Vec::new();
            for level in 0..d.levels() {
                for edge in d.dims().edges() {
                    let (slot, dir) = d.dims().edge_sides(edge).unwrap()[0];
                    if d.carved_seam(Pos { level, slot }, dir).is_some_and(|s| s.carve == Carve::Door) {
                        seams.push((level, edge));
                    }
                }
            }
            let leaves: Vec<_> = door_leaves(&d).iter().map(|l| (l.level, l.edge)).collect();
            assert!(seams.len() > 3, "seed {seed}: doors were placed");
            assert_eq!(leaves, seams, "seed {seed}");
        }
    }

    #[test]
    fn a_door_hinges_on_its_first_sides_opening_and_turns_onto_it() {
        let mut d = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor).unwrap();
        d.set_edge(Pos::new(0, 2, 2), Direction::E, Registry::DOOR).unwrap();
        d.set_edge(Pos::new(0, 2, 2), Direction::SW, Registry::DOOR).unwrap();
        let leaves = door_leaves(&d);
        assert_eq!(leaves.len(), 2);
        for leaf in &leaves {
            let sides = d.dims().edge_sides(leaf.edge).unwrap();
            let [h, l] = d.layout().door_opening(sides, sides[0].0, sides[0].1).unwrap();
            assert!(leaf.hinge.distance(DVec3::new(h.x, 0.0, h.y)) < 1e-9);
            let latch = leaf.to_world(DVec3::new(leaf.width, 0.0, 0.0), 0.0);
            assert!(latch.distance(DVec3::new(l.x, 0.0, l.y)) < 1e-9, "{latch} vs {l}");
            // Local +Z points into the first cell (towards its centre).
            let inward = leaf.to_world(DVec3::Z, 0.0) - leaf.hinge;
            let centre = d.layout().world_center(leaf.cell) - leaf.hinge;
            assert!(inward.dot(centre) > 0.0);
            assert!(!leaf.open, "the standard door is closed");
        }
    }
}
