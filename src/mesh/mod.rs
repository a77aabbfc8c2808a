//! Mesh extrusion: the dungeon's carved volume as triangles per level and material role.
//!
//! [`build`] extrudes every level from the polygons of [`crate::geometry::Layout`] (it never
//! recomputes a length): floors and ceilings of carved cells and carved seams, walls where
//! carved space meets rock (cell edges, seam ends = pillar faces), door passages, stair
//! shafts and the spiral stair solids (docs/design.md, "The mesh"). Each primitive is welded and
//! optimised with meshopt.

pub mod chunk;
mod door_leaf;
mod error;
mod level;
mod lightmap;
mod optimize;
pub(crate) mod panel;
mod panels;
mod progress;
mod railing;
mod ramp;
mod ribbon;
mod stair;
mod triangulate;
mod types;
mod weld;

pub use door_leaf::{DoorLeaf, LEAF_COLOUR, LEAF_GAP, LEAF_THICKNESS, door_leaves, leaf_mesh, yaw_onto};
pub use error::MeshError;
pub(crate) use level::wall_end_splits;
pub use optimize::{PrimitiveStats, analyze};
pub use progress::MeshProgress;
pub use railing::{RAILING_COLOUR, Railing, railing_mesh, railings};
pub(crate) use ramp::ramp_panels;
pub use ribbon::{RIBBON_COLOUR, RIBBON_LIFT, RIBBON_WIDTH, route_ribbon};
pub(crate) use stair::{ShaftSides, footprint_rim, level_spirals, ramp_triangles, shaft_ramp, stair_walk};
pub use types::{DungeonMesh, LevelMesh, MaterialRole, Primitive, Vertex};
pub use weld::weld_remap;

use glam::DVec3;

use crate::dungeon::Dungeon;
use crate::geometry::MAX_RISE;
use crate::grid::SlotKind;

/// The default of [`MeshOptions::max_triangles`]: 20 million triangles. A mesh costs about
/// 200 bytes of memory per triangle while it is built and exported (vertices before and
/// after welding, indices, the glTF buffer), so the default keeps a build within a few GB.
pub const DEFAULT_MAX_TRIANGLES: u64 = 20_000_000;

/// The smallest [`MeshOptions::texture_size`] accepted: 1 mm. Smaller sizes push UV0 past
/// what an `f32` holds (`1e-300` wrote Infinity, `5e-324` NaN).
pub const MIN_TEXTURE_SIZE: f64 = 1e-3;

/// The largest [`MeshOptions::texture_size`] accepted: 1000 km, far past any dungeon.
pub const MAX_TEXTURE_SIZE: f64 = 1e6;

/// Most triangles one carved octagon makes with the seams and walls it owns (floor and
/// ceiling fans, eight walls or door passages, its share of seams and pillars);
/// [`estimated_triangles`] counts this many per carved octagon.
const TRIANGLES_PER_OCTAGON: u64 = 64;
/// Most triangles of one carved connector diamond with its walls and short seams.
const TRIANGLES_PER_CONNECTOR: u64 = 24;
/// Most triangles room heights add to one carved octagon (lintels, and walls and pillar
/// faces split where lower seams stop), counted only for a dungeon with set heights.
const HEIGHT_TRIANGLES_PER_OCTAGON: u64 = 64;
/// Most triangles room heights add to one carved connector.
const HEIGHT_TRIANGLES_PER_CONNECTOR: u64 = 32;
/// Most triangles per step of a spiral stair (tread, riser, rims, column and shaft share).
const TRIANGLES_PER_STEP: u64 = 48;
/// Triangles of a stair's fixed parts (landing, gap, column ends, hole rim).
const TRIANGLES_PER_STAIR: u64 = 256;

