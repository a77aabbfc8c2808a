//! Uploading a level to the GPU: its chunks (bounds that hold their full-detail mesh, which
//! is built later, when a frame needs it: [`super::demand`]) when the renderer is made; its
//! coarse mesh (for far chunks), outline grouped by the same chunks, and rock caps when a
//! frame first shows the level ([`super::Renderer::prepare_levels`]), the coarse mesh and
//! outline checked against the device's buffer limit first.

use std::collections::BTreeMap;

use glam::Vec3;
use wgpu::util::DeviceExt;

use super::uniforms::SLOTS_PER_LEVEL;
use crate::mesh::chunk::ChunkId;
use crate::mesh::{LevelMesh, MaterialRole, Vertex};
use crate::viewer::ViewerError;
use crate::viewer::chunks::lod::{facing_sector, sector_normal};
use crate::viewer::chunks::{ByChunk, ChunkKey, chunk_bounds};
use crate::viewer::limits::DeviceLimits;
use crate::viewer::scene::{Scene, level_geometry, lit_level_caps};
use crate::viewer::torchlight::Torchlight;

/// One chunk of a level: which mesh chunk it is, bounds, its outline's lines.
pub(super) struct ChunkGpu {
    /// The mesh chunk (its full-detail mesh is in the renderer's cache once built).
    pub(super) id: ChunkId,
    /// Smallest corner of a box that holds its full and coarse triangles and outlines
    /// (world metres, [`chunk_bounds`]).
    pub(super) min: Vec3,
    /// Largest corner.
    pub(super) max: Vec3,
}

/// One group of a level's coarse triangles, drawn with one slot.
pub(super) struct CoarseGroup {
    /// Its draw slot (its role on its level).
    pub(super) slot: usize,
    /// For walls: the sector their normals lie in ([`facing_sector`]).
    pub(super) sector: Option<u8>,
    /// Per chunk that has some: (chunk, first index, count); each range starts where the
    /// one before it ends.
    pub(super) runs: Vec<(usize, u32, u32)>,
}

/// A level's coarse mesh on the GPU, its indices grouped by role (walls also by the way
/// they face), then chunk (in the order of [`LevelGpu::chunks`]), so neighbouring far
/// chunks draw as one call.
pub(super) struct CoarseGpu {
    /// Its vertices.
    pub(super) vertices: wgpu::Buffer,
    /// Its indices.
    pub(super) indices: wgpu::Buffer,
    /// The groups, floors first.
    pub(super) groups: Vec<CoarseGroup>,
    /// The largest angle (radians) between a wall's normal and its sector's middle.
    pub(super) spread: f32,
}

/// One level on the GPU: its chunks, and (once a frame showed the level) its coarse mesh,
/// outline and rock caps.
pub(super) struct LevelGpu {
    /// The chunks that have something carved, by place.
    pub(super) chunks: Vec<ChunkGpu>,
    /// Its coarse mesh, outline and caps, uploaded when a frame first shows one of its
    /// chunks or its caps ([`super::Renderer::prepare_levels`]): memory and start-up go with
    /// what is drawn (a walk through a big dungeon builds its own level's, not every one).
    pub(super) geometry: Option<LevelGeometryGpu>,
}

/// A level's geometry drawn from its plan, on the GPU.
pub(super) struct LevelGeometryGpu {
    /// The coarse mesh far chunks are drawn from (none when the level has none).
    pub(super) coarse: Option<CoarseGpu>,
    /// Floor outlines (line list, grouped by chunk) and vertex count.
    pub(super) outline: Option<(wgpu::Buffer, u32)>,
    /// Each chunk's outline (first vertex, vertex count in `outline`), in the order of
    /// [`LevelGpu::chunks`].
    pub(super) outline_ranges: Vec<(u32, u32)>,
    /// Rock caps (triangle list) and vertex count, once a frame that draws caps showed the
    /// level (`None` until then: the walkthrough draws none).
    pub(super) caps: Option<Option<(wgpu::Buffer, u32)>>,
}

