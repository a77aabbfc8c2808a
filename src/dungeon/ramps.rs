//! Ramps (docs/design.md, "Columns across storeys"): a straight sloped floor over a row of
//! octagons that joins one level to the next, the second way up beside the spiral stair.
//!
//! A ramp is a record of the dungeon ([`Ramp`]: its foot and the long wall it rises
//! through); the cells it needs are ordinary tiles and edges, and this module owns the rule
//! of what they must be ([`Dungeon::ramp_problems`]): on the foot's level the foot is a
//! floor, the run octagons beyond it are floors walled on every side but the ramp's own
//! seams, and each is open above (the octagons over them are void, their seams open); on
//! the level above, the floor the ramp meets (its *top*) lies beyond the last void, across
//! an open seam that carries no railing ([`Dungeon::is_ramp_top`]). The ramp itself is a
//! closed solid of its own standing on the run's floors ([`crate::geometry::RampPlan`]).

use super::{Carve, Dungeon, DungeonError};
use crate::geometry::{RampPlan, ramp_run_cells};
use crate::grid::{Direction, EdgeId, Pos, Slot, SlotKind};

/// One ramp: it starts at the wall `dir` of the octagon `foot` on `level` and rises one
/// storey over the next [`Dungeon::ramp_run`] octagons that way ([`Dungeon::ramp_cells`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ramp {
    /// The level of its foot.
    pub level: u16,
    /// The octagon at its foot: level floor, the ramp begins at its wall `dir`.
    pub foot: Slot,
    /// The long wall it rises through (north, east, south or west).
    pub dir: Direction,
}

/// The cells a ramp uses ([`Dungeon::ramp_cells`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RampCells {
    /// The foot, on the ramp's level.
    pub foot: Pos,
    /// The octagons it runs over, from the foot up, on the ramp's level (each open above).
    pub run: Vec<Pos>,
    /// The floor it meets on the level above, beyond the last run octagon.
    pub top: Pos,
}

impl Ramp {
    /// Whether wall `dir` of the `k`-th octagon of a run of `run` (0 nearest the foot) is
    /// open along the ramp: towards the foot always, onwards but for the last octagon
    /// (whose far wall is rock on the ramp's level). Every other wall of it is closed.
    #[must_use]
    pub fn runs_along(&self, k: usize, run: usize, dir: Direction) -> bool {
        dir == self.dir.opposite() || (dir == self.dir && k + 1 < run)
    }

    /// Whether wall `dir` of the void over the `k`-th run octagon is open where the ramp
    /// needs it: onwards, along the ramp and on to its top from the last. (Its other walls
    /// may be anything a void allows; the generator walls them.)
    #[must_use]
    pub fn void_runs_along(&self, k: usize, dir: Direction) -> bool {
        dir == self.dir || (dir == self.dir.opposite() && k > 0)
    }
}

impl RampCells {
    /// The void cells over the run, on the level above.
    #[must_use]
    pub fn voids(&self) -> Vec<Pos> {
        self.run.iter().map(|p| Pos { level: p.level + 1, ..*p }).collect()
    }
}

impl Dungeon {
    /// Every ramp, in order of (level, foot, direction).
    #[must_use]
    pub fn ramps(&self) -> &[Ramp] {
        &self.ramps
    }

    /// How many octagons every ramp of this dungeon runs over
    /// ([`crate::geometry::ramp_run_cells`] of its proportions: 2 by default).
    #[must_use]
    pub fn ramp_run(&self) -> u32 {
        ramp_run_cells(self.proportions())
    }

