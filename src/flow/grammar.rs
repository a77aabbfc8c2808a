//! The built-in grammars: each writes a spec scaled to the grid and seeded, so `octile
//! generate` without `--flow` builds a level of rooms (docs/flow.md, "Built-in grammars").
//!
//! Every level gets a main path of rooms (the first joined to the stair from below, the last
//! to the stair up, or the goal on the top level); `default` hangs branches off it and closes
//! one loop a level, `linear` is the main path alone, `hub` joins each level's rooms to one
//! or two hubs, `cyclic` closes up to four loops a level.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::spec::{ConnectionSpec, FLOW_FORMAT, FLOW_VERSION, FlowSpec, LevelSpec, RoomSpec, SizeSpec};
use crate::dungeon::{PassageKind, RoomRole, RoomShape, SizeClass};

/// A built-in grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grammar {
    /// A main path with branches, one loop a level.
    #[default]
    Default,
    /// A main path alone: one room after another.
    Linear,
    /// Hubs with rooms round them.
    Hub,
    /// A main path with up to four loops a level.
    Cyclic,
}

impl Grammar {
    /// Every grammar, in the order `--help` lists them.
    pub const ALL: [Grammar; 4] = [Grammar::Default, Grammar::Linear, Grammar::Hub, Grammar::Cyclic];

    /// Its name on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Grammar::Default => "default",
            Grammar::Linear => "linear",
            Grammar::Hub => "hub",
            Grammar::Cyclic => "cyclic",
        }
    }
}

impl fmt::Display for Grammar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Grammar {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Grammar::ALL.into_iter().find(|g| g.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Grammar::ALL.iter().map(|g| g.name()).collect();
            format!("unknown grammar {s:?}: one of {}", names.join(", "))
        })
    }
}

/// Smallest side, in octagons, on which a grammar writes rooms (smaller grids are mazes).
pub const MIN_SIDE: u32 = 8;

/// Octagons of a level for each room the grammars place.
const OCTAGONS_PER_ROOM: u32 = 64;

/// Most rooms a grammar puts on one level.
const MAX_ROOMS_PER_LEVEL: u32 = 32;

/// The spec `grammar` writes for `levels` levels of `cols x rows` octagons with up to
/// `stairs` stairs a level pair, drawn from `seed`; `None` when a side is below
/// [`MIN_SIDE`].
#[must_use]
pub fn write(
    grammar: Grammar,
    cols: u32,
    rows: u32,
    levels: u32,
    stairs: u32,
    seed: u64,
) -> Option<FlowSpec> {
    write_sparser(grammar, cols, rows, levels, stairs, seed, 0)
}

