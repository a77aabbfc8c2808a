//! Doors in the viewer (issues 12 and 15): a closed door's leaf stops the walker and shows
//! across its opening; opened (as the walk mode's F key does) it swings aside, the picture
//! changes where the leaf was and the walker passes. Offscreen on lavapipe in CI; without an
//! adapter the picture part prints `SKIPPED` and passes unless `VIEWER_REQUIRE_ADAPTER=1`.
#![cfg(feature = "viewer")]

mod support;

use glam::{DVec2, DVec3};
use octile::dungeon::Dungeon;
use octile::generate::{GenerateOptions, generate};
use octile::mesh::{DoorLeaf, door_leaves};
use octile::viewer::AdapterPreference;
use octile::viewer::camera::{CameraKind, walk_view};
use octile::viewer::doors::{faced_door, leaf_triangles, toggle};
use octile::viewer::options::VIEW_RULES;
use octile::viewer::{ViewOptions, ViewerError, offscreen_view};
use octile::walk::{Walker, World, compass_angle};

fn with_doors() -> Dungeon {
    let options =
        GenerateOptions { seed: 7, levels: 1, cols: 6, rows: 6, doors: 1.0, ..GenerateOptions::default() };
    generate(&options, &mut |_| {}).unwrap()
}

/// A walker 2 m in front of `leaf`'s opening on its hinge cell's side, facing it, and the
/// unit direction from there through the door.
fn before_door(d: &Dungeon, leaf: &DoorLeaf) -> (Walker, DVec2) {
    let middle = DVec2::new(leaf.hinge.x, leaf.hinge.z) + leaf.along * (leaf.width * 0.5);
    let normal = DVec2::new(-leaf.along.y, leaf.along.x);
    let out = if normal.dot(d.layout().center(leaf.cell.slot) - middle) > 0.0 { normal } else { -normal };
    let world = World::with_rules(d, &VIEW_RULES);
    let mut walker =
        Walker::at(DVec3::new(middle.x + out.x * 2.0, leaf.hinge.y + 1.0, middle.y + out.y * 2.0));
    walker.yaw = compass_angle(-out);
    for _ in 0..20 {
        walker.step(&world, DVec2::ZERO, false, 0.05); // settle on the floor
    }
    (walker, -out)
}

/// How far past the door line the walker gets walking 4 s straight through it.
fn walk_through(d: &Dungeon, leaf: &DoorLeaf, walker: &Walker, through: DVec2) -> f64 {
    let world = World::with_rules(d, &VIEW_RULES);
    let mut w = walker.clone();
    for _ in 0..80 {
        w.step(&world, through * 1.5, false, 0.05);
    }
    let middle = DVec2::new(leaf.hinge.x, leaf.hinge.z) + leaf.along * (leaf.width * 0.5);
    (w.xz() - middle).dot(through)
}

#[test]
fn a_closed_door_stops_the_walker_and_opened_lets_it_through() {
    let mut d = with_doors();
    let leaf = *door_leaves(&d).iter().find(|l| !l.open).expect("a closed door");
    let (walker, through) = before_door(&d, &leaf);
    assert_eq!(faced_door(&d, &walker, leaf.level).map(|l| l.edge), Some(leaf.edge), "the walker faces it");
    let gap = d.layout().gap();
    let closed = walk_through(&d, &leaf, &walker, through);
    assert!(closed < gap, "stopped at the closed door: {closed:.2} m past its leaf (seam {gap:.2} m)");
    assert!(toggle(&mut d, &leaf).unwrap(), "F opens it");
    let open = walk_through(&d, &leaf, &walker, through);
    assert!(open > closed + 1.5, "through the open door: {open:.2} m past its leaf, {closed:.2} m closed");
}

