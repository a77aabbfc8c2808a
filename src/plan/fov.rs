//! A field of view drawn over a plan ([`FovShade`]): on the viewer's level, the visible
//! floor of every visible cell ([`crate::sight::visible_floor`]), and the eye; on the
//! other storeys, the cells seen across them ([`crate::sight::field_of_view_3d`]) as whole
//! cells, down an atrium or up a stair's shaft.

use std::fmt::Write;

use glam::DVec2;

use super::svg::WALL;
use crate::dungeon::Dungeon;
use crate::grid::Pos;
use crate::sight::VisibleFloor;

const FOV: &str = "#f1c40f";

/// A field of view drawn over a plan: each visible cell's visible floor
/// ([`crate::sight::visible_floor`]) shaded in one group per cell
/// (`<g class="fov" data-slot="ROW,COL">`) and the eye as a dot, on the viewer's level;
/// on other levels, the cells in `across` outlined and lightly shaded in one group each
/// (`<g class="fov-storey" data-cell="LEVEL,ROW,COL">`).
#[derive(Debug, Clone, PartialEq)]
pub struct FovShade {
    /// The level the view is on.
    pub level: u16,
    /// The eye, world `(x, z)` metres.
    pub eye: DVec2,
    /// The visible floor of every visible cell.
    pub floors: Vec<VisibleFloor>,
    /// The cells of other levels the eye sees across storeys (empty for a view of its own
    /// level only); cells of the view's own level are ignored here.
    pub across: Vec<Pos>,
}

/// An upper estimate of the bytes [`super::to_svg`] spends on `fov` (its groups, polygons
/// and the eye), counted without writing anything: a field of view over a long open level
/// has a number of pieces that grows with the square of the level's length, so a budget on
/// the drawing's size has to count them.
#[must_use]
pub fn fov_svg_bytes(fov: &FovShade) -> u64 {
    // `<g class="fov" data-slot="R,C" ...>` and `</g>`, a `<polygon points="..."/>`, and one
    // point `X.XXX,Y.YYY ` of up to 9 digits before the point each way; a cell across
    // storeys is a group and a polygon of at most 8 points.
    const GROUP: u64 = 100;
    const POLYGON: u64 = 24;
    const POINT: u64 = 28;
    let pieces = fov.floors.iter().flat_map(|f| &f.pieces);
    let points: u64 = pieces.clone().map(|p| p.len() as u64).sum();
    let across = fov.across.len() as u64 * (GROUP + POLYGON + 8 * POINT);
    GROUP * (fov.floors.len() as u64 + 1) + POLYGON * pieces.count() as u64 + POINT * points + across
}

