//! What the viewer draws, on the CPU side: the dungeon (its full-detail mesh is built per
//! chunk when a frame needs it, [`super::chunks::demand`]) and its bounds; and per level,
//! built from its plan when the renderer uploads the level and not kept
//! ([`Scene::level_geometry`]), the coarse mesh of far chunks, faint outlines of the floor
//! cells and the rock caps.

use std::sync::Arc;

use glam::Vec3;

use super::ViewerError;
use super::camera::Bounds;
use super::chunks::coarse::coarse_chunks;
use super::chunks::merge::{WallRun, wall_runs};
use super::chunks::{ByChunk, ChunkKey, piece_chunk, slot_chunk};
use super::torchlight::Torchlight;
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
    /// Bounds of the carved space.
    pub bounds: Bounds,
    /// Vertical distance between levels (metres).
    pub level_height: f32,
    /// The dungeon's default floor-to-ceiling height (metres; the scale of the shading
    /// near floors).
    pub room_height: f32,
    /// Per level, its tallest room's height (metres, [`Dungeon::tallest_room`]): no ceiling
    /// of the level is higher above its floor.
    pub tallest_room: Vec<f32>,
    /// Side of the square mesh chunks (metres): [`CHUNK_SLOTS`] slots.
    pub chunk_size: f32,
    /// Per level, the chunks that hold a carved cell (the only ones with a mesh: a carved
    /// seam's owner slot is in the chunk of one of its cells), in (row, col) order.
    pub chunks: Vec<Vec<ChunkKey>>,
    /// The torch lights ([`super::markers::torch_positions`]) whose light is baked into the
    /// vertices the renderer uploads.
    pub torches: Arc<Torchlight>,
}

/// What one level draws besides its full-detail chunks, level-local, per chunk where the
/// renderer draws it by chunk.
#[derive(Debug, Clone)]
pub struct LevelGeometry {
    /// The coarse mesh far chunks are drawn from ([`coarse_chunks`]).
    pub coarse: ByChunk<LevelMesh>,
    /// Floor cell outlines: line lists.
    pub outlines: ByChunk<Vec<Vertex>>,
    /// Rock caps (viewer only, never exported): a band along every wall on its rock side at
    /// the wall's top (its cell's room height), facing up, so walls read as solid from above. A triangle list.
    pub caps: Vec<Vertex>,
}

impl Scene {
    /// Prepares `dungeon` for drawing: checks that it can be meshed with `options` (nothing
    /// is meshed yet), finds its bounds and the chunks that hold something from its carved
    /// cells (a carved seam lies between carved cells, in the chunk of one of them), and
    /// where its torch lights hang.
    ///
    /// # Errors
    /// [`ViewerError::Mesh`] when the mesh could not be built ([`check_meshable`]).
    pub fn new(dungeon: &Dungeon, options: &MeshOptions) -> Result<Scene, ViewerError> {
        check_meshable(dungeon, options)?;
        let p = dungeon.proportions();
        let floor_y: Vec<f32> = (0..dungeon.levels()).map(|l| p.floor_y(l) as f32).collect();
        let layout = dungeon.layout();
        let mut chunks = vec![Vec::new(); usize::from(dungeon.levels())];
        let (mut min, mut max) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for pos in dungeon.cells().filter(|&pos| dungeon.is_carved(pos)) {
            let y = floor_y[usize::from(pos.level)];
            for v in layout.cell_polygon(pos.slot).unwrap_or_default() {
                min = min.min(Vec3::new(v.x as f32, y, v.y as f32));
                max = max.max(Vec3::new(v.x as f32, y + dungeon.room_height_at(pos) as f32, v.y as f32));
            }
            chunks[usize::from(pos.level)].push(slot_chunk(pos.slot));
        }
        for keys in &mut chunks {
            keys.sort_unstable();
            keys.dedup();
        }
        let h = p.half_base() as f32;
        let bounds = if min.x <= max.x {
            Bounds { min, max }
        } else {
            Bounds { min: Vec3::new(-h, 0.0, -h), max: Vec3::new(h, p.room_height as f32, h) }
        };
        Ok(Scene {
            dungeon: Arc::new(dungeon.clone()),
            mesh_options: options.clone(),
            floor_y,
            bounds,
            level_height: p.layer_height as f32,
            room_height: p.room_height as f32,
            tallest_room: (0..dungeon.levels()).map(|l| dungeon.tallest_room(l) as f32).collect(),
            chunk_size: (f64::from(CHUNK_SLOTS) * layout.spacing()) as f32,
            chunks,
            torches: Arc::new(Torchlight::new(&super::markers::torch_positions(
                &super::markers::markers_of(dungeon),
            ))),
        })
    }

    /// Number of levels.
    #[must_use]
    pub fn levels(&self) -> u16 {
        self.floor_y.len() as u16
    }

    /// Level `l`'s coarse mesh, outlines and rock caps, from its plan (built on each call:
    /// the renderer uploads them and keeps no CPU copy).
    #[must_use]
    pub fn level_geometry(&self, l: u16) -> LevelGeometry {
        level_geometry(&self.dungeon, self.mesh_options.texture_size, l)
    }
}

