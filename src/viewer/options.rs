//! Options shared by the window and the headless screenshot, and the one-call screenshot.

use std::path::{Path, PathBuf};

use super::ViewerError;
use super::camera::CameraKind;
use super::gpu::{AdapterPreference, Gpu};
use super::scene::Scene;
use super::screenshot::{Offscreen, Shot};
use super::state::{LevelMode, ViewState};
use crate::dungeon::Dungeon;
use crate::export::{Export, ExportOptions, ExportSummary};
use crate::grid::Pos;
use crate::mesh::MeshOptions;
use crate::path::{PathRules, find_path};
use crate::walk::World;

/// How to show a dungeon.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewOptions {
    /// The camera to start with.
    pub camera: CameraKind,
    /// Show this level (orbit/top: only it; walk: spawn on it).
    pub level: Option<u16>,
    /// Draw the route between these cells (and let the walkthrough follow it).
    pub path: Option<(Pos, Pos)>,
    /// Without `path`: draw the flow's critical path ([`crate::flow::verify`]: entrance to
    /// goal, every lock open) as the route, and open every door ([`ViewOptions::open_doors`])
    /// so the walkthrough can follow it.
    pub critical_path: bool,
    /// Image or initial window size in pixels.
    pub size: (u32, u32),
    /// Draw faint outlines of the floor cells.
    pub outlines: bool,
    /// Which adapter to prefer.
    pub adapter: AdapterPreference,
    /// Mesh options (the same build the exporter writes).
    pub mesh: MeshOptions,
    /// Where the window's E key exports what it shows (a `.glb`, or `.gltf` plus `.bin`).
    pub export_to: PathBuf,
    /// Where edit mode's Ctrl+S saves the dungeon (its export key writes the `.glb` beside).
    pub save_to: PathBuf,
    /// Mouse-look radians per pixel of mouse motion.
    pub look_sensitivity: f64,
    /// Mouse-look up/down inverted.
    pub invert_look: bool,
    /// Draw the HUD in screenshots (the window always has it; F2 hides it).
    pub hud: bool,
    /// The level mode to start with (`None`: all levels, or only `level` when given).
    pub level_mode: Option<LevelMode>,
    /// Open every door before viewing (as `octile path` routes through them).
    pub open_doors: bool,
    /// The walk mode's map to start with (key M cycles it).
    pub map: super::state::MapMode,
    /// Dither against colour banding.
    pub dither: bool,
    /// Texture the surfaces with the texture set (key U).
    pub textures: bool,
    /// Draw the markers (key K).
    pub markers: bool,
    /// Draw the torch lights `--lights` exports, glowing.
    pub lights: bool,
    /// Tint the rooms by role and star the entrance and goal in the top view and the
    /// walk's maps (key J; dungeons with a room table).
    pub rooms: bool,
}

impl ViewOptions {
    /// Whether the view opens every door first: [`ViewOptions::open_doors`], or
    /// [`ViewOptions::critical_path`] (so the walkthrough can follow it).
    #[must_use]
    pub fn opens_doors(&self) -> bool {
        self.open_doors || self.critical_path
    }
}

/// Mouse-look radians per pixel by default: 90 degrees in 524 pixels.
pub const DEFAULT_LOOK_SENSITIVITY: f64 = 0.003;

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            camera: CameraKind::Orbit,
            level: None,
            path: None,
            critical_path: false,
            size: (1280, 720),
            outlines: true,
            adapter: AdapterPreference::HighPerformance,
            mesh: MeshOptions::default(),
            export_to: PathBuf::from("octile-view.glb"),
            save_to: PathBuf::from("octile-edited.json"),
            look_sensitivity: DEFAULT_LOOK_SENSITIVITY,
            invert_look: false,
            hud: false,
            level_mode: None,
            open_doors: false,
            map: super::state::MapMode::Off,
            dither: false,
            textures: false,
            markers: false,
            lights: false,
            rooms: true,
        }
    }
}

/// Everything the CPU prepares before drawing: scene, walk world, route and view state.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The scene.
    pub scene: Scene,
    /// The walk world.
    pub world: World,
    /// The route's cells, when a path was asked for.
    pub route: Option<Vec<Pos>>,
    /// The initial view state.
    pub state: ViewState,
    /// Why the walkthrough cannot start in this dungeon (rooms too low for the walker), if
    /// so: the window then skips the walk camera and the tour.
    pub walk_refused: Option<crate::walk::WalkError>,
}

