//! What the viewer draws, on the CPU side: the dungeon (its full-detail mesh is built per
//! chunk when a frame needs it, [`super::chunks::demand`]), the coarse mesh of far chunks
//! and faint outlines of the floor cells (both per chunk, from the level plans), the rock
//! caps and the bounds.

use std::sync::Arc;

use glam::Vec3;

use super::ViewerError;
use super::camera::Bounds;
use super::chunks::coarse::coarse_chunks;
use super::chunks::{ByChunk, ChunkKey, piece_chunk};
use crate::dungeon::Dungeon;
use crate::mesh::chunk::CHUNK_SLOTS;
use crate::mesh::{LevelMesh, MeshOptions, Vertex, check_meshable};
use crate::walk::{LevelPlan, PieceKind, level_plan};

/// Height of the outlines above their floor (metres).
const OUTLINE_LIFT: f32 = 0.02;

/// The CPU side of a scene.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The dungeon whose chunks are meshed when a frame needs them.
    pub dungeon: Arc<Dungeon>,
    /// The options they are meshed with (checked: [`check_meshable`]).
    pub mesh_options: MeshOptions,
    /// Floor height of each level (world metres).
    pub floor_y: Vec<f32>,
    /// Floor cell outlines per level, per chunk: line lists, level-local.
    pub outlines: Vec<ByChunk<Vec<Vertex>>>,
    /// Rock caps per level (viewer only, never exported): a band along every wall on its
    /// rock side at the ceiling's height, facing up, so walls read as solid from above. A
    /// triangle list, level-local.
    pub caps: Vec<Vec<Vertex>>,
    /// Bounds of the carved space.
    pub bounds: Bounds,
    /// Vertical distance between levels (metres).
    pub level_height: f32,
    /// Floor-to-ceiling height (metres).
    pub room_height: f32,
    /// Side of the square mesh chunks (metres): [`CHUNK_SLOTS`] slots.
    pub chunk_size: f32,
    /// The coarse mesh per level, per chunk, that far chunks are drawn from
    /// ([`super::chunks::coarse::coarse_chunks`]).
    pub coarse: Vec<ByChunk<LevelMesh>>,
    /// Per level, the chunks that hold a carved piece (the only ones with a mesh), in
    /// (row, col) order.
    pub chunks: Vec<Vec<ChunkKey>>,
}

impl Scene {
    /// Prepares `dungeon` for drawing: checks that it can be meshed with `options` (nothing
    /// is meshed yet), builds the coarse mesh and the outlines of its floor cells.
    ///
    /// # Errors
    /// [`ViewerError::Mesh`] when the mesh could not be built ([`check_meshable`]).
    pub fn new(dungeon: &Dungeon, options: &MeshOptions) -> Result<Scene, ViewerError> {
        check_meshable(dungeon, options)?;
        let plans: Vec<_> = (0..dungeon.levels()).map(|l| level_plan(dungeon, l)).collect();
        let p = dungeon.proportions();
        let band = (dungeon.layout().gap() * 0.5).clamp(0.3, 1.0);
        let caps =
            plans.iter().map(|plan| rock_caps(plan, p.room_height as f32 + CAP_LIFT, band as f32)).collect();
        let outlines = plans.iter().map(outlines).collect();
        let floor_y: Vec<f32> = (0..dungeon.levels()).map(|l| p.floor_y(l) as f32).collect();
        let coarse = plans
            .iter()
            .map(|plan| coarse_chunks(plan, dungeon.layout(), p.floor_y(plan.level), p.room_height as f32))
            .collect();
        let chunks = plans.iter().map(carved_chunks).collect();
        let layout = dungeon.layout();
        let h = p.half_base() as f32;
        let bounds = plan_bounds(&plans, &floor_y, p.room_height as f32)
            .unwrap_or(Bounds { min: Vec3::new(-h, 0.0, -h), max: Vec3::new(h, p.room_height as f32, h) });
        Ok(Scene {
            dungeon: Arc::new(dungeon.clone()),
            mesh_options: options.clone(),
            floor_y,
            outlines,
            caps,
            bounds,
            level_height: p.layer_height as f32,
            room_height: p.room_height as f32,
            chunk_size: (f64::from(CHUNK_SLOTS) * layout.spacing()) as f32,
            coarse,
            chunks,
        })
    }

