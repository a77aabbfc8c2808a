//! `octile info`: dimensions, counts and proportions of a dungeon, for a person or as JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use octile::dungeon::Dungeon;
use octile::grid::SlotKind;
use octile::rooms::{PortalPlace, RoomGraph, RoomKind};
use serde_json::{Value, json};

/// Options of `octile info`.
#[derive(Args)]
pub struct InfoArgs {
    /// The dungeon file (JSON).
    file: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
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

/// The rooms and portals of `graph` as JSON: rooms with their id, kind, level, cells
/// (`[row, col]`) and area (m2); portals with their kind, two rooms and place (a seam's two
/// cells `[level, row, col]`, or a stair's foot).
fn rooms_json(d: &Dungeon, graph: &RoomGraph) -> (Value, Value) {
    let rooms = graph
        .rooms()
        .iter()
        .map(|r| {
            json!({
                "id": r.id.0,
                "kind": r.kind.name(),
                "level": r.level,
                "cells": r.cells.iter().map(|s| [s.row, s.col]).collect::<Vec<_>>(),
                "area_m2": r.area,
            })
        })
        .collect();
    let portals = graph
        .portals()
        .iter()
        .map(|p| {
            let mut v = json!({ "kind": p.kind.name(), "rooms": [p.rooms[0].0, p.rooms[1].0] });
            match p.place {
                PortalPlace::Seam { level, edge } => {
                    let sides = d.dims().edge_sides(edge).expect("invariant: portals name edges");
                    let cell = |i: usize| [u32::from(level), sides[i].0.row, sides[i].0.col];
                    v["cells"] = json!([cell(0), cell(1)]);
                }
                PortalPlace::Stair { foot } => {
                    v["foot"] = json!([u32::from(foot.level), foot.slot.row, foot.slot.col]);
                }
            }
            v
        })
        .collect();
    (Value::Array(rooms), Value::Array(portals))
}

/// Runs `octile info`.
pub fn run(args: InfoArgs) -> anyhow::Result<ExitCode> {
    let d = super::files::load(&args.file)?;
    let graph = RoomGraph::of(&d);
    let c = count(&d, &graph);
    let dims = d.dims();
    let p = d.proportions();
    if args.json {
        let (rooms, portals) = rooms_json(&d, &graph);
        let v = json!({
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
            "rooms": rooms,
            "portals": portals,
        });
        println!("{v}");
    } else {
        println!("{}", args.file.display());
        println!(
            "  grid        {}x{} octagons (COLSxROWS) = {} rows x {} cols of slots, {} level(s)",
            dims.octagon_cols(),
            dims.octagon_rows(),
            dims.rows(),
            dims.cols(),
            d.levels()
        );
        println!("  cells       {} octagons, {} connectors (all levels)", c.octagons, c.connectors);
        println!(
            "  floor       {} carved cells, {} stair(s), {} connected region(s)",
            c.floor_cells, c.stairs, c.regions
        );
        println!("  rooms       {} room(s), {} corridor(s), {} portal(s)", c.rooms, c.corridors, c.portals);
        println!(
            "  proportions base {:.2} m, cut ratio {:.2}, level height {:.2} m, room height {:.2} m",
            p.base, p.cut_ratio, p.layer_height, p.room_height
        );
        println!(
            "  derived     cell spacing {:.4} m, long edge {:.4} m, short edge {:.4} m, seam gap {:.4} m",
            p.cell_spacing(),
            p.long_edge(),
            p.short_edge(),
            p.seam_gap()
        );
    }
    Ok(ExitCode::SUCCESS)
}
