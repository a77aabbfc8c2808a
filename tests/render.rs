//! Offscreen render tests (Mesa lavapipe in CI). Without any adapter they show
//! `SKIPPED <test>: <reason>` in `cargo test`'s output and pass, unless
//! `VIEWER_REQUIRE_ADAPTER=1` (set by `.ci/run`) makes them fail.

mod support;

use support::shoot;

use glam::Vec3;
use octile::dungeon::Dungeon;
use octile::grid::SlotKind;
use octile::mesh::MaterialRole;
use octile::viewer::AdapterPreference;
use octile::viewer::CameraKind;
use octile::viewer::palette::{BACKGROUND, shade, to_srgb8};
use octile::viewer::{ViewOptions, ViewerError, screenshot};

fn load(name: &str) -> Dungeon {
    let path = format!("{}/assets/{name}", env!("CARGO_MANIFEST_DIR"));
    octile::format::load(std::path::Path::new(&path)).unwrap()
}

fn options(camera: CameraKind, level: Option<u16>) -> ViewOptions {
    ViewOptions { camera, level, size: (640, 480), adapter: AdapterPreference::Cpu, ..ViewOptions::default() }
}

fn close(a: [u8; 4], b: [u8; 3], tolerance: u8) -> bool {
    (0..3).all(|i| a[i].abs_diff(b[i]) <= tolerance)
}

#[test]
fn top_view_shows_floor_octagons_and_rock() {
    let d = load("plus_arena.json");
    let Some(shot) = shoot("top_view_shows_floor_octagons_and_rock", &d, &options(CameraKind::Top, Some(0)))
    else {
        return;
    };
    let floor = to_srgb8(shade(MaterialRole::Floor, Vec3::Y, Vec3::Y));
    let rock = to_srgb8(BACKGROUND);
    assert_ne!(floor, rock);
    let (mut floors, mut solids) = (0, 0);
    // The entrance and exit carry the top view's stars (`viewer::room_tints`).
    let starred = [d.entrance(), d.exit()];
    for pos in d.cells().filter(|p| p.slot.kind() == SlotKind::Octagon && !starred.contains(&Some(*p))) {
        let c = d.layout().world_center(pos).as_vec3();
        let (x, y) = shot.view.project(c, shot.width, shot.height).expect("centre in view");
        let px = shot.pixel(x as u32, y as u32).expect("centre inside the image");
        if d.tile_def(pos).unwrap().carved {
            assert!(close(px, floor, 3), "floor octagon {pos} at ({x}, {y}) is {px:?}, expected {floor:?}");
            floors += 1;
        } else {
            assert!(close(px, rock, 1), "solid octagon {pos} at ({x}, {y}) is {px:?}, expected {rock:?}");
            solids += 1;
        }
    }
    assert!(floors >= 10 && solids >= 8, "{floors} floor and {solids} solid octagons checked");
    let cells = d.cells().filter(|&p| d.tile_def(p).unwrap().carved).count() as u32;
    assert!(
        shot.stats.draw_calls <= 16 && shot.stats.draw_calls < cells,
        "a few draws, not one per cell: {:?}",
        shot.stats
    );
}

#[test]
fn walk_view_is_not_flat() {
    let d = load("plus_arena.json");
    let Some(shot) = shoot("walk_view_is_not_flat", &d, &options(CameraKind::Walk, None)) else { return };
    let mut histogram = std::collections::BTreeMap::new();
    for px in shot.pixels.chunks(4) {
        *histogram.entry([px[0] / 16, px[1] / 16, px[2] / 16]).or_insert(0usize) += 1;
    }
    let total = (shot.width * shot.height) as usize;
    let big = histogram.values().filter(|&&n| n * 20 > total).count();
    assert!(big >= 3, "walk view has {big} colours covering 5% of the image each: {histogram:?}");
    let rock = to_srgb8(BACKGROUND);
    let background = shot.pixels.chunks(4).filter(|p| close([p[0], p[1], p[2], 255], rock, 1)).count();
    assert!(background * 10 < total, "walk view is enclosed: {background} of {total} pixels are background");
}

#[test]
fn levels_are_culled_in_only_mode() {
    let d = load("two_levels.json");
    let Some(all) = shoot("levels_are_culled_in_only_mode", &d, &options(CameraKind::Orbit, None)) else {
        return;
    };
    let Some(one) = shoot("levels_are_culled_in_only_mode", &d, &options(CameraKind::Orbit, Some(1))) else {
        return;
    };
    assert!(one.stats.draw_calls < all.stats.draw_calls, "{:?} vs {:?}", one.stats, all.stats);
    assert!(one.stats.triangles < all.stats.triangles);
}

#[test]
fn bad_size_is_an_error() {
    let d = load("plus_arena.json");
    let mut o = options(CameraKind::Top, None);
    o.size = (0, 10);
    match screenshot(&d, &o) {
        Err(ViewerError::BadSize { width: 0, height: 10, .. }) => {}
        Err(e @ ViewerError::NoAdapter { .. }) => {
            support::skip("bad_size_is_an_error", &e.to_string(), "VIEWER_REQUIRE_ADAPTER");
        }
        other => panic!("expected BadSize, got {other:?}"),
    }
}

#[test]
fn bad_mesh_options_are_an_error() {
    let d = load("plus_arena.json");
    let mut o = options(CameraKind::Top, None);
    o.mesh.texture_size = -1.0;
    assert!(matches!(octile::viewer::prepare(&d, &o), Err(ViewerError::Mesh(_))));
}

#[test]
fn path_overlay_is_drawn_on_the_route() {
    let d = load("plus_arena.json");
    let from = octile::grid::Pos::new(0, 4, 4);
    let to = octile::grid::Pos::new(0, 4, 0);
    let mut o = options(CameraKind::Top, Some(0));
    o.path = Some((from, to));
    let Some(shot) = shoot("path_overlay_is_drawn_on_the_route", &d, &o) else { return };
    let path = to_srgb8(octile::viewer::palette::PATH);
    let floor = to_srgb8(shade(MaterialRole::Floor, Vec3::Y, Vec3::Y));
    let at = |pos: octile::grid::Pos| {
        let (x, y) =
            shot.view.project(d.layout().world_center(pos).as_vec3(), shot.width, shot.height).unwrap();
        shot.pixel(x as u32, y as u32).unwrap()
    };
    // Inner route cell (4, 2) and the seams between route cells (Void slots 3 and 1).
    for col in [1, 2, 3] {
        let p = at(octile::grid::Pos::new(0, 4, col));
        assert!(close(p, path, 2), "route slot col {col} is {p:?}, expected the path colour {path:?}");
    }
    let off = at(octile::grid::Pos::new(0, 2, 4));
    assert!(close(off, floor, 3), "a cell off the route keeps the floor colour: {off:?}");
}
