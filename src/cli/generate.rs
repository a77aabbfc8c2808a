//! `octile generate`: generate a multi-level dungeon and write it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use octile::dungeon::Dungeon;
use octile::flow::{FlowSpec, Grammar, GrammarOutcome};
use octile::generate::{GenerateOptions, Progress, generate, generate_around};

use super::args::Size;
use super::gltf_out::GltfArgs;
use super::progress::Bar;
use super::stdout::{errln, outln};
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
    /// Corner cut ratio, 0.112 to 0.421 (the short and long edges must fit a door; presets
    /// 0.15 cramped, 0.20, 0.29 spacious).
    #[arg(long, default_value_t = 0.20, value_parser = cut_ratio)]
    cut: f64,
    /// Stairs between each pair of adjacent levels [default: one per 256 octagons of a
    /// level, at least 2; a grammar's room graph gives at most one per six rooms of a level,
    /// a spec file its own stair connections].
    #[arg(long)]
    stairs: Option<u32>,
    /// Extra cycles carved per level so the dungeon is not a tree [default: 2].
    #[arg(long)]
    loops: Option<u32>,
    /// Fewest long steps (16.4 m each) of walking an extra loop must save, or it is not
    /// carved (Brogue's rule) [default: 20].
    #[arg(long, value_name = "STEPS")]
    loop_gain: Option<u32>,
    /// Door density 0..=1: the share of room-corridor seams that get a door (0: none)
    /// [default: 0.5].
    #[arg(long, value_parser = share)]
    doors: Option<f64>,
    /// The room graph: a built-in grammar scaled to the size (`default`: a main path with
    /// branches and a loop a level; `linear`; `hub`; `cyclic`), `maze` (no rooms: the
    /// solver's caves alone), or a spec file (docs/flow.md; its rooms decide the level
    /// count). A grammar on a grid under 8 octagons a side makes a maze.
    #[arg(long, value_name = "GRAMMAR|SPEC.json", default_value = "default")]
    flow: FlowChoice,
    /// Open one atrium on every level but the top: the biggest room a level allows rises
    /// through the storey above, which looks down into it from railed balconies and
    /// bridges (with one drop point into it where the dungeon has no locks).
    #[arg(long)]
    atria: bool,
    /// Cut ramps through the rock between levels: straight sloped floors (1 : 2.74 by
    /// default) from a floor up to a floor of the storey above, one per level pair and one
    /// more for every 256 octagons of a level, where the rock allows (none in a dungeon
    /// with locks).
    #[arg(long)]
    ramps: bool,
    /// Open one pit on every level above the ground: an octagon in the middle of a hall
    /// loses its floor, with a railing round the hole and one drop point down to the floor
    /// below (none where the dungeon has locks).
    #[arg(long)]
    pits: bool,
}

/// Reads a room-graph spec file.
fn read_spec(path: &Path) -> anyhow::Result<FlowSpec> {
    let text = octile::io::read_limited(path, octile::io::MAX_INPUT_BYTES)
        .with_context(|| format!("cannot read the flow spec {}", path.display()))?;
    FlowSpec::from_json(&text).with_context(|| format!("reading {}", path.display()))
}

/// What `--flow` names.
#[derive(Debug, Clone, PartialEq)]
pub enum FlowChoice {
    /// No room graph.
    Maze,
    /// A built-in grammar.
    Grammar(Grammar),
    /// A spec file.
    File(PathBuf),
}

