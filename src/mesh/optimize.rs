//! Welding and meshopt optimisation of one primitive, and the statistics benchmarks report.

use super::{Primitive, Vertex};

/// Most triangles on one lowest corner that [`clean`] compares pairwise; a bigger bucket is
/// sorted.
const SMALL_BUCKET: usize = 32;

/// Vertex cache size the statistics assume (a typical post-transform cache).
const CACHE_SIZE: u32 = 16;

/// meshopt's measures of how well a primitive uses the GPU's caches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrimitiveStats {
    /// Triangles.
    pub triangles: usize,
    /// Vertices.
    pub vertices: usize,
    /// Average cache miss ratio: vertex shader runs per triangle (3 worst; never below
    /// vertices / triangles).
    pub acmr: f32,
    /// Average transformed vertex ratio: vertex shader runs per vertex (1 is ideal).
    pub atvr: f32,
    /// Bytes fetched from the vertex buffer over its size (1 is ideal).
    pub overfetch: f32,
}

/// Cache statistics of `primitive` (FIFO cache of 16 entries).
#[must_use]
pub fn analyze(primitive: &Primitive) -> PrimitiveStats {
    let n = primitive.vertices.len();
    let cache = meshopt::analyze_vertex_cache(&primitive.indices, n, CACHE_SIZE, 0, 0);
    let fetch = meshopt::analyze_vertex_fetch(&primitive.indices, n, size_of::<Vertex>());
    PrimitiveStats {
        triangles: primitive.indices.len() / 3,
        vertices: n,
        acmr: cache.acmr,
        atvr: cache.atvr,
        overfetch: fetch.overfetch,
    }
}

/// Welds identical vertices (equal bytes) of a triangle list whose corners index
/// `vertices`, numbering them in order of first use (so repeats in `vertices` weld as they
/// would in an unindexed list), removes degenerate and duplicate triangles, then (when
/// `optimize`) reorders for the vertex cache, overdraw and vertex fetch. The vertices are
/// moved within their own buffer, not copied into new ones.
pub(crate) fn finish(mut vertices: Vec<Vertex>, mut corners: Vec<u32>, optimize: bool) -> Primitive {
    let (count, remap) = super::weld_remap(&vertices);
    corners.iter_mut().for_each(|c| *c = remap[*c as usize]);
    weld_in_place(&mut vertices, count, &remap);
    let mut indices = clean(&corners);
    drop(corners);
    if !optimize || indices.is_empty() {
        vertices.shrink_to_fit();
        return Primitive { vertices, indices };
    }
    meshopt::optimize_vertex_cache_in_place(&mut indices, vertices.len());
    let bytes: &[u8] = bytemuck::cast_slice(&vertices);
    let adapter = meshopt::VertexDataAdapter::new(bytes, size_of::<Vertex>(), 0)
        .expect("invariant: vertex bytes are a whole number of vertices");
    meshopt::optimize_overdraw_in_place(&mut indices, &adapter, 1.05);
    let (used, mut remap) = vertex_fetch_remap(&indices, vertices.len());
    indices.iter_mut().for_each(|i| *i = remap[*i as usize]);
    permute_in_place(&mut vertices, used, &mut remap);
    vertices.shrink_to_fit();
    Primitive { vertices, indices }
}

/// The vertex-fetch order: vertices numbered in the order the index buffer first uses them,
/// `u32::MAX` for a vertex no triangle uses, with the count of used vertices. One entry per
/// vertex, always.
///
/// This is what `meshopt_optimizeVertexFetchRemap` computes, written out because the meshopt
/// 0.7 wrapper (`meshopt::optimize_vertex_fetch_remap`) truncates its table to the used count,
/// so a mesh whose cleaning dropped triangles (degenerate geometry: a cut ratio near 0.5, a
/// huge or tiny base) got a table shorter than its vertex buffer and indexed past its end.
fn vertex_fetch_remap(indices: &[u32], vertex_count: usize) -> (usize, Vec<u32>) {
    let mut remap = vec![u32::MAX; vertex_count];
    let mut next = 0u32;
    for &i in indices {
        let slot = &mut remap[i as usize];
        if *slot == u32::MAX {
            *slot = next;
            next += 1;
        }
    }
    (next as usize, remap)
}

