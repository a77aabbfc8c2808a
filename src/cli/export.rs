//! `octile export`: write a dungeon file as glTF (`.glb`, or `.gltf` + `.bin`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::gltf_out::GltfArgs;
use super::stdout::outln;

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
    let files = super::files::Files::new().input("FILE", &args.file);
    args.gltf.outputs(files, &args.output).check()?;
    let d = super::files::load(&args.file)?;
    let summary = args.gltf.write(&d, &args.output)?;
    outln!("{summary}")?;
    Ok(ExitCode::SUCCESS)
}
