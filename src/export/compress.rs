//! `--compress`: rewrites a built document with `KHR_mesh_quantization` and
//! `EXT_meshopt_compression`, both listed in `extensionsRequired`.
//!
//! - POSITION becomes unsigned 16-bit integers on one grid for the whole scene: a step of
//!   `s` metres (a power of two, the smallest whose 65535 steps span the largest mesh) from
//!   one origin, so a point shared by two primitives, or by two levels, lands on the same
//!   grid point and no seam opens. A point is at most `s / 2` off on each axis, so at most
//!   `s * sqrt(3) / 2` in a straight line.
//! - The dequantization (the scale `s` and an offset) lives on a new child node
//!   `<name>_Mesh` (extras `{"role": "mesh"}`) that takes over the mesh of each node that
//!   had one: the named nodes (levels, colliders, navigation meshes, the route) keep the
//!   translation, rotation and scale of the plain file, so the level's other children
//!   (doors, markers) stay where they were.
//! - The meshes of stand-alone objects (door leaves: a box per door width, shared by the
//!   doors of that width, and no seam with a level) keep float positions, so a leaf keeps
//!   its size exactly and a door node keeps its mesh and turns about its hinge.
//! - NORMAL and TANGENT become normalized signed 8-bit integers, padded to 4 bytes (as
//!   gltfpack writes them; a direction within 0.4 degrees).
//! - Texture coordinates stay floats (integer UVs need `KHR_texture_transform` on a texture
//!   to scale them back, and the materials have none) but are quantized to a fixed point
//!   with meshopt's exponential filter (one exponent per component for the whole stream):
//!   [`UV0_BITS`] for TEXCOORD_0, [`UV_BITS`] for the lightmap's.
//! - Every vertex stream and index list is one buffer view encoded with meshopt's codecs
//!   (attribute codec version 0, index codec version 1, as the extension specifies) into
//!   buffer 0; the views' own `buffer` is a fallback buffer without data (`"fallback":
//!   true`), so a loader without the extension must refuse the file, as
//!   `extensionsRequired` says.

use glam::{DAffine3, DMat3, DQuat, DVec3};
use gltf_json as json;
use json::accessor::{ComponentType as C, GenericComponentType, Type};
use json::mesh::Semantic;
use json::validation::{Checked::Valid, USize64};
use json::{Accessor, Index, Root};
use serde_json::json as value;

/// The quantization extension.
pub(crate) const QUANTIZATION: &str = "KHR_mesh_quantization";
/// The compression extension.
pub(crate) const MESHOPT: &str = "EXT_meshopt_compression";
/// Bits (sign included) of TEXCOORD_0's fixed-point form, one exponent per component for
/// the whole stream: the step is `2^ceil(log2 m) / 2^12` repeats for a stream whose largest
/// value is `m`. Floors (UV0 up to 4.2) get 2^-9 of a repeat, 7.8 mm with the default 4 m
/// texture (an error of at most 3.9 mm), walls (up to 2.9) 2^-10 (at most 2 mm): finer
/// than the position grid of a 64x64 dungeon (31 mm, an error of at most 16 mm on an
/// axis). 14 bits halved those errors for 12% more bytes in this stream (3.5% of the
/// 64x64x4 file).
pub(crate) const UV0_BITS: i32 = 13;
/// Bits of the fixed-point form of the other texture coordinates (the lightmap's, inside
/// [0, 1]): an error of at most 2^-12, an eighth of the padding the atlas leaves around
/// each chart (`PAD_FRACTION` in `mesh/lightmap/mod.rs`), so charts stay apart.
pub(crate) const UV_BITS: i32 = 12;
/// Largest quantized position value.
const Q_MAX: f64 = 65535.0;

