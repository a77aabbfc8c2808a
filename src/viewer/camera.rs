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
    /// A three-quarter view framing `bounds`.
    #[must_use]
    pub fn framing(bounds: &Bounds) -> Orbit {
        Orbit { target: bounds.centre(), yaw: 2.4, pitch: 0.8, distance: bounds.radius().max(5.0) * 1.4 }
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

/// Straight down on `bounds`, orthographic, north up, the whole plan in frame.
#[must_use]
pub fn top_view(bounds: &Bounds, aspect: f32) -> View {
    let c = bounds.centre();
    let half_w = (bounds.max.x - bounds.min.x) * 0.5 * 1.05 + 1.0;
    let half_h = (bounds.max.z - bounds.min.z) * 0.5 * 1.05 + 1.0;
    let (hw, hh) =
        if half_w / half_h > aspect { (half_w, half_w / aspect) } else { (half_h * aspect, half_h) };
    let eye = Vec3::new(c.x, bounds.max.y + 10.0, c.z);
    let view = glam::camera::rh::view::look_to_mat4(eye, -Vec3::Y, -Vec3::Z);
    let depth = bounds.max.y - bounds.min.y + 20.0;
    let proj = glam::camera::rh::proj::directx::orthographic(-hw, hw, -hh, hh, 0.1, depth + 10.0);
    View { view_proj: proj * view, eye: Vec3::Y, orthographic: true }
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
