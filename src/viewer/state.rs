//! The view state shared by the window and the screenshot: which camera, which levels,
//! the orbit and the walker, and the frame they make.

use glam::DVec2;

use super::camera::{CameraKind, Orbit, TopCamera, View, walk_view};
use super::renderer::Frame;
use super::scene::Scene;
use crate::dungeon::Dungeon;
use crate::grid::{Direction, Pos};
use crate::walk::{Tour, Walker, World, compass_angle};

/// Which levels are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LevelMode {
    /// Every level (the walkthrough still culls to the levels next to the walker).
    #[default]
    All,
    /// Only the current level.
    Only,
    /// The current level and those below it.
    Cutaway,
    /// Every level, lifted apart (orbit; the top view shows them as `All`).
    Exploded,
}

impl std::str::FromStr for LevelMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "all" => Ok(LevelMode::All),
            "only" => Ok(LevelMode::Only),
            "cutaway" => Ok(LevelMode::Cutaway),
            "exploded" => Ok(LevelMode::Exploded),
            _ => Err(format!("level mode {s:?}: expected all, only, cutaway or exploded")),
        }
    }
}

impl LevelMode {
    /// The next mode in the cycle All -> Only -> Cutaway -> Exploded.
    #[must_use]
    pub fn next(self) -> LevelMode {
        match self {
            LevelMode::All => LevelMode::Only,
            LevelMode::Only => LevelMode::Cutaway,
            LevelMode::Cutaway => LevelMode::Exploded,
            LevelMode::Exploded => LevelMode::All,
        }
    }

    /// Lower-case name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            LevelMode::All => "all",
            LevelMode::Only => "only",
            LevelMode::Cutaway => "cutaway",
            LevelMode::Exploded => "exploded",
        }
    }
}

/// The walk mode's map: none, a minimap in a corner, or the whole level from above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MapMode {
    /// No map.
    #[default]
    Off,
    /// The level round the walker from above, in the top-right corner.
    Mini,
    /// The walker's level from above, filling the window (the walker still walks).
    Full,
}

impl std::str::FromStr for MapMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "off" => Ok(MapMode::Off),
            "mini" => Ok(MapMode::Mini),
            "full" => Ok(MapMode::Full),
            _ => Err(format!("map {s:?}: expected off, mini or full")),
        }
    }
}

impl MapMode {
    /// The next mode: Off -> Mini -> Full -> Off.
    #[must_use]
    pub fn next(self) -> MapMode {
        match self {
            MapMode::Off => MapMode::Mini,
            MapMode::Mini => MapMode::Full,
            MapMode::Full => MapMode::Off,
        }
    }
}

/// Metres of the level the minimap shows across.
pub const MINIMAP_METRES: f32 = 60.0;

/// The exploded view's extra gap between levels, in level heights.
pub const EXPLODE_GAP: f32 = 1.0;

/// Everything that decides what a frame shows.
#[derive(Debug, Clone)]
pub struct ViewState {
    /// The active camera.
    pub camera: CameraKind,
    /// The orbit camera (kept while walking).
    pub orbit: Orbit,
    /// The top view's zoom and pan.
    pub top: TopCamera,
    /// The walker (kept while orbiting).
    pub walker: Walker,
    /// Level display mode.
    pub mode: LevelMode,
    /// The level chosen for orbit and top views.
    pub level: u16,
    /// Draw floor cell outlines.
    pub outlines: bool,
    /// Ambient occlusion on.
    pub occlusion: bool,
    /// Dithering against banding on.
    pub dither: bool,
    /// The texture set on the levels' surfaces.
    pub textures: bool,
    /// The torches light the scene (their light baked into the vertices, key T).
    pub torches: bool,
    /// Markers drawn.
    pub markers: bool,
    /// Rooms tinted by role and the entrance and goal starred in the top view and the
    /// walk's maps (key J).
    pub rooms: bool,
    /// The walk mode's map.
    pub map: MapMode,
    /// The guided tour being walked, if any.
    pub tour: Option<Tour>,
    /// Where the walker spawns.
    pub spawn: Pos,
    /// The heading the walker spawns with (compass radians), R turns back to it.
    pub spawn_yaw: f64,
}

impl ViewState {
    /// The initial state: orbit framing the dungeon, walker at the entrance (or the first
    /// walkable cell of `level`), looking down its longest free line.
    #[must_use]
    pub fn new(
        dungeon: &Dungeon,
        world: &World,
        scene: &Scene,
        camera: CameraKind,
        level: Option<u16>,
    ) -> ViewState {
        let walkable = |p: Pos| dungeon.tile_def(p).is_ok_and(|t| t.carved && t.walkable);
        let spawn = dungeon
            .entrance()
            .filter(|e| level.is_none_or(|l| e.level == l) && walkable(*e))
            .or_else(|| dungeon.cells().find(|&p| level.is_none_or(|l| p.level == l) && walkable(p)))
            .unwrap_or(Pos::new(0, 0, 0));
        let mut walker = Walker::spawn(world, spawn);
        walker.yaw = longest_view(world, &walker);
        let spawn_yaw = walker.yaw;
        let mut orbit = Orbit::framing(&scene.bounds);
        if let Some(l) = level {
            orbit.target.y = f32::from(l) * scene.level_height;
        }
        ViewState {
            camera,
            orbit,
            top: TopCamera::default(),
            walker,
            mode: if level.is_some() && camera != CameraKind::Walk {
                LevelMode::Only
            } else {
                LevelMode::All
            },
            level: level.unwrap_or(0).min(scene.levels().saturating_sub(1)),
            outlines: true,
            occlusion: true,
            dither: false,
            textures: false,
            torches: true,
            markers: false,
            rooms: true,
            map: MapMode::default(),
            tour: None,
            spawn,
            spawn_yaw,
        }
    }