/// What `fov` shows on `level`, drawn at `origin`.
pub(super) fn draw(out: &mut String, dungeon: &Dungeon, fov: &FovShade, level: u16, origin: DVec2) {
    if level == fov.level {
        own_level(out, fov, origin);
        return;
    }
    let layout = dungeon.layout();
    for pos in fov.across.iter().filter(|p| p.level == level) {
        let Some(poly) = layout.cell_polygon(pos.slot) else { continue };
        let _ = write!(
            out,
            r#"<g class="fov-storey" data-cell="{},{},{}" fill="{FOV}" fill-opacity="0.3" stroke="{FOV}" stroke-width="0.5"><polygon points=""#,
            pos.level, pos.slot.row, pos.slot.col
        );
        for (i, p) in poly.iter().enumerate() {
            let p = *p + origin;
            let _ = write!(out, "{}{:.3},{:.3}", if i == 0 { "" } else { " " }, p.x, p.y);
        }
        let _ = writeln!(out, r#""/></g>"#);
    }
}

/// The visible floor of every cell of `fov`, one translucent group per cell, and the eye.
fn own_level(out: &mut String, fov: &FovShade, origin: DVec2) {
    for floor in &fov.floors {
        let _ = writeln!(
            out,
            r#"<g class="fov" data-slot="{},{}" fill="{FOV}" fill-opacity="0.45">"#,
            floor.slot.row, floor.slot.col
        );
        for piece in &floor.pieces {
            let _ = write!(out, r#"<polygon points=""#);
            for (i, p) in piece.iter().enumerate() {
                let p = *p + origin;
                let _ = write!(out, "{}{:.3},{:.3}", if i == 0 { "" } else { " " }, p.x, p.y);
            }
            let _ = writeln!(out, r#""/>"#);
        }
        let _ = writeln!(out, "</g>");
    }
    let eye = fov.eye + origin;
    let _ =
        writeln!(out, r#"<circle class="eye" cx="{:.2}" cy="{:.2}" r="1.2" fill="{WALL}"/>"#, eye.x, eye.y);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dungeon::{Fill, Registry};
    use crate::geometry::Proportions;
    use crate::grid::{Direction, Slot};
    use crate::plan::{PlanOptions, to_svg};

    #[test]
    fn a_field_of_view_shades_exactly_its_cells_visible_floor() {
        use crate::sight::{field_of_view, visible_floor};
        let mut d = Dungeon::new(4, 3, 1, Proportions::default(), Fill::Floor).unwrap();
        d.set_tile(Pos::new(0, 2, 2), Registry::SOLID).unwrap();
        d.set_edge(Pos::new(0, 0, 4), Direction::E, Registry::WALL).unwrap();
        let viewer = Pos::new(0, 2, 0);
        let floors = visible_floor(&d, viewer, 60.0).unwrap();
        let fov = FovShade {
            level: 0,
            eye: d.layout().center(viewer.slot),
            floors: floors.clone(),
            across: Vec::new(),
        };
        let options = PlanOptions { fov: Some(fov), ..PlanOptions::default() };
        let svg = to_svg(&d, &options);
        let plain = to_svg(&d, &PlanOptions::default());
        assert!(!plain.contains("class=\"fov\""));
        let estimate = fov_svg_bytes(options.fov.as_ref().unwrap());
        let shading = (svg.len() - plain.len()) as u64;
        assert!(shading <= estimate && estimate <= 3 * shading, "{shading} bytes, estimated {estimate}");
        let origin = super::super::svg::Sheet::new(&d, &options).origin(0);
        let groups: Vec<&str> = svg.split(r#"<g class="fov" data-slot=""#).skip(1).collect();
        let mut shaded = Vec::new();
        for group in &groups {
            let (slot, body) = group.split_once('"').unwrap();
            let (row, col) = slot.split_once(',').unwrap();
            let slot = Slot::new(row.parse().unwrap(), col.parse().unwrap());
            let body = body.split("</g>").next().unwrap();
            let area: f64 = body
                .split(r#"<polygon points=""#)
                .skip(1)
                .map(|poly| {
                    let pts: Vec<DVec2> = poly
                        .split('"')
                        .next()
                        .unwrap()
                        .split(' ')
                        .map(|p| {
                            let (x, y) = p.split_once(',').unwrap();
                            DVec2::new(x.parse().unwrap(), y.parse().unwrap()) - origin
                        })
                        .collect();
                    crate::geometry::signed_area(&pts)
                })
                .sum();
            let want = floors.iter().find(|f| f.slot == slot).unwrap().area();
            assert!(
                area > 0.0 && (area - want).abs() < 0.01 * want,
                "{slot:?}: {area} m2 shaded, {want} visible"
            );
            shaded.push(slot);
        }
        let fov: Vec<Slot> = field_of_view(&d, viewer, 60.0).unwrap().iter().collect();
        assert_eq!(shaded, fov, "one shaded group per visible cell");
        assert!(!shaded.contains(&Slot::new(2, 2)) && !shaded.contains(&Slot::new(0, 6)));
        assert_eq!(svg.matches(r#"class="eye""#).count(), 1);
    }

    #[test]
    fn cells_seen_across_storeys_are_shaded_on_their_own_level() {
        use crate::sight::{field_of_view_3d, visible_floor};
        // Two storeys; the middle octagon of the upper one is void over the lower one.
        let mut d = Dungeon::new(3, 3, 2, Proportions::default(), Fill::Floor).unwrap();
        let void = d.void_tile().unwrap();
        d.set_tile(Pos::new(1, 2, 2), void).unwrap();
        let viewer = Pos::new(0, 2, 2);
        let across: Vec<Pos> =
            field_of_view_3d(&d, viewer, 40.0).unwrap().iter().filter(|p| p.level != viewer.level).collect();
        assert!(across.contains(&Pos::new(1, 2, 2)), "the void above");
        let floors = visible_floor(&d, viewer, 40.0).unwrap();
        let eye = d.layout().center(viewer.slot);
        let with = |across: Vec<Pos>| FovShade { level: 0, eye, floors: floors.clone(), across };
        let flat = to_svg(&d, &PlanOptions { fov: Some(with(Vec::new())), ..PlanOptions::default() });
        let fov = with(across.clone());
        let options = PlanOptions { fov: Some(fov.clone()), ..PlanOptions::default() };
        let svg = to_svg(&d, &options);
        let groups: Vec<&str> = svg.split(r#"<g class="fov-storey" data-cell=""#).skip(1).collect();
        let cells: Vec<Pos> = groups
            .iter()
            .map(|g| {
                let n: Vec<u32> =
                    g.split('"').next().unwrap().split(',').map(|v| v.parse().unwrap()).collect();
                Pos::new(n[0] as u16, n[1], n[2])
            })
            .collect();
        assert_eq!(cells, across, "one group per cell seen across storeys, on its level");
        assert!(!flat.contains("fov-storey"));
        // Each is drawn in its level's panel: inside the panel's square around its centre.
        let origin = super::super::svg::Sheet::new(&d, &options).origin(1);
        let centre = d.layout().center(Slot::new(2, 2)) + origin;
        let first = groups[0].split(r#"points=""#).nth(1).unwrap().split('"').next().unwrap();
        for p in first.split(' ') {
            let (x, y) = p.split_once(',').unwrap();
            let p = DVec2::new(x.parse().unwrap(), y.parse().unwrap());
            assert!(p.distance(centre) < d.layout().spacing() * 2.0, "{p} far from {centre}");
        }
        let (estimate, spent) =
            (fov_svg_bytes(&fov) - fov_svg_bytes(&with(Vec::new())), svg.len() - flat.len());
        assert!(spent as u64 <= estimate, "{spent} bytes, estimated {estimate}");
    }
}
