//! Focus on a clicked point: a click (a left press and release without a drag) in the
//! orbit view moves the orbit's pivot to the carved cell under the cursor, picked on the
//! CPU with [`crate::geometry::pick()`] on the highest drawn level that has one there.

use std::ops::RangeInclusive;

use glam::Vec3;

use super::camera::{CameraKind, View};
use super::edit::ray::cursor_ray;
use super::window::App;
use crate::dungeon::Dungeon;
use crate::geometry::pick;

/// Pixels a press may move before its release and still count as a click, not a drag.
pub const CLICK_SLOP: f64 = 4.0;

/// The point (world metres, on its level's floor) of the carved cell under `cursor` (pixels
/// of a `size` picture seen through `view`), on the highest of `levels` that has one
/// there; `None` when the cursor is over rock or nothing.
#[must_use]
pub fn focus_point(
    dungeon: &Dungeon,
    view: &View,
    levels: RangeInclusive<u16>,
    cursor: (f64, f64),
    size: (u32, u32),
) -> Option<Vec3> {
    let ray = cursor_ray(view, cursor, size)?;
    levels.rev().find_map(|level| {
        pick(dungeon.layout(), dungeon.dims(), level, ray)
            .filter(|hit| dungeon.is_carved(hit.target.pos()))
            .map(|hit| hit.point.as_vec3())
    })
}

/// A click at `cursor` in the orbit view (levels not lifted apart): the orbit's pivot moves
/// to the carved cell under it ([`focus_point`]).
pub(crate) fn click(app: &mut App, cursor: (f64, f64)) {
    let Some(gfx) = &app.gfx else { return };
    let size = gfx.size();
    let p = &mut app.prepared;
    if p.state.camera != CameraKind::Orbit || p.state.mode == super::state::LevelMode::Exploded {
        return;
    }
    let frame = p.state.frame(&p.scene, &p.world, size.0 as f32 / size.1.max(1) as f32);
    if let Some(point) = focus_point(&app.dungeon, &frame.view, frame.levels, cursor, size) {
        p.state.orbit.target = point;
        app.hud.say(format!("pivot at {:.1}, {:.1}, {:.1}", point.x, point.y, point.z));
        if std::env::var("OCTILE_VIEW_DEBUG").is_ok_and(|v| v.split(',').any(|w| w == "focus")) {
            eprintln!("focus: {:.2} {:.2} {:.2}", point.x, point.y, point.z);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viewer::camera::Orbit;

    #[test]
    fn a_click_on_a_cell_focuses_its_floor_and_beyond_the_dungeon_nothing() {
        let d = crate::format::from_json(include_str!("../../assets/two_levels.json")).unwrap();
        let scene = crate::viewer::scene::Scene::new(&d, &crate::mesh::MeshOptions::default()).unwrap();
        let view = Orbit::framing(&scene.bounds).view(4.0 / 3.0);
        let size = (640, 480);
        let mut carved = 0;
        for pos in d.cells() {
            let centre = d.layout().center(pos.slot);
            let y = d.proportions().floor_y(pos.level);
            let at = Vec3::new(centre.x as f32, y as f32, centre.y as f32);
            let Some((x, py)) = view.project(at, size.0, size.1) else { continue };
            let hit = focus_point(&d, &view, pos.level..=pos.level, (f64::from(x), f64::from(py)), size);
            if d.is_carved(pos) {
                let hit = hit.expect("a carved cell is picked");
                assert!(hit.distance(at) < 0.05, "{pos:?}: {hit} for {at}");
                carved += 1;
            }
        }
        assert!(carved > 0);
        // Beyond the dungeon, in the picture's corner: nothing to focus on.
        assert_eq!(focus_point(&d, &view, 0..=1, (0.0, 0.0), size), None);
    }
}