/// Checks that level `l`'s buffers (its coarse mesh's `vertices` and `indices`, its
/// `outline` vertices) fit the device's `max_buffer_size` before any is created.
///
/// # Errors
/// [`ViewerError::LevelTooLarge`] naming the level, the buffer and the limit.
pub fn check_level_fits(
    limits: &DeviceLimits,
    l: usize,
    vertices: usize,
    indices: usize,
    outline: usize,
) -> Result<(), ViewerError> {
    let bytes = |n: usize, each: usize| (n as u64).saturating_mul(each as u64);
    limits.check_level_buffer(l, "coarse vertices", bytes(vertices, size_of::<Vertex>()))?;
    limits.check_level_buffer(l, "coarse indices", bytes(indices, size_of::<u32>()))?;
    limits.check_level_buffer(l, "outline", bytes(outline, size_of::<Vertex>()))
}

/// The draw slot of `role` on level `l`.
pub(super) fn slot_of(l: usize, role: MaterialRole) -> usize {
    l * SLOTS_PER_LEVEL + role.index()
}

/// A buffer holding `contents` (one zero element when empty: buffers may not be empty).
fn buffer_of<T: bytemuck::Pod>(
    device: &wgpu::Device,
    label: &str,
    contents: &[T],
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    let bytes: &[u8] = bytemuck::cast_slice(contents);
    let pad = vec![0u8; size_of::<T>()];
    let contents = if bytes.is_empty() { &pad[..] } else { bytes };
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
}

/// The chunks of level `l` of `scene` (those that hold something carved), with their
/// bounds: what frames test against the frustum. No mesh is built here.
pub(super) fn level_chunks(l: usize, scene: &Scene) -> Vec<ChunkGpu> {
    let d = &scene.dungeon;
    scene.chunks[l]
        .iter()
        .map(|&(row, col)| {
            let id = ChunkId { level: l as u16, row, col };
            let (min, max) = chunk_bounds(d.layout(), d.proportions(), id);
            ChunkGpu { id, min, max }
        })
        .collect()
}

impl LevelGeometryGpu {
    /// Builds and uploads level `l` of `dungeon`'s coarse mesh, outline and (`with_caps`)
    /// rock caps (textures `texture_size` metres wide, the light of `torches` baked into
    /// the coarse mesh and caps, the floor at `floor_y`), grouped by its `chunks`.
    ///
    /// # Errors
    /// [`ViewerError::LevelTooLarge`] when the coarse mesh or the outline does not fit in
    /// one buffer ([`check_level_fits`]); nothing is uploaded then.
    pub(super) fn upload(
        device: &wgpu::Device,
        (dungeon, texture_size): (&crate::dungeon::Dungeon, f64),
        l: usize,
        chunks: &[ChunkGpu],
        torches: &Torchlight,
        (floor_y, with_caps): (f32, bool),
    ) -> Result<LevelGeometryGpu, ViewerError> {
        let geometry = level_geometry(dungeon, texture_size, l as u16);
        let keys: Vec<ChunkKey> = chunks.iter().map(|c| (c.id.row, c.id.col)).collect();
        let (outline, outline_ranges) = join_outline(&geometry.outlines, &keys);
        let (mut vertices, roles, spread) = group_coarse(&geometry.coarse, &keys);
        torches.bake(&mut vertices, floor_y);
        let caps = with_caps.then(|| {
            let mut caps = geometry.caps;
            torches.bake(&mut caps, floor_y);
            caps
        });
        let mut indices = Vec::with_capacity(roles.values().flat_map(|c| c.values()).map(Vec::len).sum());
        let groups: Vec<CoarseGroup> = roles
            .into_iter()
            .map(|((role, sector), by_chunk)| {
                let runs = by_chunk
                    .into_iter()
                    .map(|(chunk, list)| {
                        let first = indices.len() as u32;
                        indices.extend(list);
                        (chunk, first, indices.len() as u32 - first)
                    })
                    .collect();
                CoarseGroup { slot: slot_of(l, role), sector, runs }
            })
            .collect();
        check_level_fits(&DeviceLimits::of(device), l, vertices.len(), indices.len(), outline.len())?;
        let coarse = (!indices.is_empty()).then(|| CoarseGpu {
            vertices: buffer_of(device, "coarse vertices", &vertices, wgpu::BufferUsages::VERTEX),
            indices: buffer_of(device, "coarse indices", &indices, wgpu::BufferUsages::INDEX),
            groups,
            spread,
        });
        Ok(LevelGeometryGpu {
            coarse,
            outline: (!outline.is_empty()).then(|| {
                (buffer_of(device, "outline", &outline, wgpu::BufferUsages::VERTEX), outline.len() as u32)
            }),
            outline_ranges,
            caps: caps.map(|caps| triangles_buffer(device, "rock caps", &caps)),
        })
    }

