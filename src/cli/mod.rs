//! Command-line interface: parses arguments and dispatches to one file per subcommand.

mod args;
mod info;
mod new;
mod validate;
#[cfg(feature = "viewer")]
mod view;

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
    /// Open the walkthrough viewer, or render a screenshot with --screenshot.
    #[cfg(feature = "viewer")]
    View(view::ViewArgs),
}

/// Parses the command line, runs the command, and turns errors into a message and exit 1.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::New(a) => new::run(a),
        Command::Info(a) => info::run(a),
        Command::Validate(a) => validate::run(a),
        #[cfg(feature = "viewer")]
        Command::View(a) => view::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
