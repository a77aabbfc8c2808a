//! Rooms by role in the top view: each room of the dungeon's room table drawn over its
//! floor in its role's tint ([`RoomRole::tint`], the plan's colours), and the entrance and
//! the goal marked with a star each. Triangle lists in world metres, made on the CPU per
//! level; the renderer uploads them when a top view first shows the level.

use glam::DVec2;

use crate::dungeon::{Dungeon, RoomRole};
use crate::grid::Pos;
use crate::mesh::Vertex;

/// How far above its floor a room's tint lies (metres), in front of the floor it covers.
const LIFT: f64 = 0.03;
/// How far inside its cell's walls a tint stops (metres), so walls keep their edge.
const INSET: f64 = 0.15;
/// The outer radius of the entrance's and goal's stars (metres).
const STAR_RADIUS: f64 = 4.8;
/// The stars' inner radius, as a share of the outer.
const STAR_WAIST: f64 = 0.4;

/// One level's room tints: per role (in [`RoomRole::ALL`] order) the floors of that role's
/// rooms on the level.
pub type LevelTints = [Vec<Vertex>; RoomRole::ALL.len()];

fn vertex(p: DVec2, y: f64) -> Vertex {
    Vertex {
        position: [p.x as f32, y as f32, p.y as f32],
        normal: [0.0, 1.0, 0.0],
        uv: [0.0; 2],
        uv1: [0.0; 2],
    }
}

/// Appends the fan of the convex `polygon` at height `y`, its first vertex the hub.
fn fan(out: &mut Vec<Vertex>, polygon: &[DVec2], y: f64) {
    for i in 1..polygon.len().saturating_sub(1) {
        out.extend([polygon[0], polygon[i], polygon[i + 1]].map(|p| vertex(p, y)));
    }
}

/// The tints of `level`'s rooms: every carved cell of a room, pulled a little inside its
/// walls, a few centimetres above its floor. All empty for a dungeon without a room table.
#[must_use]
pub fn level_tints(dungeon: &Dungeon, level: u16) -> LevelTints {
    let mut out: LevelTints = Default::default();
    if !dungeon.has_rooms() || level >= dungeon.levels() {
        return out;
    }
    let layout = dungeon.layout();
    let y = layout.proportions().floor_y(level) + LIFT;
    for slot in dungeon.dims().cells() {
        let pos = Pos { level, slot };
        let Some(room) = dungeon.room_at(pos).filter(|_| dungeon.is_carved(pos)) else { continue };
        let Some(inset) = layout.cell_polygon_inset(slot, INSET) else { continue };
        let role = dungeon.rooms()[usize::from(room.0)].role;
        fan(&mut out[role.index()], &inset, y);
    }
    out
}

/// A flat eight-pointed star round `pos`'s centre, a little above its floor (and above the
/// room tints).
#[must_use]
pub fn star(dungeon: &Dungeon, pos: Pos) -> Vec<Vertex> {
    let layout = dungeon.layout();
    let c = layout.center(pos.slot);
    let y = layout.proportions().floor_y(pos.level) + 2.0 * LIFT;
    let points = 8u32;
    let rim: Vec<DVec2> = (0..2 * points)
        .map(|i| {
            let r = if i % 2 == 0 { STAR_RADIUS } else { STAR_RADIUS * STAR_WAIST };
            let angle = std::f64::consts::PI * f64::from(i) / f64::from(points);
            c + DVec2::new(angle.cos(), angle.sin()) * r
        })
        .collect();
    let mut out = Vec::with_capacity(rim.len() * 3);
    for i in 0..rim.len() {
        out.extend([c, rim[i], rim[(i + 1) % rim.len()]].map(|p| vertex(p, y)));
    }
    out
}

/// The entrance's and the goal's (the exit's) stars, each empty when the dungeon has none.
#[must_use]
pub fn start_and_goal(dungeon: &Dungeon) -> [Vec<Vertex>; 2] {
    [dungeon.entrance(), dungeon.exit()].map(|p| p.map(|p| star(dungeon, p)).unwrap_or_default())
}

/// The linear colour a room of `role` is drawn in: its tint, decoded from sRGB and dimmed
/// to sit with the lit floors around it.
#[must_use]
pub fn tint_colour(role: RoomRole) -> [f32; 3] {
    role.tint_rgb().map(|c| srgb_to_linear(c) * 0.8)
}

/// The linear colour keys and locks of lock `id` are drawn in: the plan's colour of the
/// lock ([`crate::plan::lock_colour`]), decoded from sRGB.
#[must_use]
pub fn lock_colour(id: u32) -> [f32; 3] {
    crate::plan::lock_colour_rgb(id).map(srgb_to_linear)
}

