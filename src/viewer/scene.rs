//! What the viewer draws, on the CPU side: the dungeon mesh (the same build the exporter
//! writes), faint outlines of the floor cells, the path overlay, and the bounds.

use glam::Vec3;

use super::ViewerError;
use super::camera::Bounds;
use super::chunks::coarse::coarse_level;
use crate::dungeon::Dungeon;
use crate::mesh::chunk::CHUNK_SLOTS;
use crate::mesh::{DungeonMesh, MeshOptions, Vertex, build};
use crate::walk::{PieceKind, level_plan};

/// Height of the outlines above their floor (metres).
const OUTLINE_LIFT: f32 = 0.02;

/// The CPU side of a scene.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The mesh, one entry per level.
    pub mesh: DungeonMesh,
    /// Floor cell outlines per level: a line list, level-local.
    pub outlines: Vec<Vec<Vertex>>,
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
    /// Side of the square chunks the renderer culls by (metres): the mesh's chunks,
    /// [`CHUNK_SLOTS`] slots.
    pub chunk_size: f32,
    /// The coarse mesh per level that far chunks are drawn from
    /// ([`super::chunks::coarse::coarse_level`]).
    pub coarse: Vec<crate::mesh::LevelMesh>,
}

impl Scene {
    /// Builds the mesh of `dungeon` and the outlines of its floor cells.
    ///
    /// # Errors
    /// [`ViewerError::Mesh`] when the mesh cannot be built ([`crate::mesh::build`]).
    pub fn new(dungeon: &Dungeon, options: &MeshOptions) -> Result<Scene, ViewerError> {
        let mesh = build(dungeon, options)?;
        let plans: Vec<_> = (0..dungeon.levels()).map(|l| level_plan(dungeon, l)).collect();
        let p = dungeon.proportions();
        let band = (dungeon.layout().gap() * 0.5).clamp(0.3, 1.0);
        let caps =
            plans.iter().map(|plan| rock_caps(plan, p.room_height as f32 + CAP_LIFT, band as f32)).collect();
        let outlines = plans
            .iter()
            .map(|plan| {
                let mut lines = Vec::new();
                for piece in plan.pieces.iter().filter(|p| p.floor && matches!(p.kind, PieceKind::Cell(_))) {
                    let n = piece.polygon.len();
                    for i in 0..n {
                        for v in [piece.polygon[i], piece.polygon[(i + 1) % n]] {
                            lines.push(flat_vertex(Vec3::new(v.x as f32, OUTLINE_LIFT, v.y as f32)));
                        }
                    }
                }
                lines
            })
            .collect();
        let coarse = plans
            .iter()
            .zip(&mesh.levels)
            .map(|(plan, level)| {
                coarse_level(plan, level.floor_y, p.room_height as f32, options.texture_size as f32)
            })
            .collect();
        let layout = dungeon.layout();
        let h = p.half_base() as f32;
        let bounds = mesh_bounds(&mesh)
            .unwrap_or(Bounds { min: Vec3::new(-h, 0.0, -h), max: Vec3::new(h, p.room_height as f32, h) });
        Ok(Scene {
            mesh,
            outlines,
            caps,
            bounds,
            level_height: p.layer_height as f32,
            room_height: p.room_height as f32,
            chunk_size: (f64::from(CHUNK_SLOTS) * layout.spacing()) as f32,
            coarse,
        })
    }

    /// Number of levels.
    #[must_use]
    pub fn levels(&self) -> u16 {
        self.mesh.levels.len() as u16
    }

    /// Triangles of the whole mesh.
    #[must_use]
    pub fn triangles(&self) -> usize {
        self.mesh.levels.iter().flat_map(|l| &l.primitives).map(|(_, p)| p.indices.len() / 3).sum()
    }
}

/// The bounds of every vertex of `mesh` (world metres), `None` for an empty mesh.
fn mesh_bounds(mesh: &DungeonMesh) -> Option<Bounds> {
    let mut min = Vec3::splat(f32::MAX);
    let mut max = Vec3::splat(f32::MIN);
    for level in &mesh.levels {
        let lift = Vec3::Y * level.floor_y as f32;
        for (_, primitive) in &level.primitives {
            for v in &primitive.vertices {
                let p = Vec3::from(v.position) + lift;
                min = min.min(p);
                max = max.max(p);
            }
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
