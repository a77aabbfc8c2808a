//! Markers and torch lights in the viewer: every marker of the dungeon
//! ([`crate::rooms::Markers`]: spawns, props, torch sockets, door hinges) as a small diamond
//! and every placed key and lock of a mission ([`Dungeon::keys`]) as a larger one at
//! chest height in its lock's colour (key K), and with `--lights` every torch light ([`crate::rooms::torch_lights`]) as a warm
//! glowing diamond where the exported `KHR_lights_punctual` light stands.

use glam::Vec3;

use crate::dungeon::Dungeon;
use crate::mesh::Vertex;
use crate::rooms::{LightPreset, Markers, RoomGraph, torch_lights};

/// Half the height of a marker's diamond (metres).
const SIZE: f32 = 0.4;

/// Half the height of a key's diamond (metres).
const KEY_SIZE: f32 = 0.6;

/// Half the height of a lock's diamond (metres): it stands through a door leaf.
const LOCK_SIZE: f32 = 0.35;

/// How high over its cell's floor a key's diamond floats (metres): at chest height, where a
/// walker sees it across the room.
const KEY_LIFT: f32 = 1.2;

/// A diamond (octahedron) of half-size `size` round `at`: 8 triangles facing out.
fn diamond(at: Vec3, size: f32, out: &mut Vec<Vertex>) {
    let axes = [Vec3::X, Vec3::Z, -Vec3::X, -Vec3::Z];
    for (i, &a) in axes.iter().enumerate() {
        let b = axes[(i + 1) % 4];
        for tip in [Vec3::Y, -Vec3::Y] {
            let (p, q) = if tip.y > 0.0 { (b, a) } else { (a, b) };
            let tri = [at + p * size, at + q * size, at + tip * size * 1.6];
            let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize_or_zero();
            let (n, tri) = if n.dot(tri[0] - at) < 0.0 { (-n, [tri[1], tri[0], tri[2]]) } else { (n, tri) };
            out.extend(tri.map(|v| Vertex {
                position: v.to_array(),
                normal: n.to_array(),
                uv: [0.0; 2],
                uv1: [0.0; 2],
            }));
        }
    }
}

/// The markers of `dungeon` ([`Markers::of`] on its room graph), which the functions
/// below draw. Finding them walks the whole dungeon: a caller that wants several drawings
/// finds them once.
#[must_use]
pub fn markers_of(dungeon: &Dungeon) -> Markers {
    Markers::of(dungeon, &RoomGraph::of(dungeon))
}

/// The `markers` as diamonds (world metres, a triangle list), a little above their point
/// so floor markers show.
#[must_use]
pub fn marker_triangles(markers: &Markers) -> Vec<Vertex> {
    let mut out = Vec::new();
    for m in markers.iter() {
        diamond(m.point.as_vec3() + Vec3::Y * (SIZE * 2.0), SIZE, &mut out);
    }
    out
}

/// `dungeon`'s keys ([`Dungeon::keys`]) as diamonds larger than the markers' (world metres,
/// triangle lists), each over its cell's centre at chest height, and a smaller diamond in
/// the middle of the opening of every door with a lock id ([`Dungeon::lock_of`]) at the
/// same height: the lock, through the leaf so it shows from both sides. Grouped by lock
/// colour (entry `id % LOCK_COLOUR_COUNT`, the plan's [`crate::plan::lock_colour`]), so a
/// key and its lock share a colour; drawn with the markers.
#[must_use]
pub fn key_triangles(dungeon: &Dungeon) -> Vec<Vec<Vertex>> {
    let mut out = vec![Vec::new(); crate::plan::LOCK_COLOUR_COUNT];
    let group = |id: u32| id as usize % crate::plan::LOCK_COLOUR_COUNT;
    for (id, pos) in dungeon.keys() {
        let at = dungeon.layout().world_center(pos).as_vec3() + Vec3::Y * KEY_LIFT;
        diamond(at, KEY_SIZE, &mut out[group(id)]);
    }
    if dungeon.has_mission() {
        for leaf in crate::mesh::door_leaves(dungeon) {
            if let Some(id) = dungeon.lock_of(leaf.level, leaf.edge) {
                let middle =
                    leaf.hinge + glam::DVec3::new(leaf.along.x, 0.0, leaf.along.y) * (leaf.width / 2.0);
                diamond(middle.as_vec3() + Vec3::Y * KEY_LIFT, LOCK_SIZE, &mut out[group(id)]);
            }
        }
    }
    out
}

