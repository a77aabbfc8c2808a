//! Command-line interface: parses arguments and dispatches to one file per subcommand.

mod args;
mod export;
mod generate;
mod gltf_out;
mod info;
mod new;
mod path;
mod plan;
mod plan_text;
mod progress;
mod validate;
#[cfg(feature = "viewer")]
mod view;
mod weights;
mod wfc;

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
    /// Draw every level of a dungeon file side by side as SVG.
    Plan(plan::PlanArgs),
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
        Command::Export(a) => export::run(a),
        Command::Path(a) => path::run(a),
        Command::Wfc(a) => wfc::run(a),
        Command::Generate(a) => generate::run(a),
        Command::Plan(a) => plan::run(a),
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
