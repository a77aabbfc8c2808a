//! Argument types shared by several subcommands.

use std::str::FromStr;

use octile::grid::Pos;
use octile::mesh::{DEFAULT_MAX_TRIANGLES, MeshOptions};

/// The mesh budget flag, shared by every command that builds a mesh (export, generate, view).
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct MeshBudgetArgs {
    /// Refuse a dungeon whose mesh would have more triangles than this (an upper estimate,
    /// made before meshing: a larger mesh needs more memory than most machines have).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_TRIANGLES)]
    pub max_triangles: u64,
}

impl MeshBudgetArgs {
    /// The default mesh options with this budget.
    pub fn mesh_options(&self) -> MeshOptions {
        MeshOptions { max_triangles: self.max_triangles, ..MeshOptions::default() }
    }
}

/// A number from `min` to `max` (in `unit`), for a flag whose other values make an invalid
/// file: clap's message names the flag, and this one the range.
///
/// # Errors
/// `s` is not a number, or is outside the range (NaN included).
pub fn number_in(s: &str, min: f64, max: f64, unit: &str) -> Result<f64, String> {
    let value: f64 = s.trim().parse().map_err(|_| format!("{s:?} is not a number"))?;
    if !(min..=max).contains(&value) {
        return Err(format!("must be from {min} to {max} {unit}"));
    }
    Ok(value)
}

/// `--texture-size` (metres per texture repeat), checked by [`number_in`].
///
/// # Errors
/// As [`number_in`].
pub fn texture_size(s: &str) -> Result<f64, String> {
    number_in(s, octile::mesh::MIN_TEXTURE_SIZE, octile::mesh::MAX_TEXTURE_SIZE, "metres")
}

/// A size written `COLSxROWS` (width first), as everywhere in the CLI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// Columns (width).
    pub cols: u32,
    /// Rows (height).
    pub rows: u32,
}

impl FromStr for Size {
    type Err = String;

    fn from_str(s: &str) -> Result<Size, String> {
        let (c, r) =
            s.split_once(['x', 'X']).ok_or_else(|| format!("{s:?} is not COLSxROWS (for example 10x10)"))?;
        let parse = |v: &str, what: &str| {
            let v = v.trim();
            let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
            v.parse::<u32>().map_err(|_| match v.strip_prefix('-') {
                Some(rest) if digits(rest) => format!("{what} {v:?} in {s:?} is negative"),
                _ if digits(v) => format!("{what} {v:?} in {s:?} is more than {}", u32::MAX),
                _ => format!("{what} {v:?} in {s:?} is not a whole number"),
            })
        };
        let size = Size { cols: parse(c, "columns")?, rows: parse(r, "rows")? };
        if size.cols == 0 || size.rows == 0 {
            return Err(format!("{s:?}: both sides must be at least 1"));
        }
        Ok(size)
    }
}

/// A position written `L,R,C` (level, slot row, slot column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PosArg(pub Pos);

impl FromStr for PosArg {
    type Err = String;

    fn from_str(s: &str) -> Result<PosArg, String> {
        octile::edit::script::parse_pos(s).map(PosArg).map_err(|e| e.to_string())
    }
}

/// Why `pos` is not a cell of `d`, in the one wording `path`, `sight` and `view --path` use:
/// a level or slot outside the dungeon, or a Void slot (named as the wall it is).
pub fn check_cell(d: &octile::dungeon::Dungeon, pos: Pos) -> Result<(), String> {
    let (dims, levels) = (d.dims(), d.levels());
    if pos.level >= levels {
        return Err(format!(
            "level {} is not a level of the dungeon (it has levels 0 to {})",
            pos.level,
            levels - 1
        ));
    }
    if !dims.contains(pos.slot) {
        return Err(format!(
            "{pos} is outside the dungeon (rows 0 to {}, cols 0 to {})",
            dims.rows() - 1,
            dims.cols() - 1
        ));
    }
    if !pos.slot.kind().is_cell() {
        return Err(format!("{pos} is not a cell but {}", octile::grid::EdgeId::Long(pos.slot)));
    }
    Ok(())
}

/// A route request written `L,R,C:L,R,C` (from, to).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouteArg {
    /// Start cell.
    pub from: Pos,
    /// Goal cell.
    pub to: Pos,
}

impl FromStr for RouteArg {
    type Err = String;

    fn from_str(s: &str) -> Result<RouteArg, String> {
        let (a, b) =
            s.split_once(':').ok_or_else(|| format!("{s:?} is not L,R,C:L,R,C (for example 0,2,0:1,0,4)"))?;
        Ok(RouteArg { from: a.parse::<PosArg>()?.0, to: b.parse::<PosArg>()?.0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_out_of_range_name_the_range() {
        assert_eq!(texture_size("4"), Ok(4.0));
        assert_eq!(texture_size("1e-300"), Err("must be from 0.001 to 1000000 metres".to_string()));
        assert!(
            texture_size("5e-324").is_err() && texture_size("NaN").is_err() && texture_size("inf").is_err()
        );
        assert!(texture_size("four").unwrap_err().contains("not a number"));
    }

    #[test]
    fn parses_cols_by_rows() {
        assert_eq!("10x7".parse::<Size>(), Ok(Size { cols: 10, rows: 7 }));
        assert!("10".parse::<Size>().is_err());
        assert!("0x3".parse::<Size>().is_err());
        assert!("ax3".parse::<Size>().is_err());
        assert!("-3x3".parse::<Size>().unwrap_err().contains("is negative"));
        assert!("3x99999999999".parse::<Size>().unwrap_err().contains("is more than 4294967295"));
    }

    #[test]
    fn parses_level_row_col() {
        assert_eq!("1,2,3".parse::<PosArg>(), Ok(PosArg(Pos::new(1, 2, 3))));
        assert_eq!(" 0, 4 ,6".parse::<PosArg>(), Ok(PosArg(Pos::new(0, 4, 6))));
        assert!("1,2".parse::<PosArg>().is_err());
        assert!("1,2,x".parse::<PosArg>().is_err());
        assert!("-1,2,3".parse::<PosArg>().is_err());
    }

    #[test]
    fn parses_routes() {
        let r: RouteArg = "0,2,0:1,0,4".parse().unwrap();
        assert_eq!((r.from, r.to), (Pos::new(0, 2, 0), Pos::new(1, 0, 4)));
        assert!("0,2,0".parse::<RouteArg>().is_err());
        assert!("0,2,0:1,0".parse::<RouteArg>().is_err());
    }
}
