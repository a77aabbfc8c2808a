//! The viewer's torch light bake (`viewer::torchlight`, issue 15) on a generated
//! 64x64-octagon, 4-level dungeon, CPU side only (no GPU upload): the chunks one wall
//! edit at a chunk corner dirties, re-meshed as edit mode does, with and without the bake
//! of every torch's light into their vertices; and the bake of every chunk (what edit mode
//! pays when first turned on, and the renderer over a whole walk).
//!
//! Run: `cargo bench --bench torchlight -- --warm-up-time 1 --measurement-time 3` (set
//! `OCTILE_BENCH_QUICK=1` to use 16x16 octagons).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use octile::dungeon::Dungeon;
use octile::edit::{Command, Editor};
use octile::generate::{GenerateOptions, generate};
use octile::grid::{Direction, Pos, SlotKind};
use octile::mesh::chunk::{ChunkId, all_chunks, build_chunks, live_options};
use octile::mesh::{LevelMesh, MeshOptions};
use octile::viewer::markers::{markers_of, torch_positions};
use octile::viewer::torchlight::Torchlight;

/// Octagons per side: 64, or 16 with `OCTILE_BENCH_QUICK`.
fn side() -> u32 {
    if std::env::var("OCTILE_BENCH_QUICK").is_ok() { 16 } else { 64 }
}

/// The viewer's live-mesh options (as edit mode meshes).
fn options() -> MeshOptions {
    live_options(&MeshOptions::default())
}

/// Re-meshes `ids` of `d` and, when `torches` is given, bakes their light into a copy of
/// each chunk's vertices (as `ChunkMesh::upload` does); returns the vertices made.
fn remesh(d: &Dungeon, ids: &[ChunkId], torches: Option<&Torchlight>) -> usize {
    let built = build_chunks(d, ids, &options()).expect("the chunks mesh");
    built.iter().map(|(_, mesh)| bake(mesh, torches)).sum()
}

/// The vertices of `mesh`, baked by `torches` when given; how many.
fn bake(mesh: &LevelMesh, torches: Option<&Torchlight>) -> usize {
    let mut vertices: Vec<_> = mesh.primitives.iter().flat_map(|(_, p)| p.vertices.iter().copied()).collect();
    if let Some(t) = torches {
        t.bake(&mut vertices, mesh.floor_y as f32);
    }
    black_box(&vertices);
    vertices.len()
}

fn torchlight(c: &mut Criterion) {
    let n = side();
    let generation = GenerateOptions { seed: 11, levels: 4, cols: n, rows: n, ..Default::default() };
    let d = generate(&generation, &mut |_| {}).expect("the bench dungeon generates");
    let torches = Torchlight::new(&torch_positions(&markers_of(&d)));
    let mut group = c.benchmark_group("torchlight");
    group.sample_size(20);
    // The east wall of the level-1 floor octagon nearest (47, 46): at a chunk corner, the
    // edit bench's worst case.
    let (pos, dir) = d
        .cells()
        .filter(|p| {
            p.level == 1 && p.slot.kind() == SlotKind::Octagon && d.tile_def(*p).is_ok_and(|t| t.carved)
        })
        .filter(|p| d.edge_state(*p, Direction::E).is_ok_and(|e| e.is_some()))
        .min_by_key(|p| p.slot.row.abs_diff(47.min(2 * n - 2)) + p.slot.col.abs_diff(46.min(2 * n - 2)))
        .map(|p: Pos| (p, Direction::E))
        .expect("a floor octagon");
    let mut editor = Editor::new(d.clone());
    let dirty = editor.apply(&Command::Cycle { pos, dir }).expect("a wall cycles").dirty;
    for (name, baked) in [("remesh", None), ("remesh_and_bake", Some(&torches))] {
        group.bench_function(format!("{name}_a_wall_edit_at_a_chunk_corner_64x64x4"), |b| {
            b.iter(|| black_box(remesh(editor.dungeon(), &dirty, baked)))
        });
    }
    let every = build_chunks(&d, &all_chunks(&d), &options()).expect("the dungeon meshes");
    group.bench_function("bake_every_chunk_64x64x4", |b| {
        b.iter(|| every.iter().map(|(_, mesh)| bake(mesh, Some(&torches))).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, torchlight);
criterion_main!(benches);
