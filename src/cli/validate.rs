//! `octile validate`: check a dungeon file and list every problem.

use std::path::PathBuf;
use std::process::ExitCode;

use super::stdout::outln;
use clap::Args;
use octile::format::FormatError;

/// Options of `octile validate`.
#[derive(Args)]
pub struct ValidateArgs {
    /// The dungeon file (JSON).
    file: PathBuf,
}

/// Runs `octile validate`: exit 0 when sound, 1 with every problem printed otherwise.
pub fn run(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let name = args.file.display();
    match octile::format::load(&args.file) {
        Ok(d) => {
            outln!(
                "{name}: ok ({} level(s), {}x{} octagons)",
                d.levels(),
                d.dims().octagon_cols(),
                d.dims().octagon_rows()
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(FormatError::Invalid { problems }) => {
            for p in &problems {
                outln!("{name}: {p}")?;
            }
            eprintln!("{name}: {} problem(s)", problems.len());
            Ok(ExitCode::FAILURE)
        }
        Err(e) => {
            outln!("{name}: {e}")?;
            Ok(ExitCode::FAILURE)
        }
    }
}
