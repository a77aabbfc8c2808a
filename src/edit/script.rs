//! The edit script grammar, one command per line, shared by `octile edit` and any console:
//!
//! ```text
//! cell L,R,C TILE            toggle L,R,C
//! cycle L,R,C WALL           edge L,R,C WALL STATE
//! pillar L,R,C TIP open|column
//! paint L R1,C1..R2,C2 TILE
//! stair L,R,C   unstair L,R,C   entrance L,R,C   exit L,R,C
//! pin L,R,C     unpin L,R,C     pin L R1,C1..R2,C2     unpin L R1,C1..R2,C2
//! height L,R,C METRES        height L R1,C1..R2,C2 METRES     (METRES or `default`)
//! resolve L,R,C RADIUS       undo      redo
//! # a comment (also after a command)
//! ```
//!
//! Positions are `level,row,col` in slots. A wall is `n ne e se s sw w nw` on an octagon,
//! `tl tr br bl` (or the diagonal it faces, `nw ne se sw`) on a connector, or its index
//! (0..7 clockwise from north on an octagon, 0..3 from top-left on a connector). A pillar is
//! named by its connector and the tip it sits at, `n e s w`. Tiles and edge states are
//! registry names. Keywords, wall and tip names ignore case.

use super::{Applied, Command, EditError, Editor, rect_cells};
use crate::dungeon::{Dungeon, PillarState};
use crate::grid::{ConnectorWall, Direction, PillarId, Pos, Slot, SlotKind};

/// One parsed script line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// An edit.
    Command(Command),
    /// Undo the last step.
    Undo,
    /// Redo the last undone step.
    Redo,
}

/// A script line that could not be parsed or applied.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ScriptError {
    /// The line does not follow the grammar.
    #[error("{0}")]
    Syntax(String),
    /// The command was refused.
    #[error(transparent)]
    Edit(#[from] EditError),
}

/// The usage of every command, as `--help` and errors print it.
pub const USAGE: &str = "cell L,R,C TILE | toggle L,R,C | cycle L,R,C WALL | edge L,R,C WALL STATE | \
pillar L,R,C TIP open|column | paint L R1,C1..R2,C2 TILE | room L R1,C1..R2,C2 | stair L,R,C | unstair L,R,C | \
entrance L,R,C | exit L,R,C | pin L,R,C | unpin L,R,C | pin L R1,C1..R2,C2 | unpin L R1,C1..R2,C2 | \
height L,R,C METRES | height L R1,C1..R2,C2 METRES | resolve L,R,C RADIUS | undo | redo";

fn syntax(message: String) -> ScriptError {
    ScriptError::Syntax(message)
}

