//! `octile export`: write a dungeon file as glTF (`.glb`, or `.gltf` + `.bin`).

use std::path::PathBuf;
use std::process::ExitCode;

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
    super::files::refuse_overwriting_input(&args.file, &args.output, "-o")?;
    if args.output.extension().is_some_and(|e| e.eq_ignore_ascii_case("gltf")) {
        let bin = args.output.with_extension("bin");
        super::files::refuse_overwriting_input(&args.file, &bin, "-o (its .bin)")?;
    }
    let d = super::files::load(&args.file)?;
    args.gltf.write(&d, &args.output)?;
    Ok(ExitCode::SUCCESS)
}
