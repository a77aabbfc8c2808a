//! The ray from a camera through a pixel, for picking ([`crate::geometry::pick()`]).

use glam::{DVec3, Vec4};

use crate::geometry::Ray;
use crate::viewer::camera::View;

/// The world ray (metres) through pixel `cursor` (x right, y down, in pixels) of a
/// `size` image seen through `view`: from the near plane toward the far plane. `None` for
/// an empty image, a cursor that is not finite, or a view that cannot be inverted.
#[must_use]
pub fn cursor_ray(view: &View, cursor: (f64, f64), size: (u32, u32)) -> Option<Ray> {
    if size.0 == 0 || size.1 == 0 || !cursor.0.is_finite() || !cursor.1.is_finite() {
        return None;
    }
    let x = (cursor.0 / f64::from(size.0) * 2.0 - 1.0) as f32;
    let y = (1.0 - cursor.1 / f64::from(size.1) * 2.0) as f32;
    let inverse = view.view_proj.inverse();
    let unproject = |depth: f32| {
        let p = inverse * Vec4::new(x, y, depth, 1.0);
        (p.w != 0.0).then(|| (p.truncate() / p.w).as_dvec3())
    };
    let (near, far): (DVec3, DVec3) = (unproject(0.0)?, unproject(1.0)?);
    let ray = Ray { origin: near, dir: far - near };
    (ray.origin.is_finite() && ray.dir.is_finite() && ray.dir.length_squared() > 0.0).then_some(ray)
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::viewer::camera::{Bounds, Orbit, top_view};

    #[test]
    fn the_ray_through_a_projected_point_passes_through_it() {
        let bounds = Bounds { min: Vec3::new(-6.0, 0.0, -6.0), max: Vec3::new(80.0, 16.0, 60.0) };
        let (w, h) = (640, 480);
        for view in
            [Orbit::framing(&bounds).view(w as f32 / h as f32), top_view(&bounds, w as f32 / h as f32)]
        {
            for p in [Vec3::new(10.0, 0.0, 12.0), Vec3::new(50.0, 2.0, 30.0)] {
                let (px, py) = view.project(p, w, h).unwrap();
                let ray = cursor_ray(&view, (f64::from(px), f64::from(py)), (w, h)).unwrap();
                let d = ray.dir.normalize();
                let to = p.as_dvec3() - ray.origin;
                let miss = (to - d * to.dot(d)).length();
                assert!(miss < 0.05, "{miss} m off for {p} in {view:?}");
            }
        }
        assert_eq!(cursor_ray(&top_view(&bounds, 1.0), (1.0, 1.0), (0, 10)), None);
    }
}
