//! Mesh build and glTF export of all-floor dungeons (16x16x2, 64x64x4, 128x128x4
//! octagons): triangles per second with and without meshopt's reordering side by side,
//! export throughput, bytes written, and meshopt's ACMR / overfetch before and after.
//!
//! `cargo bench --bench mesh_export` (set `OCTILE_BENCH_QUICK=1` to run only 16x16x2).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use octile::dungeon::{Dungeon, Fill};
use octile::export::{ExportOptions, to_glb};
use octile::geometry::Proportions;
use octile::mesh::{self, MeshOptions};

fn sizes() -> Vec<(u32, u32, u32)> {
    if std::env::var("OCTILE_BENCH_QUICK").is_ok() {
        vec![(16, 16, 2)]
    } else {
        vec![(16, 16, 2), (64, 64, 4), (128, 128, 4)]
    }
}

/// Triangles, vertices, and ACMR, ATVR and overfetch over every primitive of a mesh
/// (ACMR weighted by triangles, ATVR and overfetch by vertices).
fn stats(m: &mesh::DungeonMesh) -> (usize, usize, f64, f64, f64) {
    let (mut tris, mut verts, mut acmr, mut atvr, mut over) = (0usize, 0usize, 0.0, 0.0, 0.0);
    for level in &m.levels {
        for (_, p) in &level.primitives {
            let s = mesh::analyze(p);
            tris += s.triangles;
            verts += s.vertices;
            acmr += f64::from(s.acmr) * s.triangles as f64;
            atvr += f64::from(s.atvr) * s.vertices as f64;
            over += f64::from(s.overfetch) * s.vertices as f64;
        }
    }
    (tris, verts, acmr / tris as f64, atvr / verts as f64, over / verts as f64)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("mesh_export");
    group.sample_size(10);
    for (cols, rows, levels) in sizes() {
        let d = Dungeon::new(cols, rows, levels, Proportions::default(), Fill::Floor).unwrap();
        let name = format!("{cols}x{rows}x{levels}");
        let raw = MeshOptions { optimize: false, ..Default::default() };
        let mut tris = 0;
        for uv1 in [true, false] {
            let before = MeshOptions { lightmap_uv: uv1, ..raw.clone() };
            let after = MeshOptions { lightmap_uv: uv1, ..Default::default() };
            let (t, verts, acmr0, atvr0, over0) = stats(&mesh::build(&d, &before).unwrap());
            let (_, _, acmr1, atvr1, over1) = stats(&mesh::build(&d, &after).unwrap());
            let bytes =
                to_glb(&d, &ExportOptions { mesh: after.clone(), ..Default::default() }).unwrap().len();
            println!(
                "TABLE | {name} | uv1 {uv1} | {t} | {verts} | {bytes} | {acmr0:.3} -> {acmr1:.3} | {atvr0:.3} -> {atvr1:.3} | {over0:.3} -> {over1:.3} |"
            );
            tris = t;
        }
        group.throughput(Throughput::Elements(tris as u64));
        group.bench_function(BenchmarkId::new("build_optimised", &name), |b| {
            b.iter(|| mesh::build(&d, &MeshOptions::default()).unwrap())
        });
        group.bench_function(BenchmarkId::new("build_unoptimised", &name), |b| {
            b.iter(|| mesh::build(&d, &raw).unwrap())
        });
        group.bench_function(BenchmarkId::new("export_glb", &name), |b| {
            b.iter(|| to_glb(&d, &ExportOptions::default()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
