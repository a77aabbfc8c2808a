//! Meshes for engines rather than for the eye: a level's collider (its part of the surface
//! of the carved space less the stairs, welded by position, stairs as ramps), and the
//! welding its navigation mesh ([`super::navmesh`]) shares.

use glam::{DVec2, DVec3};

use super::footprint::{Tri, centroid, exit_door, plan, point, strictly_inside, walkway};
use crate::dungeon::{Carve, Dungeon};
use crate::geometry::Spiral;
use crate::grid::{Direction, Pos};
use crate::mesh::{self, LevelMesh, MaterialRole, Primitive, ShaftSides, Vertex};

/// The triangles `corners` (three corners each, level-local metres) welded by position
/// only: `(positions, indices)`, each distinct position once.
pub(super) fn weld(corners: &[[f32; 3]]) -> (Vec<[f32; 3]>, Vec<u32>) {
    let indices: Vec<u32> = (0..corners.len())
        .map(|i| u32::try_from(i).expect("invariant: a level's vertices fit u32"))
        .collect();
    let (count, remap) = meshopt::generate_vertex_remap(corners, Some(&indices));
    let indices = meshopt::remap_index_buffer(Some(&indices), corners.len(), &remap);
    let mut welded = vec![[0.0; 3]; count];
    for (p, &r) in corners.iter().zip(&remap) {
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
/// region triangulated from its boundary vertices only), and each stair as a ramp whose top
/// rises smoothly instead of in steps, so characters glide up it. The collider is the
/// surface of the carved space less the stairs: where a ramp stands on the floor, the
/// floor under it is cut out ([`mesh::footprint_rim`]), and where its landing stands
/// against the landing wall, that wall is dropped and the ramp's side stays only across the
/// passage beyond it, if the wall is open there ([`mesh::shaft_ramp`]). So the colliders of
/// all levels together, welded by position in world space, are one closed surface, each
/// edge shared by two triangles of opposite winding, facing into the carved space; one
/// level's alone is open where its stairs' shafts meet the level above. POSITION only:
/// normals, UVs and materials mean nothing to physics.
///
/// The exceptions: a stair whose landing stands against a wall that is open on its own
/// level (the landing closes the passage beyond, and two vertical edges at the wall's ends
/// are each shared by four triangles, where the passage and the walkway beside the landing
/// touch), and a stair standing in another stair's hole (no floor to cut: its ramp stays a
/// closed solid of its own, as it is in the render mesh), and a ramp, whose solid stands on
/// the floor closed on its own.
pub(crate) fn collider(dungeon: &Dungeon, level: &LevelMesh) -> Primitive {
    let mut tris: Vec<Tri> = Vec::new();
    for (_, p) in level.primitives.iter().filter(|(r, _)| *r != MaterialRole::Stair) {
        let corner = |i: u32| p.vertices[i as usize].position;
        tris.extend(p.indices.chunks_exact(3).map(|t| [corner(t[0]), corner(t[1]), corner(t[2])]));
    }
    for (foot, landing, spec) in mesh::level_spirals(dungeon, level.level) {
        let octagon = dungeon.layout().octagon(foot.slot);
        let (floor, rest): (Vec<Tri>, Vec<Tri>) = tris
            .into_iter()
            .partition(|t| t.iter().all(|v| v[1] == 0.0) && strictly_inside(&octagon, centroid(t)));
        tris = rest;
        let Some(walkway) = walkway(&floor, &spec, &mesh::footprint_rim(&spec)) else {
            tris.extend(floor);
            tris.extend(mesh::ramp_triangles(&spec).into_iter().map(|t| t.map(point)));
            continue;
        };
        tris.extend(walkway);
        tris.retain(|t| !on_landing_wall(t, &spec));
        let sides = ShaftSides {
            room_height: dungeon.room_height_at(foot),
            splits: mesh::wall_end_splits(dungeon, foot, landing),
            exit_door: exit_door(dungeon, foot, landing),
            opening: opening(dungeon, foot, landing, &spec),
        };
        for panel in mesh::shaft_ramp(&spec, &sides) {
            tris.extend(panel.tris.iter().map(|t| t.map(point)));
        }
    }
    // A ramp stands on the floor as the closed solid it is in the render mesh.
    for plan in super::footprint::level_ramps(dungeon, level.level) {
        tris.extend(mesh::ramp_panels(&plan).iter().flat_map(|p| p.tris.iter().map(|t| t.map(point))));
    }
    let flat: Vec<[f32; 3]> = tris.into_iter().flatten().collect();
    let (positions, indices) = weld(&flat);
    compact(&positions, &super::merge::merge_flat(&positions, &indices))
}

/// Whether `t` lies on the wall the landing of the stair `spec` stands against, facing
/// into the stair's octagon: the stair octagon's own wall or shaft there (with tight
/// spacing the neighbour's wall stands back to back with it, facing the other way).
fn on_landing_wall(t: &Tri, spec: &Spiral) -> bool {
    let [ea, eb] = spec.landing;
    let (along, len) = ((eb - ea).normalize(), ea.distance(eb));
    let on = t.iter().all(|&v| {
        let q = plan(v) - ea;
        along.perp_dot(q).abs() < 1e-4 && (-1e-4..=len + 1e-4).contains(&along.dot(q))
    });
    let [a, b, c] = t.map(|v| DVec3::new(f64::from(v[0]), f64::from(v[1]), f64::from(v[2])));
    let normal = (b - a).cross(c - a);
    on && DVec2::new(normal.x, normal.z).dot(spec.centre - ea) > 0.0
}

/// The opening in the wall `landing` of the stair at `foot` on the stair's own level, and
/// its height: a door's opening, the whole wall when the edge is open, `None` when closed.
fn opening(d: &Dungeon, foot: Pos, landing: Direction, spec: &Spiral) -> Option<([DVec2; 2], f64)> {
    let edge = d.dims().edge(foot.slot, landing).ok()??;
    match d.carved_seam(foot, landing)?.carve {
        Carve::None => None,
        Carve::Full => Some((spec.landing, d.seam_height(foot.level, edge))),
        Carve::Door => {
            let points = d.layout().door_opening(d.dims().edge_sides(edge).ok()?, foot.slot, landing)?;
            Some((points, d.door_height_at(foot.level, edge)))
        }
    }
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
