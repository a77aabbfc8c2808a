//! Walking without a GPU: a scripted walk along a computed route collides, climbs the
//! stair and reaches the goal.

// std's maths is the reference these tests check the crate's geometry against; no output
// comes from it (clippy.toml keeps it out of the library).
#![allow(clippy::disallowed_methods)]

use glam::{DVec2, DVec3};
use octile::dungeon::{Carve, Dungeon, EdgeDef, Fill, PillarState, Registry};
use octile::geometry::Proportions;
use octile::grid::{Direction, PillarId, Pos, Slot};
use octile::path::{PathRules, find_path};
use octile::walk::{Tour, Walker, World, compass_dir, segments_intersect, waypoints};

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
    walk_dungeon_with(d, from, to, &PathRules::default())
}

/// [`walk_dungeon`] with the route and the walker's walls under `rules`.
fn walk_dungeon_with(
    d: &octile::dungeon::Dungeon,
    from: Pos,
    to: Pos,
    rules: &PathRules,
) -> (Walker, World, Vec<String>) {
    let world = World::with_rules(d, rules);
    let steps = find_path(d, from, to, rules).unwrap().expect("a route exists").steps;
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
            // The walker does not open doors: a closed door is passable, not walkable.
            doors: 0.0,
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

/// The viewer's rules (doors open: it draws no door leaves yet) walk a dungeon with doors by
/// default from entrance to exit, through doors that block the route when they are closed.
#[test]
fn generated_dungeons_with_doors_are_walked_with_doors_open() {
    let open = PathRules { open_doors: true }; // the viewer's `VIEW_RULES`
    let mut blocked_when_closed = 0;
    for seed in [1, 2, 3] {
        let o = octile::generate::GenerateOptions { seed, levels: 3, cols: 6, rows: 6, ..Default::default() };
        let d = octile::generate::generate(&o, &mut |_| {}).unwrap();
        let (from, to) = (d.entrance().unwrap(), d.exit().unwrap());
        if find_path(&d, from, to, &PathRules::default()).unwrap().is_none() {
            blocked_when_closed += 1;
        }
        let (w, world, crossings) = walk_dungeon_with(&d, from, to, &open);
        assert!(crossings.is_empty(), "seed {seed}: {crossings:#?}");
        assert!((w.xz() - world.slot_centre(to.slot)).length() < 0.5, "seed {seed}: reaches the exit");
    }
    assert!(blocked_when_closed > 0, "some route needs a door opened, or this test proves nothing");
}

/// Steps `w` for `seconds` with the constant horizontal velocity `wish`.
fn push(w: &mut Walker, world: &World, wish: DVec2, seconds: f64) {
    for _ in 0..(seconds * 60.0) as usize {
        w.step(world, wish, false, 1.0 / 60.0);
    }
}

#[test]
fn the_stair_solid_stops_a_walker_on_its_own_level() {
    let d = load("two_levels.json");
    let world = World::new(&d);
    let stair = world.stair(Pos::new(0, 2, 4)).unwrap();
    let spiral = stair.spiral;
    let radius = Walker::at(DVec3::ZERO).body.radius;

    // From across the octagon (on the walkway opposite the landing) straight at the landing:
    // the steps in between are far higher than a step up, so the walker stops at their edge.
    let toward = compass_dir(stair.exit_angle);
    let start = stair.centre - toward * 5.8;
    let mut w = Walker::at(DVec3::new(start.x, stair.base_y, start.y));
    push(&mut w, &world, toward * 3.0, 10.0);
    assert_eq!(w.feet.y, stair.base_y, "stays on the floor: {:?}", w.feet);
    let r = w.xz().distance(stair.centre);
    assert!(r > spiral.step_radius() + radius - 0.05, "stopped at the steps' edge, {r} m from the centre");
    assert!(r < 5.8, "it did walk up to them: {r}");

    // Along the walkway towards the landing block, which reaches the wall: stopped at its side.
    let [_, eb] = spiral.landing;
    let side = (eb - stair.centre).normalize(); // the landing's clockwise side
    let (_, to) = spiral.landing_angles();
    let start = stair.centre + DVec2::from_angle(to + 1.5 * spiral.sector_angle()) * 5.8;
    let along = DVec2::from_angle(to + 1.5 * spiral.sector_angle()).perp() * -1.0; // counterclockwise
    let mut w = Walker::at(DVec3::new(start.x, stair.base_y, start.y));
    push(&mut w, &world, along * 3.0, 5.0);
    assert_eq!(w.feet.y, stair.base_y, "stays on the floor: {:?}", w.feet);
    let off = (w.xz() - stair.centre).perp_dot(side).abs();
    let ahead = (w.xz() - stair.centre).perp_dot(side) < 0.0;
    assert!(ahead && off > radius - 0.05, "stopped beside the landing: {off} m from its side ({:?})", w.feet);
    assert!(w.xz().distance(start) > 0.3, "it did walk up to it: {:?}", w.feet);

    // A body already in the solid (say it fell down the shaft beside the landing) cannot go
    // deeper but walks out.
    let start = stair.centre + DVec2::from_angle(to + 0.3 * spiral.sector_angle()) * 5.8;
    assert!(stair.blocks(start, stair.base_y, radius, 0.5), "the test starts half in the landing");
    let mut w = Walker::at(DVec3::new(start.x, stair.base_y, start.y));
    push(&mut w, &world, along * 3.0, 1.0);
    let deeper = (w.xz() - stair.centre).perp_dot(side);
    assert!(deeper >= (start - stair.centre).perp_dot(side) - 1e-9, "went no deeper: {:?}", w.feet);
    push(&mut w, &world, -along * 3.0, 1.0);
    assert!(w.xz().distance(start) > 2.0, "walked out: {:?}", w.feet);
}

/// Two octagons side by side joined through their long seam by `edge`; returns the dungeon.
fn two_rooms(edge: Option<EdgeDef>) -> Dungeon {
    let mut registry = Registry::standard();
    let state = match edge {
        Some(def) => registry.add_edge(def).unwrap(),
        None => Registry::DOOR,
    };
    let mut d = Dungeon::with_registry(2, 1, 1, Proportions::default(), registry, Fill::Solid).unwrap();
    d.set_tile(Pos::new(0, 0, 0), Registry::FLOOR).unwrap();
    d.set_tile(Pos::new(0, 0, 2), Registry::FLOOR).unwrap();
    d.set_edge(Pos::new(0, 0, 0), Direction::E, state).unwrap();
    d
}

/// Walks east from the west octagon, `offset` metres south of the line through both
/// centres, for eight seconds; returns how far east of the west centre it got.
fn walk_east(d: &Dungeon, offset: f64) -> f64 {
    let world = World::new(d);
    let west = world.slot_centre(octile::grid::Slot::new(0, 0));
    let start = west + DVec2::new(0.0, offset);
    let mut w = Walker::at(DVec3::new(start.x, 0.0, start.y));
    push(&mut w, &world, DVec2::new(3.0, 0.0), 8.0);
    assert_eq!(w.feet.y, 0.0, "on the floor: {:?}", w.feet);
    w.xz().x - west.x
}

#[test]
fn a_walkable_door_is_door_wide() {
    let open_door = EdgeDef {
        name: "open_door".into(),
        symbol: 'd',
        carve: Carve::Door,
        walkable: true,
        passable: true,
        opaque: true,
        move_cost: 0,
        material: "door_frame".into(),
        opens_to: None,
        closes_to: None,
        blocks_projectiles: None,
        burns_to: None,
        mechanism: None,
        drop: false,
    };
    let d = two_rooms(Some(open_door));
    let p = *d.proportions();
    let wall = p.base / 2.0; // the west octagon's east wall, from its centre
    let spacing = d.layout().spacing();
    // Through the opening: into the east octagon, up to its far wall.
    let through = walk_east(&d, 0.0);
    assert!(through > spacing + wall - 1.0, "passed the door: {through} m");
    // Beside the opening, still on the carved seam's width: the wall stops it.
    let beside = (p.door_width / 2.0 + p.long_edge() / 2.0) / 2.0;
    let stopped = walk_east(&d, beside);
    assert!(stopped < wall && stopped > wall - 0.5, "stopped by the wall beside the door: {stopped} m");
    // Just inside the opening (a body's radius and a bit from the jamb): passes.
    let edge = walk_east(&d, p.door_width / 2.0 - 0.35);
    assert!(edge > spacing + wall - 1.0, "passed by the jamb: {edge} m");
    // A closed door stays a wall.
    let closed = walk_east(&two_rooms(None), 0.0);
    assert!(closed < wall + d.layout().gap(), "stopped by the closed door: {closed} m");
}

#[test]
fn a_route_across_a_stair_on_its_own_level_goes_round_the_walkway() {
    // Level 0: a west room, the stair, a room south of it; level 1: the hole and the stair's
    // exit east of it. The route west -> south crosses the stair octagon below.
    let mut d = Dungeon::new(3, 2, 2, Proportions::default(), Fill::Solid).unwrap();
    for (pos, tile) in [
        (Pos::new(0, 0, 0), Registry::FLOOR),
        (Pos::new(0, 0, 2), Registry::STAIR),
        (Pos::new(0, 2, 2), Registry::FLOOR),
        (Pos::new(1, 0, 2), Registry::FLOOR),
        (Pos::new(1, 0, 4), Registry::FLOOR),
    ] {
        d.set_tile(pos, tile).unwrap();
    }
    d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::OPEN).unwrap();
    d.set_edge(Pos::new(0, 0, 2), Direction::S, Registry::OPEN).unwrap();
    d.set_edge(Pos::new(1, 0, 2), Direction::E, Registry::OPEN).unwrap();
    assert_eq!(d.stair_exit(Pos::new(0, 0, 2)), Some(Direction::E));
    let (from, to) = (Pos::new(0, 0, 0), Pos::new(0, 2, 2));
    let (w, world, crossings) = walk_dungeon(&d, from, to);
    assert!(crossings.is_empty(), "{crossings:#?}");
    assert_eq!(w.feet.y, 0.0, "stays on level 0: {:?}", w.feet);
    assert!((w.xz() - world.slot_centre(to.slot)).length() < 0.5, "reaches the goal: {:?}", w.feet);
}

