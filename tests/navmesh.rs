//! The navigation mesh (`--navmesh`), read back from the .glb with the `gltf` crate, in world
//! space over every `Level_NN-navmesh` node together:
//! - per level, its plan area is the level's walkable area (cells with floor, carved seams,
//!   door passages) less the columns of the stairs standing on it, whose ramps and landings
//!   belong to that level's node and cover exactly the floor the stair stands on;
//! - every triangle is a convex polygon facing up, no steeper than
//!   `export::NAVMESH_MAX_SLOPE_DEGREES` (a stair's ramp leaves out the steep band round its
//!   column);
//! - each stair's ramp shares its foot edge with its level's floor (no riser) and its
//!   landing's wall edge with the floor beyond it on the level above, the whole opening;
//! - over all levels it is connected exactly as the path graph's regions are
//!   (`path::dungeon_regions`), with no piece that holds no path node.

// std's maths is the reference these tests check the crate's geometry against; no output
// comes from it (clippy.toml keeps it out of the library).
#![allow(clippy::disallowed_methods)]

mod support;

use glam::{DVec2, DVec3};
use octile::dungeon::{Carve, Dungeon, Fill, Registry};
use octile::export::{self, ExportOptions};
use octile::generate::{GenerateOptions, generate};
use octile::geometry::{Proportions, Spiral, angle, signed_area};
use octile::grid::{Direction, Grid, Pos, Slot};
use octile::path::{dungeon_regions, node_pos};
use support::Tri;

/// Vertices closer than this (metres, each coordinate) are one.
const WELD: f64 = 1e-6;

/// Samples, generated dungeons with stairs and doors (2 to 4 levels), and three made by hand:
/// a door on a stair's own octagon, a stair whose only exit is a door, and that stair with
/// a door on its own level behind its landing.
fn dungeons() -> Vec<(String, Dungeon)> {
    let mut all = support::samples();
    let generated = |seed, levels, cols, rows, doors| {
        let options = GenerateOptions { seed, levels, cols, rows, doors, ..GenerateOptions::default() };
        (format!("seed {seed}, {levels} levels"), generate(&options, &mut |_| {}).unwrap())
    };
    all.extend([
        generated(7, 3, 12, 12, 0.5),
        generated(21, 2, 7, 6, 1.0),
        generated(3, 4, 6, 6, 0.5),
        generated(11, 3, 8, 8, 0.0),
    ]);
    let mut mixed = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
    mixed.set_edge(Pos::new(0, 2, 2), Direction::E, Registry::DOOR).unwrap();
    mixed.set_edge(Pos::new(1, 2, 2), Direction::NW, Registry::DOOR).unwrap();
    mixed.set_tile(Pos::new(0, 2, 2), Registry::STAIR).unwrap();
    all.push(("door on the stair's octagon".into(), mixed));
    let mut door_exit = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
    door_exit.set_tile(Pos::new(0, 2, 2), Registry::STAIR).unwrap();
    for dir in Direction::ALL {
        let state = if dir == Direction::S { Registry::DOOR } else { Registry::WALL };
        door_exit.set_edge(Pos::new(1, 2, 2), dir, state).unwrap();
    }
    assert_eq!(door_exit.stair_exit(Pos::new(0, 2, 2)), Some(Direction::S));
    // The same stair with a door on its own level in the wall its landing stands against.
    let mut door_behind = door_exit.clone();
    door_behind.set_edge(Pos::new(0, 2, 2), Direction::S, Registry::DOOR).unwrap();
    assert_eq!(door_behind.stair_landing(Pos::new(0, 2, 2)), Some(Direction::S));
    all.push(("a door as the stair's exit".into(), door_exit));
    all.push(("a door behind the landing".into(), door_behind));
    // An open hall on two levels, every pillar open, with a stair between them.
    let mut hall = Dungeon::new(4, 4, 2, Proportions::default(), Fill::Floor).unwrap();
    hall.set_tile(Pos::new(0, 2, 2), Registry::STAIR).unwrap();
    let everywhere = Grid::filled(hall.dims(), true);
    for level in 0..2 {
        assert!(hall.open_pillars_within(level, &everywhere).unwrap() > 30);
    }
    all.push(("an open hall".into(), hall));
    all
}

/// One navmesh triangle in world metres and the level whose node holds it.
struct NavTri {
    level: u16,
    tri: Tri,
}

