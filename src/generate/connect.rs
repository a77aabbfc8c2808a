//! Connectivity repair and loops. Unreachable pockets are repaired: every floor region of a
//! level that is not yet joined to the dungeon's main region is joined by carving rock along
//! the cheapest path through rock (the crate's general Dijkstra, [`crate::path::search`],
//! with the path module's step costs and the dungeon's shaft rule), nearest pocket first. Loops
//! are carved by [`super::loops`].

use std::ops::ControlFlow;

use super::carve::Locked;
#[cfg(feature = "export")]
use super::floor::OnDemand;
use super::floor::{Cells, Floor};
use crate::dungeon::Dungeon;
use crate::grid::{Pos, SlotKind};
use crate::path::search::{Parents, Search};

/// Level-local node numbering: a cell's slot index on its level.
#[derive(Clone, Copy)]
pub(super) struct Level<'a> {
    pub(super) d: &'a Dungeon,
    pub(super) level: u16,
}

impl Level<'_> {
    pub(super) fn pos(self, node: u32) -> Pos {
        Pos {
            level: self.level,
            slot: self.d.dims().slot_at(node as usize).expect("invariant: a node is a slot"),
        }
    }

    fn node(self, pos: Pos) -> u32 {
        self.d.dims().index(pos.slot).expect("invariant: a cell of the grid") as u32
    }
}

/// Joins every floor cell of `level` to the cells marked in `main` (indexed by
/// [`crate::path::node_index`]; at least one on that level), carving through rock but never
/// into, out of or next to a `locked` cell (its tile and edges stay); marks everything
/// joined in `main`. Returns the number of rock cells carved.
///
/// One search runs from the main cells through rock and floor; each time it settles a floor
/// cell outside `main` (a pocket), the path back is carved, the pocket joins `main`, and the
/// search resumes with the carved cells and the pocket as new starts at cost 0.
#[cfg(feature = "export")]
pub(crate) fn connect_level(
    d: &mut Dungeon,
    level: u16,
    main: &mut [bool],
    search: &mut Search,
    locked: Locked<'_>,
) -> usize {
    connect_level_on(d, &mut OnDemand, level, main, search, locked)
}

/// [`connect_level`], reading and carving through `floor` (kept current).
pub(crate) fn connect_level_on(
    d: &mut Dungeon,
    floor: &mut impl Cells,
    level: u16,
    main: &mut [bool],
    search: &mut Search,
    locked: Locked<'_>,
) -> usize {
    let n = d.dims().slot_count();
    let base = usize::from(level) * n;
    search.reset(n, Parents::Record);
    start_main(search, main, base, n);
    let mut carved = 0;
    loop {
        let pocket = {
            let (fl, main, dd) = (&*floor, &*main, &*d);
            search.run(
                |u| {
                    let steps = (!locked.at(u as usize)).then(|| fl.steps(dd, level, u));
                    steps
                        .into_iter()
                        .flatten()
                        .filter(move |&(v, _)| !main[base + v as usize] && !locked.at(v as usize))
                        .map(|(v, c)| (v, u64::from(c)))
                },
                |u, _| {
                    let pocket = !main[base + u as usize] && fl.carved_at(dd, level, u);
                    if pocket { ControlFlow::Break(u) } else { ControlFlow::Continue(()) }
                },
            )
        };
        let Some(u) = pocket else { break };
        let mut fresh = carve_back(d, floor, level, search.parent(u), main, search, locked);
        carved += fresh.len();
        // Take in the pocket's whole region.
        let mut stack = vec![u];
        main[base + u as usize] = true;
        while let Some(c) = stack.pop() {
            fresh.push(c);
            let dd = &*d;
            for (v, _) in floor.steps(dd, level, c) {
                if floor.carved_at(dd, level, v) && !main[base + v as usize] {
                    main[base + v as usize] = true;
                    stack.push(v);
                }
            }
        }
        // The carved path and the pocket are new starts at cost 0 (the queue pops equal
        // costs lowest node first, whatever the order they are offered in).
        for c in fresh {
            search.start(c, 0);
        }
    }
    carved
}

/// Marks in `main` (indexed by [`crate::path::node_index`]) every carved cell of `level`
/// that a marked cell of that level reaches through carved seams the shaft rule allows.
pub(crate) fn spread_over_seams(d: &Dungeon, level: u16, main: &mut [bool]) {
    let dims = d.dims();
    let n = dims.slot_count();
    let base = usize::from(level) * n;
    let mut stack: Vec<usize> = (0..n).filter(|&i| main[base + i]).collect();
    while let Some(i) = stack.pop() {
        let pos = Level { d, level }.pos(i as u32);
        for (dir, next) in super::carve::neighbours(d, pos) {
            let j = dims.index(next.slot).expect("invariant: a neighbour in the grid");
            if !main[base + j] && d.carved_seam(pos, dir).is_some() && d.shaft_allows(pos, dir) {
                main[base + j] = true;
                stack.push(j);
            }
        }
    }
}

