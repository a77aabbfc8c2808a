//! Names written into the glTF: ASCII, at most 63 bytes, stable for the same input.

use crate::dungeon::Registry;
use crate::mesh::MaterialRole;

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

/// Name of level `level`'s navigation mesh node, `Level_NN-navmesh`: Godot's importer turns
/// the `-navmesh` suffix into a navigation mesh.
pub(crate) fn navmesh(level: u16) -> String {
    format!("{}-navmesh", self::level(level))
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
        let m = materials(&Registry::standard());
        let names: Vec<&str> = m.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, ["floor", "wall", "ceiling", "stair", "door_frame"]);
    }
}
