//! Light and shading in the viewer (issue 15): in the walk view the torches' light, baked
//! into the vertices (`viewer::torchlight`), makes the wall behind a torch brighter and
//! warmer with the torch light on than off, and leaves a wall out of every torch's range
//! unwarmed (only the other lights dim); a spiral stair seen from above shows its treads
//! (shaded by height). Offscreen on lavapipe in CI; without an adapter it prints `SKIPPED`
//! and passes unless `VIEWER_REQUIRE_ADAPTER=1`.
#![cfg(feature = "viewer")]
// std's maths is the reference these tests check the crate's geometry against; no output
// comes from it (clippy.toml keeps it out of the library).
#![allow(clippy::disallowed_methods)]

mod support;

use support::differing;

use glam::{DVec2, DVec3, Vec3};
use octile::dungeon::Dungeon;
use octile::generate::{GenerateOptions, generate};
use octile::rooms::{LightPreset, Markers, RoomGraph, TorchLight, torch_lights};
use octile::viewer::camera::{CameraKind, View, walk_view};
use octile::viewer::gpu::{AdapterPreference, Gpu};
use octile::viewer::markers::{markers_of, torch_positions};
use octile::viewer::renderer::Frame;
use octile::viewer::screenshot::{Offscreen, Shot};
use octile::viewer::torchlight::Torchlight;
use octile::viewer::{ViewOptions, ViewerError, offscreen_view};
use octile::walk::{Walker, WallKind, compass_angle, level_plan};

/// Red minus blue of a pixel: how warm it is.
fn warmth(p: [u8; 4]) -> i32 {
    i32::from(p[0]) - i32::from(p[2])
}

/// An offscreen viewer of `d` (320 x 240) and its walk frame, torch-lit, of a walker
/// standing at `feet` facing compass direction `facing`; `None` (after `support::skip`)
/// without an adapter.
fn walk_frame(test: &str, d: &Dungeon, feet: DVec3, facing: DVec2) -> Option<(Gpu, Offscreen, Frame)> {
    let view = ViewOptions {
        camera: CameraKind::Walk,
        size: (320, 240),
        adapter: AdapterPreference::Cpu,
        ..ViewOptions::default()
    };
    let (gpu, off, frame) = match offscreen_view(d, &view) {
        Ok(v) => v,
        Err(e @ ViewerError::NoAdapter { .. }) => {
            support::skip(test, &e.to_string(), "VIEWER_REQUIRE_ADAPTER");
            return None;
        }
        Err(e) => panic!("{e}"),
    };
    let mut walker = Walker::at(feet);
    walker.yaw = compass_angle(facing);
    let view = walk_view(&walker, 320.0 / 240.0);
    Some((gpu, off, Frame { view, torches: true, ..frame }))
}

/// The walk view of [`walk_frame`] with the torch light on and off.
fn walk_on_off(test: &str, d: &Dungeon, feet: DVec3, facing: DVec2) -> Option<(View, Shot, Shot)> {
    let (gpu, mut off, lit) = walk_frame(test, d, feet, facing)?;
    let unlit = Frame { torches: false, ..lit.clone() };
    Some((lit.view, off.capture(&gpu, &lit).unwrap(), off.capture(&gpu, &unlit).unwrap()))
}