/// Every navmesh triangle of the export of `d`, in world space (through the level node's
/// translation and the navmesh node's own).
fn navmesh(d: &Dungeon) -> Vec<NavTri> {
    let options = ExportOptions { navmesh: true, colliders: true, ..Default::default() };
    let g = gltf::Gltf::from_slice(&export::Export::new(d, &options).to_glb().unwrap()).unwrap();
    let blob = g.blob.as_deref().unwrap();
    let mut out = Vec::new();
    for level in 0..d.levels() {
        let parent = g.nodes().find(|n| n.name() == Some(&format!("Level_{level:02}"))).unwrap();
        let Some(node) = parent.children().find(|n| n.name() == Some(&format!("Level_{level:02}-navmesh")))
        else {
            continue;
        };
        let e: serde_json::Value = serde_json::from_str(node.extras().as_ref().unwrap().get()).unwrap();
        assert_eq!(e, serde_json::json!({ "role": "navmesh", "level": level }));
        let t = [parent.transform(), node.transform()]
            .map(|t| DVec3::from(t.decomposed().0.map(f64::from)))
            .iter()
            .sum::<DVec3>();
        let prim = node.mesh().unwrap().primitives().next().unwrap();
        assert_eq!(prim.attributes().count(), 1, "POSITION only");
        let r = prim.reader(|_| Some(blob));
        let pos: Vec<DVec3> =
            r.read_positions().unwrap().map(|p| DVec3::from(p.map(f64::from)) + t).collect();
        let idx: Vec<u32> = r.read_indices().unwrap().into_u32().collect();
        out.extend(
            idx.chunks_exact(3)
                .map(|c| NavTri { level, tri: [0, 1, 2].map(|k| pos[c[k] as usize].to_array()) }),
        );
    }
    out
}

fn plan(p: [f64; 3]) -> DVec2 {
    DVec2::new(p[0], p[2])
}

/// Plan area of a triangle, positive when it faces up (+Y).
fn plan_area(t: &Tri) -> f64 {
    let [a, b, c] = t.map(plan);
    -(b - a).perp_dot(c - a) / 2.0
}

/// Whether `p` (plan) lies in the plan of `t` (edges included).
fn holds(t: &Tri, p: DVec2) -> bool {
    let [a, b, c] = t.map(plan);
    let s = [(b - a).perp_dot(p - a), (c - b).perp_dot(p - b), (a - c).perp_dot(p - c)];
    s.iter().all(|&x| x <= 1e-9)
}

/// Whether `slot` on `level` has floor: carved, and not the hole above a stair.
fn has_floor(d: &Dungeon, level: u16, slot: Slot) -> bool {
    let carved = d.tile_def(Pos { level, slot }).is_ok_and(|t| t.carved);
    carved && d.stair_below(Pos { level, slot }).is_none()
}

/// The walkable plan area of `level` from the layout's polygons: cells with floor, carved
/// seams (full width), door passages (door width) and open pillars.
fn walkable_area(d: &Dungeon, level: u16) -> f64 {
    let layout = d.layout();
    let cells: f64 = d
        .dims()
        .cells()
        .filter(|&s| has_floor(d, level, s))
        .map(|s| signed_area(&layout.cell_polygon(s).unwrap()).abs())
        .sum();
    let seams: f64 = d
        .dims()
        .edges()
        .filter_map(|e| {
            let sides = d.dims().edge_sides(e).unwrap();
            let def = d.carved_seam(Pos { level, slot: sides[0].0 }, sides[0].1)?;
            let rect = match def.carve {
                Carve::Door => layout.door(sides[0], sides[1]),
                _ => layout.edge_seam(sides),
            };
            Some(signed_area(&rect.unwrap()).abs())
        })
        .sum();
    let pillars: f64 = d
        .dims()
        .pillars()
        .filter(|&p| d.is_pillar_open(level, p))
        .map(|p| signed_area(&layout.pillar(p.connector(), p.tip()).unwrap()).abs())
        .sum();
    cells + seams + pillars
}

/// A stair of the table with its plan.
struct Stair {
    foot: Pos,
    exit: Option<Direction>,
    spec: Spiral,
}

impl Stair {
    fn all(d: &Dungeon) -> Vec<Stair> {
        let h = d.proportions().layer_height;
        d.stairs()
            .iter()
            .map(|s| {
                let landing = d.stair_landing(s.foot).unwrap();
                let spec = Spiral::new(d.layout(), s.foot.slot, landing, h).unwrap();
                Stair { foot: s.foot, exit: s.exit, spec }
            })
            .collect()
    }