/// Rewrites `root` as the module docs say and returns its new buffer 0, made from `bin`;
/// `None` when there is nothing to compress (the document stays as it is). `objects` are the
/// meshes of stand-alone objects (door leaves), whose positions stay floats.
pub(crate) fn compress(
    root: &mut Root,
    bin: &super::bin::Bin<'_>,
    objects: &[Index<json::Mesh>],
) -> Option<Vec<u8>> {
    let meshes = mesh_nodes(root);
    if meshes.is_empty() {
        return None;
    }
    let old = bin.to_vec();
    let frames = world_frames(root);
    let boxes: Vec<(DVec3, DVec3)> = meshes.iter().map(|(mesh, _)| mesh_box(root, &old, *mesh)).collect();
    let is_object: Vec<bool> =
        meshes.iter().map(|(mesh, _)| objects.iter().any(|o| o.value() == *mesh)).collect();
    let size = |(lo, hi): &(DVec3, DVec3)| (*hi - *lo).max_element();
    let extent = boxes.iter().zip(&is_object).filter(|(_, o)| !**o).map(|(b, _)| size(b)).fold(0.0, f64::max);
    let step = grid_step(extent);
    let origin = grid_origin(&meshes, &boxes, &is_object, &frames, step);
    let mut out = Streams::default();
    for (((mesh, nodes), &(lo, _)), &object) in meshes.iter().zip(&boxes).zip(&is_object) {
        // A mesh shared by several nodes keeps the grid all its nodes agree on, or its own
        // box corner when they do not.
        let snapped: Vec<DVec3> =
            nodes.iter().map(|&node| snapped_offset(frames[node], lo, origin, step)).collect();
        let offset = if snapped.windows(2).all(|w| w[0] == w[1]) { snapped[0] } else { lo };
        let grid = (!object).then_some(Grid { offset, step });
        for p in 0..root.meshes[*mesh].primitives.len() {
            quantize_primitive(root, &old, &mut out, *mesh, p, grid);
        }
        for &node in nodes.iter().filter(|_| !object) {
            move_mesh_to_child(root, node, Grid { offset, step });
        }
    }
    Some(out.finish(root, &old))
}

/// The offset that puts a mesh whose box starts at `lo` on the scene grid (`origin`, `step`)
/// when its node's world frame is a pure translation; `lo` otherwise.
fn snapped_offset(frame: Option<DAffine3>, lo: DVec3, origin: DVec3, step: f64) -> DVec3 {
    match frame {
        Some(w) if is_translation(w) => {
            let m = ((lo + w.translation - origin) / step).round();
            origin + m * step - w.translation
        }
        _ => lo,
    }
}

/// The grid of one mesh node: a position `p` (node-local metres) is stored as
/// `round((p - offset) / step)`.
#[derive(Clone, Copy)]
struct Grid {
    offset: DVec3,
    step: f64,
}

impl Grid {
    fn quantize(self, p: [f32; 3]) -> [u16; 4] {
        let q = ((DVec3::from(p.map(f64::from)) - self.offset) / self.step)
            .round()
            .clamp(DVec3::ZERO, DVec3::splat(Q_MAX));
        [q.x as u16, q.y as u16, q.z as u16, 0]
    }
}

/// The smallest power of two (metres) whose 65535 steps span `extent` with a step to spare
/// on either side.
fn grid_step(extent: f64) -> f64 {
    let mut step = 2f64.powi(-20);
    while extent / step + 2.0 > Q_MAX {
        step *= 2.0;
    }
    step
}

/// The scene grid's origin: the lowest world corner of the meshes (not `is_object`) in a
/// translated frame, snapped down to a multiple of `step`.
fn grid_origin(
    meshes: &[(usize, Vec<usize>)],
    boxes: &[(DVec3, DVec3)],
    is_object: &[bool],
    frames: &[Option<DAffine3>],
    step: f64,
) -> DVec3 {
    let lo = meshes
        .iter()
        .zip(boxes)
        .zip(is_object)
        .filter(|(_, object)| !**object)
        .flat_map(|(((_, nodes), (lo, _)), _)| {
            nodes
                .iter()
                .filter_map(|&node| frames[node].filter(|w| is_translation(*w)).map(|w| *lo + w.translation))
        })
        .fold(DVec3::splat(f64::INFINITY), DVec3::min);
    if lo.is_finite() { (lo / step).floor() * step } else { DVec3::ZERO }
}

