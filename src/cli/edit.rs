//! `octile edit`: run edit commands (the grammar of `octile::edit::script`) on a dungeon
//! file and write it atomically; any error names its line and leaves every file untouched.

use std::path::PathBuf;
use std::process::ExitCode;

use super::stdout::{errln, outln};
use anyhow::{Context, bail};
use clap::Args;
use octile::dungeon::Registry;
use octile::edit::script::{ScriptError, run_line};
use octile::edit::{Applied, Change, Editor};

/// Options of `octile edit`.
#[derive(Args)]
#[command(after_help = "\
COMMANDS (one per line in --script, or one per --do; `#` starts a comment):
  cell L,R,C TILE              set a cell's tile (a registry name: solid, floor, stair; rock = solid)
  toggle L,R,C                 rock <-> floor
  cycle L,R,C WALL             next edge state in registry order (wall -> open -> door -> wall)
  edge L,R,C WALL STATE        set an edge state (wall, open, door)
  pillar L,R,C TIP open|column carve (open) or fill (column) the pillar at tip n e s w of
                               the connector at L,R,C; open needs its three cells carved and
                               its three seams open
  paint L R1,C1..R2,C2 TILE    every cell of the slot rectangle; seams between floors open,
                               walls on every floor/rock seam, pillars inside open (floor)
  stair L,R,C | unstair L,R,C  place (needs carved floor above) or remove a stair
  entrance L,R,C | exit L,R,C  move the entrance or exit (onto a carved cell)
  pin L,R,C | unpin L,R,C      lock a cell against re-solving (also `pin L R1,C1..R2,C2`)
  resolve L,R,C RADIUS         re-solve the unpinned cells within RADIUS octagons with WFC
  undo | redo                  one step back or forward
Positions are LEVEL,ROW,COL in slots. WALL: n ne e se s sw w nw (octagons), tl tr br bl
(connectors), or the wall's index. The script's lines run first, then each --do in order.

EXAMPLE:
  octile edit assets/plus_arena.json --do \"cycle 0,4,4 e\" --do \"pin 0 2,2..6,6\" -o edited.json")]
pub struct EditArgs {
    /// The dungeon file (JSON) to edit; rewritten in place unless -o is given.
    file: PathBuf,
    /// A file of commands, one per line.
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,
    /// One command (repeatable), run after the script's lines.
    #[arg(long = "do", value_name = "COMMAND")]
    commands: Vec<String>,
    /// Write the edited dungeon here instead of rewriting FILE.
    #[arg(short, long, value_name = "OUT.json")]
    output: Option<PathBuf>,
    /// Refuse a dungeon of more carved cells than this (the region labels reported after
    /// every line).
    #[arg(long, value_name = "N", default_value_t = super::budget::DEFAULT_MAX_CELLS)]
    max_cells: u64,
}

/// Runs `octile edit`.
pub fn run(args: EditArgs) -> anyhow::Result<ExitCode> {
    if args.script.is_none() && args.commands.is_empty() {
        bail!("nothing to do: give --script FILE or --do \"COMMAND\" (see octile edit --help)");
    }
    let out = args.output.as_ref().unwrap_or(&args.file);
    let mut files = super::files::Files::new().output(if args.output.is_some() { "-o" } else { "FILE" }, out);
    if let Some(script) = &args.script {
        files = files.input("--script", script);
    }
    files.check()?;
    let dungeon =
        octile::format::load(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let mut lines: Vec<(String, String)> = Vec::new();
    if let Some(path) = &args.script {
        let text = octile::io::read_limited(path, octile::io::MAX_INPUT_BYTES)
            .with_context(|| format!("reading the script {}", path.display()))?;
        let name = path.display().to_string();
        lines.extend(
            text.lines().enumerate().map(|(i, l)| (format!("{name}: line {}", i + 1), l.to_string())),
        );
    }
    lines.extend(args.commands.iter().enumerate().map(|(i, c)| (format!("--do {}", i + 1), c.clone())));
    super::budget::check_cells(&dungeon, args.max_cells, "the region labels")?;
    let mut editor = Editor::new(dungeon);
    let mut ran = 0;
    // Printed once the file is saved: a closed or full stdout never stops the save.
    let mut report = Vec::new();
    for (place, line) in &lines {
        match run_line(&mut editor, line) {
            Ok(None) => {}
            Ok(Some(done)) => {
                ran += 1;
                let connectivity = editor.connectivity();
                let flow = editor.flow().map(|v| format!("; {v}")).unwrap_or_default();
                report.push(format!(
                    "{place}: {}: {}; {connectivity}{flow}",
                    code(line),
                    summary(&done, editor.dungeon().registry())
                ));
            }
            Err(e) => return Err(located(place, line, e)),
        }
    }
    octile::format::save(editor.dungeon(), out)?;
    for line in &report {
        outln!("{line}")?;
    }
    let flow = editor.flow().map(|v| format!("; {v}")).unwrap_or_default();
    outln!("wrote {} ({ran} command(s); {}{flow})", out.display(), editor.connectivity())?;
    for warning in super::validate::inert_seams(editor.dungeon()) {
        errln!("warning: {warning}");
    }
    Ok(ExitCode::SUCCESS)
}

/// An error with where it happened; nothing has been written.
fn located(place: &str, line: &str, e: ScriptError) -> anyhow::Error {
    anyhow::anyhow!("{place}: {}: {e} (nothing written)", code(line))
}

/// A line without its comment and outer spaces.
fn code(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

/// What one line did, for people: the changes (the first few), the chunks and regions.
fn summary(done: &Applied, reg: &Registry) -> String {
    const SHOWN: usize = 4;
    if done.changes.is_empty() {
        return "no change".into();
    }
    let count = |f: fn(&Change) -> bool| done.changes.iter().filter(|c| f(c)).count();
    let tiles = count(|c| matches!(c, Change::Tile { .. }));
    let edges = count(|c| matches!(c, Change::Edge { .. }));
    let pillars = count(|c| matches!(c, Change::Pillar { .. }));
    let heights = count(|c| matches!(c, Change::Height { .. }));
    let other = done.changes.len() - tiles - edges - pillars - heights;
    let mut text = format!("{tiles} tile(s), {edges} edge(s), ");
    if pillars > 0 {
        text.push_str(&format!("{pillars} pillar(s), "));
    }
    text.push_str(&format!("{other} marker/pin change(s)"));
    if heights > 0 {
        text.push_str(&format!(", {heights} room height(s)"));
    }
    if done.changes.len() <= SHOWN {
        let list: Vec<String> = done.changes.iter().map(|c| c.describe(reg)).collect();
        text.push_str(&format!(" [{}]", list.join("; ")));
    }
    text.push_str(&format!("; {} chunk(s) to re-mesh", done.dirty.len()));
    text
}