    /// Direction of the boundary `k` sectors clockwise from the landing's end.
    fn boundary(&self, k: usize) -> DVec2 {
        angle::unit(self.spec.landing_angles().1 + k as f64 * self.spec.sector_angle())
    }

    /// Plan area of the column: `steps` sectors of the sector angle and the landing's.
    fn column_area(&self) -> f64 {
        let (from, to) = self.spec.landing_angles();
        let n = self.spec.steps() as f64;
        self.spec.column_radius().powi(2) / 2.0 * (n * self.spec.sector_angle().sin() + (to - from).sin())
    }

    /// Where the ramp starts, from the centre (metres): where a ramp triangle over a step's
    /// sector, rising one boundary's height over `radius * sin(sector angle)`, is as steep as
    /// the slope the ramps are built to (a quarter of a degree under the navmesh's maximum);
    /// never inside the column nor beyond the walking line.
    fn walk_radius(&self) -> f64 {
        let n = self.spec.steps() as f64;
        let rise = self.spec.height / (n - 1.0);
        let tan = (export::NAVMESH_MAX_SLOPE_DEGREES - 0.25).to_radians().tan();
        let needed = rise / (self.spec.sector_angle().sin() * tan);
        needed.min(self.spec.walking.radius).max(self.spec.column_radius())
    }

    /// Plan area of the steep band of the steps between the column and [`Stair::walk_radius`],
    /// which the navmesh leaves out.
    fn band_area(&self) -> f64 {
        let (rc, r, n) = (self.spec.column_radius(), self.walk_radius(), self.spec.steps());
        (n - 1) as f64 * (r * r - rc * rc) / 2.0 * self.spec.sector_angle().sin()
    }

    /// Plan area of the steps from [`Stair::walk_radius`] out to their rim, and of the
    /// landing (from the column out to its wall): what the ramp covers.
    fn ramp_area(&self) -> f64 {
        let (rc, r, n) = (self.spec.column_radius(), self.spec.step_radius(), self.spec.steps());
        let r0 = self.walk_radius();
        let steps = (n - 1) as f64 * (r * r - r0 * r0) / 2.0 * self.spec.sector_angle().sin();
        let c = self.spec.centre;
        let [ea, eb] = self.spec.landing;
        let landing = [c + self.boundary(n) * rc, ea, eb, c + self.boundary(0) * rc];
        steps + signed_area(&landing).abs()
    }

    /// A point of the walkway round the steps, opposite the landing: floor of the stair's level.
    fn walkway_point(&self) -> DVec2 {
        let (from, to) = self.spec.landing_angles();
        self.spec.centre + angle::unit((from + to) / 2.0 + std::f64::consts::PI) * self.spec.walkway_radius()
    }
}

#[test]
fn each_level_covers_its_walkable_floor_less_the_stair_columns_with_convex_upward_triangles() {
    for (what, d) in dungeons() {
        let nav = navmesh(&d);
        let stairs = Stair::all(&d);
        for level in 0..d.levels() {
            let mine: Vec<&Tri> = nav.iter().filter(|t| t.level == level).map(|t| &t.tri).collect();
            let floor_y = d.proportions().floor_y(level);
            for t in &mine {
                // A triangle is a convex polygon; each must be a real one, facing up.
                let [a, b, c] = t.map(DVec3::from);
                let normal = (b - a).cross(c - a);
                assert!(plan_area(t) > 1e-6 && normal.y > 0.0, "{what} level {level}: {t:?}");
            }
            let on_stairs: Vec<&Stair> = stairs.iter().filter(|s| s.foot.level == level).collect();
            let columns: f64 = on_stairs.iter().map(|s| s.column_area() + s.band_area()).sum();
            let want = walkable_area(&d, level) - columns;
            let got: f64 = mine.iter().map(|t| plan_area(t)).sum();
            assert!((got - want).abs() < 1e-3, "{what} level {level}: navmesh {got} m2, walkable {want} m2");
            // What is not floor is ramp: exactly the stairs' steps and landings.
            let flat = |t: &&Tri| t.iter().all(|p| (p[1] - floor_y).abs() < 1e-4);
            let ramps: f64 = mine.iter().filter(|t| !flat(t)).map(|t| plan_area(t)).sum();
            let want: f64 = on_stairs.iter().map(|s| s.ramp_area()).sum();
            assert!((ramps - want).abs() < 1e-3, "{what} level {level}: ramps {ramps} m2, stairs {want} m2");
        }
    }
}