/// How [`build`] makes a mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshOptions {
    /// World metres covered by one repeat of a texture: UV0 is world metres divided by this
    /// ([`MIN_TEXTURE_SIZE`] to [`MAX_TEXTURE_SIZE`]).
    pub texture_size: f64,
    /// Fill UV1 with a per-level lightmap atlas (non-overlapping charts inside [0, 1]);
    /// when false UV1 is zero. The one lightmap switch: the export writes `TEXCOORD_1`
    /// exactly when the mesh has it ([`DungeonMesh::lightmap_uv`]).
    pub lightmap_uv: bool,
    /// Reorder with meshopt (vertex cache, overdraw, vertex fetch) after welding; only
    /// benchmarks turn this off to compare.
    pub optimize: bool,
    /// The most triangles [`build`] makes: a dungeon whose [`estimated_triangles`] is over
    /// this is refused before anything is built ([`MeshError::TooLarge`]). Default
    /// [`DEFAULT_MAX_TRIANGLES`].
    pub max_triangles: u64,
}

impl Default for MeshOptions {
    fn default() -> Self {
        MeshOptions {
            texture_size: 4.0,
            lightmap_uv: true,
            optimize: true,
            max_triangles: DEFAULT_MAX_TRIANGLES,
        }
    }
}

impl MeshOptions {
    /// Checks every option; the first problem is returned.
    ///
    /// # Errors
    /// [`MeshError::BadOption`] naming the option.
    pub fn validate(&self) -> Result<(), MeshError> {
        if !(MIN_TEXTURE_SIZE..=MAX_TEXTURE_SIZE).contains(&self.texture_size) {
            return Err(MeshError::BadOption {
                name: "texture_size",
                value: self.texture_size,
                reason: "must be from 0.001 to 1000000 metres (MIN_TEXTURE_SIZE to MAX_TEXTURE_SIZE)",
            });
        }
        Ok(())
    }
}

/// An upper estimate of the triangles [`build`] makes of `dungeon`, counted without
/// building anything (one pass over the cells): a fixed number per carved octagon and
/// connector (more when any cell has a room height of its own), per stair step and per
/// octagon a ramp runs over. The mesh
/// has no more than this (the constants are the most any cell makes; a test checks the
/// bound on the samples and generated dungeons).
#[must_use]
pub fn estimated_triangles(dungeon: &Dungeon) -> u64 {
    let dims = dungeon.dims();
    let heights = dungeon.has_room_heights();
    let mut total = 0u64;
    for level in 0..dungeon.levels() {
        let Ok(carved) = dungeon.carved_slots(level) else { continue };
        for slot in carved.iter().zip(dims.slots()).filter(|(c, _)| **c).map(|(_, slot)| slot) {
            total += match (slot.kind(), heights) {
                (SlotKind::Octagon, false) => TRIANGLES_PER_OCTAGON,
                (SlotKind::Octagon, true) => TRIANGLES_PER_OCTAGON + HEIGHT_TRIANGLES_PER_OCTAGON,
                (_, false) => TRIANGLES_PER_CONNECTOR,
                (_, true) => TRIANGLES_PER_CONNECTOR + HEIGHT_TRIANGLES_PER_CONNECTOR,
            };
        }
    }
    let height = dungeon.proportions().layer_height;
    let steps = (height / MAX_RISE).ceil().clamp(2.0, u32::MAX as f64) as u64;
    let per_stair = TRIANGLES_PER_STAIR.saturating_add(steps.saturating_mul(TRIANGLES_PER_STEP));
    let per_ramp = u64::from(dungeon.ramp_run()).saturating_mul(ramp::TRIANGLES_PER_RAMP_CELL);
    total
        .saturating_add((dungeon.stairs().len() as u64).saturating_mul(per_stair))
        .saturating_add((dungeon.ramps().len() as u64).saturating_mul(per_ramp))
}

