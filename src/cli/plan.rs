//! `octile plan`: draw every level of a dungeon file side by side as SVG.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use octile::plan::{FovShade, PlanOptions, to_svg};
use octile::sight::{field_of_view_3d, visible_floor};

use super::args::PosArg;
use super::stdout::errln;

/// Options of `octile plan`.
#[derive(Args)]
pub struct PlanArgs {
    /// The dungeon file (JSON).
    file: PathBuf,
    /// Output SVG file.
    #[arg(short, long)]
    output: PathBuf,
    /// Pixels per metre (0.1 to 1000).
    #[arg(long, default_value_t = 3.0, value_parser = scale)]
    scale: f64,
    /// Refuse a dungeon whose SVG would be larger than this many bytes (estimated).
    #[arg(long, value_name = "BYTES", default_value_t = super::budget::DEFAULT_MAX_SVG_BYTES)]
    max_svg_bytes: u64,
    /// Shade what the cell `LEVEL,ROW,COL` sees: the visible part of the floor of every cell
    /// whose centre it sees.
    #[arg(long, value_name = "L,R,C")]
    fov: Option<PosArg>,
    /// With --fov: how far it sees, in metres (default: no limit).
    #[arg(long, value_name = "METRES", requires = "fov")]
    fov_radius: Option<f64>,
    /// With --fov: also outline the cells of other levels it sees across storeys (down an
    /// atrium, up a stair's shaft), eye point to eye point.
    #[arg(long, requires = "fov")]
    fov_storeys: bool,
}

/// `--scale`: [`octile::plan::MIN_SCALE`] to [`octile::plan::MAX_SCALE`] pixels per metre.
fn scale(s: &str) -> Result<f64, String> {
    super::args::number_in(s, octile::plan::MIN_SCALE, octile::plan::MAX_SCALE, "pixels per metre")
}

/// Runs `octile plan`.
pub fn run(args: PlanArgs) -> anyhow::Result<ExitCode> {
    super::files::Files::new().input("FILE", &args.file).output("-o", &args.output).check()?;
    let dungeon = super::files::load(&args.file)?;
    super::budget::check_svg_bytes(&dungeon, 0, args.max_svg_bytes)?;
    let fov = match args.fov {
        Some(PosArg(viewer)) => {
            let radius = args.fov_radius.unwrap_or(f64::MAX);
            let floors = visible_floor(&dungeon, viewer, radius).context("bad --fov or --fov-radius")?;
            let eye = dungeon.layout().center(viewer.slot);
            let across = if args.fov_storeys {
                let seen = field_of_view_3d(&dungeon, viewer, radius).context("bad --fov or --fov-radius")?;
                seen.iter().filter(|p| p.level != viewer.level).collect()
            } else {
                Vec::new()
            };
            Some(FovShade { level: viewer.level, eye, floors, across })
        }
        None => None,
    };
    // The shading is counted once it is known, before anything is drawn.
    let shade = fov.as_ref().map_or(0, octile::plan::fov_svg_bytes);
    super::budget::check_svg_bytes(&dungeon, shade, args.max_svg_bytes)?;
    let svg = to_svg(&dungeon, &PlanOptions { scale: args.scale, fov, ..PlanOptions::default() });
    octile::io::write_atomic(&args.output, svg.as_bytes())?;
    errln!("wrote {}", args.output.display());
    Ok(ExitCode::SUCCESS)
}
