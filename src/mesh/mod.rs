//! Mesh extrusion: the dungeon's carved volume as triangles per level and material role.
//!
//! [`build`] extrudes every level from the polygons of [`crate::geometry::Layout`] (it never
//! recomputes a length): floors and ceilings of carved cells and carved seams, walls where
//! carved space meets rock (cell edges, seam ends = pillar faces), door passages, stair
//! shafts and the spiral stair solids (DESIGN.md section 2). Each primitive is welded and
//! optimised with meshopt.

mod error;
mod level;
mod lightmap;
mod optimize;
mod panel;
mod stair;
mod triangulate;
mod types;

pub use error::MeshError;
pub use optimize::{PrimitiveStats, analyze};
pub use types::{DungeonMesh, LevelMesh, MaterialRole, Primitive, Vertex};

use crate::dungeon::Dungeon;

/// How [`build`] makes a mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshOptions {
    /// World metres covered by one repeat of a texture: UV0 is world metres divided by this
    /// (must be finite and positive).
    pub texture_size: f64,
    /// Fill UV1 with a per-level lightmap atlas (non-overlapping charts inside [0, 1]);
    /// when false UV1 is zero.
    pub lightmap_uv: bool,
    /// Reorder with meshopt (vertex cache, overdraw, vertex fetch) after welding; only
    /// benchmarks turn this off to compare.
    pub optimize: bool,
}

impl Default for MeshOptions {
    fn default() -> Self {
        MeshOptions { texture_size: 4.0, lightmap_uv: true, optimize: true }
    }
}

impl MeshOptions {
    /// Checks every option; the first problem is returned.
    pub fn validate(&self) -> Result<(), MeshError> {
        if !self.texture_size.is_finite() || self.texture_size <= 0.0 {
            return Err(MeshError::BadOption {
                name: "texture_size",
                value: self.texture_size,
                reason: "must be finite and positive (metres)",
            });
        }
        Ok(())
    }
}

/// Extrudes every level of `dungeon` into a mesh (positions level-local, one primitive per
/// material role that has triangles).
pub fn build(dungeon: &Dungeon, options: &MeshOptions) -> Result<DungeonMesh, MeshError> {
    options.validate()?;
    let one = |level: u16| -> Result<LevelMesh, MeshError> {
        let panels = level::extrude(dungeon, level)?;
        Ok(panel::assemble(dungeon, level, panels, options))
    };
    // Levels are independent: build contiguous runs of them on scoped threads and join the
    // results in level order, so the output (and the first error) is the same as in series.
    let count = dungeon.levels();
    let workers =
        std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, usize::from(count.max(1)));
    let per = usize::from(count).div_ceil(workers).max(1);
    let runs: Vec<Vec<Result<LevelMesh, MeshError>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..count)
            .step_by(per)
            .map(|start| {
                let end = (usize::from(start) + per).min(usize::from(count)) as u16;
                s.spawn(move || (start..end).map(one).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("invariant: level builders do not panic")).collect()
    });
    let levels = runs.into_iter().flatten().collect::<Result<Vec<_>, MeshError>>()?;
    Ok(DungeonMesh { levels })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
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
            Err(MeshError::StairOffTop { level: 0, row: 0, col: 2 })
        );
    }
}