/// How the viewer treats doors: as `octile path` does, a closed door (drawn with its leaf
/// across the opening) blocks walking and routes; the walkthrough's F key opens it, and
/// `--open-doors` ([`ViewOptions::open_doors`]) opens every door first.
pub const VIEW_RULES: PathRules = PathRules { open_doors: false };

/// Builds the scene, the walk world, the route and the initial state; checks the options
/// against the dungeon.
///
/// # Errors
/// [`ViewerError::NoSuchLevel`], [`ViewerError::Path`] or [`ViewerError::NoRoute`] for
/// options the dungeon cannot meet; [`ViewerError::Walk`] when the walk camera is asked for
/// and the rooms are too low for the walker ([`crate::walk::Body::check_room`]);
/// [`ViewerError::Mesh`] when the mesh cannot be built.
pub fn prepare(dungeon: &Dungeon, options: &ViewOptions) -> Result<Prepared, ViewerError> {
    if let Some(level) = options.level
        && level >= dungeon.levels()
    {
        return Err(ViewerError::NoSuchLevel { level, levels: dungeon.levels() });
    }
    let route = match options.path {
        Some((from, to)) => Some(route(dungeon, from, to)?),
        None if options.critical_path => Some(critical_path(dungeon)?),
        None => None,
    };
    let walk_refused = walk_refusal(dungeon.proportions().room_height, options.camera)?;
    let scene = Scene::new(dungeon, &options.mesh)?;
    let world = World::with_rules(dungeon, &VIEW_RULES);
    let mut state = ViewState::new(dungeon, &world, &scene, options.camera, options.level);
    state.outlines = options.outlines;
    let (w, h) = options.size;
    state.orbit = crate::viewer::camera::Orbit::framing_for(&scene.bounds, w as f32 / h.max(1) as f32);
    if let Some(l) = options.level {
        state.orbit.target.y = f32::from(l) * scene.level_height;
    }
    if let Some(mode) = options.level_mode {
        state.mode = mode;
    }
    state.map = options.map;
    state.dither = options.dither;
    state.textures = options.textures;
    state.markers = options.markers;
    state.rooms = options.rooms;
    if let Some(steps) =
        route.as_ref().filter(|_| options.camera == CameraKind::Walk && options.level.is_none())
    {
        // Walk from the route's start, facing its first step.
        state.spawn = steps[0];
        state.walker = crate::walk::Walker::spawn(&world, steps[0]);
        if let Some(next) = steps.get(1) {
            let d = world.slot_centre(next.slot) - world.slot_centre(steps[0].slot);
            if d.length() > 0.0 {
                state.walker.yaw = crate::walk::compass_angle(d);
                state.spawn_yaw = state.walker.yaw;
            }
        }
    }
    Ok(Prepared { scene, world, route, state, walk_refused })
}

/// The cells of the route from `from` to `to` with the doors as they stand.
///
/// # Errors
/// [`ViewerError::Path`] for cells the pathing core refuses; [`ViewerError::DoorBlocksRoute`]
/// when only closed doors stand in the way; [`ViewerError::NoRoute`] when nothing joins them.
pub fn route(dungeon: &Dungeon, from: Pos, to: Pos) -> Result<Vec<Pos>, ViewerError> {
    match find_path(dungeon, from, to, &VIEW_RULES)? {
        Some(r) => Ok(r.steps),
        None if find_path(dungeon, from, to, &PathRules { open_doors: true })?.is_some() => {
            Err(ViewerError::DoorBlocksRoute { from, to })
        }
        None => Err(ViewerError::NoRoute { from, to }),
    }
}

/// The flow's critical path of `dungeon` ([`crate::flow::Verdict::critical_path`]).
///
/// # Errors
/// [`ViewerError::NoCriticalPath`] for a dungeon without an entrance and an exit joined
/// with every lock open.
pub fn critical_path(dungeon: &Dungeon) -> Result<Vec<Pos>, ViewerError> {
    let path = crate::flow::verify(dungeon).critical_path;
    if path.is_empty() { Err(ViewerError::NoCriticalPath) } else { Ok(path) }
}

/// `dungeon` as `options` show it: every door opened with [`ViewOptions::open_doors`]
/// (and with [`ViewOptions::critical_path`]).
///
/// # Errors
/// [`ViewerError::Dungeon`] when a door cannot be opened (its state has no open state).
pub fn view_dungeon(mut dungeon: Dungeon, options: &ViewOptions) -> Result<Dungeon, ViewerError> {
    if options.opens_doors() {
        super::doors::open_all(&mut dungeon)?;
    }
    Ok(dungeon)
}