/// Moves each vertex `i` to `remap[i]` and keeps the first `count`: a weld's remap, which
/// numbers vertices in order of first appearance ([`super::weld_remap`]), so `remap[i] <= i` and each place is written only once its own vertex moved.
fn weld_in_place(vertices: &mut Vec<Vertex>, count: usize, remap: &[u32]) {
    for (i, &r) in remap.iter().enumerate().take(vertices.len()) {
        let r = r as usize;
        assert!(r <= i, "invariant: a weld numbers vertices in order of first appearance");
        vertices[r] = vertices[i];
    }
    vertices.truncate(count);
}

/// Moves each vertex `i` to `remap[i]` (`u32::MAX`: unused, dropped) and keeps the first
/// `used`, where `remap` maps the used vertices one to one onto `0..used` (a vertex-fetch
/// order). `remap` is scratch: the unused vertices are given the places after `used`, and
/// the permutation is then applied cycle by cycle with swaps.
fn permute_in_place(vertices: &mut Vec<Vertex>, used: usize, remap: &mut [u32]) {
    let first_spare = u32::try_from(used).expect("invariant: a primitive has under 2^32 vertices");
    for (r, spare) in remap.iter_mut().filter(|r| **r == u32::MAX).zip(first_spare..) {
        *r = spare;
    }
    for i in 0..vertices.len() {
        while remap[i] as usize != i {
            let j = remap[i] as usize;
            vertices.swap(i, j);
            remap.swap(i, j);
        }
    }
    vertices.truncate(used);
}

