//! Mesh extrusion: watertightness, measures and normals (octile spacing throughout).

mod support;

use glam::{DVec2, DVec3};
use octile::dungeon::{Carve, Dungeon, DungeonError, Fill, PillarState, Registry};
use octile::edit::Editor;
use octile::edit::script::run_line;
use octile::geometry::{Proportions, signed_area};
use octile::grid::{Direction, EdgeId, Pos, Slot};
use octile::mesh::{self, MaterialRole, MeshError, MeshOptions};
use proptest::prelude::*;
use support::{assert_watertight, level, volume_inward, world};

fn not_stair(r: MaterialRole) -> bool {
    r != MaterialRole::Stair
}

/// Checks everything the mesh of `d` must satisfy.
fn check(d: &Dungeon, what: &str) {
    let m = mesh::build(d, &MeshOptions::default()).unwrap();
    assert_eq!(m.levels.len(), usize::from(d.levels()));
    let any = m.levels.iter().any(|l| !l.primitives.is_empty());
    if any {
        assert_watertight(&world(&m, not_stair), &format!("{what}: carved volume"));
    }
    for l in 0..d.levels() {
        let touches_stair = d.dims().cells().any(|s| {
            let st = |lv: u16| d.tile_def(Pos { level: lv, slot: s }).unwrap().stair;
            st(l) || (l > 0 && st(l - 1))
        });
        let tris = level(&m, usize::from(l), not_stair);
        if !touches_stair && !tris.is_empty() {
            assert_watertight(&tris, &format!("{what}: level {l}"));
        }
        let expected = expected_volume(d, l);
        let got = volume_inward(&tris);
        assert!(
            (got - expected).abs() <= 1e-3 * expected.max(1.0),
            "{what}: level {l} encloses {got} m3, expected {expected}"
        );
        let stairs = level(&m, usize::from(l), |r| r == MaterialRole::Stair);
        let count =
            d.dims().cells().filter(|&s| d.tile_def(Pos { level: l, slot: s }).unwrap().stair).count();
        if count >= 1 {
            // Disjoint closed solids together are closed too.
            assert_watertight(&stairs, &format!("{what}: stair solid on level {l}"));
        }
        assert_normals_into_carved(d, &m, l, what);
    }
}

fn carved(d: &Dungeon, level: u16, slot: Slot) -> bool {
    d.tile_def(Pos { level, slot }).unwrap().carved
}

/// How `edge` is carved on `level` (a reference written here, not the builder's).
fn carve_of(d: &Dungeon, level: u16, edge: EdgeId) -> Carve {
    let sides = d.dims().edge_sides(edge).unwrap();
    if !sides.iter().all(|(s, _)| carved(d, level, *s)) {
        return Carve::None;
    }
    d.registry().edge_def(d.edge_state_of(level, edge).unwrap()).unwrap().carve
}

/// The room height of a cell (the model's: set, or the default).
fn cell_height(d: &Dungeon, level: u16, slot: Slot) -> f64 {
    d.room_height_at(Pos { level, slot })
}

/// How high a seam is carved: the lower of its two cells (a reference written here).
fn seam_top(d: &Dungeon, level: u16, edge: EdgeId) -> f64 {
    let [(a, _), (b, _)] = d.dims().edge_sides(edge).unwrap();
    cell_height(d, level, a).min(cell_height(d, level, b))
}

/// How high a door is carved: the dungeon's door height, or under a seam lower than the
/// default room half a metre less than the seam (less the default room's own lintel where
/// that is thinner) (a reference written here).
fn door_top(d: &Dungeon, level: u16, edge: EdgeId) -> f64 {
    let p = d.proportions();
    let seam = seam_top(d, level, edge);
    if seam >= p.room_height {
        p.door_height
    } else {
        p.door_height.min(seam - 0.5f64.min(p.room_height - p.door_height))
    }
}

/// Carved floor area x room height, plus door passages and stair shafts.
fn expected_volume(d: &Dungeon, level: u16) -> f64 {
    let p = d.proportions();
    let lay = d.layout();
    let mut v = 0.0;
    for s in d.dims().cells().filter(|&s| carved(d, level, s)) {
        let a = signed_area(&lay.cell_polygon(s).unwrap());
        let h = cell_height(d, level, s);
        v += a * h;
        if d.tile_def(Pos { level, slot: s }).unwrap().stair {
            v += a * (p.layer_height - h);
        }
    }
    for e in d.dims().edges() {
        let sides = d.dims().edge_sides(e).unwrap();
        match carve_of(d, level, e) {
            Carve::Full => v += signed_area(&lay.edge_seam(sides).unwrap()).abs() * seam_top(d, level, e),
            Carve::Door => {
                v += signed_area(&lay.door(sides[0], sides[1]).unwrap()).abs() * door_top(d, level, e)
            }
            Carve::None => {}
        }
    }
    for (tri, top) in open_pillars(d, level) {
        v += signed_area(&tri).abs() * top;
    }
    v
}

