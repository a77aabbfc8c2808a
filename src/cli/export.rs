//! `octile export`: write a dungeon file as glTF (`.glb`, or `.gltf` + `.bin`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use super::gltf_out::GltfArgs;

/// Options of `octile export`.
#[derive(Args)]
pub struct ExportArgs {
    /// The dungeon file (JSON).
    file: PathBuf,
    /// Output file: `.glb` (binary, default) or `.gltf` (JSON plus a `.bin` beside it).
    #[arg(short, long)]
    output: PathBuf,
    #[command(flatten)]
    gltf: GltfArgs,
}

/// Runs `octile export`.
pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let d = octile::format::load(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    args.gltf.write(&d, &args.output)?;
    Ok(ExitCode::SUCCESS)
}
