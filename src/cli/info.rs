//! `octile info`: dimensions, counts and proportions of a dungeon, for a person or as JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use super::stdout::outln;
use clap::Args;
use octile::dungeon::{Dungeon, RoomRole, SizeClass};
use octile::grid::SlotKind;
use octile::rooms::{RoomGraph, RoomKind};
use serde_json::json;

/// Options of `octile info`.
#[derive(Args)]
pub struct InfoArgs {
    /// The dungeon file (JSON).
    file: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Print the mission instead: rooms by role, the critical path (rooms, metres, locks),
    /// cycles, dead ends, keys and locks, levels crossed, and the flow proof's verdict.
    #[arg(long)]
    flow: bool,
    /// Refuse a dungeon of more carved cells than this (the room graph's size).
    #[arg(long, value_name = "N", default_value_t = super::budget::DEFAULT_MAX_CELLS)]
    max_cells: u64,
}

/// Counts over all levels of a dungeon.
struct Counts {
    octagons: usize,
    connectors: usize,
    floor_cells: usize,
    stairs: usize,
    regions: usize,
    rooms: usize,
    corridors: usize,
    portals: usize,
}

fn count(d: &Dungeon, graph: &RoomGraph) -> Counts {
    let mut c = Counts {
        octagons: 0,
        connectors: 0,
        floor_cells: 0,
        stairs: 0,
        regions: 0,
        rooms: 0,
        corridors: 0,
        portals: graph.portals().len(),
    };
    for pos in d.cells() {
        match pos.slot.kind() {
            SlotKind::Octagon => c.octagons += 1,
            _ => c.connectors += 1,
        }
        let def = d.tile_def(pos).expect("invariant: cells() yields cells");
        c.floor_cells += usize::from(def.carved);
        c.stairs += usize::from(def.stair);
    }
    c.regions = octile::path::dungeon_regions(d).count();
    for room in graph.rooms() {
        match room.kind {
            RoomKind::Room => c.rooms += 1,
            RoomKind::Corridor => c.corridors += 1,
        }
    }
    c
}

/// Stairs listed in the text at most; the rest are counted.
const STAIRS_LISTED: usize = 12;

/// The stairs' feet and where each leads: `level 0, row 4, col 4 (up to level 1); ...`.
fn stair_list(d: &Dungeon) -> String {
    let stairs = d.stairs();
    if stairs.is_empty() {
        return "none".into();
    }
    let mut text: Vec<String> = stairs
        .iter()
        .take(STAIRS_LISTED)
        .map(|s| format!("{} (up to level {})", s.foot, s.foot.level + 1))
        .collect();
    if stairs.len() > STAIRS_LISTED {
        text.push(format!("and {} more", stairs.len() - STAIRS_LISTED));
    }
    text.join("; ")
}

/// The room table in one line: `12 rooms (entrance 1, goal 1, ...; small 4, medium 8), 14 passages`.
fn room_table_line(d: &Dungeon) -> String {
    let count = |f: &dyn Fn(&octile::dungeon::Room) -> bool| d.rooms().iter().filter(|r| f(r)).count();
    let roles: Vec<String> = RoomRole::ALL
        .iter()
        .map(|&role| (role, count(&|r| r.role == role)))
        .filter(|&(_, n)| n > 0)
        .map(|(role, n)| format!("{role} {n}"))
        .collect();
    let sizes: Vec<String> = SizeClass::ALL
        .iter()
        .map(|&size| (size, count(&|r| r.size == size)))
        .filter(|&(_, n)| n > 0)
        .map(|(size, n)| format!("{size} {n}"))
        .collect();
    format!(
        "{} room(s) ({}; {}), {} passage(s)",
        d.rooms().len(),
        roles.join(", "),
        sizes.join(", "),
        d.passages().len()
    )
}

