//! Mesh chunks: a level cut into square blocks of [`CHUNK_SLOTS`] x [`CHUNK_SLOTS`] slots,
//! so an edit re-meshes only the chunks it touched ([`crate::edit`] reports them). This file
//! is the one owner of "which chunk holds this slot" ([`ChunkId::of`]) and of which chunk
//! meshes an edge's seam ([`edge_slot`]).
//!
//! A chunk's mesh holds its cells (floor, ceiling, walls, stair shafts and stairs) and the
//! seams named by its slots (a long seam by its Void slot, a short seam by its connector), so
//! the chunks of a level together hold exactly the triangles of the level's mesh.

use super::{LevelMesh, MeshError, MeshOptions, Primitive, level, panel};
use crate::dungeon::Dungeon;
use crate::grid::{Dims, EdgeId, Pos, Slot};

/// Slots per side of a chunk: 8 octagons and 8 connectors (16 x 16 slots).
pub const CHUNK_SLOTS: u32 = 16;

/// One mesh chunk: a level and the chunk's row and column (in chunks, from the north-west
/// corner of the level).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChunkId {
    /// The level.
    pub level: u16,
    /// Chunk row: slot rows `row * CHUNK_SLOTS ..` to `(row + 1) * CHUNK_SLOTS`.
    pub row: u32,
    /// Chunk column: slot columns `col * CHUNK_SLOTS ..` to `(col + 1) * CHUNK_SLOTS`.
    pub col: u32,
}

impl ChunkId {
    /// The chunk that holds the slot at `pos` (any slot, cell or Void).
    #[must_use]
    pub const fn of(pos: Pos) -> ChunkId {
        ChunkId { level: pos.level, row: pos.slot.row / CHUNK_SLOTS, col: pos.slot.col / CHUNK_SLOTS }
    }

    /// True when the chunk holds `slot` (on its level).
    #[must_use]
    pub const fn holds(self, slot: Slot) -> bool {
        slot.row / CHUNK_SLOTS == self.row && slot.col / CHUNK_SLOTS == self.col
    }

    /// The slot rows and columns of the chunk inside a level of `dims` (empty ranges for a
    /// chunk outside it).
    #[must_use]
    pub fn slots(self, dims: Dims) -> (std::ops::Range<u32>, std::ops::Range<u32>) {
        let span = |i: u32, len: u32| {
            let start = i.saturating_mul(CHUNK_SLOTS).min(len);
            start..i.saturating_add(1).saturating_mul(CHUNK_SLOTS).min(len)
        };
        (span(self.row, dims.rows()), span(self.col, dims.cols()))
    }
}

impl std::fmt::Display for ChunkId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "chunk (level {}, row {}, col {})", self.level, self.row, self.col)
    }
}

/// Chunk rows and columns of one level of `dims`.
#[must_use]
pub fn chunk_counts(dims: Dims) -> (u32, u32) {
    (dims.rows().div_ceil(CHUNK_SLOTS), dims.cols().div_ceil(CHUNK_SLOTS))
}

/// Every chunk of `dungeon`, level by level, row-major.
#[must_use]
pub fn all_chunks(dungeon: &Dungeon) -> Vec<ChunkId> {
    let (rows, cols) = chunk_counts(dungeon.dims());
    (0..dungeon.levels())
        .flat_map(|level| {
            (0..rows).flat_map(move |row| (0..cols).map(move |col| ChunkId { level, row, col }))
        })
        .collect()
}

/// The slot that names `edge`, whose chunk meshes the edge's seam: a long edge's Void slot,
/// a short edge's connector.
#[must_use]
pub const fn edge_slot(edge: EdgeId) -> Slot {
    match edge {
        EdgeId::Long(void) => void,
        EdgeId::Short(connector, _) => connector,
    }
}

/// The options a live editor re-meshes its chunks with: `options` without meshopt's
/// reordering for the vertex cache, overdraw and fetch (a chunk drawn in an editor's preview
/// gains nothing visible from it, and it is about a fifth of a chunk's cost; an export still
/// optimises). The triangles are the same, in another order.
#[must_use]
pub fn live_options(options: &MeshOptions) -> MeshOptions {
    MeshOptions { optimize: false, ..options.clone() }
}

/// The mesh of one chunk: the triangles of [`super::build`]'s level mesh that the chunk's
/// cells and seams make, assembled alike (positions level-local; lightmap UVs, when asked
/// for, are packed per chunk). An empty chunk (all rock, or outside the level) has no
/// primitive.
///
/// # Errors
/// [`MeshError::BadOption`] for an option out of range; [`MeshError::Stair`] for a stair
/// on the chunk's level that cannot be built (as [`super::build`]); a level outside the
/// dungeon is [`MeshError::Stair`] with the dungeon's level error.
///
/// # Panics
/// Never: [`build_chunks`] gives one mesh per chunk asked for.
pub fn build_chunk(dungeon: &Dungeon, chunk: ChunkId, options: &MeshOptions) -> Result<LevelMesh, MeshError> {
    let mut built = build_chunks(dungeon, &[chunk], options)?;
    Ok(built.pop().expect("invariant: one mesh per chunk asked for").1)
}

