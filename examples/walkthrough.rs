//! A guided tour through a dungeon, driven through the library the way `octile view` is.
//!
//! ```text
//! cargo run --example walkthrough -- [DUNGEON.json] [--window] [--out DIR]
//! ```
//!
//! Headless (default): walks the route from the entrance to the exit (or the last reachable
//! cell that is not the hole above a stair) with the collision model, renders a first-person frame every half second
//! of walking offscreen, writes three of them as PNG and prints the offscreen frame time.
//! `--window` opens the viewer on the same route instead (press `P` to start the tour).

// The example times its frames, as the viewer does.
#![allow(clippy::disallowed_types)]

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use octile::grid::Pos;
use octile::path::{AStar, PathGraph, PathRules};
use octile::viewer::CameraKind;
use octile::viewer::gpu::Gpu;
use octile::viewer::screenshot::Offscreen;
use octile::viewer::{ViewOptions, path_ribbon, prepare};
use octile::walk::{Tour, Walker, waypoints};

fn main() -> anyhow::Result<()> {
    let mut file = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/two_levels.json"));
    let mut window = false;
    let mut out = PathBuf::from("target");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--window" => window = true,
            "--out" => out = args.next().context("--out needs a directory")?.into(),
            _ => file = a.into(),
        }
    }
    let dungeon = octile::format::load(&file).with_context(|| format!("loading {}", file.display()))?;
    let Some(start) = dungeon
        .entrance()
        .or_else(|| dungeon.cells().find(|&p| dungeon.tile_def(p).is_ok_and(|t| t.walkable)))
    else {
        bail!("{} has no walkable cell", file.display());
    };
    // The goal: the exit, else the last reachable cell (top level, south-east first).
    let cells: Vec<Pos> = dungeon.cells().collect();
    let graph = PathGraph::new(&dungeon)?;
    let mut astar = AStar::new();
    let goal: Option<(Pos, Vec<Pos>)> = dungeon
        .exit()
        .into_iter()
        .chain(cells.into_iter().rev())
        .filter(|&p| p != start && dungeon.tile_def(p).is_ok_and(|t| t.walkable))
        .filter(|&p| dungeon.stair_below(p).is_none())
        .find_map(|p| {
            let route = astar.find(&graph, start, p, &PathRules::default()).ok().flatten()?;
            Some((p, route.steps))
        });
    let Some((goal, steps)) = goal else { bail!("nothing reachable from {start}") };
    println!("route {start} -> {goal}: {} cells", steps.len());
    let options =
        ViewOptions { camera: CameraKind::Walk, path: Some((start, goal)), ..ViewOptions::default() };
    if window {
        octile::viewer::run(dungeon, options, None)?;
        return Ok(());
    }

    let mut prepared = prepare(&dungeon, &options)?;
    let gpu = Gpu::offscreen(options.adapter)?;
    println!("adapter: {}", gpu.describe());
    let (w, h) = options.size;
    let mut offscreen = Offscreen::new(&gpu, &prepared.scene, w, h)?;
    offscreen.renderer_mut().set_path(&gpu.device, &path_ribbon(&dungeon, &prepared));

    let world = prepared.world.clone();
    let mut tour = Tour::new(waypoints(&world, &steps));
    let mut walker = Walker::spawn(&world, start);
    let dt = 1.0 / 60.0;
    let (mut frames, mut total, mut shots) = (Vec::new(), 0.0, Vec::new());
    let mut level = world.level_at(walker.feet.y);
    for tick in 0..60 * 600 {
        let Some(wish) = tour.wish(walker.xz(), walker.body.walk_speed, 0.2) else { break };
        walker.yaw = octile::walk::compass_angle(wish);
        walker.step(&world, wish, false, dt);
        let now = world.level_at(walker.feet.y + walker.body.max_step);
        if now != level {
            println!("t = {:.1} s: level {level} -> {now} at {:.1?}", f64::from(tick) * dt, walker.feet);
            level = now;
        }
        if tick % 30 == 0 {
            prepared.state.walker = walker.clone();
            let frame = prepared.state.frame(&prepared.scene, &world, w as f32 / h as f32);
            let t0 = Instant::now();
            let stats = offscreen.draw(&gpu, &frame)?;
            total += t0.elapsed().as_secs_f64();
            frames.push((tick, stats));
        }
    }
    if !tour.is_done() {
        bail!("the walker got stuck at {:?} (waypoint {} of {})", walker.feet, tour.next, tour.points.len());
    }
    println!("reached {goal} at {:.1?}", walker.feet);
    let n = frames.len().max(1) as f64;
    let draws = frames.iter().map(|(_, s)| s.draw_calls).max().unwrap_or(0);
    println!(
        "offscreen {w}x{h}: {} frames, mean {:.1} ms (max {draws} draw calls)",
        frames.len(),
        total / n * 1000.0
    );

    // Three pictures: the start, halfway, the goal.
    let mut again = Walker::spawn(&world, start);
    let mut tour = Tour::new(waypoints(&world, &steps));
    let last = frames.last().map_or(0, |f| f.0);
    for tick in 0..=last {
        let Some(wish) = tour.wish(again.xz(), again.body.walk_speed, 0.2) else { break };
        again.yaw = octile::walk::compass_angle(wish);
        again.step(&world, wish, false, dt);
        if tick == 0 || tick == last / 2 || tick == last {
            prepared.state.walker = again.clone();
            let frame = prepared.state.frame(&prepared.scene, &world, w as f32 / h as f32);
            let path = out.join(format!("walkthrough-{}.png", shots.len()));
            offscreen.capture(&gpu, &frame)?.save_png(&path)?;
            shots.push(path);
        }
    }
    for s in &shots {
        println!("wrote {}", s.display());
    }
    Ok(())
}