fn is_translation(w: DAffine3) -> bool {
    w.matrix3.abs_diff_eq(DMat3::IDENTITY, 1e-9)
}

/// The world transform of every node reached from a scene (`None` for others).
fn world_frames(root: &Root) -> Vec<Option<DAffine3>> {
    let mut frames = vec![None; root.nodes.len()];
    let mut stack: Vec<(usize, DAffine3)> =
        root.scenes.iter().flat_map(|s| s.nodes.iter().map(|n| (n.value(), DAffine3::IDENTITY))).collect();
    while let Some((n, parent)) = stack.pop() {
        if frames[n].is_some() {
            continue;
        }
        let (t, r, s) = trs(&root.nodes[n]);
        let w = parent * DAffine3::from_scale_rotation_translation(s, r, t);
        frames[n] = Some(w);
        stack.extend(root.nodes[n].children.iter().flatten().map(|c| (c.value(), w)));
    }
    frames
}

/// A node's translation, rotation and scale.
fn trs(node: &json::Node) -> (DVec3, DQuat, DVec3) {
    if let Some(m) = node.matrix {
        let (s, r, t) = glam::Mat4::from_cols_array(&m).to_scale_rotation_translation();
        return (t.as_dvec3(), r.as_dquat(), s.as_dvec3());
    }
    let v = |a: [f32; 3]| DVec3::from(a.map(f64::from));
    (
        node.translation.map_or(DVec3::ZERO, v),
        node.rotation.map_or(DQuat::IDENTITY, |q| glam::Quat::from_array(q.0).as_dquat()),
        node.scale.map_or(DVec3::ONE, v),
    )
}

/// Moves the mesh of `node` onto a new first child `<name>_Mesh` that carries the grid's
/// dequantization (translation `offset`, uniform scale `step`); `node` keeps its frame.
fn move_mesh_to_child(root: &mut Root, node: usize, grid: Grid) {
    let f = |v: DVec3| v.as_vec3().to_array().map(|c| if c == 0.0 { 0.0 } else { c });
    let parent = &mut root.nodes[node];
    let child = json::Node {
        name: parent.name.as_deref().map(|n| super::names::sanitize(&format!("{n}_Mesh"))),
        mesh: parent.mesh.take(),
        translation: Some(f(grid.offset)),
        scale: Some(f(DVec3::splat(grid.step))),
        extras: super::document::extras(value!({ "role": "mesh" })),
        ..Default::default()
    };
    let child = root.push(child);
    root.nodes[node].children.get_or_insert_with(Vec::new).insert(0, child);
}

/// Every mesh used by a node, with the nodes that use it, in order of first use.
fn mesh_nodes(root: &Root) -> Vec<(usize, Vec<usize>)> {
    let mut out: Vec<(usize, Vec<usize>)> = Vec::new();
    for (node, mesh) in root.nodes.iter().enumerate().filter_map(|(i, n)| n.mesh.map(|m| (i, m.value()))) {
        match out.iter_mut().find(|(m, _)| *m == mesh) {
            Some((_, nodes)) => nodes.push(node),
            None => out.push((mesh, vec![node])),
        }
    }
    out
}

/// Bounding box (node-local metres) of a mesh's positions.
fn mesh_box(root: &Root, bin: &[u8], mesh: usize) -> (DVec3, DVec3) {
    let mut lo = DVec3::splat(f64::INFINITY);
    let mut hi = DVec3::splat(f64::NEG_INFINITY);
    for prim in &root.meshes[mesh].primitives {
        if let Some(&a) = prim.attributes.get(&Valid(Semantic::Positions)) {
            for p in read_floats::<3>(root, bin, a) {
                let p = DVec3::from(p.map(f64::from));
                (lo, hi) = (lo.min(p), hi.max(p));
            }
        }
    }
    if lo.is_finite() { (lo, hi) } else { (DVec3::ZERO, DVec3::ZERO) }
}

