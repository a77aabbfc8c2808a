//! The plain reference the sight tests check against: segment-versus-polygon intersection
//! over every rock piece of the level (solid cells, wall seams, the parts of a door's seam
//! beside its passage, closed doors, pillars, and thin slabs outside the grid's border),
//! built from `Layout` and the dungeon's public rules, independently of the module's
//! square-by-square walk; and the generated dungeons (with closed, open and see-through
//! doors) it is checked on.
#![allow(dead_code)]

use glam::DVec2;
use octile::dungeon::{Carve, Dungeon, EdgeStateId, Registry};
use octile::generate::{GenerateOptions, generate};
use octile::geometry::signed_area;
use octile::grid::{Direction, PillarId, Pos, Slot};
use octile::sight::cell_passes_sight;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// Penetration (metres) that makes the reference sure: a segment entering rock deeper than
/// this is blocked, one that keeps this far out of every rock piece is clear; between the
/// two the pair is too close to a corner to call and is skipped (and counted).
pub const SURE: f64 = 1e-6;

/// Thickness of the rock slabs laid outside the grid's border.
pub const SLAB: f64 = 0.3;

pub fn positive(mut poly: Vec<DVec2>) -> Vec<DVec2> {
    if signed_area(&poly) < 0.0 {
        poly.reverse();
    }
    poly
}

/// Every rock polygon of `level`, by a scan over the whole level.
pub fn rock(d: &Dungeon, level: u16) -> Vec<Vec<DVec2>> {
    let (dims, layout) = (d.dims(), d.layout());
    let mut out = Vec::new();
    let clear = |slot: Slot| cell_passes_sight(d, Pos { level, slot });
    for slot in dims.cells() {
        if !clear(slot) {
            out.push(layout.cell_polygon(slot).unwrap());
        }
        for &dir in dims.walls(slot).unwrap() {
            if dims.edge(slot, dir).unwrap().is_none() {
                let [a, b] = layout.wall(slot, dir).unwrap();
                let out_n = -(b - a).perp().normalize() * SLAB;
                out.push(positive(vec![a, b, b + out_n, a + out_n]));
            }
        }
        if slot.kind() == octile::grid::SlotKind::Connector {
            for side in Direction::CARDINALS {
                // An open pillar whose cells and seams all let sight through is clear.
                let pillar = PillarId::new(slot, side).unwrap();
                let seam_clear = |e| {
                    let state = d.edge_state_of(level, e).unwrap();
                    !d.registry().edge_def(state).unwrap().opaque
                };
                let clear_pillar = d.is_pillar_open(level, pillar)
                    && pillar.cells().into_iter().all(clear)
                    && pillar.seams().into_iter().all(seam_clear);
                if !clear_pillar {
                    out.push(layout.pillar(slot, side).unwrap().to_vec());
                }
            }
        }
    }
    for edge in dims.edges() {
        let sides = dims.edge_sides(edge).unwrap();
        let seam = layout.edge_seam(sides).unwrap();
        let (slot, dir) = sides[0];
        let def = d.carved_seam(Pos { level, slot }, dir);
        let passes = def.is_some_and(|e| !e.opaque) && clear(sides[0].0) && clear(sides[1].0);
        match (passes, def.map(|e| e.carve)) {
            (true, Some(Carve::Full)) => {}
            (true, Some(Carve::Door)) => {
                let [a1, a0, b1, b0] = seam;
                let [da1, da0, db1, db0] = layout.door(sides[0], sides[1]).unwrap();
                out.push(positive(vec![da0, a0, b1, db1]));
                out.push(positive(vec![a1, da1, db0, b0]));
            }
            _ => out.push(positive(seam.to_vec())),
        }
        // A long seam whose end has no connector faces the outside there.
        if let octile::grid::EdgeId::Long(void) = edge {
            let horizontal = void.row % 2 == 0;
            let (at_low, at_high) = if horizontal {
                (void.row == 0, void.row + 1 == dims.rows())
            } else {
                (void.col == 0, void.col + 1 == dims.cols())
            };
            let key = |p: &DVec2| if horizontal { p.y } else { p.x };
            let mut corners = seam.to_vec();
            corners.sort_by(|a, b| key(a).total_cmp(&key(b)));
            let push_end = |out: &mut Vec<Vec<DVec2>>, a: DVec2, b: DVec2, dir: f64| {
                let n = if horizontal { DVec2::new(0.0, dir) } else { DVec2::new(dir, 0.0) } * SLAB;
                out.push(positive(vec![a, b, b + n, a + n]));
            };
            if at_low {
                push_end(&mut out, corners[0], corners[1], -1.0);
            }
            if at_high {
                push_end(&mut out, corners[2], corners[3], 1.0);
            }
        }
    }
    out
}