    /// The level the view is about: the walker's while walking, else the chosen one.
    #[must_use]
    pub fn current_level(&self, world: &World) -> u16 {
        match self.camera {
            CameraKind::Walk => world.level_at(self.walker.feet.y + self.walker.body.max_step),
            _ => self.level,
        }
    }

    /// The camera's view for an image of aspect `aspect`.
    #[must_use]
    pub fn view(&self, scene: &Scene, aspect: f32) -> View {
        match self.camera {
            CameraKind::Orbit => self.orbit.view(aspect),
            CameraKind::Top => self.top.view(&scene.bounds, aspect),
            CameraKind::Walk => walk_view(&self.walker, aspect),
        }
    }

    /// The frame to draw.
    #[must_use]
    pub fn frame(&self, scene: &Scene, world: &World, aspect: f32) -> Frame {
        let top = scene.levels().saturating_sub(1);
        let current = self.current_level(world).min(top);
        let mut levels = match self.mode {
            LevelMode::All | LevelMode::Exploded => 0..=top,
            LevelMode::Only => current..=current,
            LevelMode::Cutaway => 0..=current,
        };
        if self.camera == CameraKind::Walk {
            // Only the shafts join levels: the walker sees at most one level up or down.
            levels = (*levels.start()).max(current.saturating_sub(1))..=(*levels.end()).min(current + 1);
        }
        let fog = match self.camera {
            CameraKind::Walk => (8.0, super::camera::WALK_FAR - 4.0),
            // Measured past the target, so zooming never fogs the scene away.
            _ => {
                let r = scene.bounds.radius().max(5.0);
                (self.orbit.distance + 0.5 * r, self.orbit.distance + 3.0 * r)
            }
        };
        if self.camera == CameraKind::Walk && self.map == MapMode::Full {
            return self.map_frame(scene, current, aspect, 2.5 * MINIMAP_METRES);
        }
        let overview = self.camera != CameraKind::Walk;
        let explode = if self.mode == LevelMode::Exploded && self.camera == CameraKind::Orbit {
            EXPLODE_GAP * scene.level_height
        } else {
            0.0
        };
        Frame {
            view: self.view(scene, aspect),
            levels,
            fog,
            outlines: self.outlines,
            // Straight down walls are lines: the caps show them. In the orbit view walls
            // show their faces, and the caps (two triangles per wall) would cost a third
            // of its frame time on a CPU renderer.
            caps: self.camera == CameraKind::Top,
            explode,
            route_on_top: overview,
            occlusion: self.occlusion,
            dither: self.dither,
            textures: self.textures,
            torches: self.torches,
            markers: self.markers,
            rooms: self.rooms && self.camera == CameraKind::Top,
            marks: Vec::new(),
            inset: None,
        }
    }

    /// The walker's level from above, `across` metres wide round the walker, with its arrow.
    fn map_frame(&self, scene: &Scene, level: u16, aspect: f32, across: f32) -> Frame {
        let at = self.walker.xz().as_vec2();
        let half = across * 0.5;
        let bounds = super::camera::Bounds {
            min: glam::Vec3::new(at.x - half, scene.bounds.min.y, at.y - half),
            max: glam::Vec3::new(at.x + half, scene.bounds.max.y, at.y + half),
        };
        Frame {
            view: TopCamera::default().view(&bounds, aspect),
            levels: level..=level,
            fog: (0.0, 1.0),
            outlines: false,
            caps: true,
            explode: 0.0,
            route_on_top: true,
            occlusion: false,
            dither: false,
            textures: false,
            torches: false,
            markers: false,
            rooms: self.rooms,
            marks: walker_arrow(&self.walker, across / 12.0),
            inset: None,
        }
    }

    /// The frame with the minimap in the top-right corner of a `width x height` picture
    /// when the walk mode shows one: a square about a third of the height, narrowed to fit
    /// a narrow picture, and left out when that leaves fewer than [`MIN_MINIMAP`] pixels.
    #[must_use]
    pub fn frame_sized(&self, scene: &Scene, world: &World, (width, height): (u32, u32)) -> Frame {
        let mut frame = self.frame(scene, world, width as f32 / height.max(1) as f32);
        let margin = height / 40;
        // Inside the picture: the scissor rectangle may not pass its edges.
        let side = ((height as f32 * 0.32) as u32).min(width.saturating_sub(2 * margin));
        if self.camera == CameraKind::Walk
            && self.map == MapMode::Mini
            && height >= 120
            && side >= MIN_MINIMAP
        {
            let level = self.current_level(world).min(scene.levels().saturating_sub(1));
            let map = self.map_frame(scene, level, 1.0, MINIMAP_METRES);
            frame.inset = Some(Box::new(super::renderer::Inset {
                frame: map,
                rect: [width.saturating_sub(side + margin), margin, side, side],
            }));
        }
        frame
    }
}

