//! The glTF document: buffers, accessors, meshes, materials, nodes and the scene, built
//! with `gltf-json` from a [`DungeonMesh`].

use std::borrow::Cow;

use gltf_json as json;
use json::validation::{Checked::Valid, USize64};
use json::{Index, Root};
use serde_json::json as value;

use super::bin::Bin;
use super::{ExportError, PhysicsFormat, glb, names, navmesh, nodes, physics};
use crate::dungeon::Dungeon;
use crate::mesh::{DungeonMesh, LevelMesh, MaterialRole, Primitive, Vertex};

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
}

pub(super) fn extras(v: serde_json::Value) -> json::Extras {
    Some(serde_json::value::to_raw_value(&v).expect("invariant: JSON values serialise"))
}

fn f32s(v: &[f32]) -> serde_json::Value {
    value!(v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>())
}

/// Appends bytes to the buffer, 4-aligned, and returns a view over them.
fn push_view<'a>(
    root: &mut Root,
    bin: &mut Bin<'a>,
    data: Cow<'a, [u8]>,
    stride: Option<usize>,
    target: json::buffer::Target,
) -> Index<json::buffer::View> {
    let length = data.len();
    let offset = bin.push(data);
    root.push(json::buffer::View {
        buffer: Index::new(0),
        byte_length: USize64::from(length),
        byte_offset: Some(USize64::from(offset)),
        byte_stride: stride.map(json::buffer::Stride),
        name: None,
        target: Some(Valid(target)),
        extensions: None,
        extras: None,
    })
}

#[allow(clippy::too_many_arguments)]
fn accessor(
    root: &mut Root,
    view: Index<json::buffer::View>,
    offset: usize,
    count: usize,
    component: json::accessor::ComponentType,
    kind: json::accessor::Type,
    min: Option<serde_json::Value>,
    max: Option<serde_json::Value>,
) -> Index<json::Accessor> {
    root.push(json::Accessor {
        buffer_view: Some(view),
        byte_offset: Some(USize64::from(offset)),
        count: USize64::from(count),
        component_type: Valid(json::accessor::GenericComponentType(component)),
        extensions: None,
        extras: None,
        type_: Valid(kind),
        min,
        max,
        name: None,
        normalized: false,
        sparse: None,
    })
}

/// The tangent (direction of increasing U, with the handedness that makes
/// `cross(normal, tangent) * w` the direction of increasing V) of a flat panel with this
/// normal, following the mesh builder's UV frames: horizontal panels map (x, z), vertical
/// ones (along the wall, height).
fn tangent(n: [f32; 3]) -> [f32; 4] {
    let n = glam::Vec3::from(n);
    let (u, v) = if n.y.abs() > 0.5 {
        (glam::Vec3::X, glam::Vec3::Z)
    } else {
        (glam::Vec3::new(n.z, 0.0, -n.x).normalize(), glam::Vec3::Y)
    };
    let w = if n.cross(u).dot(v) >= 0.0 { 1.0 } else { -1.0 };
    [u.x, u.y, u.z, w].map(|c| if c == 0.0 { 0.0 } else { c })
}

/// Which attributes of [`Vertex`] a primitive writes (a prefix of its fields).
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Attributes {
    /// POSITION only (colliders).
    Position,
    /// POSITION, NORMAL, TEXCOORD_0.
    Surface,
    /// POSITION, NORMAL, TEXCOORD_0, TEXCOORD_1.
    Lightmapped,
}

