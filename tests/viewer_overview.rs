//! Overviews that read (issue 15): the orbit and top views frame the whole dungeon, levels
#![cfg(feature = "viewer")]
//! are told apart by colour, walls seen from above are solid. Offscreen on lavapipe in CI;
//! without an adapter the tests print `SKIPPED` and pass unless `VIEWER_REQUIRE_ADAPTER=1`.

mod support;

use support::shoot;

use octile::dungeon::Dungeon;
use octile::generate::{GenerateOptions, generate};
use octile::viewer::AdapterPreference;
use octile::viewer::CameraKind;
use octile::viewer::LevelMode;
use octile::viewer::ViewOptions;
use octile::viewer::palette::{BACKGROUND, ROCK_CAP, level_tint, lit, to_srgb8};

fn generated(cols: u32, rows: u32, levels: u32) -> Dungeon {
    let options = GenerateOptions { seed: 7, levels, cols, rows, ..GenerateOptions::default() };
    generate(&options, &mut |_| {}).unwrap()
}

fn is_background(p: [u8; 4]) -> bool {
    let bg = to_srgb8(BACKGROUND);
    (0..3).all(|i| p[i].abs_diff(bg[i]) <= 2)
}

/// Orbit and top pictures of `dungeon`: every floor cell centre projects inside the picture,
/// no geometry touches the picture's edge, and the geometry's bounding box fills at least a
/// third of the picture.
fn check_framing(test: &str, name: &str, dungeon: &Dungeon) {
    for camera in [CameraKind::Orbit, CameraKind::Top] {
        let options = ViewOptions {
            camera,
            size: (480, 270),
            adapter: AdapterPreference::Cpu,
            ..ViewOptions::default()
        };
        let Some(shot) = shoot(test, dungeon, &options) else { return };
        let (w, h) = (shot.width, shot.height);
        for pos in dungeon.cells().filter(|&p| dungeon.tile_def(p).is_ok_and(|t| t.carved && t.walkable)) {
            let c = dungeon.layout().world_center(pos).as_vec3();
            let (x, y) = shot
                .view
                .project(c, w, h)
                .unwrap_or_else(|| panic!("{name} {camera:?}: {pos} behind the camera"));
            assert!(
                x >= 1.0 && y >= 1.0 && x < (w - 1) as f32 && y < (h - 1) as f32,
                "{name} {camera:?}: {pos} at ({x}, {y}) outside {w}x{h}"
            );
        }
        let edge = (0..w).flat_map(|x| [(x, 0), (x, h - 1)]).chain((0..h).flat_map(|y| [(0, y), (w - 1, y)]));
        for (x, y) in edge {
            let p = shot.pixel(x, y).unwrap();
            assert!(
                is_background(p),
                "{name} {camera:?}: geometry on the picture's edge at ({x}, {y}): {p:?}"
            );
        }
        let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
        for y in 0..h {
            for x in 0..w {
                if !is_background(shot.pixel(x, y).unwrap()) {
                    (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
                }
            }
        }
        let fill = f64::from((x1.saturating_sub(x0) + 1) * (y1.saturating_sub(y0) + 1)) / f64::from(w * h);
        assert!(
            fill >= 1.0 / 3.0,
            "{name} {camera:?}: the dungeon fills {:.0}% of the picture",
            fill * 100.0
        );
    }
}

#[test]
fn overviews_frame_the_samples() {
    for (name, dungeon) in support::samples() {
        check_framing("overviews_frame_the_samples", &name, &dungeon);
    }
}

#[test]
fn overviews_frame_generated_dungeons() {
    check_framing("overviews_frame_generated_dungeons", "12x12x3", &generated(12, 12, 3));
    check_framing("overviews_frame_generated_dungeons", "32x32x4", &generated(32, 32, 4));
}

#[test]
fn levels_differ_in_colour_and_walls_are_solid_from_above() {
    const TEST: &str = "levels_differ_in_colour_and_walls_are_solid_from_above";
    let d = generated(12, 12, 3);
    let options = ViewOptions {
        camera: CameraKind::Top,
        size: (900, 900),
        outlines: false,
        level_mode: Some(LevelMode::All),
        adapter: AdapterPreference::Cpu,
        ..ViewOptions::default()
    };
    let Some(shot) = shoot(TEST, &d, &options) else { return };
    let open = |p: octile::grid::Pos| d.tile_def(p).is_ok_and(|t| t.carved);
    // Per level: the colour at the centres of its floor octagons that no level above covers.
    let mut means = Vec::new();
    for level in 0..d.levels() {
        let (mut sum, mut n) = ([0f64; 3], 0);
        for pos in
            d.cells().filter(|p| p.level == level && open(*p) && d.tile_def(*p).is_ok_and(|t| t.walkable))
        {
            let above = (level + 1..d.levels()).any(|l| open(octile::grid::Pos { level: l, ..pos }));
            if above || pos.slot.kind() != octile::grid::SlotKind::Octagon {
                continue;
            }
            let (x, y) =
                shot.view.project(d.layout().world_center(pos).as_vec3(), shot.width, shot.height).unwrap();
            let p = shot.pixel(x as u32, y as u32).unwrap();
            for i in 0..3 {
                sum[i] += f64::from(p[i]);
            }
            n += 1;
        }
        assert!(n >= 3, "level {level}: {n} floor octagons seen from above");
        let mean = sum.map(|s| s / f64::from(n));
        let bg = to_srgb8(BACKGROUND);
        let off_background: f64 = (0..3).map(|i| (mean[i] - f64::from(bg[i])).abs()).sum();
        assert!(
            off_background > 100.0,
            "level {level}'s floors are drawn (mean {mean:?}, background {bg:?})"
        );
        means.push(mean);
    }
    for a in 0..means.len() {
        for b in a + 1..means.len() {
            let diff: f64 = (0..3).map(|i| (means[a][i] - means[b][i]).abs()).sum();
            assert!(
                diff > 30.0,
                "levels {a} and {b} look alike from above: {:?} vs {:?} (sum of RGB differences {diff:.1})",
                means[a],
                means[b]
            );
        }
    }
    // A wall of the top level seen from above: just on its rock side, the cap, not background.
    let top = d.levels() - 1;
    let plan = octile::walk::level_plan(&d, top);
    let mut solid = 0;
    for wall in plan.walls.iter().filter(|w| w.kind == octile::walk::WallKind::Rock).take(40) {
        let mid = (wall.a + wall.b) * 0.5 - (wall.b - wall.a).perp().normalize() * 0.15;
        let y = d.proportions().floor_y(top) + d.proportions().room_height;
        let at = glam::Vec3::new(mid.x as f32, y as f32, mid.y as f32);
        let (x, y) = shot.view.project(at, shot.width, shot.height).unwrap();
        if !is_background(shot.pixel(x as u32, y as u32).unwrap()) {
            solid += 1;
        }
    }
    assert!(solid >= 36, "{solid} of 40 wall tops are drawn (not background)");
}

/// The rock caps seen straight down (drawn flat, their light worked out once per draw)
/// have the colour the lit pipeline gives an upward face: the cap colour in the level's
/// tint under the sun, ambient and fill light, on every level.
#[test]
fn rock_caps_from_above_have_their_lit_colour() {
    const TEST: &str = "rock_caps_from_above_have_their_lit_colour";
    let d = generated(12, 12, 3);
    let band = (d.layout().gap() * 0.5).clamp(0.3, 1.0);
    let p = d.proportions();
    for level in 0..d.levels() {
        // The level alone, so no level above hides its caps.
        let options = ViewOptions {
            camera: CameraKind::Top,
            level: Some(level),
            size: (900, 900),
            outlines: false,
            adapter: AdapterPreference::Cpu,
            ..ViewOptions::default()
        };
        let Some(shot) = shoot(TEST, &d, &options) else { return };
        assert!(shot.view.orthographic);
        let tint = level_tint(usize::from(level));
        let base = std::array::from_fn(|i| ROCK_CAP[i] * tint[i]);
        let expected = to_srgb8(lit(base, glam::Vec3::Y, shot.view.eye.normalize()));
        // Each wall's cap in the middle of its band, on the wall's rock side.
        let plan = octile::walk::level_plan(&d, level);
        let walls: Vec<_> = plan.walls.iter().filter(|w| w.kind == octile::walk::WallKind::Rock).collect();
        let matching = walls
            .iter()
            .filter(|wall| {
                let mid = (wall.a + wall.b) * 0.5 - (wall.b - wall.a).perp().normalize() * (band * 0.5);
                let y = p.floor_y(level) + p.room_height;
                let at = glam::Vec3::new(mid.x as f32, y as f32, mid.y as f32);
                let (x, y) = shot.view.project(at, shot.width, shot.height).unwrap();
                let px = shot.pixel(x as u32, y as u32).unwrap();
                (0..3).all(|i| px[i].abs_diff(expected[i]) <= 2)
            })
            .count();
        assert!(walls.len() >= 100, "level {level}: {} walls", walls.len());
        assert!(
            matching * 100 >= walls.len() * 95,
            "level {level}: {matching} of {} caps have the lit cap colour {expected:?}",
            walls.len()
        );
    }
}

/// A room graph's top view shows each room in its role's tint (the plan's colours), unlit,
/// and a star on the entrance and on the goal, each on its own level; `rooms: false` (key
/// J, `--no-rooms`) leaves the floors as they were.
#[test]
fn the_top_view_tints_rooms_by_role_and_stars_the_entrance_and_goal() {
    use octile::dungeon::RoomRole;
    use octile::flow::{Grammar, GrammarOutcome, realise_grammar};
    use octile::viewer::palette::{GOAL_STAR, START_STAR};
    use octile::viewer::room_tints::tint_colour;
    const TEST: &str = "the_top_view_tints_rooms_by_role_and_stars_the_entrance_and_goal";
    let options = GenerateOptions { seed: 5, cols: 24, rows: 24, levels: 2, ..GenerateOptions::default() };
    let GrammarOutcome::Rooms(d) = realise_grammar(Grammar::Default, &options, &mut |_| {}).unwrap() else {
        panic!("the default grammar fits 24x24x2");
    };
    let (entrance, exit) = (d.entrance().unwrap(), d.exit().unwrap());
    let mut roles_seen = Vec::new();
    for level in 0..d.levels() {
        let view = |rooms| ViewOptions {
            camera: CameraKind::Top,
            level: Some(level),
            size: (900, 900),
            outlines: false,
            rooms,
            adapter: AdapterPreference::Cpu,
            ..ViewOptions::default()
        };
        let Some(tinted) = shoot(TEST, &d, &view(true)) else { return };
        let plain = shoot(TEST, &d, &view(false)).unwrap();
        let at = |shot: &octile::viewer::Shot, p: glam::Vec3| {
            let (x, y) = shot.view.project(p, shot.width, shot.height).unwrap();
            shot.pixel(x as u32, y as u32).unwrap()
        };
        let near = |p: [u8; 4], c: [u8; 3]| (0..3).all(|i| p[i].abs_diff(c[i]) <= 2);
        let (mut checked, mut matching) = (0, 0);
        for pos in d.cells().filter(|p| p.level == level && d.is_carved(*p)) {
            let Some(room) = d.room_at(pos) else { continue };
            let centre = d.layout().world_center(pos);
            let far_from_stars = [entrance, exit]
                .iter()
                .all(|s| s.level != level || d.layout().world_center(*s).distance(centre) > 7.0);
            if !far_from_stars || d.tile_def(pos).is_ok_and(|t| t.stair) {
                continue;
            }
            let role = d.rooms()[usize::from(room.0)].role;
            let expected = to_srgb8(tint_colour(role));
            let c = centre.as_vec3();
            checked += 1;
            if near(at(&tinted, c), expected) {
                matching += 1;
                roles_seen.push(role);
            }
            assert!(!near(at(&plain, c), expected), "{pos}: untinted, the floor is not the {role} tint");
        }
        assert!(checked >= 20, "level {level}: {checked} room cells checked");
        assert!(matching * 100 >= checked * 98, "level {level}: {matching} of {checked} room cells tinted");
        for (star, colour) in [(entrance, START_STAR), (exit, GOAL_STAR)] {
            let p = d.layout().world_center(star).as_vec3();
            let seen = near(at(&tinted, p), to_srgb8(colour));
            assert_eq!(seen, star.level == level, "level {level}: the star at {star} drawn {seen}");
            assert!(!near(at(&plain, p), to_srgb8(colour)), "no star with rooms off");
        }
    }
    for role in [RoomRole::Entrance, RoomRole::Goal, RoomRole::Plain] {
        assert!(roles_seen.contains(&role), "a {role} room is seen in its tint");
    }
}
