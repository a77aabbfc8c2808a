//! glTF export: a dungeon's mesh as one `.glb` (or `.gltf` + `.bin`) that Blender and
//! Unity open as they are: one scene, a root node `Dungeon`, one node per level placed at
//! its height with one primitive per material role, metres and +Y up, shared
//! metallic-roughness materials named from the registry, and extras with the proportions,
//! grid size and seed. The same dungeon and options give a byte-identical file.

mod bin;
mod compress;
mod document;
mod error;
mod footprint;
mod glb;
mod merge;
mod names;
mod navmesh;
mod nodes;
mod physics;
mod primitive;
mod progress;

use std::path::{Path, PathBuf};

pub use error::ExportError;
pub use navmesh::NAVMESH_MAX_SLOPE_DEGREES;
pub use progress::Progress;

use crate::dungeon::Dungeon;
use crate::grid::Pos;
use crate::mesh::{self, DungeonMesh, MeshOptions};

/// How an [`Export`] writes a dungeon (the default: a lightmapped mesh, no route, colliders,
/// navigation mesh or tangents).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExportOptions {
    /// How the mesh is built (not used by an [`Export`] given a mesh built already,
    /// [`Export::mesh`]). Its `lightmap_uv` is the one lightmap switch: the mesh
    /// fills UV1 and the file has `TEXCOORD_1` exactly when it is on (on by default;
    /// `--no-lightmap-uv` turns it off).
    pub mesh: MeshOptions,
    /// When set, a node `Path` with a ribbon [`mesh::RIBBON_LIFT`] above each floor along the
    /// cell centres of these positions (in order; a stair climb is a straight segment), as
    /// [`mesh::route_ribbon`] builds it.
    pub route: Option<Vec<Pos>>,
    /// Add a child node `Level_NN_Collider-colonly` to each level (extras `{"role":
    /// "collider", "level": N}`): the level's part of the surface of the carved space less
    /// the stairs (each stair a ramp), POSITION only, welded by position, coplanar pieces
    /// merged (fewer triangles than the render mesh), without a material. The colliders of
    /// all levels together, welded in world space, are one closed surface (but where a
    /// landing stands against a wall open on its own level: see docs/engines.md). Godot's
    /// importer makes a `-colonly` node a static body with a concave shape and no visible
    /// mesh.
    pub colliders: bool,
    /// How colliders say they are colliders: Godot's `-colonly` name suffix (the default) or
    /// the OMI physics extensions.
    pub physics: PhysicsFormat,
    /// Add an empty node under its level for every marker ([`crate::rooms::Markers`]):
    /// `Spawn_LL_RRR_CCC`, `Prop_LL_RRR_CCC_K`, `Torch_LL_RRR_CCC`, extras `{"role":
    /// "marker", "kind", "room", "facing", "level", "row", "col"}`, turned so local -Z faces
    /// along `facing`. A torch node stands where its torch hangs
    /// ([`crate::rooms::light_position`], in front of its wall socket), with or without
    /// `lights`. Door hinges are the door nodes' own origins.
    pub markers: bool,
    /// Add a `KHR_lights_punctual` point light at every torch socket (on its `Torch_` node,
    /// [`crate::rooms::LIGHT_OFFSET`] in front of the wall, with or without `markers`), of
    /// this preset's intensity; the extension is declared only then.
    pub lights: Option<crate::rooms::LightPreset>,
    /// Add a child node `Level_NN-navmesh` to each level with floor (extras `{"role":
    /// "navmesh", "level": N}`): the walkable floor (carved cells, carved seams and door
    /// passages; a stair's column cut out) and the ramps of the stairs standing on the level,
    /// whose landings share their edge with the floor of the level above, as triangles welded
    /// by position, POSITION only, none steeper than [`NAVMESH_MAX_SLOPE_DEGREES`] (a ramp
    /// leaves out the steep band round its stair's column). Godot's importer turns the
    /// `-navmesh` suffix into a navigation mesh.
    pub navmesh: bool,
    /// Write TANGENT (flat, following the UV0 frame of each panel) for normal maps.
    pub tangents: bool,
    /// Quantize the vertices (`KHR_mesh_quantization`: positions as 16-bit integers on one
    /// grid for the whole scene, door leaves on finer grids of their own; the scale and
    /// offset sit on a child node `<name>_Mesh` that carries the mesh, so the named nodes
    /// keep their frames) and encode every vertex and index buffer with meshopt
    /// (`EXT_meshopt_compression`); both are in `extensionsRequired`, so a reader without
    /// them refuses the file.
    pub compress: bool,
}

/// How a collider node is marked for engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PhysicsFormat {
    /// The node `Level_NN_Collider-colonly` with the collision mesh: Godot makes it a static
    /// body by its name; other importers see a mesh.
    #[default]
    GodotSuffix,
    /// The node `Level_NN_Collider` (no suffix, no mesh of its own) with `OMI_physics_body`
    /// (a static body) whose collider is an `OMI_physics_shape` trimesh over the collision
    /// mesh (Godot 4.2+ and OMI-aware importers).
    Omi,
}

