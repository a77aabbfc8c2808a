//! `octile view`: the walkthrough viewer window, or a headless screenshot.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use octile::viewer::{CameraKind, Shot, ViewOptions, offscreen_view, screenshot};

use super::args::{MeshBudgetArgs, RouteArg, Size};
use super::generate::GenOptionsArgs;
use super::stdout::errln;

/// Options of `octile view`.
#[derive(Args)]
#[command(
    after_help = octile::viewer::keys_help(),
    override_usage = "octile view [OPTIONS] <FILE>\n       octile view --generate [GENERATION OPTIONS] [OPTIONS]"
)]
pub struct ViewArgs {
    /// The dungeon file (JSON); leave it out with --generate.
    #[arg(required_unless_present = "generate", conflicts_with_all = ["generate", "generation", "weights"])]
    file: Option<PathBuf>,
    /// Generate a dungeon (with the generation options below, as `octile generate` takes
    /// them) and view it instead of loading a file.
    #[arg(long)]
    generate: bool,
    /// Render one frame offscreen (no window) and write it to this PNG file.
    #[arg(long, value_name = "OUT.png")]
    screenshot: Option<PathBuf>,
    /// Image (or initial window) size, COLSxROWS in pixels.
    #[arg(long, default_value = "1280x720")]
    size: Size,
    /// Camera to start with: orbit, walk or top.
    #[arg(long, default_value = "orbit")]
    camera: CameraKind,
    /// Show only this level (orbit, top) or start on it (walk).
    #[arg(long)]
    level: Option<u16>,
    /// Render this many frames in the window, then exit and print the mean frame time (smoke
    /// tests, timing); with --screenshot, time this many offscreen frames before the capture.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    frames: Option<u64>,
    /// Draw the route between two cells, `L,R,C:L,R,C`; the walkthrough's `P` key walks it.
    #[arg(long, value_name = "L,R,C:L,R,C")]
    path: Option<RouteArg>,
    /// Without --path: draw the critical path (entrance to goal, every lock open, as
    /// `octile validate` proves it) as the route, with every door open (locked ones too),
    /// so `P` walks the level as a player finishes it.
    #[arg(long, conflicts_with = "path")]
    critical_path: bool,
    /// Hide the faint floor cell outlines.
    #[arg(long)]
    no_outlines: bool,
    /// Which levels to show: all, only (the current one), cutaway (it and those below) or
    /// exploded (all, lifted apart); key L cycles them.
    #[arg(long, value_name = "MODE")]
    level_mode: Option<octile::viewer::LevelMode>,
    /// Open every door first (closed doors block walking and --path, as in `octile path`;
    /// F opens the one you face in walk mode).
    #[arg(long)]
    open_doors: bool,
    /// The walk mode's map: off, mini (a minimap in the corner) or full (the level from
    /// above); key M cycles them.
    #[arg(long, value_name = "MAP", default_value = "off")]
    map: octile::viewer::MapMode,
    /// Dither half an 8-bit step against colour banding on smooth walls (costs about a
    /// sixth of a walk frame on a CPU renderer).
    #[arg(long)]
    dither: bool,
    /// Texture the floors, walls, ceilings and stairs with a procedural texture set sampled
    /// with the exported UVs (key U; off by default: it costs about a third to a half more
    /// per frame on a CPU renderer).
    #[arg(long)]
    textures: bool,
    /// World metres covered by one texture repeat (UV0 = metres / this), as `octile export
    /// --texture-size` writes it.
    #[arg(long, default_value_t = octile::mesh::MeshOptions::default().texture_size, value_parser = super::args::texture_size)]
    texture_size: f64,
    /// Draw the markers (spawns, props, torch sockets, door hinges; key K).
    #[arg(long)]
    markers: bool,
    /// Show the torch lights `--lights` exports, as glowing points.
    #[arg(long)]
    lights: bool,
    /// Leave the rooms untinted in the top view and maps (by default a dungeon with a
    /// room table shows each room in its role's colour, as `octile plan` does, and a star
    /// on the entrance and the goal; key J).
    #[arg(long)]
    no_rooms: bool,
    /// Draw the HUD (level, cell, camera) in the --screenshot too.
    #[arg(long)]
    hud: bool,
    /// Mouse-look speed in radians per pixel (keys [ and ] change it in the window).
    #[arg(long, default_value_t = octile::viewer::DEFAULT_LOOK_SENSITIVITY, value_parser = look_speed)]
    look_speed: f64,
    /// Invert mouse-look's up/down (key I in the window).
    #[arg(long)]
    invert_look: bool,
    #[command(flatten)]
    budget: MeshBudgetArgs,
    // Last: the heading holds for the flags after it.
    #[command(flatten, next_help_heading = "Generation options (with --generate)")]
    generation: GenOptionsArgs,
}

