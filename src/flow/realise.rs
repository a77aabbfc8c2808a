//! Realising a flow on the grid: rooms placed with their shapes, each connection routed as a
//! corridor (or a stair and two corridors), all of it pinned into a design that
//! [`generate_around`] fills in; then the filler is kept from joining rooms the flow does
//! not join, and the room table is written.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::FlowError;
use super::ground::{Ground, Owner};
use super::route::{self, Router, Way};
use super::shape::Shapes;
use super::site::{self, Site};
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

/// Where one connection was realised.
#[derive(Debug, Clone)]
enum Joint {
    /// A corridor on one level.
    Corridor { level: u16, way: Way },
    /// A stair on octagon `foot` of `level`, with the corridor below that reaches it and the
    /// corridor above that leaves its hole.
    Stair { level: u16, below: Way, above: Way },
}

/// One realised layout: the rooms' sites, each connection's joint, the ground.
struct Layout {
    sites: Vec<Site>,
    joints: Vec<Joint>,
    ground: Ground,
}

impl Layout {
    /// The middle octagon of room `room`: where its key goes, and the dungeon's entrance
    /// (exit) in the entrance (goal) room.
    fn middle(&self, room: usize) -> Pos {
        let site = &self.sites[room];
        Pos { level: site.level, slot: site.middle() }
    }
}

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

/// Times one layout lays a level out again, from its first room, before the layout is given
/// up and a fresh one drawn: a level that walls a room in is laid out again on the levels
/// below it, which is far cheaper than starting again.
const LEVEL_RESTARTS: u32 = 8;

/// Times, in one try of a level, a room with no place left sends the search back to the room
/// before it on its level to try that room's next place, before the level is laid out again.
const BACKTRACKS_PER_TRY: u32 = 1;

/// One room being placed in [`lay_out`]: the places it has left to try, the ground's mark
/// before it, and its connections to earlier rooms, which its place routes.
struct Frame {
    room: usize,
    mark: usize,
    places: std::vec::IntoIter<Site>,
    /// Its connections to rooms placed before it, nearest in the order first.
    links: Vec<usize>,
}

/// Rooms placed and every connection routed, or the element that failed and why. Rooms are
/// placed in [`site::placement_order`] (level by level); each where its connections to
/// earlier rooms find corridors, trying its best few places. A room with no place left sends
/// the search back to the room before it on its level, which tries its next place; failing
/// that, the level is laid out again from its first room (up to [`LEVEL_RESTARTS`] times).
fn lay_out(
    flow: &Flow,
    shapes: &mut Shapes,
    dims: crate::grid::Dims,
    levels: u16,
    gap: u32,
    rng: &mut ChaCha8Rng,
) -> Result<Layout, (String, String)> {
    let mut ground = Ground::new(dims, levels);
    let mut router = Router::default();
    let mut sites: Vec<Option<Site>> = vec![None; flow.rooms.len()];
    let mut joints: Vec<Option<Joint>> = vec![None; flow.connections.len()];
    let order = site::placement_order(flow);
    let mut rank = vec![usize::MAX; flow.rooms.len()];
    for (k, &room) in order.iter().enumerate() {
        rank[room] = k;
    }
    let mut frames: Vec<Frame> = Vec::with_capacity(order.len());
    // Per level: restarts left, and backtracks left in this try of the level.
    let mut restarts = vec![LEVEL_RESTARTS; usize::from(levels)];
    let mut backtracks = vec![BACKTRACKS_PER_TRY; usize::from(levels)];
    while frames.len() < order.len() {
        let room = order[frames.len()];
        // The room that failed and why, if one did.
        let mut failure = match open_frame(flow, shapes, &ground, &sites, room, &rank, gap, rng) {
            Ok(frame) => {
                frames.push(frame);
                None
            }
            Err(why) => Some((room, why)),
        };
        // Try the top frame's next place; when it has none, go back and try again.
        loop {
            if failure.is_none() {
                let top = frames.last_mut().expect("invariant: a frame is open");
                match next_place(top, flow, &mut router, &mut ground, &mut sites, &mut joints) {
                    Ok(()) => break,
                    Err(why) => failure = Some((top.room, why)),
                }
            }
            let (failed, why) = failure.take().expect("invariant: set above");
            let level = flow.levels[failed];
            let l = usize::from(level);
            if frames.last().is_some_and(|f| f.room == failed) {
                let top = frames.pop().expect("invariant: checked");
                undo(&top, &mut ground, &mut sites, &mut joints);
            }
            let on_level = frames.last().is_some_and(|f| flow.levels[f.room] == level);
            if on_level && backtracks[l] > 0 {
                // The room before it on its level tries its next place.
                backtracks[l] -= 1;
                continue;
            }
            if restarts[l] == 0 {
                return Err(why);
            }
            // The level again, from its first room, with fresh draws.
            restarts[l] -= 1;
            backtracks[l] = BACKTRACKS_PER_TRY;
            while frames.last().is_some_and(|f| flow.levels[f.room] == level) {
                let top = frames.pop().expect("invariant: checked");
                undo(&top, &mut ground, &mut sites, &mut joints);
            }
            break;
        }
    }
    let sites: Vec<Site> = sites.into_iter().map(|s| s.expect("invariant: every room placed")).collect();
    Ok(Layout {
        sites,
        joints: joints.into_iter().map(|j| j.expect("invariant: all routed")).collect(),
        ground,
    })
}

