//! The viewer draws each level by mesh chunk ([`crate::mesh::chunk`]: 8 x 8 octagons), so
//! the renderer can skip chunks outside the camera's frustum: draws per frame grow with what
//! is seen, not with the dungeon. Near chunks are meshed at full detail only when a frame
//! first needs them and kept in a bounded cache ([`demand`]); far chunks are drawn from a
//! coarse mesh built from the level plan ([`coarse`]), chosen per frame by their size on
//! screen ([`lod`]).

use std::collections::BTreeMap;

use glam::{DVec2, Mat4, Vec3};

use crate::geometry::{Layout, Place, Proportions};
use crate::grid::{Pos, Slot};
use crate::mesh::chunk::{CHUNK_SLOTS, ChunkId, edge_slot};
use crate::walk::{Piece, PieceKind};

pub mod coarse;
pub mod demand;
pub mod lod;
pub mod merge;

/// A mesh chunk's place on its level: (row, col) in chunks ([`ChunkId`] without the level).
pub type ChunkKey = (u32, u32);

/// Something per chunk of one level, in (row, col) order.
pub type ByChunk<T> = BTreeMap<ChunkKey, T>;

/// The chunk whose mesh holds the piece at `p` (world `(x, z)` metres): the chunk of the
/// cell's slot, or of a seam's owner slot ([`edge_slot`]), as [`crate::mesh::chunk`] assigns
/// them; where no piece is found (a pillar, outside the grid), the chunk of the nearest slot
/// centre.
#[must_use]
pub fn owner_chunk(layout: &Layout, p: DVec2) -> ChunkKey {
    let slot = match layout.place_at(p) {
        Some(Place::Cell(slot)) => Some(slot),
        Some(Place::Seam(edge)) => Some(edge_slot(edge)),
        _ => None,
    };
    slot_chunk(slot.unwrap_or_else(|| {
        let axis = |v: f64| (v / layout.spacing()).round().max(0.0) as u32;
        Slot { row: axis(p.y), col: axis(p.x) }
    }))
}

/// The chunk of `slot` (any level), as [`ChunkId::of`] places slots.
#[must_use]
pub fn slot_chunk(slot: Slot) -> ChunkKey {
    let id = ChunkId::of(Pos { level: 0, slot });
    (id.row, id.col)
}

/// The chunk whose mesh holds `piece`: the chunk of its cell's slot, of its seam's owner
/// slot ([`edge_slot`]) or of an open pillar's connector.
#[must_use]
pub fn piece_chunk(piece: &Piece) -> ChunkKey {
    let slot = match piece.kind {
        PieceKind::Cell(slot) => slot,
        PieceKind::Seam(edge) => edge_slot(edge),
        PieceKind::Pillar(pillar) => pillar.connector(),
    };
    slot_chunk(slot)
}

/// A box (world metres) that holds every triangle of chunk `id`'s mesh: its slots' square
/// grown by one slot on each side (an octagon reaches a slot past its centre), from the
/// ceiling of the level below (a stair shaft) to the floor of the level above (a stair's
/// top), a little more each way.
#[must_use]
pub fn chunk_bounds(layout: &Layout, proportions: &Proportions, id: ChunkId) -> (Vec3, Vec3) {
    let s = layout.spacing();
    let first = |i: u32| f64::from(i * CHUNK_SLOTS) * s - s - 0.01;
    let last = |i: u32| f64::from((i + 1) * CHUNK_SLOTS) * s + 0.01;
    let floor = proportions.floor_y(id.level);
    let slab = (proportions.layer_height - proportions.room_height).max(0.0);
    let min = Vec3::new(first(id.col) as f32, (floor - slab - 0.1) as f32, first(id.row) as f32);
    let max =
        Vec3::new(last(id.col) as f32, (floor + proportions.layer_height + 0.1) as f32, last(id.row) as f32);
    (min, max)
}

/// The frustum of a camera, with the world box round it for a quick first test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frustum {
    view_proj: Mat4,
    /// The box round the frustum's eight corners (world metres; `None` when the matrix
    /// cannot be inverted: no quick test).
    around: Option<(Vec3, Vec3)>,
}

impl Frustum {
    /// The frustum of `view_proj` (wgpu clip space: depth 0..1).
    #[must_use]
    pub fn new(view_proj: Mat4) -> Frustum {
        let inverse = view_proj.inverse();
        let corners: [Vec3; 8] = std::array::from_fn(|i| {
            let x = if i & 1 == 0 { -1.0 } else { 1.0 };
            let y = if i & 2 == 0 { -1.0 } else { 1.0 };
            let z = if i & 4 == 0 { 0.0 } else { 1.0 };
            let p = inverse * glam::Vec4::new(x, y, z, 1.0);
            p.truncate() / p.w
        });
        let (min, max) = corners
            .iter()
            .fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(a, b), &c| (a.min(c), b.max(c)));
        let margin = Vec3::splat(0.01);
        let around = (min.is_finite() && max.is_finite()).then_some((min - margin, max + margin));
        Frustum { view_proj, around }
    }

    /// False when the box `min..max` lies wholly outside the frustum's box or outside one of
    /// its planes ([`in_frustum`]).
    #[must_use]
    pub fn sees(&self, min: Vec3, max: Vec3) -> bool {
        if let Some((a, b)) = self.around
            && (max.cmplt(a).any() || min.cmpgt(b).any())
        {
            return false;
        }
        in_frustum(self.view_proj, min, max)
    }
}