/// True when segment `p -> q` enters `poly` shrunk by `margin` metres (grown when negative).
pub fn enters(poly: &[DVec2], p: DVec2, q: DVec2, margin: f64) -> bool {
    let d = q - p;
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for i in 0..poly.len() {
        let a = poly[i];
        let e = poly[(i + 1) % poly.len()] - a;
        let len = e.length();
        let (f0, fd) = (e.perp_dot(p - a) / len - margin, e.perp_dot(d) / len);
        if fd > 0.0 {
            lo = lo.max(-f0 / fd);
        } else if fd < 0.0 {
            hi = hi.min(-f0 / fd);
        } else if f0 <= 0.0 {
            return false;
        }
    }
    lo < hi
}

/// The reference's answer: `Some(sees)` when it is sure, `None` near a corner.
pub fn reference(rock: &[Vec<DVec2>], p: DVec2, q: DVec2) -> Option<bool> {
    let deep = rock.iter().any(|r| enters(r, p, q, SURE));
    let touching = rock.iter().any(|r| enters(r, p, q, -SURE));
    (deep == touching).then_some(!deep)
}

pub fn unit(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A random point inside the cell at `slot` (a triangle of its fan about the centre).
pub fn point_in(d: &Dungeon, slot: Slot, rng: &mut ChaCha8Rng) -> DVec2 {
    let poly = d.layout().cell_polygon(slot).unwrap();
    let c = d.layout().center(slot);
    let i = (rng.next_u64() % poly.len() as u64) as usize;
    let (mut u, mut w) = (unit(rng), unit(rng));
    if u + w > 1.0 {
        (u, w) = (1.0 - u, 1.0 - w);
    }
    c + (poly[i] - c) * u + (poly[(i + 1) % poly.len()] - c) * w
}

/// The registry's standard states plus `ajar`: a door whose passage passes sight.
pub fn ajar_registry() -> (Registry, EdgeStateId) {
    let mut registry = Registry::standard();
    let mut ajar = registry.edge_def(Registry::DOOR).unwrap().clone();
    ajar.name = "ajar".into();
    ajar.symbol = 'a';
    ajar.opaque = false;
    let id = registry.add_edge(ajar).unwrap();
    (registry, id)
}

/// A generated dungeon, copied into the `ajar` registry with a third of its open edges
/// turned into closed doors and a third into ajar doors.
pub fn generated(seed: u64, cut_ratio: f64) -> Dungeon {
    let options = GenerateOptions { seed, levels: 2, cols: 9, rows: 9, cut_ratio, ..Default::default() };
    let source = generate(&options, &mut |_| {}).unwrap();
    let (registry, ajar) = ajar_registry();
    let dims = source.dims();
    let mut d = Dungeon::with_registry(
        dims.octagon_cols(),
        dims.octagon_rows(),
        u32::from(source.levels()),
        *source.proportions(),
        registry,
        octile::dungeon::Fill::Solid,
    )
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    for pos in source.cells() {
        d.set_tile(pos, source.tile(pos).unwrap()).unwrap();
    }
    for level in 0..source.levels() {
        for edge in dims.edges() {
            let mut state = source.edge_state_of(level, edge).unwrap();
            if state == Registry::OPEN {
                state = [Registry::OPEN, Registry::DOOR, ajar][(rng.next_u64() % 3) as usize];
            }
            d.set_edge_of(level, edge, state).unwrap();
        }
    }
    d
}

pub fn clear_cells(d: &Dungeon, level: u16) -> Vec<Slot> {
    d.dims().cells().filter(|&s| cell_passes_sight(d, Pos { level, slot: s })).collect()
}