/// The frame of `room`: its connections to rooms placed before it (by `rank`) and its best
/// places, each where a corridor from every room it joins on its level can reach.
#[allow(clippy::too_many_arguments)]
fn open_frame(
    flow: &Flow,
    shapes: &mut Shapes,
    ground: &Ground,
    sites: &[Option<Site>],
    room: usize,
    rank: &[usize],
    gap: u32,
    rng: &mut ChaCha8Rng,
) -> Result<Frame, (String, String)> {
    let mut links: Vec<usize> = (0..flow.connections.len())
        .filter(|&c| {
            let (a, b, _, _) = flow.connections[c];
            (a == room && rank[b] < rank[room]) || (b == room && rank[a] < rank[room])
        })
        .collect();
    links.sort_by_key(|&c| {
        let (a, b, _, _) = flow.connections[c];
        (rank[if a == room { b } else { a }], c)
    });
    let level = flow.levels[room];
    let mut allowed: Option<Vec<bool>> = None;
    for &c in &links {
        let (a, b, kind, _) = flow.connections[c];
        let other = if a == room { b } else { a };
        if kind == PassageKind::Stair {
            continue;
        }
        let sources: Vec<Slot> = sites[other].as_ref().expect("invariant: placed").octagons().collect();
        let reach = route::reachable(ground, level, &sources);
        allowed = Some(match allowed {
            None => reach,
            Some(prev) => prev.iter().zip(&reach).map(|(x, y)| *x && *y).collect(),
        });
    }
    let ask = site::Ask { room, gap, allowed: allowed.as_deref() };
    let places = site::candidates(flow, shapes, ground, sites, ask, rng)
        .map_err(|why| (room_name(flow, room), why))?;
    Ok(Frame { room, mark: ground.mark(), places: places.into_iter(), links })
}

/// Places `frame`'s room at its next place whose connections all route and that walls in
/// no room still waiting for its neighbours; `Err` with the last reason when none is left.
fn next_place(
    frame: &mut Frame,
    flow: &Flow,
    router: &mut Router,
    ground: &mut Ground,
    sites: &mut [Option<Site>],
    joints: &mut [Option<Joint>],
) -> Result<(), (String, String)> {
    let room = frame.room;
    let level = flow.levels[room];
    let mut why = (room_name(flow, room), "no place for it".to_string());
    undo(frame, ground, sites, joints);
    while let Some(place) = frame.places.next() {
        for cell in place.cells() {
            ground.set(place.level, cell, Owner::Room(room));
        }
        sites[room] = Some(place);
        let mut routed = true;
        for &c in &frame.links {
            match route_connection(router, ground, flow, sites, c) {
                Some(joint) => {
                    commit(ground, c, &joint);
                    joints[c] = Some(joint);
                }
                None => {
                    let (a, b, _, _) = flow.connections[c];
                    let name = format!("connection {} ({} -> {})", c + 1, flow.rooms[a].id, flow.rooms[b].id);
                    why = (name, "no corridor finds a way between the rooms around what is placed".into());
                    routed = false;
                    break;
                }
            }
        }
        if routed && room_for_the_rest(ground, flow, sites, level) {
            return Ok(());
        }
        if routed {
            why = (
                room_name(flow, room),
                "every place for it walls in rooms whose neighbours are still to place".into(),
            );
        }
        undo(frame, ground, sites, joints);
    }
    Err(why)
}

