//! glTF output options shared by `octile export` and `octile generate`, and the one place
//! that turns them into an export.

use std::path::Path;

use anyhow::{Context, bail};
use clap::Args;
use octile::dungeon::Dungeon;
use octile::export::{ExportError, ExportOptions, Progress, export_with_progress};
use octile::mesh::MeshOptions;
use octile::mesh::MeshProgress;
use octile::path::{PathRules, find_path};

use super::args::{MeshBudgetArgs, RouteArg};
use super::progress::Bar;

/// How the glTF file is written.
#[derive(Args)]
pub struct GltfArgs {
    /// World metres covered by one texture repeat (UV0 = metres / this).
    #[arg(long, default_value_t = MeshOptions::default().texture_size)]
    texture_size: f64,
    /// Leave out TEXCOORD_1 (lightmap UVs).
    #[arg(long)]
    no_lightmap_uv: bool,
    /// Add a `Level_NN_Collider-colonly` node (positions only, coplanar pieces merged) under
    /// each level; Godot makes it a static body.
    #[arg(long)]
    colliders: bool,
    /// Add a `Level_NN-navmesh` node (the walkable floor, positions only) under each level;
    /// Godot makes it a navigation mesh.
    #[arg(long)]
    navmesh: bool,
    /// Write TANGENT attributes (for normal maps).
    #[arg(long)]
    tangents: bool,
    /// Write a much smaller file that only some readers open: vertices quantized
    /// (KHR_mesh_quantization) and buffers encoded with meshopt (EXT_meshopt_compression).
    ///
    /// Both extensions are required. three.js (GLTFLoader with MeshoptDecoder), glTFast and
    /// UnityGLTF (with their meshopt packages) read it; Blender cannot read meshopt
    /// compression, and Godot, Assimp 5.2 and Panda3D load quantized files as garbage.
    /// Leave it off for those (the default).
    #[arg(long)]
    compress: bool,
    /// Add a node `Path`: a ribbon 0.1 m above the floor along the cheapest route between
    /// two cells (`LEVEL,ROW,COL:LEVEL,ROW,COL`; doors on the way are opened).
    #[arg(long, value_name = "L,R,C:L,R,C")]
    path: Option<RouteArg>,
    #[command(flatten)]
    budget: MeshBudgetArgs,
}

impl GltfArgs {
    fn options(&self, dungeon: &Dungeon) -> anyhow::Result<ExportOptions> {
        let route = match self.path {
            None => None,
            Some(RouteArg { from, to }) => {
                let rules = PathRules { open_doors: true };
                let found = find_path(dungeon, from, to, &rules).context("bad --path")?;
                let Some(route) = found else { bail!("--path: no route from {from} to {to}") };
                Some(route.steps)
            }
        };
        Ok(ExportOptions {
            mesh: MeshOptions {
                texture_size: self.texture_size,
                lightmap_uv: !self.no_lightmap_uv,
                ..self.budget.mesh_options()
            },
            route,
            colliders: self.colliders,
            navmesh: self.navmesh,
            tangents: self.tangents,
            compress: self.compress,
        })
    }

    /// Exports `dungeon` to `output` (`.glb`, or `.gltf` + `.bin`) with a progress bar on
    /// stderr (shown only when it takes long) and prints a summary line.
    pub fn write(&self, dungeon: &Dungeon, output: &Path) -> anyhow::Result<()> {
        let options = self.options(dungeon)?;
        let mut bar = Bar::new("meshing").with_unit("levels");
        let result = export_with_progress(dungeon, output, &options, &mut |p| match p {
            Progress::Mesh(MeshProgress::Levels { done, total }) => {
                bar.update(u64::from(done), u64::from(total));
            }
            Progress::Document { done, total } => {
                bar.set_label("packing");
                bar.update(done as u64, total as u64);
            }
            Progress::Writing { .. } => bar.set_label("writing"),
        });
        bar.finish();
        let summary = result.map_err(|e| match e {
            // These name the file themselves.
            ExportError::Write(_) | ExportError::BadPath { .. } => anyhow::Error::from(e),
            e => anyhow::Error::from(e).context(format!("exporting {}", output.display())),
        })?;
        let files: Vec<String> = summary.files.iter().map(|p| p.display().to_string()).collect();
        println!(
            "{}: {} level(s), {} triangles, {} vertices, {} bytes",
            files.join(" + "),
            summary.levels,
            summary.triangles,
            summary.vertices,
            summary.bytes
        );
        Ok(())
    }
}
