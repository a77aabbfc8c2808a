//! The spiral stair: one closed solid standing in a stair shaft. A central column rises the
//! whole level height; steps no higher than [`MAX_RISE`](crate::geometry::MAX_RISE) wind once round it, each a solid
//! block from the floor up to its tread; the top step is a landing that reaches out to one
//! wall of the octagon (the stair's exit, [`Dungeon::stair_exit`](crate::dungeon::Dungeon::stair_exit)),
//! so one walks off it there. The plan (angles, radii, steps) is [`Spiral`]'s.

use glam::{DVec2, DVec3};

use super::MaterialRole;
use super::panel::{Panel, at};
use super::triangulate::{fan, strip};
use crate::geometry::Spiral;

/// The panels of the stair solid (role [`MaterialRole::Stair`]), its normals pointing out of
/// the solid, from `y = 0` to `y = spec.height` (level-local), following the plan `spec`.
pub(crate) fn spiral(spec: &Spiral) -> Vec<Panel> {
    let c = spec.centre;
    let height = spec.height;
    let n = spec.steps();
    let [ea, eb] = spec.landing;
    let (_, theta_b) = spec.landing_angles();
    let beta = spec.sector_angle();
    // Boundary k = 0..=n at angle theta_b + k * beta; sector s = 0..=n spans boundary s to
    // s + 1 (boundary n + 1 is boundary 0): sector 0 is the gap, 1..n-1 the steps, n the
    // landing. Sector s stands h(s) = s * rise tall.
    let dirs: Vec<DVec2> = (0..=n).map(|k| crate::geometry::angle::unit(theta_b + k as f64 * beta)).collect();
    let (rc, r) = (spec.column_radius(), spec.step_radius());
    let rise = spec.rise();
    let inner: Vec<DVec2> = dirs.iter().map(|&d| c + d * rc).collect();
    let outer: Vec<DVec2> = dirs.iter().map(|&d| c + d * r).collect();
    let h = |s: usize| if s == n { height } else { s as f64 * rise };
    let next = |k: usize| (k + 1) % (n + 1);
    let role = MaterialRole::Stair;
    let mut panels = Vec::new();
    let push = |panels: &mut Vec<Panel>, mut p: Panel, tris: Vec<[DVec3; 3]>| {
        p.extend(tris);
        panels.push(p);
    };

    // Column: bottom and top disks.
    let disk = |y: f64| fan(&inner.iter().map(|&v| at(v, y)).collect::<Vec<_>>());
    push(&mut panels, Panel::horizontal(role, false), disk(0.0));
    push(&mut panels, Panel::horizontal(role, true), disk(height));
    // Steps 1..n-1: bottom, tread, outer face.
    for s in 1..n {
        let quad = |y: f64| vec![at(inner[s], y), at(outer[s], y), at(outer[s + 1], y), at(inner[s + 1], y)];
        push(&mut panels, Panel::horizontal(role, false), fan(&quad(0.0)));
        push(&mut panels, Panel::horizontal(role, true), fan(&quad(h(s))));
        let chain = |k: usize, other: usize| {
            let mut ys = vec![0.0];
            if h(other) > 0.0 && h(other) < h(s) {
                ys.push(h(other));
            }
            ys.push(h(s));
            ys.into_iter().map(|y| at(outer[k], y)).collect::<Vec<_>>()
        };
        let mid = (outer[s] + outer[s + 1]) / 2.0;
        let face = Panel::vertical(role, outer[s], outer[s + 1], mid + (mid - c));
        push(&mut panels, face, strip(&chain(s, s - 1), &chain(s + 1, s + 1)));
    }
    // Landing (sector n): bottom, tread and the face on the octagon's wall.
    let landing_chain_a = |y: f64| vec![at(inner[n], y), at(outer[n], y), at(ea, y)];
    let landing_chain_b = |y: f64| vec![at(inner[0], y), at(eb, y)];
    push(&mut panels, Panel::horizontal(role, false), strip(&landing_chain_a(0.0), &landing_chain_b(0.0)));
    push(
        &mut panels,
        Panel::horizontal(role, true),
        strip(&landing_chain_a(height), &landing_chain_b(height)),
    );
    let mid = (ea + eb) / 2.0;
    push(
        &mut panels,
        Panel::vertical(role, ea, eb, mid + (mid - c)),
        strip(&[at(ea, 0.0), at(ea, height)], &[at(eb, 0.0), at(eb, height)]),
    );
    // Column faces of sectors 0..n-1, from their tread up to the top.
    for s in 0..n {
        let k1 = next(s);
        let chain = |k: usize, other: usize| {
            let mut ys = vec![h(s)];
            if h(other) > h(s) && h(other) < height {
                ys.push(h(other));
            }
            ys.push(height);
            ys.into_iter().map(|y| at(inner[k], y)).collect::<Vec<_>>()
        };
        let left_other = if s == 0 { n } else { s - 1 };
        let mid = (inner[s] + inner[k1]) / 2.0;
        let face = Panel::vertical(role, inner[s], inner[k1], mid + (mid - c));
        push(&mut panels, face, strip(&chain(s, left_other), &chain(k1, k1)));
    }
    // Risers on boundaries 1..=n (facing down the spiral, towards the lower sector).
    for k in 1..=n {
        let back = c + dirs[k] * rc - DVec2::new(-dirs[k].y, dirs[k].x);
        let (lo, hi) = (h(k - 1), h(k));
        let mut face = Panel::vertical(role, inner[k], outer[k], back);
        face.extend(strip(&[at(inner[k], lo), at(inner[k], hi)], &[at(outer[k], lo), at(outer[k], hi)]));
        if k == n {
            face.extend(strip(
                &[at(outer[n], 0.0), at(outer[n], lo), at(outer[n], hi)],
                &[at(ea, 0.0), at(ea, hi)],
            ));
        }
        panels.push(face);
    }
    // Boundary 0: the landing's side facing the gap.
    let ahead = c + dirs[0] * rc + DVec2::new(-dirs[0].y, dirs[0].x);
    push(
        &mut panels,
        Panel::vertical(role, inner[0], eb, ahead),
        strip(&[at(inner[0], 0.0), at(inner[0], height)], &[at(eb, 0.0), at(eb, height)]),
    );
    panels
}