    /// The cells `ramp` uses, `None` when it does not fit the grid (its foot is not an
    /// octagon below the top level, its direction is diagonal or it runs off the grid).
    #[must_use]
    pub fn ramp_cells(&self, ramp: &Ramp) -> Option<RampCells> {
        if ramp.foot.kind() != SlotKind::Octagon
            || ramp.dir.is_diagonal()
            || u32::from(ramp.level) + 1 >= u32::from(self.levels())
        {
            return None;
        }
        let dims = self.dims();
        let mut slot = ramp.foot;
        dims.index(slot).ok()?;
        let mut run = Vec::new();
        for _ in 0..self.ramp_run() {
            slot = dims.neighbor(slot, ramp.dir).ok()??;
            run.push(Pos { level: ramp.level, slot });
        }
        let top = dims.neighbor(slot, ramp.dir).ok()??;
        Some(RampCells {
            foot: Pos { level: ramp.level, slot: ramp.foot },
            run,
            top: Pos { level: ramp.level + 1, slot: top },
        })
    }

    /// The plan of `ramp` (its pieces and slope), `None` as for [`Dungeon::ramp_cells`].
    #[must_use]
    pub fn ramp_plan(&self, ramp: &Ramp) -> Option<RampPlan> {
        self.ramp_cells(ramp)?;
        RampPlan::new(self.layout(), ramp.foot, ramp.dir, self.ramp_run())
    }

    /// Adds `ramp` (its cells are not changed: [`Dungeon::ramp_problems`] says what they
    /// lack). Adding a ramp the dungeon has already is a no-op.
    ///
    /// # Errors
    /// [`DungeonError::BadRamp`] when it does not fit the grid ([`Dungeon::ramp_cells`]) or
    /// shares a cell with another ramp.
    pub fn add_ramp(&mut self, ramp: Ramp) -> Result<(), DungeonError> {
        let bad = |why| DungeonError::BadRamp {
            level: ramp.level,
            row: ramp.foot.row,
            col: ramp.foot.col,
            dir: ramp.dir,
            why,
        };
        if self.ramps.contains(&ramp) {
            return Ok(());
        }
        if let Some(why) = self.ramp_misfit(&ramp) {
            return Err(bad(why));
        }
        let at = self.ramps.partition_point(|r| *r < ramp);
        self.ramps.insert(at, ramp);
        Ok(())
    }

    /// Whether [`Dungeon::add_ramp`] would take `ramp`: it fits the grid and shares no cell
    /// (foot, run, voids or top) with a ramp the dungeon has.
    #[must_use]
    pub fn ramp_fits(&self, ramp: &Ramp) -> bool {
        self.ramps.contains(ramp) || self.ramp_misfit(ramp).is_none()
    }