/// Parses one line against `d` (its registry names tiles and states, its grid bounds
/// rectangles); `Ok(None)` for a blank or comment line.
///
/// # Errors
/// [`ScriptError::Syntax`] naming what is wrong; [`ScriptError::Edit`] for a rectangle
/// outside the grid or a name the registry does not know.
pub fn parse_line(d: &Dungeon, text: &str) -> Result<Option<Line>, ScriptError> {
    let words = words(text);
    let Some((&keyword, args)) = words.split_first() else { return Ok(None) };
    let keyword = keyword.to_ascii_lowercase();
    let want = |n: usize, usage: &str| {
        if args.len() == n {
            Ok(())
        } else {
            Err(syntax(format!("`{keyword}` takes {usage}; got {:?}", args.join(" "))))
        }
    };
    let cmd = match keyword.as_str() {
        "undo" | "redo" => {
            want(0, "nothing")?;
            return Ok(Some(if keyword == "undo" { Line::Undo } else { Line::Redo }));
        }
        "cell" => {
            want(2, "L,R,C TILE")?;
            Command::SetTile { pos: parse_pos(args[0])?, tile: tile(d, args[1])? }
        }
        "cycle" => {
            want(2, "L,R,C WALL")?;
            let pos = parse_pos(args[0])?;
            Command::Cycle { pos, dir: parse_wall(pos, args[1])? }
        }
        "edge" => {
            want(3, "L,R,C WALL STATE")?;
            let pos = parse_pos(args[0])?;
            let state = d.registry().edge(args[2]).ok_or_else(|| unknown(d, "edge state", args[2]))?;
            Command::SetEdge { pos, dir: parse_wall(pos, args[1])?, state }
        }
        "pillar" => {
            want(3, "L,R,C TIP open|column")?;
            let pos = parse_pos(args[0])?;
            let state = PillarState::from_name(&args[2].to_ascii_lowercase()).ok_or_else(|| {
                syntax(format!("{:?} is not a pillar state; a pillar is open or column", args[2]))
            })?;
            Command::SetPillar { level: pos.level, pillar: parse_pillar(pos, args[1])?, state }
        }
        "paint" => {
            want(3, "L R1,C1..R2,C2 TILE")?;
            Command::Paint { cells: rect(d, args[0], args[1])?, tile: tile(d, args[2])? }
        }
        "room" => {
            want(2, "L R1,C1..R2,C2")?;
            let cells = rect(d, args[0], args[1])?;
            let (first, last) = (cells.first(), cells.last());
            let (Some(first), Some(last)) = (first, last) else {
                return Err(syntax(format!("`room` {} {} holds no cell", args[0], args[1])));
            };
            Command::PaintRoom { level: first.level, from: first.slot, to: last.slot }
        }
        "pin" | "unpin" => {
            let cells = match args {
                [one] => vec![parse_pos(one)?],
                [level, area] => rect(d, level, area)?,
                _ => {
                    return Err(syntax(format!(
                        "`{keyword}` takes L,R,C or L R1,C1..R2,C2; got {:?}",
                        args.join(" ")
                    )));
                }
            };
            Command::Pin { cells, pinned: keyword == "pin" }
        }
        "height" => {
            let (cells, metres) = match args {
                [one, metres] => (vec![parse_pos(one)?], metres),
                [level, area, metres] => (rect(d, level, area)?, metres),
                _ => {
                    return Err(syntax(format!(
                        "`height` takes L,R,C METRES or L R1,C1..R2,C2 METRES (METRES a number or `default`); got {:?}",
                        args.join(" ")
                    )));
                }
            };
            Command::SetHeight { cells, height: parse_height(metres)? }
        }
        "resolve" => {
            want(2, "L,R,C RADIUS")?;
            let radius = args[1]
                .parse()
                .map_err(|_| syntax(format!("radius {:?} is not a whole number of octagons", args[1])))?;
            Command::Resolve { pos: parse_pos(args[0])?, radius }
        }
        "toggle" | "stair" | "unstair" | "entrance" | "exit" => {
            want(1, "L,R,C")?;
            let pos = parse_pos(args[0])?;
            match keyword.as_str() {
                "toggle" => Command::Toggle { pos },
                "stair" => Command::PlaceStair { pos },
                "unstair" => Command::RemoveStair { pos },
                "entrance" => Command::SetEntrance { pos: Some(pos) },
                _ => Command::SetExit { pos: Some(pos) },
            }
        }
        other => return Err(syntax(format!("unknown command {other:?}; commands: {USAGE}"))),
    };
    Ok(Some(Line::Command(cmd)))
}

/// Parses and runs one line on `editor`: `Ok(None)` for a blank or comment line, else what
/// it changed.
///
/// # Errors
/// As [`parse_line`], and the editor's refusal ([`ScriptError::Edit`]; nothing changes).
pub fn run_line(editor: &mut Editor, text: &str) -> Result<Option<Applied>, ScriptError> {
    // A tile or edge state a dungeon gets only once it needs it (`void`, `drop`, mission
    // doors) is added to the registry when a `cell`, `paint` or `edge` line names it. The
    // line is tried on a copy then, so a line refused after all leaves the editor (its
    // registry included) as it was.
    if let [keyword, .., state] = words(text)[..]
        && ["cell", "paint", "edge"].contains(&keyword.to_ascii_lowercase().as_str())
        && editor.dungeon().registry().tile(state).is_none()
        && editor.dungeon().registry().edge(state).is_none()
    {
        let mut trial = editor.clone();
        if trial.add_standard_state(state)? {
            let applied = run_parsed(&mut trial, text)?;
            *editor = trial;
            return Ok(applied);
        }
    }
    run_parsed(editor, text)
}

