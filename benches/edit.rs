//! Editing (issue 11) on a generated 64x64-octagon, 4-level dungeon, CPU side only (no GPU
//! upload): one wall cycle with the re-mesh of its dirty chunks, a 9-cell paint stroke with
//! its re-mesh, a re-solve of radius 3 on a 64x64 level with its re-mesh, beside a full
//! mesh rebuild of the same dungeon (so the ratio shows what incremental meshing buys).
//! The connectivity report (`Editor::connectivity`, computed on demand) is timed apart.
//!
//! Run: `cargo bench --no-default-features --features export --bench edit` (set
//! `OCTILE_BENCH_QUICK=1` to use 16x16 octagons, as CI's `cargo test --bench '*'` does).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use octile::dungeon::{Dungeon, Registry};
use octile::edit::{Applied, Command, Editor};
use octile::generate::{GenerateOptions, generate};
use octile::grid::{Direction, Pos, SlotKind};
use octile::mesh::chunk::{build_chunks, live_options};
use octile::mesh::{self, MeshOptions};

/// Octagons per side: 64, or 16 with `OCTILE_BENCH_QUICK`.
fn side() -> u32 {
    if std::env::var("OCTILE_BENCH_QUICK").is_ok() { 16 } else { 64 }
}

fn dungeon(levels: u32) -> Dungeon {
    let n = side();
    let options = GenerateOptions { seed: 11, levels, cols: n, rows: n, ..Default::default() };
    generate(&options, &mut |_| {}).expect("the bench dungeon generates")
}

/// The viewer's live-mesh options ([`live_options`]: no meshopt reordering), no lightmap
/// UVs; the full rebuilds beside use the same.
fn options() -> MeshOptions {
    live_options(&MeshOptions { lightmap_uv: false, ..MeshOptions::default() })
}

/// Re-meshes the chunks an edit dirtied (together: each level read once); returns the
/// triangles made.
fn remesh(d: &Dungeon, done: &Applied) -> usize {
    let built = build_chunks(d, &done.dirty, &options()).expect("the chunks of an edited dungeon mesh");
    built.iter().flat_map(|(_, m)| &m.primitives).map(|(_, p)| p.indices.len() / 3).sum()
}

/// The east wall of the floor octagon of level 1 nearest `(row, col)`.
fn wall_near(d: &Dungeon, row: u32, col: u32) -> (Pos, Direction) {
    d.cells()
        .filter(|p| {
            p.level == 1 && p.slot.kind() == SlotKind::Octagon && d.tile_def(*p).is_ok_and(|t| t.carved)
        })
        .filter(|p| d.edge_state(*p, Direction::E).is_ok_and(|e| e.is_some()))
        .min_by_key(|p| p.slot.row.abs_diff(row) + p.slot.col.abs_diff(col))
        .map(|p| (p, Direction::E))
        .expect("a floor octagon")
}

fn edit(c: &mut Criterion) {
    let d = dungeon(4);
    let mut group = c.benchmark_group("edit");
    group.sample_size(20);
    // A wall inside one chunk (slots 4..12 of a 16-slot chunk: one chunk to re-mesh), and
    // one at the corner of four chunks (the worst case: its two cells and its seam lie in two).
    let (pos, dir) = wall_near(&d, 40, 40);
    for (name, (pos, dir)) in [("inside_a_chunk", (pos, dir)), ("at_a_chunk_corner", wall_near(&d, 47, 46))] {
        let mut editor = Editor::new(d.clone());
        group.bench_function(format!("cycle_wall_and_remesh_{name}_64x64x4"), |b| {
            b.iter(|| {
                let done = editor.apply(&Command::Cycle { pos, dir }).expect("a wall cycles");
                black_box(remesh(editor.dungeon(), &done))
            });
        });
    }
    let editor = Editor::new(d.clone());
    group.bench_function("connectivity_report_64x64x4", |b| {
        b.iter_batched(|| editor.clone(), |e| black_box(e.connectivity()), BatchSize::LargeInput);
    });
    // Nine octagons in a row, painted floor and rock by turns (each stroke changes them).
    let start = (2 * side() - 2).saturating_sub(18).min(36);
    let stroke: Vec<Pos> = (0..9).map(|i| Pos::new(2, pos.slot.row, start + 2 * i)).collect();
    let mut editor = Editor::new(d.clone());
    let mut turn = 0u32;
    group.bench_function("paint_9_cells_and_remesh_64x64x4", |b| {
        b.iter(|| {
            turn += 1;
            let tile = if turn.is_multiple_of(2) { Registry::SOLID } else { Registry::FLOOR };
            let done =
                editor.apply(&Command::Paint { cells: stroke.clone(), tile }).expect("a stroke paints");
            black_box(remesh(editor.dungeon(), &done))
        });
    });
    group.bench_function("full_rebuild_64x64x4", |b| {
        b.iter(|| black_box(mesh::build(&d, &options()).expect("the dungeon meshes")));
    });
    let flat = dungeon(1);
    let mid = (2 * side() - 2).min(40);
    let centre = Pos::new(0, mid, mid);
    let editor = Editor::new(flat.clone());
    group.bench_function("resolve_radius_3_and_remesh_64x64", |b| {
        b.iter_batched(
            || editor.clone(),
            |mut e| {
                let done = e.apply(&Command::Resolve { pos: centre, radius: 3 }).expect("a re-solve");
                black_box(remesh(e.dungeon(), &done))
            },
            BatchSize::LargeInput,
        );
    });
    group.bench_function("full_rebuild_64x64", |b| {
        b.iter(|| black_box(mesh::build(&flat, &options()).expect("the level meshes")));
    });
    group.finish();
}

criterion_group!(benches, edit);
criterion_main!(benches);