fn srgb_to_linear(c: u8) -> f32 {
    let s = f32::from(c) / 255.0;
    if s <= 0.04045 { s / 12.92 } else { ((s + 0.055) / 1.055).powf(2.4) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hue in degrees and saturation of a colour (HSV; the channels' scale does not matter).
    fn hue_saturation([r, g, b]: [f32; 3]) -> (f32, f32) {
        let (max, min) = (r.max(g).max(b), r.min(g).min(b));
        let chroma = max - min;
        let hue = if chroma == 0.0 {
            0.0
        } else if max == r {
            60.0 * ((g - b) / chroma).rem_euclid(6.0)
        } else if max == g {
            60.0 * ((b - r) / chroma + 2.0)
        } else {
            60.0 * ((r - g) / chroma + 4.0)
        };
        (hue, if max == 0.0 { 0.0 } else { chroma / max })
    }

    fn hue_apart(a: f32, b: f32) -> f32 {
        let d = (a - b).abs() % 360.0;
        d.min(360.0 - d)
    }

    /// A key is told from a marker and from the route, and lock 2 from lock 3, by colour:
    /// locks 1 to 5 keep 30 degrees of hue from the markers' green, the route's orange and
    /// each other; lock 6 (0) is a grey, told by its low saturation.
    #[test]
    fn lock_colours_stand_apart_from_markers_the_route_and_each_other() {
        // As seen: sRGB-encoded, the lock colours as the plan writes them, the viewer's
        // linear colours encoded.
        let encoded = |linear: [f32; 3]| {
            linear.map(|c| if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 })
        };
        let others = [
            ("marker", encoded(crate::viewer::palette::MARKER)),
            ("route", encoded(crate::viewer::palette::PATH)),
        ];
        let seen = |id: u32| crate::plan::lock_colour_rgb(id).map(f32::from);
        let hue = |id: u32| hue_saturation(seen(id)).0;
        for id in 1..=5u32 {
            for (name, colour) in others {
                let apart = hue_apart(hue(id), hue_saturation(colour).0);
                assert!(apart >= 30.0, "lock {id} is {apart} degrees from the {name} colour");
            }
            for other in (id + 1)..=5 {
                assert!(hue_apart(hue(id), hue(other)) >= 30.0, "locks {id} and {other}");
            }
            assert!(hue_saturation(seen(id)).1 > 0.5, "lock {id} is a strong colour");
        }
        assert!(hue_saturation(seen(6)).1 < 0.4, "lock 6 is a grey");
    }
    use crate::flow::{Grammar, GrammarOutcome, realise_grammar};
    use crate::generate::GenerateOptions;

    fn rooms_dungeon() -> Dungeon {
        let options =
            GenerateOptions { seed: 5, cols: 24, rows: 24, levels: 2, ..GenerateOptions::default() };
        match realise_grammar(Grammar::Default, &options, &mut |_| {}).unwrap() {
            GrammarOutcome::Rooms(d) => *d,
            other => panic!("no rooms on 24x24x2: {other:?}"),
        }
    }

    /// Each fan triangle's centroid lies in one cell; the cells and roles they fall in are
    /// exactly the carved cells of the table's rooms.
    #[test]
    fn tints_cover_every_carved_room_cell_by_its_role() {
        let d = rooms_dungeon();
        for level in 0..d.levels() {
            let tints = level_tints(&d, level);
            let y = d.layout().proportions().floor_y(level) + LIFT;
            let mut covered = Vec::new();
            for (role, triangles) in RoomRole::ALL.into_iter().zip(&tints) {
                assert_eq!(triangles.len() % 3, 0);
                for t in triangles.chunks(3) {
                    assert!(t.iter().all(|v| (f64::from(v.position[1]) - y).abs() < 1e-4));
                    let c = t.iter().fold(DVec2::ZERO, |a, v| {
                        a + DVec2::new(f64::from(v.position[0]), f64::from(v.position[2]))
                    }) / 3.0;
                    let slot = d.layout().slot_at(c).expect("a tint lies on a cell");
                    covered.push((Pos { level, slot }, role));
                }
            }
            covered.sort();
            covered.dedup();
            let mut expected: Vec<(Pos, RoomRole)> = d
                .cells()
                .filter(|p| p.level == level && d.is_carved(*p))
                .filter_map(|p| d.room_at(p).map(|r| (p, d.rooms()[usize::from(r.0)].role)))
                .collect();
            expected.sort();
            assert!(!expected.is_empty(), "level {level} has room cells");
            assert_eq!(covered, expected, "level {level}");
        }
    }

    #[test]
    fn a_maze_has_no_tints_and_stars_mark_the_entrance_and_goal() {
        let maze = crate::generate::generate(&GenerateOptions::default(), &mut |_| {}).unwrap();
        assert!(level_tints(&maze, 0).iter().all(Vec::is_empty));
        let d = rooms_dungeon();
        let [start, goal] = start_and_goal(&d);
        for (star, pos) in [(start, d.entrance().unwrap()), (goal, d.exit().unwrap())] {
            assert_eq!(star.len(), 16 * 3);
            let c = d.layout().center(pos.slot);
            for v in &star {
                let r = DVec2::new(f64::from(v.position[0]), f64::from(v.position[2])).distance(c);
                assert!(r <= STAR_RADIUS + 1e-3, "a star point {r} m from its cell's centre");
            }
        }
        assert!(level_tints(&d, d.levels()).iter().all(Vec::is_empty), "no level past the last");
    }
}
