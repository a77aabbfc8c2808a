//! Files in and out. Input is read with a size cap ([`read_limited`]), so a huge or endless
//! file (`/dev/zero`) is refused instead of filling memory. Output is written atomically
//! ([`write_atomic`], [`write_all_atomic`]): each file goes to a temporary file beside its
//! target, and the targets are replaced only when every temporary was written, so a failed
//! write never leaves a half-written file or a half-replaced set of files behind. Every
//! temporary file alive is listed in one registry, so that an interrupted command (Ctrl+C)
//! can remove them before it exits ([`remove_temporaries`]; the exit is the binary's).
//!
//! What a target path names decides how it is written ([`Target`]):
//! - a symbolic link is followed: the file it points to is replaced (its temporary beside
//!   that file), and the link stays a link;
//! - a regular file is replaced by a new file with the old one's permission bits; one that
//!   has no write permission at all is refused, as `>` would refuse it. Replacing gives the
//!   name a new file: other hard links to the old one keep the old contents;
//! - a character device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is written
//!   directly, when its file is staged, and never renamed over: it has no old contents to
//!   keep, and nothing can take back what it was sent;
//! - a folder, a block device or a socket is refused.

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

/// Removes every live temporary and backup file of this process, for an interrupt handler
/// (Ctrl+C) about to end the process: the binary's policy, which exits while it holds the
/// returned guard. Until the guard is dropped no thread can make a new temporary (the
/// registry stays locked), so none is left behind by a write racing the exit. Targets
/// already replaced stay replaced; files not yet placed keep their old contents.
#[must_use = "hold the guard until the process exits, or new temporaries may follow"]
pub fn remove_temporaries() -> TemporariesRemoved {
    let live = live();
    for path in live.iter() {
        let _ = std::fs::remove_file(path);
    }
    TemporariesRemoved { _registry: live }
}

/// What [`remove_temporaries`] returns: while it lives, no new temporary file is made
/// (writes wait for it), so a process that exits holding it leaves none behind.
#[derive(Debug)]
pub struct TemporariesRemoved {
    _registry: MutexGuard<'static, Vec<PathBuf>>,
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

/// What an output path names, and so how it is written (the module docs list the rules).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Nothing yet, or a regular file: written to a temporary beside it and renamed over
    /// it. The path is the one to replace (a symbolic link's file, not the link).
    Replace(PathBuf),
    /// A character device or a FIFO: opened and written directly.
    Stream(PathBuf),
}

/// Most symbolic links followed from one output path (as Linux's `ELOOP` limit).
const MAX_LINKS: usize = 40;

impl Target {
    /// How `path` would be written, or why it cannot be: checked before anything is
    /// written, so a command can refuse an output before it writes any other.
    ///
    /// # Errors
    /// `path` is a folder, a block device or a socket (`InvalidInput`), a regular file
    /// with no write permission (`PermissionDenied`), a chain of more than 40 symbolic
    /// links, or cannot be inspected.
    pub fn of(path: &Path) -> std::io::Result<Target> {
        use std::io::{Error, ErrorKind};
        let real = follow_links(path)?;
        let meta = match std::fs::metadata(&real) {
            Ok(meta) => meta,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Target::Replace(real)),
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_file() {
            if meta.permissions().readonly() {
                let message = "is read-only; make it writable (chmod u+w) or write elsewhere";
                return Err(Error::new(ErrorKind::PermissionDenied, message));
            }
            return Ok(Target::Replace(real));
        }
        if kind.is_dir() {
            return Err(Error::new(ErrorKind::InvalidInput, "is a folder; give a file name"));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_char_device() || kind.is_fifo() {
                return Ok(Target::Stream(real));
            }
        }
        let message = "is not a regular file, a character device or a FIFO; give a file name";
        Err(Error::new(ErrorKind::InvalidInput, message))
    }
}

/// `path` with its symbolic links followed (the last component only, repeatedly: a link's
/// folder is left as written), so that a link's target is written and the link stays.
fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut real = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let is_link = std::fs::symlink_metadata(&real).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            return Ok(real);
        }
        let to = std::fs::read_link(&real)?;
        real = match real.parent() {
            Some(folder) if to.is_relative() => folder.join(to),
            _ => to,
        };
    }
    Err(std::io::Error::other(format!("more than {MAX_LINKS} symbolic links in a chain")))
}

/// One file of [`stage_all`]: its target (as given, for messages, and the file to replace),
/// the temporary holding its new bytes, and (once placed) a hard link to the target's old
/// contents, if it had any. A stream target was written when staged and has neither.
#[derive(Debug)]
struct Staged {
    target: PathBuf,
    real: PathBuf,
    index: usize,
    temp: Option<PathBuf>,
    backup: Option<PathBuf>,
}

