//! What passes sight: the one place that turns the dungeon's registry flags into "this
//! cell / this seam lets sight through" ([`cell_passes_sight`], [`seam_passes_sight`]),
//! and the source trait every sight query reads them through ([`Opacity`]), so a game can
//! lay smoke or darkness over sight ([`Veil`], laid over the dungeon as an [`Overlay`])
//! without touching the dungeon. Line of
//! sight, field of view and footprints all ask a source, and the dungeon's own answers
//! are read on every call (no cached copy), so an edge state changed on the dungeon (a door
//! opened or closed) is seen by the next query.

use std::collections::BTreeSet;

use glam::DVec2;

use crate::dungeon::{Carve, Dungeon};
use crate::geometry::make_positive;
use crate::grid::{Direction, PillarId, Pos, SlotKind, octagon_wall};

/// A source of opacity: what the sight queries ([`super::line_of_sight`],
/// [`super::field_of_view`], [`super::bolt`], ...) ask about each cell and seam they meet.
/// The geometry (the plan of cells, seams and pillars) is always the dungeon's
/// ([`Opacity::dungeon`]); a source only says which pieces let sight through.
///
/// Contract: off the map the answer is opaque. A position that is not a cell of the
/// dungeon does not pass sight, and a wall on the grid's border or beyond it has no seam.
/// A source may only make pieces opaque that its dungeon's geometry has (it cannot carve a
/// seam the dungeon walls off): [`Opacity::seam_sight`] answers `Some(Carve::Door)` only
/// where the dungeon's seam carves a door-wide passage.
///
/// [`Dungeon`] is the plain source (its registry's `opaque` flags); a [`Veil`] laid over
/// any source ([`Overlay`]) adds opacity; a game's own type can implement the trait as
/// well.
pub trait Opacity {
    /// The dungeon whose plan sight is measured against.
    fn dungeon(&self) -> &Dungeon;

    /// True when the cell at `pos` lets sight through; false off the map and for a
    /// position that is not a cell.
    fn cell_passes(&self, pos: Pos) -> bool;

    /// How sight crosses the seam beyond wall `dir` of the cell at `pos`: `Some(Carve::Full)`
    /// through the whole seam, `Some(Carve::Door)` only through its door-wide passage,
    /// `None` not at all (and on the grid's border, off the map, or when either cell does
    /// not pass sight).
    fn seam_sight(&self, pos: Pos, dir: Direction) -> Option<Carve>;

    /// True when the pillar `pillar` of `level` lets sight through: the dungeon has it open
    /// ([`pillar_passes_sight`]) and this source lets sight through its three cells.
    fn pillar_passes(&self, level: u16, pillar: PillarId) -> bool {
        pillar_passes_sight(self.dungeon(), level, pillar)
            && pillar.cells().into_iter().all(|slot| self.cell_passes(Pos { level, slot }))
    }
}

impl Opacity for Dungeon {
    #[inline]
    fn dungeon(&self) -> &Dungeon {
        self
    }

    #[inline]
    fn cell_passes(&self, pos: Pos) -> bool {
        cell_passes_sight(self, pos)
    }

    #[inline]
    fn seam_sight(&self, pos: Pos, dir: Direction) -> Option<Carve> {
        seam_sight(self, pos, dir)
    }
}

impl<T: Opacity + ?Sized> Opacity for &T {
    #[inline]
    fn dungeon(&self) -> &Dungeon {
        (**self).dungeon()
    }

    #[inline]
    fn cell_passes(&self, pos: Pos) -> bool {
        (**self).cell_passes(pos)
    }

    #[inline]
    fn seam_sight(&self, pos: Pos, dir: Direction) -> Option<Carve> {
        (**self).seam_sight(pos, dir)
    }
}

