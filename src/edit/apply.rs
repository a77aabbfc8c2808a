//! Applying one command through a [`Recorder`]: the command's own checks, then the check
//! every edit shares (no new stair or marker problem). A refused command is rolled back.

use super::change::Recorder;
use super::seams::derived_state;
use super::{Change, Command, EditError, resolve, room};
use crate::dungeon::{Dungeon, DungeonError, PillarState, TileId};
use crate::grid::{Direction, EdgeId, Pos, Slot, SlotKind};

/// Applies `cmd`; on error nothing stays changed.
pub(crate) fn apply(rec: &mut Recorder<'_>, cmd: &Command) -> Result<(), EditError> {
    let done = run(rec, cmd).and_then(|()| no_new_problems(rec));
    if done.is_err() {
        rec.revert();
    }
    done
}

fn run(rec: &mut Recorder<'_>, cmd: &Command) -> Result<(), EditError> {
    match cmd {
        Command::SetTile { pos, tile } => set_tile(rec, *pos, *tile),
        Command::Toggle { pos } => {
            let carved = rec.d.tile_def(*pos)?.carved;
            let reg = rec.d.registry();
            let tile = if carved { reg.rock() } else { reg.plain_floor() };
            let what = if carved { "rock tile" } else { "plain floor tile" };
            paint(rec, &[*pos], tile.ok_or(EditError::RegistryLacks { what, command: "toggle" })?)
        }
        Command::Cycle { pos, dir } => {
            let edge = wall_edge(rec.d, *pos, *dir)?;
            let now = rec.d.edge_state_of(pos.level, edge)?;
            let next = rec.d.registry().next_in_cycle(now).unwrap_or(now);
            Ok(rec.set_edge_of(pos.level, edge, next)?)
        }
        Command::SetEdge { pos, dir, state } => {
            let edge = wall_edge(rec.d, *pos, *dir)?;
            Ok(rec.set_edge_of(pos.level, edge, *state)?)
        }
        Command::SetPillar { level, pillar, state } => Ok(rec.set_pillar(*level, *pillar, *state)?),
        Command::Paint { cells, tile } => paint(rec, cells, *tile),
        Command::PaintRoom { level, from, to } => room::paint_room(rec, *level, *from, *to),
        Command::PlaceStair { pos } => {
            let stair = rec
                .d
                .registry()
                .stair()
                .ok_or(EditError::RegistryLacks { what: "stair tile", command: "stair" })?;
            set_tile(rec, *pos, stair)
        }
        Command::RemoveStair { pos } => {
            if !rec.d.is_stair(*pos) {
                rec.d.tile(*pos)?;
                return Err(EditError::NotAStair { pos: *pos });
            }
            let floor = rec.d.registry().plain_floor();
            let floor =
                floor.ok_or(EditError::RegistryLacks { what: "plain floor tile", command: "unstair" })?;
            Ok(rec.set_tile(*pos, floor)?)
        }
        Command::SetEntrance { pos } => Ok(rec.set_entrance(*pos)?),
        Command::SetExit { pos } => Ok(rec.set_exit(*pos)?),
        Command::Pin { cells, pinned } => {
            for &pos in cells {
                rec.set_pinned(pos, *pinned)?;
            }
            Ok(())
        }
        Command::SetHeight { cells, height } => {
            for &pos in cells {
                rec.set_room_height(pos, *height)?;
            }
            Ok(())
        }
        Command::Resolve { pos, radius } => resolve::resolve(rec, *pos, *radius),
    }
}

/// Sets a tile (a stair's landing is checked with the other stair problems).
fn set_tile(rec: &mut Recorder<'_>, pos: Pos, tile: TileId) -> Result<(), EditError> {
    Ok(rec.set_tile(pos, tile)?)
}

/// The edge behind wall `dir` of the cell at `pos` (a border wall carries no state).
fn wall_edge(d: &Dungeon, pos: Pos, dir: Direction) -> Result<EdgeId, EditError> {
    match d.edge_state(pos, dir)? {
        Some(_) => Ok(d.dims().edge(pos.slot, dir).ok().flatten().expect("invariant: checked wall")),
        None => {
            let Slot { row, col } = pos.slot;
            Err(DungeonError::BorderEdge { level: pos.level, row, col, dir }.into())
        }
    }
}

