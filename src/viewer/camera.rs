//! Cameras: orbit, top-down and first-person, as view-projection matrices for wgpu
//! (right-handed, depth 0..1).

use glam::{Mat4, Vec3};

use crate::walk::Walker;

/// Which camera drives the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CameraKind {
    /// Orbit round a target: drag to turn, wheel to zoom, right-drag to pan.
    #[default]
    Orbit,
    /// First-person walkthrough at eye height, colliding with walls.
    Walk,
    /// Straight down, orthographic, framing the whole plan.
    Top,
}

impl std::str::FromStr for CameraKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "orbit" => Ok(CameraKind::Orbit),
            "walk" => Ok(CameraKind::Walk),
            "top" => Ok(CameraKind::Top),
            _ => Err(format!("camera {s:?}: expected orbit, walk or top")),
        }
    }
}

/// What the renderer needs from a camera.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// World to clip space.
    pub view_proj: Mat4,
    /// Camera position (perspective) or unit direction toward the camera (orthographic).
    pub eye: Vec3,
    /// True for an orthographic camera (no fog, parallel view rays).
    pub orthographic: bool,
}

impl View {
    /// Pixel coordinates (x right, y down) of world point `p` in a `width x height` image,
    /// or `None` when it is behind the camera or outside the depth range.
    #[must_use]
    pub fn project(&self, p: Vec3, width: u32, height: u32) -> Option<(f32, f32)> {
        let c = self.view_proj * p.extend(1.0);
        if c.w <= 0.0 {
            return None;
        }
        let ndc = c.truncate() / c.w;
        if !(0.0..=1.0).contains(&ndc.z) {
            return None;
        }
        Some(((ndc.x + 1.0) * 0.5 * width as f32, (1.0 - ndc.y) * 0.5 * height as f32))
    }
}

/// Axis-aligned bounds of the dungeon (world metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Bounds {
    /// The centre.
    #[must_use]
    pub fn centre(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Half the diagonal.
    #[must_use]
    pub fn radius(&self) -> f32 {
        (self.max - self.min).length() * 0.5
    }
}

/// An orbit camera round a target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Orbit {
    /// The point looked at.
    pub target: Vec3,
    /// Compass angle of the camera seen from the target (radians clockwise from north).
    pub yaw: f32,
    /// Elevation above the horizon (radians).
    pub pitch: f32,
    /// Distance to the target (metres).
    pub distance: f32,
}

impl Orbit {
    /// A three-quarter view framing `bounds` in a 16:9 picture ([`Orbit::framing_for`]).
    #[must_use]
    pub fn framing(bounds: &Bounds) -> Orbit {
        Orbit::framing_for(bounds, 16.0 / 9.0)
    }

    /// A three-quarter view framing `bounds` in a picture of aspect `aspect`: the nearest
    /// distance, at most [`FRAMING_DISTANCE`] radii (where the bounding sphere fits the
    /// 0.9 rad field of view), at which every corner of the box lies within 90% of the
    /// picture.
    /// Of the eight headings 45 degrees apart from the usual south-east one, the one that
    /// shows the dungeon largest (a long dungeon is seen from its side).
    #[must_use]
    pub fn framing_for(bounds: &Bounds, aspect: f32) -> Orbit {
        let mut best = Orbit::framing_at(bounds, aspect, 2.4);
        for k in 1..8 {
            let o = Orbit::framing_at(bounds, aspect, 2.4 + k as f32 * std::f32::consts::FRAC_PI_4);
            if o.distance < best.distance * 0.9 {
                best = o;
            }
        }
        best
    }