/// Extra opacity kept apart from the dungeon: smoke or magical darkness filling cells, a
/// curtain drawn across one seam. A veil owns only its own blocks (no borrow of the
/// dungeon), so a game keeps it in its state next to the dungeon and the path graph, and
/// lays it over a source for a turn's queries with [`Veil::over`]. Building one copies
/// nothing of the dungeon; an empty veil changes nothing.
///
/// A blocked cell does not pass sight, and so neither do the seams beside it (the seam
/// rule of [`seam_passes_sight`]); a blocked edge stops sight through its seam from both
/// sides. A veil only adds opacity: it never clears what its source blocks.
///
/// ```
/// use octile::dungeon::{Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::{Pos, Slot};
/// use octile::sight::{Veil, field_of_view, line_of_sight};
///
/// // A corridor of five octagons, all open.
/// let dungeon = Dungeon::new(5, 1, 1, Proportions::default(), Fill::Floor)?;
/// let (west, east) = (Pos::new(0, 0, 0), Pos::new(0, 0, 8));
/// assert!(line_of_sight(&dungeon, west, east)?);
///
/// // Smoke fills the middle octagon: it hides what lies beyond, the dungeon is untouched.
/// let mut smoke = Veil::new();
/// smoke.block_cell(Pos::new(0, 0, 4));
/// assert!(!line_of_sight(&smoke.over(&dungeon), west, east)?);
/// let seen = field_of_view(&smoke.over(&dungeon), west, 100.0)?;
/// assert!(seen.contains(Slot::new(0, 2)) && !seen.contains(Slot::new(0, 6)));
/// assert!(line_of_sight(&dungeon, west, east)?, "the plain view is unchanged");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A game's own source is a newtype that implements [`Opacity`] by asking the dungeon and
/// adding its rule, here darkness everywhere beyond a torch's row:
///
/// ```
/// use octile::dungeon::{Carve, Dungeon, Fill};
/// use octile::geometry::Proportions;
/// use octile::grid::{Direction, Pos};
/// use octile::sight::{Opacity, line_of_sight};
///
/// struct Dark<'a> {
///     dungeon: &'a Dungeon,
///     lit_row: u32,
/// }
///
/// impl Opacity for Dark<'_> {
///     fn dungeon(&self) -> &Dungeon {
///         self.dungeon
///     }
///     fn cell_passes(&self, pos: Pos) -> bool {
///         pos.slot.row == self.lit_row && self.dungeon.cell_passes(pos)
///     }
///     fn seam_sight(&self, pos: Pos, dir: Direction) -> Option<Carve> {
///         let beyond = self.dungeon.dims().neighbor(pos.slot, dir).ok()??;
///         let lit = self.cell_passes(pos) && self.cell_passes(Pos { slot: beyond, ..pos });
///         lit.then(|| self.dungeon.seam_sight(pos, dir)).flatten()
///     }
/// }
///
/// let dungeon = Dungeon::new(3, 2, 1, Proportions::default(), Fill::Floor)?;
/// let dark = Dark { dungeon: &dungeon, lit_row: 0 };
/// assert!(line_of_sight(&dark, Pos::new(0, 0, 0), Pos::new(0, 0, 4))?);
/// assert!(!line_of_sight(&dark, Pos::new(0, 0, 0), Pos::new(0, 2, 0))?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Veil {
    cells: BTreeSet<Pos>,
    /// Keyed by the edge's two cells, the lesser first.
    edges: BTreeSet<(Pos, Pos)>,
}

impl Veil {
    /// An empty veil.
    #[must_use]
    pub fn new() -> Veil {
        Veil::default()
    }

    /// The veil laid over `source` (a dungeon, or another veil laid over one): the
    /// [`Opacity`] source every sight query takes. Veils stack:
    /// `darkness.over(&smoke.over(&dungeon))`.
    #[must_use]
    pub fn over<'a, O: Opacity + ?Sized>(&'a self, source: &'a O) -> Overlay<'a, O> {
        Overlay { source, veil: self }
    }

    /// Makes the cell at `pos` opaque (smoke, darkness). A position that is not a cell is
    /// kept but never read.
    pub fn block_cell(&mut self, pos: Pos) -> &mut Self {
        self.cells.insert(pos);
        self
    }

    /// Makes the seam beyond wall `dir` of the cell at `pos` opaque from both sides (a
    /// curtain). A direction that is not a wall of the cell (a cardinal of a connector, any
    /// of a Void slot) or that leads off the grid's top or left edge is ignored.
    pub fn block_edge(&mut self, pos: Pos, dir: Direction) -> &mut Self {
        if let Some(key) = edge_key(pos, dir) {
            self.edges.insert(key);
        }
        self
    }

