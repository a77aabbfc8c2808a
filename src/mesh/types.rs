//! The mesh types every consumer shares: one vertex layout feeds the glTF buffers and the
//! GPU buffers, so the viewer shows exactly what is exported.

use bytemuck::{Pod, Zeroable};

/// One vertex: position (metres, relative to its level node at `L * H`), flat normal
/// pointing into carved space, UV0 in texture units (world metres / texture size, less a
/// whole number per panel so it stays small), UV1 for lightmaps (inside [0, 1]).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct Vertex {
    /// Position in metres, level-local (`y = 0` is the level's floor).
    pub position: [f32; 3],
    /// Unit normal, pointing into carved (walkable) space.
    pub normal: [f32; 3],
    /// Texture coordinates: world metres divided by the texture size, less a whole number
    /// per flat panel (the floor of the panel's smallest value), so each panel's UV0 lies in
    /// [0, 1 + its size in texture units) and the texture looks the same.
    pub uv: [f32; 2],
    /// Lightmap coordinates, non-overlapping inside [0, 1] per level.
    pub uv1: [f32; 2],
}

/// What a surface is, which decides its material.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MaterialRole {
    /// Walkable floors.
    Floor,
    /// Walls, seam sides and pillar faces.
    Wall,
    /// Ceilings.
    Ceiling,
    /// The spiral stair solid.
    Stair,
    /// The jambs and lintel of a door passage.
    DoorFrame,
}

impl MaterialRole {
    /// Every role, in the order primitives and materials are written.
    pub const ALL: [MaterialRole; 5] = [
        MaterialRole::Floor,
        MaterialRole::Wall,
        MaterialRole::Ceiling,
        MaterialRole::Stair,
        MaterialRole::DoorFrame,
    ];

    /// This role's place in [`MaterialRole::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        // ALL lists the roles in declaration order (a test checks it).
        self as usize
    }

    /// Base colour of the role (linear RGBA, opaque): the exported material's base colour
    /// factor and the colour the viewer lights, so a role looks alike in both. The roles'
    /// colours are distinct, so they tell apart in any glTF viewer.
    #[must_use]
    pub const fn colour(self) -> [f32; 4] {
        match self {
            MaterialRole::Floor => [0.55, 0.50, 0.42, 1.0],
            MaterialRole::Wall => [0.42, 0.44, 0.48, 1.0],
            MaterialRole::Ceiling => [0.30, 0.30, 0.32, 1.0],
            MaterialRole::Stair => [0.60, 0.38, 0.22, 1.0],
            MaterialRole::DoorFrame => [0.35, 0.22, 0.12, 1.0],
        }
    }

    /// Lower-case name ("floor", "wall", "ceiling", "stair", "door_frame").
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MaterialRole::Floor => "floor",
            MaterialRole::Wall => "wall",
            MaterialRole::Ceiling => "ceiling",
            MaterialRole::Stair => "stair",
            MaterialRole::DoorFrame => "door_frame",
        }
    }
}

/// Triangles of one material role on one level.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Primitive {
    /// Vertices (level-local).
    pub vertices: Vec<Vertex>,
    /// Triangle list, counter-clockwise seen from the carved side.
    pub indices: Vec<u32>,
}

/// The mesh of one level: one primitive per material role that has triangles.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelMesh {
    /// Level index.
    pub level: u16,
    /// World height of the level's floor, `L * H` (metres): where its node stands.
    pub floor_y: f64,
    /// Primitives by role, in [`MaterialRole::ALL`] order; roles without triangles are absent.
    pub primitives: Vec<(MaterialRole, Primitive)>,
}

/// The meshes of every level of a dungeon.
#[derive(Debug, Clone, PartialEq)]
pub struct DungeonMesh {
    /// One mesh per level, bottom first.
    pub levels: Vec<LevelMesh>,
    /// UV1 holds a lightmap atlas (built with [`super::MeshOptions::lightmap_uv`]); when
    /// false UV1 is zero and the export leaves `TEXCOORD_1` out.
    pub lightmap_uv: bool,
}

#[cfg(test)]
mod tests {
    use super::MaterialRole;

    #[test]
    fn a_roles_index_is_its_place_in_all() {
        for (i, role) in MaterialRole::ALL.into_iter().enumerate() {
            assert_eq!(role.index(), i, "{role:?}");
        }
    }
}