#[test]
fn the_tour_climbs_along_the_stairs_walking_line() {
    let d = load("two_levels.json");
    let world = World::new(&d);
    let (from, to) = (Pos::new(0, 2, 0), Pos::new(1, 0, 2));
    let steps = find_path(&d, from, to, &PathRules::default()).unwrap().expect("a route exists").steps;
    let stair = world.stair(Pos::new(0, 2, 4)).expect("the route's stair");
    let points = waypoints(&world, &steps);
    let radius = |p: &DVec2| p.distance(stair.centre);
    let on_line = points.iter().filter(|p| (radius(p) - stair.spiral.walking.radius).abs() < 1e-9).count();
    let on_walkway =
        points.iter().filter(|p| (radius(p) - stair.spiral.walkway_radius()).abs() < 1e-9).count();
    // One turn, less the landing's angle, in steps of 15 degrees.
    assert!(on_line >= 15, "{on_line} waypoints on the walking line: {points:?}");
    assert!(on_walkway >= 1, "the tour reaches the ramp's foot along the walkway: {points:?}");
    // Every waypoint over the octagon is on one of the two lines.
    let reach = stair.polygon.iter().map(radius).fold(0.0, f64::max);
    assert_eq!(on_line + on_walkway, points.iter().filter(|p| radius(p) < reach).count());
}

