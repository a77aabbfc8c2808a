//! The glTF document: buffers, accessors, meshes, materials, nodes and the scene, built
//! with `gltf-json` from a [`DungeonMesh`].

use std::borrow::Cow;

use gltf_json as json;
use json::validation::USize64;
use json::{Index, Root};
use serde_json::json as value;

use super::bin::Bin;
use super::primitive::{Attributes, Bounds, primitive};
use super::{ExportError, PhysicsFormat, glb, names, navmesh, nodes, physics};
use crate::dungeon::Dungeon;
use crate::mesh::{DungeonMesh, LevelMesh, MaterialRole, Primitive};

/// Name of the scene (no node has it).
const SCENE: &str = "Octile";

/// A document ready to serialise, with its binary buffer (which borrows the level
/// meshes' arrays: `'a` is the mesh's lifetime).
pub(crate) struct Built<'a> {
    root: Root,
    bin: Bin<'a>,
    triangles: usize,
    vertices: usize,
    levels: usize,
    /// The meshes of stand-alone objects (door leaves), which `compress` quantizes each on
    /// a grid of its own.
    objects: Vec<Index<json::Mesh>>,
}

pub(super) fn extras(v: serde_json::Value) -> json::Extras {
    Some(serde_json::value::to_raw_value(&v).expect("invariant: JSON values serialise"))
}

pub(super) fn material(
    root: &mut Root,
    name: String,
    colour: [f32; 4],
    double_sided: bool,
) -> Index<json::Material> {
    root.push(json::Material {
        name: Some(name),
        double_sided,
        pbr_metallic_roughness: json::material::PbrMetallicRoughness {
            base_color_factor: json::material::PbrBaseColorFactor(colour),
            metallic_factor: json::material::StrengthFactor(0.0),
            roughness_factor: json::material::StrengthFactor(0.9),
            ..Default::default()
        },
        ..Default::default()
    })
}

pub(super) fn node(name: String) -> json::Node {
    json::Node { name: Some(name), ..Default::default() }
}

pub(super) fn point(p: glam::DVec3) -> [f32; 3] {
    [p.x as f32, p.y as f32, p.z as f32].map(|v| if v == 0.0 { 0.0 } else { v })
}

/// The materials of the roles `mesh` uses, by role.
type Materials = Vec<(MaterialRole, Index<json::Material>)>;

/// A mesh of one primitive named `name`.
pub(super) fn single_mesh(root: &mut Root, name: String, prim: json::mesh::Primitive) -> Index<json::Mesh> {
    root.push(json::Mesh {
        name: Some(name),
        primitives: vec![prim],
        extensions: None,
        extras: None,
        weights: None,
    })
}

/// The root node `Dungeon`, with the proportions, grid size, seed (a decimal string, left
/// out when the dungeon has none: extras never hold `null`) and the compact room graph
/// ([`crate::rooms::compact_graph_json`], key `graph`) as extras, and where the dungeon was
/// built from a room graph its room table ([`crate::rooms::compact_room_table_json`], key
/// `room_table`: each room's name, role, shape, size, level, centre and height).
fn dungeon_node(dungeon: &Dungeon, graph: &crate::rooms::RoomGraph) -> json::Node {
    let p = dungeon.proportions();
    let dims = dungeon.dims();
    let mut dungeon_node = node("Dungeon".into());
    let mut fields = value!({
        "role": "dungeon",
        "base": p.base,
        "cut_ratio": p.cut_ratio,
        "layer_h": p.layer_height,
        "room_h": p.room_height,
        "door_w": p.door_width,
        "door_h": p.door_height,
        "spacing": p.cell_spacing(),
        "cols": dims.octagon_cols(),
        "rows": dims.octagon_rows(),
        "levels": dungeon.levels(),
    });
    if let Some(seed) = dungeon.seed() {
        fields["seed"] = value!(seed.to_string());
    }
    fields["graph"] = crate::rooms::compact_graph_json(graph);
    if dungeon.has_rooms() {
        fields["room_table"] = crate::rooms::compact_room_table_json(dungeon);
    }
    dungeon_node.extras = extras(fields);
    dungeon_node
}

