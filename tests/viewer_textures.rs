//! The texture set in the viewer (issue 15): with textures on, the floor inside a cell shows
//! the flagstones (its brightness varies) where the untextured floor is flat, the picture
//! differs from the untextured one and is about as bright; the walk view's walls vary too;
//! edit mode's live mesh draws textured with the renderer's pipelines. Offscreen on
//! lavapipe in CI; without an adapter it prints `SKIPPED` and passes unless
//! `VIEWER_REQUIRE_ADAPTER=1`.
#![cfg(feature = "viewer")]

mod support;

use support::differing;

use glam::Vec3;
use octile::dungeon::Dungeon;
use octile::grid::SlotKind;
use octile::viewer::CameraKind;
use octile::viewer::gpu::{AdapterPreference, Gpu};
use octile::viewer::renderer::Frame;
use octile::viewer::screenshot::{Offscreen, Shot};
use octile::viewer::{ViewOptions, ViewerError, offscreen_view};

fn load(name: &str) -> Dungeon {
    let path = format!("{}/assets/{name}", env!("CARGO_MANIFEST_DIR"));
    octile::format::load(std::path::Path::new(&path)).unwrap()
}

/// The device, offscreen target and frame of `d` as `options` show it (textures off), or
/// `None` after a skip when there is no adapter.
fn view(test: &str, d: &Dungeon, options: &ViewOptions) -> Option<(Gpu, Offscreen, Frame)> {
    match offscreen_view(d, options) {
        Ok(v) => Some(v),
        Err(e @ ViewerError::NoAdapter { .. }) => {
            support::skip(test, &e.to_string(), "VIEWER_REQUIRE_ADAPTER");
            None
        }
        Err(e) => panic!("{test}: {e}"),
    }
}

/// A 320x240 walk view on the CPU adapter.
fn small_walk() -> ViewOptions {
    ViewOptions {
        camera: CameraKind::Walk,
        size: (320, 240),
        adapter: AdapterPreference::Cpu,
        ..ViewOptions::default()
    }
}

/// Luminance (0..255, of the stored sRGB values) of pixel `(x, y)`.
fn luma(shot: &Shot, x: u32, y: u32) -> f64 {
    let p = shot.pixel(x, y).expect("inside the picture");
    0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2])
}

/// Mean and standard deviation of the luminance of the square of half-side `r` pixels
/// round `(x, y)`.
fn patch(shot: &Shot, (x, y): (u32, u32), r: u32) -> (f64, f64) {
    let values: Vec<f64> = (y - r..=y + r)
        .flat_map(|py| (x - r..=x + r).map(move |px| (px, py)))
        .map(|(px, py)| luma(shot, px, py))
        .collect();
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
    (mean, variance.sqrt())
}

#[test]
fn textured_floors_show_flagstones_where_plain_ones_are_flat() {
    const TEST: &str = "textured_floors_show_flagstones_where_plain_ones_are_flat";
    let d = load("plus_arena.json");
    let options = ViewOptions {
        camera: CameraKind::Top,
        level: Some(0),
        size: (640, 480),
        outlines: false,
        // The floors alone: no star on the entrance (`viewer::room_tints`).
        rooms: false,
        adapter: AdapterPreference::Cpu,
        ..ViewOptions::default()
    };
    let Some((gpu, mut off, plain)) = view(TEST, &d, &options) else { return };
    let textured = Frame { textures: true, ..plain.clone() };
    let (flat, detailed) = (off.capture(&gpu, &plain).unwrap(), off.capture(&gpu, &textured).unwrap());
    // Round each floor octagon's centre, a square 2 m a side (flagstones are 1 m).
    let project = |p: Vec3| flat.view.project(p, flat.width, flat.height).expect("in view");
    let (mut cells, mut varied) = (0, 0);
    let (mut plain_sum, mut textured_sum) = (0.0, 0.0);
    for pos in d.cells().filter(|p| p.slot.kind() == SlotKind::Octagon) {
        let def = d.tile_def(pos).unwrap();
        if !def.carved || def.stair {
            continue;
        }
        let c = d.layout().world_center(pos).as_vec3();
        let (x, y) = project(c);
        let (east, _) = project(c + Vec3::X);
        let r = ((east - x).abs()).round() as u32;
        assert!(r >= 4, "a metre is {r} pixels: too small to see stones");
        let at = (x as u32, y as u32);
        let (flat_mean, flat_dev) = patch(&flat, at, r);
        let (detail_mean, detail_dev) = patch(&detailed, at, r);
        assert!(flat_dev < 1.0, "cell {pos}: the plain floor is flat, deviation {flat_dev:.2}");
        if detail_dev > 4.0 {
            varied += 1;
        }
        cells += 1;
        plain_sum += flat_mean;
        textured_sum += detail_mean;
    }
    assert!(cells >= 10, "{cells} floor cells checked");
    assert_eq!(varied, cells, "every textured floor cell varies (deviation above 4 grey levels)");
    // The texture averages 1: the textured floors are about as bright as the plain ones.
    let ratio = textured_sum / plain_sum;
    assert!((0.85..1.15).contains(&ratio), "textured / plain floor brightness {ratio:.3}");
    let changed = differing(&flat, &detailed);
    let total = (flat.width * flat.height) as usize;
    assert!(changed * 10 > total, "{changed} of {total} pixels differ");
}