#[test]
fn the_world_finds_levels_through_the_layout_and_clamps_them() {
    let d = load("two_levels.json");
    let world = World::new(&d);
    let layout = d.layout();
    let h = world.level_height();
    for y in [0.0, 0.5 * h, h - 1e-3, h, 1.5 * h] {
        assert_eq!(Some(world.level_at(y)), layout.level_at(y), "at {y}");
    }
    assert_eq!(world.level_at(-3.0), 0, "below the dungeon: the bottom level");
    assert_eq!(world.level_at(10.0 * h), d.levels() - 1, "above it: the top level");
    assert_eq!(world.level_at(f64::NAN), 0);
    for slot in d.dims().slots() {
        assert_eq!(world.slot_centre(slot), layout.center(slot));
    }
}

/// Room heights: the ceiling over a walker is its cell's own height, a seam's is the lower
/// of its cells', and a jump under a tall ceiling rises as high as it can, under a low one
/// it stops at the ceiling.
#[test]
fn ceilings_follow_each_cells_room_height() {
    // Doors 2 m high, so a room may be as low as 2.5 m: lower than a jump reaches.
    let low_doors = Proportions { door_height: 2.0, ..Proportions::default() };
    let mut d = Dungeon::new(3, 1, 2, low_doors, Fill::Floor).unwrap();
    d.set_room_height(Pos::new(0, 0, 0), 9.0).unwrap();
    d.set_room_height(Pos::new(0, 0, 2), 2.5).unwrap();
    let world = World::new(&d);
    let lay = d.layout();
    let (tall, low, plain) = (
        lay.center(octile::grid::Slot::new(0, 0)),
        lay.center(octile::grid::Slot::new(0, 2)),
        lay.center(octile::grid::Slot::new(0, 4)),
    );
    assert_eq!(world.ceiling(tall, 0.0), Some(9.0));
    assert_eq!(world.ceiling(low, 0.0), Some(2.5));
    assert_eq!(world.ceiling(plain, 0.0), Some(4.0));
    assert_eq!(world.ceiling((tall + low) / 2.0, 0.0), Some(2.5), "the seam is as high as its lower cell");
    assert_eq!(world.ceiling((low + plain) / 2.0, 0.0), Some(2.5));
    assert_eq!(world.ceiling(tall, 12.0), Some(16.0), "level 1 keeps the default");
    // A jump is stopped by the ceiling only where it is low enough to reach.
    let jump_top = |at: DVec2| {
        let mut w = Walker::spawn(&world, Pos::new(0, 0, if at == tall { 0 } else { 2 }));
        let mut top = w.feet.y;
        w.step(&world, DVec2::ZERO, true, 1.0 / 60.0);
        for _ in 0..120 {
            w.step(&world, DVec2::ZERO, false, 1.0 / 60.0);
            top = top.max(w.feet.y);
        }
        top
    };
    let (high, capped) = (jump_top(tall), jump_top(low));
    assert!(high > capped + 0.05, "a jump under 9 m rose {high} m, under 2.5 m {capped} m");
    assert!(capped + w_height() <= 2.5 + 1e-6, "the head stays under the 2.5 m ceiling: feet at {capped}");
}