/// The triangles of the open pillars of `level`, each with how high it is carved: the
/// lowest of its three cells (a reference written here).
fn open_pillars(d: &Dungeon, level: u16) -> Vec<([DVec2; 3], f64)> {
    let open = d.dims().pillars().filter(|&p| d.is_pillar_open(level, p));
    open.map(|p| {
        let top = p.cells().iter().map(|&s| cell_height(d, level, s)).fold(f64::MAX, f64::min);
        (d.layout().pillar(p.connector(), p.tip()).unwrap(), top)
    })
    .collect()
}

fn inside_convex(poly: &[DVec2], p: DVec2) -> bool {
    let s = signed_area(poly).signum();
    (0..poly.len()).all(|i| (poly[(i + 1) % poly.len()] - poly[i]).perp_dot(p - poly[i]) * s > 0.0)
}

/// Is the level-local point inside the carved volume of `level` (reference oracle)?
fn in_carved(d: &Dungeon, level: u16, q: [f64; 3]) -> bool {
    let p = d.proportions();
    let lay = d.layout();
    let xz = DVec2::new(q[0], q[2]);
    let y = q[1];
    for s in d.dims().cells().filter(|&s| carved(d, level, s)) {
        let stair = d.tile_def(Pos { level, slot: s }).unwrap().stair;
        let top = if stair { p.layer_height } else { cell_height(d, level, s) };
        if y > 0.0 && y < top && inside_convex(&lay.cell_polygon(s).unwrap(), xz) {
            return true;
        }
    }
    for e in d.dims().edges() {
        let sides = d.dims().edge_sides(e).unwrap();
        let (rect, top) = match carve_of(d, level, e) {
            Carve::Full => (lay.edge_seam(sides).unwrap(), seam_top(d, level, e)),
            Carve::Door => (lay.door(sides[0], sides[1]).unwrap(), door_top(d, level, e)),
            Carve::None => continue,
        };
        if y > 0.0 && y < top && inside_convex(&rect, xz) {
            return true;
        }
    }
    open_pillars(d, level).iter().any(|(tri, top)| y > 0.0 && y < *top && inside_convex(tri, xz))
}

fn assert_normals_into_carved(d: &Dungeon, m: &mesh::DungeonMesh, l: u16, what: &str) {
    for (_, prim) in m.levels[usize::from(l)].primitives.iter().filter(|(r, _)| not_stair(*r)) {
        for v in &prim.vertices {
            let n = v.normal.map(f64::from);
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            assert!((len - 1.0).abs() < 1e-6, "{what}: normal {n:?} is not unit");
        }
        for t in prim.indices.chunks_exact(3) {
            let v = prim.vertices[t[0] as usize];
            let n = v.normal.map(f64::from);
            let c: Vec<[f64; 3]> =
                t.iter().map(|&i| prim.vertices[i as usize].position.map(f64::from)).collect();
            let centre = [0, 1, 2].map(|k| (c[0][k] + c[1][k] + c[2][k]) / 3.0);
            let eps = 0.01;
            let fwd = [0, 1, 2].map(|k| centre[k] + n[k] * eps);
            let back = [0, 1, 2].map(|k| centre[k] - n[k] * eps);
            assert!(in_carved(d, l, fwd), "{what}: level {l}: normal {n:?} at {centre:?} points into rock");
            // A triangle on the stair's hole ring faces the level above, not rock; skip those.
            if back[1] < d.proportions().layer_height - 1e-6 {
                assert!(
                    !in_carved(d, l, back),
                    "{what}: level {l}: face at {centre:?} has carved space behind it"
                );
            }
        }
    }
}

#[test]
fn samples_are_watertight_and_measure_right() {
    for (name, d) in support::samples() {
        check(&d, &name);
    }
}

