//! glTF export: a dungeon's mesh as one `.glb` (or `.gltf` + `.bin`) that Blender and
//! Unity open as they are: one scene, a root node `Dungeon`, one node per level placed at
//! its height with one primitive per material role, metres and +Y up, shared
//! metallic-roughness materials named from the registry, and extras with the proportions,
//! grid size and seed. The same dungeon and options give a byte-identical file.

mod document;
mod error;
mod glb;
mod names;
mod progress;
mod route;

use std::path::{Path, PathBuf};

pub use error::ExportError;
pub use progress::Progress;

use crate::dungeon::Dungeon;
use crate::grid::Pos;
use crate::mesh::{self, MeshOptions};

/// How [`export`] writes a dungeon.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportOptions {
    /// How the mesh is built (its `lightmap_uv` is replaced by [`ExportOptions::lightmap_uv`]).
    pub mesh: MeshOptions,
    /// Write `TEXCOORD_1` (lightmap UVs) as well (on by default; `--no-lightmap-uv` turns
    /// it off).
    pub lightmap_uv: bool,
    /// When set, a node `Path` with a thin ribbon 0.1 m above each floor along the cell
    /// centres of these positions (in order; a stair climb is a straight segment).
    pub route: Option<Vec<Pos>>,
    /// Add a child node `Level_NN_Collider` to each level: every triangle of the level,
    /// POSITION only, welded by position, without a material (for physics engines).
    pub colliders: bool,
    /// Write TANGENT (flat, following the UV0 frame of each panel) for normal maps.
    pub tangents: bool,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            mesh: MeshOptions::default(),
            lightmap_uv: true,
            route: None,
            colliders: false,
            tangents: false,
        }
    }
}

/// What [`export`] wrote.
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

/// Writes `dungeon` to `path`: a `.gltf` name writes JSON plus a `.bin` beside it, any other
/// name one binary `.glb`. Files are written atomically.
pub fn export(dungeon: &Dungeon, path: &Path, options: &ExportOptions) -> Result<ExportSummary, ExportError> {
    export_with_progress(dungeon, path, options, &mut |_| {})
}

/// [`export`], calling `progress` on the calling thread as it goes (see [`Progress`] for
/// the order). The files are byte-identical to [`export`]'s.
pub fn export_with_progress(
    dungeon: &Dungeon,
    path: &Path,
    options: &ExportOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<ExportSummary, ExportError> {
    let separate = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gltf"));
    let stem = path.file_stem().and_then(|s| s.to_str()).filter(|s| !s.is_empty()).ok_or_else(|| {
        ExportError::BadPath { path: path.to_path_buf(), reason: "needs a UTF-8 file name" }
    })?;
    let built = build(dungeon, options, progress)?;
    let (counts, levels) = (built.counts(), built.levels());
    let files = if separate {
        let bin_path = path.with_file_name(format!("{stem}.bin"));
        let (json, bin) = built.into_parts(Some(format!("{stem}.bin")))?;
        progress(Progress::Writing { bytes: bin.len() });
        progress(Progress::Writing { bytes: json.len() });
        crate::io::write_all_atomic(&[(&bin_path, &bin), (path, &json)])?;
        vec![(path.to_path_buf(), json.len()), (bin_path, bin.len())]
    } else {
        let bytes = built.into_glb()?;
        progress(Progress::Writing { bytes: bytes.len() });
        crate::io::write_atomic(path, &bytes)?;
        vec![(path.to_path_buf(), bytes.len())]
    };
    Ok(ExportSummary {
        bytes: files.iter().map(|(_, n)| n).sum(),
        files: files.into_iter().map(|(p, _)| p).collect(),
        levels,
        triangles: counts.0,
        vertices: counts.1,
    })
}

/// The `.glb` bytes of `dungeon`, for in-memory use.
pub fn to_glb(dungeon: &Dungeon, options: &ExportOptions) -> Result<Vec<u8>, ExportError> {
    build(dungeon, options, &mut |_| {})?.into_glb()
}

fn build(
    dungeon: &Dungeon,
    options: &ExportOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<document::Built, ExportError> {
    let mesh_options = MeshOptions { lightmap_uv: options.lightmap_uv, ..options.mesh.clone() };
    let mesh = mesh::build_with_progress(dungeon, &mesh_options, &mut |p| progress(Progress::Mesh(p)))?;
    let ribbon = match &options.route {
        Some(route) => Some(route::ribbon(dungeon, route)?),
        None => None,
    };
    let total = mesh.levels.len();
    Ok(document::Built::new(dungeon, &mesh, ribbon.as_ref(), options, &mut |done| {
        progress(Progress::Document { done, total })
    }))
}
