//! Files in and out. Input is read with a size cap ([`read_limited`]), so a huge or endless
//! file (`/dev/zero`) is refused instead of filling memory. Output is written atomically
//! ([`write_atomic`], [`write_all_atomic`]): each file goes to a temporary file beside its
//! target, and the targets are replaced only when every temporary was written, so a failed
//! write never leaves a half-written file or a half-replaced set of files behind. Every
//! temporary file alive is listed in one registry, so that an interrupted command (Ctrl+C)
//! can remove them before it exits ([`remove_temporaries_and_exit`]).

mod write_back;

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The most bytes [`read_limited`] reads from an input file by default: 256 MiB. The
/// largest dungeon the file format allows (4096 x 4096 octagons, one level, one-byte
/// symbols) is a 151 MB file.
pub const MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;

/// Longest temporary file name (bytes, short of the 255 most file systems allow), so that a
/// target whose own name is legal always gets a legal temporary name.
const MAX_TEMP_NAME: usize = 240;

/// Every temporary and backup file this process has made and not yet renamed or removed.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The registry of live temporaries (a panic elsewhere leaves it usable).
fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes `path` from the registry (it was renamed into place or removed).
fn forget(path: &Path) {
    let mut live = live();
    if let Some(i) = live.iter().rposition(|p| p == path) {
        live.swap_remove(i);
    }
}

/// The temporary and backup files this process has alive now (staged outputs not yet put
/// in place), oldest first.
#[must_use]
pub fn live_temporaries() -> Vec<PathBuf> {
    live().clone()
}

/// Removes every live temporary and backup file of this process and exits with `code`,
/// without returning: what an interrupt handler (Ctrl+C) calls. The registry stays locked
/// while the process exits, so no other thread can make a new temporary after the removal.
/// Targets already replaced stay replaced; files not yet placed keep their old contents.
pub fn remove_temporaries_and_exit(code: i32) -> ! {
    let live = live();
    for path in live.iter() {
        let _ = std::fs::remove_file(path);
    }
    std::process::exit(code)
}

/// A file that could not be written. Its message ends with the cause, so the cause is not
/// also its [`std::error::Error::source`] (an error chain would print it twice).
#[derive(Debug)]
pub struct WriteError {
    /// The file being written.
    pub path: PathBuf,
    /// What went wrong.
    pub source: std::io::Error,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for WriteError {}

/// Reads `path` as UTF-8 text, refusing a file of more than `max_bytes` bytes (checked
/// before reading where the file reports its size; files that do not, such as devices and
/// pipes, are read up to the limit and no further).
///
/// # Errors
/// The file cannot be opened or read, is not UTF-8, or is larger than `max_bytes`
/// (`ErrorKind::FileTooLarge`, the message naming the limit: [`MAX_INPUT_BYTES`] for
/// dungeon files).
pub fn read_limited(path: &Path, max_bytes: u64) -> std::io::Result<String> {
    let too_large = || {
        let message = format!(
            "larger than {max_bytes} bytes, the most octile reads from one input file (octile::io::MAX_INPUT_BYTES)"
        );
        std::io::Error::new(std::io::ErrorKind::FileTooLarge, message)
    };
    let file = std::fs::File::open(path)?;
    let reported = file.metadata()?.len();
    if reported > max_bytes {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(reported).unwrap_or(0));
    file.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename.
///
/// # Errors
/// [`WriteError`] naming `path` when the temporary file cannot be written or renamed; the
/// temporary is removed and `path` is left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_all_atomic(&[(path, bytes)])
}

/// Writes every `(path, bytes)` pair, all or nothing: each to a temporary file beside its
/// target first; only when all were written are the targets replaced (renamed over, in
/// order). When a rename fails, the targets already replaced get their old contents back
/// (or are removed, where they did not exist). Temporary files are removed on every error.
///
/// # Errors
/// [`WriteError`] naming the first file that could not be written or put in place.
pub fn write_all_atomic(files: &[(&Path, &[u8])]) -> Result<(), WriteError> {
    stage_all(files)?.commit()
}

/// [`write_all_atomic`] of files each made of runs of bytes, written one after another:
/// a file whose bytes lie in several buffers (a `.glb`'s header and JSON, then its mesh
/// arrays) is written without first being joined into one.
///
/// # Errors
/// As [`write_all_atomic`].
pub fn write_all_atomic_runs(files: &[(&Path, &[&[u8]])]) -> Result<(), WriteError> {
    stage_runs(files)?.commit()
}

/// The first half of [`write_all_atomic`]: writes every file to its temporary and returns
/// them, not yet in place. [`Pending::commit`] puts them in place; dropping the [`Pending`]
/// removes the temporaries. A command with another output written in between stages its
/// files first, so that a file that cannot be written is found before anything changes.
///
/// # Errors
/// [`WriteError`] naming the first file whose temporary could not be written; the
/// temporaries already written are removed.
pub fn stage_all(files: &[(&Path, &[u8])]) -> Result<Pending, WriteError> {
    let runs: Vec<[&[u8]; 1]> = files.iter().map(|&(_, bytes)| [bytes]).collect();
    let files: Vec<(&Path, &[&[u8]])> =
        files.iter().zip(&runs).map(|(&(path, _), runs)| (path, &runs[..])).collect();
    stage_runs(&files)
}

/// [`stage_all`] of files made of runs of bytes ([`write_all_atomic_runs`]).
fn stage_runs(files: &[(&Path, &[&[u8]])]) -> Result<Pending, WriteError> {
    let mut pending = Pending { staged: Vec::with_capacity(files.len()) };
    for (index, &(path, runs)) in files.iter().enumerate() {
        pending.staged.push(Staged::write(path, index, runs)?); // on error, drop discards
    }
    Ok(pending)
}

/// Files written to temporaries beside their targets by [`stage_all`], not yet in place.
/// Dropped without [`Pending::commit`], it removes the temporaries and changes nothing.
#[must_use = "dropping it removes the temporaries; call commit to put the files in place"]
#[derive(Debug)]
pub struct Pending {
    staged: Vec<Staged>,
}

impl Pending {
    /// Puts every file in place (renamed over its target, in order).
    ///
    /// # Errors
    /// [`WriteError`] naming the file that could not be put in place; the targets already
    /// replaced get their old contents back, and every temporary is removed.
    pub fn commit(mut self) -> Result<(), WriteError> {
        let n = self.staged.len();
        for i in 0..n {
            // The last file needs no backup: nothing after it can fail and undo it.
            if let Err(e) = self.staged[i].place(i + 1 < n) {
                self.staged[..i].iter().rev().for_each(Staged::restore);
                self.staged.drain(..i);
                return Err(e); // dropping `self` discards the rest and the failed one's backup
            }
        }
        self.staged.drain(..).for_each(|s| s.forget_backup());
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.staged.iter().for_each(Staged::discard);
    }
}

/// One file of [`stage_all`]: its target, the temporary holding its new bytes, and
/// (once placed) a hard link to the target's old contents, if it had any.
#[derive(Debug)]
struct Staged {
    target: PathBuf,
    index: usize,
    temp: PathBuf,
    backup: Option<PathBuf>,
}

impl Staged {
    /// Writes `runs`, one after another, to a new temporary file for `target` (the
    /// `index`th of its batch).
    fn write(target: &Path, index: usize, runs: &[&[u8]]) -> Result<Staged, WriteError> {
        let err = |source| WriteError { path: target.to_path_buf(), source };
        let temp = sibling(target, index, "tmp").map_err(err)?;
        let result = create_tracked(&temp).and_then(|file| write_back::write_and_sync(file, runs));
        if let Err(source) = result {
            let _ = std::fs::remove_file(&temp);
            forget(&temp);
            return Err(err(source));
        }
        Ok(Staged { target: target.to_path_buf(), index, temp, backup: None })
    }

