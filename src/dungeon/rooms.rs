//! The room table: which cells form the rooms a level was built from, with each room's
//! purpose, shape and size, and the passages between rooms. Generation from a room graph
//! ([`crate::flow`]) writes it; the plan, `octile info`, the glTF node extras and the viewer
//! read it; it is saved in the dungeon file (version 3). A dungeon made cell by cell has an
//! empty table.
//!
//! The table labels cells; it does not decide what they are. Painting a labelled cell rock
//! leaves its label (the room is then smaller on the map than in the table), so readers ask
//! [`Dungeon::room_at`] together with [`Dungeon::is_carved`].

use std::fmt;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::{Dungeon, DungeonError};
use crate::grid::{Grid, Pos};

/// A room's index in its dungeon's table ([`Dungeon::rooms`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoomId(pub u16);

/// What a room is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RoomRole {
    /// Where the player starts: the dungeon's entrance lies in it.
    Entrance,
    /// Where the level ends: the dungeon's exit lies in it.
    Goal,
    /// A boss's room, usually next to the goal.
    Boss,
    /// A treasure room, usually at the end of a branch.
    Treasure,
    /// A room that holds a key.
    Key,
    /// A room where several ways meet.
    Hub,
    /// A room reached only through a secret passage.
    Secret,
    /// Any other room.
    #[default]
    Plain,
}

/// The channels of a `#rrggbb` colour of the crate's own tables (lowercase hex digits).
pub(crate) fn hex_rgb(hex: &str) -> [u8; 3] {
    let hex = hex.as_bytes();
    let nibble = |c: u8| match c {
        b'0'..=b'9' => c - b'0',
        _ => c - b'a' + 10,
    };
    [1, 3, 5].map(|i| nibble(hex[i]) * 16 + nibble(hex[i + 1]))
}

impl RoomRole {
    /// Every role, in the order the file format and the docs list them.
    pub const ALL: [RoomRole; 8] = [
        RoomRole::Entrance,
        RoomRole::Goal,
        RoomRole::Boss,
        RoomRole::Treasure,
        RoomRole::Key,
        RoomRole::Hub,
        RoomRole::Secret,
        RoomRole::Plain,
    ];

    /// The role's name in files and on the command line (`entrance`, `goal`, ...).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RoomRole::Entrance => "entrance",
            RoomRole::Goal => "goal",
            RoomRole::Boss => "boss",
            RoomRole::Treasure => "treasure",
            RoomRole::Key => "key",
            RoomRole::Hub => "hub",
            RoomRole::Secret => "secret",
            RoomRole::Plain => "plain",
        }
    }

    /// The role's tint as an sRGB colour `#rrggbb`: rooms of this role on the plan, its
    /// legend and the viewer's top view.
    #[must_use]
    pub fn tint(self) -> &'static str {
        match self {
            RoomRole::Entrance => "#8fd18a",
            RoomRole::Goal => "#f08f7c",
            RoomRole::Boss => "#c49be0",
            RoomRole::Treasure => "#f2d279",
            RoomRole::Key => "#8ed3e6",
            RoomRole::Hub => "#a9c1ee",
            RoomRole::Secret => "#bdbdbd",
            RoomRole::Plain => "#e9dcc0",
        }
    }

    /// [`RoomRole::tint`] as 8-bit sRGB channels.
    #[must_use]
    pub fn tint_rgb(self) -> [u8; 3] {
        hex_rgb(self.tint())
    }

    /// The role's place in [`RoomRole::ALL`].
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for RoomRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The outline of a room, in octagons (docs/flow.md draws each).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum RoomShape {
    /// A full rectangle of octagons, at least 2 each way.
    #[default]
    Hall,
    /// A plus-shaped cross: a rectangle of at least 3x3 octagons less a square from each
    /// corner.
    Arena,
    /// Two arms at a right angle: a rectangle less one corner rectangle.
    LBend,
    /// A bar with a stem from its middle: a rectangle less two corner rectangles on one side.
    Tee,
    /// An irregular blob of octagons, joined through long edges.
    Cavern,
    /// A round room: a square of octagons less a triangle at each corner.
    Rotunda,
    /// A long room one octagon wide: a gallery.
    Corridor,
}

