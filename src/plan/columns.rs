//! The columns through storeys on a plan (docs/design.md, "Columns across storeys"): void
//! cells and the seams and open pillars among them filled dark, cells open above outlined
//! dashed, railings and drop points as lines along the void's walls.

use std::fmt::Write;

use glam::DVec2;

use super::svg::{WALL, polygon};
use crate::dungeon::{Carve, Dungeon};
use crate::grid::{Pos, Slot};

/// Fill of a void (open to the level below).
pub(super) const VOID: &str = "#1f3347";
/// Line of a railing.
pub(super) const RAILING: &str = "#8a9aa8";
/// Line of a drop point.
pub(super) const DROP: &str = "#e67e22";
/// Fill of a ramp.
pub(super) const RAMP: &str = "#b08a5a";

/// `level`'s columns (`<g class="columns">`): each void cell filled dark
/// (`<polygon data-slot="ROW,COL">`, over the floor the plan gives every carved piece) with
/// the seams and open pillars among void cells, each cell open above outlined dashed
/// (`class="open-above"`), each railing ([`Dungeon::railing_edges`]) a line along the void's
/// wall (`class="railing"`) and each drop point ([`Dungeon::drops`]) a dashed one
/// (`class="drop"`). Nothing when the level has none.
pub(super) fn draw(out: &mut String, dungeon: &Dungeon, level: u16, origin: DVec2) {
    if !dungeon.may_have_voids() {
        return;
    }
    draw_ramps(out, dungeon, level, origin);
    let (layout, dims) = (dungeon.layout(), dungeon.dims());
    let at = |poly: &[DVec2]| poly.iter().map(|v| *v + origin).collect::<Vec<_>>();
    let points = |poly: &[DVec2]| {
        let pts: Vec<String> = at(poly).iter().map(|v| format!("{:.2},{:.2}", v.x, v.y)).collect();
        pts.join(" ")
    };
    let mut body = String::new();
    for slot in dims.cells() {
        let pos = Pos { level, slot };
        let Some(poly) = layout.cell_polygon(slot) else { continue };
        let Slot { row, col } = slot;
        let _ = if dungeon.is_void(pos) {
            writeln!(body, r#"<polygon data-slot="{row},{col}" fill="{VOID}" points="{}"/>"#, points(&poly))
        } else if dungeon.open_above(pos) {
            writeln!(
                body,
                r#"<polygon class="open-above" data-slot="{row},{col}" fill="none" stroke="{VOID}" stroke-width="0.5" stroke-dasharray="1.5 1" points="{}"/>"#,
                points(&poly)
            )
        } else {
            Ok(())
        };
    }
    // The seams and open pillars among void cells have no floor either.
    let all_void = |slots: &[Slot]| slots.iter().all(|&slot| dungeon.is_void(Pos { level, slot }));
    for edge in dims.edges() {
        let Ok(sides) = dims.edge_sides(edge) else { continue };
        let full = dungeon
            .carved_seam(Pos { level, slot: sides[0].0 }, sides[0].1)
            .is_some_and(|e| e.carve == Carve::Full);
        if full
            && all_void(&sides.map(|(s, _)| s))
            && let Some(rect) = layout.edge_seam(sides)
        {
            polygon(&mut body, &at(&rect), VOID);
        }
    }
    for pillar in dungeon.open_pillars_on(level) {
        if all_void(&pillar.cells())
            && let Some(tri) = layout.pillar(pillar.connector(), pillar.tip())
        {
            polygon(&mut body, &at(&tri), VOID);
        }
    }
    let mut line = |class: &str, wall: Option<[DVec2; 2]>, style: &str| {
        if let Some([a, b]) = wall.map(|w| w.map(|v| v + origin)) {
            let _ = writeln!(
                body,
                r#"<path class="{class}" d="M{:.2} {:.2}L{:.2} {:.2}" {style}/>"#,
                a.x, a.y, b.x, b.y
            );
        }
    };
    for rail in dungeon.railing_edges(level) {
        line(
            "railing",
            layout.wall(rail.void.0, rail.void.1),
            &format!(r#"stroke="{RAILING}" stroke-width="0.8""#),
        );
    }
    for drop in dungeon.drops(level) {
        // Along the void's wall, as a railing would stand.
        let style = format!(r#"stroke="{DROP}" stroke-width="1.0" stroke-dasharray="1.2 0.8""#);
        line("drop", layout.wall(drop.into.slot, drop.from.1.opposite()), &style);
    }
    if !body.is_empty() {
        let _ = writeln!(out, r#"<g class="columns">"#);
        out.push_str(&body);
        let _ = writeln!(out, "</g>");
    }
}

/// The ramps whose foot is on `level`, each `<g class="ramp" data-foot="L,R,C"
/// data-dir="E">` holding its pieces filled and an arrow up its slope from the foot's wall
/// to its top, with a `<title>` saying where it leads.
fn draw_ramps(out: &mut String, dungeon: &Dungeon, level: u16, origin: DVec2) {
    for ramp in dungeon.ramps().iter().filter(|r| r.level == level) {
        let (Some(plan), Some(cells)) = (dungeon.ramp_plan(ramp), dungeon.ramp_cells(ramp)) else { continue };
        let Slot { row, col } = ramp.foot;
        let dir = ramp.dir.name();
        let _ = writeln!(out, r#"<g class="ramp" data-foot="{level},{row},{col}" data-dir="{dir}">"#);
        let top = cells.top;
        let _ = writeln!(
            out,
            "<title>ramp up from row {row}, col {col} to row {}, col {} of level {}</title>",
            top.slot.row, top.slot.col, top.level
        );
        for part in &plan.parts {
            let at: Vec<DVec2> = part.iter().map(|v| *v + origin).collect();
            polygon(out, &at, RAMP);
        }
        let (a, b) = (plan.start + origin, (plan.top[0] + plan.top[1]) / 2.0 + origin);
        let side = DVec2::new(-plan.along.y, plan.along.x) * 1.5;
        let head = b - plan.along * 2.5;
        let _ = writeln!(
            out,
            r#"<path d="M{:.2} {:.2}L{:.2} {:.2}M{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}" fill="none" stroke="{WALL}" stroke-width="0.5"/>"#,
            a.x,
            a.y,
            b.x,
            b.y,
            (head + side).x,
            (head + side).y,
            b.x,
            b.y,
            (head - side).x,
            (head - side).y
        );
        let _ = writeln!(out, "</g>");
    }
}

#[cfg(test)]
mod tests {
    use crate::dungeon::{Dungeon, Fill};
    use crate::geometry::Proportions;
    use crate::grid::Pos;
    use crate::plan::{PlanOptions, to_svg};

    #[test]
    fn voids_railings_and_drops_are_drawn_on_their_level() {
        let mut d = Dungeon::new(5, 5, 2, Proportions::default(), Fill::Floor).unwrap();
        assert!(!to_svg(&d, &PlanOptions::default()).contains(r#"class="columns""#));
        let void = d.void_tile().unwrap();
        let cells: Vec<Pos> = d
            .cells()
            .filter(|p| p.level == 1 && (3..=5).contains(&p.slot.row) && (3..=5).contains(&p.slot.col))
            .collect();
        for &p in &cells {
            d.set_tile(p, void).unwrap();
        }
        let drop = d.drop_state().unwrap();
        let edge = d.railing_edges(1)[0].edge;
        d.set_edge_of(1, edge, drop).unwrap();
        let svg = to_svg(&d, &PlanOptions::default());
        let level = |l: u16| {
            svg.split(&format!(r#"<g id="level-{l}">"#))
                .nth(1)
                .unwrap()
                .split(r#"<g id="level-"#)
                .next()
                .unwrap()
                .to_string()
        };
        let (ground, upper) = (level(0), level(1));
        assert!(upper.matches(&format!(r#"fill="{}" points"#, super::VOID)).count() >= cells.len());
        assert_eq!(upper.matches(r#"class="railing""#).count(), d.railing_edges(1).len());
        assert_eq!(upper.matches(r#"class="drop""#).count(), 1);
        assert_eq!(ground.matches(r#"class="open-above""#).count(), cells.len(), "the atrium's cells below");
        assert!(!ground.contains(r#"class="railing""#));
    }
}
