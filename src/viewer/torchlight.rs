//! Torch light, baked: every torch light of the dungeon (`rooms::torch_lights`, the lights
//! `octile export --lights` writes) lights the vertices near it, worked out on the CPU when
//! a vertex buffer is made (a chunk meshed on demand or re-meshed after an edit, the coarse
//! mesh, the rock caps, the door leaves) and carried in the vertex's UV1 `x` (the viewer
//! has no lightmap to read UV1 for). The shader only reads it: torches are static, so the
//! light of all torches in range costs nothing per frame, where lighting the four nearest
//! in the vertex shader cost lavapipe about half a millisecond a frame.
//!
//! This module owns the falloff rule ([`torch_light`]); the shader has no copy of it.

use glam::{Vec2, Vec3, Vec3Swizzles};

use crate::mesh::Vertex;

/// Range of a torch's light in the viewer (metres): about a room across, so a torch lights
/// its room and little beyond (the viewer has no shadows to stop it at the walls).
pub const TORCH_RANGE: f32 = 7.0;

/// A torch's strength at its own position (a factor on the lit material colour).
pub const STRENGTH: f32 = 3.0;

/// Factor on the sun, ambient and fill light while torches light the scene, so their
/// pools of light read.
pub const DIMMED: f32 = 0.7;

/// How near a torch must be to a perspective camera for torch light to show (metres):
/// the overviews (orbit far away) keep the plain light.
pub const REACH: f32 = 2.0 * TORCH_RANGE;

/// The globals' `torch` of a frame without torch light: off, the other lights at full
/// strength.
pub const UNLIT: [f32; 4] = [0.0, 1.0, 0.0, 0.0];

/// The globals' `torch` of a frame with torch light: on, the other lights [`DIMMED`], the
/// baked light times [`STRENGTH`].
pub const LIT: [f32; 4] = [1.0, DIMMED, STRENGTH, 0.0];

/// One torch light at `torch`'s light on a point `p` of a surface facing unit `n` (world
/// metres), before [`STRENGTH`]: it falls off smoothly to nothing at [`TORCH_RANGE`] and
/// is brighter on surfaces that face it.
#[must_use]
pub fn torch_light(torch: Vec3, p: Vec3, n: Vec3) -> f32 {
    let d = torch - p;
    let d2 = d.length_squared();
    let falloff = (1.0 - d2 / (TORCH_RANGE * TORCH_RANGE)).max(0.0);
    falloff * falloff * (0.25 + 0.75 * n.dot(d).max(0.0) / (d2 + 0.01).sqrt())
}

/// The torch lights of a dungeon in a grid of [`TORCH_RANGE`]-wide squares (seen from
/// above), so the lights in reach of a point are found among its 3 x 3 squares.
#[derive(Debug, Clone, Default)]
pub struct Torchlight {
    /// The grid's smallest corner, world `(x, z)`.
    origin: Vec2,
    /// Squares along x.
    cols: usize,
    /// Squares along z.
    rows: usize,
    /// The lights in each square (row-major), in the order they were given.
    squares: Vec<Vec<Vec3>>,
}

impl Torchlight {
    /// The grid of torch lights at `lights` (world metres).
    #[must_use]
    pub fn new(lights: &[Vec3]) -> Torchlight {
        let Some(first) = lights.first() else { return Torchlight::default() };
        let (mut min, mut max) = (first.xz(), first.xz());
        for p in lights {
            (min, max) = (min.min(p.xz()), max.max(p.xz()));
        }
        let span = ((max - min) / TORCH_RANGE).floor();
        let (cols, rows) = (span.x as usize + 1, span.y as usize + 1);
        let mut grid = Torchlight { origin: min, cols, rows, squares: vec![Vec::new(); cols * rows] };
        for &p in lights {
            let (col, row) = grid.square_of(p);
            grid.squares[row * cols + col].push(p);
        }
        grid
    }

