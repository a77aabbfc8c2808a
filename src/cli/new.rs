//! `octile new`: write a starter dungeon.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use octile::dungeon::{Dungeon, Fill};
use octile::geometry::Proportions;

use super::args::Size;
use super::stdout::{errln, out};

/// What the starter dungeon is filled with.
#[derive(Clone, Copy, ValueEnum)]
enum FillArg {
    /// Every cell solid rock, every edge a wall (`rock` names it too).
    #[value(alias = "rock")]
    Solid,
    /// Every cell floor, every edge open.
    Floor,
}

/// Options of `octile new`.
#[derive(Args)]
pub struct NewArgs {
    /// Octagon columns x rows (COLSxROWS).
    #[arg(long, value_name = "COLSxROWS", default_value = "10x10")]
    octagons: Size,
    /// Number of levels.
    #[arg(long, default_value_t = 1)]
    levels: u32,
    /// Fill every cell with solid rock or with floor (and open every edge).
    #[arg(long, value_enum, default_value = "solid")]
    fill: FillArg,
    /// Corner cut ratio, 0.112 to 0.421 (the short and long edges must fit a door; presets
    /// 0.15 cramped, 0.20, 0.29 spacious).
    #[arg(long, default_value_t = 0.20, value_parser = super::generate::cut_ratio)]
    cut: f64,
    /// Output file (JSON dungeon format); prints to standard output when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs `octile new`.
pub fn run(args: NewArgs) -> anyhow::Result<ExitCode> {
    let fill = match args.fill {
        FillArg::Solid => Fill::Solid,
        FillArg::Floor => Fill::Floor,
    };
    let proportions = Proportions::default().with_cut_ratio(args.cut);
    super::files::Files::new().output_opt("-o", args.output.as_deref()).check()?;
    let dungeon = Dungeon::new(args.octagons.cols, args.octagons.rows, args.levels, proportions, fill)?;
    match args.output {
        Some(path) => {
            octile::format::save(&dungeon, &path)?;
            errln!(
                "wrote {} ({}x{} octagons, {} level(s))",
                path.display(),
                args.octagons.cols,
                args.octagons.rows,
                dungeon.levels()
            );
        }
        None => out!("{}", octile::format::to_json(&dungeon))?,
    }
    Ok(ExitCode::SUCCESS)
}