    /// Lifts the veil's block of the cell at `pos`; true when it had one.
    pub fn clear_cell(&mut self, pos: Pos) -> bool {
        self.cells.remove(&pos)
    }

    /// Lifts the veil's block of the seam beyond wall `dir` of `pos`; true when it had one.
    pub fn clear_edge(&mut self, pos: Pos, dir: Direction) -> bool {
        edge_key(pos, dir).is_some_and(|key| self.edges.remove(&key))
    }

    /// True when the veil blocks the cell at `pos` (whatever its source says).
    #[must_use]
    pub fn blocks_cell(&self, pos: Pos) -> bool {
        self.cells.contains(&pos)
    }

    /// True when the veil blocks the seam beyond wall `dir` of `pos`.
    #[must_use]
    pub fn blocks_edge(&self, pos: Pos, dir: Direction) -> bool {
        edge_key(pos, dir).is_some_and(|key| self.edges.contains(&key))
    }

    /// True when the veil blocks nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty() && self.edges.is_empty()
    }
}

/// The edge beyond wall `dir` of the cell at `pos` as its two cells, the lesser first
/// (the grid's wall table: [`octagon_wall`] for an octagon, the diagonal's unit step for a
/// connector); `None` when `dir` is not a wall of that cell or the cell beyond would lie
/// at a negative row or column.
fn edge_key(pos: Pos, dir: Direction) -> Option<(Pos, Pos)> {
    let (dr, dc) = match pos.slot.kind() {
        SlotKind::Octagon => octagon_wall(dir).1,
        SlotKind::Connector if dir.is_diagonal() => dir.unit(),
        _ => return None,
    };
    let beyond = Pos { slot: pos.slot.offset(dr, dc)?, ..pos };
    Some(if pos <= beyond { (pos, beyond) } else { (beyond, pos) })
}

/// A [`Veil`] laid over a source ([`Veil::over`]): what sight sees through the veil.
#[derive(Debug)]
pub struct Overlay<'a, O: Opacity + ?Sized = Dungeon> {
    source: &'a O,
    veil: &'a Veil,
}

impl<O: Opacity + ?Sized> Clone for Overlay<'_, O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O: Opacity + ?Sized> Copy for Overlay<'_, O> {}

impl<O: Opacity + ?Sized> Overlay<'_, O> {
    /// The veil laid over the source.
    #[must_use]
    pub fn veil(&self) -> &Veil {
        self.veil
    }
}

impl<O: Opacity + ?Sized> Opacity for Overlay<'_, O> {
    fn dungeon(&self) -> &Dungeon {
        self.source.dungeon()
    }

    fn cell_passes(&self, pos: Pos) -> bool {
        !self.veil.cells.contains(&pos) && self.source.cell_passes(pos)
    }

    fn seam_sight(&self, pos: Pos, dir: Direction) -> Option<Carve> {
        if self.veil.is_empty() {
            return self.source.seam_sight(pos, dir);
        }
        let key = edge_key(pos, dir)?;
        let veil = self.veil;
        let clear =
            !veil.cells.contains(&key.0) && !veil.cells.contains(&key.1) && !veil.edges.contains(&key);
        clear.then(|| self.source.seam_sight(pos, dir)).flatten()
    }
}

/// True when the cell at `pos` lets sight through: its tile is carved and not `opaque` in
/// the registry. False for rock, an opaque tile and a position that is not a cell.
#[must_use]
pub fn cell_passes_sight(dungeon: &Dungeon, pos: Pos) -> bool {
    dungeon.tile_def(pos).is_ok_and(|t| t.carved && !t.opaque)
}

/// True when sight can cross wall `dir` of the cell at `pos`: the seam beyond it is carved
/// ([`Dungeon::carved_seam`]: open, or a door-wide passage), its edge state is not `opaque`
/// in the registry, and both cells pass sight ([`cell_passes_sight`]). A closed door is
/// opaque; the same edge set to a non-opaque state passes.
#[must_use]
pub fn seam_passes_sight(dungeon: &Dungeon, pos: Pos, dir: Direction) -> bool {
    seam_sight(dungeon, pos, dir).is_some()
}