/// Where an accessor's elements start in `bin` and how far apart they are.
fn layout(root: &Root, a: Index<Accessor>, size: usize) -> (usize, usize, usize) {
    let acc = &root.accessors[a.value()];
    let view = &root.buffer_views[acc.buffer_view.expect("invariant: accessors have views").value()];
    let start = view.byte_offset.map_or(0, |o| o.0) + acc.byte_offset.map_or(0, |o| o.0);
    let stride = view.byte_stride.map_or(size, |s| s.0);
    (start as usize, stride, acc.count.0 as usize)
}

/// The elements of a float accessor of `N` components.
fn read_floats<const N: usize>(root: &Root, bin: &[u8], a: Index<Accessor>) -> Vec<[f32; N]> {
    let (start, stride, count) = layout(root, a, 4 * N);
    (0..count)
        .map(|i| {
            let at = start + i * stride;
            std::array::from_fn(|k| f32::from_le_bytes(bin[at + 4 * k..at + 4 * k + 4].try_into().unwrap()))
        })
        .collect()
}

/// The elements of an index accessor (unsigned 8, 16 or 32 bits).
fn read_indices(root: &Root, bin: &[u8], a: Index<Accessor>) -> Vec<u32> {
    let width = match root.accessors[a.value()].component_type {
        Valid(GenericComponentType(C::U8)) => 1,
        Valid(GenericComponentType(C::U16)) => 2,
        _ => 4,
    };
    let (start, stride, count) = layout(root, a, width);
    (0..count)
        .map(|i| {
            let b = &bin[start + i * stride..start + i * stride + width];
            b.iter().rev().fold(0u32, |v, &x| (v << 8) | u32::from(x))
        })
        .collect()
}

