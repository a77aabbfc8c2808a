//! Standard output (and the status lines on standard error) of the commands. `println!` panics when standard output is closed (a
//! pipe whose reader is gone: `octile wfc | head`) or full (`> /dev/full`); [`outln!`] and
//! [`out!`] return a [`StdoutError`] instead, which [`super::run`] turns into a quiet exit
//! for a closed pipe and an error (exit 1) for anything else.
//!
//! Commands write their files first and print their report after, so a report that cannot
//! be printed never leaves an output half done: the files are in place either way.

use std::io::Write;

/// Standard output could not be written. Its message ends with the cause, so the cause is
/// not also its source (an error chain would print it twice).
#[derive(Debug)]
pub struct StdoutError(pub std::io::Error);

impl std::fmt::Display for StdoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write to standard output: {}", self.0)
    }
}

impl std::error::Error for StdoutError {}

impl StdoutError {
    /// Whether the reader of standard output is gone (a closed pipe): not worth a message.
    pub fn is_closed_pipe(&self) -> bool {
        self.0.kind() == std::io::ErrorKind::BrokenPipe
    }
}

/// Writes `args` to standard output (what [`out!`] and [`outln!`] call).
///
/// # Errors
/// Standard output is closed or full.
pub fn write(args: std::fmt::Arguments<'_>) -> Result<(), StdoutError> {
    std::io::stdout().lock().write_fmt(args).map_err(StdoutError)
}

/// Flushes standard output (what is still buffered when a command ends).
///
/// # Errors
/// Standard output is closed or full.
pub fn flush() -> Result<(), StdoutError> {
    std::io::stdout().lock().flush().map_err(StdoutError)
}

/// `print!` that returns `Result<(), StdoutError>` instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!($($arg)*))
    };
}

/// `println!` that returns `Result<(), StdoutError>` instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes `args` to standard error, dropping them when standard error cannot be written
/// (closed or full): a status line that cannot be shown is no reason to fail a command
/// whose files are written, and `eprintln!` would panic (what [`errln!`] calls).
pub fn write_err(args: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// `eprintln!` that never panics: a line standard error cannot take is dropped.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::stdout::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {errln, out, outln};