    /// How many torch lights it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.squares.iter().map(Vec::len).sum()
    }

    /// True when it holds no torch light.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.squares.iter().all(Vec::is_empty)
    }

    /// Every torch light (world metres), in no particular order.
    pub fn positions(&self) -> impl Iterator<Item = Vec3> + '_ {
        self.squares.iter().flatten().copied()
    }

    /// The square (column, row) of `p`, clamped to the grid.
    fn square_of(&self, p: Vec3) -> (usize, usize) {
        let at = ((p.xz() - self.origin) / TORCH_RANGE).floor();
        let clamp = |v: f32, n: usize| (v.max(0.0) as usize).min(n - 1);
        (clamp(at.x, self.cols), clamp(at.y, self.rows))
    }

    /// The squares within `radius` (metres, seen from above) of `p`: columns and rows.
    /// Their lights hold every light nearer `p` than `radius`, and some further.
    fn squares_near(&self, p: Vec3, radius: f32) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let span = |v: f32, origin: f32, n: usize| {
            let first = ((v - radius - origin) / TORCH_RANGE).floor();
            let last = ((v + radius - origin) / TORCH_RANGE).floor();
            if n == 0 || last < 0.0 || first >= n as f32 {
                0..0
            } else {
                first.max(0.0) as usize..(last as usize + 1).min(n)
            }
        };
        (span(p.x, self.origin.x, self.cols), span(p.z, self.origin.y, self.rows))
    }

    /// The light of every torch in range at `p` on a surface facing unit `n` (world
    /// metres): the sum of their [`torch_light`], before [`STRENGTH`].
    #[must_use]
    pub fn light_at(&self, p: Vec3, n: Vec3) -> f32 {
        // Plain loops: the viewer's dev build bakes every chunk it meshes.
        let range2 = TORCH_RANGE * TORCH_RANGE;
        let (cols, rows) = self.squares_near(p, TORCH_RANGE);
        let mut sum = 0.0;
        for row in rows {
            for square in &self.squares[row * self.cols + cols.start..row * self.cols + cols.end] {
                for &t in square {
                    if t.distance_squared(p) < range2 {
                        sum += torch_light(t, p, n);
                    }
                }
            }
        }
        sum
    }

    /// Bakes the torches' light into `vertices` (their positions `lift` metres below world
    /// height: a level's floor height for level-local meshes, 0 for world-space ones): UV1
    /// becomes `[light_at(position, normal), 0]`, what the shader reads.
    pub fn bake(&self, vertices: &mut [Vertex], lift: f32) {
        for v in vertices {
            let p = Vec3::from(v.position) + Vec3::Y * lift;
            v.uv1 = [self.light_at(p, Vec3::from(v.normal)), 0.0];
        }
    }

    /// True when a torch light is within [`REACH`] of `eye`.
    #[must_use]
    pub fn within_reach(&self, eye: Vec3) -> bool {
        let (cols, rows) = self.squares_near(eye, REACH);
        rows.flat_map(|row| &self.squares[row * self.cols + cols.start..row * self.cols + cols.end])
            .flatten()
            .any(|t| t.distance_squared(eye) < REACH * REACH)
    }

    /// The globals' `torch` for a frame seen from `eye`: [`LIT`] when torch light is
    /// `wanted`, the camera is perspective and a torch is within [`REACH`], else [`UNLIT`].
    #[must_use]
    pub fn uniform(&self, wanted: bool, orthographic: bool, eye: Vec3) -> [f32; 4] {
        if wanted && !orthographic && self.within_reach(eye) { LIT } else { UNLIT }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lights along x, 3 m apart, 2 m up; some on a second row at z = 20.
    fn lights() -> Vec<Vec3> {
        let mut out: Vec<Vec3> = (0..10).map(|i| Vec3::new(i as f32 * 3.0, 2.0, 0.0)).collect();
        out.extend((0..4).map(|i| Vec3::new(i as f32 * 5.0 - 3.0, 2.0, 20.0)));
        out
    }

    #[test]
    fn the_grid_finds_every_light_in_range_as_a_brute_force_sum_does() {
        let lights = lights();
        let grid = Torchlight::new(&lights);
        assert_eq!(grid.len(), lights.len());
        for (i, p) in
            [(0.0, 0.0, 0.0), (9.0, 0.0, 4.0), (28.5, 3.0, -6.9), (-5.0, 1.0, 18.0), (13.0, 0.0, 11.0)]
                .into_iter()
                .enumerate()
        {
            let p = Vec3::new(p.0, p.1, p.2);
            let n = [Vec3::Y, Vec3::X, Vec3::NEG_Z][i % 3];
            let brute: f32 = lights.iter().map(|&t| torch_light(t, p, n)).sum();
            assert!(
                (grid.light_at(p, n) - brute).abs() < 1e-5,
                "at {p}: {} against {brute}",
                grid.light_at(p, n)
            );
        }
    }

    #[test]
    fn light_falls_off_to_nothing_at_the_range_and_favours_faces_towards_it() {
        let torch = Vec3::new(0.0, 2.0, 0.0);
        let under = torch_light(torch, Vec3::ZERO, Vec3::Y);
        let aside = torch_light(torch, Vec3::new(0.0, 0.0, 4.0), Vec3::Y);
        assert!(under > aside && aside > 0.0, "{under} {aside}");
        assert_eq!(torch_light(torch, Vec3::new(0.0, 2.0, TORCH_RANGE), Vec3::Y), 0.0);
        let facing = torch_light(torch, Vec3::new(3.0, 2.0, 0.0), Vec3::NEG_X);
        let away = torch_light(torch, Vec3::new(3.0, 2.0, 0.0), Vec3::X);
        assert!(facing > 2.0 * away && away > 0.0, "{facing} {away}");
    }

    #[test]
    fn baking_writes_each_vertex_its_light_at_world_height() {
        let grid = Torchlight::new(&lights());
        let vertex = |x: f32, y: f32| Vertex {
            position: [x, y, 0.0],
            normal: [0.0, 1.0, 0.0],
            uv: [0.0; 2],
            uv1: [0.5; 2],
        };
        let mut vertices = vec![vertex(9.0, 0.0), vertex(9.0, -4.0), vertex(90.0, 0.0)];
        grid.bake(&mut vertices, 4.0);
        assert_eq!(vertices[0].uv1, [grid.light_at(Vec3::new(9.0, 4.0, 0.0), Vec3::Y), 0.0]);
        assert_eq!(vertices[1].uv1, [grid.light_at(Vec3::new(9.0, 0.0, 0.0), Vec3::Y), 0.0]);
        assert!(vertices[1].uv1[0] > vertices[0].uv1[0], "nearer the torches is brighter");
        assert_eq!(vertices[2].uv1, [0.0, 0.0], "out of every torch's range");
    }

    #[test]
    fn a_frame_is_lit_when_asked_with_a_perspective_camera_near_a_torch() {
        let grid = Torchlight::new(&lights());
        let near = Vec3::new(8.0, 1.7, 0.0);
        assert_eq!(grid.uniform(true, false, near), LIT);
        assert_eq!(grid.uniform(false, false, near), UNLIT);
        assert_eq!(grid.uniform(true, true, near), UNLIT);
        assert_eq!(grid.uniform(true, false, Vec3::new(0.0, 0.0, 500.0)), UNLIT);
        assert_eq!(Torchlight::new(&[]).uniform(true, false, near), UNLIT);
        assert_eq!(Torchlight::new(&[]).light_at(near, Vec3::Y), 0.0);
    }
}