/// Paints every cell, then sets every seam of a painted cell by the seam rule.
pub(super) fn paint(rec: &mut Recorder<'_>, cells: &[Pos], tile: TileId) -> Result<(), EditError> {
    for &pos in cells {
        set_tile(rec, pos, tile)?;
    }
    let dims = rec.d.dims();
    for &pos in cells {
        for &dir in dims.walls(pos.slot).map_err(|source| DungeonError::Grid { level: pos.level, source })? {
            let Some(edge) = dims.edge(pos.slot, dir).ok().flatten() else { continue };
            let state = derived_state(rec.d, pos.level, edge)
                .ok_or(EditError::RegistryLacks { what: "open and wall edge states", command: "paint" })?;
            rec.set_edge_of(pos.level, edge, state)?;
        }
    }
    open_pillars_among(rec, cells)
}

/// Opens every pillar whose three cells are all among `cells` and that may be open (a
/// painted hall becomes one open floor); a connector among `cells` names the candidates.
pub(super) fn open_pillars_among(rec: &mut Recorder<'_>, cells: &[Pos]) -> Result<(), EditError> {
    let mut listed: Vec<Pos> = cells.to_vec();
    listed.sort_unstable();
    listed.dedup();
    let dims = rec.d.dims();
    for conn in listed.iter().filter(|p| p.slot.kind() == SlotKind::Connector) {
        let level = conn.level;
        let marked = |slot: Slot| listed.binary_search(&Pos { level, slot }).is_ok();
        let candidates =
            dims.connector_pillars(conn.slot).map_err(|source| DungeonError::Grid { level, source })?;
        for pillar in rec.d.openable_among(level, candidates.into_iter(), &marked) {
            rec.set_pillar(level, pillar, PillarState::Open)?;
        }
    }
    Ok(())
}

/// Refuses the changes made so far when they made a stair or marker problem that was not
/// there before (the mesh cannot build a stair landing on rock; a file cannot hold an
/// entrance on rock).
fn no_new_problems(rec: &mut Recorder<'_>) -> Result<(), EditError> {
    let touches_tiles = rec.changes.iter().any(|c| matches!(c, Change::Tile { .. }));
    let touches_markers =
        rec.changes.iter().any(|c| matches!(c, Change::Entrance { .. } | Change::Exit { .. }));
    if !touches_tiles && !touches_markers {
        return Ok(());
    }
    let after = problems_near(rec.d, &rec.changes);
    if after.is_empty() {
        return Ok(());
    }
    // Rare: compare with the dungeon before the command, which may have had problems of its
    // own (a dungeon built in code), and put the changes back.
    let changes = rec.changes.clone();
    rec.revert();
    let before = problems_near(rec.d, &changes);
    for change in &changes {
        change.apply_to(rec.d).expect("invariant: the changes were just applied here");
    }
    rec.changes = changes;
    match after.into_iter().find(|p| !before.contains(p)) {
        Some(DungeonError::StairLandsOnRock { level, row, col }) => {
            Err(EditError::NoLanding { pos: Pos::new(level, row, col) })
        }
        Some(problem) => Err(EditError::Problem { problem }),
        None => Ok(()),
    }
}

/// The stair problems of the levels `changes` can give one ([`Dungeon::stair_problems`]
/// reads a stair tile and the tile straight above it: a level whose stair tile changed, and
/// the level below a changed tile that stands over a stair tile), and a marker on rock.
fn problems_near(d: &Dungeon, changes: &[Change]) -> Vec<DungeonError> {
    let stair = |t: TileId| d.registry().tile_def(t).is_some_and(|def| def.stair);
    let over_stair =
        |p: Pos| p.level > 0 && d.tile_def(Pos { level: p.level - 1, ..p }).is_ok_and(|t| t.stair);
    let mut levels: Vec<u16> = changes
        .iter()
        .filter_map(|c| {
            if let Change::Tile { pos, before, after } = *c { Some((pos, before, after)) } else { None }
        })
        .flat_map(|(pos, before, after)| {
            let here = (stair(before) || stair(after)).then_some(pos.level);
            let below = over_stair(pos).then(|| pos.level - 1);
            [here, below].into_iter().flatten()
        })
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let mut out: Vec<DungeonError> = levels.into_iter().flat_map(|l| d.stair_problems(l)).collect();
    out.extend(d.marker_problems());
    out
}
