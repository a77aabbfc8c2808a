//! The panels of a level (or of one chunk of it) as meshing reads them: every panel's role
//! and frame in one list and all their triangles in one array, panel after panel.
//!
//! Panels are built one at a time ([`Panel`], which owns its triangles) and pushed here,
//! their triangles moved into the shared array. The passes over a level's panels (the
//! lightmap's charts, the vertices of each role) then read memory in order, where one
//! allocation per panel scattered a level's triangles over the heap and missed the cache
//! on nearly every panel.

use glam::{DVec2, DVec3};

use super::MaterialRole;
use super::panel::{Frame, Panel};

/// One panel's role and frame, and where its triangles end in [`Panels::tris`] (they
/// start where the panel before's end).
#[derive(Debug, Clone, Copy)]
struct Head {
    role: MaterialRole,
    frame: Frame,
    end: usize,
}

/// Panels with their triangles in one array (see the module docs).
#[derive(Debug, Clone, Default)]
pub(crate) struct Panels {
    heads: Vec<Head>,
    tris: Vec<[DVec3; 3]>,
}

impl Panels {
    /// Appends `panel`, moving its triangles into the shared array.
    pub(crate) fn push(&mut self, panel: Panel) {
        let PanelRef { role, frame, tris } = panel.view();
        self.tris.extend_from_slice(tris);
        self.heads.push(Head { role, frame, end: self.tris.len() });
    }

    /// Removes every panel, keeping the memory.
    pub(crate) fn clear(&mut self) {
        self.heads.clear();
        self.tris.clear();
    }

    /// Number of panels.
    pub(crate) fn len(&self) -> usize {
        self.heads.len()
    }

    /// Panel `i` (below [`Panels::len`]).
    pub(crate) fn get(&self, i: usize) -> PanelRef<'_> {
        let head = &self.heads[i];
        let start = if i == 0 { 0 } else { self.heads[i - 1].end };
        PanelRef { role: head.role, frame: head.frame, tris: &self.tris[start..head.end] }
    }

    /// Every panel, in the order pushed.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = PanelRef<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

impl Extend<Panel> for Panels {
    fn extend<I: IntoIterator<Item = Panel>>(&mut self, panels: I) {
        for panel in panels {
            self.push(panel);
        }
    }
}

impl FromIterator<Panel> for Panels {
    fn from_iter<I: IntoIterator<Item = Panel>>(panels: I) -> Panels {
        let mut out = Panels::default();
        out.extend(panels);
        out
    }
}

/// A panel read from [`Panels`] (or a [`Panel`] seen through [`Panel::view`]): its role, its
/// frame and its triangles.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PanelRef<'a> {
    /// Material role of every triangle.
    pub role: MaterialRole,
    /// Normal and UV axes.
    pub frame: Frame,
    /// Triangles, wound counter-clockwise seen from the normal's side.
    pub tris: &'a [[DVec3; 3]],
}

impl PanelRef<'_> {
    /// `(u, v)` of a point in metres in this panel's frame.
    pub(crate) fn uv_metres(&self, p: DVec3) -> DVec2 {
        DVec2::new(p.dot(self.frame.u_axis), p.dot(self.frame.v_axis))
    }

    /// The whole number of texture repeats (per axis) subtracted from this panel's UV0, at
    /// `inv` repeats per metre: the floor of its smallest `(u, v)`, so the panel's UV0
    /// starts in [0, 1) and stays below 1 + its size in texture units wherever it lies in
    /// the world. A whole-number shift leaves the texture where it was (it repeats), and
    /// keeps UV0 small enough for half floats and for tools that expect [0, 1]-ish values.
    pub(crate) fn uv_origin(&self, inv: f64) -> DVec2 {
        self.uv_origin_of(self.tris.iter().flatten().copied(), inv)
    }

    /// [`PanelRef::uv_origin`] of a panel in this frame whose corners are `points` (a mesh
    /// that keeps its own triangles, as the viewer's coarse mesh does).
    pub(crate) fn uv_origin_of(&self, points: impl IntoIterator<Item = DVec3>, inv: f64) -> DVec2 {
        let lowest =
            points.into_iter().map(|p| self.uv_metres(p) * inv).reduce(DVec2::min).unwrap_or(DVec2::ZERO);
        lowest.floor()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_keep_each_panels_triangles_and_frame() {
        let tri = |x: f64| [DVec3::new(x, 0.0, 0.0), DVec3::new(x + 1.0, 0.0, 0.0), DVec3::new(x, 0.0, 1.0)];
        let mut floor = Panel::horizontal(MaterialRole::Floor, true);
        floor.extend([tri(0.0), tri(5.0)]);
        let empty = Panel::horizontal(MaterialRole::Ceiling, false);
        let mut wall = Panel::vertical(MaterialRole::Wall, DVec2::ZERO, DVec2::X, DVec2::Y);
        wall.tris.push([DVec3::ZERO, DVec3::X, DVec3::Y]);
        let panels: Panels = [floor.clone(), empty.clone(), wall.clone()].into_iter().collect();
        assert_eq!(panels.len(), 3);
        for (got, want) in panels.iter().zip([&floor, &empty, &wall]) {
            assert_eq!(got.role, want.role);
            assert_eq!(got.frame, want.frame);
            assert_eq!(got.tris, &want.tris[..]);
        }
    }
}
