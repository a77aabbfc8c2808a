//! The mission on the plan: the critical path as a line through its cells, each locked
//! door and its key in one colour and symbol per lock id, and an arrow on every one-way
//! door pointing the way it lets a walker through. Drawn only for a dungeon with locks,
//! keys or mission doors, so other plans keep their bytes.

use std::fmt::Write;

use glam::DVec2;

use crate::dungeon::{Dungeon, Mechanism};
use crate::flow::Verdict;
use crate::grid::Pos;

/// One colour per lock id (id modulo the list): lock and key share it. Locks 1 to 5 (blue,
/// magenta, cyan, purple, olive green) keep 30 degrees of hue from each other, from the
/// route's orange and from the viewer's green markers; 6 (and 0) is slate grey.
const LOCK_COLOURS: [&str; 6] = ["#37474f", "#2456a3", "#c2185b", "#00979c", "#7d3c98", "#5e8c00"];

/// The critical path's colour.
const PATH: &str = "#e67e22";

/// How many lock colours there are ([`lock_colour`] takes the id modulo this).
pub const LOCK_COLOUR_COUNT: usize = LOCK_COLOURS.len();

/// The colour of lock `id`.
#[must_use]
pub fn lock_colour(id: u32) -> &'static str {
    LOCK_COLOURS[id as usize % LOCK_COLOURS.len()]
}

/// [`lock_colour`] as sRGB channels (the viewer draws keys and locks in it).
#[must_use]
pub fn lock_colour_rgb(id: u32) -> [u8; 3] {
    crate::dungeon::hex_rgb(lock_colour(id))
}

/// The verdict to draw for `dungeon`, when it has a mission.
pub(super) fn verdict(dungeon: &Dungeon) -> Option<Verdict> {
    let mission = dungeon.has_flow();
    mission.then(|| crate::flow::verify(dungeon))
}

/// The mission marks of `level` (`<g class="mission">`).
pub(super) fn draw(out: &mut String, dungeon: &Dungeon, verdict: &Verdict, level: u16, origin: DVec2) {
    let layout = dungeon.layout();
    let at = |p: Pos| layout.center(p.slot) + origin;
    let _ = writeln!(out, r#"<g class="mission">"#);
    // The critical path, one polyline per run of cells on this level.
    for run in verdict.critical_path.split(|p| p.level != level).filter(|r| r.len() > 1) {
        let points: Vec<String> =
            run.iter().map(|&p| at(p)).map(|c| format!("{:.2},{:.2}", c.x, c.y)).collect();
        let _ = writeln!(
            out,
            r#"<polyline class="critical-path" fill="none" stroke="{PATH}" stroke-width="1.2" stroke-opacity="0.8" points="{}"/>"#,
            points.join(" ")
        );
    }
    let dims = dungeon.dims();
    for edge in dims.edges() {
        let Some((a, dir, b)) = dungeon.edge_cells(edge) else { continue };
        let state = dungeon.edge_state_of(level, edge).ok();
        let Some(mechanism) = state.and_then(|s| dungeon.registry().mechanism(s)) else { continue };
        let Ok(sides) = dims.edge_sides(edge) else { continue };
        let Some(door) = layout.door(sides[0], sides[1]) else { continue };
        let c = (door[0] + door[1] + door[2] + door[3]) / 4.0 + origin;
        let from = Pos { level, slot: a };
        match mechanism {
            Mechanism::Locked => {
                let id = dungeon.lock_at(from, dir);
                let colour = id.map_or("#555555", lock_colour);
                let label = id.map_or_else(|| "?".to_string(), |i| i.to_string());
                let _ = writeln!(
                    out,
                    r#"<g class="lock" data-lock="{label}"><rect x="{:.2}" y="{:.2}" width="3.6" height="3.6" fill="{colour}" stroke="white" stroke-width="0.3"/><text x="{:.2}" y="{:.2}" font-family="sans-serif" font-size="2.6" fill="white" text-anchor="middle">{label}</text></g>"#,
                    c.x - 1.8,
                    c.y - 1.8,
                    c.x,
                    c.y + 0.9
                );
            }
            Mechanism::OneWayForward | Mechanism::OneWayBackward => {
                let (p, q) = if mechanism.allows(a, b) { (a, b) } else { (b, a) };
                let along = (layout.center(q) - layout.center(p)).normalize_or_zero();
                let side = DVec2::new(-along.y, along.x);
                let (tip, back) = (c + along * 2.2, c - along * 1.4);
                let (l, r) = (back + side * 1.6, back - side * 1.6);
                let _ = writeln!(
                    out,
                    r##"<polygon class="one-way" fill="#333333" points="{:.2},{:.2} {:.2},{:.2} {:.2},{:.2}"/>"##,
                    tip.x, tip.y, l.x, l.y, r.x, r.y
                );
            }
            Mechanism::Secret => {
                let _ = writeln!(
                    out,
                    r##"<text class="secret" x="{:.2}" y="{:.2}" font-family="sans-serif" font-size="3" fill="#333333" text-anchor="middle">S</text>"##,
                    c.x,
                    c.y + 1.0
                );
            }
        }
    }
    for (id, p) in dungeon.keys().filter(|(_, p)| p.level == level) {
        let c = at(p);
        let colour = lock_colour(id);
        let _ = writeln!(
            out,
            r#"<g class="key" data-lock="{id}"><circle cx="{:.2}" cy="{:.2}" r="2.2" fill="{colour}" stroke="white" stroke-width="0.3"/><text x="{:.2}" y="{:.2}" font-family="sans-serif" font-size="2.4" fill="white" text-anchor="middle">K{id}</text></g>"#,
            c.x,
            c.y,
            c.x,
            c.y + 0.8
        );
    }
    let _ = writeln!(out, "</g>");
}