impl RoomShape {
    /// Every shape, in the order the docs list them.
    pub const ALL: [RoomShape; 7] = [
        RoomShape::Hall,
        RoomShape::Arena,
        RoomShape::LBend,
        RoomShape::Tee,
        RoomShape::Cavern,
        RoomShape::Rotunda,
        RoomShape::Corridor,
    ];

    /// The shape's name in files (`hall`, `arena`, `l-bend`, ...).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RoomShape::Hall => "hall",
            RoomShape::Arena => "arena",
            RoomShape::LBend => "l-bend",
            RoomShape::Tee => "tee",
            RoomShape::Cavern => "cavern",
            RoomShape::Rotunda => "rotunda",
            RoomShape::Corridor => "corridor",
        }
    }
}

impl fmt::Display for RoomShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How big a room is, counted in its octagons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SizeClass {
    /// 2 to 6 octagons: a closet, a guard room.
    Small,
    /// 7 to 15 octagons.
    #[default]
    Medium,
    /// 16 to 30 octagons: a hall.
    Large,
    /// 31 to 64 octagons: a great hall, an arena.
    Huge,
}

impl SizeClass {
    /// Every size class, smallest first.
    pub const ALL: [SizeClass; 4] = [SizeClass::Small, SizeClass::Medium, SizeClass::Large, SizeClass::Huge];

    /// The octagon counts a room of this class may have.
    #[must_use]
    pub fn octagons(self) -> RangeInclusive<u32> {
        match self {
            SizeClass::Small => 2..=6,
            SizeClass::Medium => 7..=15,
            SizeClass::Large => 16..=30,
            SizeClass::Huge => 31..=64,
        }
    }

    /// The class's name in files (`small`, `medium`, `large`, `huge`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SizeClass::Small => "small",
            SizeClass::Medium => "medium",
            SizeClass::Large => "large",
            SizeClass::Huge => "huge",
        }
    }
}

impl fmt::Display for SizeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How two rooms are joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PassageKind {
    /// An open way: no door anywhere on it.
    Open,
    /// A door where the way leaves each room.
    #[default]
    Door,
    /// A locked door (the passage's lock id names its key).
    Locked,
    /// A way meant to be walked in one direction, from `from` to `to`.
    OneWay,
    /// A hidden way.
    Secret,
    /// A stair between rooms on adjacent levels.
    Stair,
}

impl PassageKind {
    /// Every kind, in the order the docs list them.
    pub const ALL: [PassageKind; 6] = [
        PassageKind::Open,
        PassageKind::Door,
        PassageKind::Locked,
        PassageKind::OneWay,
        PassageKind::Secret,
        PassageKind::Stair,
    ];

    /// The kind's name in files (`open`, `door`, `locked`, `one-way`, `secret`, `stair`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            PassageKind::Open => "open",
            PassageKind::Door => "door",
            PassageKind::Locked => "locked",
            PassageKind::OneWay => "one-way",
            PassageKind::Secret => "secret",
            PassageKind::Stair => "stair",
        }
    }
}

impl fmt::Display for PassageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One room of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Room {
    /// The room's name (unique in its dungeon; the spec's room id).
    pub name: String,
    /// What it is for.
    pub role: RoomRole,
    /// Its outline.
    pub shape: RoomShape,
    /// Its size class.
    pub size: SizeClass,
    /// The level it stands on.
    pub level: u16,
    /// Floor to ceiling in metres, when the room asked for a height of its own.
    pub height: Option<f64>,
}

/// A passage of the table: the way between two rooms.
#[derive(Debug, Clone, PartialEq)]
pub struct Passage {
    /// The room it leaves (for a one-way passage, the room it may be walked from).
    pub from: RoomId,
    /// The room it reaches.
    pub to: RoomId,
    /// What kind of way it is.
    pub kind: PassageKind,
    /// The lock's id, for a locked passage.
    pub lock: Option<u32>,
}