/// A generated 6x6-octagon level and the walk 2 m in front of its first torch, facing
/// the torch's wall: the walker's feet, its heading and the torch.
fn before_a_torch() -> (Dungeon, DVec3, DVec2, TorchLight) {
    let options = GenerateOptions { seed: 7, levels: 1, cols: 6, rows: 6, ..GenerateOptions::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    let markers = Markers::of(&d, &RoomGraph::of(&d));
    let light = *torch_lights(&markers, LightPreset::Blender).first().expect("a torch");
    let facing = light.torch.facing;
    let at = DVec2::new(light.position.x, light.position.z) + facing * 2.0;
    let feet = DVec3::new(at.x, light.torch.cell.level as f64 * d.proportions().layer_height, at.y);
    (d, feet, -facing, light)
}

/// The pixel of `view` (320 x 240) at world point `p`, on and off.
fn pixels_at(view: &View, p: DVec3, on: &Shot, off: &Shot) -> ([u8; 4], [u8; 4]) {
    let (x, y) = view.project(p.as_vec3(), 320, 240).expect("the point is in view");
    (on.pixel(x as u32, y as u32).unwrap(), off.pixel(x as u32, y as u32).unwrap())
}

#[test]
fn a_torch_lights_the_wall_behind_it() {
    const TEST: &str = "a_torch_lights_the_wall_behind_it";
    let (d, feet, heading, light) = before_a_torch();
    let Some((view, on, off)) = walk_on_off(TEST, &d, feet, heading) else { return };
    // The wall half a metre beside the socket, level with it.
    let facing = light.torch.facing;
    let beside = light.torch.point + DVec3::new(-facing.y, 0.0, facing.x) * 0.5;
    let (a, b) = pixels_at(&view, beside, &on, &off);
    assert!(a[0] > b[0].saturating_add(5), "brighter with the torch light: {a:?} against {b:?}");
    assert!(warmth(a) > warmth(b) + 10, "warmer with the torch light: {a:?} against {b:?}");
}

/// True when the segments `a..b` and `c..d` cross (seen from above).
fn crosses(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let side = |p: DVec2, q: DVec2, r: DVec2| (q - p).perp_dot(r - p);
    side(a, b, c) * side(a, b, d) < 0.0 && side(c, d, a) * side(c, d, b) < 0.0
}

#[test]
fn a_wall_out_of_every_torch_range_is_not_warmed() {
    const TEST: &str = "a_wall_out_of_every_torch_range_is_not_warmed";
    let options = GenerateOptions { seed: 7, levels: 1, cols: 12, rows: 12, ..GenerateOptions::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    let torches = Torchlight::new(&torch_positions(&markers_of(&d)));
    let room = d.proportions().room_height;
    let plan = level_plan(&d, 0);
    let rock: Vec<_> = plan.walls.iter().filter(|w| w.kind == WallKind::Rock).collect();
    // A rock wall no torch reaches (sampled every 0.2 m, foot to top), seen from 2.5 m in
    // front of it with nothing between, where a torch is in reach (the frame is torch-lit).
    let (wall, eye) = rock
        .iter()
        .filter(|w| w.a.distance(w.b) > 1.0)
        .find_map(|w| {
            let inward = (w.b - w.a).perp().normalize();
            let normal = Vec3::new(inward.x as f32, 0.0, inward.y as f32);
            let steps = (w.a.distance(w.b) / 0.2) as usize;
            let dark = (0..=steps).all(|i| {
                let p = w.a.lerp(w.b, i as f64 / steps as f64);
                (0..=4).all(|k| {
                    let y = room * f64::from(k) / 4.0;
                    torches.light_at(Vec3::new(p.x as f32, y as f32, p.y as f32), normal) == 0.0
                })
            });
            let mid = (w.a + w.b) * 0.5;
            let eye = mid + inward * 2.5;
            let clear = rock.iter().all(|o| !crosses(mid + inward * 0.01, eye, o.a, o.b));
            let lit = torches.within_reach(Vec3::new(eye.x as f32, 1.7, eye.y as f32));
            (dark && clear && lit).then_some((*w, eye))
        })
        .expect("a wall out of every torch's range, seen from a torch-lit spot");
    let mid = (wall.a + wall.b) * 0.5;
    let Some((view, on, off)) = walk_on_off(TEST, &d, DVec3::new(eye.x, 0.0, eye.y), mid - eye) else {
        return;
    };
    let (a, b) = pixels_at(&view, DVec3::new(mid.x, room * 0.5, mid.y), &on, &off);
    assert!(warmth(a) <= warmth(b) + 2, "no torch warms it: {a:?} against {b:?}");
    assert!(a[1] < b[1], "the other lights dim while torches light the frame: {a:?} against {b:?}");
}

#[test]
fn edit_modes_live_mesh_is_torch_lit_as_the_renderer_is() {
    const TEST: &str = "edit_modes_live_mesh_is_torch_lit_as_the_renderer_is";
    let (d, feet, heading, _) = before_a_torch();
    let Some((gpu, mut off, lit)) = walk_frame(TEST, &d, feet, heading) else { return };
    // Edit mode draws no outlines over the live mesh.
    let lit = Frame { outlines: false, ..lit };
    let reference = off.capture(&gpu, &lit).unwrap();
    let unlit = off.capture(&gpu, &Frame { torches: false, ..lit.clone() }).unwrap();
    let mut live = support::live_mesh(&gpu, &mut off, &d, &octile::mesh::MeshOptions::default());
    let (drawn, _) = support::draw_live(&gpu, &mut off, &mut live, &d, &lit);
    let total = (drawn.width * drawn.height) as usize;
    let changed = differing(&reference, &drawn);
    assert!(changed * 200 < total, "{changed} of {total} pixels differ from the renderer's torch-lit frame");
    assert!(differing(&unlit, &drawn) * 5 > total, "the live mesh's frame is torch-lit");
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

#[test]
fn edit_mode_lights_its_mesh_with_the_torches_it_is_given() {
    const TEST: &str = "edit_mode_lights_its_mesh_with_the_torches_it_is_given";
    let (d, feet, heading, light) = before_a_torch();
    let Some((gpu, mut off, frame)) = walk_frame(TEST, &d, feet, heading) else { return };
    let mesh = octile::mesh::MeshOptions::default();
    let mut live = support::live_mesh(&gpu, &mut off, &d, &mesh);
    let (first, _) = support::draw_live(&gpu, &mut off, &mut live, &d, &frame);
    let all = torch_positions(&markers_of(&d));
    assert!(!live.set_torches(&gpu.device, &d, &all).unwrap(), "the same torches change nothing");
    // A torch comes 1.5 m along the wall from the one in front of the walker, as when an
    // edit carves a room there: the chunks in its reach are meshed again with its light.
    let facing = light.torch.facing;
    let along = Vec3::new(-facing.y as f32, 0.0, facing.x as f32);
    let more: Vec<Vec3> = all.iter().copied().chain([light.position.as_vec3() + along * 1.5]).collect();
    assert!(live.set_torches(&gpu.device, &d, &more).unwrap());
    let (brighter, _) = support::draw_live(&gpu, &mut off, &mut live, &d, &frame);
    assert!(differing(&brighter, &first) > 500, "the new torch lights the wall in view");
    // The same picture as a live mesh lit by those torches from the start.
    let (format, samples) = (off.renderer_mut().format(), off.renderer_mut().samples());
    let torches = std::sync::Arc::new(Torchlight::new(&more));
    let mut fresh =
        octile::viewer::edit::live::LiveMesh::new(&gpu.device, format, samples, &d, &mesh, torches);
    let (expected, _) = support::draw_live(&gpu, &mut off, &mut fresh, &d, &frame);
    assert_eq!(differing(&brighter, &expected), 0, "re-lit chunks equal chunks lit so from the start");
    // It goes again (the edit undone): the first picture comes back.
    assert!(live.set_torches(&gpu.device, &d, &all).unwrap());
    let (again, _) = support::draw_live(&gpu, &mut off, &mut live, &d, &frame);
    assert_eq!(differing(&again, &first), 0, "without the new torch the picture is as before");
}