/// A level node's extras: `{"role": "level", "level"}`, and where any cell of the dungeon
/// has a room height of its own, the level's tallest room (`room_h_max`, metres) and its
/// cells of set height (`heights`, `[row, col, metres]` each, row-major); every other cell
/// is the root's `room_h` high.
fn level_extras(dungeon: &Dungeon, level: u16) -> serde_json::Value {
    let mut fields = value!({ "role": "level", "level": level });
    if dungeon.has_room_heights() {
        let heights: Vec<serde_json::Value> = dungeon
            .room_heights_set()
            .filter(|(p, _)| p.level == level)
            .map(|(p, h)| value!([p.slot.row, p.slot.col, h.to_metres()]))
            .collect();
        fields["room_h_max"] = value!(dungeon.tallest_room(level));
        fields["heights"] = value!(heights);
    }
    fields
}

/// Where a cell is, as extras: `{"level", "row", "col"}` (integers).
fn cell_extras(pos: crate::grid::Pos) -> serde_json::Value {
    value!({ "level": pos.level, "row": pos.slot.row, "col": pos.slot.col })
}

/// The scene's extras, which survive optimisers that prune empty nodes: the level node
/// names in order, the entrance and exit cells where the dungeon has them, and the flow
/// (`"flow"`: `holds`, `failures`, `critical_path` cells, `critical_locks`) where it has
/// locks, keys or mission doors.
fn scene_extras(dungeon: &Dungeon) -> serde_json::Value {
    let mut fields = value!({
        "levels": (0..dungeon.levels()).map(names::level).collect::<Vec<_>>(),
    });
    for (key, pos) in [("entrance", dungeon.entrance()), ("exit", dungeon.exit())] {
        if let Some(pos) = pos {
            fields[key] = cell_extras(pos);
        }
    }
    // The flow: the critical path and the proof's verdict, for a dungeon with locks, keys
    // or mission doors ([`crate::flow::verify`]).
    if dungeon.has_flow() {
        let verdict = crate::flow::verify(dungeon);
        let path: Vec<serde_json::Value> =
            verdict.critical_path.iter().map(|p| value!([p.level, p.slot.row, p.slot.col])).collect();
        fields["flow"] = value!({
            "holds": verdict.holds(),
            "failures": verdict.failures.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "critical_path": path,
            "critical_locks": verdict.critical_locks,
        });
    }
    fields
}

