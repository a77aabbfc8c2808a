//! The SVG writer of [`to_svg`].

use std::fmt::Write;

use glam::DVec2;

use crate::dungeon::{Carve, Dungeon, RoomRole};
use crate::grid::{Pos, Slot, SlotKind};
use crate::walk::{WallKind, level_plan};

/// The smallest [`PlanOptions::scale`] that keeps the drawing at least a pixel wide: 0.1
/// pixels per metre (a plan is always more than 10 m across with its margins).
pub const MIN_SCALE: f64 = 0.1;

/// The largest [`PlanOptions::scale`]: 1000 pixels per metre (a millimetre a pixel).
pub const MAX_SCALE: f64 = 1000.0;

/// How a plan is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanOptions {
    /// Pixels per metre, [`MIN_SCALE`] to [`MAX_SCALE`] (outside it the drawing's size is
    /// `0` or `inf`: not a valid SVG).
    pub scale: f64,
    /// Space around and between levels (metres).
    pub margin: f64,
    /// Wall line width (metres).
    pub wall_width: f64,
    /// A field of view to shade, or `None`.
    pub fov: Option<super::FovShade>,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions { scale: 3.0, margin: 12.0, wall_width: 0.9, fov: None }
    }
}

const ROCK: &str = "#3b3632";
const FLOOR: &str = "#e9dfc8";
pub(super) const WALL: &str = "#15120f";
const DOOR: &str = "#a0522d";
const STAIR: &str = "#4a6fa5";
const ENTRANCE: &str = "#2e8b3a";
const EXIT: &str = "#c0392b";

/// Font size (metres) of the slot coordinates and the legend.
const COORDINATE_FONT: f64 = 3.0;

/// The plan of every level of `dungeon`, left to right, as a standalone SVG document.
/// Same dungeon and options, same bytes.
///
/// Each level draws the carved plan the walk model and the mesh share
/// ([`crate::walk::level_plan`]): carved cells and seams as floor, a door's seam only
/// door-wide ([`crate::geometry::Layout::door`]) with the wall standing either side of its
/// opening, and every rock face as a wall line.
#[must_use]
pub fn to_svg(dungeon: &Dungeon, options: &PlanOptions) -> String {
    let sheet = Sheet::new(dungeon, options);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="0 0 {:.2} {:.2}">"#,
        sheet.width * options.scale,
        sheet.height * options.scale,
        sheet.width,
        sheet.height
    );
    let _ = writeln!(out, r##"<rect width="100%" height="100%" fill="#f7f4ee"/>"##);
    let verdict = super::mission::verdict(dungeon);
    for level in 0..dungeon.levels() {
        sheet.level(&mut out, dungeon, level, options, verdict.as_ref());
    }
    sheet.scale_bar(&mut out);
    sheet.legend(&mut out);
    out.push_str("</svg>\n");
    out
}

/// The sheet's measures (metres): every level side by side with margins.
pub(super) struct Sheet {
    /// Half the octagon base: from a cell centre to the level's edge.
    half: f64,
    /// Margin around and between levels.
    margin: f64,
    /// One level's width and height.
    level_w: f64,
    level_h: f64,
    /// The whole sheet.
    width: f64,
    height: f64,
    /// Label font size.
    font: f64,
}

impl Sheet {
    pub(super) fn new(dungeon: &Dungeon, options: &PlanOptions) -> Sheet {
        let layout = dungeon.layout();
        let dims = dungeon.dims();
        let half = layout.proportions().base / 2.0;
        let m = options.margin;
        let level_w = f64::from(dims.cols() - 1) * layout.spacing() + 2.0 * half;
        let level_h = f64::from(dims.rows() - 1) * layout.spacing() + 2.0 * half;
        let levels = f64::from(dungeon.levels());
        Sheet {
            half,
            margin: m,
            level_w,
            level_h,
            width: levels * level_w + (levels + 1.0) * m,
            height: level_h + 3.0 * m,
            font: 0.4 * m,
        }
    }

