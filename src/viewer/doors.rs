//! Doors in the viewer: every door's leaf drawn closed or swung open (the exporter's leaf,
//! [`crate::mesh::leaf_mesh`], placed by [`crate::mesh::door_leaves`]), the door the walker
//! faces, and opening or closing it through the dungeon's own door state
//! ([`Dungeon::open_door`] / [`Dungeon::close_door`]), so walking and routing see it.

use std::f64::consts::FRAC_PI_2;

use glam::{DQuat, DVec2, DVec3};

use crate::dungeon::{Dungeon, DungeonError};
use crate::grid::Pos;
use crate::mesh::{DoorLeaf, Vertex, door_leaves, leaf_mesh};
use crate::walk::Walker;

/// How far an open leaf is swung (radians): nearly flat against the wall beside it.
pub const OPEN_SWING: f64 = FRAC_PI_2 * 0.95;

/// How far from the eye a door can be opened (metres, to the middle of its opening).
pub const REACH: f64 = 3.0;

/// Every door leaf of `dungeon` as a triangle list in world metres per level (closed
/// leaves across their opening, open ones swung by [`OPEN_SWING`]), with the level's
/// railings ([`crate::mesh::railings`]), the other stand-alone solids drawn in the leaves'
/// wood.
#[must_use]
pub fn leaf_triangles(dungeon: &Dungeon) -> Vec<Vec<Vertex>> {
    let mut levels = vec![Vec::new(); usize::from(dungeon.levels())];
    for leaf in door_leaves(dungeon) {
        let out = &mut levels[usize::from(leaf.level)];
        let mesh = leaf_mesh(leaf.width, leaf.height);
        let swing = if leaf.open { OPEN_SWING } else { 0.0 };
        let turn = leaf.rotation() * DQuat::from_rotation_y(swing);
        for &i in &mesh.indices {
            let v = mesh.vertices[i as usize];
            let p = leaf.to_world(DVec3::from(v.position.map(f64::from)), swing);
            let n = turn * DVec3::from(v.normal.map(f64::from));
            out.push(Vertex { position: p.as_vec3().to_array(), normal: n.as_vec3().to_array(), ..v });
        }
    }
    for railing in crate::mesh::railings(dungeon) {
        let out = &mut levels[usize::from(railing.level)];
        let mesh = crate::mesh::railing_mesh(railing.length);
        let turn = railing.rotation();
        for &i in &mesh.indices {
            let v = mesh.vertices[i as usize];
            let p = railing.start + turn * DVec3::from(v.position.map(f64::from));
            let n = turn * DVec3::from(v.normal.map(f64::from));
            out.push(Vertex { position: p.as_vec3().to_array(), normal: n.as_vec3().to_array(), ..v });
        }
    }
    levels
}

/// The middle of a door's opening, world `(x, z)`.
fn middle(leaf: &DoorLeaf) -> DVec2 {
    DVec2::new(leaf.hinge.x, leaf.hinge.z) + leaf.along * (leaf.width * 0.5)
}

/// The door the walker faces: on its level, within [`REACH`] of its eye and within 50
/// degrees of where it looks; the nearest such.
#[must_use]
pub fn faced_door(dungeon: &Dungeon, walker: &Walker, level: u16) -> Option<DoorLeaf> {
    let eye = walker.xz();
    let (sy, cy) = walker.yaw.sin_cos();
    let look = DVec2::new(sy, -cy);
    door_leaves(dungeon)
        .into_iter()
        .filter(|leaf| leaf.level == level)
        .filter_map(|leaf| {
            let to = middle(&leaf) - eye;
            let d = to.length();
            (d <= REACH && (d < 0.5 || to.normalize().dot(look) >= 50f64.to_radians().cos()))
                .then_some((d, leaf))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, leaf)| leaf)
}

/// The cell and wall that name `leaf`'s edge (the first side: the hinge's cell).
fn side(dungeon: &Dungeon, leaf: &DoorLeaf) -> Result<(Pos, crate::grid::Direction), DungeonError> {
    let [(slot, dir), _] = dungeon
        .dims()
        .edge_sides(leaf.edge)
        .map_err(|source| DungeonError::Grid { level: leaf.level, source })?;
    Ok((Pos { level: leaf.level, slot }, dir))
}

/// Opens `leaf`'s door when closed, closes it when open; returns whether it is open now.
///
/// # Errors
/// The dungeon's refusal ([`Dungeon::open_door`]: the edge's state has no transition).
pub fn toggle(dungeon: &mut Dungeon, leaf: &DoorLeaf) -> Result<bool, DungeonError> {
    let (pos, dir) = side(dungeon, leaf)?;
    let change = if leaf.open { dungeon.close_door(pos, dir)? } else { dungeon.open_door(pos, dir)? };
    Ok(change.walkable.after)
}