    /// No coarse mesh, outline or caps: a level whose geometry could not be uploaded.
    pub(super) fn empty(chunks: usize) -> LevelGeometryGpu {
        LevelGeometryGpu {
            coarse: None,
            outline: None,
            outline_ranges: vec![(0, 0); chunks],
            caps: Some(None),
        }
    }
}

/// The outline's lines of every chunk in `keys` order, and each chunk's range in them.
fn join_outline(by_chunk: &ByChunk<Vec<Vertex>>, keys: &[ChunkKey]) -> (Vec<Vertex>, Vec<(u32, u32)>) {
    let mut out = Vec::with_capacity(keys.iter().filter_map(|key| by_chunk.get(key)).map(Vec::len).sum());
    let ranges = keys
        .iter()
        .map(|key| {
            let lines = by_chunk.get(key).map_or(&[][..], Vec::as_slice);
            let first = out.len() as u32;
            out.extend_from_slice(lines);
            (first, lines.len() as u32)
        })
        .collect();
    (out, ranges)
}

/// Coarse triangles (absolute indices) by role and wall sector, then chunk (its index in
/// the level's chunk list).
type CoarseGroups = BTreeMap<(MaterialRole, Option<u8>), BTreeMap<usize, Vec<u32>>>;

/// The coarse meshes of a level's chunks (`keys`, in order) joined into one vertex list;
/// per role (walls also per [`facing_sector`]), per chunk, its triangles (absolute
/// indices into the vertices), and the largest angle between a wall's normal and its
/// sector's middle.
fn group_coarse(by_chunk: &ByChunk<LevelMesh>, keys: &[ChunkKey]) -> (Vec<Vertex>, CoarseGroups, f32) {
    let meshes = || keys.iter().filter_map(|key| by_chunk.get(key));
    let mut vertices =
        Vec::with_capacity(meshes().flat_map(|m| &m.primitives).map(|(_, p)| p.vertices.len()).sum());
    let mut out = CoarseGroups::new();
    let mut spread = 0.0f32;
    for (chunk, key) in keys.iter().enumerate() {
        let Some(mesh) = by_chunk.get(key) else { continue };
        for (role, prim) in &mesh.primitives {
            let base = vertices.len() as u32;
            vertices.extend_from_slice(&prim.vertices);
            for tri in prim.indices.chunks_exact(3) {
                let normal = Vec3::from(prim.vertices[tri[0] as usize].normal);
                let sector = if *role == MaterialRole::Wall { facing_sector(normal) } else { None };
                if let Some(s) = sector {
                    spread = spread.max(normal.angle_between(sector_normal(s)));
                }
                let list = out.entry((*role, sector)).or_default().entry(chunk).or_default();
                list.extend(tri.iter().map(|i| i + base));
            }
        }
    }
    (vertices, out, spread)
}

/// A vertex buffer of `triangles` (none when empty) and its vertex count.
pub(crate) fn triangles_buffer(
    device: &wgpu::Device,
    label: &str,
    triangles: &[Vertex],
) -> Option<(wgpu::Buffer, u32)> {
    (!triangles.is_empty()).then(|| {
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::cast_slice(triangles),
            usage: wgpu::BufferUsages::VERTEX,
        });
        (buffer, triangles.len() as u32)
    })
}