/// The markers' diamonds (with [`ViewOptions::markers`]: a window builds them when K
/// first shows them, as a big level may hold a hundred thousand) and (with
/// [`ViewOptions::lights`]) the torch lights' diamonds.
#[must_use]
pub fn marker_and_light_triangles(
    dungeon: &Dungeon,
    options: &ViewOptions,
) -> (Vec<crate::mesh::Vertex>, Vec<crate::mesh::Vertex>) {
    if !(options.lights || options.markers) {
        return (Vec::new(), Vec::new());
    }
    let found = super::markers::markers_of(dungeon);
    let lights = if options.lights { super::markers::light_triangles(&found) } else { Vec::new() };
    let markers = if options.markers { super::markers::marker_triangles(&found) } else { Vec::new() };
    (markers, lights)
}

/// Why the default walker cannot walk rooms `room_height` metres high, if so
/// ([`crate::walk::Body::check_room`]): an error when the view starts with the walk
/// `camera`, else the reason for the window to keep (it then skips the walk camera).
fn walk_refusal(room_height: f64, camera: CameraKind) -> Result<Option<crate::walk::WalkError>, ViewerError> {
    match crate::walk::Body::default().check_room(room_height) {
        Err(e) if camera == CameraKind::Walk => Err(e.into()),
        checked => Ok(checked.err()),
    }
}

/// The path overlay for a prepared route (empty without one): the route ribbon the export
/// writes ([`crate::mesh::route_ribbon`]) as a plain triangle list in world metres.
#[must_use]
pub fn path_ribbon(dungeon: &Dungeon, prepared: &Prepared) -> Vec<crate::mesh::Vertex> {
    let Some(route) = &prepared.route else { return Vec::new() };
    let ribbon = crate::mesh::route_ribbon(dungeon, route);
    ribbon.indices.iter().map(|&i| ribbon.vertices[i as usize]).collect()
}

/// Exports what `prepared` shows of `dungeon` to `path` (a `.glb`, or `.gltf` plus `.bin`):
/// the whole mesh, built here with the view's mesh options (the view builds only the
/// chunks it draws), and the route ribbon, when a path is shown, as [`Export::mesh`] writes
/// them.
///
/// # Errors
/// [`ViewerError::Mesh`] when the mesh cannot be built; [`ViewerError::Export`] when the
/// path cannot be used or written.
pub fn export_view(
    dungeon: &Dungeon,
    prepared: &Prepared,
    path: &Path,
) -> Result<ExportSummary, ViewerError> {
    let options = ExportOptions { route: prepared.route.clone(), ..ExportOptions::default() };
    let mesh = crate::mesh::build(dungeon, &prepared.scene.mesh_options)?;
    Ok(Export::new(dungeon, &options).mesh(&mesh).to_file(path)?)
}

/// Renders one frame of `dungeon` offscreen, no window.
///
/// # Errors
/// As [`offscreen_view`], and [`ViewerError::Readback`] when the image cannot be read back.
pub fn screenshot(dungeon: &Dungeon, options: &ViewOptions) -> Result<Shot, ViewerError> {
    let (gpu, mut offscreen, frame) = offscreen_view(dungeon, options)?;
    offscreen.capture(&gpu, &frame)
}