/// Runs `octile view`.
pub fn run(args: ViewArgs) -> anyhow::Result<ExitCode> {
    // Frames on a CPU renderer free and re-allocate megabytes: keep them in the process.
    octile::viewer::memory::keep_frame_memory();
    let dungeon = match &args.file {
        Some(file) => super::files::load(file)?,
        None => {
            let d = args.generation.generate()?;
            let name = |p: Option<octile::grid::Pos>| p.map(|p| p.to_string()).unwrap_or_default();
            let (entrance, exit) = (name(d.entrance()), name(d.exit()));
            errln!("generated seed {}: entrance {entrance}, exit {exit}", args.generation.options().seed);
            d
        }
    };
    if let Some(route) = args.path {
        for pos in [route.from, route.to] {
            super::args::check_cell(&dungeon, pos).map_err(|e| anyhow::anyhow!("bad --path: {e}"))?;
        }
    }
    // Edit mode saves to the opened file; a generated dungeon to a name with its seed.
    let save_to = args.file.clone().unwrap_or_else(|| {
        PathBuf::from(format!("octile-generated-seed{}.json", args.generation.options().seed))
    });
    let options = ViewOptions {
        save_to,
        camera: args.camera,
        level: args.level,
        path: args.path.map(|r| (r.from, r.to)),
        critical_path: args.critical_path,
        size: (args.size.cols, args.size.rows),
        outlines: !args.no_outlines,
        mesh: octile::mesh::MeshOptions { texture_size: args.texture_size, ..args.budget.mesh_options() },
        hud: args.hud,
        level_mode: args.level_mode,
        open_doors: args.open_doors,
        map: args.map,
        dither: args.dither,
        textures: args.textures,
        markers: args.markers,
        lights: args.lights,
        rooms: !args.no_rooms,
        look_sensitivity: args.look_speed,
        invert_look: args.invert_look,
        ..ViewOptions::default()
    };
    if let Some(out) = &args.screenshot {
        octile::viewer::screenshot::check_png_path(out)?;
        let shot = match args.frames {
            Some(n) => timed_screenshot(&dungeon, &options, n)?,
            None => screenshot(&dungeon, &options)?,
        };
        shot.save_png(out)?;
        errln!(
            "wrote {} ({}x{}, {} draw calls, {} triangles)",
            out.display(),
            shot.width,
            shot.height,
            shot.stats.draw_calls,
            shot.stats.triangles
        );
        let chunks = shot.stats.chunks;
        errln!(
            "chunks: {} of {} built at full detail ({} kept; the rest drawn coarse or out of view)",
            chunks.built,
            chunks.chunks,
            chunks.resident
        );
        return Ok(ExitCode::SUCCESS);
    }
    octile::viewer::run(dungeon, options, args.frames)?;
    Ok(ExitCode::SUCCESS)
}

/// Renders `frames` offscreen frames (after one warm-up frame), prints their mean time, and
/// returns a capture of the same view.
fn timed_screenshot(
    dungeon: &octile::dungeon::Dungeon,
    options: &ViewOptions,
    frames: u64,
) -> anyhow::Result<Shot> {
    let (gpu, mut offscreen, frame) = offscreen_view(dungeon, options)?;
    let (w, h) = options.size;
    offscreen.draw(&gpu, &frame)?;
    let mut times = Vec::new();
    for _ in 0..frames {
        let start = Instant::now();
        offscreen.draw(&gpu, &frame)?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    errln!(
        "offscreen {w}x{h}: {frames} frames, median frame time {median:.2} ms, mean {mean:.2} ms | adapter: {}",
        gpu.describe()
    );
    Ok(offscreen.capture(&gpu, &frame)?)
}

/// Parses `--look-speed`: a finite number of radians per pixel in (0, 0.1].
fn look_speed(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 0.1 => Ok(v),
        _ => Err(format!("{s:?}: expected radians per pixel, more than 0 and at most 0.1 (default 0.003)")),
    }
}
