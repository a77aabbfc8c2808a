//! A progress bar that only appears when work takes long (indicatif, on standard error).

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// Shows a bar once the work has run for half a second; silent for quick jobs.
pub struct Bar {
    label: &'static str,
    unit: &'static str,
    started: Instant,
    bar: Option<ProgressBar>,
}

impl Bar {
    /// A bar labelled `label` counting cells, not shown yet.
    pub fn new(label: &'static str) -> Bar {
        Bar { label, unit: "cells", started: Instant::now(), bar: None }
    }

    /// The same bar counting `unit` (a plural noun, e.g. "levels") instead of cells.
    pub fn with_unit(self, unit: &'static str) -> Bar {
        Bar { unit, ..self }
    }

    /// Reports `done` of `total`.
    pub fn update(&mut self, done: u64, total: u64) {
        if self.bar.is_none() && self.started.elapsed() > Duration::from_millis(500) {
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

    /// Sets the label shown from now on.
    pub fn set_label(&mut self, label: &'static str) {
        self.label = label;
        if let Some(b) = &self.bar {
            b.set_message(label);
        }
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}
