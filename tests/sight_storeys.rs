//! Sight across storeys against the mesh: line of sight between cells of generated
//! dungeons with atria, stair shafts and drops, checked pair by pair against a brute force
//! written here: the segment between the two eye points tested against every triangle of
//! the carved volume's surface (`mesh::level_surface`, full precision, stair solids left
//! out as sight leaves them) and of every railing box (built here from `mesh::railings`).
//! A segment is blocked when it crosses a triangle (closed, so a crossing on a shared edge
//! counts) that it is not parallel to, strictly between its ends. The directional walk
//! (`crossing_3d`, what a bolt across storeys flies) must stop where the mesh is first
//! struck.
//!
//! Doors are given a state that passes sight, so that the brute force, which sees no door
//! leaf, and sight see the same openings (a closed door's opacity is an edge state, tested
//! in tests/sight.rs).

mod support;

use glam::{DVec2, DVec3};
use octile::dungeon::{Carve, Dungeon, RAILING_HEIGHT, RAILING_THICKNESS};
use octile::grid::Pos;
use octile::mesh::{self, MaterialRole};
use octile::sight::{
    TOLERANCE, crossing_3d, eye_point, field_of_view, field_of_view_3d, line_of_sight, line_of_sight_3d,
};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// Side of the plan buckets the brute force files triangles in (metres).
const BUCKET: f64 = 6.0;

/// Every triangle that stops sight in `d`, filed by plan bucket.
struct Oracle {
    tris: Vec<[DVec3; 3]>,
    /// Triangle indices per bucket, row-major over `cols` x `rows` buckets from `origin`.
    buckets: Vec<Vec<u32>>,
    origin: DVec2,
    cols: i64,
    rows: i64,
}

impl Oracle {
    fn new(d: &Dungeon) -> Oracle {
        let mut tris = Vec::new();
        for level in 0..d.levels() {
            let surface = mesh::level_surface(d, level).unwrap();
            tris.extend(surface.into_iter().filter(|(r, _)| *r != MaterialRole::Stair).map(|(_, t)| t));
        }
        for r in mesh::railings(d) {
            tris.extend(railing_box(r.start, r.along, r.length));
        }
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for v in tris.iter().flatten() {
            lo = lo.min(DVec2::new(v.x, v.z));
            hi = hi.max(DVec2::new(v.x, v.z));
        }
        let origin = lo - DVec2::splat(1.0);
        let cols = ((hi.x - origin.x) / BUCKET).ceil() as i64 + 2;
        let rows = ((hi.y - origin.y) / BUCKET).ceil() as i64 + 2;
        let mut buckets = vec![Vec::new(); (cols * rows) as usize];
        for (i, t) in tris.iter().enumerate() {
            let (mut a, mut b) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
            for v in t {
                a = a.min(DVec2::new(v.x, v.z));
                b = b.max(DVec2::new(v.x, v.z));
            }
            let (a, b) = (((a - origin) / BUCKET - 1e-6).floor(), ((b - origin) / BUCKET + 1e-6).floor());
            for row in a.y as i64..=b.y as i64 {
                for col in a.x as i64..=b.x as i64 {
                    buckets[(row * cols + col) as usize].push(i as u32);
                }
            }
        }
        Oracle { tris, buckets, origin, cols, rows }
    }

    /// The parameter `t` of the first crossing of `a + t (b - a)` with a triangle, `None`
    /// when it crosses none. `seen` and `stamp` mark the buckets already searched.
    fn first_hit(&self, a: DVec3, b: DVec3, seen: &mut [u32], stamp: u32) -> Option<f64> {
        let d = b - a;
        let len = d.length();
        let eps = TOLERANCE / len.max(1e-300);
        let plan = DVec2::new(d.x, d.z).length();
        let samples = (plan / (BUCKET / 8.0)).ceil() as usize + 1;
        let mut first: Option<f64> = None;
        for k in 0..=samples {
            let p = a + d * (k as f64 / samples as f64);
            let at = ((DVec2::new(p.x, p.z) - self.origin) / BUCKET).floor();
            for row in at.y as i64 - 1..=at.y as i64 + 1 {
                for col in at.x as i64 - 1..=at.x as i64 + 1 {
                    if row < 0 || col < 0 || row >= self.rows || col >= self.cols {
                        continue;
                    }
                    let i = (row * self.cols + col) as usize;
                    if seen[i] == stamp {
                        continue;
                    }
                    seen[i] = stamp;
                    for &t in &self.buckets[i] {
                        if let Some(t) = crosses(&self.tris[t as usize], a, d, eps) {
                            first = Some(first.map_or(t, |f| f.min(t)));
                        }
                    }
                }
            }
        }
        first
    }
}