/// The meshes of several chunks ([`build_chunk`] of each, the same triangles; a chunk given
/// twice is meshed once, its repeats are empty), in the order
/// given; each level they lie on is read once for all its chunks, so re-meshing the chunks
/// of one edit costs what their cells cost, not a pass over the level per chunk.
///
/// # Errors
/// As [`build_chunk`], for the first chunk that fails.
///
/// # Panics
/// Never: every level a chunk asks for is meshed before the chunks are handed out.
pub fn build_chunks(
    dungeon: &Dungeon,
    chunks: &[ChunkId],
    options: &MeshOptions,
) -> Result<Vec<(ChunkId, LevelMesh)>, MeshError> {
    options.validate()?;
    let (rows, cols) = chunk_counts(dungeon.dims());
    let mut out: Vec<Option<LevelMesh>> = chunks.iter().map(|_| None).collect();
    let mut levels: Vec<u16> = chunks.iter().map(|c| c.level).collect();
    levels.sort_unstable();
    levels.dedup();
    for level in levels {
        dungeon.tile_layer(level).map_err(MeshError::Stair)?;
        // Per chunk of the level (row-major): its part in this pass, if asked for. A chunk
        // outside the level has none; a repeat finds its part's panels already taken.
        let mut part = vec![None; (rows * cols) as usize];
        let mut parts = 0;
        for c in chunks.iter().filter(|c| c.level == level && c.row < rows && c.col < cols) {
            let k = &mut part[(c.row * cols + c.col) as usize];
            if k.is_none() {
                *k = Some(parts);
                parts += 1;
            }
        }
        let index = |row: u32, col: u32| (row * cols + col) as usize;
        let part_of = |slot: Slot| part[index(slot.row / CHUNK_SLOTS, slot.col / CHUNK_SLOTS)];
        let mut panels = level::extrude_parts(dungeon, level, parts, &part_of)?;
        for (c, mesh) in chunks.iter().zip(&mut out).filter(|(c, _)| c.level == level) {
            let own = (c.row < rows && c.col < cols).then(|| part[index(c.row, c.col)]).flatten();
            let panels = own.map(|k| std::mem::take(&mut panels[k])).unwrap_or_default();
            *mesh = Some(panel::assemble(dungeon, level, &panels, options));
        }
    }
    Ok(chunks.iter().zip(out).map(|(&c, m)| (c, m.expect("invariant: every level was built"))).collect())
}

/// Every triangle of `primitives` as its three positions (`f32` bits), rotated to start at
/// the smallest, then sorted: meshes that differ only in the order of their triangles and
/// vertices and in welding compare equal. What a chunk meshed alone must equal (the same
/// cells of a whole level's mesh), for tests and tools that compare meshes.
#[must_use]
pub fn triangle_set<'a>(primitives: impl IntoIterator<Item = &'a Primitive>) -> Vec<[[u32; 3]; 3]> {
    let mut out = Vec::new();
    for prim in primitives {
        for t in prim.indices.chunks_exact(3) {
            let p = |i: u32| prim.vertices[i as usize].position.map(f32::to_bits);
            let mut tri = [p(t[0]), p(t[1]), p(t[2])];
            let first = (0..3).min_by_key(|&i| tri[i]).unwrap_or(0);
            tri.rotate_left(first);
            out.push(tri);
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GenerateOptions, generate};
    use crate::mesh::build;

    /// [`triangle_set`] of a whole level mesh.
    fn triangles(mesh: &LevelMesh) -> Vec<[[u32; 3]; 3]> {
        triangle_set(mesh.primitives.iter().map(|(_, p)| p))
    }

    #[test]
    fn chunks_partition_every_level() {
        let options = GenerateOptions { seed: 3, levels: 2, cols: 19, rows: 11, ..Default::default() };
        let d = generate(&options, &mut |_| {}).unwrap();
        let mesh_options = MeshOptions { lightmap_uv: false, ..MeshOptions::default() };
        let full = build(&d, &mesh_options).unwrap();
        let chunks = all_chunks(&d);
        assert_eq!(chunks.len(), 2 * 2 * 3, "37 slot columns make 3 chunks, 21 rows make 2");
        for level in &full.levels {
            let mut joined: Vec<_> = chunks
                .iter()
                .filter(|c| c.level == level.level)
                .flat_map(|&c| triangles(&build_chunk(&d, c, &mesh_options).unwrap()))
                .collect();
            joined.sort_unstable();
            assert!(!joined.is_empty());
            assert_eq!(joined, triangles(level), "level {}", level.level);
        }
    }

    #[test]
    fn chunks_built_together_equal_chunks_built_alone() {
        let options = GenerateOptions { seed: 5, levels: 3, cols: 12, rows: 10, ..Default::default() };
        let d = generate(&options, &mut |_| {}).unwrap();
        let mesh_options = MeshOptions { lightmap_uv: false, ..MeshOptions::default() };
        let mut asked: Vec<ChunkId> = all_chunks(&d).into_iter().rev().collect();
        asked.push(asked[1]);
        asked.push(ChunkId { level: 1, row: 9, col: 0 });
        let together = build_chunks(&d, &asked, &mesh_options).unwrap();
        assert_eq!(together.len(), asked.len());
        for (i, (chunk, mesh)) in together.iter().enumerate() {
            assert_eq!(*chunk, asked[i]);
            let alone = triangles(&build_chunk(&d, *chunk, &mesh_options).unwrap());
            if i + 2 < asked.len() {
                assert_eq!(triangles(mesh), alone, "{chunk}");
            } else {
                assert!(mesh.primitives.is_empty(), "a repeat or a chunk outside the level: {chunk}");
            }
        }
        assert!(together.iter().any(|(_, m)| !m.primitives.is_empty()));
    }

    #[test]
    fn chunk_of_a_slot() {
        assert_eq!(ChunkId::of(Pos::new(2, 15, 16)), ChunkId { level: 2, row: 0, col: 1 });
        let dims = Dims::from_octagons(10, 9).unwrap();
        assert_eq!(chunk_counts(dims), (2, 2));
        assert_eq!(ChunkId { level: 0, row: 1, col: 0 }.slots(dims), (16..17, 0..16));
        assert!(ChunkId { level: 0, row: 1, col: 1 }.holds(Slot::new(16, 18)));
    }
}
