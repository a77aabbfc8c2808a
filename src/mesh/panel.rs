//! Panels: flat pieces of surface (one floor polygon, one wall face, one riser) with one
//! normal and one UV frame, and their assembly into per-role primitives.

use glam::{DVec2, DVec3};

use super::panels::{PanelRef, Panels};
use super::{LevelMesh, MaterialRole, MeshOptions, Vertex, lightmap, optimize};
use crate::dungeon::Dungeon;

/// A panel's orientation: its normal (pointing into carved space, or out of a solid) and
/// the two axes of its plane that its UVs are measured along.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Frame {
    /// Unit normal.
    pub normal: DVec3,
    /// Unit axis of U in the panel's plane (metres along it).
    pub u_axis: DVec3,
    /// Unit axis of V in the panel's plane.
    pub v_axis: DVec3,
}

/// A flat piece of surface: triangles in level-local metres sharing one [`Frame`].
#[derive(Debug, Clone)]
pub(crate) struct Panel {
    /// Material role of every triangle.
    pub role: MaterialRole,
    /// Normal and UV axes.
    pub frame: Frame,
    /// Triangles, wound counter-clockwise seen from the normal's side.
    pub tris: Vec<[DVec3; 3]>,
}

/// `(x, z)` at height `y`.
pub(crate) fn at(p: DVec2, y: f64) -> DVec3 {
    DVec3::new(p.x, y, p.y)
}

impl Panel {
    /// A horizontal panel facing up (floors, treads) or down (ceilings, lintels).
    pub(crate) fn horizontal(role: MaterialRole, up: bool) -> Panel {
        let normal = if up { DVec3::Y } else { DVec3::NEG_Y };
        Panel { role, frame: Frame { normal, u_axis: DVec3::X, v_axis: DVec3::Z }, tris: Vec::new() }
    }

    /// A vertical panel along the line `from -> to` (in `(x, z)`) whose normal points to the
    /// side of `towards`.
    pub(crate) fn vertical(role: MaterialRole, from: DVec2, to: DVec2, towards: DVec2) -> Panel {
        let d = (to - from).normalize_or_zero();
        let mut n = DVec2::new(-d.y, d.x);
        if n.dot(towards - from) < 0.0 {
            n = -n;
        }
        // U runs along the wall so that (U, V) reads unmirrored from the normal's side.
        let u = DVec2::new(n.y, -n.x);
        let frame = Frame { normal: at(n, 0.0), u_axis: at(u, 0.0), v_axis: DVec3::Y };
        Panel { role, frame, tris: Vec::new() }
    }

    /// Adds triangles, winding each to face the normal and dropping zero-area ones (which
    /// only tight spacing makes: seams of zero width).
    pub(crate) fn extend(&mut self, tris: impl IntoIterator<Item = [DVec3; 3]>) {
        for [a, b, c] in tris {
            let cross = (b - a).cross(c - a);
            if cross.length_squared() <= 1e-18 {
                continue;
            }
            self.tris.push(if cross.dot(self.frame.normal) >= 0.0 { [a, b, c] } else { [a, c, b] });
        }
    }

    /// This panel as [`Panels`] hands panels out (its frame's UV methods are there).
    pub(crate) fn view(&self) -> PanelRef<'_> {
        PanelRef { role: self.role, frame: self.frame, tris: &self.tris }
    }
}

/// UV0 of a point `metres` ([`PanelRef::uv_metres`]) into its panel, at `inv` texture repeats
/// per metre, less the panel's whole-number shift `origin` ([`PanelRef::uv_origin`]): the UV0
/// every mesh of the crate writes.
pub(crate) fn uv0(metres: DVec2, inv: f64, origin: DVec2) -> [f32; 2] {
    let uv = metres * inv - origin;
    [to_f32(uv.x), to_f32(uv.y)]
}

/// Rounds to `f32`, with `-0.0` made `0.0` so that welding by bits sees equal points.
fn to_f32(x: f64) -> f32 {
    let v = x as f32;
    if v == 0.0 { 0.0 } else { v }
}

fn vec3(v: DVec3) -> [f32; 3] {
    [to_f32(v.x), to_f32(v.y), to_f32(v.z)]
}

/// How many of a panel's latest distinct points a new corner is compared with (see
/// [`Corners::push_panel`]); a panel with more may keep a repeat, which the weld removes.
const PANEL_WINDOW: usize = 32;

/// The vertices of one role before welding: each panel's distinct points as vertices, in
/// the order the panel's triangles first use them, and every triangle corner as an index
/// into them. Welding this gives the same vertices and indices as welding one vertex per
/// corner: both number the distinct vertices in order of first use, and a repeat left in
/// `vertices` (equal vertices of distinct points, or of two panels) is welded as it would
/// be in a list of one vertex per corner.
struct Corners {
    vertices: Vec<Vertex>,
    corners: Vec<u32>,
    /// The bits of the points of the panel being added, one per vertex it added.
    points: Vec<[u64; 3]>,
}

impl Corners {
    /// Room for `corners` triangle corners.
    fn with_capacity(corners: usize) -> Corners {
        Corners {
            // A panel's distinct points are at most its corners; pages reserved and never
            // written cost nothing, a reallocation copies the whole list.
            vertices: Vec::with_capacity(corners),
            corners: Vec::with_capacity(corners),
            points: Vec::new(),
        }
    }