/// Components of an accessor type.
fn components(t: Type) -> usize {
    match t {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 | Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

/// Quantizes and encodes primitive `p` of mesh `mesh`, rewriting its accessors in place;
/// positions on `grid`, or kept as floats without one.
fn quantize_primitive(
    root: &mut Root,
    bin: &[u8],
    out: &mut Streams,
    mesh: usize,
    p: usize,
    grid: Option<Grid>,
) {
    let prim = root.meshes[mesh].primitives[p].clone();
    for (semantic, &a) in &prim.attributes {
        let Valid(semantic) = semantic else { continue };
        let n = components(root.accessors[a.value()].type_.unwrap());
        let (view, component, normalized, bounds) = match semantic {
            Semantic::Positions => match grid {
                // Float positions keep their accessor's exact bounds.
                None => (out.vertices(&read_floats::<3>(root, bin, a)), C::F32, false, None),
                Some(grid) => {
                    let q: Vec<[u16; 4]> =
                        read_floats::<3>(root, bin, a).into_iter().map(|p| grid.quantize(p)).collect();
                    let lo = (0..3).map(|k| q.iter().map(|v| v[k]).min().unwrap_or(0)).collect::<Vec<_>>();
                    let hi = (0..3).map(|k| q.iter().map(|v| v[k]).max().unwrap_or(0)).collect::<Vec<_>>();
                    (out.vertices(&q), C::U16, false, Some((value!(lo), value!(hi))))
                }
            },
            Semantic::Normals | Semantic::Tangents => {
                let q: Vec<[i8; 4]> = if n == 3 {
                    read_floats::<3>(root, bin, a)
                        .into_iter()
                        .map(|v| snorm8([v[0], v[1], v[2], 0.0]))
                        .collect()
                } else {
                    read_floats::<4>(root, bin, a).into_iter().map(snorm8).collect()
                };
                (out.vertices(&q), C::I8, true, None)
            }
            _ if n == 2 => {
                let bits = if *semantic == Semantic::TexCoords(0) { UV0_BITS } else { UV_BITS };
                (out.exponential(&read_floats::<2>(root, bin, a), bits), C::F32, false, None)
            }
            _ => {
                // Any other float attribute, padded to four components.
                let v: Vec<[f32; 4]> = match n {
                    1 => read_floats::<1>(root, bin, a).into_iter().map(|v| [v[0], 0.0, 0.0, 0.0]).collect(),
                    3 => {
                        read_floats::<3>(root, bin, a).into_iter().map(|v| [v[0], v[1], v[2], 0.0]).collect()
                    }
                    _ => read_floats::<4>(root, bin, a),
                };
                (out.vertices(&v), C::F32, false, None)
            }
        };
        out.rewritten.push(a.value());
        let acc = &mut root.accessors[a.value()];
        acc.buffer_view = Some(view);
        acc.byte_offset = None;
        acc.component_type = Valid(GenericComponentType(component));
        acc.normalized = normalized;
        if let Some((lo, hi)) = bounds {
            (acc.min, acc.max) = (Some(lo), Some(hi));
        }
    }
    if let Some(a) = prim.indices {
        let vertices =
            prim.attributes.values().next().map_or(0, |v| root.accessors[v.value()].count.0 as usize);
        let indices = read_indices(root, bin, a);
        let wide = !matches!(root.accessors[a.value()].component_type, Valid(GenericComponentType(C::U16)));
        let view = out.indices(&indices, vertices, wide);
        out.rewritten.push(a.value());
        let acc = &mut root.accessors[a.value()];
        acc.buffer_view = Some(view);
        acc.byte_offset = None;
        acc.component_type = Valid(GenericComponentType(if wide { C::U32 } else { C::U16 }));
    }
}

fn snorm8(v: [f32; 4]) -> [i8; 4] {
    v.map(|c| meshopt::quantize_snorm(c, 8) as i8)
}

/// The new buffers: encoded streams (buffer 0) and the size of the fallback (buffer 1).
#[derive(Default)]
struct Streams {
    data: Vec<u8>,
    fallback: usize,
    views: Vec<json::buffer::View>,
    /// Accessors that now point into `views`.
    rewritten: Vec<usize>,
}

impl Streams {
    /// Adds one meshopt-encoded stream whose decoded form is `count` elements of `stride`
    /// bytes, and returns its view (indices into the new view list).
    fn push(
        &mut self,
        encoded: &[u8],
        (count, stride): (usize, usize),
        (mode, filter): (&str, Option<&str>),
        target: json::buffer::Target,
    ) -> Index<json::buffer::View> {
        let offset = self.data.len();
        self.data.extend_from_slice(encoded);
        self.data.resize(self.data.len().div_ceil(4) * 4, 0);
        let fallback = self.fallback;
        self.fallback += (count * stride).div_ceil(4) * 4;
        let mut fields = value!({
            "buffer": 0,
            "byteOffset": offset,
            "byteLength": encoded.len(),
            "byteStride": stride,
            "mode": mode,
            "count": count,
        });
        if let Some(filter) = filter {
            fields["filter"] = value!(filter);
        }
        let mut ext = json::extensions::buffer::View::default();
        ext.others.insert(MESHOPT.into(), fields);
        let vertex = target == json::buffer::Target::ArrayBuffer;
        self.views.push(json::buffer::View {
            buffer: Index::new(1),
            byte_length: USize64::from(count * stride),
            byte_offset: Some(USize64::from(fallback)),
            byte_stride: vertex.then_some(json::buffer::Stride(stride)),
            name: None,
            target: Some(Valid(target)),
            extensions: Some(ext),
            extras: None,
        });
        Index::new(u32::try_from(self.views.len() - 1).expect("invariant: views fit in u32"))
    }

    fn vertices<T: bytemuck::Pod>(&mut self, v: &[T]) -> Index<json::buffer::View> {
        let encoded = meshopt::encode_vertex_buffer_level(v, 2, Some(0))
            .expect("invariant: meshopt encodes any stream");
        self.push(
            &encoded,
            (v.len(), size_of::<T>()),
            ("ATTRIBUTES", None),
            json::buffer::Target::ArrayBuffer,
        )
    }

    /// Floats in a fixed point of `bits` bits, one exponent per component (meshopt's
    /// exponential filter), encoded.
    fn exponential(&mut self, v: &[[f32; 2]], bits: i32) -> Index<json::buffer::View> {
        let filtered = meshopt::encode_filter_exp(v, bits, meshopt::EncodeExpMode::SharedComponent);
        let encoded = meshopt::encode_vertex_buffer_level(&filtered, 2, Some(0))
            .expect("invariant: meshopt encodes any stream");
        let shape = (v.len(), size_of::<[u32; 2]>());
        self.push(&encoded, shape, ("ATTRIBUTES", Some("EXPONENTIAL")), json::buffer::Target::ArrayBuffer)
    }

    fn indices(&mut self, indices: &[u32], vertices: usize, wide: bool) -> Index<json::buffer::View> {
        let encoded = meshopt::encode_index_buffer(indices, vertices)
            .expect("invariant: meshopt encodes triangle lists");
        let stride = if wide { 4 } else { 2 };
        self.push(
            &encoded,
            (indices.len(), stride),
            ("TRIANGLES", None),
            json::buffer::Target::ElementArrayBuffer,
        )
    }

    /// Copies, uncompressed, the old views that accessors not rewritten and images still
    /// use, and points those at the copies.
    fn keep_other_views(&mut self, root: &mut Root, old: &[u8]) {
        self.rewritten.sort_unstable();
        let old_views = root.buffer_views.clone();
        let mut copied: Vec<Option<Index<json::buffer::View>>> = vec![None; old_views.len()];
        let mut copy = |this: &mut Streams, v: Index<json::buffer::View>| {
            *copied[v.value()].get_or_insert_with(|| {
                let mut view = old_views[v.value()].clone();
                let start = view.byte_offset.map_or(0, |o| o.0) as usize;
                let offset = this.data.len();
                this.data.extend_from_slice(&old[start..start + view.byte_length.0 as usize]);
                this.data.resize(this.data.len().div_ceil(4) * 4, 0);
                view.buffer = Index::new(0);
                view.byte_offset = Some(USize64::from(offset));
                this.views.push(view);
                Index::new(u32::try_from(this.views.len() - 1).expect("invariant: views fit in u32"))
            })
        };
        for i in 0..root.accessors.len() {
            if let (Err(_), Some(v)) = (self.rewritten.binary_search(&i), root.accessors[i].buffer_view) {
                root.accessors[i].buffer_view = Some(copy(self, v));
            }
        }
        for i in 0..root.images.len() {
            if let Some(v) = root.images[i].buffer_view {
                root.images[i].buffer_view = Some(copy(self, v));
            }
        }
    }

    /// Replaces the views and buffers of `root`, lists the extensions as used and required,
    /// and returns buffer 0's bytes.
    fn finish(mut self, root: &mut Root, old: &[u8]) -> Vec<u8> {
        self.keep_other_views(root, old);
        root.buffer_views = std::mem::take(&mut self.views);
        let mut fallback = json::extensions::buffer::Buffer::default();
        fallback.others.insert(MESHOPT.into(), value!({ "fallback": true }));
        root.buffers = vec![
            json::Buffer {
                byte_length: USize64::from(self.data.len()),
                name: None,
                uri: None,
                extensions: None,
                extras: None,
            },
            json::Buffer {
                byte_length: USize64::from(self.fallback),
                name: None,
                uri: None,
                extensions: Some(fallback),
                extras: None,
            },
        ];
        for ext in [QUANTIZATION, MESHOPT] {
            for list in [&mut root.extensions_used, &mut root.extensions_required] {
                if !list.iter().any(|e| e == ext) {
                    list.push(ext.into());
                }
            }
        }
        self.data
    }
}