    /// Where level `level`'s world origin lies on the sheet.
    pub(super) fn origin(&self, level: u16) -> DVec2 {
        let m = self.margin;
        DVec2::new(m + f64::from(level) * (self.level_w + m) + self.half, 1.5 * m + self.half)
    }

    /// One level's group: label, rock, floors and walls, doors, stairs, entrance and exit,
    /// room labels, and the mission's marks when `verdict` is given.
    fn level(
        &self,
        out: &mut String,
        dungeon: &Dungeon,
        level: u16,
        options: &PlanOptions,
        verdict: Option<&crate::flow::Verdict>,
    ) {
        let origin = self.origin(level);
        let (half, m, font) = (self.half, self.margin, self.font);
        let _ = writeln!(out, r#"<g id="level-{level}">"#);
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}" font-family="sans-serif" font-size="{font:.2}">level {level}</text>"#,
            origin.x - half,
            1.5 * m - 0.3 * m
        );
        let _ = writeln!(
            out,
            r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="{ROCK}"/>"#,
            origin.x - half,
            origin.y - half,
            self.level_w,
            self.level_h
        );
        floors_and_walls(out, dungeon, level, origin, options.wall_width);
        room_tints(out, dungeon, level, origin);
        super::columns::draw(out, dungeon, level, origin);
        doors(out, dungeon, level, origin);
        stairs(out, dungeon, level, origin, half);
        markers(out, dungeon, level, origin, half);
        room_labels(out, dungeon, level, origin);
        if let Some(verdict) = verdict {
            super::mission::draw(out, dungeon, verdict, level, origin);
        }
        heights(out, dungeon, level, origin, font);
        if let Some(fov) = &options.fov {
            super::fov::draw(out, dungeon, fov, level, origin);
        }
        self.coordinates(out, dungeon, origin);
        let _ = writeln!(out, "</g>");
    }

    /// The slot coordinates along a level's edges, as edit commands write them (`paint 0
    /// R1,C1..R2,C2`): the column of every octagon column under the level, the row of every
    /// octagon row left of it (`<g class="coordinates">`).
    fn coordinates(&self, out: &mut String, dungeon: &Dungeon, origin: DVec2) {
        let (layout, dims, half) = (dungeon.layout(), dungeon.dims(), self.half);
        let font = COORDINATE_FONT;
        let _ = write!(
            out,
            r##"<g class="coordinates" font-family="sans-serif" font-size="{font:.2}" fill="#6b645c">"##
        );
        let bottom = origin.y - half + self.level_h + 1.2 * font;
        for col in (0..dims.cols()).step_by(2) {
            let x = layout.center(Slot::new(0, col)).x + origin.x;
            let _ = write!(out, r#"<text x="{x:.2}" y="{bottom:.2}" text-anchor="middle">{col}</text>"#);
        }
        let left = origin.x - half - 0.4 * font;
        for row in (0..dims.rows()).step_by(2) {
            let y = layout.center(Slot::new(row, 0)).y + origin.y + 0.35 * font;
            let _ = write!(out, r#"<text x="{left:.2}" y="{y:.2}" text-anchor="end">{row}</text>"#);
        }
        let _ = writeln!(out, "</g>");
    }

    /// What each mark means, right of the scale bar (`<g class="legend">`).
    fn legend(&self, out: &mut String) {
        /// How a legend item is drawn.
        enum Mark {
            Square(&'static str),
            Dot(&'static str),
            Ring(&'static str),
        }
        let (m, font) = (self.margin, COORDINATE_FONT);
        let (mut x, y) = (m + 70.0, self.height - 0.8 * m);
        let _ = write!(out, r#"<g class="legend" font-family="sans-serif" font-size="{font:.2}">"#);
        let items = [
            (Mark::Square(FLOOR), "floor"),
            (Mark::Square(ROCK), "rock"),
            (Mark::Square(DOOR), "door"),
            (Mark::Square(super::columns::VOID), "void (open to the level below)"),
            (Mark::Square(super::columns::RAILING), "railing"),
            (Mark::Square(super::columns::DROP), "drop point"),
            (Mark::Dot(STAIR), "stair up"),
            (Mark::Ring(STAIR), "stair down, line to its exit"),
            (Mark::Dot(ENTRANCE), "entrance (IN)"),
            (Mark::Dot(EXIT), "exit (OUT)"),
            (Mark::Square(role_tint(RoomRole::Entrance)), "start room"),
            (Mark::Square(role_tint(RoomRole::Goal)), "goal"),
            (Mark::Square(role_tint(RoomRole::Boss)), "boss"),
            (Mark::Square(role_tint(RoomRole::Treasure)), "treasure"),
            (Mark::Square(role_tint(RoomRole::Hub)), "hub"),
            (Mark::Square(role_tint(RoomRole::Key)), "key"),
            (Mark::Square(role_tint(RoomRole::Plain)), "room (- - - its passages)"),
        ];
        let r = 0.5 * font;
        for (mark, label) in items {
            let _ = match mark {
                Mark::Square(colour) => write!(
                    out,
                    r#"<rect x="{x:.2}" y="{:.2}" width="{font:.2}" height="{font:.2}" fill="{colour}" stroke="{WALL}" stroke-width="0.3"/>"#,
                    y - r
                ),
                Mark::Dot(colour) => {
                    write!(out, r#"<circle cx="{:.2}" cy="{y:.2}" r="{r:.2}" fill="{colour}"/>"#, x + r)
                }
                Mark::Ring(colour) => write!(
                    out,
                    r#"<circle cx="{:.2}" cy="{y:.2}" r="{r:.2}" fill="none" stroke="{colour}" stroke-width="0.5"/>"#,
                    x + r
                ),
            };
            let _ =
                write!(out, r#"<text x="{:.2}" y="{:.2}">{label}</text>"#, x + 1.6 * font, y + 0.35 * font);
            // The next item starts past this one's label (its rough width).
            x += (2.4 + 0.55 * label.len() as f64) * font;
        }
        let _ = writeln!(out, "</g>");
    }

    /// The metre scale: a 10 m or 50 m bar under the levels.
    fn scale_bar(&self, out: &mut String) {
        let (m, font) = (self.margin, self.font);
        let (x0, y0) = (m, self.height - 0.8 * m);
        let bar = if self.level_w > 60.0 { 50.0 } else { 10.0 };
        let _ = writeln!(
            out,
            r#"<path d="M{x0:.2} {y0:.2}h{bar:.2}M{x0:.2} {:.2}v2M{:.2} {:.2}v2" stroke="black" stroke-width="0.5"/><text x="{:.2}" y="{:.2}" font-family="sans-serif" font-size="{font:.2}">{bar} m</text>"#,
            y0 - 1.0,
            x0 + bar,
            y0 - 1.0,
            x0 + bar + 2.0,
            y0 + 1.5
        );
    }
}

/// The carved pieces of `level` as floor (cells, then seams) and its rock faces as one
/// path of wall lines, from the plan the walk model and the mesh share.
fn floors_and_walls(out: &mut String, dungeon: &Dungeon, level: u16, origin: DVec2, wall_width: f64) {
    let plan = level_plan(dungeon, level);
    for piece in &plan.pieces {
        polygon(out, &piece.polygon.iter().map(|v| *v + origin).collect::<Vec<_>>(), FLOOR);
    }
    let _ = write!(out, r#"<path stroke="{WALL}" stroke-width="{wall_width:.2}" stroke-linecap="round" d=""#);
    for wall in plan.walls.iter().filter(|w| w.kind == WallKind::Rock) {
        let (a, b) = (wall.a + origin, wall.b + origin);
        let _ = write!(out, "M{:.2} {:.2}L{:.2} {:.2}", a.x, a.y, b.x, b.y);
    }
    let _ = writeln!(out, r#""/>"#);
}

/// A marker in the middle of every door passage of `level` (the seams
/// [`Dungeon::carved_seam`] says a door carves).
fn doors(out: &mut String, dungeon: &Dungeon, level: u16, origin: DVec2) {
    let dims = dungeon.dims();
    for edge in dims.edges() {
        let Ok(sides) = dims.edge_sides(edge) else { continue };
        let (slot, dir) = sides[0];
        if dungeon.carved_seam(Pos { level, slot }, dir).is_none_or(|e| e.carve != Carve::Door) {
            continue;
        }
        if let Some(door) = dungeon.layout().door(sides[0], sides[1]) {
            let c = (door[0] + door[1] + door[2] + door[3]) / 4.0 + origin;
            let _ = writeln!(out, r#"<circle cx="{:.2}" cy="{:.2}" r="1.1" fill="{DOOR}"/>"#, c.x, c.y);
        }
    }
}

/// Room heights of their own: each carved cell of `level` with one gets its height in
/// metres at its centre (`<g class="heights">`, each `<text data-slot="ROW,COL">`); nothing
/// when no cell of the level has one.
fn heights(out: &mut String, dungeon: &Dungeon, level: u16, origin: DVec2, font: f64) {
    // A room of the table with a height of its own says it once, in its label.
    let in_its_room = |p: Pos, metres: f64| {
        dungeon
            .room_at(p)
            .and_then(|r| dungeon.rooms()[usize::from(r.0)].height)
            .is_some_and(|h| (h - metres).abs() < 0.005)
    };
    let cells: Vec<_> = dungeon
        .room_heights_set()
        .filter(|&(p, h)| p.level == level && dungeon.is_carved(p) && !in_its_room(p, h.to_metres()))
        .collect();
    if cells.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        r#"<g class="heights" font-family="sans-serif" font-size="{:.2}" fill="{WALL}" text-anchor="middle">"#,
        0.8 * font
    );
    for (p, h) in cells {
        let c = dungeon.layout().center(p.slot) + origin;
        let (row, col) = (p.slot.row, p.slot.col);
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}" data-slot="{row},{col}">{} m</text>"#,
            c.x,
            c.y,
            h.to_metres()
        );
    }
    let _ = writeln!(out, "</g>");
}

/// Stairs up from `level` (solid) and landings from below (ring, with a line to the exit
/// wall: the only way on from the landing).
fn stairs(out: &mut String, dungeon: &Dungeon, level: u16, origin: DVec2, half: f64) {
    let layout = dungeon.layout();
    for slot in dungeon.dims().cells().filter(|s| s.kind() == SlotKind::Octagon) {
        let c = layout.center(slot) + origin;
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
        let Some(stair) = dungeon.stair_below(Pos { level, slot }) else { continue };
        let _ = writeln!(
            out,
            r#"<circle cx="{:.2}" cy="{:.2}" r="{:.2}" fill="none" stroke="{STAIR}" stroke-width="0.8"/>"#,
            c.x,
            c.y,
            half * 0.45
        );
        if let Some([a, b]) = dungeon.stair_exit(stair).and_then(|dir| layout.wall(slot, dir)) {
            let m = (a + b) / 2.0 + origin;
            let _ = writeln!(
                out,
                r#"<path d="M{:.2} {:.2}L{:.2} {:.2}" stroke="{STAIR}" stroke-width="0.8"/>"#,
                c.x, c.y, m.x, m.y
            );
        }
    }
}

/// The tint of a room of `role` in the plan (and its legend): [`RoomRole::tint`].
#[must_use]
pub fn role_tint(role: RoomRole) -> &'static str {
    role.tint()
}

/// The room table's rooms on `level`, each cell tinted by its room's role
/// (`<g class="rooms">`); cells painted rock since keep no tint.
fn room_tints(out: &mut String, dungeon: &Dungeon, level: u16, origin: DVec2) {
    if !dungeon.has_rooms() {
        return;
    }
    let _ = write!(out, r#"<g class="rooms" opacity="0.75">"#);
    for slot in dungeon.dims().cells() {
        let pos = Pos { level, slot };
        let Some(room) = dungeon.room_at(pos).filter(|_| dungeon.is_carved(pos)) else { continue };
        let role = dungeon.rooms()[usize::from(room.0)].role;
        if let Some(poly) = dungeon.layout().cell_polygon(slot) {
            polygon(out, &poly.iter().map(|v| *v + origin).collect::<Vec<_>>(), role_tint(role));
        }
    }
    let _ = writeln!(out, "</g>");
}

/// Where a room's label stands: the mean of its octagons' centres.
fn room_centre(dungeon: &Dungeon, room: crate::dungeon::RoomId) -> Option<DVec2> {
    let centres: Vec<DVec2> = dungeon
        .room_cells(room)
        .filter(|p| p.slot.kind() == SlotKind::Octagon)
        .map(|p| dungeon.layout().center(p.slot))
        .collect();
    (!centres.is_empty()).then(|| centres.iter().copied().sum::<DVec2>() / centres.len() as f64)
}

/// The passages between rooms of `level` as dashed lines from label to label, a stair's as
/// a dashed line to the room's edge marked with the level it leads to, and each room's
/// name and role (`<g class="room-labels">`).
fn room_labels(out: &mut String, dungeon: &Dungeon, level: u16, origin: DVec2) {
    if !dungeon.has_rooms() {
        return;
    }
    let _ = write!(
        out,
        r##"<g class="room-labels" font-family="sans-serif" font-size="3.4" text-anchor="middle">"##
    );
    for passage in dungeon.passages() {
        let (a, b) =
            (&dungeon.rooms()[usize::from(passage.from.0)], &dungeon.rooms()[usize::from(passage.to.0)]);
        if a.level != level || b.level != level {
            continue;
        }
        if let (Some(p), Some(q)) = (room_centre(dungeon, passage.from), room_centre(dungeon, passage.to)) {
            let (p, q) = (p + origin, q + origin);
            let _ = write!(
                out,
                r##"<path d="M{:.2} {:.2}L{:.2} {:.2}" stroke="#5a4a3a" stroke-width="0.6" stroke-dasharray="2 2" fill="none"/>"##,
                p.x, p.y, q.x, q.y
            );
        }
    }
    for (i, room) in dungeon.rooms().iter().enumerate().filter(|(_, r)| r.level == level) {
        let id = crate::dungeon::RoomId(i as u16);
        let Some(c) = room_centre(dungeon, id) else { continue };
        let c = c + origin;
        let stairs: Vec<String> = dungeon
            .passages()
            .iter()
            .filter(|p| p.kind == crate::dungeon::PassageKind::Stair && (p.from == id || p.to == id))
            .map(|p| {
                let other = &dungeon.rooms()[usize::from(if p.from == id { p.to.0 } else { p.from.0 })];
                format!("{} {}", if other.level > level { "up to" } else { "down to" }, other.name)
            })
            .collect();
        let plain = room.role == RoomRole::Plain || room.name == room.role.name();
        let mut role = if plain { String::new() } else { format!(" ({})", room.role) };
        if let Some(h) = room.height {
            role.push_str(&format!(", {h} m"));
        }
        let _ = write!(
            out,
            r##"<text x="{:.2}" y="{:.2}" stroke="#f7f4ee" stroke-width="1.2" paint-order="stroke" fill="#2a211a">{}{role}</text>"##,
            c.x,
            c.y - 1.0,
            xml_text(&room.name)
        );
        for (k, s) in stairs.iter().enumerate() {
            let _ = write!(
                out,
                r##"<text x="{:.2}" y="{:.2}" font-size="2.6" stroke="#f7f4ee" stroke-width="1" paint-order="stroke" fill="#2d5d9a">{}</text>"##,
                c.x,
                c.y + 2.6 + 3.0 * k as f64,
                xml_text(s)
            );
        }
    }
    let _ = writeln!(out, "</g>");
}

/// `text` with the characters XML gives a meaning escaped.
fn xml_text(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The entrance and exit, when they are on `level`.
fn markers(out: &mut String, dungeon: &Dungeon, level: u16, origin: DVec2, half: f64) {
    for (pos, colour, label) in [(dungeon.entrance(), ENTRANCE, "IN"), (dungeon.exit(), EXIT, "OUT")] {
        if let Some(pos) = pos.filter(|q| q.level == level) {
            let c = dungeon.layout().center(pos.slot) + origin;
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
}

pub(super) fn polygon(out: &mut String, points: &[DVec2], fill: &str) {
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
    use crate::grid::{Direction, Slot};

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
        // What the levels draw, without the legend's swatches.
        let drawn = |svg: &str| svg[..svg.find(r#"<g class="legend""#).unwrap()].to_string();
        let levels = drawn(&svg);
        assert_eq!(levels.matches(DOOR).count(), 1, "one door");
        assert_eq!(levels.matches(STAIR).count(), 2, "a stair and its landing");
        assert!(levels.contains(">IN<") && levels.contains(">OUT<"));
        // 3 carved cells + 1 carved seam.
        assert_eq!(levels.matches(&format!(r#"fill="{FLOOR}""#)).count(), 4);
        assert_eq!(to_svg(&d, &PlanOptions::default()), svg);
        // With an exit above, the landing points at it.
        d.set_tile(Pos::new(1, 0, 2), Registry::FLOOR).unwrap();
        d.set_edge(Pos::new(1, 0, 0), Direction::E, Registry::OPEN).unwrap();
        let svg = drawn(&to_svg(&d, &PlanOptions::default()));
        assert_eq!(svg.matches(STAIR).count(), 3, "a stair, its landing and the line to its exit");
    }

    /// Each level carries the slot coordinates of its octagon columns and rows, as edit
    /// commands write them, and the sheet a legend naming every mark.
    #[test]
    fn cells_of_their_own_height_are_labelled() {
        let mut d =
            Dungeon::new(3, 3, 2, crate::geometry::Proportions::default(), crate::dungeon::Fill::Floor)
                .unwrap();
        let plain = to_svg(&d, &PlanOptions::default());
        assert!(!plain.contains("class=\"heights\""));
        d.set_room_height(Pos::new(1, 2, 4), 8.5).unwrap();
        let svg = to_svg(&d, &PlanOptions::default());
        let level1 = &svg[svg.find(r#"<g id="level-1">"#).unwrap()..];
        assert!(level1.contains(r#"data-slot="2,4">8.5 m</text>"#), "{svg}");
        assert_eq!(svg.matches("class=\"heights\"").count(), 1, "level 0 has none");
    }

    #[test]
    fn coordinates_along_the_edges_and_a_legend() {
        let d = Dungeon::new(4, 3, 2, Proportions::default(), Fill::Floor).unwrap();
        let svg = to_svg(&d, &PlanOptions::default());
        let groups: Vec<&str> =
            svg.split(r#"<g class="coordinates""#).skip(1).map(|g| &g[..g.find("</g>").unwrap()]).collect();
        assert_eq!(groups.len(), 2, "one per level");
        for g in groups {
            let texts = &g[g.find('>').unwrap() + 1..];
            let labels: Vec<&str> = texts.split("\">").skip(1).map(|t| &t[..t.find('<').unwrap()]).collect();
            // Columns 0, 2, 4, 6 under the level, then rows 0, 2, 4 beside it.
            assert_eq!(labels, ["0", "2", "4", "6", "0", "2", "4"]);
        }
        let legend = &svg[svg.find(r#"<g class="legend""#).unwrap()..];
        for word in ["floor", "rock", "door", "stair up", "stair down", "entrance (IN)", "exit (OUT)"] {
            assert!(legend.contains(&format!(">{word}")), "{word} in the legend");
        }
    }

    /// The floor polygons and wall segments of level `level`'s group, read back from `svg`
    /// in world metres.
    fn read_level(svg: &str, level: u16, origin: DVec2) -> (Vec<Vec<DVec2>>, Vec<[DVec2; 2]>) {
        let group =
            svg.split(&format!(r#"<g id="level-{level}">"#)).nth(1).unwrap().split("</g>").next().unwrap();
        let number = |t: &str| t.parse::<f64>().unwrap();
        let floors = group
            .split(&format!(r#"<polygon fill="{FLOOR}" points=""#))
            .skip(1)
            .map(|rest| {
                let points = rest.split('"').next().unwrap();
                points
                    .split(' ')
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        DVec2::new(number(x), number(y)) - origin
                    })
                    .collect()
            })
            .collect();
        let path = group.split(&format!(r#"stroke="{WALL}""#)).nth(1).unwrap();
        let d = path.split(r#"d=""#).nth(1).unwrap().split('"').next().unwrap();
        let walls = d
            .split('M')
            .skip(1)
            .map(|seg| {
                let (a, b) = seg.split_once('L').unwrap();
                let point = |t: &str| {
                    let (x, y) = t.split_once(' ').unwrap();
                    DVec2::new(number(x), number(y)) - origin
                };
                [point(a), point(b)]
            })
            .collect();
        (floors, walls)
    }

    #[test]
    fn a_door_is_drawn_door_wide_with_the_wall_either_side() {
        let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Solid).unwrap();
        d.set_tile(Pos::new(0, 0, 0), Registry::FLOOR).unwrap();
        d.set_tile(Pos::new(0, 0, 2), Registry::FLOOR).unwrap();
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::DOOR).unwrap();
        let options = PlanOptions::default();
        let svg = to_svg(&d, &options);
        let origin = Sheet::new(&d, &options).origin(0);
        let (floors, walls) = read_level(&svg, 0, origin);
        let layout = d.layout();
        let (west, east) = (Slot::new(0, 0), Slot::new(0, 2));
        let want = layout.door((west, Direction::E), (east, Direction::W)).unwrap();
        let passage: Vec<&Vec<DVec2>> = floors.iter().filter(|f| f.len() == 4).collect();
        assert_eq!((floors.len(), passage.len()), (3, 1), "two octagons and one door passage");
        for corner in want {
            assert!(passage[0].iter().any(|p| p.distance(corner) < 0.01), "passage corner {corner} drawn");
        }
        let door_width = d.proportions().door_width;
        let across: f64 =
            (passage[0][0] - passage[0][1]).length().min((passage[0][1] - passage[0][2]).length());
        assert!((across - door_width).abs() < 0.02, "passage is {across} m wide, the door {door_width} m");
        // The wall stands either side of the opening on both octagons' facing walls.
        for (slot, dir) in [(west, Direction::E), (east, Direction::W)] {
            let [a, b] = layout.wall(slot, dir).unwrap();
            let on_wall = |p: DVec2| (p - a).perp_dot(b - a).abs() / (b - a).length() < 0.01;
            let drawn: f64 =
                walls.iter().filter(|[p, q]| on_wall(*p) && on_wall(*q)).map(|[p, q]| p.distance(*q)).sum();
            let want = (b - a).length() - door_width;
            assert!((drawn - want).abs() < 0.05, "{slot:?} {dir:?}: {drawn} m of wall drawn, want {want}");
        }
    }

    #[test]
    fn an_open_pillar_is_drawn_as_floor_without_walls() {
        let mut d = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Floor).unwrap();
        let options = PlanOptions::default();
        let origin = Sheet::new(&d, &options).origin(0);
        let (floors, walls) = read_level(&to_svg(&d, &options), 0, origin);
        let pillar = crate::grid::PillarId::new(Slot::new(1, 1), Direction::E).unwrap();
        let tri = d.layout().pillar(pillar.connector(), pillar.tip()).unwrap();
        let near = |p: DVec2| tri.iter().any(|c| c.distance(p) < 0.01);
        let faces = |walls: &[[DVec2; 2]]| walls.iter().filter(|[a, b]| near(*a) && near(*b)).count();
        assert_eq!(faces(&walls), 3, "a column's three faces are walls");
        d.set_pillar(0, pillar, crate::dungeon::PillarState::Open).unwrap();
        let (open_floors, open_walls) = read_level(&to_svg(&d, &options), 0, origin);
        assert_eq!(open_floors.len(), floors.len() + 1, "the pillar is a floor polygon");
        assert!(open_floors.iter().any(|f| f.len() == 3 && f.iter().all(|&p| near(p))));
        assert_eq!(faces(&open_walls), 0, "and has no walls");
        assert_eq!(open_walls.len(), walls.len() - 3);
    }
}
