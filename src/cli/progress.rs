//! A progress bar that only appears when work takes long (indicatif, on standard error).
//! Where standard error is not a terminal (a log, a pipe) no bar can be drawn; a long job
//! says each of its stages there instead, one line each (`generating...`).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How long work runs before a bar appears (on a terminal).
const SHOW_BAR_AFTER: Duration = Duration::from_millis(500);

/// How long work runs before its stage is said (off a terminal, where lines stay).
const SAY_STAGE_AFTER: Duration = Duration::from_secs(2);

/// Shows a bar once the work has run for half a second; silent for quick jobs. Off a
/// terminal, says the stage after two seconds and each later stage when it starts.
pub struct Bar {
    label: &'static str,
    unit: &'static str,
    started: Instant,
    bar: Option<ProgressBar>,
    /// Off a terminal: whether the stages are being said.
    saying: bool,
}

impl Bar {
    /// A bar labelled `label` counting cells, not shown yet.
    pub fn new(label: &'static str) -> Bar {
        Bar { label, unit: "cells", started: Instant::now(), bar: None, saying: false }
    }

    /// The same bar counting `unit` (a plural noun, e.g. "levels") instead of cells.
    pub fn with_unit(self, unit: &'static str) -> Bar {
        Bar { unit, ..self }
    }

    /// Reports `done` of `total`.
    pub fn update(&mut self, done: u64, total: u64) {
        self.say_if_long();
        if self.bar.is_none() && self.started.elapsed() > SHOW_BAR_AFTER && std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{msg}} [{{bar:40}}] {{pos}}/{{len}} {} ({{eta}})",
                    self.unit
                ))
                .expect("invariant: valid template")
                .progress_chars("=> "),
            );
            bar.set_message(self.label);
            self.bar = Some(bar);
        }
        if let Some(b) = &self.bar {
            b.set_length(total);
            b.set_position(done);
        }
    }

    /// Sets the label shown from now on (and says it, off a terminal, once the work has
    /// run long).
    pub fn set_label(&mut self, label: &'static str) {
        let changed = self.label != label;
        self.label = label;
        if let Some(b) = &self.bar {
            b.set_message(label);
        }
        if changed && self.saying {
            say(label);
        } else {
            self.say_if_long();
        }
    }

    /// Off a terminal, starts saying the stages once the work has run for
    /// [`SAY_STAGE_AFTER`].
    fn say_if_long(&mut self) {
        if !self.saying && self.started.elapsed() > SAY_STAGE_AFTER && !std::io::stderr().is_terminal() {
            self.saying = true;
            say(self.label);
        }
    }

    /// Ends this stage's bar and starts the next, labelled `label` and counting `unit`: its
    /// bar appears at its first update when the work has already run long.
    pub fn next_stage(&mut self, label: &'static str, unit: &'static str) {
        self.finish();
        self.unit = unit;
        self.set_label(label);
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

/// One stage line on standard error (a failed write is no reason to stop the work).
fn say(label: &str) {
    let _ = writeln!(std::io::stderr(), "{label}...");
}
