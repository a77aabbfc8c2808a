//! Railings: the closed solid standing on every open edge between a floor and a void
//! (docs/design.md, "Columns across storeys"; which edges carry one is the dungeon's rule,
//! [`Dungeon::railing_edges`]). Like a door leaf, each railing is a box in its own frame
//! (origin at its start on the floor, +X along it, +Y up, +Z over the floor side), so an
//! exporter writes it as a node of its own and an engine can give it its own collider.

use glam::{DQuat, DVec2, DVec3};

use super::Primitive;
use super::door_leaf::{box_mesh, yaw_onto};
use crate::dungeon::{Dungeon, RAILING_HEIGHT, RAILING_THICKNESS};
use crate::grid::{EdgeId, Pos};

/// Base colour of a railing (linear RGBA, opaque): the door leaves' wood
/// ([`super::LEAF_COLOUR`]), as the viewer draws both.
pub const RAILING_COLOUR: [f32; 4] = super::LEAF_COLOUR;

/// One railing, placed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Railing {
    /// The level it stands on.
    pub level: u16,
    /// Its edge.
    pub edge: EdgeId,
    /// The floor cell it guards.
    pub floor: Pos,
    /// Its start: world metres, at the level's floor height, on the void cell's wall.
    pub start: DVec3,
    /// Unit plan direction `(x, z)` along it; local +Z, `(-along.y, along.x)`, points over
    /// the floor side.
    pub along: DVec2,
    /// Its length (metres): the void cell's wall.
    pub length: f64,
}

impl Railing {
    /// The rotation about +Y that turns local +X onto [`Railing::along`].
    #[must_use]
    pub fn rotation(&self) -> DQuat {
        yaw_onto(self.along)
    }

    /// The railing's triangles in world metres, counter-clockwise seen from outside.
    #[must_use]
    pub fn triangles(&self) -> Vec<[DVec3; 3]> {
        let prim = railing_mesh(self.length);
        let (rot, start) = (self.rotation(), self.start);
        let world = |i: u32| start + rot * DVec3::from(prim.vertices[i as usize].position.map(f64::from));
        prim.indices.chunks_exact(3).map(|t| [world(t[0]), world(t[1]), world(t[2])]).collect()
    }
}

/// Every railing of `dungeon`, level by level in edge order ([`Dungeon::railing_edges`]):
/// along the void cell's wall, standing [`RAILING_THICKNESS`] into the seam on the floor
/// side, [`RAILING_HEIGHT`] high.
#[must_use]
pub fn railings(dungeon: &Dungeon) -> Vec<Railing> {
    let mut out = Vec::new();
    for level in 0..dungeon.levels() {
        let y = dungeon.proportions().floor_y(level);
        for rail in dungeon.railing_edges(level) {
            let Some(line) = dungeon.railing_line(&rail) else { continue };
            // Rounded to the nanometre, so railings of one wall kind share one mesh.
            let length = (line.length * 1e9).round() / 1e9;
            out.push(Railing {
                level,
                edge: rail.edge,
                floor: Pos { level, slot: rail.floor },
                start: DVec3::new(line.start.x, y, line.start.y),
                along: line.along,
                length,
            });
        }
    }
    out
}

/// The railing `length` metres long as a closed box in its own frame ([`Railing`]): `x`
/// from 0 to `length`, `y` from 0 to [`RAILING_HEIGHT`], `z` from 0 to
/// [`RAILING_THICKNESS`].
#[must_use]
pub fn railing_mesh(length: f64) -> Primitive {
    box_mesh(DVec3::ZERO, DVec3::new(length, RAILING_HEIGHT, RAILING_THICKNESS))
}
