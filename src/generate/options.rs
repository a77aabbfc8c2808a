//! `GenerateOptions`: everything `generate` needs besides the progress callback.

use super::GenerateError;
use crate::wfc::{DEFAULT_BUDGET, octile};

/// Options of [`super::generate`]. `Default` is a 3-level dungeon of 12x12 octagons.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateOptions {
    /// Seed of the one RNG every random choice is drawn from.
    pub seed: u64,
    /// Number of levels (1..=256).
    pub levels: u32,
    /// Octagon columns (width).
    pub cols: u32,
    /// Octagon rows (height).
    pub rows: u32,
    /// Corner cut ratio of the octagons (0 < r < 0.5).
    pub cut_ratio: f64,
    /// Tile weights (octagons and, apart, connectors).
    pub weights: octile::Weights,
    /// Stairs between each pair of adjacent levels (at least 1 when there are 2+ levels).
    pub stairs: u32,
    /// Extra cycles carved on each level after it is connected (0 keeps whatever cycles the
    /// solver made).
    pub loops: u32,
    /// Fewest long steps of walking an extra loop must save (Brogue's rule): a tunnel is
    /// carved only between two floor cells whose walking costs differ by at least this many
    /// long steps more than the tunnel's own length. Default [`DEFAULT_LOOP_GAIN`].
    pub loop_gain: u32,
    /// Backtracks one level's solve may use.
    pub budget: u32,
    /// Solve attempts per level before giving up (each continues the same RNG stream).
    pub attempts: u32,
    /// Door density, 0..=1: the share of the seams between a room and a corridor that get
    /// a (closed) door ([`crate::rooms::place_doors`]); 0 places none.
    pub doors: f64,
}

/// The default [`GenerateOptions::loop_gain`]: an extra loop saves at least 20 long steps
/// (about 330 m) of walking, so it is a shortcut a player notices, not a hole beside a
/// corridor.
pub const DEFAULT_LOOP_GAIN: u32 = 20;

/// Octagons of one level per stair [`GenerateOptions::stairs_for_area`] gives.
pub const OCTAGONS_PER_STAIR: u32 = 256;

impl GenerateOptions {
    /// Stairs per level pair for levels of `cols x rows` octagons: one per
    /// [`OCTAGONS_PER_STAIR`] octagons, at least 2 (12x12 and 16x16 get 2, 32x32 gets 4,
    /// 64x64 gets 16), so a large level is not joined to the next by two far-apart stairs.
    /// `octile generate` uses it when `--stairs` is not given.
    #[must_use]
    pub fn stairs_for_area(cols: u32, rows: u32) -> u32 {
        let octagons = u64::from(cols) * u64::from(rows);
        u32::try_from(octagons / u64::from(OCTAGONS_PER_STAIR)).unwrap_or(u32::MAX).max(2)
    }
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            seed: 0,
            levels: 3,
            cols: 12,
            rows: 12,
            cut_ratio: 0.2,
            weights: octile::Weights::default(),
            stairs: 2,
            loops: 2,
            loop_gain: DEFAULT_LOOP_GAIN,
            budget: DEFAULT_BUDGET,
            attempts: 3,
            doors: 0.5,
        }
    }
}

impl GenerateOptions {
    /// Checks the options that need no allocation; sizes, proportions and weights get
    /// their own checks where they are used.
    ///
    /// # Errors
    ///
    /// [`GenerateError::BadOption`] naming the option when: `cols` or `rows` is 0, or there
    /// are fewer than 2 octagons (the exit may not be the entrance); `levels` is 0; there are
    /// 2+ levels and `stairs` is 0 or above `(octagons - 1) / 2`; `attempts` is 0.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let bad = |name: &'static str, value: String, reason: &str| {
            Err(GenerateError::BadOption { name, value, reason: reason.to_string() })
        };
        if self.cols == 0 || self.rows == 0 {
            return bad("octagons", format!("{}x{}", self.cols, self.rows), "both sides must be at least 1");
        }
        if u64::from(self.cols) * u64::from(self.rows) < 2 {
            return bad(
                "octagons",
                format!("{}x{}", self.cols, self.rows),
                "at least 2 octagons: the exit may not be the entrance",
            );
        }
        if self.levels == 0 {
            return bad("levels", "0".into(), "at least one level");
        }
        if self.levels > 1 && self.stairs == 0 {
            return bad("stairs", "0".into(), "at least one stair joins each pair of levels");
        }
        let octagons = u64::from(self.cols) * u64::from(self.rows);
        if self.levels > 1 && 2 * u64::from(self.stairs) + 1 > octagons {
            return bad(
                "stairs",
                self.stairs.to_string(),
                &format!(
                    "more stairs than octagons: each level needs room for its stairs up, the landings \
                     of the stairs from below and the entrance, so at most {} per pair on {octagons} octagons",
                    (octagons - 1) / 2
                ),
            );
        }
        if !(0.0..=1.0).contains(&self.doors) {
            return bad("doors", self.doors.to_string(), "a density from 0 (no doors) to 1 (every site)");
        }
        if self.attempts == 0 {
            return bad("attempts", "0".into(), "at least one attempt");
        }
        // Negative and non-finite weights are the tile set's to refuse; a zero here leaves
        // every floor octagon out, though generation fixes some (entrance, exit, stairs).
        if self.weights.open_weight == 0.0 {
            return bad(
                "open-weight",
                "0".into(),
                "must be positive: generation places floor octagons (the entrance, the exit and \
                 the stairs), and a zero weight leaves no floor octagon to place",
            );
        }
        Ok(())
    }
}
