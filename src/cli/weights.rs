//! The tile-weight flags, shared by `octile generate` (and `view --generate`) and `octile wfc`.

use anyhow::bail;
use clap::Args;
use octile::wfc::{octile as octile_set, square17};

/// Tile weights; each flag left out keeps the tile set's default (a unit test checks that
/// the defaults in the help are the library's).
#[derive(Args, Debug, Default, Clone, Copy, PartialEq)]
#[group(id = "weights", multiple = true)]
pub struct WeightArgs {
    /// Weight of a solid tile (higher: more rock) [default: 12 octile, 2 square17].
    #[arg(long, value_parser = weight)]
    void_weight: Option<f64>,
    /// Weight of a floor tile with no walls (higher: bigger open rooms) [default: 2 octile,
    /// 1 square17].
    #[arg(long, value_parser = weight)]
    open_weight: Option<f64>,
    /// Factor per wall of a floor tile (< 1 makes walled tiles rarer) [default: 0.6 octile,
    /// 0.4 square17].
    #[arg(long, value_parser = weight)]
    wall_factor: Option<f64>,
    /// Weight of a solid connector diamond (octile only) [default: 4].
    #[arg(long, value_parser = weight)]
    connector_void_weight: Option<f64>,
    /// Weight of a floor connector diamond with no walls (higher: more diagonal passages;
    /// octile only) [default: 1].
    #[arg(long, value_parser = weight)]
    connector_open_weight: Option<f64>,
}

/// The largest weight or factor a flag takes: weights only matter relative to each other,
/// and this keeps every tile's weight (an open weight times up to eight wall factors) finite.
pub const MAX_WEIGHT: f64 = 1e6;

/// Parses a weight flag: a finite number from 0 to [`MAX_WEIGHT`].
fn weight(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=MAX_WEIGHT).contains(&v) => Ok(v),
        Ok(v) if v < 0.0 => Err(format!("{s} is negative; weights are from 0 to {MAX_WEIGHT}")),
        Ok(v) if v.is_finite() => {
            Err(format!("{s} is more than {MAX_WEIGHT} (weights only matter relative to each other)"))
        }
        _ => Err(format!("{s:?} is not a number from 0 to {MAX_WEIGHT}")),
    }
}

impl WeightArgs {
    /// The weight flags given as 0, as `--void-weight 0`, for a message.
    fn zero_flags(&self) -> Vec<String> {
        let flags = [
            ("--void-weight", self.void_weight),
            ("--open-weight", self.open_weight),
            ("--wall-factor", self.wall_factor),
            ("--connector-void-weight", self.connector_void_weight),
            ("--connector-open-weight", self.connector_open_weight),
        ];
        flags.into_iter().filter(|(_, v)| *v == Some(0.0)).map(|(f, _)| format!("{f} 0")).collect()
    }

    /// `error`, or when the solver found no tile for some cell before any choice while some
    /// weight flags are 0, a message that blames those flags (not "the fixed cells and
    /// border", which the user did not set).
    pub fn explain(&self, error: anyhow::Error) -> anyhow::Error {
        use octile::generate::GenerateError;
        use octile::wfc::SolveError;
        let unsatisfiable = |e: &SolveError| matches!(e, SolveError::Unsatisfiable { .. });
        let from_zeros = error.chain().any(|c| {
            c.downcast_ref::<SolveError>().is_some_and(unsatisfiable)
                || matches!(c.downcast_ref::<GenerateError>(), Some(GenerateError::Level { cause, .. }) if unsatisfiable(cause))
        });
        let zeros = self.zero_flags();
        if !from_zeros || zeros.is_empty() {
            return error;
        }
        anyhow::anyhow!(
            "no layout with {}: some cell has no tile of weight above 0 left (a cell at the grid's \
             border or beside rock needs a wall or rock there); give {} a value above 0",
            zeros.join(" and "),
            if zeros.len() == 1 { "it" } else { "one of them" }
        )
    }

    /// The octile tile set's weights: the flags given, `base` for the others.
    pub fn octile(&self, base: octile_set::Weights) -> octile_set::Weights {
        octile_set::Weights {
            void_weight: self.void_weight.unwrap_or(base.void_weight),
            open_weight: self.open_weight.unwrap_or(base.open_weight),
            wall_factor: self.wall_factor.unwrap_or(base.wall_factor),
            connector_void_weight: self.connector_void_weight.unwrap_or(base.connector_void_weight),
            connector_open_weight: self.connector_open_weight.unwrap_or(base.connector_open_weight),
            ..base
        }
    }

