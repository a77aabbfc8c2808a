//! `octile wfc`: solve one grid with a tile set and print it.

use std::process::ExitCode;

use clap::{Args, ValueEnum};
use octile::wfc::{octile as octile_set, square17};

use super::args::Size;
use super::progress::Bar;
use super::stdout::out;
use super::weights::WeightArgs;

/// The tile sets `octile wfc` can solve.
#[derive(Clone, Copy, ValueEnum)]
enum TileSetArg {
    /// The tutorial set on a square grid: solid plus 16 floor masks.
    Square17,
    /// Octagons (8-bit masks) and connectors (4-bit masks) on one octile level.
    Octile,
}

/// Options of `octile wfc`.
#[derive(Args)]
pub struct WfcArgs {
    /// Tile set.
    #[arg(long, value_enum, default_value = "square17")]
    tileset: TileSetArg,
    /// Grid size COLSxROWS (cells for square17, octagons for octile).
    #[arg(long, value_name = "COLSxROWS", default_value = "32x32")]
    size: Size,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    weights: WeightArgs,
}

/// Runs `octile wfc`: square17 prints one line per row (`#` solid, else the mask as one hex
/// digit); octile prints the level in the dungeon file's plan symbols.
pub fn run(args: WfcArgs) -> anyhow::Result<ExitCode> {
    let weights = args.weights;
    solve(args).map_err(|e| weights.explain(e))
}

/// Solves and prints the grid.
fn solve(args: WfcArgs) -> anyhow::Result<ExitCode> {
    let mut bar = Bar::new("solving");
    match args.tileset {
        TileSetArg::Square17 => {
            let w = args.weights.square17()?;
            let grid = square17::generate(args.size.cols, args.size.rows, &w, args.seed, &mut |p| {
                bar.update(p.collapsed as u64, p.total as u64)
            })?;
            bar.finish();
            out!("{}", grid.render())?;
        }
        TileSetArg::Octile => {
            // The level is generated as `octile generate` makes one, with an entrance and an
            // exit; say so in wfc's own terms rather than generate's (`--octagons`, the exit).
            if u64::from(args.size.cols) * u64::from(args.size.rows) < 2 {
                anyhow::bail!(
                    "--size {}x{}: the octile tile set needs at least 2 octagons (the level it solves \
                     has an entrance and an exit on different octagons)",
                    args.size.cols,
                    args.size.rows
                );
            }
            let weights = args.weights.octile(octile_set::Weights::default());
            let options = octile::generate::GenerateOptions {
                seed: args.seed,
                levels: 1,
                cols: args.size.cols,
                rows: args.size.rows,
                weights,
                loops: 0,
                ..Default::default()
            };
            let dungeon = octile::generate::generate(&options, &mut |p| {
                if let octile::generate::Progress::Solving { solve, .. } = p {
                    bar.update(solve.collapsed as u64, solve.total as u64);
                }
            })?;
            bar.finish();
            out!("{}", super::plan_text::level_text(&dungeon, 0))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
