//! The `octile` command-line tool.

// The binary times its progress bars and the viewer's frames (`Instant`); clippy.toml keeps
// platform maths, hash containers and wall-clock time out of the library's output paths.
#[allow(clippy::disallowed_methods, clippy::disallowed_types)]
mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
