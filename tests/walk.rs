//! Walking without a GPU: a scripted walk along a computed route collides, climbs the
//! stair and reaches the goal.

use glam::DVec2;
use octile::grid::Pos;
use octile::path::{PathRules, find_path};
use octile::walk::{Tour, Walker, World, segments_intersect, waypoints};

fn load(name: &str) -> octile::dungeon::Dungeon {
    let path = format!("{}/assets/{name}", env!("CARGO_MANIFEST_DIR"));
    octile::format::load(std::path::Path::new(&path)).unwrap()
}

/// Walks the route from `from` to `to`; returns the walker, the world and the problems seen
/// (steps that cross a wall segment, falls faster than a 0.5 m drop).
fn walk(name: &str, from: Pos, to: Pos) -> (Walker, World, Vec<String>) {
    walk_dungeon(&load(name), from, to)
}

/// [`walk`] on a dungeon in memory.
fn walk_dungeon(d: &octile::dungeon::Dungeon, from: Pos, to: Pos) -> (Walker, World, Vec<String>) {
    let world = World::new(d);
    let steps = find_path(d, from, to, &PathRules::default()).unwrap().expect("a route exists").steps;
    let mut tour = Tour::new(waypoints(&world, &steps));
    let mut w = Walker::spawn(&world, from);
    let mut crossings = Vec::new();
    let dt = 1.0 / 60.0;
    for frame in 0..60 * 240 {
        let Some(wish) = tour.wish(w.xz(), w.body.walk_speed, 0.2) else { break };
        let (p, y) = (w.xz(), w.feet.y);
        w.step(&world, wish, false, dt);
        let q = w.xz();
        if w.vertical_speed < -3.2 {
            crossings.push(format!("frame {frame}: falling at {} m/s at {:?}", w.vertical_speed, w.feet));
        }
        for l in [world.level_at(y), world.level_at(w.feet.y)] {
            for wall in &world.plan(l).unwrap().walls {
                if segments_intersect(p, q, wall.a, wall.b) {
                    crossings.push(format!("frame {frame}: {p} -> {q} crosses {wall:?} on level {l}"));
                }
            }
        }
    }
    assert!(tour.is_done(), "tour stuck at waypoint {} of {}: {:?}", tour.next, tour.points.len(), w.feet);
    (w, world, crossings)
}

#[test]
fn scripted_walk_climbs_the_stair_to_the_goal() {
    let (from, to) = (Pos::new(0, 2, 0), Pos::new(1, 0, 2));
    let (w, world, crossings) = walk("two_levels.json", from, to);
    assert!(crossings.is_empty(), "{crossings:#?}");
    assert_eq!(world.level_at(w.feet.y), 1, "ends on level 1, feet at {:?}", w.feet);
    assert!((w.feet.y - world.level_height()).abs() < 1e-6, "stands on level 1's floor: {:?}", w.feet);
    let goal = world.slot_centre(to.slot);
    assert!((w.xz() - goal).length() < 0.5, "reaches the goal: {:?} vs {goal}", w.feet);
}

#[test]
fn scripted_walk_crosses_the_arena() {
    let d = load("plus_arena.json");
    let cells: Vec<Pos> = d.cells().filter(|&p| d.tile_def(p).unwrap().walkable).collect();
    let (from, to) = (cells[0], *cells.last().unwrap());
    let (w, world, crossings) = walk("plus_arena.json", from, to);
    assert!(crossings.is_empty(), "{crossings:#?}");
    assert!((w.xz() - world.slot_centre(to.slot)).length() < 0.5);
}

#[test]
fn walls_stop_a_walker() {
    let d = load("two_levels.json");
    let world = World::new(&d);
    let mut w = Walker::spawn(&world, Pos::new(0, 2, 0));
    // Walk north into the wall for ten seconds: the octagon's north wall is 6.4 m away.
    for _ in 0..600 {
        w.step(&world, DVec2::new(0.0, -3.0), false, 1.0 / 60.0);
    }
    let start = world.slot_centre(octile::grid::Slot::new(2, 0));
    let moved = start.y - w.xz().y;
    assert!(moved > 5.5 && moved < 6.4 - w.body.radius + 1e-9, "stopped by the wall after {moved} m");
    assert_eq!(w.feet.y, 0.0);
}

#[test]
fn walking_into_the_shaft_from_above_falls() {
    let d = load("two_levels.json");
    let world = World::new(&d);
    // Start on level 1 just north of the hole above the stair and walk south into it.
    let mut w = Walker::spawn(&world, Pos::new(1, 0, 4));
    for _ in 0..60 * 6 {
        w.step(&world, DVec2::new(0.0, 3.0), false, 1.0 / 60.0);
    }
    assert!(w.feet.y < world.level_height() - 1.0, "fell into the shaft: {:?}", w.feet);
}

#[test]
fn scripted_walk_goes_down_the_stair() {
    let (from, to) = (Pos::new(1, 0, 2), Pos::new(0, 2, 0));
    let (w, world, crossings) = walk("two_levels.json", from, to);
    assert!(crossings.is_empty(), "{crossings:#?}");
    assert_eq!(w.feet.y, 0.0, "ends on level 0's floor: {:?}", w.feet);
    assert!((w.xz() - world.slot_centre(to.slot)).length() < 0.5, "reaches the goal: {:?}", w.feet);
}

#[test]
fn generated_dungeons_are_walked_from_entrance_to_exit() {
    for seed in [3, 8] {
        let o = octile::generate::GenerateOptions {
            seed,
            levels: 3,
            cols: 6,
            rows: 6,
            ..octile::generate::GenerateOptions::default()
        };
        let d = octile::generate::generate(&o, &mut |_| {}).unwrap();
        let (from, to) = (d.entrance().unwrap(), d.exit().unwrap());
        let (w, world, crossings) = walk_dungeon(&d, from, to);
        assert!(crossings.is_empty(), "seed {seed}: {crossings:#?}");
        assert_eq!(world.level_at(w.feet.y), 2, "seed {seed}: ends on the last level at {:?}", w.feet);
        assert!((w.xz() - world.slot_centre(to.slot)).length() < 0.5, "seed {seed}: reaches the exit");
    }
}
