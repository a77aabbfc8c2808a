//! Picking a cell or a wall with a ray (`octile::geometry::pick`): every octagon and
//! connector wall at the three cut ratio presets, cell centres from above, the same answer
//! on every level, and seams naming their edge.

use glam::{DVec2, DVec3};
use octile::geometry::{Layout, Pick, Proportions, Ray, Target, pick, wall_band};
use octile::grid::{ConnectorWall, Dims, Direction, Pos, Slot};

const CUT_RATIOS: [f64; 3] = [0.15, 0.20, 0.29];
const LEVELS: u16 = 4;
const EYE_HEIGHT: f64 = 1.5;

fn setup(ratio: f64) -> (Layout, Dims) {
    let layout = Layout::new(Proportions::default().with_cut_ratio(ratio)).unwrap();
    (layout, Dims::from_octagons(5, 5).unwrap())
}

/// An interior octagon and an interior connector (all their walls have a neighbour).
const OCTAGON: Slot = Slot { row: 4, col: 4 };
const CONNECTOR: Slot = Slot { row: 3, col: 5 };

fn walls_of(slot: Slot) -> Vec<Direction> {
    if slot == CONNECTOR {
        ConnectorWall::ALL.map(ConnectorWall::facing).to_vec()
    } else {
        Direction::ALL.to_vec()
    }
}

fn at_height(p: DVec2, y: f64) -> DVec3 {
    DVec3::new(p.x, y, p.y)
}

/// Points inside the cell at `slot` to shoot from: its centre and points part way to each
/// vertex.
fn inside_points(layout: &Layout, slot: Slot) -> Vec<DVec2> {
    let c = layout.center(slot);
    let polygon = layout.cell_polygon(slot).unwrap();
    std::iter::once(c).chain(polygon.iter().map(|&v| c + (v - c) * 0.4)).collect()
}