fn w_height() -> f64 {
    octile::walk::Body::default().height
}

#[test]
fn a_walker_walks_through_an_open_pillar_and_not_through_a_column() {
    let mut d = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Floor).unwrap();
    let s = d.layout().spacing();
    let pillar = PillarId::new(Slot::new(1, 1), Direction::N).unwrap();
    // South along x = s from the middle of the long seam north of the pillar, through the
    // pillar, to the connector's centre.
    let walk_south = |d: &Dungeon| {
        let world = World::new(d);
        let mut w = Walker::at(DVec3::new(s, 0.0, 0.5));
        for _ in 0..60 * 4 {
            w.step(&world, DVec2::new(0.0, 3.0), false, 1.0 / 60.0);
        }
        w.xz()
    };
    let blocked = walk_south(&d);
    assert!(blocked.y < s - d.proportions().cut() - 1.0, "a column stops the walker at {blocked}");
    d.set_pillar(0, pillar, PillarState::Open).unwrap();
    let through = walk_south(&d);
    assert!(through.y > s, "the walker walks through the open pillar, to {through}");
    // The plan the walker collides with has the pillar as floor and no wall on its faces.
    let plan = World::new(&d).plan(0).unwrap().clone();
    assert!(plan.pieces.iter().any(|p| p.kind == octile::walk::PieceKind::Pillar(pillar)));
    let tri = d.layout().pillar(pillar.connector(), pillar.tip()).unwrap();
    assert!(!plan.walls.iter().any(|w| tri.contains(&w.a) && tri.contains(&w.b)));
    // The pillar's ceiling is the lowest of its three cells' room heights.
    let piece_height = |d: &Dungeon| {
        let plan = World::new(d).plan(0).unwrap().clone();
        plan.pieces.iter().find(|p| p.kind == octile::walk::PieceKind::Pillar(pillar)).unwrap().height
    };
    assert_eq!(piece_height(&d), 4.0);
    d.set_room_height(Pos { level: 0, slot: pillar.connector() }, 7.0).unwrap();
    d.set_room_height(Pos { level: 0, slot: pillar.octagons()[0] }, 3.5).unwrap();
    assert_eq!(piece_height(&d), 3.5);
}