impl std::str::FromStr for FlowChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "maze" {
            return Ok(FlowChoice::Maze);
        }
        if let Ok(g) = s.parse::<Grammar>() {
            return Ok(FlowChoice::Grammar(g));
        }
        let path = PathBuf::from(s);
        if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) || s.contains(['/', '\\']) {
            return Ok(FlowChoice::File(path));
        }
        let names: Vec<&str> = Grammar::ALL.iter().map(|g| g.name()).collect();
        Err(format!("{s:?} is neither a grammar ({}, maze) nor a spec file (SPEC.json)", names.join(", ")))
    }
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
            stairs: a
                .stairs
                .unwrap_or_else(|| GenerateOptions::stairs_for_area(a.octagons.cols, a.octagons.rows)),
            loops: a.loops.unwrap_or(d.loops),
            loop_gain: a.loop_gain.unwrap_or(d.loop_gain),
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
            Some(design) => {
                // A design's size replaces --octagons: so does it for the stairs' default.
                let dims = design.dims();
                let stairs = self.dungeon.stairs.unwrap_or_else(|| {
                    GenerateOptions::stairs_for_area(dims.octagon_cols(), dims.octagon_rows())
                });
                generate_around(&GenerateOptions { stairs, ..options }, design, &mut report)
            }
            None => {
                let realised = match &self.dungeon.flow {
                    FlowChoice::Maze => None,
                    FlowChoice::Grammar(g) => match octile::flow::realise_grammar(*g, &options, &mut report)?
                    {
                        GrammarOutcome::Rooms(d) => Some(*d),
                        GrammarOutcome::TooSmall => None,
                        GrammarOutcome::NoLayout(why) => {
                            errln!("note: no layout of --flow {g} fits ({why}); generating a maze instead");
                            None
                        }
                    },
                    FlowChoice::File(path) => {
                        let spec = read_spec(path)?;
                        let proportions =
                            octile::geometry::Proportions::default().with_cut_ratio(options.cut_ratio);
                        let flow = spec
                            .check(&proportions)
                            .with_context(|| format!("checking {}", path.display()))?;
                        Some(octile::flow::realise(&flow, &options, &mut report)?)
                    }
                };
                match realised {
                    Some(d) => Ok(d),
                    None => generate(&options, &mut report),
                }
            }
        };
        let mut dungeon = dungeon.map_err(|e| self.weights.explain(e.into()))?;
        bar.finish();
        if self.dungeon.atria {
            let atria = octile::generate::open_atria(&mut dungeon).context("opening atria")?;
            let levels = dungeon.levels().saturating_sub(1);
            let drops = atria.iter().filter(|a| a.drop.is_some()).count();
            let voids: usize = atria.iter().map(|a| a.void.len()).sum();
            let rims: usize = atria.iter().map(|a| a.rim.len()).sum();
            errln!(
                "atria: {} of {levels} levels ({voids} void cells, {rims} balcony edges, {drops} drop points)",
                atria.len()
            );
        }
        if self.dungeon.ramps {
            let ramps = octile::generate::cut_ramps(&mut dungeon).context("cutting ramps")?;
            let pairs = dungeon.levels().saturating_sub(1);
            let joined = (0..pairs).filter(|&l| ramps.iter().any(|r| r.level == l)).count();
            errln!("ramps: {} joining {joined} of {pairs} level pairs", ramps.len());
        }
        if self.dungeon.pits {
            let pits = octile::generate::open_pits(&mut dungeon).context("opening pits")?;
            let drops = pits.iter().filter(|p| p.drop.is_some()).count();
            let above = dungeon.levels().saturating_sub(1);
            errln!("pits: {} on {above} levels above the ground ({drops} drop points)", pits.len());
        }
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
    /// Keep every pinned cell (tile and edges; a sealed pinned room gets doorways), the
    /// entrance, exit and stairs of this dungeon file and generate the rest; its size,
    /// levels and cut ratio replace --octagons, --levels and --cut.
    #[arg(long, value_name = "DESIGN.json")]
    keep: Option<PathBuf>,
}

/// The cut ratios `--cut` accepts, to three decimals: those the default proportions (base,
/// door width, ...) allow with it, as [`octile::geometry::Proportions::validate`] decides.
fn cut_range() -> (f64, f64) {
    let fits = |thousandths: u32| {
        let r = f64::from(thousandths) / 1000.0;
        octile::geometry::Proportions::default().with_cut_ratio(r).validate().is_ok()
    };
    let accepted: Vec<u32> = (0..=500).filter(|&t| fits(t)).collect();
    let (lo, hi) = (accepted.first().copied().unwrap_or(200), accepted.last().copied().unwrap_or(200));
    (f64::from(lo) / 1000.0, f64::from(hi) / 1000.0)
}

/// Parses `--cut`: a ratio the default proportions allow, refused in the flag's own terms
/// (not as the door width or proportion field it would break).
pub fn cut_ratio(s: &str) -> Result<f64, String> {
    let (lo, hi) = cut_range();
    let why = "below it a short edge is too narrow for a door, above it a long edge";
    match s.trim().parse::<f64>() {
        Ok(r) if octile::geometry::Proportions::default().with_cut_ratio(r).validate().is_ok() => Ok(r),
        Ok(r) if r.is_finite() => Err(format!("{r} is outside {lo:.3}..={hi:.3} ({why})")),
        _ => Err(format!("{s:?} is not a number from {lo:.3} to {hi:.3} (presets 0.15, 0.20, 0.29)")),
    }
}

/// Parses `--doors`: a share from 0 to 1.
fn share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("{s} is not a share from 0 to 1 (0: no doors, 1: every room/corridor seam)")),
    }
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
    let dungeon = match (&design, &args.keep) {
        (Some(design), Some(path)) => args
            .generation
            .generate_keeping(Some(design))
            .with_context(|| format!("generating around the design {}", path.display()))?,
        _ => args.generation.generate()?,
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
    errln!(
        "wrote {} (seed {}, {} level(s) of {}x{} octagons; entrance {entrance}; exit {exit})",
        args.output.display(),
        options.seed,
        dungeon.levels(),
        dungeon.dims().octagon_cols(),
        dungeon.dims().octagon_rows()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cut_help_names_the_range_the_proportions_accept() {
        let (lo, hi) = cut_range();
        assert_eq!((format!("{lo:.3}"), format!("{hi:.3}")), ("0.112".to_string(), "0.421".to_string()));
        for r in ["0.112", "0.15", "0.2", "0.29", "0.421"] {
            assert!(cut_ratio(r).is_ok(), "{r}");
        }
        let low = cut_ratio("0.08").unwrap_err();
        assert!(low.contains("0.08 is outside 0.112..=0.421") && !low.contains("door_width"), "{low}");
        assert!(cut_ratio("0.44").unwrap_err().contains("outside"));
        assert!(cut_ratio("wide").unwrap_err().contains("not a number from 0.112 to 0.421"));
        assert!(cut_ratio("1e300").unwrap_err().contains("outside"));
    }
}