#[test]
fn textured_walls_vary_in_the_walk_view() {
    const TEST: &str = "textured_walls_vary_in_the_walk_view";
    let d = load("plus_arena.json");
    let options = small_walk();
    let Some((gpu, mut off, plain)) = view(TEST, &d, &options) else { return };
    let textured = Frame { textures: true, ..plain.clone() };
    let (flat, detailed) = (off.capture(&gpu, &plain).unwrap(), off.capture(&gpu, &textured).unwrap());
    // Neighbouring pixels differ far more often with the texture: count horizontal steps of
    // more than 3 grey levels over the picture.
    let steps = |s: &Shot| {
        (0..s.height)
            .flat_map(|y| (1..s.width).map(move |x| (x, y)))
            .filter(|&(x, y)| (luma(s, x, y) - luma(s, x - 1, y)).abs() > 3.0)
            .count()
    };
    let (plain_steps, textured_steps) = (steps(&flat), steps(&detailed));
    assert!(
        textured_steps > 4 * plain_steps.max(100),
        "brightness steps: {textured_steps} textured against {plain_steps} plain"
    );
    assert!(differing(&flat, &detailed) * 5 > (flat.width * flat.height) as usize);
}

#[test]
fn edit_mode_live_mesh_draws_textured_like_the_renderer() {
    const TEST: &str = "edit_mode_live_mesh_draws_textured_like_the_renderer";
    let d = load("plus_arena.json");
    let options = small_walk();
    let Some((gpu, mut off, plain)) = view(TEST, &d, &options) else { return };
    // Edit mode draws no outlines over the live mesh.
    let plain = Frame { outlines: false, ..plain };
    let textured = Frame { textures: true, ..plain.clone() };
    let reference = off.capture(&gpu, &textured).unwrap();
    let mut live = support::live_mesh(&gpu, &mut off, &d, &options.mesh);
    let (drawn, _) = support::draw_live(&gpu, &mut off, &mut live, &d, &textured);
    let total = (drawn.width * drawn.height) as usize;
    let changed = differing(&reference, &drawn);
    assert!(changed * 200 < total, "{changed} of {total} pixels differ from the renderer's textured frame");
    let untextured = off.capture(&gpu, &plain).unwrap();
    assert!(differing(&untextured, &drawn) * 5 > total, "the live mesh's frame is textured");
}

#[test]
fn texture_size_scales_the_stones_as_the_export_does() {
    const TEST: &str = "texture_size_scales_the_stones_as_the_export_does";
    let d = load("plus_arena.json");
    let options = |metres: f64| ViewOptions {
        camera: CameraKind::Walk,
        size: (640, 480),
        outlines: false,
        textures: true,
        mesh: octile::mesh::MeshOptions { texture_size: metres, ..octile::mesh::MeshOptions::default() },
        adapter: AdapterPreference::Cpu,
        ..ViewOptions::default()
    };
    let Some(four) = support::shoot(TEST, &d, &options(4.0)) else { return };
    let two = support::shoot(TEST, &d, &options(2.0)).unwrap();
    // The floor just in front of the walker fills the bottom rows, magnified: the joints
    // between stones cross each row as dark bands (15 grey levels below the row's median);
    // stones half as wide (2 m repeats) make about twice as many.
    let joints = |s: &Shot| {
        (s.height - 24..s.height)
            .map(|y| {
                let row: Vec<f64> = (0..s.width).map(|x| luma(s, x, y)).collect();
                let mut sorted = row.clone();
                sorted.sort_by(f64::total_cmp);
                let dark = sorted[sorted.len() / 2] - 15.0;
                row.windows(2).filter(|p| p[0] >= dark && p[1] < dark).count()
            })
            .sum::<usize>()
    };
    let (coarse, fine) = (joints(&four), joints(&two));
    assert!(coarse > 24, "the 4 m stones show joints: {coarse}");
    assert!(fine * 2 > coarse * 3, "joint steps: {fine} with 2 m repeats against {coarse} with 4 m");
}

#[cfg(feature = "cli")]
#[test]
fn view_takes_the_export_texture_size() {
    let scratch = support::Scratch::new("view_takes_the_export_texture_size");
    let bad = support::run_octile(
        &["view", "assets/plus_arena.json", "--texture-size", "0", "--screenshot", "x.png"],
        &[],
    );
    assert!(!bad.status.success());
    assert!(support::stderr(&bad).contains("--texture-size"), "the flag is named: {}", support::stderr(&bad));
    let shot = |metres: &str, name: &str| {
        let png = scratch.join(name);
        let o = support::run_octile(
            &[
                "view",
                "assets/plus_arena.json",
                "--camera",
                "top",
                "--size",
                "320x240",
                "--textures",
                "--texture-size",
                metres,
                "--screenshot",
                png.to_str().unwrap(),
            ],
            &[],
        );
        if !o.status.success() && support::stderr(&o).contains("adapter") {
            return None;
        }
        assert!(o.status.success(), "{}", support::stderr(&o));
        Some(image::open(&png).unwrap().to_rgb8())
    };
    let Some(four) = shot("4", "four.png") else {
        return support::skip("view_takes_the_export_texture_size", "no adapter", "VIEWER_REQUIRE_ADAPTER");
    };
    let two = shot("2", "two.png").unwrap();
    let changed = four.pixels().zip(two.pixels()).filter(|(a, b)| a != b).count();
    assert!(changed * 20 > (320 * 240) as usize, "{changed} pixels differ between 4 m and 2 m repeats");
}