/// A dungeon's rooms, passages and room labels (one label layer per level, made with the
/// first room).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct RoomTable {
    rooms: Vec<Room>,
    passages: Vec<Passage>,
    /// Per level, 0 for no room or `1 + RoomId` (empty until a room is added).
    labels: Vec<Grid<u16>>,
}

/// Most rooms a dungeon's table holds.
pub const MAX_ROOMS: usize = u16::MAX as usize - 1;

impl Dungeon {
    /// The rooms of the table, by [`RoomId`].
    #[must_use]
    pub fn rooms(&self) -> &[Room] {
        &self.rooms.rooms
    }

    /// The passages between rooms.
    #[must_use]
    pub fn passages(&self) -> &[Passage] {
        &self.rooms.passages
    }

    /// The room with this name.
    #[must_use]
    pub fn room_named(&self, name: &str) -> Option<RoomId> {
        self.rooms.rooms.iter().position(|r| r.name == name).map(|i| RoomId(i as u16))
    }

    /// The room the cell at `pos` belongs to (`None` for unlabelled cells and positions
    /// outside the dungeon).
    #[must_use]
    pub fn room_at(&self, pos: Pos) -> Option<RoomId> {
        let label = *self.rooms.labels.get(usize::from(pos.level))?.get(pos.slot).ok()?;
        label.checked_sub(1).map(RoomId)
    }