/// The torch lights of `markers` (as `--lights` exports them) as diamonds at each light.
#[must_use]
pub fn light_triangles(markers: &Markers) -> Vec<Vertex> {
    let mut out = Vec::new();
    for light in torch_lights(markers, LightPreset::Blender) {
        diamond(light.position.as_vec3(), SIZE * 0.8, &mut out);
    }
    out
}

/// Where the torch lights of `markers` hang (world metres), in [`torch_lights`]' order.
#[must_use]
pub fn torch_positions(markers: &Markers) -> Vec<Vec3> {
    torch_lights(markers, LightPreset::Blender).iter().map(|l| l.position.as_vec3()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_marker_and_light_gets_a_closed_diamond() {
        let options =
            crate::generate::GenerateOptions { seed: 7, levels: 1, cols: 6, rows: 6, ..Default::default() };
        let d = crate::generate::generate(&options, &mut |_| {}).unwrap();
        let markers = markers_of(&d);
        assert!(markers.iter().count() > 0);
        assert_eq!(marker_triangles(&markers).len(), markers.iter().count() * 24);
        // A key is one larger diamond over its cell.
        assert!(key_triangles(&d).iter().all(Vec::is_empty));
        let mut keyed = d.clone();
        let at = d.entrance().unwrap();
        keyed.set_key(1, Some(at)).unwrap();
        let tris = key_triangles(&keyed).swap_remove(1);
        assert_eq!(tris.len(), 24, "a key in lock 1's colour, and no locked door");
        let top = tris.iter().map(|v| v.position[1]).fold(f32::MIN, f32::max);
        let floor = d.proportions().floor_y(at.level) as f32;
        assert!(
            (top - (floor + KEY_LIFT + KEY_SIZE * 1.6)).abs() < 1e-4,
            "the key floats at chest height: {top}"
        );
        let lights = torch_lights(&markers, LightPreset::Blender);
        let tris = light_triangles(&markers);
        assert_eq!(torch_positions(&markers).len(), lights.len());
        assert_eq!(tris.len(), lights.len() * 24);
        // Outward normals: every face's normal points away from its diamond's centre.
        for (light, faces) in lights.iter().zip(tris.chunks(24)) {
            for v in faces.chunks(3) {
                let centroid =
                    (Vec3::from(v[0].position) + Vec3::from(v[1].position) + Vec3::from(v[2].position)) / 3.0;
                assert!(Vec3::from(v[0].normal).dot(centroid - light.position.as_vec3()) > 0.0);
            }
        }
    }

    #[test]
    fn a_locked_door_gets_a_lock_in_the_middle_of_its_opening() {
        use crate::dungeon::{Fill, Mechanism};
        use crate::grid::{Direction, Pos};
        let mut d = Dungeon::new(3, 1, 1, crate::geometry::Proportions::default(), Fill::Floor).unwrap();
        let locked = d.mission_state(Mechanism::Locked).unwrap();
        let middle = Pos::new(0, 0, 2);
        d.set_edge(middle, Direction::E, locked).unwrap();
        assert!(key_triangles(&d).iter().all(Vec::is_empty), "a locked door without an id has no lock drawn");
        d.set_lock(middle, Direction::E, Some(1)).unwrap();
        d.set_key(1, Some(Pos::new(0, 0, 0))).unwrap();
        let tris = key_triangles(&d).swap_remove(1);
        assert_eq!(tris.len(), 48, "the key and the lock, both in lock 1's colour");
        let lock = &tris[24..];
        let centre = lock.iter().map(|v| Vec3::from(v.position)).fold(Vec3::ZERO, |a, b| a + b) / 24.0;
        let [a, b] = d.layout().wall(middle.slot, Direction::E).unwrap();
        let opening = (a + b) / 2.0;
        let next = d.layout().wall(Pos::new(0, 0, 4).slot, Direction::W).unwrap();
        let far = (next[0] + next[1]) / 2.0;
        let seam = (opening + far) / 2.0;
        let plan = glam::Vec2::new(centre.x, centre.z);
        assert!(plan.distance(seam.as_vec2()) < 2.5, "at the door: {plan} against the seam's middle {seam}");
    }
}