    /// Number of levels.
    #[must_use]
    pub fn levels(&self) -> u16 {
        self.floor_y.len() as u16
    }
}

/// The outlines of `plan`'s floor cells, per chunk of their cell: line lists, level-local.
fn outlines(plan: &LevelPlan) -> ByChunk<Vec<Vertex>> {
    let mut lines: ByChunk<Vec<Vertex>> = ByChunk::new();
    for piece in plan.pieces.iter().filter(|p| p.floor && matches!(p.kind, PieceKind::Cell(_))) {
        let list = lines.entry(piece_chunk(piece)).or_default();
        let n = piece.polygon.len();
        for i in 0..n {
            for v in [piece.polygon[i], piece.polygon[(i + 1) % n]] {
                list.push(flat_vertex(Vec3::new(v.x as f32, OUTLINE_LIFT, v.y as f32)));
            }
        }
    }
    lines
}

/// The chunks of `plan`'s level that hold a carved piece, in (row, col) order.
fn carved_chunks(plan: &LevelPlan) -> Vec<ChunkKey> {
    let mut keys: Vec<ChunkKey> = plan.pieces.iter().map(piece_chunk).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The bounds of the carved space of `plans` (world metres): every piece's outline, from
/// its level's floor (`floor_y`) to its ceiling `room_height` above; `None` when nothing
/// is carved.
fn plan_bounds(plans: &[LevelPlan], floor_y: &[f32], room_height: f32) -> Option<Bounds> {
    let mut min = Vec3::splat(f32::MAX);
    let mut max = Vec3::splat(f32::MIN);
    for (plan, &y) in plans.iter().zip(floor_y) {
        for p in plan.pieces.iter().flat_map(|piece| &piece.polygon) {
            min = min.min(Vec3::new(p.x as f32, y, p.y as f32));
            max = max.max(Vec3::new(p.x as f32, y + room_height, p.y as f32));
        }
    }
    (min.x <= max.x).then_some(Bounds { min, max })
}

/// Height of the rock caps above the ceiling (metres), clear of the ceiling's faces.
const CAP_LIFT: f32 = 0.02;

/// The rock caps of one level at height `y`: per wall, a quad `band` metres wide on the
/// wall's rock side (carved space is on the left of `a -> b`, see [`crate::walk::Wall`]),
/// wound counter-clockwise seen from above.
fn rock_caps(plan: &crate::walk::LevelPlan, y: f32, band: f32) -> Vec<Vertex> {
    let mut out = Vec::with_capacity(plan.walls.len() * 6);
    for wall in plan.walls.iter().filter(|w| w.kind == crate::walk::WallKind::Rock) {
        let (a, b) = (wall.a.as_vec2(), wall.b.as_vec2());
        let along = b - a;
        if along.length_squared() < 1e-8 {
            continue;
        }
        // perp() points to the carved side; the band goes the other way.
        let out_dir = -along.perp().normalize() * band;
        let quad = [a, b, b + out_dir, a + out_dir].map(|q| flat_vertex(Vec3::new(q.x, y, q.y)));
        // Seen from above (y up, x right, z down the screen) pick the winding that faces up.
        let up = (quad[1].position[0] - quad[0].position[0]) * (quad[2].position[2] - quad[0].position[2])
            - (quad[1].position[2] - quad[0].position[2]) * (quad[2].position[0] - quad[0].position[0]);
        let order: [usize; 6] = if up < 0.0 { [0, 1, 2, 0, 2, 3] } else { [0, 2, 1, 0, 3, 2] };
        out.extend(order.map(|i| quad[i]));
    }
    out
}

fn flat_vertex(p: Vec3) -> Vertex {
    Vertex { position: p.to_array(), normal: [0.0, 1.0, 0.0], uv: [0.0; 2], uv1: [0.0; 2] }
}