/// The narrowest minimap drawn (pixels a side).
pub const MIN_MINIMAP: u32 = 16;

/// An arrow `size` metres long at the walker, pointing where it looks, half a metre above
/// its feet: a triangle list facing up.
fn walker_arrow(walker: &Walker, size: f32) -> Vec<crate::mesh::Vertex> {
    let at = walker.xz().as_vec2();
    let (sy, cy) = (walker.yaw as f32).sin_cos();
    let ahead = glam::Vec2::new(sy, -cy);
    let side = glam::Vec2::new(cy, sy);
    let y = walker.feet.y as f32 + 0.5;
    let tip = at + ahead * size * 0.6;
    let left = at - ahead * size * 0.4 - side * size * 0.4;
    let right = at - ahead * size * 0.4 + side * size * 0.4;
    [tip, left, right]
        .map(|p| crate::mesh::Vertex {
            position: [p.x, y, p.y],
            normal: [0.0, 1.0, 0.0],
            uv: [0.0; 2],
            uv1: [0.0; 2],
        })
        .to_vec()
}

/// The compass angle (of the eight directions) along which a walker at its spot can walk
/// farthest, up to 60 m.
fn longest_view(world: &World, walker: &Walker) -> f64 {
    let mut best = (0.0, 0.0);
    for d in Direction::ALL {
        let (dr, dc) = d.unit();
        let dir = DVec2::new(f64::from(dc), f64::from(dr)).normalize();
        let mut probe = walker.clone();
        for _ in 0..200 {
            probe.step(world, dir * 3.0, false, 0.1);
        }
        let dist = (probe.xz() - walker.xz()).length();
        if dist > best.0 + 0.5 {
            best = (dist, compass_angle(dir));
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::MeshOptions;

    #[test]
    fn level_modes_pick_levels() {
        let d = crate::format::from_json(include_str!("../../assets/two_levels.json")).unwrap();
        let scene = Scene::new(&d, &MeshOptions::default()).unwrap();
        let world = World::new(&d);
        let mut s = ViewState::new(&d, &world, &scene, CameraKind::Orbit, None);
        assert_eq!(s.spawn, d.entrance().unwrap());
        assert_eq!(s.frame(&scene, &world, 1.0).levels, 0..=1);
        s.level = 1;
        s.mode = LevelMode::Only;
        assert_eq!(s.frame(&scene, &world, 1.0).levels, 1..=1);
        s.level = 0;
        s.mode = s.mode.next();
        assert_eq!(s.mode, LevelMode::Cutaway);
        assert_eq!(s.frame(&scene, &world, 1.0).levels, 0..=0);
        s.mode = LevelMode::All;
        s.camera = CameraKind::Walk;
        s.walker.feet.y = 12.0;
        assert_eq!(s.current_level(&world), 1);
        assert_eq!(s.frame(&scene, &world, 1.0).levels, 0..=1);
        let on_one = ViewState::new(&d, &world, &scene, CameraKind::Walk, Some(1));
        assert_eq!(on_one.spawn.level, 1, "spawns on the asked level");
    }

    /// Regression: a walk picture at least 120 px high and narrower than about 0.31 of its
    /// height put the minimap's scissor rectangle past the picture's left edge (wgpu panics).
    #[test]
    fn the_minimap_fits_a_narrow_picture() {
        let d = crate::format::from_json(include_str!("../../assets/two_levels.json")).unwrap();
        let scene = Scene::new(&d, &MeshOptions::default()).unwrap();
        let world = World::new(&d);
        let mut s = ViewState::new(&d, &world, &scene, CameraKind::Walk, None);
        s.map = MapMode::Mini;
        for (w, h) in [(30, 120), (1, 120), (20, 120), (37, 120), (100, 1000), (1280, 720), (120, 4000)] {
            let frame = s.frame_sized(&scene, &world, (w, h));
            if let Some(inset) = &frame.inset {
                let [x, y, side_w, side_h] = inset.rect;
                assert!(x + side_w <= w && y + side_h <= h, "{w}x{h}: {:?}", inset.rect);
                assert!(side_w >= MIN_MINIMAP, "{w}x{h}: {:?}", inset.rect);
            } else {
                assert!(w < MIN_MINIMAP + 2 * (h / 40), "{w}x{h}: room for a minimap");
            }
        }
        let wide = s.frame_sized(&scene, &world, (1280, 720));
        assert_eq!(wide.inset.map(|i| i.rect), Some([1280 - 230 - 18, 18, 230, 230]), "as before");
    }
}
