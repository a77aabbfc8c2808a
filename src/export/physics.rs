//! Meshes for engines rather than for the eye: a level's collider (every surface welded by
//! position, stairs as ramps), and the welding its navigation mesh
//! ([`super::navmesh`]) shares.

use crate::dungeon::Dungeon;
use crate::mesh::{self, LevelMesh, MaterialRole, Primitive, Vertex};

/// The triangles of `prims` and `extra` (level-local metres) welded by position only:
/// `(positions, indices)`, each distinct position once.
pub(super) fn weld<'a>(
    prims: impl Iterator<Item = &'a Primitive>,
    extra: &[[f32; 3]],
) -> (Vec<[f32; 3]>, Vec<u32>) {
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut indices = Vec::new();
    for p in prims {
        let base = u32::try_from(positions.len()).expect("invariant: a level's vertices fit u32");
        positions.extend(p.vertices.iter().map(|v| v.position));
        indices.extend(p.indices.iter().map(|i| base + i));
    }
    let base = u32::try_from(positions.len()).expect("invariant: a level's vertices fit u32");
    positions.extend_from_slice(extra);
    indices.extend((0..extra.len()).map(|i| base + u32::try_from(i).expect("invariant: fits u32")));
    let (count, remap) = meshopt::generate_vertex_remap(&positions, Some(&indices));
    let indices = meshopt::remap_index_buffer(Some(&indices), positions.len(), &remap);
    let mut welded = vec![[0.0; 3]; count];
    for (p, &r) in positions.iter().zip(&remap) {
        if r != u32::MAX {
            welded[r as usize] = *p;
        }
    }
    (welded, indices)
}

/// A position-only primitive of `indices` over `positions`, keeping only the vertices the
/// indices use (renumbered in order of first use).
pub(super) fn compact(positions: &[[f32; 3]], indices: &[u32]) -> Primitive {
    let mut new_index = vec![u32::MAX; positions.len()];
    let mut vertices = Vec::new();
    let mut out = Vec::with_capacity(indices.len());
    for &i in indices {
        let slot = &mut new_index[i as usize];
        if *slot == u32::MAX {
            *slot = u32::try_from(vertices.len()).expect("invariant: fewer vertices than before");
            vertices.push(Vertex {
                position: positions[i as usize],
                normal: [0.0; 3],
                uv: [0.0; 2],
                uv1: [0.0; 2],
            });
        }
        out.push(*slot);
    }
    Primitive { vertices, indices: out }
}

/// One level's collision mesh: every surface but the stairs' steps, welded by position,
/// with coplanar floor and ceiling polygons merged ([`super::merge::merge_flat`]: each flat
/// region triangulated from its boundary vertices only), and each stair as a ramp
/// ([`mesh::stair_ramps`]: a closed solid whose top rises smoothly instead of in steps,
/// with about a third fewer triangles), so characters glide up it. A closed render mesh
/// gives a closed collider. POSITION only: normals, UVs and materials mean nothing to
/// physics.
pub(crate) fn collider(dungeon: &Dungeon, level: &LevelMesh) -> Primitive {
    let ramps: Vec<[f32; 3]> = mesh::stair_ramps(dungeon, level.level).into_iter().flatten().collect();
    let surfaces = level.primitives.iter().filter(|(r, _)| *r != MaterialRole::Stair).map(|(_, p)| p);
    let (positions, indices) = weld(surfaces, &ramps);
    compact(&positions, &super::merge::merge_flat(&positions, &indices))
}

/// The extension holding the shapes of `--physics omi`.
pub(crate) const OMI_SHAPE: &str = "OMI_physics_shape";
/// The node extension of `--physics omi`.
pub(crate) const OMI_BODY: &str = "OMI_physics_body";

/// Appends a trimesh shape over `mesh` to the document's `OMI_physics_shape` shapes
/// (declaring both OMI extensions used on the first) and returns its index.
pub(crate) fn push_omi_shape(root: &mut gltf_json::Root, mesh: gltf_json::Index<gltf_json::Mesh>) -> usize {
    let ext = root.extensions.get_or_insert_with(Default::default);
    let entry =
        ext.others.entry(OMI_SHAPE.to_string()).or_insert_with(|| serde_json::json!({ "shapes": [] }));
    let shapes = entry["shapes"].as_array_mut().expect("invariant: shapes is an array");
    shapes.push(serde_json::json!({ "type": "trimesh", "trimesh": { "mesh": mesh.value() } }));
    let index = shapes.len() - 1;
    for name in [OMI_BODY, OMI_SHAPE] {
        if !root.extensions_used.iter().any(|u| u == name) {
            root.extensions_used.push(name.into());
        }
    }
    index
}

/// A node's `OMI_physics_body` extension: a static body (no `motion`) whose collider is
/// shape `shape`.
pub(crate) fn omi_body(shape: usize) -> gltf_json::extensions::scene::Node {
    let mut node = gltf_json::extensions::scene::Node::default();
    node.others.insert(OMI_BODY.into(), serde_json::json!({ "collider": { "shape": shape } }));
    node
}
