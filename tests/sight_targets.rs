//! Targeting footprints (bolt, ball, burst, cone) checked against the plain reference of
//! tests/sight_reference on generated dungeons.

// glam's `angle_to` (std's atan2) is the reference `cone` is checked against; no output comes
// from it (clippy.toml keeps it out of the library).
#![allow(clippy::disallowed_methods)]

mod sight_reference;

use octile::dungeon::{Dungeon, Registry};
use octile::grid::{Direction, Pos, Slot};
use octile::sight::{Hit, ball, bolt, burst, cone};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use sight_reference::*;

fn adjacent_cells(d: &Dungeon, a: Slot, b: Slot) -> bool {
    let dims = d.dims();
    dims.walls(a).unwrap().iter().any(|&dir| dims.neighbor(a, dir).unwrap() == Some(b))
}

#[test]
fn bolts_stop_at_the_first_blocker_along_a_contiguous_path() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let (mut walls, mut blockers, mut reached) = (0, 0, 0);
    for (seed, cut) in [(8, 0.15), (9, 0.29)] {
        let d = generated(seed, cut);
        let rock = rock(&d, 0);
        let cells = clear_cells(&d, 0);
        let creatures: Vec<Slot> = cells.iter().copied().filter(|_| rng.next_u64() % 6 == 0).collect();
        for _ in 0..400 {
            let pick = |rng: &mut ChaCha8Rng| Pos {
                level: 0,
                slot: cells[(rng.next_u64() % cells.len() as u64) as usize],
            };
            let (from, to) = (pick(&mut rng), pick(&mut rng));
            let shot = bolt(&d, from, to, |p| creatures.contains(&p.slot)).unwrap();
            assert_eq!(shot.path[0], from);
            for pair in shot.path.windows(2) {
                assert!(adjacent_cells(&d, pair[0].slot, pair[1].slot), "{:?} not contiguous", shot.path);
            }
            let inner = &shot.path[1..];
            let start = d.layout().center(from.slot);
            match shot.hit {
                Hit::Blocker(p) => {
                    blockers += 1;
                    assert_eq!(Some(&p), shot.path.last());
                    assert!(creatures.contains(&p.slot));
                    assert!(inner[..inner.len() - 1].iter().all(|q| !creatures.contains(&q.slot)));
                }
                Hit::Wall(at) => {
                    walls += 1;
                    assert!(inner.iter().all(|q| !creatures.contains(&q.slot)));
                    let along = (at - start).normalize_or_zero() * 1e-3;
                    assert_ne!(reference(&rock, start, at - along), Some(false), "clear up to the wall");
                    assert_ne!(reference(&rock, start, at + along), Some(true), "blocked just past it");
                }
                Hit::Reached => {
                    reached += 1;
                    assert_eq!(shot.path.last(), Some(&to));
                    assert_ne!(reference(&rock, start, d.layout().center(to.slot)), Some(false));
                }
            }
        }
    }
    assert!(
        walls > 20 && blockers > 20 && reached > 20,
        "{walls} walls, {blockers} blockers, {reached} reached"
    );
}

#[test]
fn a_ball_bursts_on_the_near_side_of_a_wall() {
    let mut d = Dungeon::new(5, 1, 1, Default::default(), octile::dungeon::Fill::Floor).unwrap();
    d.set_edge(Pos::new(0, 0, 4), Direction::E, Registry::WALL).unwrap();
    let (shot, cells) = ball(&d, Pos::new(0, 0, 0), Pos::new(0, 0, 8), 17.0, |_| false, |_| false).unwrap();
    assert!(matches!(shot.hit, Hit::Wall(_)));
    assert_eq!(shot.path.last(), Some(&Pos::new(0, 0, 4)));
    assert!(cells.contains(&Pos::new(0, 0, 4)) && cells.contains(&Pos::new(0, 0, 2)));
    assert!(!cells.contains(&Pos::new(0, 0, 6)), "the burst stays on the near side");
    // Hitting a creature, it bursts in the cell before it.
    let d = Dungeon::new(5, 1, 1, Default::default(), octile::dungeon::Fill::Floor).unwrap();
    let goblin = Pos::new(0, 0, 6);
    let (shot, cells) =
        ball(&d, Pos::new(0, 0, 0), Pos::new(0, 0, 8), 1.0, |p| p == goblin, |_| false).unwrap();
    assert_eq!(shot.hit, Hit::Blocker(goblin));
    assert_eq!(cells, [Pos::new(0, 0, 4)]);
}

#[test]
fn bursts_never_cross_a_wall_and_cones_keep_their_angle() {
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    let (mut inside, mut outside) = (0, 0);
    for (seed, cut) in [(10, 0.20), (11, 0.15)] {
        let d = generated(seed, cut);
        let rock = rock(&d, 0);
        let cells = clear_cells(&d, 0);
        for _ in 0..30 {
            let centre = Pos { level: 0, slot: cells[(rng.next_u64() % cells.len() as u64) as usize] };
            let c = d.layout().center(centre.slot);
            let radius = 10.0 + 30.0 * unit(&mut rng);
            let hit = burst(&d, centre, radius, |_| false).unwrap();
            for p in &hit {
                let target = d.layout().center(p.slot);
                assert!(target.distance(c) <= radius);
                assert_ne!(reference(&rock, c, target), Some(false), "burst crossed a wall to {p}");
            }
            for &slot in &cells {
                let target = d.layout().center(slot);
                if target.distance(c) < radius - 1e-6 && reference(&rock, c, target) == Some(true) {
                    assert!(hit.contains(&Pos { level: 0, slot }), "burst missed {slot}");
                }
            }
            let aim = Pos { level: 0, slot: cells[(rng.next_u64() % cells.len() as u64) as usize] };
            if aim == centre {
                continue;
            }
            let half = 0.2 + unit(&mut rng);
            let fan = cone(&d, centre, aim, half, radius, |_| false).unwrap();
            let dir = d.layout().center(aim.slot) - c;
            for p in &hit {
                let v = d.layout().center(p.slot) - c;
                let within = *p != centre && v.angle_to(dir).abs() <= half + 1e-9;
                let clearly = *p != centre && v.angle_to(dir).abs() < half - 1e-9;
                if fan.contains(p) {
                    assert!(within, "cone cell {p} outside its angle");
                    inside += 1;
                } else {
                    assert!(!clearly, "cone missed {p}");
                    outside += 1;
                }
            }
            assert!(fan.iter().all(|p| hit.contains(p)));
        }
    }
    assert!(inside > 25 && outside > 50, "{inside} in cones, {outside} outside");
    // A blocking cell stops the burst behind it.
    let d = Dungeon::new(4, 1, 1, Default::default(), octile::dungeon::Fill::Floor).unwrap();
    let shield = Pos::new(0, 0, 2);
    let hit = burst(&d, Pos::new(0, 0, 0), 30.0, |p| p == shield).unwrap();
    assert!(hit.contains(&shield) && !hit.contains(&Pos::new(0, 0, 4)));
}
