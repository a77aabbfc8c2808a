//! Field of view (radius 40 m) and line of sight on a 64x64-octagon generated level, the
//! field of view side by side with a brute-force reference (line of sight to every cell in
//! range) in the same run; their outputs are asserted equal before timing.
//!
//! Across storeys: the field of view and line of sight through the carved volume of a
//! generated 64x64x4 dungeon with an atrium on every level but the top, from eyes anywhere
//! and from eyes in the atria, beside the same brute force in 3D.
//!
//! Run: `cargo bench --bench sight`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{DVec2, DVec3};
use octile::dungeon::{Dungeon, Fill, Registry};
use octile::generate::{GenerateOptions, generate};
use octile::geometry::Proportions;
use octile::grid::{Pos, Slot, SlotKind};
use octile::sight::{
    VisibleCells, cell_passes_sight, eye_point, field_of_view_3d, field_of_view_from, line_of_sight_3d,
    line_of_sight_points,
};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

const RADIUS: f64 = 40.0;

/// A seeded index below `n`.
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// The generated 64x64 level (corridors and rooms), and an open 64x64 hall whose every
/// fifth octagon is a rock pillar (many cells in sight: the flood's worst case here).
fn levels() -> [(&'static str, Dungeon); 2] {
    let options =
        GenerateOptions { seed: 64, levels: 1, cols: 64, rows: 64, stairs: 0, ..Default::default() };
    let generated = generate(&options, &mut |_| {}).expect("a 64x64 level generates");
    let mut hall = Dungeon::new(64, 64, 1, Proportions::default(), Fill::Floor).expect("a 64x64 hall");
    let octagons: Vec<Pos> = hall.cells().filter(|p| p.slot.kind() == SlotKind::Octagon).collect();
    for (i, pos) in octagons.into_iter().enumerate() {
        if i % 5 == 0 {
            hall.set_tile(pos, Registry::SOLID).expect("a cell");
        }
    }
    [("generated", generated), ("hall", hall)]
}

/// Line of sight to every cell of the level whose centre is within the radius.
fn brute_force(d: &Dungeon, eye: DVec2) -> VisibleCells {
    let mut seen = VisibleCells::new(0, d.dims());
    for slot in d.dims().cells() {
        let c = d.layout().center(slot);
        if c.distance(eye) <= RADIUS && line_of_sight_points(d, 0, eye, c).unwrap() {
            seen.insert(slot);
        }
    }
    seen
}

fn sight(c: &mut Criterion) {
    for (name, d) in levels() {
        fov_and_los(c, name, &d);
    }
    storeys(c);
}

/// Line of sight from `viewer` to every cell whose eye point is within the radius, on
/// every level.
fn brute_force_3d(d: &Dungeon, viewer: Pos) -> Vec<Pos> {
    let eye = eye_point(d, viewer).unwrap();
    d.cells()
        .filter(|&p| cell_passes_sight(d, p))
        .filter(|&p| {
            let target = eye_point(d, p).unwrap();
            target.distance(eye) <= RADIUS && line_of_sight_3d(d, eye, target).unwrap()
        })
        .collect()
}

fn storeys(c: &mut Criterion) {
    let options = GenerateOptions { seed: 64, levels: 4, cols: 64, rows: 64, ..Default::default() };
    let mut d = generate(&options, &mut |_| {}).expect("a 64x64x4 dungeon generates");
    let atria = octile::generate::open_atria(&mut d).expect("atria open");
    let cells: Vec<Pos> = d.cells().filter(|&p| cell_passes_sight(&d, p)).collect();
    let in_atria: Vec<Pos> = atria
        .iter()
        .flat_map(|a| a.void.iter().map(move |&slot| Pos { level: a.level, slot }))
        .filter(|&p| cell_passes_sight(&d, p))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    for (name, from) in [("anywhere", &cells), ("in_atria", &in_atria)] {
        let viewers: Vec<Pos> = (0..64).map(|_| from[below(&mut rng, from.len())]).collect();
        let (mut visible, mut across) = (0, 0);
        for &viewer in &viewers {
            let seen = field_of_view_3d(&d, viewer, RADIUS).unwrap();
            assert_eq!(seen.iter().collect::<Vec<_>>(), brute_force_3d(&d, viewer), "from {viewer}");
            visible += seen.len();
            across += seen.iter().filter(|p| p.level != viewer.level).count();
        }
        println!(
            "storeys, eyes {name}: {} atria; {:.1} cells visible per eye, {:.1} of them on other levels",
            atria.len(),
            visible as f64 / 64.0,
            across as f64 / 64.0
        );
        let mut group = c.benchmark_group(format!("fov_3d_radius_40m_64x64x4_{name}"));
        let mut i = 0;
        group.bench_function("flood", |b| {
            b.iter(|| {
                i = (i + 1) % viewers.len();
                black_box(field_of_view_3d(&d, viewers[i], RADIUS).unwrap())
            })
        });
        group.bench_function("brute_force", |b| {
            b.iter(|| {
                i = (i + 1) % viewers.len();
                black_box(brute_force_3d(&d, viewers[i]))
            })
        });
        group.finish();
    }
    let mut pairs: Vec<(DVec3, DVec3)> = Vec::new();
    while pairs.len() < 4096 {
        let a = in_atria[below(&mut rng, in_atria.len())];
        let b = cells[below(&mut rng, cells.len())];
        let (ea, eb) = (eye_point(&d, a).unwrap(), eye_point(&d, b).unwrap());
        if a.level != b.level && ea.distance(eb) <= RADIUS {
            pairs.push((ea, eb));
        }
    }
    let clear = pairs.iter().filter(|(a, b)| line_of_sight_3d(&d, *a, *b).unwrap()).count();
    println!("storeys: {clear} of {} pairs across levels within 40 m see each other", pairs.len());
    let mut j = 0;
    c.bench_function("los_3d_across_levels_within_40m_64x64x4", |b| {
        b.iter(|| {
            j = (j + 1) % pairs.len();
            let (a, b) = pairs[j];
            black_box(line_of_sight_3d(&d, a, b).unwrap())
        })
    });
}

fn fov_and_los(c: &mut Criterion, name: &str, d: &Dungeon) {
    let cells: Vec<Slot> =
        d.dims().cells().filter(|&s| cell_passes_sight(d, Pos { level: 0, slot: s })).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let eyes: Vec<DVec2> = (0..64).map(|_| d.layout().center(cells[below(&mut rng, cells.len())])).collect();
    let mut visible = 0;
    for &eye in &eyes {
        let fast = field_of_view_from(d, 0, eye, RADIUS).unwrap();
        assert_eq!(fast, brute_force(d, eye), "field of view from {eye} differs from the brute force");
        visible += fast.len();
    }
    println!(
        "{name}: {} carved cells; {:.1} cells visible per eye on average",
        cells.len(),
        visible as f64 / 64.0
    );
    let mut group = c.benchmark_group(format!("fov_radius_40m_64x64_{name}"));
    let mut i = 0;
    group.bench_function("flood", |b| {
        b.iter(|| {
            i = (i + 1) % eyes.len();
            black_box(field_of_view_from(d, 0, eyes[i], RADIUS).unwrap())
        })
    });
    group.bench_function("brute_force", |b| {
        b.iter(|| {
            i = (i + 1) % eyes.len();
            black_box(brute_force(d, eyes[i]))
        })
    });
    group.finish();
    let mut pairs = Vec::new();
    while pairs.len() < 4096 {
        let (a, b) = (
            d.layout().center(cells[below(&mut rng, cells.len())]),
            d.layout().center(cells[below(&mut rng, cells.len())]),
        );
        if a.distance(b) <= RADIUS {
            pairs.push((a, b));
        }
    }
    let clear = pairs.iter().filter(|(a, b)| line_of_sight_points(d, 0, *a, *b).unwrap()).count();
    println!("{name}: {clear} of {} random pairs within 40 m see each other", pairs.len());
    let mut j = 0;
    c.bench_function(&format!("los_random_pairs_within_40m_{name}"), |b| {
        b.iter(|| {
            j = (j + 1) % pairs.len();
            let (a, b) = pairs[j];
            black_box(line_of_sight_points(d, 0, a, b).unwrap())
        })
    });
}

criterion_group!(benches, sight);
criterion_main!(benches);