/// Writes one primitive's vertices (interleaved) and indices (u16 when every index fits
/// below 65535, else u32) and returns its glTF primitive. A borrowed primitive's arrays go
/// into the buffer as they are, without a copy, where the file stores them unchanged.
pub(super) fn primitive<'a>(
    root: &mut Root,
    bin: &mut Bin<'a>,
    prim: Cow<'a, Primitive>,
    attrs: Attributes,
    tangents: bool,
    material: Option<Index<json::Material>>,
) -> json::mesh::Primitive {
    use json::accessor::{ComponentType as C, Type as T};
    use json::buffer::Target;
    use json::mesh::Semantic;
    let stride = match attrs {
        Attributes::Position => 12,
        Attributes::Surface => size_of::<Vertex>() - 8,
        Attributes::Lightmapped => size_of::<Vertex>(),
    };
    // Whole vertices are the buffer as they are; fewer attributes are the front of each.
    let data: Cow<'a, [u8]> = match &prim {
        &Cow::Borrowed(p) if stride == size_of::<Vertex>() => {
            Cow::Borrowed(bytemuck::cast_slice(&p.vertices))
        }
        _ => {
            Cow::Owned(prim.vertices.iter().flat_map(|v| &bytemuck::bytes_of(v)[..stride]).copied().collect())
        }
    };
    let interleaved = attrs != Attributes::Position;
    let view = push_view(root, bin, data, interleaved.then_some(stride), Target::ArrayBuffer);
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for v in &prim.vertices {
        for k in 0..3 {
            lo[k] = lo[k].min(v.position[k]);
            hi[k] = hi[k].max(v.position[k]);
        }
    }
    let n = prim.vertices.len();
    let mut attributes = std::collections::BTreeMap::new();
    let pos = accessor(root, view, 0, n, C::F32, T::Vec3, Some(f32s(&lo)), Some(f32s(&hi)));
    attributes.insert(Valid(Semantic::Positions), pos);
    if interleaved {
        attributes.insert(Valid(Semantic::Normals), accessor(root, view, 12, n, C::F32, T::Vec3, None, None));
        attributes
            .insert(Valid(Semantic::TexCoords(0)), accessor(root, view, 24, n, C::F32, T::Vec2, None, None));
    }
    if attrs == Attributes::Lightmapped {
        attributes
            .insert(Valid(Semantic::TexCoords(1)), accessor(root, view, 32, n, C::F32, T::Vec2, None, None));
    }
    if tangents && interleaved {
        let t: Vec<[f32; 4]> = prim.vertices.iter().map(|v| tangent(v.normal)).collect();
        let tview =
            push_view(root, bin, Cow::Owned(bytemuck::cast_slice(&t).to_vec()), None, Target::ArrayBuffer);
        attributes
            .insert(Valid(Semantic::Tangents), accessor(root, tview, 0, n, C::F32, T::Vec4, None, None));
    }
    let narrow = prim.indices.iter().all(|&i| i < u32::from(u16::MAX));
    let (bytes, component): (Cow<'a, [u8]>, _) = match &prim {
        _ if narrow => {
            (Cow::Owned(prim.indices.iter().flat_map(|&i| (i as u16).to_le_bytes()).collect()), C::U16)
        }
        &Cow::Borrowed(p) => (Cow::Borrowed(bytemuck::cast_slice(&p.indices)), C::U32),
        Cow::Owned(p) => (Cow::Owned(bytemuck::cast_slice(&p.indices).to_vec()), C::U32),
    };
    let iview = push_view(root, bin, bytes, None, Target::ElementArrayBuffer);
    let indices = accessor(root, iview, 0, prim.indices.len(), component, T::Scalar, None, None);
    json::mesh::Primitive {
        attributes,
        extensions: None,
        extras: None,
        indices: Some(indices),
        material,
        mode: Valid(json::mesh::Mode::Triangles),
        targets: None,
    }
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
/// ([`crate::rooms::compact_graph_json`], key `graph`) as extras.
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
    dungeon_node.extras = extras(fields);
    dungeon_node
}

/// Where a cell is, as extras: `{"level", "row", "col"}` (integers).
fn cell_extras(pos: crate::grid::Pos) -> serde_json::Value {
    value!({ "level": pos.level, "row": pos.slot.row, "col": pos.slot.col })
}

/// The scene's extras, which survive optimisers that prune empty nodes: the level node
/// names in order, and the entrance and exit cells where the dungeon has them.
fn scene_extras(dungeon: &Dungeon) -> serde_json::Value {
    let mut fields = value!({
        "levels": (0..dungeon.levels()).map(names::level).collect::<Vec<_>>(),
    });
    for (key, pos) in [("entrance", dungeon.entrance()), ("exit", dungeon.exit())] {
        if let Some(pos) = pos {
            fields[key] = cell_extras(pos);
        }
    }
    fields
}