#[test]
fn an_opened_door_changes_the_picture_where_its_leaf_was() {
    const TEST: &str = "an_opened_door_changes_the_picture_where_its_leaf_was";
    let closed = with_doors();
    let leaf = *door_leaves(&closed).iter().find(|l| !l.open).expect("a closed door");
    let (walker, _) = before_door(&closed, &leaf);
    let options = ViewOptions {
        camera: CameraKind::Walk,
        size: (320, 240),
        adapter: AdapterPreference::Cpu,
        ..ViewOptions::default()
    };
    let (gpu, mut off, frame) = match offscreen_view(&closed, &options) {
        Ok(v) => v,
        Err(e @ ViewerError::NoAdapter { .. }) => {
            return support::skip(TEST, &e.to_string(), "VIEWER_REQUIRE_ADAPTER");
        }
        Err(e) => panic!("{e}"),
    };
    let frame = octile::viewer::renderer::Frame { view: walk_view(&walker, 320.0 / 240.0), ..frame };
    let before = off.capture(&gpu, &frame).unwrap();
    let mut open = closed.clone();
    toggle(&mut open, &leaf).unwrap();
    off.renderer_mut().set_doors(&gpu.device, &leaf_triangles(&open));
    let after = off.capture(&gpu, &frame).unwrap();
    // The middle of the leaf, a metre up.
    let middle = leaf.hinge + DVec3::new(leaf.along.x, 0.0, leaf.along.y) * (leaf.width * 0.5) + DVec3::Y;
    let (x, y) = before.view.project(middle.as_vec3(), 320, 240).expect("the leaf is in view");
    let (a, b) = (before.pixel(x as u32, y as u32).unwrap(), after.pixel(x as u32, y as u32).unwrap());
    let diff: u32 = (0..3).map(|i| u32::from(a[i].abs_diff(b[i]))).sum();
    assert!(diff > 30, "the leaf's pixel before {a:?} and after {b:?} the door opened");
    let leaf_colour = octile::viewer::palette::to_srgb8(octile::mesh::LEAF_COLOUR[..3].try_into().unwrap());
    assert!(a[0] <= leaf_colour[0].saturating_add(90), "a dark wood leaf before: {a:?}");
}

/// Issue 25: `octile view assets/plus_arena.json --open-doors` refused every sample ("door
/// ... cannot open (its registry entry has no opens_to)"): their registries had no
/// `door_open`. Every door of every sample opens now, and plus_arena has one.
#[test]
fn every_sample_door_opens() {
    for (name, mut d) in support::samples() {
        let opened = octile::viewer::doors::open_all(&mut d).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name.starts_with("plus_arena") {
            assert!(opened >= 1, "{name}: the door behind one arm");
        }
        assert_eq!(octile::viewer::doors::open_all(&mut d).unwrap(), 0, "{name}: all open");
    }
}

/// `octile view --critical-path` on a dungeon with locks: every door opens (the locked,
/// one-way and secret ones too, as if their keys were held), the route is the flow's
/// critical path, and the walkthrough (`P`) walks it from the entrance to the goal.
#[test]
fn the_critical_path_is_the_route_and_the_walkthrough_walks_it_through_the_locks() {
    use octile::walk::{Tour, waypoints};
    let d = support::realised_mission("one-level.json", 24, 1, 1);
    let view = ViewOptions { critical_path: true, ..ViewOptions::default() };
    let shown = octile::viewer::options::view_dungeon(d.clone(), &view).unwrap();
    assert!(door_leaves(&shown).iter().all(|l| l.open), "every door open, mission doors too");
    let prepared = octile::viewer::prepare(&shown, &view).unwrap();
    let route = prepared.route.clone().expect("a route");
    assert_eq!(route, octile::flow::verify(&d).critical_path, "the critical path of the dungeon as made");
    let world = &prepared.world;
    let mut tour = Tour::new(waypoints(world, &route));
    let mut w = Walker::spawn(world, route[0]);
    for _ in 0..60 * 240 {
        let Some(wish) = tour.wish(w.xz(), w.body.walk_speed, 0.2) else { break };
        w.step(world, wish, false, 1.0 / 60.0);
    }
    assert!(tour.is_done(), "the walk stops at waypoint {} of {}", tour.next, tour.points.len());
    let goal = d.layout().center(d.exit().unwrap().slot);
    assert!(w.xz().distance(goal) < 2.0, "at the goal: {:?}", w.feet);
    // Without an exit there is no critical path: a typed refusal.
    let mut lost = d.clone();
    lost.set_exit(None).unwrap();
    let no_path = octile::viewer::prepare(&lost, &view).unwrap_err();
    assert!(matches!(no_path, ViewerError::NoCriticalPath), "{no_path}");
}