    /// As [`Orbit::framing_for`] from compass heading `yaw`.
    fn framing_at(bounds: &Bounds, aspect: f32, yaw: f32) -> Orbit {
        let r = bounds.radius().max(5.0);
        let mut orbit = Orbit { target: bounds.centre(), yaw, pitch: 0.8, distance: r * FRAMING_DISTANCE };
        let fits = |o: &Orbit| {
            let vp = o.view(aspect).view_proj;
            (0..8).all(|i| {
                let p = Vec3::new(
                    if i & 1 == 0 { bounds.min.x } else { bounds.max.x },
                    if i & 2 == 0 { bounds.min.y } else { bounds.max.y },
                    if i & 4 == 0 { bounds.min.z } else { bounds.max.z },
                );
                let c = vp * p.extend(1.0);
                c.w > 0.0 && (c.x / c.w).abs() <= 0.9 && (c.y / c.w).abs() <= 0.9
            })
        };
        let (mut near, mut far) = (r * 0.3, r * FRAMING_DISTANCE);
        for _ in 0..24 {
            orbit.distance = (near + far) * 0.5;
            if fits(&orbit) {
                far = orbit.distance;
            } else {
                near = orbit.distance;
            }
        }
        orbit.distance = far;
        orbit
    }

    /// Zooms by `factor` towards world point `towards` (the point under the cursor): the
    /// target moves towards it as the distance shrinks, so it stays under the cursor.
    pub fn zoom_towards(&mut self, factor: f32, towards: Vec3) {
        let before = self.distance;
        self.zoom(factor);
        let k = 1.0 - self.distance / before;
        self.target += (towards - self.target) * k;
    }

    /// Camera position.
    #[must_use]
    pub fn eye(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        self.target + Vec3::new(sy * cp, sp, -cy * cp) * self.distance
    }

    /// Turns by `dyaw`, `dpitch` radians (pitch kept between 5 and 89 degrees).
    pub fn rotate(&mut self, dyaw: f32, dpitch: f32) {
        self.yaw += dyaw;
        self.pitch = (self.pitch + dpitch).clamp(0.09, 1.55);
    }

    /// Zooms by `factor` (below 1 moves in).
    pub fn zoom(&mut self, factor: f32) {
        self.distance = (self.distance * factor).clamp(2.0, 5000.0);
    }

    /// Moves the target by `right`, `forward` metres in the ground plane as seen by the camera.
    pub fn pan(&mut self, right: f32, forward: f32) {
        let (sy, cy) = self.yaw.sin_cos();
        let back = Vec3::new(sy, 0.0, -cy);
        let r = Vec3::new(cy, 0.0, sy);
        self.target += r * -right - back * forward;
    }

    /// The view for an image of aspect `aspect` (width / height).
    #[must_use]
    pub fn view(&self, aspect: f32) -> View {
        let eye = self.eye();
        let view = glam::camera::rh::view::look_at_mat4(eye, self.target, Vec3::Y);
        let far = self.distance * 4.0 + 1000.0;
        let proj = glam::camera::rh::proj::directx::perspective(0.9, aspect.max(1e-3), 0.5, far);
        View { view_proj: proj * view, eye, orthographic: false }
    }
}

/// The orbit distance that frames a bounding sphere, in radii: the sphere's silhouette
/// (half-angle `asin(1 / 2.3)` = 0.45 rad) fits the 0.9 rad vertical field of view.
pub const FRAMING_DISTANCE: f32 = 2.3;

/// The top view's zoom and pan over the plan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TopCamera {
    /// The plan point at the centre of the picture, world `(x, z)`; `None` = the bounds'
    /// centre.
    pub centre: Option<glam::Vec2>,
    /// Magnification: 1 frames the whole plan.
    pub zoom: f32,
}

impl Default for TopCamera {
    fn default() -> Self {
        TopCamera { centre: None, zoom: 1.0 }
    }
}

impl TopCamera {
    /// Half width and half height (metres) of what the view shows of `bounds` at `aspect`.
    #[must_use]
    pub fn half_extent(&self, bounds: &Bounds, aspect: f32) -> glam::Vec2 {
        let half_w = (bounds.max.x - bounds.min.x) * 0.5 * 1.05 + 1.0;
        let half_h = (bounds.max.z - bounds.min.z) * 0.5 * 1.05 + 1.0;
        let (hw, hh) =
            if half_w / half_h > aspect { (half_w, half_w / aspect) } else { (half_h * aspect, half_h) };
        glam::Vec2::new(hw, hh) / self.zoom
    }

    /// The plan point at the picture's centre.
    #[must_use]
    pub fn centre_of(&self, bounds: &Bounds) -> glam::Vec2 {
        self.centre.unwrap_or_else(|| glam::Vec2::new(bounds.centre().x, bounds.centre().z))
    }