    /// The square17 tile set's weights: the flags given, the defaults for the others.
    ///
    /// # Errors
    ///
    /// A connector flag was given: square17 has no connectors.
    pub fn square17(&self) -> anyhow::Result<square17::Weights> {
        if self.connector_void_weight.is_some() || self.connector_open_weight.is_some() {
            bail!("--connector-void-weight and --connector-open-weight apply to the octile tile set only");
        }
        let base = square17::Weights::default();
        Ok(square17::Weights {
            void_weight: self.void_weight.unwrap_or(base.void_weight),
            open_weight: self.open_weight.unwrap_or(base.open_weight),
            wall_factor: self.wall_factor.unwrap_or(base.wall_factor),
        })
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        weights: WeightArgs,
    }

    fn parse(args: &[&str]) -> WeightArgs {
        Cli::try_parse_from([&["octile"], args].concat()).unwrap().weights
    }

    #[test]
    fn flags_left_out_keep_each_sets_defaults() {
        let none = parse(&[]);
        assert_eq!(none.octile(octile_set::Weights::default()), octile_set::Weights::default());
        assert_eq!(none.square17().unwrap(), square17::Weights::default());
    }

    #[test]
    fn flags_given_replace_only_their_weight() {
        let w = parse(&["--void-weight", "3", "--connector-open-weight", "0.5"]);
        let base = octile_set::Weights { dead_end_connectors: true, ..Default::default() };
        let expected = octile_set::Weights { void_weight: 3.0, connector_open_weight: 0.5, ..base };
        assert_eq!(w.octile(base), expected);
        let err = w.square17().unwrap_err().to_string();
        assert!(err.contains("octile tile set only"), "{err}");
        let square = parse(&["--wall-factor", "0.9"]).square17().unwrap();
        assert_eq!(square, square17::Weights { wall_factor: 0.9, ..Default::default() });
    }

    #[test]
    fn weights_are_finite_from_0_to_the_largest() {
        let refuse = |args: &[&str]| {
            Cli::try_parse_from([&["octile"], args].concat()).err().map(|e| e.to_string()).unwrap_or_default()
        };
        assert!(refuse(&["--wall-factor=1e300"]).contains("1e300 is more than 1000000"));
        assert!(refuse(&["--void-weight=-1"]).contains("negative"));
        assert!(refuse(&["--open-weight", "inf"]).contains("not a number from 0 to 1000000"));
        assert!(refuse(&["--open-weight", "NaN"]).contains("not a number"));
        assert_eq!(parse(&["--open-weight", "1000000"]).open_weight, Some(MAX_WEIGHT));
        // The largest weights still give finite tile weights.
        let most = parse(&["--open-weight", "1e6", "--wall-factor", "1e6", "--connector-open-weight", "1e6"]);
        assert!(octile_set::tileset(&most.octile(octile_set::Weights::default())).is_ok());
        let square = parse(&["--open-weight", "1e6", "--wall-factor", "1e6"]);
        assert!(square17::tileset(&square.square17().unwrap()).is_ok());
    }

    #[test]
    fn help_shows_the_library_defaults() {
        let (o, s) = (octile_set::Weights::default(), square17::Weights::default());
        let expected = [
            ("void_weight", format!("[default: {} octile, {} square17]", o.void_weight, s.void_weight)),
            ("open_weight", format!("[default: {} octile, {} square17]", o.open_weight, s.open_weight)),
            ("wall_factor", format!("[default: {} octile, {} square17]", o.wall_factor, s.wall_factor)),
            ("connector_void_weight", format!("[default: {}]", o.connector_void_weight)),
            ("connector_open_weight", format!("[default: {}]", o.connector_open_weight)),
        ];
        let command = <Cli as clap::CommandFactory>::command();
        for (id, suffix) in expected {
            let arg = command.get_arguments().find(|a| a.get_id() == id).expect(id);
            let help = arg.get_help().expect(id).to_string();
            assert!(help.ends_with(&suffix), "--{id}: {help:?} should end with {suffix:?}");
        }
    }
}