    /// Adds the triangles of `panel`, with UV0 at `inv` repeats per metre and UV1 from its
    /// lightmap chart (zero without one). A vertex is a function of its point within a
    /// panel, so equal points (equal bits) share one vertex.
    fn push_panel(&mut self, panel: PanelRef<'_>, chart: Option<&lightmap::Chart>, inv: f64) {
        let normal = vec3(panel.frame.normal);
        let origin = panel.uv_origin(inv);
        let first = self.vertices.len();
        self.points.clear();
        for &p in panel.tris.iter().flatten() {
            let bits = p.to_array().map(f64::to_bits);
            let window = self.points.len().saturating_sub(PANEL_WINDOW);
            let same = |q: &[u64; 3]| q[0] == bits[0] && q[1] == bits[1] && q[2] == bits[2];
            let index = match self.points[window..].iter().position(same) {
                Some(k) => first + window + k,
                None => {
                    let m = panel.uv_metres(p);
                    self.vertices.push(Vertex {
                        position: vec3(p),
                        normal,
                        uv: uv0(m, inv, origin),
                        uv1: chart.map_or([0.0; 2], |c| c.map(m)),
                    });
                    self.points.push(bits);
                    self.vertices.len() - 1
                }
            };
            self.corners.push(u32::try_from(index).expect("invariant: a primitive has under 2^32 vertices"));
        }
    }
}

/// Turns the panels of one level into its primitives: UVs, lightmap UVs, welding and
/// meshopt optimisation, one primitive per role in [`MaterialRole::ALL`] order.
pub(crate) fn assemble(dungeon: &Dungeon, level: u16, panels: &Panels, options: &MeshOptions) -> LevelMesh {
    let charts = if options.lightmap_uv { Some(lightmap::pack(panels)) } else { None };
    let inv = 1.0 / options.texture_size;
    // Each role's panels, in panel order, found in one pass.
    let mut of_role: [Vec<usize>; MaterialRole::ALL.len()] = Default::default();
    for (i, panel) in panels.iter().enumerate() {
        of_role[panel.role.index()].push(i);
    }
    let mut primitives = Vec::new();
    for (role, members) in MaterialRole::ALL.into_iter().zip(of_role) {
        let corners = members.iter().map(|&i| panels.get(i).tris.len() * 3).sum();
        let mut role_corners = Corners::with_capacity(corners);
        for i in members {
            role_corners.push_panel(panels.get(i), charts.as_ref().map(|c| c.of(i)), inv);
        }
        if role_corners.corners.is_empty() {
            continue;
        }
        let prim = optimize::finish(role_corners.vertices, role_corners.corners, options.optimize);
        if !prim.indices.is_empty() {
            primitives.push((role, prim));
        }
    }
    LevelMesh { level, floor_y: dungeon.proportions().floor_y(level), primitives }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One vertex per triangle corner, as the panels give them (the list welding started
    /// from before corners were shared within a panel).
    fn one_vertex_per_corner(panels: &Panels, charts: &lightmap::Charts, role: MaterialRole) -> Vec<Vertex> {
        let inv = 1.0 / MeshOptions::default().texture_size;
        let mut out = Vec::new();
        for (i, panel) in panels.iter().enumerate().filter(|(_, p)| p.role == role) {
            let origin = panel.uv_origin(inv);
            for &p in panel.tris.iter().flatten() {
                let m = panel.uv_metres(p);
                let uv = m * inv - origin;
                out.push(Vertex {
                    position: vec3(p),
                    normal: vec3(panel.frame.normal),
                    uv: [to_f32(uv.x), to_f32(uv.y)],
                    uv1: charts.of(i).map(m),
                });
            }
        }
        out
    }

    #[test]
    fn shared_corners_weld_as_one_vertex_per_corner_does() {
        let options =
            crate::generate::GenerateOptions { seed: 4, levels: 2, cols: 9, rows: 7, ..Default::default() };
        let d = crate::generate::generate(&options, &mut |_| {}).unwrap();
        let inv = 1.0 / MeshOptions::default().texture_size;
        for level in 0..d.levels() {
            let panels = super::super::level::extrude(&d, level).unwrap();
            let charts = lightmap::pack(&panels);
            for role in MaterialRole::ALL {
                let mut shared = Corners::with_capacity(0);
                for (i, panel) in panels.iter().enumerate().filter(|(_, p)| p.role == role) {
                    shared.push_panel(panel, Some(charts.of(i)), inv);
                }
                let each = one_vertex_per_corner(&panels, &charts, role);
                assert_eq!(shared.corners.len(), each.len());
                if !each.is_empty() {
                    assert!(shared.vertices.len() < each.len(), "{role:?}: corners are shared");
                }
                let identity: Vec<u32> = (0..each.len() as u32).collect();
                for optimize in [false, true] {
                    assert_eq!(
                        optimize::finish(shared.vertices.clone(), shared.corners.clone(), optimize),
                        optimize::finish(each.clone(), identity.clone(), optimize),
                        "level {level} {role:?} optimize {optimize}"
                    );
                }
            }
        }
    }
}