    /// The cells labelled with `room`, row-major.
    pub fn room_cells(&self, room: RoomId) -> impl Iterator<Item = Pos> + '_ {
        let level = self.rooms.rooms.get(usize::from(room.0)).map(|r| r.level);
        let label = room.0 + 1;
        let layer = level.and_then(|l| self.rooms.labels.get(usize::from(l)));
        self.dims()
            .cells()
            .filter(move |&s| layer.is_some_and(|g| g.get(s).is_ok_and(|&v| v == label)))
            .map(move |slot| Pos { level: level.unwrap_or(0), slot })
    }

    /// Adds a room to the table and labels `cells` (cells of the room's level) with it.
    ///
    /// # Errors
    /// [`DungeonError::Room`] when the name is taken, the table is full, or a cell is on
    /// another level or already in a room; [`DungeonError::Level`] / [`DungeonError::Grid`]
    /// when the level or a cell is not one of the dungeon's. Nothing changes on an error.
    ///
    /// # Panics
    /// Never: the `expect` restates that every cell was checked.
    pub fn add_room(&mut self, room: Room, cells: &[Pos]) -> Result<RoomId, DungeonError> {
        let refuse = |why: String| DungeonError::Room { room: room.name.clone(), why };
        if self.room_named(&room.name).is_some() {
            return Err(refuse("a room of that name is in the table already".into()));
        }
        if self.rooms.rooms.len() >= MAX_ROOMS {
            return Err(refuse(format!("the table holds at most {MAX_ROOMS} rooms")));
        }
        self.check_level(room.level)?;
        for &p in cells {
            self.cell(p)?;
            if p.level != room.level {
                return Err(refuse(format!("cell {p} is not on the room's level {}", room.level)));
            }
            if let Some(other) = self.room_at(p) {
                return Err(refuse(format!(
                    "cell {p} is in room {:?} already",
                    self.rooms()[usize::from(other.0)].name
                )));
            }
        }
        if self.rooms.labels.is_empty() {
            self.rooms.labels = vec![Grid::filled(self.dims(), 0); usize::from(self.levels())];
        }
        let id = RoomId(self.rooms.rooms.len() as u16);
        let layer = &mut self.rooms.labels[usize::from(room.level)];
        for p in cells {
            *layer.get_mut(p.slot).expect("invariant: checked cell") = id.0 + 1;
        }
        self.rooms.rooms.push(room);
        Ok(id)
    }

    /// Adds a passage between two rooms of the table.
    ///
    /// # Errors
    /// [`DungeonError::Room`] when `from` or `to` is not a room of the table, or a lock id
    /// is given for a passage that is not locked.
    pub fn add_passage(&mut self, passage: Passage) -> Result<(), DungeonError> {
        let n = self.rooms.rooms.len();
        for id in [passage.from, passage.to] {
            if usize::from(id.0) >= n {
                return Err(DungeonError::Room {
                    room: format!("#{}", id.0),
                    why: format!("a passage names it, but the table has {n} rooms"),
                });
            }
        }
        if passage.lock.is_some() && passage.kind != PassageKind::Locked {
            return Err(DungeonError::Room {
                room: self.rooms.rooms[usize::from(passage.from.0)].name.clone(),
                why: format!("a {} passage has a lock id; only locked passages do", passage.kind),
            });
        }
        self.rooms.passages.push(passage);
        Ok(())
    }

    /// True when the table holds a room.
    #[must_use]
    pub fn has_rooms(&self) -> bool {
        !self.rooms.rooms.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::Fill;
    use crate::geometry::Proportions;

    fn room(name: &str, level: u16) -> Room {
        Room {
            name: name.into(),
            role: RoomRole::Hub,
            shape: RoomShape::Hall,
            size: SizeClass::Small,
            level,
            height: None,
        }
    }

    #[test]
    fn rooms_label_their_cells_and_refuse_overlaps() {
        let mut d = Dungeon::new(4, 4, 2, Proportions::default(), Fill::Floor).unwrap();
        assert!(!d.has_rooms() && d.room_at(Pos::new(0, 0, 0)).is_none());
        let cells = [Pos::new(1, 0, 0), Pos::new(1, 1, 1), Pos::new(1, 0, 2)];
        let a = d.add_room(room("a", 1), &cells).unwrap();
        assert_eq!(d.room_at(Pos::new(1, 1, 1)), Some(a));
        assert_eq!(d.room_at(Pos::new(0, 1, 1)), None);
        assert_eq!(d.room_cells(a).collect::<Vec<_>>(), [cells[0], cells[2], cells[1]], "row-major");
        assert_eq!(d.room_named("a"), Some(a));
        let again = d.add_room(room("a", 0), &[]).unwrap_err().to_string();
        assert!(again.contains("\"a\"") && again.contains("already"), "{again}");
        let overlap = d.add_room(room("b", 1), &[Pos::new(1, 0, 2)]).unwrap_err().to_string();
        assert!(overlap.contains("in room \"a\" already"), "{overlap}");
        let off = d.add_room(room("b", 0), &[Pos::new(1, 2, 2)]).unwrap_err().to_string();
        assert!(off.contains("not on the room's level 0"), "{off}");
        assert!(d.add_room(room("b", 0), &[Pos::new(0, 0, 1)]).is_err(), "a Void slot is no cell");
        let b = d.add_room(room("b", 0), &[Pos::new(0, 2, 2)]).unwrap();
        d.add_passage(Passage { from: a, to: b, kind: PassageKind::Stair, lock: None }).unwrap();
        let lock = Passage { from: a, to: b, kind: PassageKind::Door, lock: Some(1) };
        assert!(d.add_passage(lock).unwrap_err().to_string().contains("only locked passages"));
        let ghost = Passage { from: a, to: RoomId(9), kind: PassageKind::Door, lock: None };
        assert!(d.add_passage(ghost).is_err());
        assert_eq!(d.passages().len(), 1);
    }

    #[test]
    fn size_classes_do_not_overlap() {
        for pair in SizeClass::ALL.windows(2) {
            assert_eq!(pair[0].octagons().end() + 1, *pair[1].octagons().start());
        }
    }

    #[test]
    fn role_tints_are_colours_in_the_order_of_all() {
        assert_eq!(RoomRole::Entrance.tint_rgb(), [0x8f, 0xd1, 0x8a]);
        for (i, role) in RoomRole::ALL.into_iter().enumerate() {
            assert_eq!(role.index(), i);
            let hex = role.tint();
            assert_eq!(
                format!("#{:02x}{:02x}{:02x}", role.tint_rgb()[0], role.tint_rgb()[1], role.tint_rgb()[2]),
                hex
            );
        }
    }
}