impl<'a> Built<'a> {
    /// The document for `mesh` (and a route ribbon in world metres, when given); `packed`
    /// is called with the number of levels packed so far after each level.
    pub(crate) fn new(
        dungeon: &Dungeon,
        mesh: &'a DungeonMesh,
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
        };
        built.root.asset.generator = Some(format!("octile {}", env!("CARGO_PKG_VERSION")));
        let materials = built.materials(dungeon, mesh);
        let root_index: Index<json::Node> = Index::new(0);
        built.root.nodes.push(dungeon_node(dungeon, objects.graph()));
        let attrs = if mesh.lightmap_uv { Attributes::Lightmapped } else { Attributes::Surface };
        let mut children = Vec::new();
        for (done, level) in mesh.levels.iter().enumerate() {
            let mut n = built.level_node(dungeon, level, &materials, attrs, options);
            let more =
                objects.level_children(dungeon, &mut built.root, &mut built.bin, level.level, level.floor_y);
            if !more.is_empty() {
                n.children.get_or_insert_with(Vec::new).extend(more);
            }
            children.push(built.root.push(n));
            packed(done + 1);
        }
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

    /// The node of one level: its mesh (one primitive per role) and, when asked, its
    /// collider child.
    fn level_node(
        &mut self,
        dungeon: &Dungeon,
        level: &'a LevelMesh,
        materials: &Materials,
        attrs: Attributes,
        options: &super::ExportOptions,
    ) -> json::Node {
        let mut n = node(names::level(level.level));
        n.translation = Some(point(glam::DVec3::new(0.0, level.floor_y, 0.0)));
        n.extras = extras(value!({ "role": "level", "level": level.level }));
        if level.primitives.is_empty() {
            return n;
        }
        let prims = level
            .primitives
            .iter()
            .map(|(role, prim)| {
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
            children.push(self.helper_node(names::navmesh(level.level), "navmesh", level.level, nav));
        }
        if !children.is_empty() {
            n.children = Some(children);
        }
        n
    }

    /// A child node of a level for engines, not for the eye (a collider or a navigation
    /// mesh): POSITION only, no material, extras `{"role": role, "level": level}`.
    fn helper_node(&mut self, name: String, role: &str, level: u16, prim: Primitive) -> Index<json::Node> {
        let prim =
            primitive(&mut self.root, &mut self.bin, Cow::Owned(prim), Attributes::Position, false, None);
        let mesh = single_mesh(&mut self.root, format!("{name}_Mesh"), prim);
        let extras = extras(value!({ "role": role, "level": level }));
        self.root.push(json::Node { mesh: Some(mesh), extras, ..node(name) })
    }

    /// A collider node `Level_NN_Collider` in `OMI_physics_body`/`OMI_physics_shape` form: a
    /// static body (no motion) whose collider is a trimesh shape over the collision mesh;
    /// the node itself has no mesh (so nothing is drawn) and no name suffix.
    fn omi_collider(&mut self, level: u16, prim: Primitive) -> Index<json::Node> {
        let name = names::omi_collider(level);
        let prim =
            primitive(&mut self.root, &mut self.bin, Cow::Owned(prim), Attributes::Position, false, None);
        let mesh = single_mesh(&mut self.root, format!("{name}_Mesh"), prim);
        let shape = physics::push_omi_shape(&mut self.root, mesh);
        let mut n = node(name);
        n.extras = extras(value!({ "role": "collider", "level": level }));
        n.extensions = Some(physics::omi_body(shape));
        self.root.push(n)
    }

    /// The node `Path` with the route ribbon (its material made here).
    fn path_node(&mut self, ribbon: Primitive) -> Index<json::Node> {
        let m = material(&mut self.root, "path".into(), crate::mesh::RIBBON_COLOUR, true);
        let prim =
            primitive(&mut self.root, &mut self.bin, Cow::Owned(ribbon), Attributes::Surface, false, Some(m));
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
        if let Some(bin) = super::compress::compress(&mut self.root, &self.bin) {
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
