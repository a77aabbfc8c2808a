//! Input and output files of the commands: the one place that loads a dungeon file with
//! its name in every message, and that checks a command's outputs against its inputs and
//! each other before anything is written ([`Files`]).

use std::path::{Path, PathBuf};

use anyhow::bail;
use octile::dungeon::Dungeon;
use octile::format::FormatError;
use octile::io::Target;

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

/// The files one command reads and writes, each with the flag that names it. [`Files::check`]
/// refuses the command before it writes anything (or does any long work) when an output
/// would replace an input, two outputs are the same file, or an output cannot be a file at
/// all (a folder, a missing folder, a read-only file: [`Target::of`]).
#[derive(Default)]
pub struct Files {
    inputs: Vec<(String, PathBuf)>,
    outputs: Vec<(String, PathBuf)>,
}

/// Which file a path names, so that two spellings of one file compare equal: `./d.json`
/// and `d.json`, `../here/d.json`, a symbolic or hard link to it, and (for a file not made
/// yet) the same name in the same folder.
#[derive(Debug, PartialEq, Eq)]
enum Identity {
    /// An existing file: its device and inode (where the platform has them).
    #[cfg(unix)]
    Inode(u64, u64),
    /// A file that does not exist yet (or, off Unix, any file): its canonical path.
    Path(PathBuf),
}

impl Identity {
    /// The identity of the (link-followed) path `real`, `None` when its folder is missing.
    fn of(real: &Path) -> Option<Identity> {
        if let Ok(meta) = std::fs::metadata(real) {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                return Some(Identity::Inode(meta.dev(), meta.ino()));
            }
            #[cfg(not(unix))]
            {
                let _ = meta;
                return std::fs::canonicalize(real).ok().map(Identity::Path);
            }
        }
        let name = real.file_name()?;
        let folder = folder_of(real);
        std::fs::canonicalize(folder).ok().map(|f| Identity::Path(f.join(name)))
    }
}

/// The folder a file `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

impl Files {
    /// No files yet.
    pub fn new() -> Files {
        Files::default()
    }

    /// Adds the input `path`, named on the command line by `flag` (`FILE` for the
    /// positional argument).
    pub fn input(mut self, flag: &str, path: &Path) -> Files {
        self.inputs.push((flag.to_string(), path.to_path_buf()));
        self
    }

    /// Adds [`Files::input`] when `path` is given.
    pub fn input_opt(self, flag: &str, path: Option<&Path>) -> Files {
        match path {
            Some(path) => self.input(flag, path),
            None => self,
        }
    }

    /// Adds the output `path`, named by `flag`.
    pub fn output(mut self, flag: &str, path: &Path) -> Files {
        self.outputs.push((flag.to_string(), path.to_path_buf()));
        self
    }

    /// Adds [`Files::output`] when `path` is given.
    pub fn output_opt(self, flag: &str, path: Option<&Path>) -> Files {
        match path {
            Some(path) => self.output(flag, path),
            None => self,
        }
    }

    /// Refuses the command when an output cannot be written as a file, would replace one
    /// of its inputs, or is another output. Streams (`/dev/null`, a FIFO) replace nothing
    /// and may be named more than once.
    ///
    /// # Errors
    /// The first problem, naming the output's flag and path.
    pub fn check(&self) -> anyhow::Result<()> {
        let inputs: Vec<(&str, &Path, Option<Identity>)> = self
            .inputs
            .iter()
            .map(|(flag, p)| {
                (flag.as_str(), p.as_path(), std::fs::metadata(p).ok().and_then(|_| Identity::of(p)))
            })
            .collect();
        let mut placed: Vec<(&str, &Path, Identity)> = Vec::new();
        for (flag, path) in &self.outputs {
            let shown = path.display();
            let real = match Target::of(path) {
                Ok(Target::Replace(real)) => real,
                Ok(Target::Stream(_)) => continue,
                Err(e) => bail!("{flag} {shown}: {e}"),
            };
            let folder = folder_of(&real);
            if !folder.is_dir() {
                bail!("{flag} {shown}: there is no folder {}; create it first", folder.display());
            }
            let Some(id) = Identity::of(&real) else {
                bail!("{flag} {shown}: cannot find its folder {}", folder.display());
            };
            if let Some((iflag, input, _)) = inputs.iter().find(|(_, _, i)| i.as_ref() == Some(&id)) {
                bail!(
                    "{flag} {shown}: is the input file ({iflag} {}); write the output to another file",
                    input.display()
                );
            }
            if let Some((oflag, other, _)) = placed.iter().find(|(_, _, o)| *o == id) {
                bail!(
                    "{flag} {shown}: is also the {oflag} output ({}); write each output to its own file",
                    other.display()
                );
            }
            placed.push((flag, path, id));
        }
        Ok(())
    }
}

/// The `.bin` beside a `.gltf` output (what the export writes with it), `None` for `.glb`.
pub fn gltf_bin(output: &Path) -> Option<PathBuf> {
    output.extension().is_some_and(|e| e.eq_ignore_ascii_case("gltf")).then(|| output.with_extension("bin"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_input_is_not_an_output() {
        let dir = std::env::temp_dir().join(format!("octile-files-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let input = dir.join("d.json");
        std::fs::write(&input, "{}").unwrap();
        let dotted = dir.join(".").join("d.json");
        let check = |files: Files| files.check().map_err(|e| e.to_string());
        let err = check(Files::new().input("FILE", &input).output("-o", &dotted)).unwrap_err();
        assert!(err.contains("is the input file"), "{err}");
        assert!(check(Files::new().input("FILE", &input).output("-o", &dir.join("d.glb"))).is_ok());
        let spelled = dir.join("sub").join("..").join("new.glb");
        let err =
            check(Files::new().output("-o", &dir.join("new.glb")).output("--graph", &spelled)).unwrap_err();
        assert!(err.starts_with("--graph") && err.contains("is also the -o output"), "{err}");
        let err = check(Files::new().output("--save-dungeon", &dir.join("sub"))).unwrap_err();
        assert!(err.contains("is a folder"), "{err}");
        let err = check(Files::new().output("-o", &dir.join("nowhere").join("a.glb"))).unwrap_err();
        assert!(err.contains("no folder"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
