//! The game objects of a level, as child nodes of its level node: door leaves
//! (`Door_LL_RRR_CCC`, always, one per carved door), markers (`Spawn_`, `Prop_`, `Torch_`,
//! with `--markers`) and torch lights (`KHR_lights_punctual` on the `Torch_` nodes, with
//! `--lights`). Positions are level-local (the level node carries the floor height).

use glam::{DQuat, DVec2, DVec3};
use gltf_json as json;
use json::extensions::scene::khr_lights_punctual as khr;
use json::validation::Checked::Valid;
use json::{Index, Root};
use serde_json::json as value;

use super::bin::Bin;
use super::document::{extras, material, node, point, single_mesh};
use super::names;
use super::primitive::{Attributes, primitive};
use crate::dungeon::Dungeon;
use crate::mesh::{self, DoorLeaf, Railing};
use crate::rooms::{LightPreset, Marker, MarkerKind, Markers, RoomGraph};

/// The extension that carries lights.
pub(crate) const LIGHTS_EXTENSION: &str = "KHR_lights_punctual";

/// The rotation about +Y that turns local -Z (glTF's forward, where lights and cameras
/// look) onto the plan direction `facing` `(x, z)`.
fn facing_rotation(facing: DVec2) -> DQuat {
    // -Z turned by yaw t is (-sin t, 0, -cos t); the leaf rule turns +X onto (cos t, -sin t).
    mesh::yaw_onto(DVec2::new(-facing.y, facing.x))
}

fn quat(q: DQuat) -> json::scene::UnitQuaternion {
    json::scene::UnitQuaternion([q.x, q.y, q.z, q.w].map(|c| if c == 0.0 { 0.0 } else { c as f32 }))
}

/// What the game-object nodes of every level are made from, computed once per export.
pub(super) struct GameObjects {
    leaves: Vec<DoorLeaf>,
    graph: RoomGraph,
    markers: Vec<Marker>,
    /// Whether every marker (spawns and props too) gets a node, or only torches.
    all_markers: bool,
    /// The light preset, when torches carry lights.
    lights: Option<LightPreset>,
    /// The leaf meshes made so far, by width and height.
    leaf_meshes: ObjectMeshes,
    /// Every railing ([`mesh::railings`]), and the railing meshes made so far, by length.
    railings: Vec<Railing>,
    railing_meshes: ObjectMeshes,
}

impl GameObjects {
    /// The game objects of `dungeon` with `options`.
    pub(super) fn new(dungeon: &Dungeon, options: &super::ExportOptions) -> GameObjects {
        let graph = RoomGraph::of(dungeon);
        let wanted = options.markers || options.lights.is_some();
        let markers =
            if wanted { Markers::of(dungeon, &graph).iter().copied().collect() } else { Vec::new() };
        GameObjects {
            leaves: mesh::door_leaves(dungeon),
            graph,
            markers,
            all_markers: options.markers,
            lights: options.lights,
            leaf_meshes: ObjectMeshes::new("door_leaf", mesh::LEAF_COLOUR),
            railings: mesh::railings(dungeon),
            railing_meshes: ObjectMeshes::new("railing", mesh::RAILING_COLOUR),
        }
    }

    /// The room graph (for the root's extras).
    pub(super) fn graph(&self) -> &RoomGraph {
        &self.graph
    }

    /// The meshes of stand-alone objects written so far (the door leaves' and railings'
    /// meshes): they share no seam with a level.
    pub(super) fn object_meshes(&self) -> Vec<Index<json::Mesh>> {
        let meshes = self.leaf_meshes.meshes.iter().chain(&self.railing_meshes.meshes);
        meshes.map(|&(_, m)| m).collect()
    }

    /// Whether a light was written (so the extension is used).
    pub(super) fn has_lights(&self) -> bool {
        self.lights.is_some()
    }