/// Welded vertex ids of every corner of `nav` (points within [`WELD`] are one).
fn weld(nav: &[NavTri]) -> (Vec<DVec3>, Vec<[usize; 3]>) {
    let points: Vec<DVec3> = nav.iter().flat_map(|t| t.tri.map(DVec3::from)).collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[a].x.total_cmp(&points[b].x));
    let mut id: Vec<usize> = (0..points.len()).collect();
    for (k, &i) in order.iter().enumerate() {
        for &j in order[k + 1..].iter().take_while(|&&j| points[j].x - points[i].x <= WELD) {
            if (points[j] - points[i]).abs().max_element() <= WELD {
                let root = id[i].min(id[j]);
                id[j] = root;
                id[i] = root;
            }
        }
    }
    // Chains of near points settle on their lowest index.
    for i in 0..id.len() {
        id[i] = id[id[i]];
    }
    let tris = (0..nav.len()).map(|t| [0, 1, 2].map(|k| id[3 * t + k])).collect();
    (points, tris)
}

/// Each undirected edge (welded ids, low first) with the triangles that use it, sorted.
fn edges(tris: &[[usize; 3]]) -> Vec<((usize, usize), usize)> {
    let mut out: Vec<((usize, usize), usize)> = tris
        .iter()
        .enumerate()
        .flat_map(|(i, t)| (0..3).map(move |k| ((t[k].min(t[(k + 1) % 3]), t[k].max(t[(k + 1) % 3])), i)))
        .collect();
    out.sort();
    out
}

/// The welded id of the vertex nearest `p` (world), within 0.1 mm (f32 positions).
fn vertex_at(points: &[DVec3], tris: &[[usize; 3]], p: DVec3) -> Option<usize> {
    tris.iter().flatten().copied().find(|&i| points[i].distance(p) < 1e-4)
}