/// Where `a + t d` crosses the closed triangle `tri` at some `t` strictly inside
/// `(eps, 1 - eps)`, not running parallel to it (Möller and Trumbore's test).
fn crosses(tri: &[DVec3; 3], a: DVec3, d: DVec3, eps: f64) -> Option<f64> {
    let (e1, e2) = (tri[1] - tri[0], tri[2] - tri[0]);
    let pvec = d.cross(e2);
    let det = e1.dot(pvec);
    if det.abs() <= 1e-12 * e1.cross(e2).length() * d.length() {
        return None;
    }
    let inv = 1.0 / det;
    let s = a - tri[0];
    let u = s.dot(pvec) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = d.dot(q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(q) * inv;
    (t > eps && t < 1.0 - eps).then_some(t)
}

/// The twelve triangles of a railing's box, from what `mesh::railings` says of where it
/// stands (the rule of docs/design.md: along the void's wall, 0.15 m over the floor side,
/// 1 m high).
fn railing_box(start: DVec3, along: DVec2, length: f64) -> Vec<[DVec3; 3]> {
    let x = DVec3::new(along.x, 0.0, along.y) * length;
    let z = DVec3::new(-along.y, 0.0, along.x) * RAILING_THICKNESS;
    let y = DVec3::Y * RAILING_HEIGHT;
    let c = |i: u8| start + x * f64::from(i & 1) + y * f64::from((i >> 1) & 1) + z * f64::from((i >> 2) & 1);
    let faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
    faces.iter().flat_map(|f| [[c(f[0]), c(f[1]), c(f[2])], [c(f[0]), c(f[2]), c(f[3])]]).collect()
}

/// A generated dungeon with an atrium on every level but the top, its doors set to a state
/// that passes sight.
fn dungeon(seed: u64, octagons: u32, levels: u32) -> Dungeon {
    let options = octile::generate::GenerateOptions {
        seed,
        levels,
        cols: octagons,
        rows: octagons,
        ..Default::default()
    };
    let mut d = octile::generate::generate(&options, &mut |_| {}).unwrap();
    let atria = octile::generate::open_atria(&mut d).unwrap();
    assert!(!atria.is_empty(), "seed {seed}: an atrium");
    let mut seen_through = d.registry().edge_def(octile::dungeon::Registry::DOOR).unwrap().clone();
    seen_through.name = "open_door".into();
    seen_through.symbol = 'q';
    seen_through.opaque = false;
    let open = d.add_edge_state(seen_through).unwrap();
    for level in 0..d.levels() {
        for edge in d.dims().edges().collect::<Vec<_>>() {
            let state = d.edge_state_of(level, edge).unwrap();
            let def = d.registry().edge_def(state).unwrap();
            if def.carve == Carve::Door && def.opaque {
                let (slot, dir) = d.dims().edge_sides(edge).unwrap()[0];
                d.set_edge(Pos { level, slot }, dir, open).unwrap();
            }
        }
    }
    d
}

/// What `pairs` random pairs of cells of `d` that pass sight found: (pairs, visible,
/// visible across levels). A third of the pairs are anywhere, a third within 40 m of each
/// other, a third within 40 m on different levels from a cell of a column with no slab
/// (open above, void, a stair or the hole over one).
fn check_pairs(d: &Dungeon, seed: u64, pairs: usize) -> (usize, usize, usize) {
    let oracle = Oracle::new(d);
    let cells: Vec<Pos> = d.cells().filter(|&p| octile::sight::cell_passes_sight(d, p)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
    let open: Vec<Pos> = cells
        .iter()
        .copied()
        .filter(|&p| {
            let below = p.level.checked_sub(1).map(|level| Pos { level, ..p });
            d.open_above(p) || d.is_void(p) || d.is_stair(p) || below.is_some_and(|b| d.is_stair(b))
        })
        .collect();
    assert!(!open.is_empty(), "seed {seed}: columns with no slab");
    let mut stamps = vec![0u32; oracle.buckets.len()];
    let (mut visible, mut across, mut done) = (0, 0, 0);
    let mut worst = 0.0_f64;
    while done < pairs {
        let kind = done % 3;
        let a = if kind == 2 { open[pick(open.len())] } else { cells[pick(cells.len())] };
        let b = cells[pick(cells.len())];
        let (ea, eb) = (eye_point(d, a).unwrap(), eye_point(d, b).unwrap());
        if (kind >= 1 && ea.distance(eb) > 40.0) || (kind == 2 && a.level == b.level) {
            continue;
        }
        done += 1;
        let seen = line_of_sight_3d(d, ea, eb).unwrap();
        assert_eq!(seen, line_of_sight_3d(d, eb, ea).unwrap(), "{a} <-> {b}: not symmetric");
        let hit = oracle.first_hit(ea, eb, &mut stamps, done as u32);
        let want = hit.is_none();
        assert_eq!(seen, want, "{a} -> {b}: sight says {seen}, the mesh {want}");
        // The directional walk stops where the mesh is first struck, and lists the cells
        // from the shooter's own to the target's.
        let line = crossing_3d(d, ea, eb).unwrap();
        assert_eq!(line.cells.first(), Some(&a), "{a} -> {b}: the walk starts in its own cell");
        match (line.blocked_at, hit) {
            (None, None) => {
                assert_eq!(line.cells.last(), Some(&b), "{a} -> {b}: the walk ends in the target")
            }
            (Some(at), Some(t)) => {
                let off = at.distance(ea) - t * ea.distance(eb);
                worst = worst.max(off.abs());
                assert!(off.abs() < 1e-6, "{a} -> {b}: the walk stops {off} m from the mesh's first hit");
            }
            (at, hit) => panic!("{a} -> {b}: the walk stops at {at:?}, the mesh at {hit:?}"),
        }
        // Between cells: the plan's rule on one level, the eye points' across storeys.
        assert_eq!(line_of_sight(d, a, b).unwrap(), seen, "{a} -> {b}: line_of_sight between cells");
        visible += usize::from(seen);
        across += usize::from(seen && a.level != b.level);
    }
    eprintln!("seed {seed}: the walk stops within {worst:.1e} m of the mesh's first hits");
    (pairs, visible, across)
}

#[test]
fn line_of_sight_across_storeys_matches_the_mesh() {
    let mut across = 0;
    for seed in [1, 2] {
        let d = dungeon(seed, 16, 3);
        let (pairs, visible, up_down) = check_pairs(&d, seed, 1500);
        eprintln!("seed {seed}: {visible} of {pairs} pairs visible, {up_down} across storeys");
        assert!(visible > pairs / 20, "seed {seed}: some pairs see each other ({visible})");
        across += up_down;
    }
    assert!(across > 10, "some pairs see each other across storeys ({across})");
}

#[test]
fn the_field_of_view_across_storeys_is_line_of_sight_to_every_cell_in_reach() {
    let d = dungeon(3, 16, 3);
    let cells: Vec<Pos> = d.cells().filter(|&p| octile::sight::cell_passes_sight(&d, p)).collect();
    let mut across = 0;
    for viewer in cells.iter().copied().step_by(cells.len() / 40) {
        let seen = field_of_view_3d(&d, viewer, 40.0).unwrap();
        let eye = eye_point(&d, viewer).unwrap();
        for &pos in &cells {
            let target = eye_point(&d, pos).unwrap();
            let want = target.distance(eye) <= 40.0 && line_of_sight_3d(&d, eye, target).unwrap();
            assert_eq!(seen.contains(pos), want, "{viewer} -> {pos}");
        }
        assert_eq!(seen.level(viewer.level), Some(&field_of_view(&d, viewer, 40.0).unwrap()), "{viewer}");
        across += seen.iter().filter(|p| p.level != viewer.level).count();
    }
    assert!(across > 0, "some viewers see another storey");
}

#[test]
fn level_surface_refuses_a_level_the_dungeon_has_not() {
    let d = dungeon(1, 8, 2);
    assert!(matches!(mesh::level_surface(&d, 2), Err(mesh::MeshError::Level(_))));
    // The full-precision surface is the mesh's, triangle for triangle.
    let m = mesh::build(&d, &mesh::MeshOptions::default()).unwrap();
    let count: usize = m.levels[0].primitives.iter().map(|(_, p)| p.indices.len() / 3).sum();
    assert_eq!(mesh::level_surface(&d, 0).unwrap().len(), count);
}

/// The full run of the issue: 100,000 pairs over four 64x64x4 dungeons, in release:
/// `cargo test --release --test sight_storeys -- --ignored --nocapture`.
#[test]
#[ignore = "long: 100,000 pairs on 64x64x4; run with --release -- --ignored"]
fn a_hundred_thousand_pairs_on_64x64x4() {
    let runs: Vec<_> = (0..4u64)
        .map(|seed| {
            std::thread::spawn(move || {
                let d = dungeon(seed, 64, 4);
                check_pairs(&d, seed, 25_000)
            })
        })
        .collect();
    let (mut pairs, mut visible, mut across) = (0, 0, 0);
    for run in runs {
        let (p, v, a) = run.join().unwrap();
        pairs += p;
        visible += v;
        across += a;
    }
    eprintln!("{pairs} pairs: {visible} visible, {across} across storeys; 0 mismatches");
}