/// Opens every closed door of `dungeon` (`--open-doors`); returns how many. A mission door
/// (locked, one-way, secret: no open state of its own, a game opens it) becomes the
/// registry's plain open door, as if its key were held: the view walks where `octile path`
/// routes with doors opened.
///
/// # Errors
/// The dungeon's refusal ([`Dungeon::open_door`]); [`DungeonError::Registry`] for a mission
/// door in a registry without a plain open door.
pub fn open_all(dungeon: &mut Dungeon) -> Result<usize, DungeonError> {
    let mut opened = 0;
    // One path graph kept current through every door (`open_door` alone reads one per door:
    // 3.3 s for the 830 doors of a 64x64x4 maze).
    let mut graph = crate::path::PathGraph::new(dungeon).ok();
    for leaf in door_leaves(dungeon).iter().filter(|l| !l.open) {
        let (pos, dir) = side(dungeon, leaf)?;
        let state = dungeon.edge_state(pos, dir)?;
        if state.is_some_and(|s| dungeon.registry().mechanism(s).is_some()) {
            let Some(open) = dungeon.registry().plain_open_door() else {
                return Err(DungeonError::Registry {
                    what: "no plain open door to open a mission door to".into(),
                });
            };
            dungeon.set_edge(pos, dir, open)?;
            if let Some(g) = graph.as_mut() {
                let _ = g.update_edge(dungeon, pos, dir);
            }
        } else {
            match graph.as_mut() {
                Some(g) => dungeon.open_door_with(g, pos, dir)?,
                None => dungeon.open_door(pos, dir)?,
            };
        }
        opened += 1;
    }
    Ok(opened)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_doors() -> Dungeon {
        let options = crate::generate::GenerateOptions {
            seed: 7,
            levels: 1,
            cols: 6,
            rows: 6,
            doors: 1.0,
            ..Default::default()
        };
        crate::generate::generate(&options, &mut |_| {}).unwrap()
    }

    #[test]
    fn a_faced_door_opens_and_closes_and_its_leaf_swings() {
        let mut d = with_doors();
        let leaves = door_leaves(&d);
        let leaf = *leaves.first().expect("the dungeon has doors");
        assert!(!leaf.open);
        let closed = leaf_triangles(&d);
        assert_eq!(closed.iter().map(Vec::len).sum::<usize>(), leaves.len() * 36, "12 triangles per leaf");
        // Stand 1.5 m in front of the opening, on its hinge cell's side, looking at it.
        let normal = DVec2::new(-leaf.along.y, leaf.along.x);
        let cell_side = d.layout().center(leaf.cell.slot) - middle(&leaf);
        let out = if normal.dot(cell_side) > 0.0 { normal } else { -normal };
        let mut walker = Walker::at(DVec3::new(0.0, leaf.hinge.y, 0.0));
        let at = middle(&leaf) + out * 1.5;
        (walker.feet.x, walker.feet.z) = (at.x, at.y);
        walker.yaw = crate::walk::compass_angle(-out);
        assert_eq!(faced_door(&d, &walker, leaf.level).map(|l| l.edge), Some(leaf.edge));
        walker.yaw = crate::walk::compass_angle(out);
        assert_eq!(faced_door(&d, &walker, leaf.level), None, "a door behind is not faced");
        assert!(toggle(&mut d, &leaf).unwrap(), "opened");
        let open = leaf_triangles(&d);
        assert_ne!(open, closed, "the open leaf is swung");
        let now = door_leaves(&d).into_iter().find(|l| l.edge == leaf.edge && l.level == leaf.level).unwrap();
        assert!(now.open);
        assert!(!toggle(&mut d, &now).unwrap(), "closed again");
        assert_eq!(leaf_triangles(&d), closed);
        assert_eq!(open_all(&mut d).unwrap(), leaves.len());
        assert!(door_leaves(&d).iter().all(|l| l.open));
    }

    /// Opening every door through one kept graph gives the dungeon that opening them one by
    /// one with `open_door` gives.
    #[test]
    fn opening_all_through_one_graph_matches_opening_each() {
        let d = with_doors();
        let mut all = d.clone();
        let opened = open_all(&mut all).unwrap();
        let mut each = d.clone();
        for leaf in door_leaves(&d) {
            let (pos, dir) = side(&each, &leaf).unwrap();
            each.open_door(pos, dir).unwrap();
        }
        assert!(opened > 0);
        assert!(all == each, "the same doors, the same states");
    }
}