    /// The child nodes of level `level` (floor at `floor_y`): its doors, then its markers.
    pub(super) fn level_children(
        &mut self,
        dungeon: &Dungeon,
        root: &mut Root,
        bin: &mut Bin<'_>,
        level: u16,
        floor_y: f64,
    ) -> Vec<Index<json::Node>> {
        let lift = DVec3::new(0.0, floor_y, 0.0);
        let mut out = Vec::new();
        let leaves: Vec<DoorLeaf> = self.leaves.iter().filter(|l| l.level == level).copied().collect();
        for leaf in leaves {
            let mesh = self.leaf_mesh(dungeon, root, bin, &leaf);
            let rooms = [leaf.cell, other_side(dungeon, &leaf)]
                .map(|p| self.graph.room_at(dungeon, p).map_or(-1, |r| i64::from(r.0)));
            let mut n = node(names::door(level, leaf.edge));
            n.mesh = Some(mesh);
            n.translation = Some(point(leaf.hinge - lift));
            n.rotation = Some(quat(leaf.rotation()));
            let mut fields = value!({
                "role": "door",
                "state": if leaf.open { "open" } else { "closed" },
                "rooms": rooms,
                "level": level,
                "width": leaf.width,
            });
            mission_door_extras(dungeon, &leaf, &mut fields);
            if leaf.height != dungeon.proportions().door_height {
                // A door under a low seam, lower than the root's `door_h`.
                fields["height"] = value!(leaf.height);
            }
            n.extras = extras(fields);
            out.push(root.push(n));
        }
        let railings: Vec<Railing> = self.railings.iter().filter(|r| r.level == level).copied().collect();
        for railing in railings {
            let mesh = self.railing_mesh(root, bin, railing.length);
            let mut n = node(names::railing(level, railing.edge));
            n.mesh = Some(mesh);
            n.translation = Some(point(railing.start - lift));
            n.rotation = Some(quat(railing.rotation()));
            let f = railing.floor;
            n.extras = extras(value!({
                "role": "railing",
                "level": level,
                "floor": [f.level, f.slot.row, f.slot.col],
                "length": railing.length,
                "height": crate::dungeon::RAILING_HEIGHT,
            }));
            out.push(root.push(n));
        }
        let mut nth = 0;
        let mut last_cell = None;
        for m in self.markers.iter().filter(|m| m.cell.level == level) {
            if last_cell != Some(m.cell) {
                (nth, last_cell) = (0, Some(m.cell));
            }
            let preset = self.lights.filter(|_| m.kind == MarkerKind::Torch);
            if !(self.all_markers || preset.is_some()) {
                continue;
            }
            let Some(name) = names::marker(m.kind, m.cell, nth) else { continue };
            if m.kind == MarkerKind::Prop {
                nth += 1;
            }
            let light = preset.map(|p| push_light(root, &name, p));
            out.push(root.push(marker_node(name, m, lift, light)));
        }
        out
    }

    /// The shared leaf mesh for doors as wide and high as `leaf` (made on first use). Named
    /// by its width in millimetres, and its height too where that is not the dungeon's
    /// `door_height` (a door under a low seam).
    fn leaf_mesh(
        &mut self,
        dungeon: &Dungeon,
        root: &mut Root,
        bin: &mut Bin<'_>,
        leaf: &DoorLeaf,
    ) -> Index<json::Mesh> {
        let key = (leaf.width.to_bits(), leaf.height.to_bits());
        let mm = |m: f64| (m * 1000.0).round();
        let name = || {
            if leaf.height == dungeon.proportions().door_height {
                format!("DoorLeaf_{}mm_Mesh", mm(leaf.width))
            } else {
                format!("DoorLeaf_{}x{}mm_Mesh", mm(leaf.width), mm(leaf.height))
            }
        };
        self.leaf_meshes.mesh(root, bin, key, name, || mesh::leaf_mesh(leaf.width, leaf.height))
    }

    /// The shared mesh of railings `length` metres long ([`mesh::railing_mesh`], made on
    /// first use), named by its length in millimetres.
    fn railing_mesh(&mut self, root: &mut Root, bin: &mut Bin<'_>, length: f64) -> Index<json::Mesh> {
        let name = || format!("Railing_{}mm_Mesh", (length * 1000.0).round());
        self.railing_meshes.mesh(root, bin, (length.to_bits(), 0), name, || mesh::railing_mesh(length))
    }
}

/// The meshes of one kind of stand-alone object (door leaves, railings), each written once
/// per size (its key, bits of f64s), with the kind's one material.
struct ObjectMeshes {
    /// Material name and base colour.
    material: (&'static str, [f32; 4]),
    written: Option<Index<json::Material>>,
    meshes: Vec<((u64, u64), Index<json::Mesh>)>,
}

impl ObjectMeshes {
    fn new(material: &'static str, colour: [f32; 4]) -> ObjectMeshes {
        ObjectMeshes { material: (material, colour), written: None, meshes: Vec::new() }
    }

