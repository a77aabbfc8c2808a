//! Command-line interface: parses arguments and dispatches to one file per subcommand.

mod args;
mod budget;
mod edit;
mod export;
mod files;
mod flow;
mod generate;
mod gltf_out;
mod info;
mod new;
mod path;
mod plan;
mod plan_text;
mod progress;
mod sight;
mod stdout;
mod validate;
#[cfg(feature = "viewer")]
mod view;
mod weights;
mod wfc;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Build 3D multi-level dungeons on the octile grid and export them as glTF.
#[derive(Parser)]
#[command(name = "octile", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write a starter dungeon file (all solid, or all floor with every edge open).
    New(new::NewArgs),
    /// Print dimensions, counts and proportions of a dungeon file.
    Info(info::InfoArgs),
    /// Check a dungeon file; print every problem and exit non-zero if there is any.
    Validate(validate::ValidateArgs),
    /// Export a dungeon file as glTF: `.glb`, or `.gltf` + `.bin`.
    Export(export::ExportArgs),
    /// Find the cheapest route between two cells and print its cost and steps.
    Path(path::PathArgs),
    /// Solve one grid with a WFC tile set and print it (square17: one hex mask per cell).
    Wfc(wfc::WfcArgs),
    /// Generate a connected multi-level dungeon.
    Generate(generate::GenerateArgs),
    /// Print a built-in room-graph spec to start from (--example), or check one (--check).
    Flow(flow::FlowArgs),
    /// Draw every level of a dungeon file side by side as SVG.
    Plan(plan::PlanArgs),
    /// Whether two cells see each other (--to), or the cells one sees (--radius).
    Sight(sight::SightArgs),
    /// Edit a dungeon file with commands (cycle a wall, paint, pin, re-solve, undo, ...).
    Edit(edit::EditArgs),
    /// Open the walkthrough viewer, or render a screenshot with --screenshot.
    #[cfg(feature = "viewer")]
    View(view::ViewArgs),
}

/// Exit status after Ctrl+C (SIGINT): 128 + 2, as shells report a process the signal ended.
const INTERRUPTED: i32 = 130;

/// Exit status when standard output is a pipe whose reader is gone (`octile wfc | head`):
/// 128 + 13 (SIGPIPE), what shells report for a tool the closed pipe ended, with no message.
const CLOSED_PIPE: u8 = 141;

/// Parses the command line, runs the command, and turns errors into a message and exit 1.
/// Ctrl+C removes the temporary files of outputs not yet in place, then exits 130. A closed
/// standard output ends the command quietly with [`CLOSED_PIPE`]; a full one is an error.
pub fn run() -> ExitCode {
    // Without the handler Ctrl+C still stops the command, only leaving temporaries behind;
    // failing to install it (a handler already set) is no reason to refuse to run.
    let _ = ctrlc::set_handler(|| {
        stdout::errln!("interrupted");
        // The registry stays locked until the process is gone: no write makes a new
        // temporary between the removal and the exit.
        let _no_new_temporaries = octile::io::remove_temporaries();
        std::process::exit(INTERRUPTED)
    });
    let cli = Cli::parse();
    let result = match cli.command {
        Command::New(a) => new::run(a),
        Command::Info(a) => info::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Export(a) => export::run(a),
        Command::Path(a) => path::run(a),
        Command::Wfc(a) => wfc::run(a),
        Command::Generate(a) => generate::run(a),
        Command::Flow(a) => flow::run(a),
        Command::Plan(a) => plan::run(a),
        Command::Sight(a) => sight::run(a),
        Command::Edit(a) => edit::run(a),
        #[cfg(feature = "viewer")]
        Command::View(a) => view::run(a),
    };
    // What is still buffered is written now, so that its failure is seen.
    let result = result.and_then(|code| stdout::flush().map(|()| code).map_err(anyhow::Error::from));
    match result {
        Ok(code) => code,
        Err(e)
            if e.downcast_ref::<stdout::StdoutError>().is_some_and(stdout::StdoutError::is_closed_pipe) =>
        {
            ExitCode::from(CLOSED_PIPE)
        }
        Err(e) => {
            // Not eprintln!: it panics when standard error is closed too.
            let _ = writeln!(std::io::stderr(), "error: {}", report(&e));
            ExitCode::FAILURE
        }
    }
}

/// `error` and its causes, joined by `: `, each said once: a cause whose message its parent's
/// already ends with (an error that puts its cause in its own message and also returns it as
/// its source) is left out.
fn report(error: &anyhow::Error) -> String {
    let mut text = String::new();
    let mut parent = String::new();
    for cause in error.chain() {
        let message = cause.to_string();
        if parent.ends_with(&message) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&message);
        parent = message;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error whose message ends with its cause's and which also returns the cause.
    #[derive(Debug, thiserror::Error)]
    #[error("level 3: {source}")]
    struct Both {
        source: std::io::Error,
    }

    #[test]
    fn each_cause_is_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = anyhow::Error::from(Both { source: io }).context("reading d.json");
        assert_eq!(format!("{e:#}"), "reading d.json: level 3: no such file: no such file");
        assert_eq!(report(&e), "reading d.json: level 3: no such file");
        let plain = anyhow::anyhow!("plain").context("outer");
        assert_eq!(report(&plain), "outer: plain");
    }
}
