//! The SVG writer of [`to_svg`].

use std::fmt::Write;

use glam::DVec2;

use crate::dungeon::{Carve, Dungeon};
use crate::grid::{Pos, Slot, SlotKind};

/// How a plan is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanOptions {
    /// Pixels per metre.
    pub scale: f64,
    /// Space around and between levels (metres).
    pub margin: f64,
    /// Wall line width (metres).
    pub wall_width: f64,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions { scale: 3.0, margin: 12.0, wall_width: 0.9 }
    }
}

const ROCK: &str = "#3b3632";
const FLOOR: &str = "#e9dfc8";
const WALL: &str = "#15120f";
const DOOR: &str = "#a0522d";
const STAIR: &str = "#4a6fa5";
const ENTRANCE: &str = "#2e8b3a";
const EXIT: &str = "#c0392b";

/// The plan of every level of `dungeon`, left to right, as a standalone SVG document.
/// Same dungeon and options, same bytes.
#[must_use]
pub fn to_svg(dungeon: &Dungeon, options: &PlanOptions) -> String {
    let layout = dungeon.layout();
    let dims = dungeon.dims();
    let half = layout.proportions().base / 2.0;
    let m = options.margin;
    let level_w = f64::from(dims.cols() - 1) * layout.spacing() + 2.0 * half;
    let level_h = f64::from(dims.rows() - 1) * layout.spacing() + 2.0 * half;
    let levels = f64::from(dungeon.levels());
    let width = levels * level_w + (levels + 1.0) * m;
    let height = level_h + 3.0 * m;
    let k = options.scale;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {:.2} {:.2}">"#,
        width * k,
        height * k,
        width,
        height
    );
    let _ = writeln!(out, r##"<rect width="100%" height="100%" fill="#f7f4ee"/>"##);
    let font = 0.4 * m;
    for level in 0..dungeon.levels() {
        let origin = DVec2::new(m + f64::from(level) * (level_w + m) + half, 1.5 * m + half);
        let p = |v: DVec2| v + origin;
        let _ = writeln!(out, r#"<g id="level-{level}">"#);
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}" font-family="sans-serif" font-size="{font:.2}">level {level}</text>"#,
            origin.x - half,
            1.5 * m - 0.3 * m
        );
        let _ = writeln!(
            out,
            r#"<rect x="{:.2}" y="{:.2}" width="{level_w:.2}" height="{level_h:.2}" fill="{ROCK}"/>"#,
            origin.x - half,
            origin.y - half
        );
        let carved = |slot: Slot| dungeon.tile_def(Pos { level, slot }).is_ok_and(|t| t.carved);
        // Floors of cells, then the open seams between them.
        for slot in dims.cells() {
            if carved(slot) {
                let poly = layout.cell_polygon(slot).expect("invariant: cells have polygons");
                polygon(&mut out, &poly.iter().map(|v| p(*v)).collect::<Vec<_>>(), FLOOR);
            }
        }
        let mut walls: Vec<[DVec2; 2]> = Vec::new();
        let mut doors: Vec<[DVec2; 4]> = Vec::new();
        for edge in dims.edges() {
            let Ok(sides) = dims.edge_sides(edge) else { continue };
            let Ok(state) = dungeon.edge_state_of(level, edge) else { continue };
            let carve = dungeon.registry().edge_def(state).map_or(Carve::None, |e| e.carve);
            if carve == Carve::None || !sides.iter().all(|(s, _)| carved(*s)) {
                continue;
            }
            let Some(seam) = layout.edge_seam(sides) else { continue };
            let seam = seam.map(p);
            polygon(&mut out, &seam, FLOOR);
            // The seam's two sides that are not on the cells are rock faces.
            walls.push([seam[1], seam[2]]);
            walls.push([seam[3], seam[0]]);
            if carve == Carve::Door {
                doors.push(seam);
            }
        }
        // Walls: every edge of a carved cell whose seam is not carved.
        for slot in dims.cells() {
            if !carved(slot) {
                continue;
            }
            for &dir in dims.walls(slot).expect("invariant: cells have walls") {
                let open =
                    dungeon.edge_state(Pos { level, slot }, dir).ok().flatten().is_some_and(|e| {
                        dungeon.registry().edge_def(e).is_some_and(|d| d.carve != Carve::None)
                    }) && dims.neighbor(slot, dir).ok().flatten().is_some_and(carved);
                if !open && let Some(w) = layout.wall(slot, dir) {
                    walls.push(w.map(p));
                }
            }
        }
        let _ = write!(
            out,
            r#"<path stroke="{WALL}" stroke-width="{:.2}" stroke-linecap="round" d=""#,
            options.wall_width
        );
        for [a, b] in &walls {
            let _ = write!(out, "M{:.2} {:.2}L{:.2} {:.2}", a.x, a.y, b.x, b.y);
        }
        let _ = writeln!(out, r#""/>"#);
        for seam in &doors {
            let c = (seam[0] + seam[1] + seam[2] + seam[3]) / 4.0;
            let _ = writeln!(out, r#"<circle cx="{:.2}" cy="{:.2}" r="1.1" fill="{DOOR}"/>"#, c.x, c.y);
        }
        // Stairs up from this level (solid) and landings from below (ring, with a line to the
        // exit wall: the only way on from the landing).
        for slot in dims.cells().filter(|s| s.kind() == SlotKind::Octagon) {
            let c = p(layout.center(slot));
            if dungeon.is_stair(Pos { level, slot }) {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{:.2}" cy="{:.2}" r="{:.2}" fill="{STAIR}"/><path d="M{:.2} {:.2}l0 -2.4l2 1.2z" fill="white"/>"#,
                    c.x,
                    c.y,
                    half * 0.45,
                    c.x - 0.8,
                    c.y + 1.2
                );
            }
            if let Some(stair) = dungeon.stair_below(Pos { level, slot }) {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{:.2}" cy="{:.2}" r="{:.2}" fill="none" stroke="{STAIR}" stroke-width="0.8"/>"#,
                    c.x,
                    c.y,
                    half * 0.45
                );
                if let Some([a, b]) = dungeon.stair_exit(stair).and_then(|dir| layout.wall(slot, dir)) {
                    let m = p((a + b) / 2.0);
                    let _ = writeln!(
                        out,
                        r#"<path d="M{:.2} {:.2}L{:.2} {:.2}" stroke="{STAIR}" stroke-width="0.8"/>"#,
                        c.x, c.y, m.x, m.y
                    );
                }
            }
        }
        for (pos, colour, label) in [(dungeon.entrance(), ENTRANCE, "IN"), (dungeon.exit(), EXIT, "OUT")] {
            if let Some(pos) = pos.filter(|q| q.level == level) {
                let c = p(layout.center(pos.slot));
                let _ = writeln!(
                    out,
                    r#"<circle cx="{:.2}" cy="{:.2}" r="{:.2}" fill="{colour}"/><text x="{:.2}" y="{:.2}" font-family="sans-serif" font-size="2.6" fill="white" text-anchor="middle">{label}</text>"#,
                    c.x,
                    c.y,
                    half * 0.4,
                    c.x,
                    c.y + 0.9
                );
            }
        }
        let _ = writeln!(out, "</g>");
    }
    // Metre scale: 10 m and 50 m ticks.
    let (x0, y0) = (m, height - 0.8 * m);
    let bar = if level_w > 60.0 { 50.0 } else { 10.0 };
    let _ = writeln!(
        out,
        r#"<path d="M{x0:.2} {y0:.2}h{bar:.2}M{x0:.2} {:.2}v2M{:.2} {:.2}v2" stroke="black" stroke-width="0.5"/><text x="{:.2}" y="{:.2}" font-family="sans-serif" font-size="{font:.2}">{bar} m</text>"#,
        y0 - 1.0,
        x0 + bar,
        y0 - 1.0,
        x0 + bar + 2.0,
        y0 + 1.5
    );
    out.push_str("</svg>\n");
    out
}

