//! `octile validate`: check a dungeon file and list every problem.

use std::path::PathBuf;
use std::process::ExitCode;

use super::stdout::{errln, outln};
use clap::Args;
use octile::dungeon::{Carve, Dungeon};
use octile::format::FormatError;
use octile::grid::Pos;

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
            // The flow proof, for a dungeon with locks, keys or mission doors: its first
            // failure (the rest follow from it often enough).
            if d.has_flow() {
                let verdict = octile::flow::verify(&d);
                outln!("{name}: {verdict}")?;
                if !verdict.holds() {
                    errln!("{name}: the flow does not hold ({} failure(s))", verdict.failures.len());
                    return Ok(ExitCode::FAILURE);
                }
            }
            let warnings = inert_seams(&d);
            for w in &warnings {
                outln!("{name}: warning: {w}")?;
            }
            let noted =
                if warnings.is_empty() { String::new() } else { format!(", {} warning(s)", warnings.len()) };
            outln!(
                "{name}: ok ({} level(s), {}x{} octagons{noted})",
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
            errln!("{name}: {} problem(s)", problems.len());
            Ok(ExitCode::FAILURE)
        }
        Err(e) => {
            outln!("{name}: {e}")?;
            Ok(ExitCode::FAILURE)
        }
    }
}

/// Edges whose state carves a passage (`open`, a door) between a carved cell and rock: the
/// file allows them, but the seam is carved only between two carved cells, so the export
/// still has the wall there. One line per edge, from its carved side.
pub(super) fn inert_seams(d: &Dungeon) -> Vec<String> {
    let reg = d.registry();
    let carved = |p: Pos| d.tile_def(p).is_ok_and(|t| t.carved);
    let mut found = Vec::new();
    for pos in d.cells().filter(|&p| carved(p)) {
        let Ok(walls) = d.dims().walls(pos.slot) else { continue };
        for &dir in walls {
            let Ok(Some((beyond, _))) = d.dims().wall_beyond(pos.slot, dir) else { continue };
            let other = Pos { level: pos.level, slot: beyond };
            let state = d.edge_state(pos, dir).ok().flatten().and_then(|s| reg.edge_def(s));
            if let Some(state) = state.filter(|s| s.carve != Carve::None && !carved(other)) {
                found.push(format!(
                    "{pos}: wall {} is {:?}, but {other} beyond it is rock, so the export keeps the wall \
                     (carve {other} or set the wall back to wall)",
                    dir.name(),
                    state.name
                ));
            }
        }
    }
    found
}
