//! The carved plan of one level: the convex floor pieces (cells and carved seams) and the
//! wall segments that bound them, all from [`Layout`](crate::geometry::Layout).

use glam::DVec2;

use crate::dungeon::{Carve, Dungeon};
use crate::geometry::make_positive;
use crate::grid::{Direction, EdgeId, PillarId, Pos, Slot};
use crate::path::PathRules;

/// What a floor piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceKind {
    /// A carved cell (octagon or connector).
    Cell(Slot),
    /// A carved seam (long or diagonal) between two carved cells.
    Seam(EdgeId),
    /// An open pillar (its three seams are carved, so it has no walls).
    Pillar(PillarId),
}

/// One convex carved piece of a level, wound positively in `(x, z)` (metres).
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// The cell or seam it is.
    pub kind: PieceKind,
    /// Its outline in world `(x, z)` metres.
    pub polygon: Vec<DVec2>,
    /// It has a floor (false for the octagon above a stair, the shaft's hole, and for a void
    /// piece, the upper part of the piece below: one falls through it).
    pub floor: bool,
    /// It has a ceiling (false for a stair octagon, whose shaft goes up, and for a piece
    /// open above).
    pub ceiling: bool,
    /// How high its ceiling stands above the floor (metres): a cell's room height
    /// ([`Dungeon::room_height_at`]), a seam's height ([`Dungeon::seam_height`]), an open
    /// pillar's the lowest of its three cells' ([`Dungeon::opening_height`]).
    pub height: f64,
}

/// Why a segment blocks walking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WallKind {
    /// A rock face: drawn as a wall.
    Rock,
    /// A closed door across a carved seam (blocks walking, drawn by the door frame).
    Door,
    /// A railing between a floor and a void ([`Dungeon::railing_edges`]): blocks walking,
    /// [`crate::dungeon::RAILING_HEIGHT`] high, drawn by its own solid.
    Railing,
}

/// A wall segment in world `(x, z)` metres; carved space lies on the left of `a -> b`
/// seen from above with north up, that is on the side of `(b - a).perp()`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wall {
    /// Start point.
    pub a: DVec2,
    /// End point.
    pub b: DVec2,
    /// Rock face or closed door.
    pub kind: WallKind,
    /// How high the face stands above the floor (metres): a cell's wall its room height
    /// ([`Dungeon::room_height_at`]), a seam's side or door the seam's height
    /// ([`Dungeon::seam_height`]).
    pub height: f64,
}

/// The carved pieces and walls of one level.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelPlan {
    /// The level.
    pub level: u16,
    /// Carved floor pieces: cells first, then seams, then open pillars.
    pub pieces: Vec<Piece>,
    /// Wall segments bounding the carved pieces.
    pub walls: Vec<Wall>,
}

/// The carved plan of `level` (empty when the level does not exist), with every door as
/// the registry says it is now: a door that is not walkable (closed) stands in its passage.
#[must_use]
pub fn level_plan(dungeon: &Dungeon, level: u16) -> LevelPlan {
    level_plan_with(dungeon, level, &PathRules::default())
}