    /// Renames the temporary over the target, keeping a link to the old target first when
    /// `keep_old` (so that [`Staged::restore`] can put it back).
    fn place(&mut self, keep_old: bool) -> Result<(), WriteError> {
        let err = |source| WriteError { path: self.target.clone(), source };
        let is_file = std::fs::symlink_metadata(&self.target).is_ok_and(|m| !m.is_dir());
        if keep_old && is_file {
            let backup = sibling(&self.target, self.index, "old").map_err(err)?;
            let mut live = live();
            live.push(backup.clone());
            let linked = std::fs::hard_link(&self.target, &backup)
                .or_else(|_| std::fs::copy(&self.target, &backup).map(|_| ()));
            drop(live);
            if let Err(source) = linked {
                let _ = std::fs::remove_file(&backup);
                forget(&backup);
                return Err(err(source));
            }
            self.backup = Some(backup);
        }
        // The registry is held across the rename, so an interrupt sees the temporary either
        // still there (and removes it) or in place (and no longer listed).
        let mut live = live();
        std::fs::rename(&self.temp, &self.target).map_err(err)?;
        if let Some(i) = live.iter().rposition(|p| *p == self.temp) {
            live.swap_remove(i);
        }
        Ok(())
    }

    /// Undoes [`Staged::place`]: the old contents back, or the new file removed.
    fn restore(&self) {
        let _ = match &self.backup {
            Some(backup) => std::fs::rename(backup, &self.target),
            None => std::fs::remove_file(&self.target),
        };
        if let Some(backup) = &self.backup {
            forget(backup);
        }
    }

    /// Removes the temporary (and any backup) of a file that was not placed.
    fn discard(&self) {
        let _ = std::fs::remove_file(&self.temp);
        forget(&self.temp);
        self.forget_backup();
    }