    /// The plan point `(x, z)` under pixel `(px, py)` of a `width x height` picture.
    #[must_use]
    pub fn plan_point(&self, bounds: &Bounds, px: f32, py: f32, width: f32, height: f32) -> glam::Vec2 {
        let half = self.half_extent(bounds, width / height.max(1.0));
        let c = self.centre_of(bounds);
        glam::Vec2::new(c.x + (px / width * 2.0 - 1.0) * half.x, c.y + (py / height * 2.0 - 1.0) * half.y)
    }

    /// Zooms by `factor` (above 1 magnifies, kept within 1/4..64) keeping the plan point
    /// under pixel `(px, py)` where it is.
    pub fn zoom_at(&mut self, bounds: &Bounds, factor: f32, px: f32, py: f32, size: (f32, f32)) {
        let under = self.plan_point(bounds, px, py, size.0, size.1);
        let c = self.centre_of(bounds);
        let zoom = (self.zoom * factor).clamp(0.25, 64.0);
        let k = self.zoom / zoom;
        self.zoom = zoom;
        self.centre = Some(under + (c - under) * k);
    }

    /// Pans by a drag of `dx, dy` pixels on a `width x height` picture (the plan follows the
    /// cursor).
    pub fn pan(&mut self, bounds: &Bounds, dx: f32, dy: f32, size: (f32, f32)) {
        let half = self.half_extent(bounds, size.0 / size.1.max(1.0));
        let c = self.centre_of(bounds);
        self.centre = Some(c - glam::Vec2::new(dx / size.0 * 2.0 * half.x, dy / size.1 * 2.0 * half.y));
    }

    /// Straight down on `bounds`, orthographic, north up, at this zoom and centre.
    #[must_use]
    pub fn view(&self, bounds: &Bounds, aspect: f32) -> View {
        let c = self.centre_of(bounds);
        let half = self.half_extent(bounds, aspect);
        let eye = Vec3::new(c.x, bounds.max.y + 10.0, c.y);
        let view = glam::camera::rh::view::look_to_mat4(eye, -Vec3::Y, -Vec3::Z);
        let depth = bounds.max.y - bounds.min.y + 20.0;
        let proj = glam::camera::rh::proj::directx::orthographic(
            -half.x,
            half.x,
            -half.y,
            half.y,
            0.1,
            depth + 10.0,
        );
        View { view_proj: proj * view, eye: Vec3::Y, orthographic: true }
    }
}

/// Straight down on `bounds`, orthographic, north up, the whole plan in frame.
#[must_use]
pub fn top_view(bounds: &Bounds, aspect: f32) -> View {
    TopCamera::default().view(bounds, aspect)
}

/// The world point where the ray through pixel `(px, py)` of a `width x height` picture
/// of `view` meets the horizontal plane at height `y`, if it does (in front of the camera).
#[must_use]
pub fn ray_to_plane(view: &View, px: f32, py: f32, size: (f32, f32), y: f32) -> Option<Vec3> {
    let ndc = glam::Vec2::new(px / size.0 * 2.0 - 1.0, 1.0 - py / size.1 * 2.0);
    let inv = view.view_proj.inverse();
    let near = inv.project_point3(ndc.extend(0.0));
    let far = inv.project_point3(ndc.extend(1.0));
    let d = far - near;
    if d.y.abs() < 1e-6 {
        return None;
    }
    let t = (y - near.y) / d.y;
    (t > 0.0).then(|| near + d * t)
}

/// How far the walkthrough sees (metres): a little beyond where fog hides everything, so
/// the far plane culls what fog would hide anyway.
pub const WALK_FAR: f32 = 64.0;

/// The first-person view of a walker.
#[must_use]
pub fn walk_view(walker: &Walker, aspect: f32) -> View {
    let eye = walker.eye().as_vec3();
    let view = glam::camera::rh::view::look_to_mat4(eye, walker.look().as_vec3(), Vec3::Y);
    let proj = glam::camera::rh::proj::directx::perspective(1.2, aspect.max(1e-3), 0.05, WALK_FAR);
    View { view_proj: proj * view, eye, orthographic: false }
}
