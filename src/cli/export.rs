//! `octile export`: write a dungeon file as glTF (`.glb`, or `.gltf` + `.bin`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use octile::export::{ExportOptions, export};
use octile::mesh::MeshOptions;

/// Options of `octile export`.
#[derive(Args)]
pub struct ExportArgs {
    /// The dungeon file (JSON).
    file: PathBuf,
    /// Output file: `.glb` (binary, default) or `.gltf` (JSON plus a `.bin` beside it).
    #[arg(short, long)]
    output: PathBuf,
    /// World metres covered by one texture repeat (UV0 = metres / this).
    #[arg(long, default_value_t = MeshOptions::default().texture_size)]
    texture_size: f64,
    /// Leave out TEXCOORD_1 (lightmap UVs).
    #[arg(long)]
    no_lightmap_uv: bool,
    /// Add a `Level_NN_Collider` node (positions only) under each level.
    #[arg(long)]
    colliders: bool,
    /// Write TANGENT attributes (for normal maps).
    #[arg(long)]
    tangents: bool,
}

/// Runs `octile export`.
pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let d = octile::format::load(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let options = ExportOptions {
        mesh: MeshOptions { texture_size: args.texture_size, ..MeshOptions::default() },
        lightmap_uv: !args.no_lightmap_uv,
        route: None,
        colliders: args.colliders,
        tangents: args.tangents,
    };
    let summary =
        export(&d, &args.output, &options).with_context(|| format!("exporting {}", args.file.display()))?;
    let files: Vec<String> = summary.files.iter().map(|p| p.display().to_string()).collect();
    println!(
        "{}: {} level(s), {} triangles, {} vertices, {} bytes",
        files.join(" + "),
        summary.levels,
        summary.triangles,
        summary.vertices,
        summary.bytes
    );
    Ok(ExitCode::SUCCESS)
}