/// Drops triangles with a repeated index and every repeat of a triangle (same vertices in
/// the same cyclic order), keeping the first; order is otherwise unchanged.
///
/// Repeats share their lowest corner, so triangles are bucketed by it (a counting sort over
/// the vertices, stable) and each is compared only with the earlier ones of its bucket: a
/// handful, where a sort of every triangle would cost a log factor.
fn clean(indices: &[u32]) -> Vec<u32> {
    // Each triangle's corners rotated to start at the lowest (the first lowest on a tie).
    let tris: Vec<[u32; 3]> = indices
        .chunks_exact(3)
        .map(|t| {
            let m = (0..3).min_by_key(|&k| t[k]).expect("invariant: three indices");
            [t[m], t[(m + 1) % 3], t[(m + 2) % 3]]
        })
        .collect();
    let vertices = tris.iter().map(|t| t[0] as usize + 1).max().unwrap_or(0);
    let mut starts = vec![0usize; vertices + 1];
    for t in &tris {
        starts[t[0] as usize + 1] += 1;
    }
    for v in 1..starts.len() {
        starts[v] += starts[v - 1];
    }
    let mut fill = starts.clone();
    let mut bucketed = vec![0usize; tris.len()];
    for (i, t) in tris.iter().enumerate() {
        bucketed[fill[t[0] as usize]] = i;
        fill[t[0] as usize] += 1;
    }
    let mut keep = vec![false; tris.len()];
    let mut sorted = Vec::new();
    for bucket in starts.windows(2).map(|w| &bucketed[w[0]..w[1]]) {
        let proper = |i: usize| {
            let [a, b, c] = tris[i];
            a != b && b != c && a != c
        };
        if bucket.len() <= SMALL_BUCKET {
            for (k, &i) in bucket.iter().enumerate() {
                keep[i] = proper(i) && !bucket[..k].iter().any(|&j| tris[j] == tris[i]);
            }
        } else {
            // Many triangles on one vertex (a wide fan, or degenerate geometry welded to
            // one point): sorted, so the bucket costs n log n, not n^2.
            sorted.clear();
            sorted.extend(bucket.iter().map(|&i| (tris[i], i)));
            sorted.sort_unstable();
            for (k, &(t, i)) in sorted.iter().enumerate() {
                keep[i] = proper(i) && !(k > 0 && sorted[k - 1].0 == t);
            }
        }
    }
    indices.chunks_exact(3).zip(keep).filter(|(_, k)| *k).flat_map(|(t, _)| t.iter().copied()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sort-every-triangle cleaning this module used before bucketing.
    fn reference_clean(indices: &[u32]) -> Vec<u32> {
        // One sortable word per triangle: its corners rotated to start at the lowest, then its
        // position (so among repeats the first sorts first).
        let mut keys: Vec<u128> = indices
            .chunks_exact(3)
            .enumerate()
            .map(|(i, t)| {
                let m = (0..3).min_by_key(|&k| t[k]).expect("invariant: three indices");
                let corners = [t[m], t[(m + 1) % 3], t[(m + 2) % 3]];
                let i = u32::try_from(i).expect("invariant: triangles fit in u32");
                corners.iter().fold(0u128, |key, &c| (key << 32) | u128::from(c)) << 32 | u128::from(i)
            })
            .collect();
        keys.sort_unstable();
        let mut keep = vec![false; keys.len()];
        for (k, &key) in keys.iter().enumerate() {
            let triangle = key >> 32;
            let repeat = k > 0 && keys[k - 1] >> 32 == triangle;
            let [a, b, c] = [triangle >> 64, (triangle >> 32) & 0xFFFF_FFFF, triangle & 0xFFFF_FFFF];
            keep[(key & 0xFFFF_FFFF) as usize] = !repeat && a != b && b != c && a != c;
        }
        indices.chunks_exact(3).zip(keep).filter(|(_, k)| *k).flat_map(|(t, _)| t.iter().copied()).collect()
    }

    #[test]
    fn clean_matches_the_sorting_reference() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n) as u32
        };
        for round in 0..300_u64 {
            // Few vertices and many triangles make big buckets (the sorted path) and repeats.
            let vertices = 1 + round % 9;
            let indices: Vec<u32> = (0..3 * (round % 150)).map(|_| next(vertices)).collect();
            assert_eq!(clean(&indices), reference_clean(&indices), "{indices:?}");
        }
    }

    #[test]
    fn clean_drops_degenerate_and_repeats() {
        let out = clean(&[0, 1, 2, 1, 2, 0, 3, 3, 4, 2, 1, 0, 5, 6, 7]);
        assert_eq!(out, vec![0, 1, 2, 2, 1, 0, 5, 6, 7]);
    }

    fn vertex(x: f32, z: f32) -> Vertex {
        Vertex { position: [x, 0.0, z], normal: [0.0, 1.0, 0.0], uv: [x, z], uv1: [0.0; 2] }
    }

    /// Positions of each triangle, rotated to start at its smallest, sorted: the geometry a
    /// primitive draws, whatever order optimisation chose.
    fn drawn(vertices: &[Vertex], indices: &[u32]) -> Vec<[[u32; 3]; 3]> {
        let bits = |i: u32| vertices[i as usize].position.map(f32::to_bits);
        let mut tris: Vec<[[u32; 3]; 3]> = indices
            .chunks_exact(3)
            .map(|t| {
                let t = [bits(t[0]), bits(t[1]), bits(t[2])];
                let m = (0..3).min_by_key(|&i| t[i]).unwrap();
                [t[m], t[(m + 1) % 3], t[(m + 2) % 3]]
            })
            .collect();
        tris.sort_unstable();
        tris
    }

    /// Regression: a degenerate triangle whose vertices nothing else uses, welded first, left
    /// unused vertices at the front of the buffer; the fetch remap came back shorter than the
    /// vertex buffer and `finish` indexed past its end (or silently dropped used vertices).
    #[test]
    fn finish_survives_unused_vertices_before_used_ones() {
        let (a, b) = (vertex(0.0, 0.0), vertex(1.0, 0.0));
        let (c, d, e, f) = (vertex(5.0, 5.0), vertex(6.0, 5.0), vertex(5.0, 6.0), vertex(6.0, 6.0));
        let unindexed = [a, a, b, c, d, e, d, f, e, a, b, b];
        let corners: Vec<u32> = (0..12).collect();
        let prim = finish(unindexed.to_vec(), corners, true);
        assert_eq!(prim.vertices.len(), 4, "only the four used vertices are kept");
        assert!(prim.indices.iter().all(|&i| (i as usize) < prim.vertices.len()));
        let expected = drawn(&unindexed[3..9], &[0, 1, 2, 3, 4, 5]);
        assert_eq!(drawn(&prim.vertices, &prim.indices), expected);
    }
}