impl Staged {
    /// Writes `runs`, one after another, to a new temporary file for `target` (the
    /// `index`th of its batch), or straight into it when it is a stream ([`Target`]).
    fn write(target: &Path, index: usize, runs: &[&[u8]]) -> Result<Staged, WriteError> {
        let err = |source| WriteError { path: target.to_path_buf(), source };
        let real = match Target::of(target).map_err(err)? {
            Target::Replace(real) => real,
            Target::Stream(real) => {
                write_back::write_stream(&real, runs).map_err(err)?;
                return Ok(Staged { target: target.to_path_buf(), real, index, temp: None, backup: None });
            }
        };
        let temp = sibling(&real, index, "tmp").map_err(err)?;
        let old_mode = std::fs::metadata(&real).ok().map(|m| m.permissions());
        let result = create_tracked(&temp)
            .and_then(|file| match old_mode {
                Some(mode) => file.set_permissions(mode).map(|()| file),
                None => Ok(file),
            })
            .and_then(|file| write_back::write_and_sync(file, runs));
        if let Err(source) = result {
            let _ = std::fs::remove_file(&temp);
            forget(&temp);
            return Err(err(source));
        }
        Ok(Staged { target: target.to_path_buf(), real, index, temp: Some(temp), backup: None })
    }

    /// Renames the temporary over the target, keeping a link to the old target first when
    /// `keep_old` (so that [`Staged::restore`] can put it back). A stream is already written.
    fn place(&mut self, keep_old: bool) -> Result<(), WriteError> {
        let err = |source| WriteError { path: self.target.clone(), source };
        let Some(temp) = self.temp.clone() else { return Ok(()) };
        let is_file = std::fs::symlink_metadata(&self.real).is_ok_and(|m| !m.is_dir());
        if keep_old && is_file {
            let backup = sibling(&self.real, self.index, "old").map_err(err)?;
            let mut live = live();
            live.push(backup.clone());
            let linked = std::fs::hard_link(&self.real, &backup)
                .or_else(|_| std::fs::copy(&self.real, &backup).map(|_| ()));
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
        std::fs::rename(&temp, &self.real).map_err(err)?;
        if let Some(i) = live.iter().rposition(|p| *p == temp) {
            live.swap_remove(i);
        }
        Ok(())
    }

    /// Undoes [`Staged::place`]: the old contents back, or the new file removed (a stream
    /// cannot be undone and is left alone).
    fn restore(&self) {
        if self.temp.is_none() {
            return;
        }
        let _ = match &self.backup {
            Some(backup) => std::fs::rename(backup, &self.real),
            None => std::fs::remove_file(&self.real),
        };
        if let Some(backup) = &self.backup {
            forget(backup);
        }
    }

    /// Removes the temporary (and any backup) of a file that was not placed.
    fn discard(&self) {
        if let Some(temp) = &self.temp {
            let _ = std::fs::remove_file(temp);
            forget(temp);
        }
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

    /// Regression: `-o` onto a FIFO or a device node replaced it with a regular
    /// file (as root, `-o /dev/null` would have replaced the system's).
    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_is_written_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = folder("stream");
        let fifo = dir.join("f");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to check
        }
        // Opened for reading and writing, which does not wait for a writer (Linux), so the
        // test cannot hang when the FIFO is (wrongly) replaced instead of written.
        let mut reader = std::fs::OpenOptions::new().read(true).write(true).open(&fifo).unwrap();
        write_atomic(&fifo, b"through the pipe").unwrap();
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
        let mut got = [0; 16];
        reader.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"through the pipe");
        // A copy of /dev/null (root only: mknod), never the system's own.
        let null = dir.join("n");
        let made = std::process::Command::new("mknod").arg(&null).args(["c", "1", "3"]).output();
        if made.is_ok_and(|o| o.status.success()) {
            write_all_atomic(&[(&null, b"gone"), (&dir.join("a.txt"), b"kept")]).unwrap();
            assert!(std::fs::metadata(&null).unwrap().file_type().is_char_device(), "still a device");
            assert_eq!(std::fs::read(dir.join("a.txt")).unwrap(), b"kept");
        }
        assert_eq!(Target::of(&dir).unwrap_err().kind(), std::io::ErrorKind::InvalidInput, "a folder");
        assert!(names(&dir).iter().all(|n| !n.starts_with('.')), "no temporary: {:?}", names(&dir));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Regression: writing through a symbolic link replaced the link with a file
    /// and left its target as it was; a read-only file was replaced; a replaced file got
    /// the default permissions instead of its own.
    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_permissions_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = folder("links");
        std::fs::create_dir(dir.join("sub")).unwrap();
        let real = dir.join("sub").join("d.json");
        std::fs::write(&real, b"old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.join("link.json");
        std::os::unix::fs::symlink("sub/d.json", &link).unwrap();
        let chain = dir.join("chain.json");
        std::os::unix::fs::symlink("link.json", &chain).unwrap();
        write_atomic(&chain, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "still a link");
        assert!(std::fs::symlink_metadata(&chain).unwrap().file_type().is_symlink(), "still a link");
        assert_eq!(std::fs::read(&real).unwrap(), b"new", "the link's file is written");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the replaced file keeps its permissions");
        assert_eq!(names(&dir.join("sub")), ["d.json"], "no temporary beside the file");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o400)).unwrap();
        let err = write_atomic(&link, b"refused").unwrap_err();
        assert_eq!(err.source.kind(), std::io::ErrorKind::PermissionDenied);
        assert!(err.to_string().contains("read-only"), "{err}");
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        let dangling = dir.join("dangling.json");
        std::os::unix::fs::symlink("sub/fresh.json", &dangling).unwrap();
        write_atomic(&dangling, b"fresh").unwrap();
        assert_eq!(std::fs::read(dir.join("sub").join("fresh.json")).unwrap(), b"fresh");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
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