/// [`write()`] with fewer rooms: each `sparser` step takes a quarter of a level's rooms away
/// (at least 3 a level stay). [`super::realise_grammar`] steps down when a layout fails.
///
/// # Panics
/// Never: every level has rooms, so the stair from below finds one.
#[must_use]
pub fn write_sparser(
    grammar: Grammar,
    cols: u32,
    rows: u32,
    levels: u32,
    stairs: u32,
    seed: u64,
    sparser: u32,
) -> Option<FlowSpec> {
    if cols < MIN_SIDE || rows < MIN_SIDE || levels == 0 {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6772_616d); // "gram"
    let area = cols * rows;
    let mut per_level = (area / OCTAGONS_PER_ROOM).clamp(3, MAX_ROOMS_PER_LEVEL);
    for _ in 0..sparser {
        per_level = (per_level * 3 / 4).max(3);
    }
    // Stairs a level pair: as asked, but one per six rooms of a level at most (and at least
    // one), each joining two rooms.
    let stairs = stairs.min(per_level / 6).max(1);
    let mut w = Writer { rooms: Vec::new(), connections: Vec::new(), rng: &mut rng };
    let biggest = largest_class(cols.min(rows));
    let mut level_rooms: Vec<Vec<usize>> = Vec::new();
    for level in 0..levels {
        let main_len = match grammar {
            Grammar::Linear => per_level,
            Grammar::Hub => (per_level / 3).max(2),
            Grammar::Default | Grammar::Cyclic => (per_level * 2 / 5).max(3).min(per_level),
        };
        let mut main: Vec<usize> = Vec::new();
        for k in 0..main_len {
            let first = level == 0 && k == 0;
            let last = level + 1 == levels && k + 1 == main_len;
            let boss = level + 1 == levels && k + 2 == main_len && main_len >= 4;
            let (role, shape, size) = if first {
                (RoomRole::Entrance, RoomShape::Hall, SizeClass::Medium.min(biggest))
            } else if last {
                (RoomRole::Goal, RoomShape::Rotunda, SizeClass::Large.min(biggest))
            } else if boss {
                (RoomRole::Boss, RoomShape::Arena, SizeClass::Large.min(biggest))
            } else if k == main_len / 2 && area >= 900 {
                (RoomRole::Hub, RoomShape::Hall, SizeClass::Huge.min(biggest))
            } else {
                let (shape, size) = w.plain(biggest);
                (RoomRole::Plain, shape, size)
            };
            let room = w.room(level, role, shape, size);
            if let Some(&prev) = main.last() {
                let kind = w.door_or_open();
                w.connect(prev, room, kind);
            }
            main.push(room);
        }
        let mut all = main.clone();
        match grammar {
            Grammar::Linear => {}
            Grammar::Hub => {
                // The main path's rooms are hubs; the rest sit round them.
                for &h in &main {
                    if w.rooms[h].role == Some(RoomRole::Plain) {
                        w.rooms[h].role = Some(RoomRole::Hub);
                        w.rooms[h].shape = RoomShape::Rotunda;
                    }
                }
                for k in 0..per_level - main_len {
                    let hub = main[k as usize % main.len()];
                    let (shape, size) = w.plain(biggest);
                    let room = w.room(level, RoomRole::Plain, shape, size);
                    let kind = w.door_or_open();
                    w.connect(hub, room, kind);
                    all.push(room);
                }
            }
            Grammar::Default | Grammar::Cyclic => {
                // Branches off the main path, each one or two rooms long; the last room of a
                // branch holds treasure.
                let mut left = per_level - main_len;
                let mut ends = Vec::new();
                while left > 0 {
                    let at = main[w.below(main.len() as u32) as usize];
                    let len = (1 + w.below(2)).min(left);
                    let mut prev = at;
                    for j in 0..len {
                        let treasure = j + 1 == len && w.below(2) == 0;
                        let (shape, size) =
                            if treasure { (RoomShape::Hall, SizeClass::Small) } else { w.plain(biggest) };
                        let role = if treasure { RoomRole::Treasure } else { RoomRole::Plain };
                        let room = w.room(level, role, shape, size);
                        let kind = w.door_or_open();
                        w.connect(prev, room, kind);
                        all.push(room);
                        prev = room;
                    }
                    ends.push((at, prev));
                    left -= len;
                }
                // Loops: a branch's end joined back to the main path a room or two along.
                let loops = if grammar == Grammar::Cyclic { 4 } else { 1 };
                for &(at, end) in ends.iter().filter(|(at, end)| at != end).take(loops) {
                    let i = main.iter().position(|&m| m == at).expect("invariant: a main-path room");
                    let back = if i + 1 < main.len() {
                        main[i + 1]
                    } else if i > 0 {
                        main[i - 1]
                    } else {
                        continue;
                    };
                    if !w.joined(end, back) && w.rooms[end].role != Some(RoomRole::Treasure) {
                        w.connect(end, back, PassageKind::Door);
                    }
                }
            }
        }
        // Where ways meet, a hub.
        for &r in &all {
            if w.rooms[r].role == Some(RoomRole::Plain) && w.degree(r) >= super::roles::HUB_DEGREE {
                w.rooms[r].role = Some(RoomRole::Hub);
            }
        }
        if level > 0 {
            // The stair from below reaches the first room of this level's main path; more
            // stairs join other rooms of the two levels.
            let below = &level_rooms[(level - 1) as usize];
            let below_last = *below
                .iter()
                .rev()
                .find(|&&r| w.rooms[r].role != Some(RoomRole::Treasure))
                .expect("invariant: rooms");
            w.connect(below_last, main[0], PassageKind::Stair);
            for _ in 1..stairs.max(1) {
                let from = below[w.below(below.len() as u32) as usize];
                let to = all[w.below(all.len() as u32) as usize];
                if !w.joined(from, to) {
                    w.connect(from, to, PassageKind::Stair);
                }
            }
        }
        level_rooms.push(all);
    }
    Some(FlowSpec {
        format: FLOW_FORMAT.into(),
        version: FLOW_VERSION,
        rooms: w.rooms,
        connections: w.connections,
        cycles: Vec::new(),
    })
}