impl super::Renderer {
    /// Uploads the geometry ([`LevelGeometryGpu`]) of each level that `frame` (and its
    /// inset) shows and has none yet: a level with a chunk in the view, or any shown
    /// level when the frame draws rock caps; the caps only for a frame that draws them. A
    /// level whose geometry does not fit the device is said once and drawn without it (its
    /// near chunks still at full detail).
    pub(super) fn prepare_levels(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        frame: &super::Frame,
        height: u32,
    ) {
        let mut wanted = self.levels_shown(frame, height);
        if let Some(inset) = &frame.inset {
            wanted.extend(self.levels_shown(&inset.frame, inset.rect[3]));
        }
        for (l, with_caps) in wanted {
            match &self.levels[l].geometry {
                Some(g) if with_caps && g.caps.is_none() => {
                    let caps = lit_level_caps(&self.dungeon, l as u16, &self.torches);
                    let buffer = triangles_buffer(device, "rock caps", &caps);
                    self.levels[l].geometry.as_mut().expect("invariant: matched above").caps = Some(buffer);
                }
                Some(_) => continue,
                None => {
                    let source = (&*self.dungeon, self.mesh_options.texture_size);
                    let level = &self.levels[l];
                    let floor = (self.floor_y[l], with_caps);
                    let built =
                        LevelGeometryGpu::upload(device, source, l, &level.chunks, &self.torches, floor);
                    self.levels[l].geometry = Some(built.unwrap_or_else(|e| {
                        eprintln!("octile view: {e}; it is drawn without its far chunks, outlines and caps");
                        LevelGeometryGpu::empty(self.levels[l].chunks.len())
                    }));
                }
            }
            // Hand the staging copies to the device and wait, so they are freed before the
            // next level is built: the peak holds one level's, not all.
            queue.submit([]);
            // A lost device shows at the frame; nothing to free then.
            let _ = device.poll(wgpu::PollType::wait_indefinitely());
        }
    }

    /// The levels `frame` (drawn `height` pixels high) shows that still lack geometry it
    /// needs (all shown levels when it draws caps, else those with a chunk in the view),
    /// each with whether it needs its caps. Levels that have what the frame needs are not
    /// looked at, so once everything shown is uploaded this costs nothing per frame.
    fn levels_shown(&self, frame: &super::Frame, height: u32) -> Vec<(usize, bool)> {
        let lod = self.lod(frame, height);
        let lacking = |l: usize| match &self.levels[l].geometry {
            None => true,
            Some(g) => frame.caps && g.caps.is_none(),
        };
        (0..self.levels.len())
            .filter(|&l| frame.levels.contains(&(l as u16)) && lacking(l))
            .filter(|&l| {
                frame.caps
                    || self.levels[l].chunks.iter().any(|c| self.chunk_in_view(frame, l, c, &lod).is_some())
            })
            .map(|l| (l, frame.caps))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viewer::scene::Scene;

    #[test]
    fn a_level_past_the_buffer_limit_is_refused_naming_level_and_limit() {
        let d = crate::format::from_json(include_str!("../../../assets/two_levels.json")).unwrap();
        let scene = Scene::new(&d, &crate::mesh::MeshOptions::default()).unwrap();
        let (vertices, _, _) = group_coarse(&scene.level_geometry(1).coarse, &scene.chunks[1]);
        let vertex_bytes = (vertices.len() * size_of::<Vertex>()) as u64;
        let fits = DeviceLimits { max_texture_dimension: 16384, max_buffer_size: 1 << 28 };
        assert!(check_level_fits(&fits, 1, vertices.len(), 0, 0).is_ok());
        // A limit one byte below what the level's vertices need: refused before any upload.
        let tight = DeviceLimits { max_buffer_size: vertex_bytes - 1, ..fits };
        let e = check_level_fits(&tight, 1, vertices.len(), 0, 0).unwrap_err();
        assert!(
            matches!(e, ViewerError::LevelTooLarge { level: 1, what: "coarse vertices", bytes, max }
                if bytes == vertex_bytes && max == vertex_bytes - 1),
            "{e:?}"
        );
        let text = e.to_string();
        assert!(
            text.contains("level 1")
                && text.contains("max_buffer_size")
                && text.contains(&format!("{}", vertex_bytes - 1)),
            "{text}"
        );
    }
}