/// [`run_line`] once the registry knows every name the line uses.
fn run_parsed(editor: &mut Editor, text: &str) -> Result<Option<Applied>, ScriptError> {
    Ok(match parse_line(editor.dungeon(), text)? {
        None => None,
        Some(Line::Undo) => Some(editor.undo()?),
        Some(Line::Redo) => Some(editor.redo()?),
        Some(Line::Command(cmd)) => Some(editor.apply(&cmd)?),
    })
}

/// The words of a script line before its comment (`#`).
fn words(text: &str) -> Vec<&str> {
    text.split('#').next().unwrap_or("").split_whitespace().collect()
}

/// A room height: metres (rounded to the centimetre), or `default` (`None`).
fn parse_height(s: &str) -> Result<Option<crate::dungeon::RoomHeight>, ScriptError> {
    if s.eq_ignore_ascii_case("default") {
        return Ok(None);
    }
    let metres: f64 =
        s.parse().map_err(|_| syntax(format!("room height {s:?} is not a number of metres or `default`")))?;
    crate::dungeon::RoomHeight::from_metres(metres)
        .map(Some)
        .ok_or_else(|| syntax(format!("room height {s:?} is not a height in metres (0.01 to 655.35)")))
}

/// A position `L,R,C` (level, slot row, slot column).
///
/// # Errors
/// [`ScriptError::Syntax`] naming the part that is not a whole number, or a wrong count.
pub fn parse_pos(s: &str) -> Result<Pos, ScriptError> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let [l, r, c] = parts[..] else {
        return Err(syntax(format!("{s:?} is not LEVEL,ROW,COL (for example 0,2,4)")));
    };
    let bad = |what: &str, v: &str, max: u64| {
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let why = match v.strip_prefix('-') {
            Some(rest) if digits(rest) => format!("is negative; {what}s count from 0"),
            _ if digits(v) => format!("is more than the largest {what}, {max}"),
            _ => "is not a whole number".to_string(),
        };
        syntax(format!("{what} {v:?} in {s:?} {why}"))
    };
    Ok(Pos::new(
        l.parse().map_err(|_| bad("level", l, u64::from(u16::MAX)))?,
        r.parse().map_err(|_| bad("row", r, u64::from(u32::MAX)))?,
        c.parse().map_err(|_| bad("col", c, u64::from(u32::MAX)))?,
    ))
}

/// A Void slot named where a cell was expected: the wall it is, and how to name that wall.
fn not_a_cell(pos: Pos) -> Option<String> {
    let (a, _) = pos.slot.seam_sides()?;
    let wall = if a.row == pos.slot.row { "e" } else { "s" };
    let level = pos.level;
    Some(format!(
        "{pos} is not a cell but {}; name a cell and one of its walls, here `{level},{},{} {wall}`",
        crate::grid::EdgeId::Long(pos.slot),
        a.row,
        a.col
    ))
}

/// Wall `s` of the cell at `pos`: a compass name on an octagon, `tl tr br bl` (or the
/// diagonal faced) on a connector, or an index.
///
/// # Errors
/// [`ScriptError::Syntax`] for a name or index that is not a wall of that kind of cell, or
/// a `pos` on a Void slot (the message names the wall it is and how to name it).
pub fn parse_wall(pos: Pos, s: &str) -> Result<Direction, ScriptError> {
    if let Some(message) = not_a_cell(pos) {
        return Err(syntax(message));
    }
    let name = s.to_ascii_lowercase();
    let connector = pos.slot.kind() == SlotKind::Connector;
    let compass = Direction::ALL.into_iter().find(|d| d.name().eq_ignore_ascii_case(&name));
    let corner = ConnectorWall::ALL.into_iter().find(|w| w.name().eq_ignore_ascii_case(&name));
    let index: Option<usize> = name.parse().ok();
    let found = match (connector, compass, corner, index) {
        (false, Some(d), _, _) => Some(d),
        (false, _, _, Some(i)) if i < 8 => Some(Direction::from_index(i)),
        (true, Some(d), _, _) if d.is_diagonal() => Some(d),
        (true, _, Some(w), _) => Some(w.facing()),
        (true, _, _, Some(i)) => ConnectorWall::from_index(i).map(ConnectorWall::facing),
        _ => None,
    };
    found.ok_or_else(|| {
        let (kind, names) = if connector {
            ("connector", "tl tr br bl (or nw ne se sw), or 0..3")
        } else {
            ("octagon", "n ne e se s sw w nw, or 0..7")
        };
        syntax(format!("{s:?} is not a wall of the {kind} at {pos}; its walls are {names}"))
    })
}

