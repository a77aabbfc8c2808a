//! The view's own HUD lines: camera, levels, the cell under the walker or the orbit
//! target, the camera's place and heading, and the frame time.

use glam::DVec2;

use crate::viewer::camera::CameraKind;
use crate::viewer::options::Prepared;

/// The lines of the HUD's "view" section for `prepared`'s current state; `frame` is the
/// measured frame time (ms), draw calls and triangles, when known.
#[must_use]
pub fn view_lines(prepared: &Prepared, frame: Option<(f64, u32, u64)>) -> Vec<String> {
    let s = &prepared.state;
    let world = &prepared.world;
    let levels = prepared.scene.levels();
    let camera = match s.camera {
        CameraKind::Orbit => "orbit",
        CameraKind::Walk => "walk",
        CameraKind::Top => "top",
    };
    let level = s.current_level(world);
    let mut lines = vec![format!(
        "{camera} | level {level} of 0-{} | levels {}",
        levels.saturating_sub(1),
        s.mode.name()
    )];
    let (at, y) = match s.camera {
        CameraKind::Walk => (s.walker.xz(), s.walker.feet.y),
        _ => {
            let t = s.orbit.target.as_dvec3();
            (DVec2::new(t.x, t.z), f64::from(level) * world.level_height())
        }
    };
    let cell = world.layout().slot_at(at).map_or_else(
        || "between cells".to_owned(),
        |slot| format!("cell {},{},{}", level, slot.row, slot.col),
    );
    lines.push(format!("{cell} | x {:.1} y {y:.1} z {:.1}", at.x, at.y));
    lines.push(match s.camera {
        CameraKind::Walk => format!(
            "heading {:.0} deg | pitch {:.0} deg{}",
            s.walker.yaw.to_degrees().rem_euclid(360.0),
            s.walker.pitch.to_degrees(),
            if s.tour.is_some() { " | touring (P stops)" } else { "" }
        ),
        _ => format!(
            "yaw {:.0} deg | pitch {:.0} deg | distance {:.0} m",
            f64::from(s.orbit.yaw).to_degrees().rem_euclid(360.0),
            f64::from(s.orbit.pitch).to_degrees(),
            s.orbit.distance
        ),
    });
    if let Some((ms, draws, triangles)) = frame {
        let triangles =
            if triangles < 10_000 { triangles.to_string() } else { format!("{}k", triangles / 1000) };
        lines.push(format!("{ms:.1} ms | {draws} draws | {triangles} triangles"));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::viewer::{ViewOptions, prepare};

    #[test]
    fn the_view_lines_name_camera_level_and_cell() {
        let d = crate::format::from_json(include_str!("../../../assets/two_levels.json")).unwrap();
        let walk = ViewOptions { camera: CameraKind::Walk, ..ViewOptions::default() };
        let p = prepare(&d, &walk).unwrap();
        let lines = view_lines(&p, Some((12.34, 20, 15_000)));
        let e = d.entrance().unwrap();
        assert!(lines[0].starts_with("walk | level 0 of 0-1"), "{lines:?}");
        assert!(
            lines[1].starts_with(&format!("cell {},{},{}", e.level, e.slot.row, e.slot.col)),
            "{lines:?}"
        );
        assert!(lines[3].contains("12.3 ms") && lines[3].contains("15k"), "{lines:?}");
        // A small view counts its triangles one by one, not as "0k".
        let small = view_lines(&p, Some((1.0, 7, 436)));
        assert!(small[3].ends_with("| 436 triangles"), "{small:?}");
        let orbit = prepare(&d, &ViewOptions::default()).unwrap();
        assert!(view_lines(&orbit, None)[2].contains("distance"), "{:?}", view_lines(&orbit, None));
    }
}
