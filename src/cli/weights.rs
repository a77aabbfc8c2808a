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
    #[arg(long)]
    void_weight: Option<f64>,
    /// Weight of a floor tile with no walls (higher: bigger open rooms) [default: 2 octile,
    /// 1 square17].
    #[arg(long)]
    open_weight: Option<f64>,
    /// Factor per wall of a floor tile (< 1 makes walled tiles rarer) [default: 0.6 octile,
    /// 0.4 square17].
    #[arg(long)]
    wall_factor: Option<f64>,
    /// Weight of a solid connector diamond (octile only) [default: 4].
    #[arg(long)]
    connector_void_weight: Option<f64>,
    /// Weight of a floor connector diamond with no walls (higher: more diagonal passages;
    /// octile only) [default: 1].
    #[arg(long)]
    connector_open_weight: Option<f64>,
}

impl WeightArgs {
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