#[test]
fn lone_octagon_walls_measure_the_design() {
    let mut d = Dungeon::new(3, 3, 1, Proportions::default(), Fill::Solid).unwrap();
    d.set_tile(Pos::new(0, 2, 2), Registry::FLOOR).unwrap();
    check(&d, "lone octagon");
    let m = mesh::build(&d, &MeshOptions::default()).unwrap();
    let walls = level(&m, 0, |r| r == MaterialRole::Wall);
    let rh = d.proportions().room_height;
    let mut bottom = 0.0;
    for t in &walls {
        let ys: Vec<f64> = t.iter().map(|p| p[1]).collect();
        assert!(ys.iter().all(|&y| y.abs() < 1e-6 || (y - rh).abs() < 1e-6), "wall heights {ys:?}");
        for i in 0..3 {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            if a[1].abs() < 1e-6 && b[1].abs() < 1e-6 {
                bottom += ((a[0] - b[0]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
            }
        }
    }
    let p = d.proportions();
    let want = 4.0 * p.long_edge() + 4.0 * p.short_edge();
    assert!((bottom - want).abs() < 1e-3, "wall bottoms {bottom} m, want {want} (4 x 7.68 + 4 x 3.62)");
    assert!((want - (4.0 * 7.68 + 4.0 * 3.6204)).abs() < 1e-3);
    // Walls are vertical: their normals have no y.
    for (role, p) in &m.levels[0].primitives {
        if *role == MaterialRole::Wall {
            assert!(p.vertices.iter().all(|v| v.normal[1] == 0.0));
        }
    }
}

#[test]
fn doors_and_stairs_stay_closed() {
    let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
    d.set_edge(Pos::new(0, 2, 2), Direction::E, Registry::DOOR).unwrap();
    d.set_edge(Pos::new(0, 2, 2), Direction::NE, Registry::DOOR).unwrap();
    d.set_edge(Pos::new(1, 2, 2), Direction::S, Registry::DOOR).unwrap();
    d.set_edge(Pos::new(1, 2, 2), Direction::W, Registry::WALL).unwrap();
    d.set_tile(Pos::new(0, 2, 2), Registry::STAIR).unwrap();
    check(&d, "doors and stairs");
    let m = mesh::build(&d, &MeshOptions::default()).unwrap();
    assert!(m.levels[0].primitives.iter().any(|(r, _)| *r == MaterialRole::DoorFrame));
    assert!(m.levels[0].primitives.iter().any(|(r, _)| *r == MaterialRole::Stair));
}

#[test]
fn stair_steps_are_low_and_the_top_meets_the_next_floor() {
    let d = &support::samples().into_iter().find(|(n, _)| n == "two_levels.json").unwrap().1;
    let m = mesh::build(d, &MeshOptions::default()).unwrap();
    let stair = level(&m, 0, |r| r == MaterialRole::Stair);
    let mut ys: Vec<f64> = stair.iter().flatten().map(|p| p[1]).collect();
    ys.sort_by(f64::total_cmp);
    ys.dedup_by(|a, b| (*a - *b).abs() < 1e-5);
    let h = d.proportions().layer_height;
    assert!((ys[0]).abs() < 1e-6 && (ys[ys.len() - 1] - h).abs() < 1e-5);
    assert!(ys.windows(2).all(|w| w[1] - w[0] <= 0.25 + 1e-5), "a step rises more than 0.25 m: {ys:?}");
    // The landing's top reaches an octagon wall that is open on the level above.
    let lay = d.layout();
    let stair_slot = Slot::new(2, 4);
    let top: Vec<DVec2> =
        stair.iter().flatten().filter(|p| (p[1] - h).abs() < 1e-5).map(|p| DVec2::new(p[0], p[2])).collect();
    let reaches = |dir: Direction| {
        let [a, b] = lay.wall(stair_slot, dir).unwrap();
        top.iter().any(|p| p.distance(a) < 1e-3) && top.iter().any(|p| p.distance(b) < 1e-3)
    };
    let open_dirs: Vec<Direction> = Direction::ALL
        .into_iter()
        .filter(|&dir| d.edge_state(Pos { level: 1, slot: stair_slot }, dir).unwrap() == Some(Registry::OPEN))
        .collect();
    assert!(open_dirs.iter().any(|&dir| reaches(dir)), "landing reaches none of {open_dirs:?}");
}

#[test]
fn errors_name_the_place() {
    let mut d = Dungeon::new(2, 2, 2, Proportions::default(), Fill::Floor).unwrap();
    d.set_tile(Pos::new(0, 0, 0), Registry::STAIR).unwrap();
    d.set_tile(Pos::new(1, 0, 0), Registry::SOLID).unwrap();
    assert_eq!(
        mesh::build(&d, &MeshOptions::default()),
        Err(MeshError::Stair(DungeonError::StairLandsOnRock { level: 0, row: 0, col: 0 }))
    );
    let bad = MeshOptions { texture_size: 0.0, ..Default::default() };
    assert!(matches!(mesh::build(&d, &bad), Err(MeshError::BadOption { name: "texture_size", .. })));
    // Issue 25: tiny sizes passed and wrote Infinity (1e-300) or NaN (5e-324) into UV0.
    for texture_size in [1e-300, 5e-324, 1e300] {
        let bad = MeshOptions { texture_size, ..Default::default() };
        assert!(matches!(mesh::build(&d, &bad), Err(MeshError::BadOption { name: "texture_size", .. })));
    }
}

#[test]
fn same_dungeon_same_mesh() {
    for (_, d) in support::samples() {
        let a = mesh::build(&d, &MeshOptions::default()).unwrap();
        let b = mesh::build(&d, &MeshOptions::default()).unwrap();
        assert_eq!(a, b);
    }
}

/// A hall of 5x5 octagons (slots 2..10 each way) painted on rock in a 7x7-octagon level, as
/// `paint` makes it (every interior pillar open), at cut ratio `cut`.
fn painted_hall(cut: f64) -> Dungeon {
    let proportions = Proportions::default().with_cut_ratio(cut);
    let d = Dungeon::new(7, 7, 1, proportions, Fill::Solid).unwrap();
    let mut editor = Editor::new(d);
    run_line(&mut editor, "paint 0 2,2..10,10 floor").unwrap();
    editor.into_dungeon()
}

/// The wall triangles of level 0 of `d` whose rock (a hair behind the face) lies strictly
/// inside the square between the hall's corner octagons' centres (slots 2 and 10): a column
/// standing free in the hall. The hall's own outer walls have their rock outside it.
fn freestanding_wall_triangles(d: &Dungeon) -> usize {
    let m = mesh::build(d, &MeshOptions::default()).unwrap();
    let s = d.layout().spacing();
    let (lo, hi) = (2.0 * s, 10.0 * s);
    let mut count = 0;
    for (_, prim) in m.levels[0].primitives.iter().filter(|(r, _)| *r == MaterialRole::Wall) {
        for t in prim.indices.chunks_exact(3) {
            let n = prim.vertices[t[0] as usize].normal.map(f64::from);
            let c: Vec<[f64; 3]> =
                t.iter().map(|&i| prim.vertices[i as usize].position.map(f64::from)).collect();
            let rock = [0, 2].map(|k| (c[0][k] + c[1][k] + c[2][k]) / 3.0 - n[k] * 0.01);
            count += usize::from(rock.iter().all(|&v| v > lo && v < hi));
        }
    }
    count
}

#[test]
fn a_painted_hall_is_one_open_floor_and_stays_closed_at_every_cut() {
    for cut in [0.15, 0.20, 0.29] {
        let d = painted_hall(cut);
        // 4 x 4 connectors inside the hall, four pillars each.
        assert_eq!(d.open_pillars().count(), 64, "cut {cut}");
        check(&d, &format!("painted hall, cut {cut}"));
        assert_eq!(freestanding_wall_triangles(&d), 0, "cut {cut}: a column stands in the hall");
        // The same hall with its pillars left columns has them standing free (so the count
        // above can fail).
        let mut columns = d.clone();
        for (l, p) in d.open_pillars() {
            columns.set_pillar(l, p, PillarState::Column).unwrap();
        }
        check(&columns, &format!("hall of columns, cut {cut}"));
        assert_eq!(freestanding_wall_triangles(&columns), 64 * 3 * 2, "cut {cut}: three faces a column");
    }
}

/// The painted hall of [`painted_hall`] with its cells at mixed room heights (2.5 to 9 m by
/// a pattern), so every open pillar stands between cells of different heights.
fn painted_hall_of_mixed_heights(cut: f64) -> Dungeon {
    let mut d = painted_hall(cut);
    let cells: Vec<Pos> = d.cells().filter(|&p| carved(&d, 0, p.slot)).collect();
    for (i, p) in cells.into_iter().enumerate() {
        if let Some(&metres) = [2.5, 9.0, 6.0, 3.5, 11.0].get(i * 7 % 6) {
            d.set_room_height(p, metres).unwrap();
        }
    }
    d
}

/// The wall area of level 0 of `d` that lies on the sides of its open pillars (in the
/// vertical planes through those sides, between their ends).
fn wall_area_on_pillar_sides(d: &Dungeon) -> f64 {
    let m = mesh::build(d, &MeshOptions::default()).unwrap();
    let sides: Vec<[DVec2; 2]> = open_pillars(d, 0)
        .into_iter()
        .flat_map(|(t, _)| [[t[0], t[1]], [t[1], t[2]], [t[2], t[0]]])
        .collect();
    let on = |t: &support::Tri, [a, b]: [DVec2; 2]| {
        let len = (b - a).length();
        t.iter().all(|v| {
            let q = DVec2::new(v[0], v[2]) - a;
            (b - a).perp_dot(q).abs() < 1e-4 * len
                && (-1e-4..=len * (1.0 + 1e-4)).contains(&((b - a).dot(q) / len))
        })
    };
    let area = |t: &support::Tri| {
        let u = DVec3::from(t[1]) - DVec3::from(t[0]);
        let w = DVec3::from(t[2]) - DVec3::from(t[0]);
        u.cross(w).length() / 2.0
    };
    let walls = level(&m, 0, |r| r == MaterialRole::Wall);
    walls.iter().filter(|t| sides.iter().any(|&s| on(t, s))).map(area).sum()
}

/// Open pillars between cells of different heights: each pillar's ceiling is at its lowest
/// cell's height, and over each of its sides a lintel stands from there up to the seam
/// beyond (the lower of that seam's two cells), so the hall stays closed at every cut.
#[test]
fn a_hall_of_open_pillars_and_mixed_heights_is_closed_with_lintels_over_the_pillars() {
    for cut in [0.15, 0.20, 0.29] {
        let d = painted_hall_of_mixed_heights(cut);
        assert_eq!(d.open_pillars().count(), 64, "cut {cut}");
        check(&d, &format!("painted hall of mixed heights, cut {cut}"));
        // The reference: every side of every open pillar, as long as it is, times the height
        // its seam rises above the pillar.
        let h = |s: Slot| cell_height(&d, 0, s);
        let mut want = 0.0;
        for (_, p) in d.open_pillars() {
            let [a, b, c] = p.cells();
            let top = h(a).min(h(b)).min(h(c));
            let tri = d.layout().pillar(p.connector(), p.tip()).unwrap();
            let long =
                (tri[0] - tri[1]).length().max((tri[1] - tri[2]).length()).max((tri[2] - tri[0]).length());
            let leg = long / 2f64.sqrt();
            want +=
                long * (h(a).min(h(b)) - top) + leg * (h(a).min(h(c)) - top) + leg * (h(b).min(h(c)) - top);
        }
        assert!(want > 100.0, "cut {cut}: the pattern leaves the pillars level ({want} m2)");
        let got = wall_area_on_pillar_sides(&d);
        assert!(
            (got - want).abs() < 1e-3 * want,
            "cut {cut}: lintels over the pillars {got} m2, want {want}"
        );
        // At the default heights the same hall has no face on a pillar's side.
        assert!(wall_area_on_pillar_sides(&painted_hall(cut)) < 1e-9, "cut {cut}");
    }
}

/// A random small dungeon (3x3 octagons, 3 levels): tiles floor or solid, edges open, wall
/// or door, stairs on levels 0 and 1 (only where the octagon above is floor; they may stack),
/// room heights the default, 2.5 (lower than the doors), 3.5, 6 or 9 m, and about half the
/// pillars that may be open opened (so open pillars stand between cells of mixed heights).
fn random_dungeon(cells: Vec<u8>, edges: Vec<u8>, stairs: Vec<bool>, heights: Vec<u8>) -> Dungeon {
    let mut d = Dungeon::new(3, 3, 3, Proportions::default(), Fill::Solid).unwrap();
    let positions: Vec<Pos> = d.cells().collect();
    for (p, c) in positions.iter().zip(cells.iter().cycle()) {
        d.set_tile(*p, if c % 3 == 0 { Registry::SOLID } else { Registry::FLOOR }).unwrap();
    }
    for (p, h) in positions.iter().zip(heights.iter().cycle()) {
        if let Some(&metres) = [2.5, 3.5, 6.0, 9.0].get(usize::from(*h)) {
            d.set_room_height(*p, metres).unwrap();
        }
    }
    let dims = d.dims();
    let all: Vec<EdgeId> = dims.edges().collect();
    for level in 0..3 {
        for (e, s) in all.iter().zip(edges.iter().cycle().skip(usize::from(level) * 7)) {
            let state = [Registry::OPEN, Registry::WALL, Registry::DOOR][usize::from(s % 3)];
            d.set_edge_of(level, *e, state).unwrap();
        }
    }
    let octs: Vec<Slot> = dims.cells().filter(|s| s.row % 2 == 0 && s.col % 2 == 0).collect();
    for level in 0..2u16 {
        for (s, &st) in octs.iter().zip(stairs.iter().skip(usize::from(level) * octs.len())) {
            let up = Pos { level: level + 1, slot: *s };
            if st && d.tile_def(up).unwrap().carved {
                d.set_tile(Pos { level, slot: *s }, Registry::STAIR).unwrap();
            }
        }
    }
    // Every other pillar that may be open, by the cells' own pattern.
    for level in 0..3 {
        let pillars: Vec<_> = dims.pillars().collect();
        for (p, c) in pillars.into_iter().zip(cells.iter().cycle().skip(usize::from(level))) {
            if c % 2 == 1 && d.pillar_can_open(level, p).is_ok() {
                d.set_pillar(level, p, PillarState::Open).unwrap();
            }
        }
    }
    d
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn random_dungeons_are_watertight(
        cells in prop::collection::vec(0u8..6, 1..40),
        edges in prop::collection::vec(0u8..6, 1..40),
        stairs in prop::collection::vec(any::<bool>(), 18),
        heights in prop::collection::vec(0u8..7, 1..40),
    ) {
        let d = random_dungeon(cells, edges, stairs, heights);
        check(&d, "random");
    }
}

#[test]
fn tall_rooms_beside_low_ones_stay_closed_at_three_cuts() {
    for cut in [0.15, 0.20, 0.29] {
        let d = support::tall_and_low_rooms(cut);
        check(&d, &format!("tall and low rooms, cut {cut}"));
        // Without the stair, each level alone is closed too.
        let mut flat = d.clone();
        flat.set_tile(Pos::new(0, 2, 4), Registry::FLOOR).unwrap();
        check(&flat, &format!("tall and low rooms without the stair, cut {cut}"));
        let m = mesh::build(&flat, &MeshOptions::default()).unwrap();
        for l in 0..2 {
            assert_watertight(&level(&m, l, not_stair), &format!("cut {cut}: level {l}"));
        }
    }
}

#[test]
fn ceilings_stand_at_each_cells_height_with_a_lintel_where_heights_differ() {
    let d = support::tall_and_low_rooms(0.20);
    let m = mesh::build(&d, &MeshOptions::default()).unwrap();
    let lay = d.layout();
    let inside = |slot: Slot, t: &support::Tri| {
        let poly = lay.cell_polygon(slot).unwrap();
        let c = DVec2::new((t[0][0] + t[1][0] + t[2][0]) / 3.0, (t[0][2] + t[1][2] + t[2][2]) / 3.0);
        inside_convex(&poly, c)
    };
    let ceilings = level(&m, 0, |r| r == MaterialRole::Ceiling);
    for (slot, want) in
        [(Slot::new(0, 0), 9.0), (Slot::new(0, 4), 6.0), (Slot::new(4, 0), 3.5), (Slot::new(6, 6), 4.0)]
    {
        let over: Vec<_> = ceilings.iter().filter(|t| inside(slot, t)).collect();
        assert!(!over.is_empty(), "{slot}: no ceiling");
        for t in over {
            assert!(t.iter().all(|v| (v[1] - want).abs() < 1e-5), "{slot}: ceiling at {t:?}, want {want} m");
        }
    }
    // The hall's octagon (2, 2) is 9 m high and open south to (4, 2), 3.5 m high: the seam
    // is 3.5 m high, and a lintel from 3.5 m to 9 m stands on (2, 2)'s south wall.
    let [a, b] = lay.wall(Slot::new(2, 2), Direction::S).unwrap();
    let len = (b - a).length();
    let on_wall = |t: &support::Tri| {
        t.iter().all(|v| {
            let q = DVec2::new(v[0], v[2]) - a;
            (b - a).perp_dot(q).abs() < 1e-3 * len && (-1e-3..=len + 1e-3).contains(&((b - a).dot(q) / len))
        })
    };
    let walls = level(&m, 0, |r| r == MaterialRole::Wall);
    let lintel: Vec<_> = walls.iter().filter(|t| on_wall(t)).collect();
    let ys: Vec<f64> = lintel.iter().flat_map(|t| t.iter().map(|v| v[1])).collect();
    assert!(!lintel.is_empty(), "no lintel over the low corridor");
    let (lo, hi) = ys.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &y| (lo.min(y), hi.max(y)));
    assert!((lo - 3.5).abs() < 1e-5 && (hi - 9.0).abs() < 1e-5, "lintel spans {lo}..{hi}, want 3.5..9");
    let area: f64 = lintel
        .iter()
        .map(|t| {
            let u = DVec3::from(t[1]) - DVec3::from(t[0]);
            let w = DVec3::from(t[2]) - DVec3::from(t[0]);
            u.cross(w).length() / 2.0
        })
        .sum();
    let want = (b - a).length() * (9.0 - 3.5);
    assert!((area - want).abs() < 1e-3, "lintel area {area}, want {want}");
    // The seam itself is carved as high as its lower cell.
    let seam_ceilings: Vec<_> = ceilings.iter().filter(|t| !d.dims().cells().any(|s| inside(s, t))).collect();
    assert!(seam_ceilings.iter().any(|t| t.iter().all(|v| (v[1] - 3.5).abs() < 1e-5)));
}

/// A random open hall (4x4 octagons, 2 levels, mostly floor and open seams: a cell rock
/// where `cells` says 0, a seam a wall or a door where `edges` says 0 or 1, a stair where
/// `stairs` says so and the octagon above is floor), with the pillars `pillars` picks open
/// wherever they may be: open pillars beside columns, doors, rock and stairs.
fn random_hall(cells: &[u8], edges: &[u8], stairs: &[bool], pillars: &[bool]) -> Dungeon {
    let mut d = Dungeon::new(4, 4, 2, Proportions::default(), Fill::Floor).unwrap();
    let positions: Vec<Pos> = d.cells().collect();
    for (p, c) in positions.iter().zip(cells.iter().cycle()) {
        if *c == 0 {
            d.set_tile(*p, Registry::SOLID).unwrap();
        }
    }
    let dims = d.dims();
    let all: Vec<EdgeId> = dims.edges().collect();
    for level in 0..2 {
        for (e, s) in all.iter().zip(edges.iter().cycle().skip(usize::from(level) * 5)) {
            match s {
                0 => d.set_edge_of(level, *e, Registry::WALL).unwrap(),
                1 => d.set_edge_of(level, *e, Registry::DOOR).unwrap(),
                _ => {}
            }
        }
    }
    let octs: Vec<Slot> = dims.cells().filter(|s| s.row % 2 == 0 && s.col % 2 == 0).collect();
    for (s, &st) in octs.iter().zip(stairs) {
        if st && d.tile_def(Pos { level: 1, slot: *s }).unwrap().carved {
            d.set_tile(Pos { level: 0, slot: *s }, Registry::STAIR).unwrap();
        }
    }
    for level in 0..2 {
        let all: Vec<_> = dims.pillars().collect();
        for (p, &open) in all.into_iter().zip(pillars.iter().cycle().skip(usize::from(level) * 3)) {
            if open && d.pillar_can_open(level, p).is_ok() {
                d.set_pillar(level, p, PillarState::Open).unwrap();
            }
        }
    }
    d
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn random_open_halls_are_watertight(
        cells in prop::collection::vec(0u8..10, 1..40),
        edges in prop::collection::vec(0u8..10, 1..60),
        stairs in prop::collection::vec(prop::bool::weighted(0.1), 16),
        pillars in prop::collection::vec(any::<bool>(), 1..40),
    ) {
        check(&random_hall(&cells, &edges, &stairs, &pillars), "random open hall");
    }
}

#[test]
fn a_hall_mixing_open_pillars_columns_doors_rock_and_a_stair_is_closed() {
    let (cells, edges) = ([1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3], [2, 3, 4, 5, 6, 7, 8, 0, 9, 1, 2]);
    let mut stairs = [false; 16];
    stairs[5] = true;
    let d = random_hall(&cells, &edges, &stairs, &[true, true, false]);
    let open = d.open_pillars().count();
    let columns_that_may_open = (0..2)
        .flat_map(|l| d.dims().pillars().map(move |p| (l, p)))
        .filter(|&(l, p)| !d.is_pillar_open(l, p) && d.pillar_can_open(l, p).is_ok())
        .count();
    assert!(open > 10 && columns_that_may_open > 5, "{open} open, {columns_that_may_open} columns");
    assert_eq!(d.stairs().len(), 1);
    check(&d, "mixed hall");
}

/// Do two triangles in the plane overlap with positive area (separating axis test)?
fn overlap(a: &[[f64; 2]; 3], b: &[[f64; 2]; 3]) -> bool {
    for (t, o) in [(a, b), (b, a)] {
        for i in 0..3 {
            let (p, q) = (t[i], t[(i + 1) % 3]);
            let n = [q[1] - p[1], p[0] - q[0]];
            let proj = |v: &[f64; 2]| v[0] * n[0] + v[1] * n[1];
            let (t_lo, t_hi) =
                t.iter().map(proj).fold((f64::MAX, f64::MIN), |(l, h), x| (l.min(x), h.max(x)));
            let (o_lo, o_hi) =
                o.iter().map(proj).fold((f64::MAX, f64::MIN), |(l, h), x| (l.min(x), h.max(x)));
            let eps = 1e-7 * (n[0].abs() + n[1].abs());
            if t_hi <= o_lo + eps || o_hi <= t_lo + eps {
                return false;
            }
        }
    }
    true
}

#[test]
fn lightmap_charts_do_not_overlap() {
    let hall = ("painted hall, pillars open".to_string(), painted_hall(0.20));
    for (name, d) in support::samples().into_iter().chain([hall]) {
        let m = mesh::build(&d, &MeshOptions::default()).unwrap();
        for level in &m.levels {
            let mut tris: Vec<[[f64; 2]; 3]> = Vec::new();
            for (_, p) in &level.primitives {
                for t in p.indices.chunks_exact(3) {
                    tris.push([t[0], t[1], t[2]].map(|i| p.vertices[i as usize].uv1.map(f64::from)));
                }
            }
            assert!(tris.iter().flatten().flatten().all(|&x| (0.0..=1.0).contains(&x)));
            let area: f64 = tris
                .iter()
                .map(|t| {
                    ((t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[2][0] - t[0][0]) * (t[1][1] - t[0][1]))
                        .abs()
                        / 2.0
                })
                .sum();
            assert!(area > 0.2 && area <= 1.0, "{name}: level {} lightmap covers {area}", level.level);
            // Sort by min u to prune pairs.
            tris.sort_by(|a, b| {
                a.iter()
                    .map(|v| v[0])
                    .fold(f64::MAX, f64::min)
                    .total_cmp(&b.iter().map(|v| v[0]).fold(f64::MAX, f64::min))
            });
            for i in 0..tris.len() {
                let hi = tris[i].iter().map(|v| v[0]).fold(f64::MIN, f64::max);
                for j in i + 1..tris.len() {
                    if tris[j].iter().map(|v| v[0]).fold(f64::MAX, f64::min) >= hi {
                        break;
                    }
                    assert!(
                        !overlap(&tris[i], &tris[j]),
                        "{name}: level {}: lightmap triangles overlap",
                        level.level
                    );
                }
            }
        }
    }
}

#[test]
fn wall_uvs_run_on_along_a_straight_run() {
    // Two octagons side by side with every edge a wall: their north walls are collinear,
    // so U at the shared line continues (world metres / texture size, modulo the whole
    // number each panel's UV0 is rebased by).
    let d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor).unwrap();
    let m = mesh::build(&d, &MeshOptions { texture_size: 2.0, ..Default::default() }).unwrap();
    let (_, walls) = m.levels[0].primitives.iter().find(|(r, _)| *r == MaterialRole::Wall).unwrap();
    let north: Vec<_> = walls.vertices.iter().filter(|v| v.normal == [0.0, 0.0, 1.0]).collect();
    assert!(!north.is_empty());
    for v in &north {
        let phase = |d: f32| (d - d.round()).abs();
        assert!(phase(v.uv[0] - v.position[0] / 2.0) < 1e-5, "u is x / texture size: {v:?}");
        assert!(phase(v.uv[1] - v.position[1] / 2.0) < 1e-6);
    }
}

