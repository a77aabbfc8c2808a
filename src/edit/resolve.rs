//! Re-solving around a point (placeholder until the solver is wired).

use super::EditError;
use super::change::Recorder;
use crate::grid::Pos;

pub(crate) fn resolve(_rec: &mut Recorder<'_>, _pos: Pos, radius: u32) -> Result<(), EditError> {
    Err(EditError::BadRadius { radius, reason: "not yet".into() })
}
