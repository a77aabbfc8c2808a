//! glTF output options shared by `octile export` and `octile generate`, and the one place
//! that turns them into an export.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use octile::dungeon::Dungeon;
use octile::export::{Export, ExportError, ExportOptions, PhysicsFormat, Progress};
use octile::mesh::MeshOptions;
use octile::mesh::MeshProgress;
use octile::path::{PathRules, find_path};
use octile::rooms::{LightPreset, RoomGraph};

use super::args::{MeshBudgetArgs, RouteArg};
use super::progress::Bar;

/// How the glTF file is written.
#[derive(Args)]
pub struct GltfArgs {
    /// World metres covered by one texture repeat (UV0 = metres / this).
    #[arg(long, value_name = "METRES", default_value_t = MeshOptions::default().texture_size,
          value_parser = super::args::texture_size)]
    texture_size: f64,
    /// Leave out TEXCOORD_1 (lightmap UVs).
    #[arg(long)]
    no_lightmap_uv: bool,
    /// Add a `Level_NN_Collider-colonly` node (positions only, coplanar pieces merged) under
    /// each level; Godot makes it a static body.
    #[arg(long)]
    colliders: bool,
    /// Add a `Level_NN-navmesh` node (the walkable floor and stair ramps, joined across
    /// levels; positions only) under each level; Godot makes it a navigation mesh.
    #[arg(long)]
    navmesh: bool,
    /// How colliders are marked: `godot` (`-colonly` name suffix) or `omi`
    /// (OMI_physics_body/OMI_physics_shape, no suffix). Implies --colliders.
    #[arg(long, value_name = "FORMAT")]
    physics: Option<PhysicsArg>,
    /// Add empty nodes `Spawn_...`, `Prop_...`, `Torch_...` under each level (extras: kind,
    /// room, facing).
    #[arg(long)]
    markers: bool,
    /// Add a KHR_lights_punctual point light at every torch socket (on `Torch_...` nodes).
    /// PRESET picks the intensity (glTF unit: candela): `--lights=blender` (8000 cd, about
    /// 147 W in Blender; the default), `--lights=godot` (2, Godot 4's light energy) or
    /// `--lights=godot3` (1400: Godot 3.2's energy 1, attenuation 1). The preset needs the
    /// `=`, so a file name after `--lights` stays a file name.
    #[arg(long, value_name = "PRESET", num_args = 0..=1, require_equals = true, default_missing_value = "blender")]
    lights: Option<LightArg>,
    /// Also write the rooms and portals (full lists, as `octile info --json` has them) to
    /// this JSON file, atomically with the glTF.
    #[arg(long, value_name = "FILE")]
    graph: Option<PathBuf>,
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

/// `--physics` values.
#[derive(Clone, Copy, ValueEnum)]
enum PhysicsArg {
    /// The `-colonly` node name suffix (Godot).
    Godot,
    /// OMI_physics_body / OMI_physics_shape.
    Omi,
}

/// `--lights` presets.
#[derive(Clone, Copy, ValueEnum)]
enum LightArg {
    /// 8000 cd per torch: looks right in Blender's default (physical) import.
    Blender,
    /// Intensity 2: Godot 4's light energy.
    Godot,
    /// Intensity 1400: Godot 3.2 reads energy 1, attenuation 1.
    Godot3,
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
            colliders: self.colliders || self.physics.is_some(),
            physics: match self.physics {
                Some(PhysicsArg::Omi) => PhysicsFormat::Omi,
                Some(PhysicsArg::Godot) | None => PhysicsFormat::GodotSuffix,
            },
            markers: self.markers,
            lights: self.lights.map(|l| match l {
                LightArg::Blender => LightPreset::Blender,
                LightArg::Godot => LightPreset::Godot,
                LightArg::Godot3 => LightPreset::Godot3,
            }),
            navmesh: self.navmesh,
            tangents: self.tangents,
            compress: self.compress,
        })
    }

    /// `files` with the outputs of an export to `output`: the glTF, its `.bin` (for
    /// `.gltf`) and the `--graph` file.
    pub fn outputs(&self, files: super::files::Files, output: &Path) -> super::files::Files {
        let bin = super::files::gltf_bin(output);
        files
            .output("-o", output)
            .output_opt("-o (its .bin)", bin.as_deref())
            .output_opt("--graph", self.graph.as_deref())
    }

    /// Exports `dungeon` to `output` (`.glb`, or `.gltf` + `.bin`) with a progress bar on
    /// stderr (shown only when it takes long) and returns a summary line for the caller to
    /// print once every output is in place. The caller has checked [`GltfArgs::outputs`].
    pub fn write(&self, dungeon: &Dungeon, output: &Path) -> anyhow::Result<String> {
        let options = self.options(dungeon)?;
        // The sidecar is staged first and committed after the glTF is written, so both or
        // neither change.
        let graph = self.graph.as_deref().map(|p| {
            let mut json = octile::rooms::graph_json(dungeon, &RoomGraph::of(dungeon));
            if dungeon.has_rooms() {
                json["room_table"] = octile::rooms::room_table_json(dungeon);
            }
            if let Some(mission) = octile::flow::report(dungeon) {
                json["mission"] = mission;
            }
            (p, serde_json::to_vec(&json).expect("invariant: JSON values serialise"))
        });
        let pending = graph.as_ref().map(|(p, b)| octile::io::stage_all(&[(p, b)])).transpose()?;
        let mut bar = Bar::new("meshing").with_unit("levels");
        let result = Export::new(dungeon, &options)
            .progress(&mut |p| match p {
                Progress::Mesh(MeshProgress::Levels { done, total }) => {
                    bar.update(u64::from(done), u64::from(total));
                }
                Progress::Document { done, total } => {
                    bar.set_label("packing");
                    bar.update(done as u64, total as u64);
                }
                Progress::Writing { .. } => bar.set_label("writing"),
            })
            .to_file(output);
        bar.finish();
        let summary = result.map_err(|e| match e {
            // These name the file themselves.
            ExportError::Write(_) | ExportError::BadPath { .. } => anyhow::Error::from(e),
            e => anyhow::Error::from(e).context(format!("exporting {}", output.display())),
        })?;
        pending.map(octile::io::Pending::commit).transpose()?;
        let mut files: Vec<String> = summary.files.iter().map(|p| p.display().to_string()).collect();
        files.extend(self.graph.iter().map(|p| p.display().to_string()));
        Ok(format!(
            "{}: {} level(s), {} triangles, {} vertices, {} bytes",
            files.join(" + "),
            summary.levels,
            summary.triangles,
            summary.vertices,
            summary.bytes
        ))
    }
}