/// [`Scene::level_geometry`] of level `l` of `dungeon`, whose textures repeat every
/// `texture_size` metres.
#[must_use]
pub(crate) fn level_geometry(dungeon: &Dungeon, texture_size: f64, l: u16) -> LevelGeometry {
    let plan = level_plan(dungeon, l);
    let p = dungeon.proportions();
    let walls = wall_runs(&plan, dungeon.layout());
    let caps = level_caps(dungeon, &walls);
    let coarse = coarse_chunks(&plan, &walls, p.floor_y(l), texture_size as f32);
    LevelGeometry { coarse, outlines: outlines(&plan), caps }
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

/// Height of the rock caps above the ceiling (metres), clear of the ceiling's faces.
const CAP_LIFT: f32 = 0.02;

/// The rock caps (level-local) of a level of `dungeon` whose rock walls run as `walls`
/// ([`wall_runs`]): at each wall's top, as wide as half a seam (0.3 to 1 m).
pub(crate) fn level_caps(dungeon: &Dungeon, walls: &[WallRun]) -> Vec<Vertex> {
    let band = (dungeon.layout().gap() * 0.5).clamp(0.3, 1.0);
    rock_caps(walls, CAP_LIFT, band as f32)
}

/// The rock caps of level `level` of `dungeon` (level-local metres) with the light of
/// `torches` baked in, as every mesh the viewer draws: built from the level's plan on each
/// call.
pub(crate) fn lit_level_caps(dungeon: &Dungeon, level: u16, torches: &Torchlight) -> Vec<Vertex> {
    let walls = wall_runs(&level_plan(dungeon, level), dungeon.layout());
    let mut caps = level_caps(dungeon, &walls);
    torches.bake(&mut caps, dungeon.proportions().floor_y(level) as f32);
    caps
}

/// The rock caps of one level: per straight run of rock wall ([`wall_runs`]), a quad
/// `band` metres wide on the wall's rock side (carved space is on the left of `a -> b`, see
/// [`crate::walk::Wall`]) `lift` metres over the run's top, wound counter-clockwise seen
/// from above.
fn rock_caps(runs: &[WallRun], lift: f32, band: f32) -> Vec<Vertex> {
    let mut out = Vec::with_capacity(runs.len() * 6);
    for run in runs {
        let y = run.height as f32 + lift;
        let (a, b) = (run.a.as_vec2(), run.b.as_vec2());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::WallKind;

    #[test]
    fn caps_and_coarse_walls_stand_at_each_rooms_height() {
        use crate::dungeon::{Fill, Registry};
        use crate::grid::Pos;
        let mut d = Dungeon::new(3, 3, 1, crate::geometry::Proportions::default(), Fill::Solid).unwrap();
        d.set_tile(Pos::new(0, 2, 2), Registry::FLOOR).unwrap();
        d.set_room_height(Pos::new(0, 2, 2), 9.0).unwrap();
        let g = level_geometry(&d, 4.0, 0);
        assert!(!g.caps.is_empty());
        assert!(
            g.caps.iter().all(|v| (v.position[1] - (9.0 + CAP_LIFT)).abs() < 1e-5),
            "caps on the 9 m walls"
        );
        let walls = g
            .coarse
            .values()
            .flat_map(|m| m.primitives.iter())
            .filter(|(r, _)| *r == crate::mesh::MaterialRole::Wall);
        let top = walls.flat_map(|(_, p)| p.vertices.iter()).map(|v| v.position[1]).fold(0.0, f32::max);
        assert!((top - 9.0).abs() < 1e-5, "coarse walls reach {top} m");
    }

    #[test]
    fn rock_caps_cover_every_rock_wall_in_fewer_quads() {
        let options =
            crate::generate::GenerateOptions { seed: 7, levels: 1, cols: 24, rows: 24, ..Default::default() };
        let d = crate::generate::generate(&options, &mut |_| {}).unwrap();
        let plan = level_plan(&d, 0);
        let band = 0.5f32;
        let caps = rock_caps(&wall_runs(&plan, d.layout()), CAP_LIFT, band);
        let rock: Vec<_> = plan.walls.iter().filter(|w| w.kind == WallKind::Rock).collect();
        // Each wall's band is a rectangle along it: the caps' area is their length times the
        // band, every triangle faces up, and straight runs need fewer quads than walls.
        let area: f64 = caps
            .chunks_exact(3)
            .map(|t| {
                let p = |i: usize| Vec3::from(t[i].position).as_dvec3();
                let n = (p(1) - p(0)).cross(p(2) - p(0));
                assert!(n.y > 0.0, "a cap triangle faces down: {t:?}");
                n.length() * 0.5
            })
            .sum();
        let length: f64 = rock.iter().map(|w| (w.b - w.a).length()).sum();
        let expected = length * f64::from(band);
        assert!((area - expected).abs() < 1e-4 * length, "{area} vs {expected}");
        assert!(caps.len() / 6 * 100 <= rock.len() * 95, "{} quads for {} walls", caps.len() / 6, rock.len());
    }
}
