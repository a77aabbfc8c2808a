//! What the viewer draws, on the CPU side: the dungeon mesh (the same build the exporter
//! writes), faint outlines of the floor cells, the path overlay, and the bounds.

use glam::Vec3;

use super::ViewerError;
use super::camera::Bounds;
use crate::dungeon::Dungeon;
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
    /// Bounds of the carved space.
    pub bounds: Bounds,
    /// Vertical distance between levels (metres).
    pub level_height: f32,
    /// Floor-to-ceiling height (metres).
    pub room_height: f32,
    /// Side of the square chunks the renderer culls by (metres): 8 x 8 octagons.
    pub chunk_size: f32,
}

impl Scene {
    /// Builds the mesh of `dungeon` and the outlines of its floor cells.
    ///
    /// # Errors
    /// [`ViewerError::Mesh`] when the mesh cannot be built ([`crate::mesh::build`]).
    pub fn new(dungeon: &Dungeon, options: &MeshOptions) -> Result<Scene, ViewerError> {
        let mesh = build(dungeon, options)?;
        let outlines = (0..dungeon.levels())
            .map(|l| {
                let plan = level_plan(dungeon, l);
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
        let p = dungeon.proportions();
        let dims = dungeon.dims();
        let layout = dungeon.layout();
        let far = layout.center(crate::grid::Slot::new(dims.rows() - 1, dims.cols() - 1));
        let h = p.half_base() as f32;
        let bounds = Bounds {
            min: Vec3::new(-h, 0.0, -h),
            max: Vec3::new(
                far.x as f32 + h,
                (p.floor_y(dungeon.levels() - 1) + p.room_height) as f32,
                far.y as f32 + h,
            ),
        };
        Ok(Scene {
            mesh,
            outlines,
            bounds,
            level_height: p.layer_height as f32,
            room_height: p.room_height as f32,
            chunk_size: (16.0 * layout.spacing()) as f32,
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

fn flat_vertex(p: Vec3) -> Vertex {
    Vertex { position: p.to_array(), normal: [0.0, 1.0, 0.0], uv: [0.0; 2], uv1: [0.0; 2] }
}