/// The columns through storeys: void cells, railings, drops (each drop as
/// `[level, row, col, dir, landing level, row, col]`) and ramps (each as `[level, row, col,
/// dir, top level, row, col]`, foot then top), or `None` when the dungeon has no void.
fn columns_json(d: &Dungeon) -> Option<serde_json::Value> {
    let voids = d.cells().filter(|&p| d.is_void(p)).count();
    if voids == 0 {
        return None;
    }
    let railings: usize = (0..d.levels()).map(|l| d.railing_edges(l).len()).sum();
    let drops: Vec<serde_json::Value> = (0..d.levels())
        .flat_map(|l| d.drops(l))
        .map(|drop| {
            let ((from, dir), to) = (drop.from, drop.landing);
            json!([from.level, from.slot.row, from.slot.col, dir.name(), to.level, to.slot.row, to.slot.col])
        })
        .collect();
    let ramps: Vec<serde_json::Value> = d
        .ramps()
        .iter()
        .filter_map(|r| {
            let top = d.ramp_cells(r)?.top;
            Some(json!([
                r.level,
                r.foot.row,
                r.foot.col,
                r.dir.name(),
                top.level,
                top.slot.row,
                top.slot.col
            ]))
        })
        .collect();
    Some(json!({ "void_cells": voids, "railings": railings, "drops": drops, "ramps": ramps }))
}

fn height_summary(d: &octile::dungeon::Dungeon) -> Option<(usize, f64, f64)> {
    let heights: Vec<f64> = d.room_heights_set().map(|(_, h)| h.to_metres()).collect();
    let lowest = heights.iter().copied().reduce(f64::min)?;
    let tallest = heights.iter().copied().fold(lowest, f64::max);
    Some((heights.len(), lowest, tallest))
}

