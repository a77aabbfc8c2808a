//! Light and shading in the viewer (issue 15): in the walk view the torches nearest the
//! camera light the scene, so the wall behind a torch is brighter and warmer with the torch
//! light on than off; a spiral stair seen from above shows its treads (shaded by height).
//! Offscreen on lavapipe in CI; without an adapter it prints `SKIPPED` and passes unless
//! `VIEWER_REQUIRE_ADAPTER=1`.
#![cfg(feature = "viewer")]

mod support;

use glam::{DVec2, DVec3};
use octile::generate::{GenerateOptions, generate};
use octile::rooms::{LightPreset, Markers, RoomGraph, torch_lights};
use octile::viewer::camera::{CameraKind, walk_view};
use octile::viewer::gpu::AdapterPreference;
use octile::viewer::{ViewOptions, ViewerError, offscreen_view};
use octile::walk::{Walker, compass_angle};

#[test]
fn a_torch_lights_the_wall_behind_it() {
    const TEST: &str = "a_torch_lights_the_wall_behind_it";
    let options = GenerateOptions { seed: 7, levels: 1, cols: 6, rows: 6, ..GenerateOptions::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    let markers = Markers::of(&d, &RoomGraph::of(&d));
    let light = *torch_lights(&markers, LightPreset::Blender).first().expect("a torch");
    let view = ViewOptions {
        camera: CameraKind::Walk,
        size: (320, 240),
        adapter: AdapterPreference::Cpu,
        ..ViewOptions::default()
    };
    let (gpu, mut off, frame) = match offscreen_view(&d, &view) {
        Ok(v) => v,
        Err(e @ ViewerError::NoAdapter { .. }) => {
            return support::skip(TEST, &e.to_string(), "VIEWER_REQUIRE_ADAPTER");
        }
        Err(e) => panic!("{e}"),
    };
    // Two metres in front of the torch, facing its wall, the floor at the level's.
    let facing = light.torch.facing;
    let at = DVec2::new(light.position.x, light.position.z) + facing * 2.0;
    let mut walker =
        Walker::at(DVec3::new(at.x, light.torch.cell.level as f64 * d.proportions().layer_height, at.y));
    walker.yaw = compass_angle(-facing);
    let view = walk_view(&walker, 320.0 / 240.0);
    let lit = octile::viewer::renderer::Frame { view, torches: true, ..frame.clone() };
    let unlit = octile::viewer::renderer::Frame { torches: false, ..lit.clone() };
    let (on, off_shot) = (off.capture(&gpu, &lit).unwrap(), off.capture(&gpu, &unlit).unwrap());
    // The wall half a metre beside the socket, level with it.
    let beside = light.torch.point + DVec3::new(-facing.y, 0.0, facing.x) * 0.5;
    let (x, y) = view.project(beside.as_vec3(), 320, 240).expect("the wall is in view");
    let (a, b) = (on.pixel(x as u32, y as u32).unwrap(), off_shot.pixel(x as u32, y as u32).unwrap());
    assert!(a[0] > b[0].saturating_add(5), "brighter with the torch light: {a:?} against {b:?}");
    let warmth = |p: [u8; 4]| i32::from(p[0]) - i32::from(p[2]);
    assert!(warmth(a) > warmth(b) + 10, "warmer with the torch light: {a:?} against {b:?}");
}

#[test]
fn a_spiral_stair_shows_its_treads_from_above() {
    const TEST: &str = "a_spiral_stair_shows_its_treads_from_above";
    let d = octile::format::from_json(include_str!("../assets/two_levels.json")).unwrap();
    let world = octile::walk::World::new(&d);
    let stair = world.stairs().first().expect("a stair").clone();
    let options = ViewOptions {
        camera: CameraKind::Top,
        level: Some(stair.pos.level),
        adapter: AdapterPreference::Cpu,
        ..ViewOptions::default()
    };
    let Some(shot) = support::shoot(TEST, &d, &options) else { return };
    // Round the stair half-way out along its treads: one brightness per tread, lower ones
    // darker, so the samples spread (a flat disc would be one colour but for the gap).
    let radius = stair.spiral.inradius * 0.5;
    let mut bright: Vec<u32> = (0..72)
        .filter_map(|i| {
            let a = f64::from(i) * std::f64::consts::TAU / 72.0;
            let p = stair.centre + DVec2::new(a.cos(), a.sin()) * radius;
            let top = stair.base_y + stair.spiral.height;
            let (x, y) = shot.view.project(DVec3::new(p.x, top, p.y).as_vec3(), shot.width, shot.height)?;
            shot.pixel(x as u32, y as u32).map(|c| u32::from(c[0]) + u32::from(c[1]) + u32::from(c[2]))
        })
        .collect();
    assert!(bright.len() > 60, "the stair is in the picture");
    bright.sort_unstable();
    let (low, high) = (bright[bright.len() / 10], bright[bright.len() * 9 / 10]);
    assert!(high > low + 60, "tread brightness from the 10th to the 90th percentile: {low} .. {high}");
}
