//! glTF export: read back with the `gltf` crate, exact bounds, determinism, errors.

mod support;

use std::path::{Path, PathBuf};

use octile::dungeon::{Dungeon, Fill};
use octile::export::{self, ExportError, ExportOptions};
use octile::geometry::Proportions;
use octile::grid::Pos;
use octile::mesh::{self, MeshOptions};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("octile-export-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Reads `doc` back and checks it against the mesh the library builds for `d`.
fn check_document(d: &Dungeon, doc: &gltf::Document, bin: &[u8], uv1: bool, what: &str) {
    let scene = doc.default_scene().expect("a default scene");
    let scene_name = scene.name().unwrap();
    assert!(doc.nodes().all(|n| n.name() != Some(scene_name)), "{what}: scene name repeats a node name");
    assert!(doc.nodes().all(|n| n.name().is_some_and(|s| s.is_ascii() && s.len() <= 63)));
    let root: Vec<_> = scene.nodes().collect();
    assert_eq!(root.len(), 1);
    assert_eq!(root[0].name(), Some("Dungeon"));
    let extras: serde_json::Value = serde_json::from_str(root[0].extras().as_ref().unwrap().get()).unwrap();
    assert_eq!(extras["base"], 12.8);
    assert_eq!(extras["levels"], d.levels());
    assert!(doc.extensions_required().next().is_none());
    let m = mesh::build(d, &MeshOptions { lightmap_uv: uv1, ..Default::default() }).unwrap();
    let levels: Vec<_> =
        root[0].children().filter(|n| n.name().is_some_and(|s| s.starts_with("Level_"))).collect();
    assert_eq!(levels.len(), m.levels.len(), "{what}: level nodes");
    let names: Vec<String> = doc.materials().map(|mat| mat.name().unwrap().to_string()).collect();
    for (node, level) in levels.iter().zip(&m.levels) {
        assert_eq!(node.name().unwrap(), format!("Level_{:02}", level.level));
        let (t, _, s) = node.transform().decomposed();
        assert_eq!(t, [0.0, level.floor_y as f32, 0.0]);
        assert_eq!(s, [1.0, 1.0, 1.0]);
        let e: serde_json::Value = serde_json::from_str(node.extras().as_ref().unwrap().get()).unwrap();
        assert_eq!(e["level"], level.level);
        let Some(gm) = node.mesh() else {
            assert!(level.primitives.is_empty());
            continue;
        };
        let prims: Vec<_> = gm.primitives().collect();
        assert_eq!(prims.len(), level.primitives.len(), "{what}: primitives of {:?}", node.name());
        for (gp, (role, p)) in prims.iter().zip(&level.primitives) {
            let mat = gp.material();
            assert!(!mat.double_sided());
            assert!(names.contains(&mat.name().unwrap().to_string()));
            if *role == octile::mesh::MaterialRole::Floor {
                assert_eq!(mat.name(), Some("floor"));
            }
            let reader = gp.reader(|_| Some(bin));
            let pos: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            assert_eq!(pos.len(), p.vertices.len());
            assert!(pos.iter().zip(&p.vertices).all(|(a, v)| *a == v.position));
            let idx: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
            assert_eq!(idx, p.indices);
            let wide = gp.indices().unwrap().data_type() == gltf::accessor::DataType::U32;
            assert_eq!(
                wide,
                p.vertices.len() > 65535,
                "{what}: index width for {} vertices",
                p.vertices.len()
            );
            assert_eq!(reader.read_tex_coords(1).is_some(), uv1);
            if let Some(t1) = reader.read_tex_coords(1) {
                assert!(t1.into_f32().all(|[u, v]| (0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v)));
            }
            assert_eq!(reader.read_normals().unwrap().count(), pos.len());
            // Exact bounds.
            let b = gp.bounding_box();
            for k in 0..3 {
                assert_eq!(b.min[k], pos.iter().map(|q| q[k]).fold(f32::INFINITY, f32::min));
                assert_eq!(b.max[k], pos.iter().map(|q| q[k]).fold(f32::NEG_INFINITY, f32::max));
            }
        }
    }
}

#[test]
fn samples_read_back_level_by_level() {
    for (name, d) in support::samples() {
        let bytes = export::Export::new(&d, &ExportOptions::default()).to_glb().unwrap();
        let g = gltf::Gltf::from_slice(&bytes).unwrap();
        let blob = g.blob.clone().unwrap();
        check_document(&d, &g.document, &blob, true, &name);
        let again = export::Export::new(&d, &ExportOptions::default()).to_glb().unwrap();
        assert!(bytes == again, "{name}: two exports differ");
        let bare = export::Export::new(
            &d,
            &ExportOptions {
                mesh: MeshOptions { lightmap_uv: false, ..Default::default() },
                ..Default::default()
            },
        )
        .to_glb()
        .unwrap();
        let g = gltf::Gltf::from_slice(&bare).unwrap();
        check_document(&d, &g.document, g.blob.as_ref().unwrap(), false, &name);
    }
}

#[test]
fn files_are_written_glb_or_gltf_plus_bin() {
    let dir = temp_dir("files");
    let (_, d) = support::samples().into_iter().find(|(n, _)| n == "two_levels.json").unwrap();
    let glb = dir.join("two.glb");
    let s = export::Export::new(&d, &ExportOptions::default()).to_file(&glb).unwrap();
    assert_eq!(s.files, vec![glb.clone()]);
    assert_eq!(
        std::fs::read(&glb).unwrap(),
        export::Export::new(&d, &ExportOptions::default()).to_glb().unwrap()
    );
    assert_eq!(s.levels, 2);
    let gltf_path = dir.join("two.gltf");
    let s = export::Export::new(&d, &ExportOptions::default()).to_file(&gltf_path).unwrap();
    assert_eq!(s.files, vec![gltf_path.clone(), dir.join("two.bin")]);
    let g = gltf::Gltf::open(&gltf_path).unwrap();
    let bin = std::fs::read(dir.join("two.bin")).unwrap();
    assert!(matches!(g.buffers().next().unwrap().source(), gltf::buffer::Source::Uri("two.bin")));
    check_document(&d, &g.document, &bin, true, "two.gltf");
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 3, "no temporary files left: {names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn route_entrance_and_exit_become_nodes() {
    let mut d = Dungeon::new(3, 1, 2, Proportions::default(), Fill::Floor).unwrap();
    d.set_tile(Pos::new(0, 0, 4), octile::dungeon::Registry::STAIR).unwrap();
    d.set_entrance(Some(Pos::new(0, 0, 0))).unwrap();
    d.set_exit(Some(Pos::new(1, 0, 0))).unwrap();
    let route =
        vec![Pos::new(0, 0, 0), Pos::new(0, 0, 2), Pos::new(0, 0, 4), Pos::new(1, 0, 4), Pos::new(1, 0, 0)];
    let opts = ExportOptions { route: Some(route), ..Default::default() };
    let bytes = export::Export::new(&d, &opts).to_glb().unwrap();
    let g = gltf::Gltf::from_slice(&bytes).unwrap();
    let node = |n: &str| g.nodes().find(|x| x.name() == Some(n)).unwrap_or_else(|| panic!("no node {n}"));
    let s = d.layout().spacing() as f32;
    assert_eq!(node("Entrance").transform().decomposed().0, [0.0, 0.0, 0.0]);
    assert_eq!(node("Exit").transform().decomposed().0, [0.0, 12.0, 0.0]);
    let path = node("Path").mesh().unwrap();
    let prim = path.primitives().next().unwrap();
    let pos: Vec<[f32; 3]> = prim.reader(|_| g.blob.as_deref()).read_positions().unwrap().collect();
    assert_eq!(pos.len(), 4 * 4, "four steps, one quad each");
    assert!(pos.iter().all(|p| (p[1] - 0.1).abs() < 1e-5 || (p[1] - 12.1).abs() < 1e-4), "{pos:?}");
    assert!(pos.iter().any(|p| (p[0] - 4.0 * s).abs() < 0.2));
    let bad = ExportOptions { route: Some(vec![Pos::new(0, 0, 1)]), ..Default::default() };
    assert!(matches!(
        export::Export::new(&d, &bad).to_glb(),
        Err(ExportError::RouteOffGrid { index: 0, .. })
    ));
}

#[test]
fn big_levels_use_wide_indices() {
    let d = Dungeon::new(48, 48, 1, Proportions::default(), Fill::Floor).unwrap();
    let bytes = export::Export::new(&d, &ExportOptions::default()).to_glb().unwrap();
    let g = gltf::Gltf::from_slice(&bytes).unwrap();
    check_document(&d, &g.document, g.blob.as_ref().unwrap(), true, "48x48");
    let types: Vec<_> = g
        .meshes()
        .flat_map(|m| m.primitives().map(|p| p.indices().unwrap().data_type()).collect::<Vec<_>>())
        .collect();
    assert!(types.contains(&gltf::accessor::DataType::U32));
}

#[test]
fn export_errors_say_where() {
    let (_, d) = support::samples().into_iter().next().unwrap();
    let err = export::Export::new(&d, &ExportOptions::default()).to_file(Path::new("/")).unwrap_err();
    assert!(matches!(err, ExportError::BadPath { .. }), "{err}");
    let dir = temp_dir("errors");
    let missing = dir.join("no-such-dir").join("x.glb");
    let err = export::Export::new(&d, &ExportOptions::default()).to_file(&missing).unwrap_err();
    assert!(matches!(err, ExportError::Write(_)), "{err}");
    assert!(err.to_string().contains("no-such-dir"));
    std::fs::remove_dir(&dir).expect("nothing was written into the folder");
    let bad = ExportOptions {
        mesh: MeshOptions { texture_size: -1.0, ..Default::default() },
        ..Default::default()
    };
    assert!(matches!(export::Export::new(&d, &bad).to_glb(), Err(ExportError::Mesh(_))));
}

#[test]
fn tangents_follow_the_texture_u_direction() {
    let (_, d) = support::samples().into_iter().find(|(n, _)| n == "two_levels.json").unwrap();
    let opts = ExportOptions { tangents: true, ..Default::default() };
    let bytes = export::Export::new(&d, &opts).to_glb().unwrap();
    let g = gltf::Gltf::from_slice(&bytes).unwrap();
    let blob = g.blob.as_deref().unwrap();
    let mut checked = 0;
    for m in g.meshes().filter(|m| m.name().is_some_and(|n| n.starts_with("Level_"))) {
        for p in m.primitives() {
            let r = p.reader(|_| Some(blob));
            let pos: Vec<glam::Vec3> = r.read_positions().unwrap().map(glam::Vec3::from).collect();
            let nor: Vec<glam::Vec3> = r.read_normals().unwrap().map(glam::Vec3::from).collect();
            let uv: Vec<glam::Vec2> =
                r.read_tex_coords(0).unwrap().into_f32().map(glam::Vec2::from).collect();
            let tan: Vec<[f32; 4]> = r.read_tangents().expect("TANGENT written").collect();
            for t in r.read_indices().unwrap().into_u32().collect::<Vec<_>>().chunks_exact(3) {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
                let (e1, e2) = (pos[b] - pos[a], pos[c] - pos[a]);
                let (d1, d2) = (uv[b] - uv[a], uv[c] - uv[a]);
                let det = d1.x * d2.y - d2.x * d1.y;
                let dpdu = ((e1 * d2.y - e2 * d1.y) / det).normalize();
                let dpdv = ((e2 * d1.x - e1 * d2.x) / det).normalize();
                let tv = glam::Vec3::new(tan[a][0], tan[a][1], tan[a][2]);
                let bit = nor[a].cross(tv) * tan[a][3];
                assert!((tv.length() - 1.0).abs() < 1e-5 && tan[a][3].abs() == 1.0);
                assert!(tv.dot(dpdu) > 0.999, "tangent {tv} vs dP/du {dpdu}");
                assert!(bit.dot(dpdv) > 0.999, "bitangent {bit} vs dP/dv {dpdv}");
                checked += 1;
            }
        }
    }
    assert!(checked > 500);
    let plain = export::Export::new(&d, &ExportOptions::default()).to_glb().unwrap();
    let g = gltf::Gltf::from_slice(&plain).unwrap();
    assert!(
        g.meshes()
            .flat_map(|m| m.primitives().collect::<Vec<_>>())
            .all(|p| p.get(&gltf::Semantic::Tangents).is_none())
    );
}

#[test]
fn a_mesh_built_already_exports_as_the_dungeon_does() {
    let d = octile::format::from_json(include_str!("../assets/two_levels.json")).unwrap();
    let route = Some(vec![Pos::new(0, 2, 0), Pos::new(0, 2, 2)]);
    for lightmap_uv in [true, false] {
        let options = ExportOptions {
            mesh: MeshOptions { lightmap_uv, ..Default::default() },
            route: route.clone(),
            ..Default::default()
        };
        let built = mesh::build(&d, &options.mesh).unwrap();
        let with_mesh = export::Export::new(&d, &options).mesh(&built).to_glb().unwrap();
        assert!(
            with_mesh == export::Export::new(&d, &options).to_glb().unwrap(),
            "uv1 {lightmap_uv}: same bytes"
        );
        let g = gltf::Gltf::from_slice(&with_mesh).unwrap();
        check_document(&d, &g.document, g.blob.as_ref().unwrap(), lightmap_uv, "two_levels");
        let dir = temp_dir(&format!("with_mesh_{lightmap_uv}"));
        let file = dir.join("seen.glb");
        let summary = export::Export::new(&d, &options).mesh(&built).to_file(&file).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), with_mesh);
        assert_eq!(summary.levels, 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
    let other = Dungeon::new(2, 2, 1, Proportions::default(), Fill::Floor).unwrap();
    let wrong = mesh::build(&other, &MeshOptions::default()).unwrap();
    let err = export::Export::new(&d, &ExportOptions::default()).mesh(&wrong).to_glb().unwrap_err();
    assert!(matches!(err, ExportError::MeshMismatch { mesh_levels: 1, levels: 2 }), "{err}");
}