/// How sight crosses the seam beyond wall `dir` of the cell at `pos`: `Some(Carve::Full)`
/// through the whole seam (an open edge), `Some(Carve::Door)` only through the door-wide
/// passage ([`door_passage`]), `None` not at all ([`seam_passes_sight`] is false).
#[must_use]
pub(crate) fn seam_sight(dungeon: &Dungeon, pos: Pos, dir: Direction) -> Option<Carve> {
    let def = dungeon.carved_seam(pos, dir)?;
    let other = dungeon.dims().neighbor(pos.slot, dir).ok()??;
    let clear = !def.opaque
        && cell_passes_sight(dungeon, pos)
        && cell_passes_sight(dungeon, Pos { slot: other, ..pos });
    clear.then_some(def.carve)
}

/// True when sight crosses `pillar` on `level`: it is open
/// ([`Dungeon::is_pillar_open`]) and its three cells and three seams pass sight
/// ([`cell_passes_sight`], and no seam's edge state is `opaque`).
#[must_use]
pub fn pillar_passes_sight(dungeon: &Dungeon, level: u16, pillar: PillarId) -> bool {
    if !dungeon.is_pillar_open(level, pillar) {
        return false;
    }
    let cells = pillar.cells().into_iter().all(|slot| cell_passes_sight(dungeon, Pos { level, slot }));
    let seams = pillar.seams().into_iter().all(|seam| {
        let state = dungeon.edge_state_of(level, seam).ok();
        state.and_then(|s| dungeon.registry().edge_def(s)).is_some_and(|def| !def.opaque)
    });
    cells && seams
}