#[test]
fn a_level_ray_through_a_walls_midpoint_picks_that_wall() {
    for ratio in CUT_RATIOS {
        let (layout, dims) = setup(ratio);
        for level in 0..LEVELS {
            let y = layout.proportions().floor_y(level) + EYE_HEIGHT;
            for slot in [OCTAGON, CONNECTOR] {
                for dir in walls_of(slot) {
                    let [a, b] = layout.wall(slot, dir).unwrap();
                    let mid = (a + b) / 2.0;
                    for from in inside_points(&layout, slot) {
                        let ray = Ray { origin: at_height(from, y), dir: at_height(mid - from, 0.0) };
                        let hit = pick(&layout, dims, level, ray)
                            .unwrap_or_else(|| panic!("r {ratio} level {level} {slot} {dir:?}: no pick"));
                        let want = Target::Wall(Pos { level, slot }, dir);
                        assert_eq!(hit.target, want, "r {ratio} level {level} from {from}");
                        assert!(hit.point.distance(at_height(mid, y)) < 1e-9, "met at the midpoint: {hit:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_ray_from_above_onto_a_cell_centre_picks_that_cell() {
    for ratio in CUT_RATIOS {
        let (layout, dims) = setup(ratio);
        for level in 0..LEVELS {
            let floor = layout.proportions().floor_y(level);
            for slot in dims.cells() {
                let c = layout.center(slot);
                // Straight down (top camera), and slanting (orbit camera) from high above.
                for slant in [DVec2::ZERO, DVec2::new(0.3, -0.2)] {
                    let origin = at_height(c + slant * 40.0, floor + 40.0);
                    let ray = Ray { origin, dir: at_height(c, floor) - origin };
                    let Pick { target, point } = pick(&layout, dims, level, ray).unwrap();
                    assert_eq!(target, Target::Cell(Pos { level, slot }), "r {ratio} level {level}");
                    assert!(point.distance(at_height(c, floor)) < 1e-9);
                }
            }
        }
    }
}

#[test]
fn the_same_ray_shifted_by_a_level_gives_the_same_pick_on_that_level() {
    let (layout, dims) = setup(0.2);
    let h = layout.proportions().layer_height;
    let origin = DVec3::new(3.0, 30.0, -5.0);
    let mut seen = Vec::new();
    for k in 0..50 {
        let dir = DVec3::new(f64::from(k % 7) * 2.5, -10.0, f64::from(k / 7) * 3.1);
        let mut per_level = (0..LEVELS).map(|level| {
            let up = DVec3::new(0.0, f64::from(level) * h, 0.0);
            pick(&layout, dims, level, Ray { origin: origin + up, dir }).map(|p| (p.target, p.point - up))
        });
        let first = per_level.next().unwrap();
        for other in per_level {
            let (a, b) = (first.map(|(t, _)| t), other.map(|(t, _)| t));
            assert_eq!(a.map(|t| t.pos().slot), b.map(|t| t.pos().slot));
            assert_eq!(a.map(|t| std::mem::discriminant(&t)), b.map(|t| std::mem::discriminant(&t)));
        }
        seen.extend(first.map(|(t, _)| t));
    }
    let walls = seen.iter().filter(|t| matches!(t, Target::Wall(..))).count();
    assert!(walls > 0 && walls < seen.len(), "the rays pick both cells and walls: {seen:?}");
}

#[test]
fn a_floor_point_near_a_wall_picks_it_and_a_seam_picks_its_edge() {
    for ratio in CUT_RATIOS {
        let (layout, dims) = setup(ratio);
        let down = |p: DVec2| Ray { origin: at_height(p, 20.0), dir: DVec3::NEG_Y };
        for slot in [OCTAGON, CONNECTOR] {
            let c = layout.center(slot);
            let band = wall_band(&layout, slot);
            for dir in walls_of(slot) {
                let [a, b] = layout.wall(slot, dir).unwrap();
                let mid = (a + b) / 2.0;
                let inward = (c - mid).normalize();
                let near = pick(&layout, dims, 0, down(mid + inward * band * 0.5)).unwrap().target;
                assert_eq!(near, Target::Wall(Pos::new(0, slot.row, slot.col), dir), "r {ratio}");
                let far = pick(&layout, dims, 0, down(mid + inward * band * 1.5)).unwrap().target;
                assert_eq!(far, Target::Cell(Pos::new(0, slot.row, slot.col)), "r {ratio}");
            }
        }
        // Every seam's centre picks a wall whose edge is that seam's edge.
        for edge in dims.edges() {
            let sides = dims.edge_sides(edge).unwrap();
            let [a0, a1] = layout.wall(sides[0].0, sides[0].1).unwrap();
            let [b0, b1] = layout.wall(sides[1].0, sides[1].1).unwrap();
            let centre = (a0 + a1 + b0 + b1) / 4.0;
            let Target::Wall(pos, dir) = pick(&layout, dims, 0, down(centre)).unwrap().target else {
                panic!("r {ratio} {edge:?}: a seam picks a wall");
            };
            assert_eq!(dims.edge(pos.slot, dir).unwrap(), Some(edge), "r {ratio}");
        }
    }
}

#[test]
fn rays_that_miss_pick_nothing() {
    let (layout, dims) = setup(0.2);
    // Upward from above the level, off the grid, non-finite, and through the ceiling.
    let up = Ray { origin: DVec3::new(10.0, 20.0, 10.0), dir: DVec3::Y };
    assert_eq!(pick(&layout, dims, 0, up), None);
    let off = Ray { origin: DVec3::new(-50.0, 20.0, -50.0), dir: DVec3::NEG_Y };
    assert_eq!(pick(&layout, dims, 0, off), None);
    let east = Ray { origin: DVec3::new(500.0, 20.0, 10.0), dir: DVec3::NEG_Y };
    assert_eq!(pick(&layout, dims, 0, east), None, "east of the grid");
    let nan = Ray { origin: DVec3::new(f64::NAN, 1.0, 0.0), dir: DVec3::NEG_Y };
    assert_eq!(pick(&layout, dims, 0, nan), None);
    let c = layout.center(OCTAGON);
    let ceiling = Ray { origin: DVec3::new(c.x, 1.5, c.y), dir: DVec3::Y };
    assert_eq!(pick(&layout, dims, 0, ceiling), None);
}
