//! Edit mode's pointer: what the cursor picks (from the last frame's view), a click on a
//! cell or wall, and paint strokes that pick every cell under the cursor's path.

use super::{EditMode, Session, ray};
use crate::geometry::{Pick, Target, pick};

/// Longest step (pixels) between the cursor positions a paint stroke picks.
const STROKE_STEP_PX: f64 = 4.0;

/// The cursor positions a stroke picks when the cursor moved from `from` to `to`: points
/// along the segment at most [`STROKE_STEP_PX`] apart, `from` left out (it was picked by the
/// event before) and `to` last.
fn stroke_samples(from: (f64, f64), to: (f64, f64)) -> impl Iterator<Item = (f64, f64)> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = dx.hypot(dy);
    // A finite length: at most one step per pixel of a (clamped) 16k-pixel screen.
    let steps =
        if length.is_finite() { (length / STROKE_STEP_PX).ceil().clamp(1.0, 4096.0) as u32 } else { 1 };
    (1..=steps).map(move |i| {
        if i == steps {
            return to;
        }
        let t = f64::from(i) / f64::from(steps);
        (from.0 + dx * t, from.1 + dy * t)
    })
}

impl EditMode {
    /// The cursor moved to `(x, y)` pixels; true while painting (the camera stays put).
    /// A stroke paints every cell under the cursor's path since the last event, not only
    /// the cell it ends on: a fast drag delivers few, far apart motion events.
    pub(super) fn cursor_moved(&mut self, x: f64, y: f64) -> bool {
        let from = self.cursor.replace((x, y)).unwrap_or((x, y));
        if !(self.on && self.painting) {
            return false;
        }
        let targets: Vec<Option<Target>> =
            stroke_samples(from, (x, y)).map(|p| self.pick_at(p).map(|h| h.target)).collect();
        let mut changed = false;
        if let Some(session) = self.session.as_mut() {
            for target in targets {
                changed |= session.drag(target);
            }
        }
        self.hover = self.pick_now();
        if changed {
            self.after_edit(true);
        }
        true
    }

    /// The left button went down or up; true when edit mode used it (a press on a cell or
    /// wall in edit mode), so the window neither turns the camera nor grabs the mouse.
    pub(super) fn left_button(&mut self, pressed: bool) -> bool {
        if !self.on {
            return false;
        }
        if !pressed {
            let was = self.painting;
            self.painting = false;
            let changed = self.session.as_mut().is_some_and(Session::release);
            if changed || self.session.as_ref().is_some_and(|s| s.is_room_brush()) {
                self.after_edit(changed);
            }
            return was;
        }
        self.hover = self.pick_now();
        let (Some(hit), Some(session)) = (self.hover, self.session.as_mut()) else { return false };
        let changed = session.press(hit.target);
        self.painting = matches!(hit.target, Target::Cell(_));
        self.after_edit(changed);
        true
    }

    /// What the cursor points at, from the last frame's view.
    pub(super) fn pick_now(&self) -> Option<Pick> {
        self.pick_at(self.cursor?)
    }

    /// What the pixel `cursor` shows, as the last frame drew it.
    fn pick_at(&self, cursor: (f64, f64)) -> Option<Pick> {
        let seen = self.seen?;
        let ray = ray::cursor_ray(&seen.view, cursor, seen.size)?;
        pick(&seen.layout, seen.dims, seen.level, ray)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stroke_samples_its_whole_path_in_small_steps_ending_on_the_cursor() {
        let samples: Vec<_> = stroke_samples((10.0, 20.0), (110.0, 20.0)).collect();
        assert_eq!(samples.len(), 25, "100 px in steps of at most 4 px");
        assert_eq!(samples.last(), Some(&(110.0, 20.0)));
        assert!(samples.iter().all(|&(x, y)| x > 10.0 && x <= 110.0 && y == 20.0), "from is left out");
        let mut previous = 10.0;
        for &(x, _) in &samples {
            assert!(x - previous <= STROKE_STEP_PX + 1e-9, "a step of {} px", x - previous);
            previous = x;
        }
        assert_eq!(stroke_samples((5.0, 5.0), (5.0, 5.0)).collect::<Vec<_>>(), [(5.0, 5.0)]);
        assert_eq!(stroke_samples((0.0, 0.0), (f64::NAN, 1.0)).count(), 1, "a bad position is one sample");
    }
}
