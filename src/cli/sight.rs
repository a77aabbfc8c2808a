//! `octile sight`: whether two cells see each other, or the cells visible from one.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use octile::grid::Pos;
use octile::sight::{SightError, field_of_view, field_of_view_3d, line_of_sight};
use serde_json::json;

use super::args::PosArg;
use super::stdout::{errln, out};

/// Exit status for a bad `--from`, `--to` or `--radius` (not a cell of the dungeon, a
/// negative radius). The same as clap's status for a malformed argument.
const BAD_INPUT: u8 = 2;

/// Options of `octile sight`.
#[derive(Args)]
#[command(after_help = "A cell is visible when its centre is, from the viewer's centre: the straight
segment between the two centres stays in carved space that passes sight (walls, closed doors,
pillars and rock block; grazing a corner does not), and with --radius the centre is at most
that many metres away. Cells on different levels see each other through the carved volume
of every level, between their eye points (1.6 m over each floor): down an atrium, up a
stair's shaft, over a railing; --storeys gives --radius that reach, measured in 3D.

Exit status:
  0  the answer was printed (seen or not)
  1  the file could not be read or is not a valid dungeon, or sight cannot model it
  2  a flag is malformed or missing, a position is outside the dungeon, on the seam
     between two octagons (not a cell), or the radius is negative")]
pub struct SightArgs {
    /// The dungeon file (JSON).
    file: PathBuf,
    /// The viewer's cell, `LEVEL,ROW,COL` in slots.
    #[arg(long)]
    from: PosArg,
    /// The other cell, `LEVEL,ROW,COL`: print whether the two see each other.
    #[arg(long, required_unless_present = "radius", conflicts_with = "radius")]
    to: Option<PosArg>,
    /// Print every cell visible from --from within this many metres.
    #[arg(long, value_name = "METRES")]
    radius: Option<f64>,
    /// With --radius: the cells of every level in sight (through atria, voids and stair
    /// shafts), not only --from's level.
    #[arg(long, requires = "radius")]
    storeys: bool,
    /// Print JSON: `{"from", "to", "visible"}` or `{"from", "radius", "cells": [[l, r, c], ...]}`.
    #[arg(long)]
    json: bool,
}

/// Runs `octile sight`.
pub fn run(args: SightArgs) -> anyhow::Result<ExitCode> {
    let d = super::files::load(&args.file)?;
    let from = args.from.0;
    let flags = [("--from", Some(from)), ("--to", args.to.map(|p| p.0))];
    for (flag, pos) in flags {
        if let Some(Err(e)) = pos.map(|p| super::args::check_cell(&d, p)) {
            errln!("error: bad {flag}: {e}");
            return Ok(ExitCode::from(BAD_INPUT));
        }
    }
    let answer = match (args.to, args.radius) {
        (Some(to), _) => line_of_sight(&d, from, to.0).map(|seen| pair(from, to.0, seen, args.json)),
        (None, Some(radius)) if args.storeys => field_of_view_3d(&d, from, radius).map(|seen| {
            let cells: Vec<Pos> = seen.iter().collect();
            cells_text(from, radius, &cells, args.json)
        }),
        (None, Some(radius)) => field_of_view(&d, from, radius).map(|seen| {
            let cells: Vec<Pos> = seen.iter().map(|slot| Pos { level: seen.level(), slot }).collect();
            cells_text(from, radius, &cells, args.json)
        }),
        (None, None) => anyhow::bail!("give --to L,R,C or --radius METRES"),
    };
    match answer {
        Ok(text) => {
            out!("{text}")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ SightError::TightSpacing) => Err(e.into()),
        Err(e) => {
            errln!("error: {e}");
            Ok(ExitCode::from(BAD_INPUT))
        }
    }
}

fn triple(p: Pos) -> [u32; 3] {
    [u32::from(p.level), p.slot.row, p.slot.col]
}

fn pair(from: Pos, to: Pos, seen: bool, json: bool) -> String {
    if json {
        format!("{}\n", json!({ "from": triple(from), "to": triple(to), "visible": seen }))
    } else {
        format!("{from} {} {to}\n", if seen { "sees" } else { "does not see" })
    }
}

fn cells_text(from: Pos, radius: f64, cells: &[Pos], json: bool) -> String {
    if json {
        let cells: Vec<[u32; 3]> = cells.iter().map(|&p| triple(p)).collect();
        return format!("{}\n", json!({ "from": triple(from), "radius": radius, "cells": cells }));
    }
    let mut out = format!("{} cells visible from {from} within {radius} m\n", cells.len());
    for p in cells {
        out.push_str(&format!("  {p}\n"));
    }
    out
}