impl<'a> Built<'a> {
    /// The document for `mesh` (and a route ribbon in world metres, when given); `bounds`
    /// are each level's primitives' bounds when they were read already; `packed` is called
    /// with the number of levels packed so far after each level.
    pub(crate) fn new(
        dungeon: &Dungeon,
        mesh: &'a DungeonMesh,
        bounds: Option<&[Vec<Bounds>]>,
        ribbon: Option<Primitive>,
        options: &super::ExportOptions,
        mut objects: nodes::GameObjects,
        packed: &mut dyn FnMut(usize),
    ) -> Built<'a> {
        let mut built = Built {
            root: Root::default(),
            bin: Bin::default(),
            triangles: 0,
            vertices: 0,
            levels: mesh.levels.len(),
            objects: Vec::new(),
        };
        built.root.asset.generator = Some(format!("octile {}", env!("CARGO_PKG_VERSION")));
        let materials = built.materials(dungeon, mesh);
        let root_index: Index<json::Node> = Index::new(0);
        built.root.nodes.push(dungeon_node(dungeon, objects.graph()));
        let attrs = if mesh.lightmap_uv { Attributes::Lightmapped } else { Attributes::Surface };
        let mut children = Vec::new();
        for (done, level) in mesh.levels.iter().enumerate() {
            let level_bounds = bounds.and_then(|b| b.get(done)).map(Vec::as_slice);
            let mut n = built.level_node(dungeon, level, level_bounds, &materials, attrs, options);
            let more =
                objects.level_children(dungeon, &mut built.root, &mut built.bin, level.level, level.floor_y);
            if !more.is_empty() {
                n.children.get_or_insert_with(Vec::new).extend(more);
            }
            children.push(built.root.push(n));
            packed(done + 1);
        }
        built.objects = objects.object_meshes();
        if objects.has_lights() {
            built.root.extensions_used.push(nodes::LIGHTS_EXTENSION.into());
        }
        if let Some(rib) = ribbon.filter(|r| !r.indices.is_empty()) {
            children.push(built.path_node(rib));
        }
        for (name, role, pos) in
            [("Entrance", "entrance", dungeon.entrance()), ("Exit", "exit", dungeon.exit())]
        {
            if let Some(pos) = pos {
                let mut n = node(name.into());
                n.translation = Some(point(dungeon.layout().world_center(pos)));
                let mut fields = cell_extras(pos);
                fields["role"] = value!(role);
                n.extras = extras(fields);
                children.push(built.root.push(n));
            }
        }
        // A key marker per placed key: an empty `Key_<id>` on its cell.
        for (lock, pos) in dungeon.keys() {
            let mut n = node(format!("Key_{lock}"));
            n.translation = Some(point(dungeon.layout().world_center(pos)));
            let mut fields = cell_extras(pos);
            fields["role"] = value!("key");
            fields["lock"] = value!(lock);
            n.extras = extras(fields);
            children.push(built.root.push(n));
        }
        built.root.nodes[root_index.value()].children = Some(children);
        built.finish(root_index, scene_extras(dungeon));
        built
    }

    /// One material per role that `mesh` uses, named from `dungeon`'s registry.
    fn materials(&mut self, dungeon: &Dungeon, mesh: &DungeonMesh) -> Materials {
        let used =
            |role: MaterialRole| mesh.levels.iter().any(|l| l.primitives.iter().any(|(r, _)| *r == role));
        names::materials(dungeon.registry())
            .into_iter()
            .filter(|(role, _)| used(*role))
            .map(|(role, name)| (role, material(&mut self.root, name, role.colour(), false)))
            .collect()
    }

    /// The node of one level: its mesh (one primitive per role, with their `bounds` when
    /// read already) and, when asked, its collider child.
    fn level_node(
        &mut self,
        dungeon: &Dungeon,
        level: &'a LevelMesh,
        bounds: Option<&[Bounds]>,
        materials: &Materials,
        attrs: Attributes,
        options: &super::ExportOptions,
    ) -> json::Node {
        let mut n = node(names::level(level.level));
        n.translation = Some(point(glam::DVec3::new(0.0, level.floor_y, 0.0)));
        n.extras = extras(level_extras(dungeon, level.level));
        if level.primitives.is_empty() {
            return n;
        }
        let prims = level
            .primitives
            .iter()
            .enumerate()
            .map(|(k, (role, prim))| {
                self.triangles += prim.indices.len() / 3;
                self.vertices += prim.vertices.len();
                let m = materials.iter().find(|(r, _)| r == role).expect("invariant: used role").1;
                primitive(
                    &mut self.root,
                    &mut self.bin,
                    Cow::Borrowed(prim),
                    attrs,
                    options.tangents,
                    Some(m),
                    bounds.and_then(|b| b.get(k)).copied(),
                )
            })
            .collect();
        n.mesh = Some(self.root.push(json::Mesh {
            name: Some(format!("{}_Mesh", names::level(level.level))),
            primitives: prims,
            extensions: None,
            extras: None,
            weights: None,
        }));
        let mut children = Vec::new();
        if options.colliders {
            let prim = physics::collider(dungeon, level);
            children.push(match options.physics {
                PhysicsFormat::GodotSuffix => {
                    self.helper_node(names::collider(level.level), "collider", level.level, prim)
                }
                PhysicsFormat::Omi => self.omi_collider(level.level, prim),
            });
        }
        if let Some(nav) = options.navmesh.then(|| navmesh::navmesh(dungeon, level)).flatten() {
            let node = self.helper_node(names::navmesh(level.level), "navmesh", level.level, nav);
            let links = navmesh::drop_links(dungeon, level.level);
            if !links.is_empty() {
                // Drops as off-mesh links: one-way, from this level's mesh to a lower one's.
                let n = &mut self.root.nodes[node.value()];
                n.extras = extras(value!({ "role": "navmesh", "level": level.level, "links": links }));
            }
            children.push(node);
        }
        if !children.is_empty() {
            n.children = Some(children);
        }
        n
    }

    /// The mesh `{name}_Mesh` of one POSITION-only primitive with no material (a collider
    /// or a navigation mesh).
    fn position_mesh(&mut self, name: &str, prim: Primitive) -> Index<json::Mesh> {
        let (position, no_tangents, no_material, no_bounds) = (Attributes::Position, false, None, None);
        let bin = &mut self.bin;
        let prim =
            primitive(&mut self.root, bin, Cow::Owned(prim), position, no_tangents, no_material, no_bounds);
        single_mesh(&mut self.root, format!("{name}_Mesh"), prim)
    }

    /// A child node of a level for engines, not for the eye (a collider or a navigation
    /// mesh): POSITION only, no material, extras `{"role": role, "level": level}`.
    fn helper_node(&mut self, name: String, role: &str, level: u16, prim: Primitive) -> Index<json::Node> {
        let mesh = self.position_mesh(&name, prim);
        let extras = extras(value!({ "role": role, "level": level }));
        self.root.push(json::Node { mesh: Some(mesh), extras, ..node(name) })
    }

    /// A collider node `Level_NN_Collider` in `OMI_physics_body`/`OMI_physics_shape` form: a
    /// static body (no motion) whose collider is a trimesh shape over the collision mesh;
    /// the node itself has no mesh (so nothing is drawn) and no name suffix.
    fn omi_collider(&mut self, level: u16, prim: Primitive) -> Index<json::Node> {
        let name = names::omi_collider(level);
        let mesh = self.position_mesh(&name, prim);
        let shape = physics::push_omi_shape(&mut self.root, mesh);
        let mut n = node(name);
        n.extras = extras(value!({ "role": "collider", "level": level }));
        n.extensions = Some(physics::omi_body(shape));
        self.root.push(n)
    }

    /// The node `Path` with the route ribbon (its material made here).
    fn path_node(&mut self, ribbon: Primitive) -> Index<json::Node> {
        let m = material(&mut self.root, "path".into(), crate::mesh::RIBBON_COLOUR, true);
        let prim = primitive(
            &mut self.root,
            &mut self.bin,
            Cow::Owned(ribbon),
            Attributes::Surface,
            false,
            Some(m),
            None,
        );
        let mesh = single_mesh(&mut self.root, "Path_Mesh".into(), prim);
        let extras = extras(value!({ "role": "route" }));
        self.root.push(json::Node { mesh: Some(mesh), extras, ..node("Path".into()) })
    }

    /// The scene on `root_node` with `scene_extras`, and the buffer (when there are bytes).
    fn finish(&mut self, root_node: Index<json::Node>, scene_extras: serde_json::Value) {
        let scene = self.root.push(json::Scene {
            name: Some(SCENE.into()),
            nodes: vec![root_node],
            extensions: None,
            extras: extras(scene_extras),
        });
        self.root.scene = Some(scene);
        if !self.bin.is_empty() {
            self.root.push(json::Buffer {
                byte_length: USize64::from(self.bin.len()),
                name: None,
                uri: None,
                extensions: None,
                extras: None,
            });
        }
    }

    /// Quantizes and meshopt-encodes the document ([`super::compress`]).
    pub(crate) fn compress(&mut self) {
        if let Some(bin) = super::compress::compress(&mut self.root, &self.bin, &self.objects) {
            self.bin = Bin::from_vec(bin);
        }
    }

    /// `(triangles, vertices)` over all levels.
    pub(crate) fn counts(&self) -> (usize, usize) {
        (self.triangles, self.vertices)
    }

    /// Number of level nodes.
    pub(crate) fn levels(&self) -> usize {
        self.levels
    }

    fn json(&self) -> Vec<u8> {
        self.root.to_vec().expect("invariant: glTF JSON serialises")
    }

    /// One binary GLB, in memory.
    pub(crate) fn into_glb(self) -> Result<Vec<u8>, ExportError> {
        let glb = self.glb()?;
        let mut out = Vec::with_capacity(glb.len());
        glb.runs().for_each(|r| out.extend_from_slice(r));
        Ok(out)
    }

    /// One binary GLB as the runs of bytes it is made of ([`glb::Glb`]), to be written out
    /// without joining them.
    pub(crate) fn glb(&self) -> Result<glb::Glb<'_>, ExportError> {
        glb::Glb::new(self.json(), &self.bin)
    }

    /// JSON text with the buffer at `uri`, and the buffer.
    pub(crate) fn into_parts(mut self, uri: Option<String>) -> (Vec<u8>, Bin<'a>) {
        if let Some(b) = self.root.buffers.first_mut() {
            b.uri = uri;
        }
        (self.root.to_vec_pretty().expect("invariant: glTF JSON serialises"), self.bin)
    }
}
