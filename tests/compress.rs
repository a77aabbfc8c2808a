//! `--compress` (`ExportOptions::compress`): the file decodes with meshopt's own decoder,
//! the `gltf` crate reads the decoded file, and every vertex lies within half a grid step
//! of the plain export's, on one grid for the whole scene (no seam opens), with the same
//! triangles; and the file is much smaller than the plain one.

use std::collections::BTreeMap;

use octile::dungeon::{Dungeon, Fill, Registry};
use octile::export::{Export, ExportOptions};
use octile::geometry::Proportions;
use octile::grid::{Direction, Pos};
use serde_json::Value;

/// A GLB's JSON and binary chunks.
fn split(glb: &[u8]) -> (Value, Vec<u8>) {
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let rest = &glb[20 + json_len..];
    let bin = if rest.len() >= 8 {
        let n = u32::from_le_bytes(rest[0..4].try_into().unwrap()) as usize;
        rest[8..8 + n].to_vec()
    } else {
        Vec::new()
    };
    (json, bin)
}

/// A GLB of `json` and `bin`.
fn pack(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut text = serde_json::to_vec(json).unwrap();
    text.resize(text.len().div_ceil(4) * 4, b' ');
    let mut data = bin.to_vec();
    data.resize(data.len().div_ceil(4) * 4, 0);
    let total = 12 + 8 + text.len() + 8 + data.len();
    let mut out = Vec::new();
    for word in [0x4654_6C67u32, 2, total as u32, text.len() as u32, 0x4E4F_534A] {
        out.extend(word.to_le_bytes());
    }
    out.extend(&text);
    out.extend((data.len() as u32).to_le_bytes());
    out.extend(0x004E_4942u32.to_le_bytes());
    out.extend(&data);
    out
}

/// meshopt's decoder on one stream of `count` elements of `stride` bytes.
fn decode(mode: &str, filter: Option<&str>, encoded: &[u8], count: usize, stride: usize) -> Vec<u8> {
    fn vertices<const N: usize>(encoded: &[u8], count: usize) -> Vec<u8>
    where
        [u8; N]: Default,
    {
        meshopt::decode_vertex_buffer::<[u8; N]>(encoded, count).unwrap().concat()
    }
    if filter == Some("EXPONENTIAL") {
        assert_eq!((mode, stride), ("ATTRIBUTES", 8));
        let mut v = meshopt::decode_vertex_buffer::<[u32; 2]>(encoded, count).unwrap();
        meshopt::decode_filter_exp(&mut v);
        return v.iter().flatten().flat_map(|c| c.to_le_bytes()).collect();
    }
    assert_eq!(filter, None);
    match (mode, stride) {
        ("TRIANGLES", 2) => meshopt::decode_index_buffer::<u16>(encoded, count)
            .unwrap()
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect(),
        ("TRIANGLES", 4) => meshopt::decode_index_buffer::<u32>(encoded, count)
            .unwrap()
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect(),
        ("ATTRIBUTES", 4) => vertices::<4>(encoded, count),
        ("ATTRIBUTES", 8) => vertices::<8>(encoded, count),
        ("ATTRIBUTES", 12) => vertices::<12>(encoded, count),
        ("ATTRIBUTES", 16) => vertices::<16>(encoded, count),
        other => panic!("unexpected stream {other:?}"),
    }
}

