//! One primitive of the glTF document: its vertices (interleaved) and indices appended to
//! the buffer ([`Bin`]) as views, and its accessors (positions with their bounds).

use std::borrow::Cow;

use gltf_json as json;
use json::validation::{Checked::Valid, USize64};
use json::{Index, Root};
use serde_json::json as value;

use super::bin::Bin;
use crate::mesh::{LevelMesh, Primitive, Vertex};

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

/// The smallest and the largest vertex position of a primitive, per axis: its `POSITION`
/// accessor's `min` and `max`.
pub(super) type Bounds = ([f32; 3], [f32; 3]);

/// The [`Bounds`] of `prim` (infinities when it has no vertex).
pub(super) fn position_bounds(prim: &Primitive) -> Bounds {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for v in &prim.vertices {
        for k in 0..3 {
            lo[k] = lo[k].min(v.position[k]);
            hi[k] = hi[k].max(v.position[k]);
        }
    }
    (lo, hi)
}

/// The [`Bounds`] of each primitive of `level`, in order: read by the mesh worker that
/// built the level, while its vertices are still in the cache.
pub(super) fn level_bounds(level: &LevelMesh) -> Vec<Bounds> {
    level.primitives.iter().map(|(_, prim)| position_bounds(prim)).collect()
}

/// Writes one primitive's vertices (interleaved) and indices (u16 when every index fits
/// below 65535, else u32) and returns its glTF primitive. A borrowed primitive's arrays go
/// into the buffer as they are, without a copy, where the file stores them unchanged.
/// `bounds` are its [`position_bounds`] when they were read already.
pub(super) fn primitive<'a>(
    root: &mut Root,
    bin: &mut Bin<'a>,
    prim: Cow<'a, Primitive>,
    attrs: Attributes,
    tangents: bool,
    material: Option<Index<json::Material>>,
    bounds: Option<Bounds>,
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
    let (lo, hi) = bounds.unwrap_or_else(|| position_bounds(&prim));
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
