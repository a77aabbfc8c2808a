//! Input and output files of the commands: the one place that loads a dungeon file with
//! its name in every message, and that refuses an output that would replace an input.

use std::path::Path;

use anyhow::bail;
use octile::dungeon::Dungeon;
use octile::format::FormatError;

/// Loads the dungeon file `path`. A message that does not name the file already (a parse
/// error, a problem in the plan) is prefixed with its name; a read error names it itself.
///
/// # Errors
/// The file cannot be read or is not a valid dungeon file.
pub fn load(path: &Path) -> anyhow::Result<Dungeon> {
    octile::format::load(path).map_err(|e| match e {
        FormatError::Read { .. } => anyhow::Error::from(e),
        e => anyhow::Error::from(e).context(path.display().to_string()),
    })
}

/// Refuses to write `output` when it is the file `input` (compared as canonical paths, so
/// `./d.json` and `d.json` or a link to it are the same file): the command would replace
/// its own input. An output that does not exist yet is never an input.
///
/// # Errors
/// `output` is `input`.
pub fn refuse_overwriting_input(input: &Path, output: &Path, flag: &str) -> anyhow::Result<()> {
    let same = match (std::fs::canonicalize(input), std::fs::canonicalize(output)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        bail!("{flag} {}: is the input file; write the output to another file", output.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_input_is_not_an_output() {
        let dir = std::env::temp_dir().join(format!("octile-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("d.json");
        std::fs::write(&input, "{}").unwrap();
        let dotted = dir.join(".").join("d.json");
        let err = refuse_overwriting_input(&input, &dotted, "-o").unwrap_err().to_string();
        assert!(err.contains("is the input file"), "{err}");
        assert!(refuse_overwriting_input(&input, &dir.join("d.glb"), "-o").is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