/// What [`Export::to_file`] wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportSummary {
    /// Every file written, the glTF or GLB first.
    pub files: Vec<PathBuf>,
    /// Bytes written in all.
    pub bytes: usize,
    /// Level nodes.
    pub levels: usize,
    /// Triangles over all levels (the route ribbon excluded).
    pub triangles: usize,
    /// Vertices over all levels.
    pub vertices: usize,
}

/// One export of a dungeon to glTF, the one way in: what to write ([`ExportOptions`]),
/// optionally a mesh built already ([`Export::mesh`], as the viewer holds one; otherwise it
/// is built from `options.mesh`) and a progress callback ([`Export::progress`]), then
/// [`Export::to_file`] or [`Export::to_glb`]. The same dungeon, options and mesh give the
/// same bytes either way.
///
/// ```
/// use octile::export::{Export, ExportOptions};
/// use octile::generate::{GenerateOptions, generate};
///
/// let options = GenerateOptions { cols: 4, rows: 4, levels: 1, ..Default::default() };
/// let dungeon = generate(&options, &mut |_| {}).unwrap();
/// let mut steps = 0;
/// let glb = Export::new(&dungeon, &ExportOptions::default()).progress(&mut |_| steps += 1).to_glb().unwrap();
/// assert_eq!(&glb[..4], b"glTF");
/// assert!(steps > 0);
/// ```
#[must_use = "an export writes nothing until `to_file` or `to_glb`"]
pub struct Export<'a> {
    dungeon: &'a Dungeon,
    options: &'a ExportOptions,
    mesh: Option<&'a DungeonMesh>,
    progress: Option<&'a mut dyn FnMut(Progress)>,
}

impl<'a> Export<'a> {
    /// An export of `dungeon` as `options` say, its mesh built from `options.mesh`, with no
    /// progress reported.
    pub fn new(dungeon: &'a Dungeon, options: &'a ExportOptions) -> Export<'a> {
        Export { dungeon, options, mesh: None, progress: None }
    }

    /// Exports `mesh`, a mesh of the dungeon built already, instead of building one
    /// (`options.mesh` is then not used). The mesh built with the same options gives the
    /// same bytes.
    pub fn mesh(self, mesh: &'a DungeonMesh) -> Export<'a> {
        Export { mesh: Some(mesh), ..self }
    }

    /// Calls `progress` on the calling thread as the export goes (see [`Progress`] for the
    /// order); the bytes are the same as without it.
    pub fn progress(self, progress: &'a mut dyn FnMut(Progress)) -> Export<'a> {
        Export { progress: Some(progress), ..self }
    }

    /// Writes the dungeon to `path`: a `.gltf` name writes JSON plus a `.bin` beside it, any
    /// other name one binary `.glb`. Files are written atomically (each to a temporary
    /// file, renamed into place once all are written).
    ///
    /// # Errors
    /// [`ExportError`]: a path without a UTF-8 file name, bad mesh options or a dungeon the
    /// mesh builder refuses, a mesh of another level count than the dungeon's
    /// ([`ExportError::MeshMismatch`]), a route step off the grid, a buffer over glTF's
    /// limits, or a failed write.
    pub fn to_file(self, path: &Path) -> Result<ExportSummary, ExportError> {
        let target = Target::of(path)?;
        self.with_document(|built, progress| target.write(built, progress))
    }

    /// The `.glb` bytes, for in-memory use.
    ///
    /// # Errors
    /// As [`Export::to_file`], less the path and write errors.
    pub fn to_glb(self) -> Result<Vec<u8>, ExportError> {
        self.with_document(|built, _| built.into_glb())
    }

    /// Builds the document (and the mesh, when none was given) and hands it to `finish`
    /// with the progress callback.
    fn with_document<T>(
        self,
        finish: impl FnOnce(document::Built<'_>, &mut dyn FnMut(Progress)) -> Result<T, ExportError>,
    ) -> Result<T, ExportError> {
        let Export { dungeon, options, mesh, progress } = self;
        let mut silent = |_: Progress| {};
        let progress: &mut dyn FnMut(Progress) = match progress {
            Some(p) => p,
            None => &mut silent,
        };
        if let Some(mesh) = mesh {
            let built = document(dungeon, mesh, None, options, None, progress)?;
            return finish(built, progress);
        }
        // Checked before the game objects' thread starts: a mesh over the budget is refused
        // before the room graph of a dungeon that size is built beside it.
        mesh::check_meshable(dungeon, &options.mesh)?;
        // The game objects (room graph, door leaves, markers) do not depend on the mesh: they
        // are found on their own thread while the levels are meshed.
        let (mesh, objects) = std::thread::scope(|s| {
            let objects = s.spawn(|| nodes::GameObjects::new(dungeon, options));
            // Each primitive's bounds are read by the worker that built its level, while the
            // vertices are in its cache, not in series by the document afterwards.
            let on_progress = &mut |p| progress(Progress::Mesh(p));
            let mesh = mesh::build_levels(dungeon, &options.mesh, on_progress, &primitive::level_bounds);
            (mesh, objects.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        });
        let (mesh, bounds) = mesh?;
        let built = document(dungeon, &mesh, Some(&bounds), options, Some(objects), progress)?;
        finish(built, progress)
    }
}

/// The glTF document of `dungeon` with its `mesh` and the route ribbon of `options`, with
/// each level's primitives' `bounds` and its game `objects` when they were found already.
fn document<'a>(
    dungeon: &Dungeon,
    mesh: &'a DungeonMesh,
    bounds: Option<&[Vec<primitive::Bounds>]>,
    options: &ExportOptions,
    objects: Option<nodes::GameObjects>,
    progress: &mut dyn FnMut(Progress),
) -> Result<document::Built<'a>, ExportError> {
    if mesh.levels.len() != usize::from(dungeon.levels()) {
        return Err(ExportError::MeshMismatch { mesh_levels: mesh.levels.len(), levels: dungeon.levels() });
    }
    let ribbon = match &options.route {
        Some(route) => Some(ribbon(dungeon, route)?),
        None => None,
    };
    let total = mesh.levels.len();
    let objects = objects.unwrap_or_else(|| nodes::GameObjects::new(dungeon, options));
    let mut built = document::Built::new(dungeon, mesh, bounds, ribbon, options, objects, &mut |done| {
        progress(Progress::Document { done, total })
    });
    if options.compress {
        built.compress();
    }
    Ok(built)
}

/// The route ribbon ([`mesh::route_ribbon`]) of a route given by the user, refused when a
/// position is not a cell of `dungeon`.
fn ribbon(dungeon: &Dungeon, route: &[Pos]) -> Result<mesh::Primitive, ExportError> {
    if let Some((index, &pos)) = route.iter().enumerate().find(|(_, p)| dungeon.tile(**p).is_err()) {
        return Err(ExportError::RouteOffGrid { index, pos });
    }
    Ok(mesh::route_ribbon(dungeon, route))
}

/// Where an export goes: one `.glb`, or a `.gltf` with its `.bin` beside it.
struct Target<'a> {
    path: &'a Path,
    /// The `.bin` file's name, for a `.gltf` target.
    bin: Option<String>,
}

