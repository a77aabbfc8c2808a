//! `octile path`: the cheapest route between two cells, as text or JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use octile::grid::Pos;
use octile::path::{AStar, NodeId, PathError, PathGraph, PathRules};
use serde_json::json;

use super::args::PosArg;
use super::stdout::{errln, outln};

/// Exit status when `--from` or `--to` is not a cell of the dungeon (off its levels, rows
/// or columns, or on a Void slot). The same as clap's status for a malformed argument.
const BAD_POSITION: u8 = 2;

/// Exit status when both positions are cells but no route joins them (including when
/// either is not floor).
const NO_ROUTE: u8 = 3;

/// Options of `octile path`.
#[derive(Args)]
#[command(after_help = "Exit status:
  0  a route was found and printed
  1  the file could not be read or is not a valid dungeon
  2  --from or --to is malformed, outside the dungeon, or on the seam between two
     octagons (not a cell)
  3  no route: an end is not floor, or nothing joins them (with --closed-doors the
     message says when opening doors would find one)

The route opens closed doors on its way, as a walker would; --closed-doors keeps to what is
walkable now (a closed door is passable, not walkable).")]
pub struct PathArgs {
    /// The dungeon file (JSON).
    file: PathBuf,
    /// Start cell, `LEVEL,ROW,COL` in slots.
    #[arg(long)]
    from: PosArg,
    /// Goal cell, `LEVEL,ROW,COL` in slots.
    #[arg(long)]
    to: PosArg,
    /// Refuse a dungeon whose path graph would have more nodes than this (carved cells).
    #[arg(long, value_name = "N", default_value_t = super::budget::DEFAULT_MAX_NODES)]
    max_nodes: u64,
    /// Print `{"cost": N, "steps": [[l, r, c], ...]}` instead of text.
    #[arg(long)]
    json: bool,
    /// Keep closed doors shut: follow only what is walkable now, instead of opening doors on
    /// the way (the default follows `passable`).
    #[arg(long)]
    closed_doors: bool,
    /// The default (the route opens doors); kept so that older scripts still run.
    #[arg(long, hide = true, conflicts_with = "closed_doors")]
    open_doors: bool,
}

/// Runs `octile path`: prints the route, or a message and the exit status of
/// [`BAD_POSITION`] or [`NO_ROUTE`]; other failures are errors (exit 1).
pub fn run(args: PathArgs) -> anyhow::Result<ExitCode> {
    let d = super::files::load(&args.file)?;
    let (from, to) = (args.from.0, args.to.0);
    for (flag, pos) in [("--from", from), ("--to", to)] {
        if let Err(e) = super::args::check_cell(&d, pos) {
            errln!("error: bad {flag}: {e}");
            return Ok(ExitCode::from(BAD_POSITION));
        }
    }
    super::budget::check_path_nodes(&d, args.max_nodes)?;
    let graph = PathGraph::new(&d).context("building the path graph")?;
    let (a, b) = match ends(&graph, from, to) {
        Ok(ends) => ends,
        Err((flag, e)) => {
            errln!("error: bad {flag}: {e}");
            return Ok(ExitCode::from(BAD_POSITION));
        }
    };
    let mut astar = AStar::new();
    // `--open-doors` is the default and conflicts with `--closed-doors`.
    let rules = PathRules { open_doors: args.open_doors || !args.closed_doors };
    let route = a.zip(b).and_then(|(a, b)| astar.search(&graph, a, b, &rules));
    let Some(route) = route else {
        let doors = PathRules { open_doors: true };
        let hint = match (a, b) {
            (None, _) => format!(": {from} is not floor"),
            (_, None) => format!(": {to} is not floor"),
            (Some(a), Some(b)) if args.closed_doors && astar.search(&graph, a, b, &doors).is_some() => {
                " (closed doors block it; leave out --closed-doors to open them)".to_string()
            }
            _ => String::new(),
        };
        errln!("no path from {from} to {to}{hint}");
        return Ok(ExitCode::from(NO_ROUTE));
    };
    if args.json {
        let steps: Vec<[u32; 3]> =
            route.steps.iter().map(|p| [u32::from(p.level), p.slot.row, p.slot.col]).collect();
        outln!("{}", json!({ "cost": route.cost, "steps": steps }))?;
    } else {
        outln!(
            "cost {} ({:.3} long steps), {} steps from {from} to {to}",
            route.cost,
            route.cost as f64 / 1000.0,
            route.steps.len() - 1
        )?;
        for p in &route.steps {
            outln!("  {}", p)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The nodes at the two ends of a route, `None` where the cell is not floor.
type Ends = (Option<NodeId>, Option<NodeId>);

/// The nodes at `from` and `to`, or the flag and the error of the first that is not a cell
/// of the dungeon.
fn ends(graph: &PathGraph, from: Pos, to: Pos) -> Result<Ends, (&'static str, PathError)> {
    let a = graph.node(from).map_err(|e| ("--from", e))?;
    let b = graph.node(to).map_err(|e| ("--to", e))?;
    Ok((a, b))
}