/// Takes `frame`'s room and the connections it routed off the ground.
fn undo(frame: &Frame, ground: &mut Ground, sites: &mut [Option<Site>], joints: &mut [Option<Joint>]) {
    ground.roll_back(frame.mark);
    sites[frame.room] = None;
    for &c in &frame.links {
        joints[c] = None;
    }
}

/// How an error names room `room` of `flow`.
fn room_name(flow: &Flow, room: usize) -> String {
    format!("room {:?}", flow.rooms[room].id)
}

/// Whether every placed room on `level` that still has rooms to join there can reach free
/// ground enough for them: the free octagons it touches (joined as corridors step) at least
/// three times the largest sizes of the unplaced rooms it leads to through unplaced rooms.
/// Placing a room or a corridor that fails this walls a room into a pocket too small for
/// what hangs off it.
fn room_for_the_rest(ground: &Ground, flow: &Flow, sites: &[Option<Site>], level: u16) -> bool {
    let dims = ground.dims;
    // The pieces of free ground and their sizes, found once a room needs them (most
    // placements leave no room of the level waiting).
    let mut pieces: Option<(Vec<u32>, Vec<u32>)> = None;
    let labelled = || {
        let labels = route::pieces(ground, level);
        let mut sizes =
            vec![0u32; labels.iter().filter(|&&l| l != u32::MAX).map(|&l| l as usize + 1).max().unwrap_or(0)];
        for &l in labels.iter().filter(|&&l| l != u32::MAX) {
            sizes[l as usize] += 1;
        }
        (labels, sizes)
    };
    for (room, site) in sites.iter().enumerate() {
        let Some(site) = site.as_ref().filter(|s| s.level == level) else { continue };
        // The unplaced rooms of this level reached from `room` through unplaced rooms.
        let mut pending: Vec<usize> = Vec::new();
        let mut stack = vec![room];
        while let Some(r) = stack.pop() {
            for (other, kind) in flow.neighbours(r) {
                if kind != PassageKind::Stair && sites[other].is_none() && !pending.contains(&other) {
                    pending.push(other);
                    stack.push(other);
                }
            }
        }
        if pending.is_empty() {
            continue;
        }
        // A room of `lo` octagons needs them and some rock round them.
        let need: u32 = pending
            .iter()
            .map(|&r| {
                let lo = flow.rooms[r].size.octagons().0;
                lo + 2 * lo.isqrt() + 2
            })
            .sum();
        let (labels, sizes) = pieces.get_or_insert_with(labelled);
        let mut touched: Vec<u32> = Vec::new();
        for o in site.octagons() {
            for dir in Direction::ALL {
                let Some(next) = route::octagon_beyond(ground, o, dir) else { continue };
                let l = labels[dims.index(next).expect("invariant: on the grid")];
                if l != u32::MAX && !touched.contains(&l) {
                    touched.push(l);
                }
            }
        }
        if touched.iter().map(|&l| sizes[l as usize]).sum::<u32>() < need {
            return false;
        }
    }
    true
}