    /// Removes the backup of a file placed for good.
    fn forget_backup(&self) {
        if let Some(backup) = &self.backup {
            let _ = std::fs::remove_file(backup);
            forget(backup);
        }
    }
}

/// Creates the file `path` and lists it in the registry of live temporaries, both while the
/// registry is held (an interrupt removes it either not yet made or made and listed).
fn create_tracked(path: &Path) -> std::io::Result<std::fs::File> {
    let mut live = live();
    let file = std::fs::File::create(path)?;
    live.push(path.to_path_buf());
    Ok(file)
}

/// A hidden file name beside `target`: `.NAME.PID.INDEX.SUFFIX`, with `NAME` shortened (on a
/// character boundary) so that the whole name stays within [`MAX_TEMP_NAME`] bytes.
fn sibling(target: &Path, index: usize, suffix: &str) -> std::io::Result<PathBuf> {
    let name = target
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"))?;
    let tail = format!(".{}.{index}.{suffix}", std::process::id());
    let name = name.to_string_lossy();
    let room = MAX_TEMP_NAME - 1 - tail.len();
    let cut = (0..=room.min(name.len())).rev().find(|&i| name.is_char_boundary(i)).unwrap_or(0);
    let mut temp = OsString::from(".");
    temp.push(&name[..cut]);
    temp.push(tail);
    Ok(target.with_file_name(temp))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh, empty folder for one test.
    fn folder(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("octile-io-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_and_replaces() {
        let dir = folder("replace");
        let p = dir.join("a.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(names(&dir), ["a.txt"], "no temporary left behind");
        let bad = dir.join("missing-dir").join("b.txt");
        let err = write_atomic(&bad, b"x").unwrap_err();
        let cause = err.source.to_string();
        let chain = format!("{:#}", anyhow::Error::from(err));
        assert!(chain.starts_with("cannot write ") && chain.contains("b.txt"), "{chain}");
        assert_eq!(chain.matches(&cause).count(), 1, "the cause is said once: {chain}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Regression: `.gltf` + `.bin` were written one after the other, so a `.gltf` that could
    /// not be written left a new `.bin` behind.
    #[test]
    fn a_failed_file_leaves_every_file_as_it_was() {
        let dir = folder("batch");
        let (bin, gltf) = (dir.join("p.bin"), dir.join("p.gltf"));
        std::fs::write(&bin, b"old bin").unwrap();
        std::fs::create_dir(&gltf).unwrap(); // a folder cannot be replaced by a file
        let err = write_all_atomic(&[(&bin, b"new bin"), (&gltf, b"new gltf")]).unwrap_err();
        assert_eq!(err.path, gltf);
        assert_eq!(std::fs::read(&bin).unwrap(), b"old bin");
        assert_eq!(names(&dir), ["p.bin", "p.gltf"], "no temporary or backup left behind");
        let after = dir.join("r.txt");
        assert!(write_all_atomic(&[(&bin, b"b"), (&gltf, b"g"), (&after, b"r")]).is_err());
        assert_eq!(std::fs::read(&bin).unwrap(), b"old bin");
        assert_eq!(names(&dir), ["p.bin", "p.gltf"], "the files after the failed one leave nothing");
        let pending = stage_all(&[(&bin, b"staged")]).unwrap();
        assert_eq!(names(&dir).len(), 3, "a staged file is a temporary beside its target");
        drop(pending);
        assert_eq!(names(&dir), ["p.bin", "p.gltf"], "dropping staged files removes them");
        assert_eq!(std::fs::read(&bin).unwrap(), b"old bin");
        let fresh = dir.join("q.bin");
        assert!(write_all_atomic(&[(&fresh, b"q"), (&gltf, b"g")]).is_err());
        assert!(!fresh.exists(), "a file that did not exist before is removed again");
        std::fs::remove_dir(&gltf).unwrap();
        write_all_atomic(&[(&bin, b"new bin"), (&gltf, b"new gltf")]).unwrap();
        assert_eq!(std::fs::read(&bin).unwrap(), b"new bin");
        assert_eq!(std::fs::read(&gltf).unwrap(), b"new gltf");
        assert_eq!(names(&dir), ["p.bin", "p.gltf"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Regression: the temporary name was the target's plus about 12 bytes, so a legal
    /// 245-byte target name failed.
    #[test]
    fn long_names_get_short_temporaries() {
        let dir = folder("long");
        for name in ["d".repeat(251) + ".glb", "é".repeat(125) + ".glb"] {
            let p = dir.join(&name);
            write_atomic(&p, b"x").unwrap_or_else(|e| panic!("{} bytes: {e}", name.len()));
            assert_eq!(std::fs::read(&p).unwrap(), b"x");
            assert!(sibling(&p, 7, "tmp").unwrap().file_name().unwrap().len() <= MAX_TEMP_NAME);
        }
        assert_eq!(names(&dir).len(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_up_to_the_limit_and_no_further() {
        let dir = folder("read");
        let p = dir.join("a.json");
        std::fs::write(&p, "0123456789").unwrap();
        assert_eq!(read_limited(&p, 10).unwrap(), "0123456789");
        let err = read_limited(&p, 9).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
        assert!(err.to_string().contains("9 bytes"), "{err}");
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        assert_eq!(read_limited(&p, 10).unwrap_err().kind(), std::io::ErrorKind::InvalidData);
        std::fs::remove_dir_all(&dir).unwrap();
        if Path::new("/dev/zero").exists() {
            let err = read_limited(Path::new("/dev/zero"), 1 << 16).unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge, "an endless file stops at the limit");
        }
    }
}