    /// Why `ramp` cannot be added ([`Dungeon::ramp_fits`]), in words.
    fn ramp_misfit(&self, ramp: &Ramp) -> Option<&'static str> {
        let Some(cells) = self.ramp_cells(ramp) else {
            return Some(
                "its foot must be an octagon below the top level, rising north, east, south or west within the grid",
            );
        };
        let used = |c: &RampCells| {
            let mut all = vec![c.foot, c.top];
            all.extend(c.run.iter().copied());
            all.extend(c.voids());
            all
        };
        let mine = used(&cells);
        let shares = self
            .ramps
            .iter()
            .any(|other| self.ramp_cells(other).is_some_and(|c| used(&c).iter().any(|p| mine.contains(p))));
        shares.then_some("it shares a cell with another ramp")
    }

    /// Removes `ramp`; whether it was there.
    pub fn remove_ramp(&mut self, ramp: &Ramp) -> bool {
        let before = self.ramps.len();
        self.ramps.retain(|r| r != ramp);
        self.ramps.len() != before
    }

    /// The ramp whose run covers the cell at `pos` (on the ramp's own level), if any.
    #[must_use]
    pub fn ramp_over(&self, pos: Pos) -> Option<&Ramp> {
        self.ramps
            .iter()
            .filter(|r| r.level == pos.level)
            .find(|r| self.ramp_cells(r).is_some_and(|c| c.run.contains(&pos)))
    }

    /// Whether edge `edge` of `level` is where a ramp from the level below meets its top:
    /// the seam between the last void over its run and its top. Such an edge is on a
    /// void's rim but carries no railing and is no drop point ([`Dungeon::railing_edges`]).
    #[must_use]
    pub fn is_ramp_top(&self, level: u16, edge: EdgeId) -> bool {
        let Some(below) = level.checked_sub(1) else { return false };
        self.ramps.iter().filter(|r| r.level == below).any(|r| self.ramp_top_edge(r) == Some(edge))
    }

    /// The edge on the level above where `ramp` meets its top ([`Dungeon::is_ramp_top`]).
    #[must_use]
    pub fn ramp_top_edge(&self, ramp: &Ramp) -> Option<EdgeId> {
        let cells = self.ramp_cells(ramp)?;
        self.dims().edge(cells.top.slot, ramp.dir.opposite()).ok()?
    }

    /// The problems of [`Dungeon::problems`] with the ramps whose foot is on `level`, the
    /// first rule each breaks ([`DungeonError::RampBroken`]; the module says the rules).
    #[must_use]
    pub fn ramp_problems(&self, level: u16) -> Vec<DungeonError> {
        self.ramps
            .iter()
            .filter(|r| r.level == level)
            .filter_map(|r| {
                self.ramp_breaks(r).map(|why| DungeonError::RampBroken {
                    level,
                    row: r.foot.row,
                    col: r.foot.col,
                    dir: r.dir,
                    why,
                })
            })
            .collect()
    }

    /// Whether `ramp`'s cells hold it (it has no [`Dungeon::ramp_problems`] problem): only
    /// a sound ramp is stepped on by paths and walked.
    #[must_use]
    pub fn ramp_is_sound(&self, ramp: &Ramp) -> bool {
        self.ramp_breaks(ramp).is_none()
    }

    /// The sound ramps ([`Dungeon::ramp_is_sound`]), in order: the ones paths, the walk,
    /// the navmesh and the collider use.
    pub fn sound_ramps(&self) -> impl Iterator<Item = &Ramp> + '_ {
        self.ramps.iter().filter(|r| self.ramp_is_sound(r))
    }

    /// The first rule of the module that `ramp`'s cells break, in words.
    fn ramp_breaks(&self, ramp: &Ramp) -> Option<String> {
        let Some(cells) = self.ramp_cells(ramp) else {
            return Some("it does not fit the grid".to_owned());
        };
        let name = |p: Pos| format!("row {}, col {} of level {}", p.slot.row, p.slot.col, p.level);
        let floor = |p: Pos| self.cell_def(p).is_some_and(|d| d.carved && d.walkable && !d.void && !d.stair);
        let open = |p: Pos, dir: Direction| self.carved_seam(p, dir).is_some_and(|d| d.carve == Carve::Full);
        if !floor(cells.foot) {
            return Some(format!("its foot, {}, is not a walkable floor", name(cells.foot)));
        }
        if !floor(cells.top) {
            return Some(format!("its top, {}, is not a walkable floor", name(cells.top)));
        }
        for &p in &cells.run {
            let over = Pos { level: p.level + 1, ..p };
            if !floor(p) {
                return Some(format!("{} under it is not a walkable floor", name(p)));
            }
            if !self.is_void(over) {
                return Some(format!("{} over it is not void", name(over)));
            }
        }
        let (up, run) = (ramp.dir, cells.run.len());
        for (k, &p) in cells.run.iter().enumerate() {
            let over = Pos { level: p.level + 1, ..p };
            for &dir in self.dims().walls(p.slot).unwrap_or(&[]) {
                let along = ramp.runs_along(k, run, dir);
                if along && !open(p, dir) {
                    return Some(format!("wall {dir:?} of {} is not open", name(p)));
                }
                if !along && self.carved_seam(p, dir).is_some() {
                    return Some(format!("wall {dir:?} of {}, beside it, is carved", name(p)));
                }
            }
            if !open(over, up) {
                let what = if k + 1 == run { "to its top" } else { "along it" };
                return Some(format!("wall {up:?} of {}, {what}, is not open", name(over)));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;

    /// 5x2 octagons, 2 levels, rock: a ramp east from (0,0,0) carved by hand.
    pub(crate) fn ramped() -> (Dungeon, Ramp) {
        let mut d = Dungeon::new(5, 2, 2, Proportions::default(), Fill::Solid).unwrap();
        let void = d.void_tile().unwrap();
        for col in [0, 2, 4] {
            d.set_tile(Pos::new(0, 0, col), Registry::FLOOR).unwrap();
        }
        for col in [2, 4] {
            d.set_tile(Pos::new(1, 0, col), void).unwrap();
        }
        for col in [6, 8] {
            d.set_tile(Pos::new(1, 0, col), Registry::FLOOR).unwrap();
        }
        for col in [0, 2] {
            d.set_edge(Pos::new(0, 0, col), Direction::E, Registry::OPEN).unwrap();
        }
        for col in [2, 4, 6] {
            d.set_edge(Pos::new(1, 0, col), Direction::E, Registry::OPEN).unwrap();
        }
        let ramp = Ramp { level: 0, foot: Slot::new(0, 0), dir: Direction::E };
        d.add_ramp(ramp).unwrap();
        (d, ramp)
    }

    #[test]
    fn a_carved_ramp_has_no_problems_and_its_top_no_railing() {
        let (d, ramp) = ramped();
        assert_eq!(d.problems(), vec![]);
        let cells = d.ramp_cells(&ramp).unwrap();
        assert_eq!(cells.run, vec![Pos::new(0, 0, 2), Pos::new(0, 0, 4)]);
        assert_eq!(cells.top, Pos::new(1, 0, 6));
        let top = d.ramp_top_edge(&ramp).unwrap();
        assert!(d.is_ramp_top(1, top));
        assert!(!d.is_ramp_top(0, top));
        assert!(d.railing_edges(1).iter().all(|r| r.edge != top), "{:?}", d.railing_edges(1));
        assert!(d.drops(1).is_empty());
        assert_eq!(d.ramp_over(Pos::new(0, 0, 4)), Some(&ramp));
        assert_eq!(d.ramp_over(Pos::new(0, 0, 0)), None, "the foot is not under it");
    }

    #[test]
    fn broken_ramps_are_named_and_bad_ones_refused() {
        let (mut d, ramp) = ramped();
        d.set_tile(Pos::new(1, 0, 4), Registry::SOLID).unwrap();
        let problems = d.ramp_problems(0);
        assert_eq!(problems.len(), 1);
        let text = problems[0].to_string();
        assert!(text.contains("row 0, col 4 of level 1 over it is not void"), "{text}");
        let (mut d, _) = ramped();
        d.set_tile(Pos::new(0, 2, 2), Registry::FLOOR).unwrap();
        d.set_edge(Pos::new(0, 0, 2), Direction::S, Registry::OPEN).unwrap();
        let text = d.ramp_problems(0)[0].to_string();
        assert!(text.contains("wall S of row 0, col 2 of level 0, beside it, is carved"), "{text}");
        let (mut d, _) = ramped();
        let bad = d.add_ramp(Ramp { level: 1, ..ramp }).unwrap_err();
        assert!(matches!(bad, DungeonError::BadRamp { .. }), "{bad}");
        let bad = d.add_ramp(Ramp { dir: Direction::SE, ..ramp }).unwrap_err();
        assert!(bad.to_string().contains("north, east, south or west"), "{bad}");
        let crossing = Ramp { level: 0, foot: Slot::new(0, 2), dir: Direction::E };
        assert!(d.add_ramp(crossing).unwrap_err().to_string().contains("shares a cell"));
        assert!(d.remove_ramp(&ramp));
        assert!(d.ramps().is_empty());
    }
}