/// The compressed GLB decoded: every meshopt view decoded into one plain buffer, the
/// fallback buffer and `EXT_meshopt_compression` gone. `KHR_mesh_quantization` stays used
/// but not required (the `gltf` crate refuses required extensions it does not know).
fn decoded(glb: &[u8]) -> Vec<u8> {
    let (mut json, bin) = split(glb);
    let required: Vec<&str> =
        json["extensionsRequired"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(required, ["KHR_mesh_quantization", "EXT_meshopt_compression"]);
    assert_eq!(json["buffers"][1]["extensions"]["EXT_meshopt_compression"]["fallback"], true);
    assert!(json["buffers"][1].get("uri").is_none(), "the fallback buffer has no data");
    let mut plain = Vec::new();
    for view in json["bufferViews"].as_array_mut().unwrap() {
        let ext = view["extensions"]["EXT_meshopt_compression"].take();
        let at = |k: &str| ext[k].as_u64().unwrap() as usize;
        let (offset, length) = (at("byteOffset"), at("byteLength"));
        let data = decode(
            ext["mode"].as_str().unwrap(),
            ext["filter"].as_str(),
            &bin[offset..offset + length],
            at("count"),
            at("byteStride"),
        );
        assert_eq!(data.len() as u64, view["byteLength"].as_u64().unwrap());
        view.as_object_mut().unwrap().remove("extensions");
        view["buffer"] = 0.into();
        view["byteOffset"] = plain.len().into();
        plain.extend(data);
        plain.resize(plain.len().div_ceil(4) * 4, 0);
    }
    json["buffers"] = serde_json::json!([{ "byteLength": plain.len() }]);
    json["extensionsUsed"] = serde_json::json!(["KHR_mesh_quantization"]);
    json.as_object_mut().unwrap().remove("extensionsRequired");
    pack(&json, &plain)
}

/// Per mesh node name, per primitive: world positions, normals, UV0 and UV1 (one vector a
/// vertex) and indices.
type Read = BTreeMap<String, Vec<(Vec<glam::DVec3>, Vec<glam::DVec3>, Vec<Vec<f64>>, Vec<u32>)>>;

/// The elements of a float or normalized-integer accessor of `n` components, as floats.
fn floats(a: gltf::Accessor, n: usize, blob: &[u8]) -> Vec<Vec<f64>> {
    use gltf::accessor::{DataType, Iter};
    let norm = a.normalized();
    let data = |_| Some(blob);
    match (a.data_type(), n) {
        (DataType::F32, 3) => {
            Iter::<[f32; 3]>::new(a, data).unwrap().map(|v| v.map(f64::from).to_vec()).collect()
        }
        (DataType::F32, 2) => {
            Iter::<[f32; 2]>::new(a, data).unwrap().map(|v| v.map(f64::from).to_vec()).collect()
        }
        (DataType::U16, 3) => {
            Iter::<[u16; 3]>::new(a, data).unwrap().map(|v| v.map(f64::from).to_vec()).collect()
        }
        (DataType::U16, 2) => {
            assert!(norm);
            Iter::<[u16; 2]>::new(a, data)
                .unwrap()
                .map(|v| v.map(|c| f64::from(c) / 65535.0).to_vec())
                .collect()
        }
        (DataType::I8, 3) => {
            assert!(norm);
            Iter::<[i8; 3]>::new(a, data).unwrap().map(|v| v.map(|c| f64::from(c) / 127.0).to_vec()).collect()
        }
        other => panic!("unexpected accessor {other:?}"),
    }
}

/// Reads every mesh of a GLB with the `gltf` crate (validating it), positions in world
/// metres, by the name of the node that owns it: the node itself in a plain file, the
/// parent of its `<name>_Mesh` child in a compressed one; the grid step of each (the world
/// scale of the node holding the mesh) by that name too.
fn read(glb: &[u8]) -> (Read, BTreeMap<String, f64>) {
    let gltf = gltf::Gltf::from_slice(glb).unwrap();
    let blob = gltf.blob.clone().unwrap_or_default();
    let (mut out, mut steps) = (Read::new(), BTreeMap::new());
    let mut stack: Vec<(gltf::Node, glam::DMat4, String)> =
        gltf.default_scene().unwrap().nodes().map(|n| (n, glam::DMat4::IDENTITY, String::new())).collect();
    while let Some((node, parent, parent_name)) = stack.pop() {
        let world = parent * glam::Mat4::from_cols_array_2d(&node.transform().matrix()).as_dmat4();
        let own = node.name().unwrap().to_string();
        stack.extend(node.children().map(|c| (c, world, own.clone())));
        let Some(mesh) = node.mesh() else { continue };
        let name = if own == format!("{parent_name}_Mesh") { parent_name } else { own };
        steps.insert(name.clone(), world.x_axis.length());
        let prims = mesh
            .primitives()
            .map(|p| {
                let v3 = |s| p.get(&s).map(|a| floats(a, 3, &blob)).unwrap_or_default();
                let pos = v3(gltf::Semantic::Positions)
                    .iter()
                    .map(|v| world.transform_point3(glam::DVec3::from_slice(v)))
                    .collect();
                let normals =
                    v3(gltf::Semantic::Normals).iter().map(|v| glam::DVec3::from_slice(v)).collect();
                let uv =
                    |k| p.get(&gltf::Semantic::TexCoords(k)).map(|a| floats(a, 2, &blob)).unwrap_or_default();
                let (uv0, uv1) = (uv(0), uv(1));
                let uvs = (0..uv0.len())
                    .map(|i| [uv0[i].clone(), uv1.get(i).cloned().unwrap_or_default()].concat())
                    .collect();
                let indices = p.reader(|_| Some(&blob[..])).read_indices().unwrap().into_u32().collect();
                (pos, normals, uvs, indices)
            })
            .collect();
        out.insert(name, prims);
    }
    (out, steps)
}

/// Triangles with their corners rotated to start at the lowest index (meshopt's index
/// codec may rotate a triangle; the winding stays).
fn rotated(indices: &[u32]) -> Vec<[u32; 3]> {
    indices
        .chunks_exact(3)
        .map(|t| {
            let k = (0..3).min_by_key(|&k| t[k]).unwrap();
            [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
        })
        .collect()
}

fn dungeon() -> Dungeon {
    let mut d = Dungeon::new(5, 4, 3, Proportions::default(), Fill::Floor).unwrap();
    d.set_edge(Pos::new(0, 2, 2), Direction::E, Registry::DOOR).unwrap();
    d.set_edge(Pos::new(1, 2, 2), Direction::NW, Registry::WALL).unwrap();
    d.set_tile(Pos::new(0, 2, 4), Registry::STAIR).unwrap();
    d.set_tile(Pos::new(1, 4, 2), Registry::STAIR).unwrap();
    d.set_tile(Pos::new(2, 0, 6), Registry::SOLID).unwrap();
    d
}

#[test]
fn compressed_file_decodes_to_the_plain_mesh_on_one_grid() {
    let d = dungeon();
    let route = Some(vec![Pos::new(0, 0, 0), Pos::new(0, 0, 2), Pos::new(0, 1, 3)]);
    let plain_options =
        ExportOptions { colliders: true, navmesh: true, tangents: true, route, ..Default::default() };
    let plain = Export::new(&d, &plain_options).to_glb().unwrap();
    let packed = Export::new(&d, &ExportOptions { compress: true, ..plain_options }).to_glb().unwrap();
    let (want, _) = read(&plain);
    let (got, mut steps) = read(&decoded(&packed));
    assert_eq!(want.keys().collect::<Vec<_>>(), got.keys().collect::<Vec<_>>());
    // Door leaves keep float positions (`compressed_nodes_keep_their_frames...`).
    steps.retain(|name, _| !name.starts_with("Door_"));
    let step = steps.values().copied().fold(f64::NAN, f64::max);
    assert!(steps.values().all(|&s| s == step), "one grid step for every other mesh: {steps:?}");
    assert!(step > 0.0 && step < 0.002, "a fine grid for a small dungeon: {step}");
    // A world point of the plain file maps to one point of the compressed file, whichever
    // primitive or level it belongs to: no seam opens.
    let mut seen: BTreeMap<[i64; 3], glam::DVec3> = BTreeMap::new();
    for (name, prims) in &want {
        assert_eq!(prims.len(), got[name].len(), "{name}");
        for ((p0, n0, uv0, i0), (p1, n1, uv1, i1)) in prims.iter().zip(&got[name]) {
            assert_eq!(rotated(i0), rotated(i1), "{name}: same triangles, same winding");
            assert_eq!((p0.len(), n0.len(), uv0.len()), (p1.len(), n1.len(), uv1.len()), "{name}");
            for (a, b) in p0.iter().zip(p1) {
                assert!(
                    (*a - *b).abs().max_element() <= step / 2.0 + 1e-5,
                    "{name}: {a} vs {b}, step {step}"
                );
                if name.starts_with("Door_") {
                    // A door leaf is its own object with float positions: it shares no seam
                    // with the level, so it need not sit on the scene grid.
                    continue;
                }
                let on_grid = (*b / step).round() * step;
                assert!((*b - on_grid).abs().max_element() < 1e-6, "{name}: {b} is on the scene grid");
                let key = (*a * 1e4).round().as_i64vec3().to_array();
                let first = *seen.entry(key).or_insert(*b);
                assert!((first - *b).abs().max_element() < 1e-6, "{name}: {a} lands on {first} and {b}");
            }
            for (a, b) in n0.iter().zip(n1) {
                // 8-bit normalized: within half a step of 1/127.
                assert!((*a - *b).abs().max_element() <= 0.5 / 127.0 + 1e-6, "{name}: normal {a} vs {b}");
            }
            // Fixed point with one exponent per component: UV0 (13 bits) within 2^-12 of its
            // largest value, the lightmap's (12 bits, inside [0, 1]) within 2^-11.
            let top = uv0.iter().flatten().fold(1.0f64, |m, c| m.max(c.abs()));
            for (a, b) in uv0.iter().zip(uv1) {
                assert_eq!(a.len(), b.len());
                for (k, (x, y)) in a.iter().zip(b).enumerate() {
                    let tolerance = if k < 2 { top / 4096.0 } else { 1.0 / 2048.0 };
                    assert!((x - y).abs() <= tolerance, "{name}: uv {a:?} vs {b:?}");
                }
            }
        }
    }
    assert!(seen.len() > 100);
}

/// A value of a node's `translation`, `rotation` or `scale` (the default when absent).
fn field(node: &Value, key: &str) -> Vec<f64> {
    let default: &[f64] = match key {
        "translation" => &[0.0; 3],
        "rotation" => &[0.0, 0.0, 0.0, 1.0],
        _ => &[1.0; 3],
    };
    node.get(key)
        .map_or(default.to_vec(), |v| v.as_array().unwrap().iter().map(|c| c.as_f64().unwrap()).collect())
}

/// Issue 25: `--compress` put the dequantization on the named nodes (levels scaled 2^-8,
/// door origins off the hinge, 64x64 leaves 94 mm thick). Every node of the plain file has
/// the same translation, rotation and scale in the compressed one and the same children;
/// its mesh moved to a first child `<name>_Mesh`, except a door's: a door node keeps its
/// leaf mesh, whose positions read back as the plain file's.
#[test]
fn compressed_nodes_keep_their_frames_and_door_leaves_their_size() {
    use octile::generate::{GenerateOptions, generate};
    let options = GenerateOptions { seed: 7, levels: 2, cols: 8, rows: 8, doors: 1.0, ..Default::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    let plain_options = ExportOptions { colliders: true, navmesh: true, markers: true, ..Default::default() };
    let plain = Export::new(&d, &plain_options).to_glb().unwrap();
    let packed = Export::new(&d, &ExportOptions { compress: true, ..plain_options }).to_glb().unwrap();
    let (p, _) = split(&plain);
    let (c, _) = split(&packed);
    let (pn, cn) = (p["nodes"].as_array().unwrap(), c["nodes"].as_array().unwrap());
    let name = |n: &Value| n["name"].as_str().unwrap().to_string();
    let children = |nodes: &[Value], n: &Value| -> Vec<String> {
        n.get("children").map_or(Vec::new(), |k| {
            k.as_array().unwrap().iter().map(|i| name(&nodes[i.as_u64().unwrap() as usize])).collect()
        })
    };
    let mut doors = 0;
    for n in pn {
        let got = cn.iter().find(|m| name(m) == name(n)).unwrap_or_else(|| panic!("{} is kept", name(n)));
        for key in ["translation", "rotation", "scale"] {
            let (a, b) = (field(n, key), field(got, key));
            assert!(
                a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 1e-6),
                "{}: {key} {a:?} plain, {b:?} compressed",
                name(n)
            );
        }
        assert!(got.get("matrix").is_none(), "{}", name(n));
        let mut want = children(pn, n);
        if name(n).starts_with("Door_") {
            assert_eq!(got["mesh"], n["mesh"], "{}: a door keeps its leaf", name(n));
            doors += 1;
        } else if n.get("mesh").is_some() {
            assert!(got.get("mesh").is_none(), "{}: its mesh is on a child", name(n));
            want.insert(0, format!("{}_Mesh", name(n)));
            let child = &cn[got["children"][0].as_u64().unwrap() as usize];
            assert_eq!(child["mesh"], n["mesh"], "{}", name(n));
        }
        assert_eq!(children(cn, got), want, "{}", name(n));
    }
    assert!(doors > 5, "{doors} doors");
    // A leaf's box in its door's frame (through the node's scale, if it had one).
    let gp = gltf::Gltf::from_slice(&plain).unwrap();
    let packed = decoded(&packed);
    let gc = gltf::Gltf::from_slice(&packed).unwrap();
    let local_box = |g: &gltf::Gltf, node: gltf::Node<'_>| {
        let blob = g.blob.as_deref().unwrap();
        let (_, _, scale) = node.transform().decomposed();
        let prim = node.mesh().unwrap().primitives().next().unwrap();
        let a = prim.get(&gltf::Semantic::Positions).unwrap();
        let scale = glam::Vec3::from(scale).as_dvec3();
        floats(a, 3, blob).iter().map(|v| glam::DVec3::from_slice(v) * scale).fold(
            (glam::DVec3::splat(f64::INFINITY), glam::DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), v| (lo.min(v), hi.max(v)),
        )
    };
    for door in gp.nodes().filter(|n| n.name().is_some_and(|s| s.starts_with("Door_"))) {
        let want = local_box(&gp, door.clone());
        let got = local_box(&gc, gc.nodes().find(|n| n.name() == door.name()).unwrap());
        let off = (want.0 - got.0).abs().max((want.1 - got.1).abs()).max_element();
        assert!(off < 1e-6, "{:?}: leaf box {want:?} plain, {got:?} compressed", door.name());
        let thickness = got.1.z - got.0.z;
        assert!(
            (thickness - octile::mesh::LEAF_THICKNESS).abs() < 1e-6,
            "{:?}: {thickness} thick",
            door.name()
        );
    }
}

/// The measure: `octile generate --seed 1 --levels 4 --octagons 64x64` (the
/// generator's defaults otherwise), plain against `--compress`: at least 5x smaller.
#[test]
fn compressed_file_is_five_times_smaller() {
    use octile::generate::{GenerateOptions, generate};
    let options = GenerateOptions { seed: 1, levels: 4, cols: 64, rows: 64, ..Default::default() };
    let d = generate(&options, &mut |_| {}).unwrap();
    let mesh = octile::mesh::build(&d, &octile::mesh::MeshOptions::default()).unwrap();
    let plain =
        octile::export::Export::new(&d, &ExportOptions::default()).mesh(&mesh).to_glb().unwrap().len();
    let packed = ExportOptions { compress: true, ..Default::default() };
    let packed = octile::export::Export::new(&d, &packed).mesh(&mesh).to_glb().unwrap().len();
    // 5.14x at this commit (28,064,184 -> 5,460,576 bytes; door leaves with float
    // positions); the JSON chunk (262 KB, mostly 830 door nodes) is not compressed.
    assert!(packed * 5 <= plain, "{packed} bytes compressed, {plain} plain: under 5x");
}

#[test]
fn plain_stays_the_default_and_compress_is_deterministic() {
    let d = dungeon();
    let plain = Export::new(&d, &ExportOptions::default()).to_glb().unwrap();
    assert!(!String::from_utf8_lossy(&plain).contains("EXT_meshopt_compression"));
    let options = ExportOptions { compress: true, ..Default::default() };
    assert_eq!(Export::new(&d, &options).to_glb().unwrap(), Export::new(&d, &options).to_glb().unwrap());
    let empty = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Solid).unwrap();
    let bytes = Export::new(&empty, &options).to_glb().unwrap();
    assert!(!String::from_utf8_lossy(&bytes).contains("extensionsRequired"), "nothing to compress");
}