/// The surface of `level` as [`build`] meshes it, in world metres at full precision (`f64`,
/// `y` lifted to the level's floor), before its vertices are welded and rounded to `f32`:
/// each triangle with its role, wound counter-clockwise seen from the carved side (or from
/// outside a stair's solid). For exact work beside the mesh: collision in `f64`, checks of
/// sight against the same polygons. Railings and door leaves are solids of their own
/// ([`railings`], [`door_leaves`]).
///
/// # Errors
/// [`MeshError::Stair`] or [`MeshError::Column`] as [`build`] refuses the level;
/// [`MeshError::Level`] for a level the dungeon has not.
pub fn level_surface(dungeon: &Dungeon, level: u16) -> Result<Vec<(MaterialRole, [DVec3; 3])>, MeshError> {
    dungeon.tile_layer(level).map_err(MeshError::Level)?;
    let mut panels = panels::Panels::default();
    level::extrude_into(dungeon, level, &mut panels)?;
    let lift = DVec3::Y * dungeon.proportions().floor_y(level);
    Ok(panels.iter().flat_map(|p| p.tris.iter().map(move |t| (p.role, t.map(|v| v + lift)))).collect())
}

/// Checks the options and the size of the mesh of `dungeon` ([`build`]'s first checks).
fn check_size(dungeon: &Dungeon, options: &MeshOptions) -> Result<(), MeshError> {
    options.validate()?;
    let estimate = estimated_triangles(dungeon);
    if estimate > options.max_triangles {
        return Err(MeshError::TooLarge { estimate, limit: options.max_triangles });
    }
    Ok(())
}

/// Checks, without meshing anything, that [`build`] would accept `dungeon` and `options`:
/// the options, the size estimate and every level's stairs. A viewer that meshes chunks
/// only when they come into view ([`chunk::build_chunks`]) asks this first, so bad input
/// is refused at start-up as a full build refuses it.
///
/// # Errors
/// As [`build`]: [`MeshError::BadOption`], [`MeshError::TooLarge`], [`MeshError::Stair`].
pub fn check_meshable(dungeon: &Dungeon, options: &MeshOptions) -> Result<(), MeshError> {
    check_size(dungeon, options)?;
    (0..dungeon.levels()).try_for_each(|level| level::check_stairs(dungeon, level))
}

/// Extrudes every level of `dungeon` into a mesh (positions level-local, one primitive per
/// material role that has triangles).
///
/// # Errors
/// [`MeshError::BadOption`] for an option out of range, [`MeshError::TooLarge`] when the
/// [`estimated_triangles`] are over [`MeshOptions::max_triangles`], [`MeshError::Stair`]
/// for a stair that cannot be built.
pub fn build(dungeon: &Dungeon, options: &MeshOptions) -> Result<DungeonMesh, MeshError> {
    build_with_progress(dungeon, options, &mut |_| {})
}

/// [`build`], calling `progress` on the calling thread as levels finish: once per level, in
/// level order ([`MeshProgress::Levels`] with `done` = 1, 2, ..., `total`), so the calls are
/// the same on every run. Reports stop before the first level that fails (the error is
/// returned as [`build`] returns it). The mesh is the same as [`build`]'s.
///
/// # Errors
/// As [`build`].
///
/// # Panics
/// Never: levels are meshed in order and each result is taken once.
pub fn build_with_progress(
    dungeon: &Dungeon,
    options: &MeshOptions,
    progress: &mut dyn FnMut(MeshProgress),
) -> Result<DungeonMesh, MeshError> {
    build_levels(dungeon, options, progress, &|_| ()).map(|(mesh, _)| mesh)
}