/// False when the box `min..max` lies wholly outside one plane of the frustum of
/// `view_proj` (wgpu clip space: depth 0..1).
#[must_use]
pub fn in_frustum(view_proj: Mat4, min: Vec3, max: Vec3) -> bool {
    // An array, not a Vec: this runs for every chunk of every shown level, twice a frame.
    let corners: [glam::Vec4; 8] = std::array::from_fn(|i| {
        let p = Vec3::new(
            if i & 1 == 0 { min.x } else { max.x },
            if i & 2 == 0 { min.y } else { max.y },
            if i & 4 == 0 { min.z } else { max.z },
        );
        view_proj * p.extend(1.0)
    });
    let outside = |f: &dyn Fn(glam::Vec4) -> bool| corners.iter().all(|&c| f(c));
    !(outside(&|c| c.x < -c.w)
        || outside(&|c| c.x > c.w)
        || outside(&|c| c.y < -c.w)
        || outside(&|c| c.y > c.w)
        || outside(&|c| c.z < 0.0)
        || outside(&|c| c.z > c.w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate};
    use crate::mesh::MeshOptions;
    use crate::mesh::chunk::{all_chunks, build_chunks};

    #[test]
    fn chunk_bounds_hold_their_mesh_and_owners_match_the_mesh_chunks() {
        let options = GenerateOptions { seed: 4, levels: 3, cols: 20, rows: 18, ..Default::default() };
        let d = generate(&options, &mut |_| {}).unwrap();
        let chunks = all_chunks(&d);
        let built = build_chunks(&d, &chunks, &MeshOptions::default()).unwrap();
        let scene = crate::viewer::scene::Scene::new(&d, &MeshOptions::default()).unwrap();
        let mut seen = 0;
        for (id, mesh) in built {
            // The scene lists every chunk that has a mesh.
            let listed = scene.chunks[usize::from(id.level)].contains(&(id.row, id.col));
            assert!(listed || mesh.primitives.is_empty(), "{id} has a mesh and is not listed");
            let (min, max) = chunk_bounds(d.layout(), d.proportions(), id);
            for (_, prim) in &mesh.primitives {
                for v in &prim.vertices {
                    let p = Vec3::from(v.position) + Vec3::Y * mesh.floor_y as f32;
                    assert!(p.cmpge(min).all() && p.cmple(max).all(), "{id}: {p} outside {min}..{max}");
                    seen += 1;
                }
            }
        }
        assert!(seen > 1000, "{seen} vertices");
        // Every carved piece's centre names the chunk of its cell or seam.
        let plan = crate::walk::level_plan(&d, 1);
        for piece in &plan.pieces {
            let centre = piece.polygon.iter().sum::<DVec2>() / piece.polygon.len() as f64;
            assert_eq!(owner_chunk(d.layout(), centre), piece_chunk(piece), "{:?}", piece.kind);
        }
    }

    #[test]
    fn boxes_behind_the_camera_are_culled() {
        let proj = glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 500.0);
        let eye = Vec3::new(-20.0, 2.0, 60.0);
        let west = proj * glam::camera::rh::view::look_to_mat4(eye, -Vec3::X, Vec3::Y);
        let east = proj * glam::camera::rh::view::look_to_mat4(eye, Vec3::X, Vec3::Y);
        let (min, max) = (Vec3::new(0.0, 0.0, 40.0), Vec3::new(40.0, 3.0, 80.0));
        assert!(!in_frustum(west, min, max));
        assert!(in_frustum(east, min, max));
        // The quick test agrees with the planes on boxes all round the eye.
        for frustum in [Frustum::new(west), Frustum::new(east)] {
            for i in 0..400 {
                let c = Vec3::new((i % 20) as f32 * 40.0 - 400.0, 0.0, (i / 20) as f32 * 40.0 - 400.0);
                let (min, max) = (c, c + Vec3::new(30.0, 3.0, 30.0));
                assert_eq!(frustum.sees(min, max), in_frustum(frustum.view_proj, min, max), "{c}");
            }
        }
        assert!(Frustum::new(east).sees(Vec3::new(0.0, 0.0, 40.0), Vec3::new(40.0, 3.0, 80.0)));
    }
}