#[test]
fn ramps_share_their_foot_edge_with_the_floor_and_their_landing_edge_with_the_level_above() {
    let mut checked = 0;
    for (what, d) in dungeons() {
        let nav = navmesh(&d);
        let (points, tris) = weld(&nav);
        let edges = edges(&tris);
        let users = |a: usize, b: usize| -> Vec<usize> {
            let key = (a.min(b), a.max(b));
            edges.iter().filter(|e| e.0 == key).map(|e| e.1).collect()
        };
        for stair in Stair::all(&d) {
            let (c, l) = (stair.spec.centre, stair.foot.level);
            let y = d.proportions().floor_y(l);
            // Foot: the first step's edge at floor level joins one floor and one ramp triangle.
            let d1 = stair.boundary(1);
            let [inner, outer] = [stair.walk_radius(), stair.spec.step_radius()]
                .map(|r| c + d1 * r)
                .map(|p| vertex_at(&points, &tris, DVec3::new(p.x, y, p.y)));
            let (Some(i), Some(o)) = (inner, outer) else {
                panic!("{what}: no foot edge at {:?}", stair.foot)
            };
            let at_foot = users(i, o);
            assert_eq!(at_foot.len(), 2, "{what}: foot edge of {:?}", stair.foot);
            let flat = |t: usize| nav[t].tri.iter().all(|p| (p[1] - y).abs() < 1e-4);
            assert_eq!(at_foot.iter().filter(|&&t| flat(t)).count(), 1, "{what}: a floor and a ramp");
            assert!(at_foot.iter().all(|&t| nav[t].level == l));
            // Head: the opening in the exit wall on the level above is one or more edges each
            // shared by the landing (level l) and the floor beyond it (level l + 1).
            let Some(exit) = stair.exit else { continue };
            let hole = Pos { level: l + 1, ..stair.foot };
            let edge = d.dims().edge(hole.slot, exit).unwrap().unwrap();
            let sides = d.dims().edge_sides(edge).unwrap();
            let [a, b] = match d.carved_seam(hole, exit).unwrap().carve {
                Carve::Door => d.layout().door_opening(sides, hole.slot, exit).unwrap(),
                _ => stair.spec.landing,
            };
            let top = d.proportions().floor_y(l + 1);
            let on_wall = |v: usize| {
                let p = points[v];
                let q = DVec2::new(p.x, p.z);
                let t = (q - a).dot(b - a) / (b - a).length_squared();
                (p.y - top).abs() < 1e-6
                    && (b - a).perp_dot(q - a).abs() < 1e-4 * (b - a).length()
                    && (-1e-6..=1.0 + 1e-6).contains(&t)
            };
            let mut joined = 0.0;
            for w in edges.chunk_by(|x, y| x.0 == y.0) {
                let (u, v) = w[0].0;
                if on_wall(u) && on_wall(v) {
                    let levels: Vec<u16> = w.iter().map(|e| nav[e.1].level).collect();
                    assert_eq!(levels, [l, l + 1], "{what}: landing edge of {:?}", stair.foot);
                    joined += points[u].distance(points[v]);
                }
            }
            assert!((joined - a.distance(b)).abs() < 1e-4, "{what}: {joined} m of {} joined", a.distance(b));
            checked += 1;
        }
    }
    assert!(checked >= 6, "only {checked} stairs with an exit");
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Connected components of triangles sharing an edge (welded), by triangle.
fn components(tris: &[[usize; 3]]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..tris.len()).collect();
    for w in edges(tris).chunk_by(|x, y| x.0 == y.0) {
        for e in &w[1..] {
            let (ra, rb) = (find(&mut parent, w[0].1), find(&mut parent, e.1));
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    (0..tris.len()).map(|i| find(&mut parent, i)).collect()
}

#[test]
fn the_whole_navmesh_is_connected_across_levels_as_the_path_graph_is() {
    for (what, d) in dungeons() {
        assert_pieces_are_regions(&what, &d);
    }
}

#[test]
fn the_navmesh_of_edited_dungeons_has_one_piece_per_region() {
    // Every dungeon is checked, and every failure reported at once.
    let failed: Vec<String> = support::edited_dungeons()
        .into_iter()
        .filter(|(what, d)| std::panic::catch_unwind(|| assert_pieces_are_regions(what, d)).is_err())
        .map(|(what, _)| what)
        .collect();
    assert!(failed.is_empty(), "{} dungeons: {failed:#?}", failed.len());
}

/// The navmesh of `d` over all levels, its triangles joined where they share an edge, has
/// one piece per path region (`path::dungeon_regions`), each holding that region's nodes.
fn assert_pieces_are_regions(what: &str, d: &Dungeon) {
    let nav = navmesh(d);
    let (_, tris) = weld(&nav);
    let comp = components(&tris);
    let stairs = Stair::all(d);
    let regions = dungeon_regions(d);
    let n = d.dims().slot_count() * usize::from(d.levels());
    // Each path node (but the holes, joined to their stair's foot only by the stair)
    // stands on one navmesh triangle at its level's floor: its cell's centre, or for a
    // stair's own octagon (whose centre is the column) a point of the walkway.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for i in 0..n {
        let Some(region) = regions.region(i) else { continue };
        let pos = node_pos(d, i).unwrap();
        if d.stair_below(pos).is_some() {
            continue;
        }
        let p = match stairs.iter().find(|s| s.foot == pos) {
            Some(s) => s.walkway_point(),
            None => d.layout().center(pos.slot),
        };
        let y = d.proportions().floor_y(pos.level);
        let t = nav
            .iter()
            .position(|t| {
                t.level == pos.level && t.tri.iter().all(|q| (q[1] - y).abs() < 1e-4) && holds(&t.tri, p)
            })
            .unwrap_or_else(|| panic!("{what}: {pos:?} is on no navmesh triangle"));
        pairs.push((region.index(), comp[t]));
    }
    // Regions and components match one to one, and every component holds a node.
    pairs.sort();
    pairs.dedup();
    let mut by_comp: Vec<(usize, usize)> = pairs.iter().map(|&(r, c)| (c, r)).collect();
    by_comp.sort();
    assert!(pairs.windows(2).all(|w| w[0].0 != w[1].0), "{what}: a region split in pieces: {pairs:?}");
    assert!(by_comp.windows(2).all(|w| w[0].0 != w[1].0), "{what}: regions joined: {by_comp:?}");
    let mut all: Vec<usize> = comp.clone();
    all.sort();
    all.dedup();
    // Name where each piece without a path node lies (level, plan piece), to find it.
    let orphans: Vec<String> = all
        .iter()
        .filter(|&&c| !pairs.iter().any(|p| p.1 == c))
        .filter_map(|&c| {
            let t = nav.iter().zip(&comp).find(|(_, k)| **k == c)?.0;
            let m = t.tri.iter().map(|&p| DVec3::from(p)).sum::<DVec3>() / 3.0;
            Some(format!("level {} {:?}", t.level, d.layout().place_at(DVec2::new(m.x, m.z))))
        })
        .collect();
    assert!(orphans.is_empty(), "{what}: navmesh pieces without a path node: {orphans:?}");
    assert_eq!(pairs.len(), regions.count(), "{what}");
}

#[test]
fn ramps_stay_within_one_rise_of_the_stairs_walking_surface() {
    let mut ramps = 0;
    for (what, d) in dungeons() {
        let nav = navmesh(&d);
        for stair in Stair::all(&d) {
            let floor_y = d.proportions().floor_y(stair.foot.level);
            let octagon = d.layout().octagon(stair.foot.slot);
            let inside = |p: DVec2| {
                (0..8).all(|i| (octagon[(i + 1) % 8] - octagon[i]).perp_dot(p - octagon[i]) > 1e-6)
            };
            for t in nav.iter().filter(|t| t.level == stair.foot.level) {
                let c = t.tri.iter().map(|&p| DVec3::from(p)).sum::<DVec3>() / 3.0;
                if !inside(DVec2::new(c.x, c.z)) || t.tri.iter().all(|p| (p[1] - floor_y).abs() < 1e-4) {
                    continue;
                }
                let walk = stair.spec.ramp(DVec2::new(c.x, c.z)).expect("a ramp triangle over the steps");
                let off = (c.y - floor_y - walk).abs();
                assert!(off <= stair.spec.rise() + 1e-4, "{what}: {off} m off the walking surface at {c}");
                ramps += 1;
            }
        }
    }
    assert!(ramps > 500, "{ramps} ramp triangles");
}

/// Slope of a triangle from the horizontal (degrees).
fn slope_degrees(t: &Tri) -> f64 {
    let [a, b, c] = t.map(DVec3::from);
    let n = (b - a).cross(c - a);
    (n.y.abs() / n.length()).acos().to_degrees()
}

#[test]
fn no_navmesh_triangle_is_steeper_than_the_documented_maximum() {
    let max = export::NAVMESH_MAX_SLOPE_DEGREES;
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/engines.md")).unwrap();
    assert!(doc.contains(&format!("{max} degrees")), "docs/engines.md states the maximum, {max} degrees");
    assert!(max < 45.0, "under the engines' default agent slope");
    // A tall level with the cramped cut: the steepest stair the documented range holds.
    let tall = Proportions { layer_height: 15.0, cut_ratio: 0.15, ..Proportions::default() };
    let mut steep = Dungeon::new(3, 3, 2, tall, Fill::Floor).unwrap();
    steep.set_tile(Pos::new(0, 2, 2), Registry::STAIR).unwrap();
    let mut all = dungeons();
    all.extend(support::edited_dungeons());
    all.push(("a 15 m level, cut 0.15".into(), steep));
    let mut ramps = 0;
    for (what, d) in all {
        for t in navmesh(&d) {
            let slope = slope_degrees(&t.tri);
            assert!(slope <= max + 1e-3, "{what}, level {}: {slope} degrees at {:?}", t.level, t.tri);
            ramps += usize::from(slope > 1.0);
        }
    }
    assert!(ramps > 1000, "{ramps} sloped triangles");
}

#[test]
fn a_stair_standing_in_another_stairs_hole_keeps_its_ramp() {
    // Stacked stairs are a validation problem, but they mesh: the upper stair has no floor
    // to cut, so its ramp stands alone on the lower landing's level.
    let mut d = Dungeon::new(3, 3, 3, Proportions::default(), Fill::Floor).unwrap();
    d.set_tile(Pos::new(0, 2, 2), Registry::STAIR).unwrap();
    d.set_tile(Pos::new(1, 2, 2), Registry::STAIR).unwrap();
    let nav = navmesh(&d);
    assert_eq!(Stair::all(&d).len(), 2);
    for stair in Stair::all(&d) {
        let l = stair.foot.level;
        let y = d.proportions().floor_y(l);
        let ramps: f64 = nav
            .iter()
            .filter(|t| t.level == l && t.tri.iter().any(|p| (p[1] - y).abs() > 1e-4))
            .map(|t| plan_area(&t.tri))
            .sum();
        assert!((ramps - stair.ramp_area()).abs() < 1e-3, "level {l}: ramp {ramps} m2");
    }
}
