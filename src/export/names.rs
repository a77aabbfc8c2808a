//! Names written into the glTF: ASCII, at most 63 bytes, stable for the same input.

use crate::dungeon::Registry;
use crate::grid::{EdgeId, Pos};
use crate::mesh::MaterialRole;
use crate::rooms::MarkerKind;

/// Longest name written (bytes).
pub(crate) const MAX_NAME: usize = 63;

/// `raw` made ASCII letters, digits, `_` and `-` (others become `_`), cut to [`MAX_NAME`].
pub(crate) fn sanitize(raw: &str) -> String {
    raw.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .take(MAX_NAME)
        .collect()
}

/// Name of level `level`'s node: `Level_00`, `Level_01`, ...
pub(crate) fn level(level: u16) -> String {
    format!("Level_{level:02}")
}

/// Name of level `level`'s collider node, `Level_NN_Collider-colonly`: the `-colonly`
/// suffix makes Godot's importer build a static body with a concave shape and no visible
/// mesh.
pub(crate) fn collider(level: u16) -> String {
    format!("{}_Collider-colonly", self::level(level))
}

/// Name of level `level`'s collider node in `OMI_physics_body` form (`--physics omi`),
/// `Level_NN_Collider`: no suffix, so no importer makes a second collider of it by name.
pub(crate) fn omi_collider(level: u16) -> String {
    format!("{}_Collider", self::level(level))
}

/// Name of level `level`'s navigation mesh node, `Level_NN-navmesh`: Godot's importer turns
/// the `-navmesh` suffix into a navigation mesh.
pub(crate) fn navmesh(level: u16) -> String {
    format!("{}-navmesh", self::level(level))
}

/// Name of the node of the door across `edge` on `level`: `Door_LL_RRR_CCC` with the edge's
/// own slot (zero-padded like [`level`]): the Void slot of a long edge, the connector of a
/// short edge, which adds its wall (`_TL`, `_TR`, `_BR`, `_BL`) because a connector has
/// four short edges.
pub(crate) fn door(level: u16, edge: EdgeId) -> String {
    edge_object("Door", level, edge)
}

/// Name of a railing node: `Railing_LL_RRR_CCC` for a long edge, with the short edge's
/// wall (`Railing_LL_RRR_CCC_ne`) for a short one, as a door's.
pub(crate) fn railing(level: u16, edge: EdgeId) -> String {
    edge_object("Railing", level, edge)
}

/// `PREFIX_LL_RRR_CCC`, with the wall of a short edge after it: the name of an object that
/// stands on an edge.
fn edge_object(prefix: &str, level: u16, edge: EdgeId) -> String {
    match edge {
        EdgeId::Long(s) => format!("{prefix}_{level:02}_{:03}_{:03}", s.row, s.col),
        EdgeId::Short(s, wall) => format!("{prefix}_{level:02}_{:03}_{:03}_{}", s.row, s.col, wall.name()),
    }
}

/// Name of a marker node: `Spawn_LL_RRR_CCC`, `Torch_LL_RRR_CCC` (one of each at most per
/// cell) or `Prop_LL_RRR_CCC_K` (`K` counts the cell's props from 0). `None` for a door
/// hinge (the door node carries it).
pub(crate) fn marker(kind: MarkerKind, cell: Pos, nth: usize) -> Option<String> {
    let at = format!("{:02}_{:03}_{:03}", cell.level, cell.slot.row, cell.slot.col);
    match kind {
        MarkerKind::Spawn => Some(format!("Spawn_{at}")),
        MarkerKind::Torch => Some(format!("Torch_{at}")),
        MarkerKind::Prop => Some(format!("Prop_{at}_{nth}")),
        MarkerKind::DoorHinge(_) => None,
    }
}

/// Material name of `role`, taken from the registry: the plain floor tile's material for
/// floors, the stair tile's for stairs, the wall edge's for walls, the door edge's for door
/// frames; the role's own name when the registry has none or it would repeat an earlier one.
pub(crate) fn materials(registry: &Registry) -> Vec<(MaterialRole, String)> {
    let tile = |id: Option<crate::dungeon::TileId>| {
        id.and_then(|i| registry.tile_def(i)).map(|t| t.material.clone())
    };
    let door =
        registry.edges().iter().find(|e| e.carve == crate::dungeon::Carve::Door).map(|e| e.material.clone());
    let wall = registry.wall_edge().and_then(|i| registry.edge_def(i)).map(|e| e.material.clone());
    let mut out: Vec<(MaterialRole, String)> = Vec::new();
    for role in MaterialRole::ALL {
        let raw = match role {
            MaterialRole::Floor => tile(registry.plain_floor()),
            MaterialRole::Stair => tile(registry.stair()),
            MaterialRole::Wall => wall.clone(),
            MaterialRole::DoorFrame => door.clone(),
            MaterialRole::Ceiling => None,
        };
        let mut name =
            raw.map(|r| sanitize(&r)).filter(|n| !n.is_empty()).unwrap_or_else(|| role.name().into());
        if out.iter().any(|(_, n)| *n == name) {
            name = role.name().into();
        }
        out.push((role, name));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_ascii_and_unique() {
        assert_eq!(sanitize("stone wall é"), "stone_wall__");
        assert_eq!(sanitize(&"x".repeat(100)).len(), MAX_NAME);
        assert_eq!(level(3), "Level_03");
        assert_eq!(level(120), "Level_120");
        assert_eq!(collider(3), "Level_03_Collider-colonly");
        assert_eq!(navmesh(12), "Level_12-navmesh");
        let void = crate::grid::Slot::new(3, 4);
        assert_eq!(door(1, EdgeId::Long(void)), "Door_01_003_004");
        let conn = crate::grid::Slot::new(5, 7);
        assert_eq!(door(0, EdgeId::Short(conn, crate::grid::ConnectorWall::BR)), "Door_00_005_007_BR");
        assert_eq!(marker(MarkerKind::Prop, Pos::new(2, 4, 6), 1).unwrap(), "Prop_02_004_006_1");
        let m = materials(&Registry::standard());
        let names: Vec<&str> = m.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, ["floor", "wall", "ceiling", "stair", "door_frame"]);
    }
}
