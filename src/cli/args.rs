//! Argument types shared by several subcommands.

use std::str::FromStr;

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
            v.trim().parse::<u32>().map_err(|_| format!("{what} {v:?} in {s:?} is not a whole number"))
        };
        let size = Size { cols: parse(c, "columns")?, rows: parse(r, "rows")? };
        if size.cols == 0 || size.rows == 0 {
            return Err(format!("{s:?}: both sides must be at least 1"));
        }
        Ok(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cols_by_rows() {
        assert_eq!("10x7".parse::<Size>(), Ok(Size { cols: 10, rows: 7 }));
        assert!("10".parse::<Size>().is_err());
        assert!("0x3".parse::<Size>().is_err());
        assert!("ax3".parse::<Size>().is_err());
    }
}
