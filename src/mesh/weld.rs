//! Finding equal vertices: the remap a weld applies.

use super::Vertex;

/// The weld of `vertices`: for each vertex the number of the first vertex with the same
/// bytes, numbering distinct vertices in order of first appearance, and how many are
/// distinct. What `meshopt::generate_vertex_remap(vertices, None)` returns, found through
/// a table that keeps 32 bits of each vertex's hash beside its index, so a probe reads a
/// vertex only when the hashes agree (meshopt's table keeps the index alone and compares
/// the vertex bytes of every occupied slot it meets, a cache miss each on a large mesh).
///
/// # Panics
/// With `u32::MAX` vertices or more (a primitive holds fewer).
#[must_use]
pub fn weld_remap(vertices: &[Vertex]) -> (usize, Vec<u32>) {
    let n =
        u32::try_from(vertices.len()).ok().filter(|&n| n < u32::MAX).expect("fewer than u32::MAX vertices");
    let words: &[[u32; 10]] = bytemuck::cast_slice(vertices);
    // At most two thirds full.
    let size = (vertices.len() + vertices.len() / 2).next_power_of_two().max(16);
    let mask = size - 1;
    let mut table = vec![EMPTY; size];
    let mut remap = Vec::with_capacity(vertices.len());
    let mut distinct = 0u32;
    for (i, w) in (0..n).zip(words) {
        let hash = hash(w);
        let tag = u64::from((hash >> 32) as u32) << 32;
        let mut slot = (hash as usize) & mask;
        let number = loop {
            let entry = table[slot];
            if entry == EMPTY {
                table[slot] = tag | u64::from(i);
                distinct += 1;
                break distinct - 1;
            }
            if entry & TAG == tag {
                let first = (entry & !TAG) as usize;
                if words[first] == *w {
                    break remap[first];
                }
            }
            slot = (slot + 1) & mask;
        };
        remap.push(number);
    }
    (distinct as usize, remap)
}

/// An empty slot (no vertex has index `u32::MAX`).
const EMPTY: u64 = u64::MAX;

/// The hash bits a slot keeps.
const TAG: u64 = 0xFFFF_FFFF_0000_0000;

/// A 64-bit hash of a vertex's bytes (multiply-xor over its words, then a final mix).
fn hash(words: &[u32; 10]) -> u64 {
    let mut h = 0u64;
    for pair in words.chunks_exact(2) {
        let x = u64::from(pair[0]) | (u64::from(pair[1]) << 32);
        h = (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h ^= h >> 32;
    h.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ (h >> 28)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(seed: u32) -> Vertex {
        let f = |k: u32| (seed.wrapping_mul(2_654_435_761).rotate_left(k) % 7) as f32 * 0.5;
        Vertex {
            position: [f(1), f(5), f(9)],
            normal: [0.0, 1.0, 0.0],
            uv: [f(13), f(17)],
            uv1: [f(21), 0.25],
        }
    }

    #[test]
    fn welds_as_meshopt_does() {
        for n in [0usize, 1, 2, 17, 1000, 20_000] {
            // Few distinct values: many repeats, far apart and near.
            let vertices: Vec<Vertex> = (0..n as u32).map(|i| vertex(i % 1013 + (i % 7) * 3)).collect();
            assert_eq!(
                weld_remap(&vertices),
                meshopt::generate_vertex_remap(&vertices, None),
                "{n} vertices"
            );
        }
    }

    #[test]
    fn negative_zero_is_another_vertex_as_in_meshopt() {
        let a = Vertex { position: [0.0; 3], normal: [0.0, 1.0, 0.0], uv: [0.0; 2], uv1: [0.0; 2] };
        let b = Vertex { position: [-0.0, 0.0, 0.0], ..a };
        let vertices = [a, b, a, b];
        assert_eq!(weld_remap(&vertices), (2, vec![0, 1, 0, 1]));
        assert_eq!(weld_remap(&vertices), meshopt::generate_vertex_remap(&vertices, None));
    }
}
