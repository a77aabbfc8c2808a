//! UV0 is rebased per flat panel by a whole number of texture repeats: values stay small
//! wherever the panel lies, while the texture's scale and phase (world metres / texture
//! size, modulo 1) are what they were.

// std's maths is the reference these tests check the crate's geometry against; no output
// comes from it (clippy.toml keeps it out of the library).
#![allow(clippy::disallowed_methods)]

mod support;

use octile::generate::{GenerateOptions, generate};
use octile::mesh::{self, MaterialRole, MeshOptions, Vertex};

fn sub(a: [f32; 3], b: [f32; 3]) -> [f64; 3] {
    [0, 1, 2].map(|k| f64::from(a[k]) - f64::from(b[k]))
}

fn len(v: [f64; 3]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

#[test]
fn uv0_is_small_and_keeps_metres_per_repeat() {
    let big = GenerateOptions { seed: 5, levels: 1, cols: 16, rows: 16, ..GenerateOptions::default() };
    let mut dungeons: Vec<_> = support::samples().into_iter().map(|(_, d)| d).collect();
    dungeons.push(generate(&big, &mut |_| {}).unwrap());
    for texture_size in [4.0, 1.5] {
        let options = MeshOptions { texture_size, ..MeshOptions::default() };
        for d in &dungeons {
            // The largest panel spans at most a cell's polygon plus its door splits, or a wall
            // layer_height tall: bounded by the grid's period and the level height.
            let p = d.proportions();
            let largest = (2.0 * d.layout().spacing()).max(p.layer_height) / texture_size;
            let m = mesh::build(d, &options).unwrap();
            let mut widest = 0.0f32;
            for level in &m.levels {
                for (role, prim) in &level.primitives {
                    for v in &prim.vertices {
                        widest = widest.max(v.uv[0].abs()).max(v.uv[1].abs());
                    }
                    for t in prim.indices.chunks_exact(3) {
                        let [a, b, c]: [&Vertex; 3] = [0, 1, 2].map(|k| &prim.vertices[t[k] as usize]);
                        // The map from a panel to UV0 is an isometry scaled by 1 / texture_size:
                        // every edge's UV length is its length in metres / texture size.
                        for (x, y) in [(a, b), (b, c), (c, a)] {
                            let metres = len(sub(x.position, y.position));
                            let uv = f64::from(x.uv[0] - y.uv[0]).hypot(f64::from(x.uv[1] - y.uv[1]));
                            assert!(
                                (uv * texture_size - metres).abs() < 1e-3,
                                "{role:?}: {uv} for {metres} m"
                            );
                        }
                        // Floors keep their phase: U = x / size and V = z / size modulo 1.
                        if *role == MaterialRole::Floor {
                            let phase = |w: f32, u: f32| {
                                let d = f64::from(w) / texture_size - f64::from(u);
                                (d - d.round()).abs()
                            };
                            assert!(
                                phase(a.position[0], a.uv[0]) < 1e-3 && phase(a.position[2], a.uv[1]) < 1e-3
                            );
                        }
                    }
                }
            }
            assert!(f64::from(widest) < 2.0 + largest, "|uv0| up to {widest}, panel size {largest}");
        }
    }
}
