//! Realising a flow on the grid: the layout of [`super::layout`] (rooms placed with their
//! shapes, each connection routed as a corridor, or a stair and two corridors) pinned into a
//! design that [`generate_around`] fills in; then the filler is kept from joining rooms the
//! flow does not join, and the room table is written.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::FlowError;
use super::ground::{Ground, Owner};
use super::layout::{Joint, Layout, lay_out};
use super::route::{self, Way};
use super::shape::Shapes;
use super::spec::{Flow, SizeSpec};
use crate::dungeon::{Dungeon, EdgeStateId, Fill, Mechanism, Passage, PassageKind, Registry, Room, RoomId};
use crate::generate::{GenerateError, GenerateOptions, Progress, generate_around};
use crate::geometry::Proportions;
use crate::grid::{Direction, Grid, Pos, Slot, SlotKind};

/// Layouts of rooms and corridors tried before a flow is refused.
const LAYOUTS: u32 = 24;

/// Layouts whose flow proof ([`super::verify`]) fails before [`realise`] gives up on a spec:
/// such a failure comes from the spec's graph far more often than from one layout.
const MAX_UNPROVED: u32 = 3;

/// Free octagons a level has for each opening from the room graph into the filler.
const OCTAGONS_PER_OPENING: usize = 40;

/// Generates a dungeon from `flow` on the size and seed of `options` (the flow decides the
/// level count). The result is one connected region; its room table holds the flow's rooms
/// and passages.
///
/// A dungeon with locks, keys or mission doors is proved ([`super::verify`]) before it is
/// returned: one that cannot be finished is never handed out.
///
/// # Errors
/// [`FlowError::Placement`] naming the room or connection the last layout could not place
/// (`the flow's proof` and its first failure when layouts could be built but not finished),
/// [`FlowError::Generate`] when the options are refused or the filler cannot be generated.
pub fn realise(
    flow: &Flow,
    options: &GenerateOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Dungeon, FlowError> {
    options.validate()?;
    let levels = flow.level_count();
    let options = GenerateOptions { levels, stairs: stairs_per_pair(flow).max(1), ..options.clone() };
    options.validate()?;
    let dims = Dungeon::check_shape(options.cols, options.rows, levels)?;
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed ^ 0x666c_6f77); // "flow"
    let mut failure = (String::from("the flow"), String::from("no layout tried"));
    let mut shapes = Shapes::new(options.rows, options.cols);
    // A room whose shape has no footprint of its size on this grid fails every layout: say
    // so at once, by name (drawn from a stream of its own: the layouts' stays as it was).
    let mut probe = ChaCha8Rng::seed_from_u64(0);
    for room in &flow.rooms {
        if shapes.draw(room.shape, room.size.octagons(), &mut probe).is_none() {
            let (lo, hi) = room.size.octagons();
            return Err(FlowError::Placement {
                element: format!("room {:?}", room.id),
                why: format!(
                    "no {} of {lo} to {hi} octagons fits in {}x{} octagons",
                    room.shape, options.cols, options.rows
                ),
                cols: options.cols,
                rows: options.rows,
                levels,
                seed: options.seed,
                tries: 0,
            });
        }
    }
    let octagons_per_room = options.cols * options.rows * levels / flow.rooms.len().max(1) as u32;
    let roomy = octagons_per_room >= 100;
    let (mut unproved, mut tried) = (0, 0);
    for attempt in 0..LAYOUTS {
        tried = attempt + 1;
        // Two octagons of rock between rooms where the grid has room for it, else one.
        let gap = if attempt < LAYOUTS / 4 && roomy { 2 } else { 1 };
        let layout = match lay_out(flow, &mut shapes, dims, levels as u16, gap, &mut rng) {
            Ok(layout) => layout,
            Err(why) => {
                failure = why;
                continue;
            }
        };
        let design = design(flow, &layout, &options, &mut rng)?;
        let generated =
            GenerateOptions { seed: options.seed.wrapping_add(u64::from(attempt)), ..options.clone() };
        let mut d = match generate_around(&generated, &design, progress) {
            Ok(d) => d,
            Err(
                e @ (GenerateError::Disconnected { .. }
                | GenerateError::BadOption { name: "keep", .. }
                | GenerateError::Level { .. }),
            ) => {
                failure = ("the filler".into(), e.to_string());
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        keep_filler_to_one_element(&mut d, &layout.ground);
        if crate::path::dungeon_regions(&d).count() != 1 {
            failure = ("the filler".into(), "a layout split into regions".into());
            continue;
        }
        finish(&mut d, flow, &layout)?;
        for room in flow.rooms.iter().filter(|r| r.atrium) {
            let Some(id) = d.room_named(&room.id) else { continue };
            let cells: Vec<Pos> = d.room_cells(id).collect();
            if let Some(level) = cells.first().map(|p| p.level) {
                let slots: Vec<_> = cells.iter().map(|p| p.slot).collect();
                crate::generate::open_atrium(&mut d, level, &slots)?;
            }
        }
        // A level that cannot be finished is never handed out: a layout whose proof fails is
        // tried again, and a spec whose layouts keep failing it is refused.
        let verdict = d.has_flow().then(|| super::verify(&d));
        if let Some(first) = verdict.as_ref().and_then(|v| v.failures.first()) {
            failure = ("the flow's proof".into(), first.to_string());
            unproved += 1;
            if unproved == MAX_UNPROVED {
                break;
            }
            continue;
        }
        d.set_seed(Some(options.seed));
        return Ok(d);
    }
    Err(FlowError::Placement {
        element: failure.0,
        why: failure.1,
        cols: options.cols,
        rows: options.rows,
        levels,
        seed: options.seed,
        tries: tried,
    })
}

/// What [`realise_grammar`] made.
#[derive(Debug, Clone, PartialEq)]
pub enum GrammarOutcome {
    /// A level of rooms.
    Rooms(Box<Dungeon>),
    /// No rooms: the grid is too small for them (a side under [`super::MIN_SIDE`]).
    TooSmall,
    /// No rooms: no layout of even the sparsest spec fitted; the error of the last try.
    NoLayout(FlowError),
}

/// Generates a dungeon from the spec a built-in grammar writes for `options` (its size,
/// levels, stairs and seed): [`realise`] of [`super::write`]'s spec; where no layout of it
/// fits, of sparser specs ([`super::write_sparser`], up to 3 steps). Where none holds rooms
/// it says why ([`GrammarOutcome`]), and the caller makes a maze there.
///
/// # Errors
/// As [`realise`] for options it refuses or a filler that cannot be generated.
pub fn realise_grammar(
    grammar: super::Grammar,
    options: &GenerateOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<GrammarOutcome, FlowError> {
    options.validate()?;
    let proportions = Proportions::default().with_cut_ratio(options.cut_ratio);
    let mut last = None;
    for sparser in 0..=3 {
        let Some(spec) = super::grammar::write_sparser(
            grammar,
            options.cols,
            options.rows,
            options.levels,
            options.stairs,
            options.seed,
            sparser,
        ) else {
            return Ok(GrammarOutcome::TooSmall);
        };
        let flow = spec.check(&proportions)?;
        match realise(&flow, options, progress) {
            Ok(d) => return Ok(GrammarOutcome::Rooms(Box::new(d))),
            Err(e @ FlowError::Placement { .. }) => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Ok(last.map_or(GrammarOutcome::TooSmall, GrammarOutcome::NoLayout))
}

/// The fewest stair connections between any two adjacent levels.
fn stairs_per_pair(flow: &Flow) -> u32 {
    let pairs = flow.level_count().saturating_sub(1);
    (0..pairs)
        .map(|l| {
            flow.connections
                .iter()
                .filter(|&&(a, b, kind, _)| {
                    kind == PassageKind::Stair && u32::from(flow.levels[a].min(flow.levels[b])) == l
                })
                .count() as u32
        })
        .min()
        .unwrap_or(0)
}

/// The design the generator fills in: every room and corridor cell carved and pinned, the
/// seams inside them open, the seams where corridors meet rooms doors or open by the
/// connection's kind, the stairs, a few openings from corridors and rooms into free ground
/// where the filler grows, and the entrance and exit in the middle of their rooms.
fn design(
    flow: &Flow,
    layout: &Layout,
    options: &GenerateOptions,
    rng: &mut ChaCha8Rng,
) -> Result<Dungeon, FlowError> {
    let proportions = Proportions::default().with_cut_ratio(options.cut_ratio);
    let mut d = Dungeon::new(options.cols, options.rows, options.levels, proportions, Fill::Solid)?;
    let ground = &layout.ground;
    let dims = d.dims();
    for level in 0..d.levels() {
        for slot in dims.cells().filter(|&s| ground.owner(level, s) != Owner::Free) {
            let pos = Pos { level, slot };
            d.set_tile(pos, Registry::FLOOR)?;
            d.set_pinned(pos, true)?;
        }
    }
    // Seams inside a room.
    for (i, site) in layout.sites.iter().enumerate() {
        for slot in site.cells() {
            open_to_same(&mut d, site.level, slot, Owner::Room(i), ground)?;
        }
    }
    // Corridors, their ends by the connection's kind, and stairs.
    for (c, joint) in layout.joints.iter().enumerate() {
        let (_, _, kind, _) = flow.connections[c];
        let (from_end, to_end) = match kind {
            PassageKind::Open | PassageKind::Stair => (Registry::OPEN, Registry::OPEN),
            PassageKind::Door => (Registry::DOOR, Registry::DOOR),
            PassageKind::Locked | PassageKind::OneWay | PassageKind::Secret => {
                (Registry::OPEN, Registry::DOOR)
            }
        };
        match joint {
            Joint::Corridor { level, way } => carve_way(&mut d, *level, way, from_end, to_end)?,
            Joint::Stair { level, below, above } => {
                let foot = above.octagons[0];
                // The room the corridor below leaves is `from` when `from` is the lower room.
                let (a, _, _, _) = flow.connections[c];
                let lower_is_from = flow.levels[a] == *level;
                let (below_end, above_end) =
                    if lower_is_from { (from_end, to_end) } else { (to_end, from_end) };
                carve_way(&mut d, *level, below, below_end, Registry::OPEN)?;
                carve_way(&mut d, *level + 1, above, Registry::OPEN, above_end)?;
                d.set_tile(Pos { level: *level, slot: foot }, Registry::STAIR)?;
            }
        }
    }
    open_into_filler(&mut d, layout, rng)?;
    d.set_entrance(Some(layout.middle(flow.entrance())))?;
    d.set_exit(Some(layout.middle(flow.goal())))?;
    Ok(d)
}

/// Opens every wall of `slot` on `level` to a cell of the same owner.
fn open_to_same(
    d: &mut Dungeon,
    level: u16,
    slot: Slot,
    owner: Owner,
    ground: &Ground,
) -> Result<(), FlowError> {
    for &dir in d.dims().walls(slot).expect("invariant: a cell") {
        if ground.beyond(slot, dir).is_some_and(|b| ground.owner(level, b) == owner) {
            d.set_edge(Pos { level, slot }, dir, Registry::OPEN)?;
        }
    }
    Ok(())
}

/// Carves the seams along `way` on `level`: the first seam (out of the first room) gets
/// `first`, the last (into the second room) `last`, the rest are open.
fn carve_way(
    d: &mut Dungeon,
    level: u16,
    way: &Way,
    first: EdgeStateId,
    last: EdgeStateId,
) -> Result<(), FlowError> {
    let seams = seams_of(way);
    let n = seams.len();
    for (i, &(slot, dir)) in seams.iter().enumerate() {
        let state = match i {
            0 => first,
            _ if i + 1 == n => last,
            _ => Registry::OPEN,
        };
        d.set_edge(Pos { level, slot }, dir, state)?;
    }
    Ok(())
}

/// The seams `way` crosses, in order, each as a cell and its wall: one long seam a
/// straight step, two short ones (into and out of the connector) a diagonal step.
fn seams_of(way: &Way) -> Vec<(Slot, Direction)> {
    let mut seams: Vec<(Slot, Direction)> = Vec::new();
    for (i, &dir) in way.steps.iter().enumerate() {
        let from = way.octagons[i];
        if dir.is_diagonal() {
            let conn = route::connector_of(from, dir);
            seams.push((from, dir));
            seams.push((conn, dir));
        } else {
            seams.push((from, dir));
        }
    }
    seams
}

/// Turns the door where each locked, one-way or secret connection's corridor enters its
/// `to` room into that kind of mission door (the registry's [`Mechanism`] states, added to
/// the dungeon's registry only when a connection asks for one): a locked door gets the
/// connection's lock id, a one-way door lets the corridor's side through into `to` only.
fn mission_doors(d: &mut Dungeon, flow: &Flow, layout: &Layout) -> Result<(), FlowError> {
    for (c, joint) in layout.joints.iter().enumerate() {
        let (_, _, kind, lock) = flow.connections[c];
        let Joint::Corridor { level, way } = joint else { continue };
        let Some(&(slot, dir)) = seams_of(way).last() else { continue };
        let pos = Pos { level: *level, slot };
        let beyond = d.dims().neighbor(slot, dir).ok().flatten().expect("invariant: a seam has two sides");
        let mechanism = match kind {
            PassageKind::Locked => Mechanism::Locked,
            PassageKind::OneWay => Mechanism::one_way(slot, beyond),
            PassageKind::Secret => Mechanism::Secret,
            PassageKind::Open | PassageKind::Door | PassageKind::Stair => continue,
        };
        let state = d.mission_state(mechanism)?;
        d.set_edge(pos, dir, state)?;
        if mechanism == Mechanism::Locked {
            d.set_lock(pos, dir, lock)?;
        }
    }
    Ok(())
}

/// A few openings from corridor and room octagons into free ground, about one per
/// [`OCTAGONS_PER_OPENING`] free octagons of a level, each onto an octagon whose whole
/// neighbourhood is free (so the cave that grows there starts in open rock).
fn open_into_filler(d: &mut Dungeon, layout: &Layout, rng: &mut ChaCha8Rng) -> Result<(), FlowError> {
    let ground = &layout.ground;
    let dims = d.dims();
    for level in 0..d.levels() {
        let free =
            dims.cells().filter(|&s| s.kind() == SlotKind::Octagon && ground.is_free(level, s)).count();
        let wanted = free / OCTAGONS_PER_OPENING;
        let mut sites: Vec<(Slot, Direction)> = Vec::new();
        for slot in dims.cells().filter(|&s| s.kind() == SlotKind::Octagon) {
            let owner = ground.owner(level, slot);
            if owner == Owner::Free
                || d.is_stair(Pos { level, slot })
                || d.stair_below(Pos { level, slot }).is_some()
            {
                continue;
            }
            for dir in Direction::CARDINALS {
                let Some(beyond) = ground.beyond(slot, dir) else { continue };
                let beyond_ok = beyond.kind() == SlotKind::Octagon
                    && ground.clear_around(level, beyond, 1, usize::MAX)
                    && Direction::DIAGONALS
                        .iter()
                        .all(|&dd| ground.beyond(beyond, dd).is_none_or(|c| ground.is_free(level, c)));
                if beyond_ok {
                    sites.push((slot, dir));
                }
            }
        }
        let mut opened: Vec<Slot> = Vec::new();
        for _ in 0..wanted {
            if sites.is_empty() {
                break;
            }
            let (slot, dir) = sites.swap_remove(rng.next_u32() as usize % sites.len());
            let beyond = ground.beyond(slot, dir).expect("invariant: listed with a cell beyond");
            let near = |s: &Slot| s.row.abs_diff(beyond.row) <= 6 && s.col.abs_diff(beyond.col) <= 6;
            if opened.iter().any(near) {
                continue;
            }
            d.set_edge(Pos { level, slot }, dir, Registry::OPEN)?;
            opened.push(beyond);
        }
    }
    Ok(())
}

/// Each connected piece of filler (carved cells outside the room graph, joined through
/// carved seams and its own stairs) keeps its openings onto one room or corridor only (the
/// first in the flow's order); its other openings are walled. The piece still reaches the
/// graph, and through it no walk leads between rooms the flow does not join.
fn keep_filler_to_one_element(d: &mut Dungeon, ground: &Ground) {
    let dims = d.dims();
    let n = dims.slot_count();
    let levels = usize::from(d.levels());
    let mut piece = vec![u32::MAX; n * levels];
    let index = |p: Pos| usize::from(p.level) * n + dims.index(p.slot).expect("invariant: a cell");
    let filler = |d: &Dungeon, p: Pos| d.is_carved(p) && ground.owner(p.level, p.slot) == Owner::Free;
    let mut pieces = 0u32;
    for start in d.cells().collect::<Vec<_>>() {
        if !filler(d, start) || piece[index(start)] != u32::MAX {
            continue;
        }
        let id = pieces;
        pieces += 1;
        piece[index(start)] = id;
        let mut stack = vec![start];
        let mut openings: Vec<(Owner, Pos, Direction)> = Vec::new();
        while let Some(p) = stack.pop() {
            let mut next: Vec<Pos> = Vec::new();
            for &dir in dims.walls(p.slot).expect("invariant: a cell") {
                if d.carved_seam(p, dir).is_none() {
                    continue;
                }
                let beyond = Pos {
                    slot: ground.beyond(p.slot, dir).expect("invariant: a carved seam has two sides"),
                    ..p
                };
                match ground.owner(beyond.level, beyond.slot) {
                    Owner::Free => next.push(beyond),
                    owner => openings.push((owner, p, dir)),
                }
            }
            if d.is_stair(p) {
                next.push(Pos { level: p.level + 1, ..p });
            }
            if let Some(foot) = d.stair_below(p) {
                next.push(foot);
            }
            for q in next {
                if filler(d, q) && piece[index(q)] == u32::MAX {
                    piece[index(q)] = id;
                    stack.push(q);
                }
            }
        }
        let Some(keep) = openings.iter().map(|o| o.0).min() else { continue };
        for &(owner, p, dir) in &openings {
            if owner != keep {
                d.set_edge(p, dir, Registry::WALL).expect("invariant: a wall with a cell beyond");
            }
        }
    }
}

/// Unpins the design, writes the room table, gives each room its height and opens its
/// pillars (unless the spec keeps them as columns).
fn finish(d: &mut Dungeon, flow: &Flow, layout: &Layout) -> Result<(), FlowError> {
    for p in d.pinned().collect::<Vec<_>>() {
        d.set_pinned(p, false)?;
    }
    for (spec, site) in flow.rooms.iter().zip(&layout.sites) {
        let cells: Vec<Pos> = site.cells().into_iter().map(|slot| Pos { level: site.level, slot }).collect();
        let room = Room {
            name: spec.id.clone(),
            role: spec.role.unwrap_or_default(),
            shape: spec.shape,
            size: SizeSpec::class_of(site.footprint.cells.len() as u32),
            level: site.level,
            height: spec.height,
        };
        d.add_room(room, &cells)?;
        if let Some(h) = spec.height {
            for &p in &cells {
                d.set_room_height(p, h)?;
            }
        }
        // An open floor, unless the spec asks for a colonnade.
        if !spec.columns {
            let mut mask = Grid::filled(d.dims(), false);
            for p in &cells {
                *mask.get_mut(p.slot).expect("invariant: a cell of the grid") = true;
            }
            d.open_pillars_within(site.level, &mask)?;
        }
    }
    for &(a, b, kind, lock) in &flow.connections {
        d.add_passage(Passage { from: RoomId(a as u16), to: RoomId(b as u16), kind, lock })?;
    }
    mission_doors(d, flow, layout)?;
    // Generation around the design keeps only an entrance on level 0, where it puts its
    // own: the entrance and exit are set again in the middle of their rooms, on any level.
    d.set_entrance(Some(layout.middle(flow.entrance())))?;
    d.set_exit(Some(layout.middle(flow.goal())))?;
    let middles: Vec<Pos> = (0..layout.sites.len()).map(|room| layout.middle(room)).collect();
    super::mission::place_keys(d, &middles)?;
    Ok(())
}