/// The pillar at tip `s` (`n e s w`, any case) of the connector at `pos`.
///
/// # Errors
/// [`ScriptError::Syntax`] when `pos` is not a connector (saying which connectors hold the
/// pillars round it) or `s` is not a tip.
pub fn parse_pillar(pos: Pos, s: &str) -> Result<PillarId, ScriptError> {
    if pos.slot.kind() != SlotKind::Connector {
        return Err(syntax(format!(
            "{pos} is not a connector; a pillar is named by a connector (odd row and column) and a tip n e s w"
        )));
    }
    let tip = Direction::CARDINALS.into_iter().find(|d| d.name().eq_ignore_ascii_case(s));
    let tip = tip.ok_or_else(|| {
        syntax(format!("{s:?} is not a tip of the connector at {pos}; its tips are n e s w"))
    })?;
    PillarId::new(pos.slot, tip).map_err(|e| syntax(e.to_string()))
}

/// The cells of the rectangle `R1,C1..R2,C2` on level `level`.
fn rect(d: &Dungeon, level: &str, area: &str) -> Result<Vec<Pos>, ScriptError> {
    let level: u16 = level.parse().map_err(|_| syntax(format!("level {level:?} is not a whole number")))?;
    let corner = |s: &str| -> Result<Slot, ScriptError> {
        let p = parse_pos(&format!("{level},{s}"))
            .map_err(|_| syntax(format!("{s:?} is not ROW,COL in {area:?}")))?;
        Ok(p.slot)
    };
    let (a, b) = area.split_once("..").ok_or_else(|| syntax(format!("{area:?} is not R1,C1..R2,C2")))?;
    if level >= d.levels() {
        return Err(syntax(format!("level {level} is not a level of the dungeon (it has {})", d.levels())));
    }
    Ok(rect_cells(d.dims(), level, corner(a)?, corner(b)?)?)
}

/// The word the docs use for uncarved cells, accepted for the registry's standard `solid`.
const ROCK: &str = "rock";

/// The tile named `name`; `rock` names `solid` in a registry that has no tile `rock`.
fn tile(d: &Dungeon, name: &str) -> Result<crate::dungeon::TileId, ScriptError> {
    let reg = d.registry();
    let alias = || name.eq_ignore_ascii_case(ROCK).then(|| reg.tile("solid")).flatten();
    reg.tile(name).or_else(alias).ok_or_else(|| unknown(d, "tile", name))
}