#[test]
fn tight_spacing_builds_without_degenerate_triangles() {
    // Tight spacing is not a manifold by position (walls between floor cells are back to
    // back), so only the weaker promises are checked here.
    let p = Proportions { spacing: octile::geometry::Spacing::Tight, ..Default::default() };
    let mut d = Dungeon::new(3, 3, 2, p, Fill::Floor).unwrap();
    d.set_edge(Pos::new(0, 2, 2), Direction::E, Registry::WALL).unwrap();
    d.set_edge(Pos::new(0, 2, 2), Direction::S, Registry::DOOR).unwrap();
    d.set_tile(Pos::new(0, 0, 0), Registry::STAIR).unwrap();
    let m = mesh::build(&d, &MeshOptions::default()).unwrap();
    for l in 0..2 {
        let tris = level(&m, l, |_| true);
        assert!(!tris.is_empty());
        for t in &tris {
            let u = [0, 1, 2].map(|k| t[1][k] - t[0][k]);
            let w = [0, 1, 2].map(|k| t[2][k] - t[0][k]);
            let c = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
            assert!(c.iter().map(|x| x * x).sum::<f64>() > 1e-12, "degenerate {t:?}");
        }
    }
}

#[test]
fn a_compact_floor_is_one_lightmap_chart() {
    // Two octagons joined by an open long seam fill most of their bounding box, so the floor
    // is one chart: its vertices weld exactly as they do without UV1 (where two panels'
    // UV0 are rebased by the same whole number, their shared corners weld).
    let d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor).unwrap();
    let count = |uv1: bool| {
        let m = mesh::build(&d, &MeshOptions { lightmap_uv: uv1, ..Default::default() }).unwrap();
        m.levels[0].primitives.iter().find(|(r, _)| *r == MaterialRole::Floor).unwrap().1.vertices.len()
    };
    assert_eq!(count(true), count(false));
}