fn polygon(out: &mut String, points: &[DVec2], fill: &str) {
    let _ = write!(out, r#"<polygon fill="{fill}" points=""#);
    for (i, v) in points.iter().enumerate() {
        let _ = write!(out, "{}{:.2},{:.2}", if i > 0 { " " } else { "" }, v.x, v.y);
    }
    let _ = writeln!(out, r#""/>"#);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::Direction;

    #[test]
    fn draws_levels_stairs_and_markers() {
        let mut d = Dungeon::new(3, 2, 2, Proportions::default(), Fill::Solid).unwrap();
        d.set_tile(Pos::new(0, 0, 0), Registry::STAIR).unwrap();
        d.set_tile(Pos::new(0, 0, 2), Registry::FLOOR).unwrap();
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
        d.set_tile(Pos::new(1, 0, 0), Registry::FLOOR).unwrap();
        d.set_entrance(Some(Pos::new(0, 0, 2))).unwrap();
        d.set_exit(Some(Pos::new(1, 0, 0))).unwrap();
        let svg = to_svg(&d, &PlanOptions::default());
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains(r#"id="level-0""#) && svg.contains(r#"id="level-1""#));
        assert_eq!(svg.matches(DOOR).count(), 1, "one door");
        assert_eq!(svg.matches(STAIR).count(), 2, "a stair and its landing");
        assert!(svg.contains(">IN<") && svg.contains(">OUT<"));
        // 3 carved cells + 1 carved seam.
        assert_eq!(svg.matches(&format!(r#"fill="{FLOOR}""#)).count(), 4);
        assert_eq!(to_svg(&d, &PlanOptions::default()), svg);
        // With an exit above, the landing points at it.
        d.set_tile(Pos::new(1, 0, 2), Registry::FLOOR).unwrap();
        d.set_edge(Pos::new(1, 0, 0), Direction::E, Registry::OPEN).unwrap();
        let svg = to_svg(&d, &PlanOptions::default());
        assert_eq!(svg.matches(STAIR).count(), 3, "a stair, its landing and the line to its exit");
    }
}
