//! `octile generate`: generate a multi-level dungeon and write it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use octile::dungeon::Dungeon;
use octile::generate::{GenerateOptions, Progress, generate, generate_around};

use super::args::Size;
use super::gltf_out::GltfArgs;
use super::progress::Bar;
use super::stdout::outln;
use super::weights::WeightArgs;

/// The generation options, shared by `octile generate` and `octile view --generate` (where
/// they need --generate).
#[derive(Args)]
#[group(skip)]
pub struct GenOptionsArgs {
    #[command(flatten)]
    dungeon: DungeonArgs,
    #[command(flatten)]
    weights: WeightArgs,
}

/// Seed, size, proportions, stairs and loops of a generated dungeon: every generation option
/// but the tile weights. Its own struct so that its flags form one group, which `view` needs
/// (clap leaves the group of a struct with a flattened field empty).
#[derive(Args)]
#[group(id = "generation", multiple = true)]
struct DungeonArgs {
    /// Seed: the same seed and options give the same dungeon.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of levels.
    #[arg(long, default_value_t = 3)]
    levels: u32,
    /// Octagon columns x rows (COLSxROWS).
    #[arg(long, value_name = "COLSxROWS", default_value = "12x12")]
    octagons: Size,
    /// Corner cut ratio (0 < r < 0.5; presets 0.15 cramped, 0.20, 0.29 spacious).
    #[arg(long, default_value_t = 0.20)]
    cut: f64,
    /// Stairs between each pair of adjacent levels [default: 2].
    #[arg(long)]
    stairs: Option<u32>,
    /// Extra cycles carved per level so the dungeon is not a tree [default: 2].
    #[arg(long)]
    loops: Option<u32>,
    /// Door density 0..=1: the share of room-corridor seams that get a door (0: none)
    /// [default: 0.5].
    #[arg(long)]
    doors: Option<f64>,
}

impl GenOptionsArgs {
    /// The library's options.
    pub fn options(&self) -> GenerateOptions {
        let (a, d) = (&self.dungeon, GenerateOptions::default());
        GenerateOptions {
            seed: a.seed,
            levels: a.levels,
            cols: a.octagons.cols,
            rows: a.octagons.rows,
            cut_ratio: a.cut,
            weights: self.weights.octile(d.weights),
            stairs: a.stairs.unwrap_or(d.stairs),
            loops: a.loops.unwrap_or(d.loops),
            doors: a.doors.unwrap_or(d.doors),
            ..d
        }
    }

    /// Generates the dungeon with a progress bar on stderr.
    pub fn generate(&self) -> anyhow::Result<Dungeon> {
        self.generate_keeping(None)
    }

    /// [`GenOptionsArgs::generate`], keeping the pinned cells of `design` when given.
    pub fn generate_keeping(&self, design: Option<&Dungeon>) -> anyhow::Result<Dungeon> {
        let options = self.options();
        let mut bar = Bar::new("generating");
        let mut levels = u64::from(options.levels);
        let mut connecting = false;
        let mut report = |p| match p {
            Progress::Solving { level, levels: n, solve } => {
                levels = u64::from(n);
                let total = solve.total as u64 * levels;
                bar.update(u64::from(level) * solve.total as u64 + solve.collapsed as u64, total);
            }
            Progress::Connecting { level } => {
                if !connecting {
                    connecting = true;
                    bar.next_stage("connecting", "levels");
                }
                bar.update(u64::from(level), levels);
            }
        };
        let dungeon = match design {
            Some(design) => generate_around(&options, design, &mut report)?,
            None => generate(&options, &mut report)?,
        };
        bar.finish();
        Ok(dungeon)
    }
}

/// Options of `octile generate`.
#[derive(Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    generation: GenOptionsArgs,
    /// Output: `.json` writes the dungeon file; `.glb` (or `.gltf`) writes glTF.
    #[arg(short, long)]
    output: PathBuf,
    #[command(flatten)]
    gltf: GltfArgs,
    /// Also write the dungeon file (JSON) here.
    #[arg(long, value_name = "FILE")]
    save_dungeon: Option<PathBuf>,
    /// Keep every pinned cell (tile and edges) of this dungeon file and generate the rest;
    /// its size, levels and cut ratio replace --octagons, --levels and --cut.
    #[arg(long, value_name = "DESIGN.json")]
    keep: Option<PathBuf>,
}

fn is_json(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// Runs `octile generate`.
pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let options = args.generation.options();
    let files = super::files::Files::new().input_opt("--keep", args.keep.as_deref());
    let files = if is_json(&args.output) {
        files.output("-o", &args.output)
    } else {
        args.gltf.outputs(files, &args.output)
    };
    files.output_opt("--save-dungeon", args.save_dungeon.as_deref()).check()?;
    let design = args.keep.as_deref().map(octile::format::load).transpose()?;
    let dungeon = match &design {
        Some(design) => args.generation.generate_keeping(Some(design))?,
        None => args.generation.generate()?,
    };
    // Staged before the main output is written: a --save-dungeon file that cannot be
    // written is found before anything changes.
    let saved = args.save_dungeon.as_deref().map(|p| (p, octile::format::to_json(&dungeon)));
    let pending =
        saved.as_ref().map(|(p, json)| octile::io::stage_all(&[(p, json.as_bytes())])).transpose()?;
    let summary = if is_json(&args.output) {
        octile::format::save(&dungeon, &args.output)?;
        None
    } else {
        Some(args.gltf.write(&dungeon, &args.output)?)
    };
    pending.map(octile::io::Pending::commit).transpose()?;
    if let Some(summary) = summary {
        outln!("{summary}")?;
    }
    let entrance = dungeon.entrance().map(|p| p.to_string()).unwrap_or_default();
    let exit = dungeon.exit().map(|p| p.to_string()).unwrap_or_default();
    eprintln!(
        "wrote {} (seed {}, {} level(s) of {}x{} octagons; entrance {entrance}; exit {exit})",
        args.output.display(),
        options.seed,
        dungeon.levels(),
        dungeon.dims().octagon_cols(),
        dungeon.dims().octagon_rows()
    );
    Ok(ExitCode::SUCCESS)
}