/// The carved plan of `level` under `rules`: with [`PathRules::open_doors`] a passable door
/// (a closed one) is open, as a route under the same rules crosses it.
///
/// # Panics
/// Never: every slot it visits is a cell of the dungeon's own grid, which has walls.
#[must_use]
pub fn level_plan_with(dungeon: &Dungeon, level: u16, rules: &PathRules) -> LevelPlan {
    let dims = dungeon.dims();
    let layout = dungeon.layout();
    let mut plan = LevelPlan { level, pieces: Vec::new(), walls: Vec::new() };
    if level >= dungeon.levels() {
        return plan;
    }
    for slot in dims.cells() {
        let pos = Pos { level, slot };
        if !dungeon.is_carved(pos) {
            continue;
        }
        let Some(polygon) = layout.cell_polygon(slot) else { continue };
        let below_is_stair = dungeon.stair_below(pos).is_some();
        plan.pieces.push(Piece {
            kind: PieceKind::Cell(slot),
            polygon,
            floor: !below_is_stair && !dungeon.is_void(pos),
            ceiling: !dungeon.is_stair(pos) && !dungeon.open_above(pos),
            height: dungeon.room_height_at(pos),
        });
        let height = dungeon.room_height_at(pos);
        for &dir in dims.walls(slot).expect("invariant: cells have walls") {
            let [a, b] = layout.wall(slot, dir).expect("invariant: cell wall");
            match dungeon.carved_seam(pos, dir).map(|e| e.carve) {
                None | Some(Carve::None) => plan.walls.push(Wall { a, b, kind: WallKind::Rock, height }),
                Some(Carve::Full) => {}
                Some(Carve::Door) => {
                    // The wall stands on both sides of the door-wide opening.
                    let [d0, d1] = door_span(dungeon, slot, dir).expect("invariant: carved seam");
                    plan.walls.push(Wall { a, b: d0, kind: WallKind::Rock, height });
                    plan.walls.push(Wall { a: d1, b, kind: WallKind::Rock, height });
                }
            }
        }
    }
    for edge in dims.edges() {
        let Ok(sides) = dims.edge_sides(edge) else { continue };
        let (slot, dir) = sides[0];
        let Some(def) = dungeon.carved_seam(Pos { level, slot }, dir) else {
            continue;
        };
        let walkable = if rules.open_doors { def.passable } else { def.walkable };
        let door = def.carve == Carve::Door;
        let height = dungeon.seam_height(level, edge);
        if layout.gap() <= 0.0 {
            // No seam between the cells: a closed door stands in the shared wall's opening.
            if door && !walkable {
                let [a, b] = door_span(dungeon, slot, dir).expect("invariant: carved seam");
                plan.walls.push(Wall { a, b, kind: WallKind::Door, height });
            }
            continue;
        }
        // A door carves only its door-wide passage (the polygon the mesh floors).
        let rect = if door { layout.door(sides[0], sides[1]) } else { layout.edge_seam(sides) };
        let Some(seam) = rect else { continue };
        let polygon = make_positive(seam).to_vec();
        // Edges 1 and 3 of a seam face pillars (a door's: its jambs); edges 0 and 2 are the
        // cells' own edges. An open pillar's faces are no walls (the layout copies corners
        // bit for bit, so a face's ends are exactly the pillar's corners).
        let open: Vec<[DVec2; 3]> = if door {
            Vec::new()
        } else {
            let open = dungeon.open_pillars_at_edge(level, edge).into_iter();
            open.filter_map(|p| layout.pillar(p.connector(), p.tip())).collect()
        };
        for i in [1, 3] {
            let (a, b) = (polygon[i], polygon[(i + 1) % 4]);
            if !open.iter().any(|tri| tri.contains(&a) && tri.contains(&b)) {
                plan.walls.push(Wall { a, b, kind: WallKind::Rock, height });
            }
        }
        if !walkable {
            let a = (polygon[1] + polygon[2]) / 2.0;
            let b = (polygon[3] + polygon[0]) / 2.0;
            plan.walls.push(Wall { a, b, kind: WallKind::Door, height });
        }
        let floor = !(level > 0 && dungeon.seam_open_above(level - 1, edge));
        let ceiling = !dungeon.seam_open_above(level, edge);
        plan.pieces.push(Piece { kind: PieceKind::Seam(edge), polygon, floor, ceiling, height });
    }
    for pillar in dungeon.open_pillars_on(level) {
        let Some(tri) = layout.pillar(pillar.connector(), pillar.tip()) else { continue };
        plan.pieces.push(Piece {
            kind: PieceKind::Pillar(pillar),
            polygon: tri.to_vec(),
            floor: !(level > 0 && dungeon.pillar_open_above(level - 1, pillar)),
            ceiling: !dungeon.pillar_open_above(level, pillar),
            height: dungeon.opening_height(level, &pillar.cells()),
        });
    }
    // Railings: along the void's wall, facing the floor side (the void's wall turned round).
    for rail in dungeon.railing_edges(level) {
        let (void, dir) = rail.void;
        let Some([a, b]) = layout.wall(void, dir) else { continue };
        plan.walls.push(Wall { a: b, b: a, kind: WallKind::Railing, height: crate::dungeon::RAILING_HEIGHT });
    }
    plan
}

/// The door-wide opening that a door edge carves in wall `dir` of `slot`, in the wall's
/// running order (from [`Layout::door`](crate::geometry::Layout::door), as the mesh cuts it).
fn door_span(dungeon: &Dungeon, slot: Slot, dir: Direction) -> Option<[DVec2; 2]> {
    let dims = dungeon.dims();
    let sides = dims.edge_sides(dims.edge(slot, dir).ok()??).ok()?;
    dungeon.layout().door_opening(sides, slot, dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;

    #[test]
    fn walls_face_carved_space() {
        let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Solid).unwrap();
        d.set_tile(Pos::new(0, 0, 0), Registry::FLOOR).unwrap();
        d.set_tile(Pos::new(0, 0, 2), Registry::FLOOR).unwrap();
        let closed = level_plan(&d, 0);
        assert_eq!(closed.pieces.len(), 2);
        assert_eq!(closed.walls.len(), 16);
        d.set_edge(Pos::new(0, 0, 0), Direction::E, Registry::OPEN).unwrap();
        let open = level_plan(&d, 0);
        assert_eq!(open.pieces.len(), 3, "the long seam is carved");
        assert_eq!(open.walls.len(), 14 + 2, "two cell walls go, two seam sides come");
        for w in &open.walls {
            let mid = (w.a + w.b) / 2.0 + (w.b - w.a).perp().normalize() * 0.01;
            let inside = open.pieces.iter().any(|p| crate::walk::contains(&p.polygon, mid));
            assert!(inside, "wall {w:?} has carved space on its left");
        }
    }
}
