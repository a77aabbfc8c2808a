//! Writing a file's runs of bytes and syncing it to the disk, with the disk's write-back
//! started while later runs are still being copied.

use std::fs::File;
use std::io::{self, BufWriter, Write};
#[cfg(feature = "threads")]
use std::sync::mpsc;

/// Bytes copied between two requests for an early sync.
const EARLY_SYNC_EVERY: usize = 4 << 20;

/// Writes `runs` to `file` one after another, then syncs it (data and metadata) to the
/// disk. Small runs (padding, a chunk header) are gathered in a buffer; large ones go
/// straight through.
///
/// A file of at least two [`EARLY_SYNC_EVERY`] is synced in the background as it grows:
/// each time that many bytes were written, a second thread syncs the data written so far
/// (`fdatasync` through a second handle), so the disk writes the start of the file while
/// this thread copies the rest into the page cache, and the last sync waits only for the
/// tail. Requests that come in during a sync are met by the next one. Where the system
/// gives no second handle or thread, or the `threads` feature is off, the file is synced at
/// the end only.
///
/// # Errors
/// The first error of a write or of a sync.
pub(super) fn write_and_sync(file: File, runs: &[&[u8]]) -> io::Result<()> {
    let total: usize = runs.iter().map(|run| run.len()).sum();
    let mut out = BufWriter::with_capacity(1 << 16, file);
    // Without threads there is nobody to sync early: no second handle is made.
    let early = if cfg!(feature = "threads") && total >= 2 * EARLY_SYNC_EVERY {
        out.get_ref().try_clone().ok()
    } else {
        None
    };
    match early {
        None => copy(&mut out, runs, || {})?,
        Some(early) => copy_syncing_early(&mut out, runs, early)?,
    }
    sync(out)
}

/// [`copy`], with `early` (a second handle on the file) synced on a second thread after
/// every [`EARLY_SYNC_EVERY`] bytes.
#[cfg(feature = "threads")]
fn copy_syncing_early(out: &mut BufWriter<File>, runs: &[&[u8]], early: File) -> io::Result<()> {
    std::thread::scope(|s| {
        let (request, requests) = mpsc::channel::<()>();
        let syncer = std::thread::Builder::new().name("octile-sync".into()).spawn_scoped(s, move || {
            while requests.recv().is_ok() {
                while requests.try_recv().is_ok() {}
                early.sync_data()?;
            }
            Ok(())
        });
        // A syncer stopped by an error (or never started) ignores requests; an error is
        // reported when it is joined.
        let copied = copy(out, runs, || {
            let _ = request.send(());
        });
        drop(request);
        let synced = match syncer {
            Ok(syncer) => syncer.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => Ok(()),
        };
        copied.and(synced)
    })
}

/// [`copy`] (no `threads` feature: [`write_and_sync`] makes no second handle).
#[cfg(not(feature = "threads"))]
fn copy_syncing_early(out: &mut BufWriter<File>, runs: &[&[u8]], _early: File) -> io::Result<()> {
    copy(out, runs, || {})
}

/// Writes `runs` straight into the existing stream `path` (a character device or a FIFO),
/// without truncating, creating or syncing it (a pipe or `/dev/null` cannot be synced).
///
/// # Errors
/// The stream cannot be opened, or a write fails (`/dev/full`, a closed pipe).
pub(super) fn write_stream(path: &std::path::Path, runs: &[&[u8]]) -> io::Result<()> {
    let file = std::fs::OpenOptions::new().write(true).open(path)?;
    let mut out = BufWriter::with_capacity(1 << 16, file);
    runs.iter().try_for_each(|run| out.write_all(run))?;
    out.flush()
}

/// Writes `runs` to `out`, flushing and calling `interval_done` every [`EARLY_SYNC_EVERY`]
/// bytes or so.
fn copy(out: &mut BufWriter<File>, runs: &[&[u8]], mut interval_done: impl FnMut()) -> io::Result<()> {
    let mut since = 0;
    for run in runs {
        out.write_all(run)?;
        since += run.len();
        if since >= EARLY_SYNC_EVERY {
            out.flush()?;
            interval_done();
            since = 0;
        }
    }
    Ok(())
}

/// Flushes `out` and syncs its file.
fn sync(out: BufWriter<File>) -> io::Result<()> {
    out.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(runs: &[&[u8]], name: &str) -> Vec<u8> {
        let dir = std::env::temp_dir().join(format!("octile-write-back-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        write_and_sync(File::create(&path).unwrap(), runs).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let _ = std::fs::remove_dir(&dir);
        bytes
    }

    #[test]
    fn small_and_large_files_hold_their_runs_in_order() {
        let small: [&[u8]; 3] = [b"glTF", b"", b"{}  "];
        assert_eq!(written(&small, "small"), b"glTF{}  ");
        // Past two early-sync intervals, in runs of many sizes: the background syncs run.
        let big: Vec<u8> = (0..(2 * EARLY_SYNC_EVERY + 12_345) as u32).map(|i| (i * 7 % 251) as u8).collect();
        let cuts = [0, 3, 1 << 20, (1 << 20) + 1, 5 << 20, 8 << 20, big.len()];
        let runs: Vec<&[u8]> = cuts.windows(2).map(|w| &big[w[0]..w[1]]).collect();
        assert_eq!(written(&runs, "big"), big);
    }
}