/// Routes connection `c` between two placed rooms: a corridor, or a stair with its two.
fn route_connection(
    router: &mut Router,
    ground: &mut Ground,
    flow: &Flow,
    sites: &[Option<Site>],
    c: usize,
) -> Option<Joint> {
    let (a, b, kind, _) = flow.connections[c];
    let (sa, sb) = (sites[a].as_ref()?, sites[b].as_ref()?);
    if kind == PassageKind::Stair {
        return stair_joint(router, ground, sa, sb, a, b, c);
    }
    let level = sa.level;
    let sources: Vec<Slot> = sa.octagons().collect();
    let target = |s: Slot| ground.owner(level, s) == Owner::Room(b);
    router
        .find(ground, level, &sources, sb.goal(), &target, &|_| true)
        .map(|way| Joint::Corridor { level, way })
}

/// Gives the cells of connection `c`'s joint to its corridor.
fn commit(ground: &mut Ground, c: usize, joint: &Joint) {
    let ways: Vec<(u16, &Way)> = match joint {
        Joint::Corridor { level, way } => vec![(*level, way)],
        Joint::Stair { level, below, above } => vec![(*level, below), (*level + 1, above)],
    };
    for (level, way) in ways {
        for cell in way.cells() {
            ground.set(level, cell, Owner::Corridor(c));
        }
    }
    if let Joint::Stair { level, above, .. } = joint {
        // The stair's octagon is the corridor's on both levels.
        ground.set(*level, above.octagons[0], Owner::Corridor(c));
        ground.set(*level + 1, above.octagons[0], Owner::Corridor(c));
    }
}

/// A stair between rooms `a` and `b` (on adjacent levels) for connection `c`: the octagon,
/// free on both levels, that is nearest both rooms and from which both corridors find a way;
/// the corridor above leaves the hole by the wall that becomes the stair's exit, and the
/// corridor below may not enter the stair through that wall (its landing stands there).
fn stair_joint(
    router: &mut Router,
    ground: &mut Ground,
    sa: &Site,
    sb: &Site,
    a: usize,
    b: usize,
    c: usize,
) -> Option<Joint> {
    let ((_, low_site), (high, high_site)) =
        if sa.level < sb.level { ((a, sa), (b, sb)) } else { ((b, sb), (a, sa)) };
    let level = low_site.level;
    let dims = ground.dims;
    let (lr, lc) = low_site.centre();
    let (hr, hc) = high_site.centre();
    let mut candidates: Vec<(f64, Slot)> = dims
        .cells()
        .filter(|s| s.kind() == SlotKind::Octagon)
        .filter(|&s| ground.is_free(level, s) && ground.is_free(level + 1, s))
        .map(|s| {
            let (r, col) = s.octagon_coords().expect("invariant: octagons");
            let (r, col) = (f64::from(r), f64::from(col));
            let d = ((r - lr).powi(2) + (col - lc).powi(2)).sqrt()
                + ((r - hr).powi(2) + (col - hc).powi(2)).sqrt();
            (d, s)
        })
        .collect();
    candidates.sort_by(|x, y| x.0.total_cmp(&y.0).then((x.1.row, x.1.col).cmp(&(y.1.row, y.1.col))));
    for &(_, foot) in candidates.iter().take(8) {
        ground.set(level, foot, Owner::Corridor(c));
        ground.set(level + 1, foot, Owner::Corridor(c));
        let up = |s: Slot| ground.owner(level + 1, s) == Owner::Room(high);
        if let Some(above) = router.find(ground, level + 1, &[foot], high_site.goal(), &up, &|_| true) {
            let exit = above.steps[0];
            // The corridor above is the ground's before the one below is routed.
            for cell in above.cells() {
                ground.set(level + 1, cell, Owner::Corridor(c));
            }
            let sources: Vec<Slot> = low_site.octagons().collect();
            let at_foot = |s: Slot| s == foot;
            let (r, c) = foot.octagon_coords().expect("invariant: an octagon");
            let below =
                router.find(ground, level, &sources, (r, c, r, c), &at_foot, &|dir| dir != exit.opposite());
            if let Some(below) = below {
                return Some(Joint::Stair { level, below, above });
            }
            for cell in above.cells() {
                ground.set(level + 1, cell, Owner::Free);
            }
        }
        ground.set(level, foot, Owner::Free);
        ground.set(level + 1, foot, Owner::Free);
    }
    None
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
