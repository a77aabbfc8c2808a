//! The walk model's stair agrees with the stair the mesh builder makes: rays cast straight
//! down onto the stair solid's treads (its horizontal triangles) meet them within one step
//! height (0.25 m) of `walk::Stair::height_at`, over the whole octagon and along the tour's
//! route up the spiral, for a landing on every one of the eight walls and for generated
//! dungeons.

// std's maths is the reference these tests check the crate's geometry against; no output
// comes from it (clippy.toml keeps it out of the library).
#![allow(clippy::disallowed_methods)]

mod support;

use glam::DVec2;
use octile::dungeon::{Dungeon, Fill, Registry};
use octile::generate::{GenerateOptions, generate};
use octile::geometry::{MAX_RISE, Proportions};
use octile::grid::{Direction, Pos};
use octile::mesh::{self, MaterialRole, MeshOptions};
use octile::walk::{Stair, World, waypoints};
use support::Tri;

/// Height of the highest horizontal stair triangle straight below `p` (level-local), or 0
/// (the floor) when there is none.
fn mesh_height(treads: &[Tri], p: DVec2) -> f64 {
    let mut best: f64 = 0.0;
    for t in treads {
        let [a, b, c] = t.map(|v| DVec2::new(v[0], v[2]));
        let s = |u: DVec2, v: DVec2| (v - u).perp_dot(p - u);
        let (d1, d2, d3) = (s(a, b), s(b, c), s(c, a));
        let eps = 1e-9;
        let inside = (d1 >= -eps && d2 >= -eps && d3 >= -eps) || (d1 <= eps && d2 <= eps && d3 <= eps);
        if inside {
            best = best.max(t[0][1]);
        }
    }
    best
}

/// The horizontal triangles of the stair solids standing on `level`.
fn treads(d: &Dungeon, level: u16) -> Vec<Tri> {
    let m = mesh::build(d, &MeshOptions::default()).unwrap();
    support::level(&m, usize::from(level), |r| r == MaterialRole::Stair)
        .into_iter()
        .filter(|t| (t[0][1] - t[1][1]).abs() < 1e-5 && (t[0][1] - t[2][1]).abs() < 1e-5)
        .collect()
}

/// Compares the walk model with the mesh at `p`; returns the difference (metres).
fn gap(stair: &Stair, treads: &[Tri], p: DVec2) -> f64 {
    let walk = stair.height_at(p).map_or(0.0, |h| h - stair.base_y);
    (walk - mesh_height(treads, p)).abs()
}

/// Checks one stair over a polar grid of the octagon (away from the column and from the
/// one line where the landing's side drops to the floor) and along the tour's route up.
fn check_stair(d: &Dungeon, world: &World, stair: &Stair) {
    let all = treads(d, stair.pos.level);
    let near: Vec<Tri> = all
        .into_iter()
        .filter(|t| t.iter().all(|v| DVec2::new(v[0], v[2]).distance(stair.centre) < 8.0))
        .collect();
    assert!(!near.is_empty(), "the stair at {} has treads", stair.pos);
    let spiral = &stair.spiral;
    let (_, foot) = spiral.landing_angles();
    let mut checked = 0;
    for ri in 0..12 {
        let r = spiral.column_radius()
            + 0.05
            + (spiral.inradius - spiral.column_radius() - 0.1) * f64::from(ri) / 11.0;
        for k in 0..720 {
            let angle = f64::from(k) / 720.0 * std::f64::consts::TAU + 1e-3;
            let off = (angle - foot).rem_euclid(std::f64::consts::TAU);
            if !(0.01..=std::f64::consts::TAU - 0.01).contains(&off) {
                continue; // the landing's side face: floor on one side, full height on the other
            }
            let p = stair.centre + DVec2::from_angle(angle) * r;
            let g = gap(stair, &near, p);
            assert!(
                g <= MAX_RISE + 1e-4,
                "stair {} exit {:?}: walk and mesh differ by {g} m at radius {r:.2}, plan angle {angle:.3}",
                stair.pos,
                stair.exit
            );
            checked += 1;
        }
    }
    assert!(checked > 8000);
    // Along the tour: from the cell before the stair, up, and out through the exit.
    let top = Pos { level: stair.pos.level + 1, ..stair.pos };
    let exit = d.stair_exit(stair.pos).expect("the stair has an exit");
    let beyond = Pos { slot: d.dims().neighbor(top.slot, exit).unwrap().unwrap(), ..top };
    let before = Direction::ALL
        .into_iter()
        .filter_map(|dir| Some(Pos { slot: d.dims().neighbor(stair.pos.slot, dir).ok()??, ..stair.pos }))
        .find(|&p| d.tile_def(p).unwrap().walkable)
        .unwrap();
    let points = waypoints(world, &[before, stair.pos, top, beyond]);
    let (mut on_stair, mut highest) = (0, 0.0f64);
    for w in points.windows(2) {
        for k in 0..20 {
            let p = w[0].lerp(w[1], f64::from(k) / 20.0);
            if stair.height_at(p).is_some() {
                on_stair += 1;
                highest = highest.max(mesh_height(&near, p));
                let g = gap(stair, &near, p);
                assert!(g <= MAX_RISE + 1e-4, "stair {} on the route at {p}: {g} m apart", stair.pos);
            }
        }
    }
    assert!(on_stair > 100, "the route goes round the spiral ({on_stair} samples)");
    assert!((highest - spiral.height).abs() < 1e-4, "the route reaches the landing");
}

#[test]
fn walk_model_matches_the_mesh_for_every_landing_wall() {
    for exit in Direction::ALL {
        let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
        let stair = Pos::new(0, 2, 2);
        d.set_tile(stair, Registry::STAIR).unwrap();
        for dir in Direction::ALL {
            if dir != exit {
                d.set_edge(Pos::new(1, 2, 2), dir, Registry::WALL).unwrap();
            }
        }
        assert_eq!(d.stair_exit(stair), Some(exit));
        let world = World::new(&d);
        let s = world.stair(stair).unwrap();
        assert_eq!(s.exit, exit);
        check_stair(&d, &world, s);
    }
}

#[test]
fn walk_model_matches_the_mesh_in_samples_and_generated_dungeons() {
    let mut dungeons: Vec<Dungeon> = support::samples().into_iter().map(|(_, d)| d).collect();
    for seed in [0, 5] {
        let o = GenerateOptions { seed, levels: 2, cols: 6, rows: 6, ..GenerateOptions::default() };
        dungeons.push(generate(&o, &mut |_| {}).unwrap());
    }
    let mut stairs = 0;
    for d in &dungeons {
        let world = World::new(d);
        for s in world.stairs() {
            check_stair(d, &world, s);
            stairs += 1;
        }
    }
    assert!(stairs >= 5, "{stairs} stairs checked");
}