/// The door-wide passage through the seam beyond wall `dir` of the cell at `pos`, as a
/// positively wound quad in world `(x, z)` metres ([`crate::geometry::Layout::door`], the
/// opening [`crate::geometry::Layout::door_opening`] gives each side). `None` on the
/// grid's border.
#[must_use]
pub(crate) fn door_passage(dungeon: &Dungeon, pos: Pos, dir: Direction) -> Option<[DVec2; 4]> {
    let dims = dungeon.dims();
    let sides = dims.edge_sides(dims.edge(pos.slot, dir).ok()??).ok()?;
    Some(make_positive(dungeon.layout().door(sides[0], sides[1])?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry, TileDef};
    use crate::geometry::{Proportions, signed_area};
    use crate::grid::Slot;
    use crate::sight::{bolt, field_of_view, line_of_sight};

    /// A 7x6 hall with some walls, and the same hall with "smoke" written in as a carved,
    /// opaque tile on `smoke`: the dungeon a game had to build before overlays.
    fn hall_and_smoked(smoke: &[Pos]) -> (Dungeon, Dungeon) {
        let mut registry = Registry::standard();
        let fog = registry.add_tile(TileDef { opaque: true, ..TileDef::floor("smoke", '~') }).unwrap();
        let mut d = Dungeon::with_registry(7, 6, 1, Proportions::default(), registry, Fill::Floor).unwrap();
        for (row, col, dir) in
            [(2, 2, Direction::E), (4, 6, Direction::S), (3, 5, Direction::NE), (6, 8, Direction::W)]
        {
            d.set_edge(Pos::new(0, row, col), dir, Registry::WALL).unwrap();
        }
        let mut smoked = d.clone();
        for &p in smoke {
            smoked.set_tile(p, fog).unwrap();
        }
        (d, smoked)
    }

    #[test]
    fn smoke_over_sight_sees_what_smoke_written_into_the_dungeon_sees() {
        let smoke = [Pos::new(0, 4, 4), Pos::new(0, 5, 5), Pos::new(0, 2, 8), Pos::new(0, 8, 2)];
        let (d, smoked) = hall_and_smoked(&smoke);
        let before = d.clone();
        let mut veil = Veil::new();
        for &p in &smoke {
            veil.block_cell(p);
        }
        let overlay = veil.over(&d);
        let mut differs = 0;
        for viewer in d.dims().cells().map(|slot| Pos { level: 0, slot }) {
            let through = field_of_view(&overlay, viewer, 60.0).unwrap();
            assert_eq!(through, field_of_view(&smoked, viewer, 60.0).unwrap(), "from {viewer}");
            differs += usize::from(through != field_of_view(&d, viewer, 60.0).unwrap());
        }
        assert!(differs > 20, "the smoke hides something from most places: {differs}");
        let (a, b) = (Pos::new(0, 0, 0), Pos::new(0, 10, 12));
        assert_eq!(line_of_sight(&overlay, a, b).unwrap(), line_of_sight(&smoked, a, b).unwrap());
        assert_eq!(d, before, "the dungeon is untouched");
        assert!(veil.clear_cell(smoke[0]) && !veil.clear_cell(smoke[0]));
        assert!(!veil.blocks_cell(smoke[0]) && veil.blocks_cell(smoke[1]));
    }

    #[test]
    fn a_blocked_edge_stops_sight_both_ways_and_overlays_stack() {
        let d = Dungeon::new(3, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        let (west, mid, east) = (Pos::new(0, 0, 0), Pos::new(0, 0, 2), Pos::new(0, 0, 4));
        let mut veil = Veil::new();
        veil.block_edge(mid, Direction::E);
        assert!(veil.blocks_edge(east, Direction::W), "one edge, seen from both sides");
        let curtain = veil.over(&d);
        assert!(!line_of_sight(&curtain, west, east).unwrap());
        assert!(!line_of_sight(&curtain, east, west).unwrap());
        assert!(line_of_sight(&curtain, west, mid).unwrap());
        let shot = bolt(&curtain, west, east, |_| false).unwrap();
        assert_eq!(shot.path, [west, mid]);
        // Smoke over the curtain: the west cell is dark too.
        let mut dark = Veil::new();
        dark.block_cell(west);
        let smoke = dark.over(&curtain);
        assert!(!smoke.cell_passes(west) && smoke.seam_sight(west, Direction::E).is_none());
        assert_eq!(field_of_view(&smoke, mid, 50.0).unwrap().iter().collect::<Vec<_>>(), [Slot::new(0, 2)]);
        assert_eq!(smoke.veil(), &dark);
        assert!(veil.clear_edge(east, Direction::W));
        assert!(line_of_sight(&veil.over(&d), west, east).unwrap());
        // Off the map is opaque, through any source; a wall the cell has not, or one off the
        // grid's edge, is not kept.
        let off = Pos::new(0, 0, 9);
        let curtain = veil.over(&d);
        assert!(!curtain.cell_passes(off) && curtain.seam_sight(off, Direction::E).is_none());
        assert!(veil.block_edge(west, Direction::N).is_empty());
        assert!(veil.block_edge(Pos::new(0, 1, 1), Direction::N).is_empty(), "not a wall of a connector");
        assert_eq!(Opacity::seam_sight(&&d, Pos::new(1, 0, 0), Direction::E), None, "no level 1");
    }

    #[test]
    fn doors_open_a_door_wide_passage_only_when_not_opaque() {
        let mut d = Dungeon::new(2, 1, 1, Proportions::default(), Fill::Floor).unwrap();
        let pos = Pos::new(0, 0, 0);
        assert_eq!(seam_sight(&d, pos, Direction::E), Some(Carve::Full));
        d.set_edge(pos, Direction::E, Registry::DOOR).unwrap();
        assert_eq!(seam_sight(&d, pos, Direction::E), None, "a closed door is opaque");
        let mut registry = d.registry().clone();
        let mut open_door = registry.edge_def(Registry::DOOR).unwrap().clone();
        open_door.name = "open_door".into();
        open_door.symbol = 'd';
        open_door.opaque = false;
        let open = registry.add_edge(open_door).unwrap();
        let mut d = Dungeon::with_registry(2, 1, 1, Proportions::default(), registry, Fill::Floor).unwrap();
        d.set_edge(pos, Direction::E, open).unwrap();
        assert_eq!(seam_sight(&d, pos, Direction::E), Some(Carve::Door));
        let door = door_passage(&d, pos, Direction::E).unwrap();
        let whole = d.layout().long_seam(crate::grid::Slot::new(0, 1)).unwrap();
        assert!(signed_area(&door) > 0.0 && signed_area(&door) < signed_area(&whole));
        d.set_tile(Pos::new(0, 0, 2), Registry::SOLID).unwrap();
        assert!(!seam_passes_sight(&d, pos, Direction::E), "rock beyond blocks the seam");
    }
}