fn unknown(d: &Dungeon, what: &'static str, name: &str) -> ScriptError {
    let reg = d.registry();
    let known: Vec<&str> = if what == "tile" {
        let rock = |n: &str| n == "solid" && reg.tile(ROCK).is_none();
        reg.tiles().iter().map(|t| if rock(&t.name) { "solid (or rock)" } else { t.name.as_str() }).collect()
    } else {
        reg.edges().iter().map(|e| e.name.as_str()).collect()
    };
    ScriptError::Edit(EditError::UnknownName { what, name: name.into(), known: known.join(", ") })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{DungeonError, Fill, Registry};
    use crate::geometry::Proportions;

    fn d() -> Dungeon {
        Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap()
    }

    /// `void`, `drop` and the mission doors, which a dungeon's registry gets only once it
    /// needs them, may be named by `paint`, `cell` and `edge` from the start: the void
    /// painted over the floor below is sound (railed round, no problem), a locked door is
    /// set, and undo gives the grid back. Other unknown names are still refused by name.
    #[test]
    fn standard_states_are_there_when_a_line_names_them() {
        let mut editor = Editor::new(d());
        assert!(editor.dungeon().registry().void_tile().is_none());
        run_line(&mut editor, "paint 1 0,0..2,2 void").unwrap();
        let void = editor.dungeon().registry().void_tile().expect("added");
        assert_eq!(editor.dungeon().tile(Pos::new(1, 0, 0)).unwrap(), void);
        assert!(editor.dungeon().problems().is_empty(), "{:?}", editor.dungeon().problems());
        run_line(&mut editor, "edge 0,2,2 e door_locked").unwrap();
        let locked = editor.dungeon().registry().edge("door_locked").expect("added");
        assert_eq!(editor.dungeon().edge_state(Pos::new(0, 2, 2), Direction::E).unwrap(), Some(locked));
        run_line(&mut editor, "undo").unwrap();
        run_line(&mut editor, "undo").unwrap();
        assert_eq!(editor.dungeon().tile(Pos::new(1, 0, 0)).unwrap(), Registry::FLOOR);
        let refused = run_line(&mut editor, "paint 1 0,0..2,2 lava").unwrap_err().to_string();
        assert!(refused.contains("no tile named \"lava\""), "{refused}");
        // A line naming a standard state but refused for another reason adds nothing.
        let before = editor.dungeon().clone();
        assert!(run_line(&mut editor, "edge 9,0,0 e drop").is_err(), "no level 9");
        assert!(editor.dungeon().registry().drop_state().is_none(), "the refused line added no drop");
        assert!(editor.dungeon() == &before);
    }

    #[test]
    fn heights_are_set_undone_and_refused_by_name() {
        let mut editor = Editor::new(d());
        run_line(&mut editor, "height 0 0,0..2,2 8").unwrap();
        let hall = [Pos::new(0, 0, 0), Pos::new(0, 1, 1), Pos::new(0, 2, 2)];
        assert!(hall.iter().all(|&p| editor.dungeon().room_height_at(p) == 8.0));
        assert_eq!(editor.dungeon().room_height_at(Pos::new(0, 0, 4)), 4.0);
        run_line(&mut editor, "height 0,2,2 default").unwrap();
        assert_eq!(editor.dungeon().room_height_at(Pos::new(0, 2, 2)), 4.0);
        run_line(&mut editor, "undo").unwrap();
        assert_eq!(editor.dungeon().room_height_at(Pos::new(0, 2, 2)), 8.0);
        run_line(&mut editor, "undo").unwrap();
        assert!(!editor.dungeon().has_room_heights(), "one undo step takes the whole rectangle back");
        run_line(&mut editor, "redo").unwrap();
        assert_eq!(editor.dungeon().room_height_at(Pos::new(0, 1, 1)), 8.0);
        // A refused height names the cell and the range, and changes nothing.
        let before = editor.dungeon().clone();
        let err = run_line(&mut editor, "height 1 0,0..2,2 11.01").unwrap_err();
        assert!(
            matches!(
                err,
                ScriptError::Edit(EditError::Dungeon(DungeonError::RoomHeightOutOfRange {
                    level: 1,
                    row: 0,
                    col: 0,
                    ..
                }))
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("2.5 m to 11 m"), "{err}");
        assert_eq!(editor.dungeon(), &before);
        for bad in ["height 0,2,2 tall", "height 0,2,2", "height 0,2,2 nan", "height 0,2,2 -1"] {
            assert!(matches!(parse_line(&before, bad), Err(ScriptError::Syntax(_))), "{bad}");
        }
    }

    #[test]
    fn every_command_parses() {
        let d = d();
        let cmd = |s: &str| match parse_line(&d, s).unwrap() {
            Some(Line::Command(c)) => c,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(
            cmd("cell 0,2,2 solid"),
            Command::SetTile { pos: Pos::new(0, 2, 2), tile: Registry::SOLID }
        );
        assert_eq!(
            cmd("CYCLE 0,2,2 E  # east"),
            Command::Cycle { pos: Pos::new(0, 2, 2), dir: Direction::E }
        );
        assert_eq!(cmd("cycle 0,1,1 tr"), Command::Cycle { pos: Pos::new(0, 1, 1), dir: Direction::NE });
        assert_eq!(cmd("cycle 0,1,1 2"), Command::Cycle { pos: Pos::new(0, 1, 1), dir: Direction::SE });
        assert_eq!(cmd("cycle 0,0,0 6"), Command::Cycle { pos: Pos::new(0, 0, 0), dir: Direction::W });
        assert_eq!(
            cmd("edge 1,2,2 s door"),
            Command::SetEdge { pos: Pos::new(1, 2, 2), dir: Direction::S, state: Registry::DOOR }
        );
        let Command::Paint { cells, tile } = cmd("paint 1 2,2..0,0 floor") else { panic!() };
        assert_eq!((cells.len(), tile), (5, Registry::FLOOR), "4 octagons and 1 connector");
        assert_eq!(
            cmd("unpin 0 0,0..0,2"),
            Command::Pin { cells: vec![Pos::new(0, 0, 0), Pos::new(0, 0, 2)], pinned: false }
        );
        assert_eq!(cmd("resolve 0,2,2 3"), Command::Resolve { pos: Pos::new(0, 2, 2), radius: 3 });
        let tall = crate::dungeon::RoomHeight::from_metres(7.5);
        assert_eq!(
            cmd("height 1,2,2 7.5"),
            Command::SetHeight { cells: vec![Pos::new(1, 2, 2)], height: tall }
        );
        let Command::SetHeight { cells, height } = cmd("HEIGHT 0 0,0..2,2 Default") else { panic!() };
        assert_eq!((cells.len(), height), (5, None));
        let pillar = PillarId::new(Slot::new(1, 3), Direction::W).unwrap();
        assert_eq!(
            cmd("pillar 1,1,3 W open"),
            Command::SetPillar { level: 1, pillar, state: PillarState::Open }
        );
        assert_eq!(cmd("PILLAR 1,1,3 w Column").keyword(), "pillar");
        assert_eq!(cmd("exit 1,4,4"), Command::SetExit { pos: Some(Pos::new(1, 4, 4)) });
        assert_eq!(parse_line(&d, "  # nothing").unwrap(), None);
        assert_eq!(parse_line(&d, "redo").unwrap(), Some(Line::Redo));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let d = d();
        let err = |s: &str| parse_line(&d, s).unwrap_err().to_string();
        assert!(err("cycle 0,1,1 n").contains("not a wall of the connector"), "{}", err("cycle 0,1,1 n"));
        assert!(err("cycle 0,0,0 tl").contains("n ne e se s sw w nw"));
        assert!(err("cell 0,0,0 lava").contains("no tile named \"lava\""));
        assert!(err("edge 0,0,0 e ajar").contains("known: wall, open, door"));
        assert!(err("paint 0 0,0..9,9 floor").contains("outside the grid"));
        assert!(err("toggle 0,0").contains("LEVEL,ROW,COL"));
        assert!(err("jump 0,0,0").contains("unknown command"));
        assert!(err("undo now").contains("takes nothing"));
        assert!(err("cell 0,0,0 lava").contains("known: solid (or rock), floor, stair"));
        assert!(err("pillar 0,2,2 n open").contains("is not a connector"));
        assert!(err("pillar 0,1,1 ne open").contains("its tips are n e s w"));
        assert!(err("pillar 0,1,1 n carved").contains("a pillar is open or column"));
        assert!(err("pillar 0,1,1 n").contains("takes L,R,C TIP open|column"));
    }

    /// Regression: `paint 0 0,0..4,4 rock` said `no tile named "rock"` though the docs say
    /// rock; `cycle 0,0,1 tl` called a Void slot "the octagon"; `--from 65536,0,0` and
    /// `0,-1,0` were "not a whole number".
    #[test]
    fn messages_use_the_words_a_user_sees() {
        let d = d();
        assert_eq!(
            parse_line(&d, "paint 0 0,0..0,0 rock").unwrap(),
            Some(Line::Command(Command::Paint { cells: vec![Pos::new(0, 0, 0)], tile: Registry::SOLID }))
        );
        assert!(matches!(
            parse_line(&d, "cell 0,2,2 Rock"),
            Ok(Some(Line::Command(Command::SetTile { .. })))
        ));
        let err = |s: &str| parse_line(&d, s).unwrap_err().to_string();
        let void = err("cycle 0,0,1 tl");
        assert_eq!(
            void,
            "level 0, row 0, col 1 is not a cell but the wall between the octagons at row 0, col 0 and \
             row 0, col 2; name a cell and one of its walls, here `0,0,0 e`"
        );
        assert!(err("edge 0,1,2 n open").contains("here `0,0,2 s`"), "{}", err("edge 0,1,2 n open"));
        assert!(
            err("toggle 65536,0,0")
                .contains("level \"65536\" in \"65536,0,0\" is more than the largest level, 65535")
        );
        assert!(err("toggle 0,-1,0").contains("row \"-1\" in \"0,-1,0\" is negative; rows count from 0"));
        assert!(err("toggle 0,x,0").contains("is not a whole number"));
    }
}