impl<'a> Target<'a> {
    /// The target named by `path` (checked before any work is done).
    fn of(path: &'a Path) -> Result<Target<'a>, ExportError> {
        let separate = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gltf"));
        let bad = |reason| ExportError::BadPath { path: path.to_path_buf(), reason };
        // `.`, `..`, `/` and `dir/` name a directory: no file name at all.
        let name = path.file_name().filter(|_| !path.as_os_str().to_string_lossy().ends_with('/'));
        let name = name.ok_or_else(|| bad("names a directory, not a file (for example dungeon.glb)"))?;
        let stem = Path::new(name).file_stem().and_then(|s| s.to_str()).filter(|s| !s.is_empty());
        let stem = stem.ok_or_else(|| bad("needs a UTF-8 file name"))?;
        Ok(Target { path, bin: separate.then(|| format!("{stem}.bin")) })
    }

    /// Writes `built` atomically and says what was written.
    fn write(
        self,
        built: document::Built,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<ExportSummary, ExportError> {
        let (counts, levels) = (built.counts(), built.levels());
        let files = match self.bin {
            Some(bin_name) => {
                let bin_path = self.path.with_file_name(&bin_name);
                let (json, bin) = built.into_parts(Some(bin_name));
                progress(Progress::Writing { bytes: bin.len() });
                progress(Progress::Writing { bytes: json.len() });
                let bin_runs: Vec<&[u8]> = bin.runs().collect();
                crate::io::write_all_atomic_runs(&[(&bin_path, &bin_runs), (self.path, &[&json])])?;
                vec![(self.path.to_path_buf(), json.len()), (bin_path, bin.len())]
            }
            None => {
                let glb = built.glb()?;
                progress(Progress::Writing { bytes: glb.len() });
                let runs: Vec<&[u8]> = glb.runs().collect();
                crate::io::write_all_atomic_runs(&[(self.path, &runs)])?;
                vec![(self.path.to_path_buf(), glb.len())]
            }
        };
        Ok(ExportSummary {
            bytes: files.iter().map(|(_, n)| n).sum(),
            files: files.into_iter().map(|(p, _)| p).collect(),
            levels,
            triangles: counts.0,
            vertices: counts.1,
        })
    }
}