/// The largest size class a grid whose shorter side is `side` octagons holds comfortably.
fn largest_class(side: u32) -> SizeClass {
    match side {
        0..=9 => SizeClass::Small,
        10..=15 => SizeClass::Medium,
        16..=27 => SizeClass::Large,
        _ => SizeClass::Huge,
    }
}

/// A spec being written.
struct Writer<'a> {
    rooms: Vec<RoomSpec>,
    connections: Vec<ConnectionSpec>,
    rng: &'a mut ChaCha8Rng,
}

impl Writer<'_> {
    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: u32) -> u32 {
        if n == 0 { 0 } else { self.rng.next_u32() % n }
    }

    /// A plain room's shape and size, no larger than `biggest`.
    fn plain(&mut self, biggest: SizeClass) -> (RoomShape, SizeClass) {
        const SHAPES: [RoomShape; 8] = [
            RoomShape::Hall,
            RoomShape::Hall,
            RoomShape::LBend,
            RoomShape::Tee,
            RoomShape::Cavern,
            RoomShape::Cavern,
            RoomShape::Rotunda,
            RoomShape::Corridor,
        ];
        let shape = SHAPES[self.below(SHAPES.len() as u32) as usize];
        let size = match (shape, self.below(6)) {
            (RoomShape::Corridor, _) => SizeClass::Small,
            (_, 0 | 1) => SizeClass::Small,
            (_, 5) => SizeClass::Large,
            _ => SizeClass::Medium,
        };
        (shape, size.min(biggest))
    }

    /// A fresh room; its id says its level and number.
    fn room(&mut self, level: u32, role: RoomRole, shape: RoomShape, size: SizeClass) -> usize {
        let n = self.rooms.iter().filter(|r| r.level == LevelSpec::One(level)).count() + 1;
        let id = match role {
            RoomRole::Entrance | RoomRole::Goal | RoomRole::Boss => role.name().to_string(),
            _ => format!("L{level}-{}{n}", role.name()),
        };
        // Now and then a hall keeps its pillars: a colonnade. A great hall is taller.
        let columns = shape == RoomShape::Hall && self.below(4) == 0;
        let height = (size == SizeClass::Huge || role == RoomRole::Boss).then_some(7.0);
        self.rooms.push(RoomSpec {
            id,
            role: Some(role),
            size: SizeSpec::Class(size),
            shape,
            level: LevelSpec::One(level),
            height,
            columns,
            atrium: false,
        });
        self.rooms.len() - 1
    }

    /// A door mostly, now and then an open way.
    fn door_or_open(&mut self) -> PassageKind {
        if self.below(4) == 0 { PassageKind::Open } else { PassageKind::Door }
    }

    fn connect(&mut self, a: usize, b: usize, kind: PassageKind) {
        let (from, to) = (self.rooms[a].id.clone(), self.rooms[b].id.clone());
        self.connections.push(ConnectionSpec { from, to, kind, lock: None });
    }

    fn joined(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.rooms[a].id, &self.rooms[b].id);
        self.connections.iter().any(|c| (&c.from == x && &c.to == y) || (&c.from == y && &c.to == x))
    }

    fn degree(&self, a: usize) -> usize {
        let x = &self.rooms[a].id;
        self.connections.iter().filter(|c| &c.from == x || &c.to == x).count()
    }
}