/// [`build_with_progress`], also calling `after` with each level's mesh on the worker that
/// built it, as soon as it is built (while its arrays are still in that core's cache), and
/// returning what `after` gave, in level order.
///
/// # Errors
/// As [`build_with_progress`].
pub(crate) fn build_levels<T: Send>(
    dungeon: &Dungeon,
    options: &MeshOptions,
    progress: &mut dyn FnMut(MeshProgress),
    after: &(dyn Fn(&LevelMesh) -> T + Sync),
) -> Result<(DungeonMesh, Vec<T>), MeshError> {
    check_size(dungeon, options)?;
    // One list of panels a worker, reused level after level.
    let one = |level: u16, panels: &mut panels::Panels| -> Result<(LevelMesh, T), MeshError> {
        level::extrude_into(dungeon, level, panels)?;
        let mesh = panel::assemble(dungeon, level, panels, options);
        let extra = after(&mesh);
        Ok((mesh, extra))
    };
    // Levels are independent: each worker takes the next level not yet taken (so a worker
    // that finishes a small level early takes another, and no core idles while levels are
    // left), and the results are put in level order, so the output (and the first error)
    // is the same as in series. Each finished level is sent back at once; progress counts
    // the finished prefix.
    let count = dungeon.levels();
    let workers =
        std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, usize::from(count.max(1)));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut slots: Vec<Option<Result<(LevelMesh, T), MeshError>>> = (0..count).map(|_| None).collect();
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..workers {
            let tx = tx.clone();
            let (one, next) = (&one, &next);
            s.spawn(move || {
                let mut panels = panels::Panels::default();
                loop {
                    let taken = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(level) = u16::try_from(taken).ok().filter(|&l| l < count) else { break };
                    // The receiver lives until every sender is gone; a failed send cannot happen.
                    let _ = tx.send((level, one(level, &mut panels)));
                }
            });
        }
        drop(tx);
        let mut done = 0u16;
        // Ends when every worker has finished (or panicked: the scope then re-raises it).
        for (level, result) in rx {
            slots[usize::from(level)] = Some(result);
            while done < count && matches!(slots[usize::from(done)], Some(Ok(_))) {
                done += 1;
                progress(MeshProgress::Levels { done, total: count });
            }
        }
    });
    let (levels, extras): (Vec<LevelMesh>, Vec<T>) = slots
        .into_iter()
        .map(|slot| slot.expect("invariant: every level builder reports"))
        .collect::<Result<Vec<_>, MeshError>>()?
        .into_iter()
        .unzip();
    Ok((DungeonMesh { levels, lightmap_uv: options.lightmap_uv }, extras))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{DungeonError, Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::{Grid, Slot};

    #[test]
    fn a_stair_on_the_top_level_is_refused() {
        // Only raw layers (as a file loader sees them) can hold this; the setters refuse it.
        let d = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Floor).unwrap();
        let mut tiles: Grid<_> = d.tile_layer(0).unwrap().clone();
        *tiles.get_mut(Slot::new(0, 2)).unwrap() = Registry::STAIR;
        let edges = d.edge_layer(0).unwrap().to_vec();
        let raw =
            Dungeon::from_parts(d.dims(), *d.proportions(), d.registry().clone(), vec![tiles], vec![edges])
                .unwrap();
        assert_eq!(
            build(&raw, &MeshOptions::default()),
            Err(MeshError::Stair(DungeonError::StairOffTop { level: 0, row: 0, col: 2, levels: 1 }))
        );
        let mut seen = Vec::new();
        let reported = build_with_progress(&raw, &MeshOptions::default(), &mut |p| seen.push(p));
        assert_eq!(
            reported,
            Err(MeshError::Stair(DungeonError::StairOffTop { level: 0, row: 0, col: 2, levels: 1 }))
        );
        assert_eq!(seen, [], "a failed level is not reported as built");
    }

    #[test]
    fn progress_stops_before_the_first_failed_level() {
        // Levels 0 and 1 build; level 2 (the top) holds a stair and fails.
        let d = Dungeon::new(2, 2, 3, Proportions::default(), Fill::Floor).unwrap();
        let mut tiles: Vec<Grid<_>> = (0..3).map(|l| d.tile_layer(l).unwrap().clone()).collect();
        *tiles[2].get_mut(Slot::new(0, 2)).unwrap() = Registry::STAIR;
        let edges = (0..3).map(|l| d.edge_layer(l).unwrap().to_vec()).collect();
        let raw =
            Dungeon::from_parts(d.dims(), *d.proportions(), d.registry().clone(), tiles, edges).unwrap();
        let mut seen = Vec::new();
        let reported = build_with_progress(&raw, &MeshOptions::default(), &mut |p| seen.push(p));
        assert_eq!(
            reported,
            Err(MeshError::Stair(DungeonError::StairOffTop { level: 2, row: 0, col: 2, levels: 3 }))
        );
        assert_eq!(
            seen,
            [MeshProgress::Levels { done: 1, total: 3 }, MeshProgress::Levels { done: 2, total: 3 }]
        );
    }
}