/// Everything needed to draw `dungeon` offscreen as `options` say: the device, an
/// offscreen target with the scene (and route ribbon) uploaded, and the frame to draw.
/// [`screenshot`] captures it once; callers that time frames draw it repeatedly first.
///
/// # Errors
/// The options checked against the dungeon ([`prepare`]: a bad route, a walk refused),
/// no adapter or device ([`Gpu::offscreen`]), a size or level past the device's limits
/// ([`Offscreen::new`]).
pub fn offscreen_view(
    dungeon: &Dungeon,
    options: &ViewOptions,
) -> Result<(Gpu, Offscreen, crate::viewer::renderer::Frame), ViewerError> {
    let opened;
    let dungeon = if options.opens_doors() {
        opened = view_dungeon(dungeon.clone(), options)?;
        &opened
    } else {
        dungeon
    };
    let prepared = prepare(dungeon, options)?;
    let gpu = Gpu::offscreen(options.adapter)?;
    let (w, h) = options.size;
    let mut offscreen = Offscreen::new(&gpu, &prepared.scene, w, h)?;
    offscreen.renderer_mut().set_path(&gpu.device, &path_ribbon(dungeon, &prepared));
    offscreen.renderer_mut().set_doors(&gpu.device, &super::doors::leaf_triangles(dungeon));
    let (markers, lights) = marker_and_light_triangles(dungeon, options);
    offscreen.renderer_mut().set_markers(&gpu.device, &markers, &lights);
    offscreen.renderer_mut().set_keys(&gpu.device, &super::markers::key_triangles(dungeon));
    if options.hud {
        let mut hud = super::hud::Hud::new(&super::window::keys_help());
        hud.set_section("view", super::hud::view_lines(&prepared, None));
        offscreen.renderer_mut().set_hud(&gpu.device, &hud.quads(w, h));
    }
    let frame = prepared.state.frame_sized(&prepared.scene, &prepared.world, (w, h));
    Ok((gpu, offscreen, frame))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_come_from_the_pathing_core() {
        let d = crate::format::from_json(include_str!("../../assets/two_levels.json")).unwrap();
        let options = |from, to| ViewOptions { path: Some((from, to)), ..ViewOptions::default() };
        let p = prepare(&d, &options(Pos::new(0, 2, 0), Pos::new(1, 0, 4))).unwrap();
        let r = p.route.unwrap();
        assert_eq!(
            r,
            [Pos::new(0, 2, 0), Pos::new(0, 2, 2), Pos::new(0, 2, 4), Pos::new(1, 2, 4), Pos::new(1, 0, 4)]
        );
        assert!(matches!(
            prepare(&d, &options(Pos::new(0, 2, 0), Pos::new(0, 0, 0))),
            Err(ViewerError::NoRoute { .. })
        ));
        let off = prepare(&d, &options(Pos::new(0, 2, 0), Pos::new(5, 0, 0))).err().unwrap();
        assert!(matches!(off, ViewerError::Path(crate::path::PathError::OutOfDungeon { level: 5, .. })));
        assert!(off.to_string().contains("level 5"), "{off}");
    }

    #[test]
    fn the_walk_camera_is_refused_in_rooms_lower_than_the_walker() {
        // `Proportions` refuses rooms below its own bound; the walker's rule stands alone.
        let e = walk_refusal(1.2, CameraKind::Walk).unwrap_err();
        assert!(
            matches!(e, ViewerError::Walk(crate::walk::WalkError::RoomTooLow { room_height: 1.2, .. })),
            "{e:?}"
        );
        assert!(e.to_string().contains("1.2 m") && e.to_string().contains("1.7 m eye height"), "{e}");
        // The other cameras still show such rooms; the window then skips the walk camera.
        let kept = walk_refusal(1.2, CameraKind::Orbit).unwrap();
        assert!(matches!(kept, Some(crate::walk::WalkError::RoomTooLow { .. })), "{kept:?}");
        assert_eq!(walk_refusal(2.2, CameraKind::Walk).unwrap(), None);
        let d = crate::format::from_json(include_str!("../../assets/two_levels.json")).unwrap();
        let walk = ViewOptions { camera: CameraKind::Walk, ..ViewOptions::default() };
        assert!(prepare(&d, &walk).unwrap().walk_refused.is_none());
    }

    #[test]
    fn marker_diamonds_are_built_only_when_shown() {
        let options =
            crate::generate::GenerateOptions { seed: 7, levels: 1, cols: 6, rows: 6, ..Default::default() };
        let d = crate::generate::generate(&options, &mut |_| {}).unwrap();
        let (none, _) = marker_and_light_triangles(&d, &ViewOptions::default());
        assert!(none.is_empty());
        let (shown, _) =
            marker_and_light_triangles(&d, &ViewOptions { markers: true, ..ViewOptions::default() });
        assert_eq!(shown, super::super::markers::marker_triangles(&super::super::markers::markers_of(&d)));
        assert!(!shown.is_empty());
    }

    #[test]
    fn the_view_exports_its_own_mesh_and_route() {
        let d = crate::format::from_json(include_str!("../../assets/two_levels.json")).unwrap();
        let options =
            ViewOptions { path: Some((Pos::new(0, 2, 0), Pos::new(1, 0, 4))), ..ViewOptions::default() };
        let prepared = prepare(&d, &options).unwrap();
        let dir = std::env::temp_dir().join(format!("octile-view-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("seen.glb");
        let summary = export_view(&d, &prepared, &file).unwrap();
        let export = ExportOptions { route: prepared.route.clone(), ..ExportOptions::default() };
        let fresh = crate::export::Export::new(&d, &export).to_glb().unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), fresh, "the view's mesh exports as a fresh build does");
        assert_eq!(summary.levels, 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