    /// The mesh of size `key`: written now (named `name()`, from `make()`) unless it was.
    fn mesh(
        &mut self,
        root: &mut Root,
        bin: &mut Bin<'_>,
        key: (u64, u64),
        name: impl FnOnce() -> String,
        make: impl FnOnce() -> mesh::Primitive,
    ) -> Index<json::Mesh> {
        if let Some(&(_, m)) = self.meshes.iter().find(|(k, _)| *k == key) {
            return m;
        }
        let (title, colour) = self.material;
        let material = *self.written.get_or_insert_with(|| material(root, title.into(), colour, false));
        let cow = std::borrow::Cow::Owned(make());
        let prim = primitive(root, bin, cow, Attributes::Surface, false, Some(material), None);
        let m = single_mesh(root, name(), prim);
        self.meshes.push((key, m));
        m
    }
}

/// A mission door's extras: `"mechanism"` (`locked`, `one-way-forward`, ...), a locked
/// door's `"lock"` id, and a one-way door's `"one_way"`: `{"from": [level, row, col], "to":
/// [...]}`, the cell it is walked from and the one it lets into.
fn mission_door_extras(dungeon: &Dungeon, leaf: &DoorLeaf, fields: &mut serde_json::Value) {
    let state = dungeon.edge_state_of(leaf.level, leaf.edge).ok();
    let Some(mechanism) = state.and_then(|s| dungeon.registry().mechanism(s)) else { return };
    let Some((a, dir, b)) = dungeon.edge_cells(leaf.edge) else { return };
    let cell = |s: crate::grid::Slot| value!([leaf.level, s.row, s.col]);
    fields["mechanism"] = value!(serde_json::to_value(mechanism).unwrap_or_default());
    let from = crate::grid::Pos { level: leaf.level, slot: a };
    if let Some(lock) = dungeon.lock_at(from, dir) {
        fields["lock"] = value!(lock);
    }
    if !mechanism.allows(b, a) {
        fields["one_way"] = value!({ "from": cell(a), "to": cell(b) });
    } else if !mechanism.allows(a, b) {
        fields["one_way"] = value!({ "from": cell(b), "to": cell(a) });
    }
}

/// The second side of a door's edge.
fn other_side(dungeon: &Dungeon, leaf: &DoorLeaf) -> crate::grid::Pos {
    let sides = dungeon.dims().edge_sides(leaf.edge).expect("invariant: leaves name edges");
    crate::grid::Pos { level: leaf.level, slot: sides[1].0 }
}

/// An empty node for marker `m` (level-local, turned so local -Z faces along `m.facing`),
/// with the torch light `light` when given. A torch node stands where the torch hangs
/// ([`crate::rooms::light_position`]), light or not.
fn marker_node(name: String, m: &Marker, lift: DVec3, light: Option<Index<khr::Light>>) -> json::Node {
    let mut n = node(name);
    let at = if m.kind == MarkerKind::Torch { crate::rooms::light_position(m) } else { m.point };
    n.translation = Some(point(at - lift));
    n.rotation = Some(quat(facing_rotation(m.facing)));
    n.extras = extras(value!({
        "role": "marker",
        "kind": m.kind.name(),
        "room": m.room.0,
        "facing": [m.facing.x, 0.0, m.facing.y],
        "level": m.cell.level,
        "row": m.cell.slot.row,
        "col": m.cell.slot.col,
    }));
    if let Some(light) = light {
        n.extensions = Some(json::extensions::scene::Node {
            khr_lights_punctual: Some(khr::KhrLightsPunctual { light }),
            ..Default::default()
        });
    }
    n
}

/// Adds the light of the torch node `name`: the colour, intensity and range of
/// [`crate::rooms::torch_lights`] with `preset`. One light per node, named as the node:
/// Assimp makes one light per light definition, so a shared one would light one torch.
fn push_light(root: &mut Root, name: &str, preset: LightPreset) -> Index<khr::Light> {
    let lights: &mut Vec<khr::Light> = root.as_mut();
    lights.push(khr::Light {
        color: crate::rooms::TORCH_COLOUR,
        extensions: None,
        extras: None,
        intensity: preset.intensity() as f32,
        name: Some(name.to_string()),
        range: Some(crate::rooms::TORCH_RANGE as f32),
        spot: None,
        type_: Valid(khr::Type::Point),
    });
    Index::new(u32::try_from(lights.len() - 1).expect("invariant: fewer lights than nodes"))
}
