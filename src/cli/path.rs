//! `octile path`: the cheapest route between two cells, as text or JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use octile::path::{AStar, PathGraph, PathRules};
use serde_json::json;

use super::args::PosArg;

/// Options of `octile path`.
#[derive(Args)]
pub struct PathArgs {
    /// The dungeon file (JSON).
    file: PathBuf,
    /// Start cell, `LEVEL,ROW,COL` in slots.
    #[arg(long)]
    from: PosArg,
    /// Goal cell, `LEVEL,ROW,COL` in slots.
    #[arg(long)]
    to: PosArg,
    /// Print `{"cost": N, "steps": [[l, r, c], ...]}` instead of text.
    #[arg(long)]
    json: bool,
    /// Let the route open doors (follow `passable` instead of `walkable`).
    #[arg(long)]
    open_doors: bool,
}

/// Runs `octile path`; exit 1 with a message when there is no route.
pub fn run(args: PathArgs) -> anyhow::Result<ExitCode> {
    let d = octile::format::load(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let (from, to) = (args.from.0, args.to.0);
    let graph = PathGraph::new(&d).context("building the path graph")?;
    let mut astar = AStar::new();
    let rules = PathRules { open_doors: args.open_doors };
    let route = astar.find(&graph, from, to, &rules).context("bad --from or --to")?;
    let Some(route) = route else {
        let doors = PathRules { open_doors: true };
        let hint = if graph.node(from)?.is_none() {
            format!(": {from} is not floor")
        } else if graph.node(to)?.is_none() {
            format!(": {to} is not floor")
        } else if !args.open_doors && astar.find(&graph, from, to, &doors)?.is_some() {
            " (closed doors block it; try --open-doors)".to_string()
        } else {
            String::new()
        };
        eprintln!("no path from {from} to {to}{hint}");
        return Ok(ExitCode::FAILURE);
    };
    if args.json {
        let steps: Vec<[u32; 3]> =
            route.steps.iter().map(|p| [u32::from(p.level), p.slot.row, p.slot.col]).collect();
        println!("{}", json!({ "cost": route.cost, "steps": steps }));
    } else {
        println!(
            "cost {} ({:.3} long steps), {} steps from {from} to {to}",
            route.cost,
            route.cost as f64 / 1000.0,
            route.steps.len() - 1
        );
        for p in &route.steps {
            println!("  {}", p);
        }
    }
    Ok(ExitCode::SUCCESS)
}