/// Offers every cell of `main` on the level at `base` (of `n` slots) to `search` as a start
/// at cost 0.
fn start_main(search: &mut Search, main: &[bool], base: usize, n: usize) {
    for i in (0..n).filter(|&i| main[base + i]) {
        search.start(i as u32, 0);
    }
}

/// Carves the path `search` found, from `from` back to the first cell in `main`, and marks
/// it in `main`. Returns the cells carved.
fn carve_back(
    d: &mut Dungeon,
    floor: &mut impl Cells,
    level: u16,
    from: Option<u32>,
    main: &mut [bool],
    search: &Search,
    locked: Locked<'_>,
) -> Vec<u32> {
    let base = usize::from(level) * d.dims().slot_count();
    let mut carved = Vec::new();
    let mut x = from;
    while let Some(xi) = x.filter(|&xi| !main[base + xi as usize]) {
        x = search.parent(xi);
        let p = Level { d: &*d, level }.pos(xi);
        floor.carve(d, p, xi, locked);
        main[base + xi as usize] = true;
        carved.push(xi);
    }
    carved
}

/// Fills back with rock the floor cells of `level` that [`connect_level`] could not join to
/// `main` (the shaft rule walls them off: a hole is entered only through its exit, a stair
/// never through its landing's wall). Refuses, naming it, when one of them is a stair.
/// `locked` cells are left as they are (a pinned pocket stays a pocket).
#[cfg(feature = "export")]
pub(crate) fn fill_pockets(
    d: &mut Dungeon,
    level: u16,
    main: &[bool],
    locked: Locked<'_>,
) -> Result<(), String> {
    fill_pockets_on(d, &mut OnDemand, level, main, locked)
}

/// [`fill_pockets`], reading and filling through `floor` (kept current).
pub(crate) fn fill_pockets_on(
    d: &mut Dungeon,
    floor: &mut impl Cells,
    level: u16,
    main: &[bool],
    locked: Locked<'_>,
) -> Result<(), String> {
    let base = usize::from(level) * d.dims().slot_count();
    let at = Level { d: &*d, level };
    let pockets: Vec<Pos> = d
        .dims()
        .cells()
        .map(|slot| Pos { level, slot })
        .filter(|&p| !main[base + at.node(p) as usize] && floor.carved_at(at.d, level, at.node(p)))
        .filter(|&p| !locked.at(at.node(p) as usize))
        .collect();
    if let Some(foot) = pockets.iter().find(|&&p| d.is_stair(p)) {
        return Err(format!("the stair at {foot} is walled off from its level by a shaft hole or a landing"));
    }
    for p in pockets {
        let slot = Level { d: &*d, level }.node(p);
        floor.fill(d, p, slot);
    }
    Ok(())
}

/// Makes sure `level` (the last) has a floor octagon in `main` that is neither a hole nor
/// `entrance`, to hold the exit: when it has none, carves the cheapest way through rock to
/// the nearest octagon that qualifies. Refuses when none can be reached.
pub(crate) fn make_exit_room(
    d: &mut Dungeon,
    floor: &mut Floor,
    level: u16,
    entrance: Pos,
    main: &mut [bool],
    search: &mut Search,
    locked: Locked<'_>,
) -> Result<(), String> {
    let n = d.dims().slot_count();
    let base = usize::from(level) * n;
    let room = |d: &Dungeon, p: Pos| {
        p.slot.kind() == SlotKind::Octagon && p != entrance && d.stair_below(p).is_none()
    };
    let at = Level { d: &*d, level };
    if d.dims()
        .cells()
        .map(|slot| Pos { level, slot })
        .any(|p| room(d, p) && main[base + at.node(p) as usize])
    {
        return Ok(());
    }
    search.reset(n, Parents::Record);
    start_main(search, main, base, n);
    let fl = &*floor;
    let found = search.run(
        |u| {
            let steps = if locked.at(u as usize) { &[][..] } else { fl.steps(level, u) };
            steps.iter().filter(move |&&(v, _)| !locked.at(v as usize)).map(|&(v, c)| (v, u64::from(c)))
        },
        |u, _| if room(at.d, at.pos(u)) { ControlFlow::Break(u) } else { ControlFlow::Continue(()) },
    );
    let Some(u) = found else {
        return Err(format!("no octagon on level {level} can be reached to hold the exit"));
    };
    carve_back(d, floor, level, Some(u), main, search, locked);
    Ok(())
}