/// Runs `octile info`.
pub fn run(args: InfoArgs) -> anyhow::Result<ExitCode> {
    let d = super::files::load(&args.file)?;
    super::budget::check_cells(&d, args.max_cells, "the room graph")?;
    if args.flow {
        return flow_info(&d, &args);
    }
    let graph = RoomGraph::of(&d);
    let c = count(&d, &graph);
    let dims = d.dims();
    let p = d.proportions();
    if args.json {
        let graph_json = octile::rooms::graph_json(&d, &graph);
        let mut v = json!({
            "octagons_grid": [dims.octagon_cols(), dims.octagon_rows()],
            "slots": [dims.rows(), dims.cols()],
            "levels": d.levels(),
            "octagons": c.octagons,
            "connectors": c.connectors,
            "floor_cells": c.floor_cells,
            "stairs": c.stairs,
            "regions": c.regions,
            "entrance": d.entrance().map(|p| [u32::from(p.level), p.slot.row, p.slot.col]),
            "exit": d.exit().map(|p| [u32::from(p.level), p.slot.row, p.slot.col]),
            "seed": d.seed(),
            "proportions": {
                "base": p.base,
                "cut_ratio": p.cut_ratio,
                "layer_height": p.layer_height,
                "room_height": p.room_height,
                "cell_spacing": p.cell_spacing(),
                "long_edge": p.long_edge(),
                "short_edge": p.short_edge(),
                "seam_gap": p.seam_gap(),
            },
            "rooms": graph_json["rooms"],
            "portals": graph_json["portals"],
            "room_table": octile::rooms::room_table_json(&d),
        });
        if let Some((cells, lowest, tallest)) = height_summary(&d) {
            v["room_heights"] = json!({ "cells": cells, "lowest": lowest, "tallest": tallest });
        }
        if let Some(columns) = columns_json(&d) {
            v["columns"] = columns;
        }
        outln!("{v}")?;
    } else {
        outln!("{}", args.file.display())?;
        outln!(
            "  grid        {}x{} octagons (COLSxROWS) = {} rows x {} cols of slots, {} level(s)",
            dims.octagon_cols(),
            dims.octagon_rows(),
            dims.rows(),
            dims.cols(),
            d.levels()
        )?;
        outln!("  cells       {} octagons, {} connectors (all levels)", c.octagons, c.connectors)?;
        outln!(
            "  floor       {} carved cells, {} stair(s), {} connected region(s)",
            c.floor_cells,
            c.stairs,
            c.regions
        )?;
        outln!(
            "  room graph  {} room(s), {} corridor(s), {} portal(s) (by shape)",
            c.rooms,
            c.corridors,
            c.portals
        )?;
        if d.has_rooms() {
            outln!("  room table  {}", room_table_line(&d))?;
        }
        let name = |p: Option<octile::grid::Pos>| p.map_or_else(|| "none".to_string(), |p| p.to_string());
        outln!("  entrance    {}", name(d.entrance()))?;
        outln!("  exit        {}", name(d.exit()))?;
        outln!("  stairs      {}", stair_list(&d))?;
        outln!(
            "  proportions base {:.2} m, cut ratio {:.2}, level height {:.2} m, room height {:.2} m",
            p.base,
            p.cut_ratio,
            p.layer_height,
            p.room_height
        )?;
        if let Some((cells, lowest, tallest)) = height_summary(&d) {
            outln!(
                "  heights     {cells} cell(s) of their own room height, {lowest:.2} m to {tallest:.2} m"
            )?;
        }
        if let Some(c) = columns_json(&d) {
            // `[level, row, col, dir, level, row, col]` as `L,R,C DIR -> L,R,C`.
            let moves = |key: &str| -> String {
                let all: Vec<String> = c[key]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|d| {
                        let dir = d[3].as_str().unwrap_or("");
                        format!("{},{},{} {dir} -> {},{},{}", d[0], d[1], d[2], d[4], d[5], d[6])
                    })
                    .collect();
                if all.is_empty() { "none".into() } else { all.join("; ") }
            };
            outln!(
                "  columns     {} void cell(s), {} railing(s), drops: {}, ramps: {}",
                c["void_cells"],
                c["railings"],
                moves("drops"),
                moves("ramps")
            )?;
        }
        outln!(
            "  derived     cell spacing {:.4} m, long edge {:.4} m, short edge {:.4} m, seam gap {:.4} m",
            p.cell_spacing(),
            p.long_edge(),
            p.short_edge(),
            p.seam_gap()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `octile info --flow`: the mission report ([`octile::flow::report`]), as JSON or text.
fn flow_info(d: &Dungeon, args: &InfoArgs) -> anyhow::Result<ExitCode> {
    let Some(v) = octile::flow::report(d) else {
        anyhow::bail!(
            "{}: no mission: the dungeon has no entrance and goal rooms and no locks or keys",
            args.file.display()
        );
    };
    if args.json {
        outln!("{v}")?;
        return Ok(ExitCode::SUCCESS);
    }
    let list = |key: &str| -> String {
        let items: Vec<String> = v[key].as_array().map_or_else(Vec::new, |a| {
            a.iter().map(|x| x.to_string().trim_matches('"').to_string()).collect()
        });
        if items.is_empty() { "none".into() } else { items.join(", ") }
    };
    let roles: Vec<String> = v["rooms_by_role"]
        .as_object()
        .map_or_else(Vec::new, |m| m.iter().map(|(k, n)| format!("{k} {n}")).collect());
    let path = &v["critical_path"];
    let rooms: Vec<String> = path["rooms"]
        .as_array()
        .map_or_else(Vec::new, |a| a.iter().filter_map(|r| r.as_str().map(String::from)).collect());
    outln!("{}", args.file.display())?;
    outln!("  rooms         {}", if roles.is_empty() { "none".into() } else { roles.join(", ") })?;
    outln!(
        "  critical path {} room(s), {} cells, {} m: {}",
        rooms.len(),
        path["cells"].as_array().map_or(0, Vec::len),
        path["metres"],
        rooms.join(" -> ")
    )?;
    outln!(
        "  locks on it   {}",
        path["locks"].as_array().map_or_else(
            || "none".into(),
            |a| if a.is_empty() {
                "none".into()
            } else {
                a.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
            }
        )
    )?;
    if let Some(route) = v.get("key_route") {
        let entered = route["rooms"].as_array().map_or(0, Vec::len);
        match route["nonlinearity"].as_u64() {
            Some(twice) => {
                outln!(
                    "  key route     {entered} room(s) entered, {twice} of them more than once (nonlinearity)"
                )?;
            }
            None => outln!("  key route     none: no walk picks up each key before its lock")?,
        }
    }
    outln!("  cycles        {}", v["cycles"])?;
    outln!("  dead ends     {}", list("dead_ends"))?;
    let keys: Vec<String> = v["keys"].as_array().map_or_else(Vec::new, |a| {
        a.iter()
            .map(|k| {
                format!(
                    "key {} at {}",
                    k["lock"],
                    k["at"].as_array().map_or_else(String::new, |c| c
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(","))
                )
            })
            .collect()
    });
    outln!("  keys          {}", if keys.is_empty() { "none".into() } else { keys.join("; ") })?;
    outln!("  levels        {}", list("levels_crossed"))?;
    match v["failures"].as_array().and_then(|f| f.first()) {
        None => outln!("  proof         holds")?,
        Some(f) => outln!("  proof         fails: {}", f.as_str().unwrap_or_default())?,
    }
    Ok(ExitCode::SUCCESS)
}
