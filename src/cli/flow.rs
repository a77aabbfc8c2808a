//! `octile flow`: print a built-in grammar's room-graph spec to start from, or check a spec.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use octile::flow::{FlowSpec, Grammar};

use super::args::Size;
use super::stdout::{out, outln};

/// Options of `octile flow`.
#[derive(Args)]
pub struct FlowArgs {
    /// Print the spec a grammar writes (edit it and pass it to `generate --flow`).
    #[arg(long, required_unless_present = "check", conflicts_with = "check")]
    example: bool,
    /// Check a spec file: print its rooms and connections, or what is wrong.
    #[arg(long, value_name = "SPEC.json")]
    check: Option<PathBuf>,
    /// The grammar of `--example`: default, linear, hub or cyclic.
    #[arg(long, default_value = "default")]
    grammar: Grammar,
    /// The size `--example` writes for (COLSxROWS octagons).
    #[arg(long, value_name = "COLSxROWS", default_value = "24x24")]
    octagons: Size,
    /// The levels `--example` writes for.
    #[arg(long, default_value_t = 2)]
    levels: u32,
    /// The seed `--example` draws from.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Runs `octile flow`.
pub fn run(args: FlowArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.check {
        let text = octile::io::read_limited(path, octile::io::MAX_INPUT_BYTES)
            .with_context(|| format!("cannot read the flow spec {}", path.display()))?;
        let spec = FlowSpec::from_json(&text).with_context(|| format!("reading {}", path.display()))?;
        let flow = spec.check(&octile::geometry::Proportions::default())?;
        outln!(
            "{}: {} rooms on {} level(s), {} connections ({} from cycles)",
            path.display(),
            flow.rooms.len(),
            flow.level_count(),
            flow.connections.len(),
            flow.connections.len() - spec.connections.len()
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let (cols, rows) = (args.octagons.cols, args.octagons.rows);
    let stairs = octile::generate::GenerateOptions::stairs_for_area(cols, rows);
    let Some(spec) = octile::flow::write(args.grammar, cols, rows, args.levels, stairs, args.seed) else {
        anyhow::bail!(
            "--octagons {cols}x{rows}: a grammar writes rooms on grids of at least {0}x{0} octagons",
            octile::flow::MIN_SIDE
        );
    };
    out!("{}", spec.to_json())?;
    Ok(ExitCode::SUCCESS)
}
