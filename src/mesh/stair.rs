//! The spiral stair: one closed solid standing in a stair shaft. A central column rises the
//! whole level height; steps no higher than [`MAX_RISE`](crate::geometry::MAX_RISE) wind once round it, each a solid
//! block from the floor up to its tread; the top step is a landing that reaches out to one
//! wall of the octagon (the stair's exit, [`Dungeon::stair_exit`](crate::dungeon::Dungeon::stair_exit)),
//! so one walks off it there. The plan (angles, radii, steps) is [`Spiral`]'s.

use glam::{DVec2, DVec3};

use super::MaterialRole;
use super::panel::{Panel, at};
use super::triangulate::{fan, strip};
use crate::geometry::{Spiral, angle};
use crate::grid::{Direction, Pos};

/// The panels of the stair solid (role [`MaterialRole::Stair`]), its normals pointing out of
/// the solid, from `y = 0` to `y = spec.height` (level-local), following the plan `spec`.
pub(crate) fn spiral(spec: &Spiral) -> Vec<Panel> {
    let plan = Sectors::new(spec);
    let mut panels = plan.column_disks();
    panels.extend((1..plan.n).flat_map(|s| plan.step(s)));
    panels.extend(plan.landing());
    panels.extend((0..plan.n).map(|s| plan.column_face(s)));
    panels.extend((1..=plan.n).map(|k| plan.riser(k)));
    panels.push(plan.gap_side());
    panels
}

/// The ramp of the stair planned by `spec`: the same closed solid as [`spiral`] (column,
/// step footprints, landing), but its top rises linearly across each step's sector from
/// that step's tread height to the next one's, so no risers are left but the first: a
/// cheaper surface for colliders that characters walk up smoothly.
pub(crate) fn ramp(spec: &Spiral) -> Vec<Panel> {
    let plan = Sectors::new(spec);
    let (outer, height) = (&plan.outer, plan.height);
    let mut panels = plan.column_disks();
    for s in 1..plan.n {
        panels.extend(plan.ramp_sector(s));
    }
    let [landing_bottom, landing_top, landing_side] = plan.landing();
    panels.extend([landing_bottom, landing_top, landing_side]);
    let (n, ea) = (plan.n, plan.ea);
    // The landing's side beyond the last step's rim lies on boundary n and faces down the
    // spiral, as the render stair's last riser does.
    let d = plan.dirs[n];
    let mut beside = Panel::vertical(MaterialRole::Stair, outer[n], ea, plan.c + d * plan.rc - d.perp());
    beside.extend(strip(&[at(outer[n], 0.0), at(outer[n], height)], &[at(ea, 0.0), at(ea, height)]));
    panels.push(beside);
    panels.push(plan.gap_column());
    panels.push(plan.riser(1));
    panels.push(plan.gap_side());
    panels
}

/// Every stair standing on `level` of `dungeon` (the stair table's order) with the wall its
/// landing reaches ([`Dungeon::stair_landing`](crate::dungeon::Dungeon::stair_landing)) and
/// the plan of its spiral: the stairs that the collider and the navigation mesh build on.
pub(crate) fn level_spirals(dungeon: &crate::dungeon::Dungeon, level: u16) -> Vec<(Pos, Direction, Spiral)> {
    let height = dungeon.proportions().layer_height;
    dungeon
        .stairs()
        .iter()
        .filter(|s| s.foot.level == level)
        .filter_map(|stair| {
            let dir = dungeon.stair_landing(stair.foot)?;
            Some((stair.foot, dir, Spiral::new(dungeon.layout(), stair.foot.slot, dir, height)?))
        })
        .collect()
}

/// The triangles of the ramp ([`ramp`]) of the stair planned by `spec`, in level-local
/// metres, wound to face out of the solid.
pub(crate) fn ramp_triangles(spec: &Spiral) -> Vec<[DVec3; 3]> {
    ramp(spec).into_iter().flat_map(|panel| panel.tris).collect()
}

/// The walking surface of one stair, for a navigation mesh ([`stair_walk`]).
pub(crate) struct StairWalk {
    /// The ramp and the landing: triangles in level-local metres, facing up.
    pub ramp: Vec<[DVec3; 3]>,
    /// Where the stair's footprint (column, steps and landing) meets the floor round it, in
    /// plan, from the landing wall's first end (exclusive) back to its second end
    /// (exclusive): the steps' rim from the landing down to the first step, the first step's
    /// foot edge at floor level (`rim[n - 1] -> rim[n]`, shared with the ramp), the rest of
    /// that boundary in to the column (when the ramp starts further out) and the column's
    /// edge over the gap sector.
    pub rim: Vec<DVec2>,
}

/// Distance from the stair's centre (metres) at which the ramp of [`stair_walk`] starts, so
/// that none of its triangles is steeper than `max_slope` (radians): the steepest is the
/// one whose horizontal edge lies on a boundary and whose third corner lies on the ramp's
/// inner edge one boundary down, rising `rise` over `radius * sin(sector angle)`. Never
/// nearer than the column, nor further than the walking line (`spec.walking`), which stays
/// on the ramp: a stair so tall that its walking line is steeper than `max_slope` keeps a
/// steeper inner edge.
pub(crate) fn walk_radius(spec: &Spiral, max_slope: f64) -> f64 {
    let steps = spec.steps();
    let rise = spec.height / (steps - 1) as f64;
    let needed = rise / (angle::sin(spec.sector_angle()) * angle::tan(max_slope));
    needed.min(spec.walking.radius.min(spec.step_radius())).max(spec.column_radius())
}

/// The walking surface of the stair planned by `spec`, joined to the floors it leaves:
/// over the steps' footprint (the sectors of [`ramp`] between column and rim) a ramp that
/// starts at the floor (height 0) on the first step's foot edge, so no riser is left, and
/// rises linearly from boundary to boundary to the landing's height; the landing is level
/// at `spec.height` out to its wall, whose edge it shares with the floor beyond (split at
/// `exit_door`, the opening a door cuts in that wall on the level above, when there is one).
/// Near the column a one-turn helix is steep (at the column's radius the default stair
/// rises at 75 degrees), so the ramp covers the sectors only from [`walk_radius`] outwards:
/// no triangle is steeper than `max_slope` (radians). It stays within one step's rise of
/// the walking surface [`Spiral::ramp`].
pub(crate) fn stair_walk(spec: &Spiral, exit_door: Option<[DVec2; 2]>, max_slope: f64) -> StairWalk {
    let plan = Sectors::new(spec);
    let (inner, outer, n) = (&plan.inner, &plan.outer, plan.n);
    let radius = walk_radius(spec, max_slope);
    // The ramp's inner edge: on the column, or out on each boundary at `radius`.
    let cut = radius > plan.rc;
    let start: Vec<DVec2> = plan.dirs.iter().map(|&d| plan.c + d * radius).collect();
    let start = if cut { &start } else { inner };
    // Boundary 1 (the first step's foot) stands at the floor, boundary n at the landing.
    let y = |k: usize| plan.height * (k - 1) as f64 / (n - 1) as f64;
    let mut ramp = Vec::with_capacity(2 * n + 5);
    for s in 1..n {
        let (a, b) = (y(s), y(s + 1));
        ramp.push([at(start[s], a), at(outer[s], a), at(outer[s + 1], b)]);
        ramp.push([at(start[s], a), at(outer[s + 1], b), at(start[s + 1], b)]);
    }
    // The landing is fanned from the column point on boundary 0: `inner[n]`, the ramp's
    // start, `outer[n]` and `ea` lie on boundary n's ray and the door points on the wall,
    // but no two neighbours lie on a line through the apex, so no triangle is degenerate.
    let mut landing = vec![inner[0], inner[n]];
    landing.extend(cut.then_some(start[n]));
    landing.extend([outer[n], plan.ea]);
    landing.extend(exit_door.into_iter().flatten());
    landing.push(plan.eb);
    ramp.extend(fan(&landing.iter().map(|&v| at(v, plan.height)).collect::<Vec<_>>()));
    let ramp = ramp
        .into_iter()
        .map(|[a, b, c]| if (b - a).cross(c - a).y >= 0.0 { [a, b, c] } else { [a, c, b] })
        .collect();
    let mut rim = footprint_rim(spec);
    if cut {
        rim.insert(n, start[1]);
    }
    StairWalk { ramp, rim }
}

/// Where the footprint of the stair planned by `spec` (column, steps and landing, as
/// [`ramp`] and [`shaft_ramp`] stand on the floor) meets the floor round it, in plan, from
/// the landing wall's first end (exclusive) back to its second end (exclusive): the steps'
/// rim from the landing down to the first step, the first step's foot edge (`rim[n - 1] ->
/// rim[n]`) and the column's edge over the gap sector.
pub(crate) fn footprint_rim(spec: &Spiral) -> Vec<DVec2> {
    let plan = Sectors::new(spec);
    let mut rim: Vec<DVec2> = (1..=plan.n).rev().map(|k| plan.outer[k]).collect();
    rim.extend([plan.inner[1], plan.inner[0]]);
    rim
}

/// What the walls and floors round a stair's shaft do where [`shaft_ramp`] meets them.
pub(crate) struct ShaftSides {
    /// The stair octagon's room height (metres): the walls beside the landing wall's ends
    /// are split there.
    pub room_height: f64,
    /// The heights between 0 and `room_height` where those walls are split too, at the
    /// landing wall's first and second end (the tops of lower open seams meeting there:
    /// [`super::level::wall_end_splits`]).
    pub splits: [Vec<f64>; 2],
    /// The opening a door cuts in the landing wall on the level above: the floor beyond
    /// the landing's top edge is split there.
    pub exit_door: Option<[DVec2; 2]>,
    /// The opening in the landing wall on the stair's own level (a door's, or the whole
    /// wall when it is open) and its height: the passage beyond it ends at the landing. Its
    /// sides are split at `splits` below that height when it is the whole wall.
    pub opening: Option<([DVec2; 2], f64)>,
}

/// The stair planned by `spec` as a collider sees it from the shaft's carved space: the
/// ramp of [`ramp`] without the faces it shares with the rock round it, which the collider
/// drops on both sides. Its bottom stands on the floor (the collider cuts
/// [`footprint_rim`] out of the floor instead), and its side on the landing wall lies on
/// that wall (the collider drops the wall instead) but where `sides.opening` is: there it
/// closes the passage beyond. The sides at the landing wall's ends are split at the room
/// height and the landing's top edge at the exit door, where the walls and floors they
/// meet are. Faces point out of the solid, into the shaft.
pub(crate) fn shaft_ramp(spec: &Spiral, sides: &ShaftSides) -> Vec<Panel> {
    let plan = Sectors::new(spec);
    let (inner, outer, height, n) = (&plan.inner, &plan.outer, plan.height, plan.n);
    let (ea, eb, rh) = (plan.ea, plan.eb, sides.room_height);
    let mut panels = plan.column_disks().split_off(1);
    for s in 1..n {
        panels.extend(plan.ramp_sector(s).into_iter().skip(1));
    }
    let mut landing = vec![inner[0], inner[n], outer[n], ea];
    landing.extend(sides.exit_door.into_iter().flatten());
    landing.push(eb);
    panels.push(filled(
        Panel::horizontal(MaterialRole::Stair, true),
        fan(&landing.iter().map(|&v| at(v, height)).collect::<Vec<_>>()),
    ));
    let d = plan.dirs[n];
    let mut beside = Panel::vertical(MaterialRole::Stair, outer[n], ea, plan.c + d * plan.rc - d.perp());
    let column = |p: DVec2, splits: &[f64], top: f64| {
        let mut c = vec![at(p, 0.0)];
        c.extend(splits.iter().filter(|&&h| h > 0.0 && h < top).map(|&h| at(p, h)));
        c.push(at(p, top));
        c
    };
    let wall_end = |p: DVec2, splits: &[f64]| {
        let mut c = column(p, splits, rh);
        c.push(at(p, height));
        c
    };
    beside.extend(strip(&[at(outer[n], 0.0), at(outer[n], height)], &wall_end(ea, &sides.splits[0])));
    panels.extend([beside, plan.gap_column(), plan.riser(1)]);
    let d0 = plan.dirs[0];
    let ahead = plan.c + d0 * plan.rc + d0.perp();
    let mut gap_side = Panel::vertical(MaterialRole::Stair, inner[0], eb, ahead);
    gap_side.extend(strip(&[at(inner[0], 0.0), at(inner[0], height)], &wall_end(eb, &sides.splits[1])));
    panels.push(gap_side);
    if let Some(([p, q], top)) = sides.opening {
        let whole = p == ea && q == eb;
        let none: &[f64] = &[];
        let [sp, sq] = if whole { [&sides.splits[0][..], &sides.splits[1][..]] } else { [none, none] };
        panels.push(filled(plan.outward(ea, eb), strip(&column(p, sp, top), &column(q, sq, top))));
    }
    panels
}

/// The stair's sectors round its column. Boundary k = 0..=n lies at angle
/// theta_b + k * beta; sector s = 0..=n spans boundary s to s + 1 (boundary n + 1 is
/// boundary 0): sector 0 is the gap, 1..n-1 the steps, n the landing. Sector s stands
/// [`Sectors::h`] tall.
struct Sectors {
    /// Centre of the column (metres, level-local plan).
    c: DVec2,
    /// Height of the stair: the landing's tread (metres).
    height: f64,
    /// Index of the landing sector (the number of boundaries less one).
    n: usize,
    /// Rise of one step (metres).
    rise: f64,
    /// Radius of the column (metres).
    rc: f64,
    /// Unit direction of each boundary.
    dirs: Vec<DVec2>,
    /// Each boundary's point on the column.
    inner: Vec<DVec2>,
    /// Each boundary's point on the steps' outer rim.
    outer: Vec<DVec2>,
    /// The landing's ends on the exit wall.
    ea: DVec2,
    eb: DVec2,
}

/// Panel `p` holding `tris`.
fn filled(mut p: Panel, tris: Vec<[DVec3; 3]>) -> Panel {
    p.extend(tris);
    p
}

impl Sectors {
    fn new(spec: &Spiral) -> Sectors {
        let c = spec.centre;
        let n = spec.steps();
        let [ea, eb] = spec.landing;
        let (_, theta_b) = spec.landing_angles();
        let beta = spec.sector_angle();
        let dirs: Vec<DVec2> =
            (0..=n).map(|k| crate::geometry::angle::unit(theta_b + k as f64 * beta)).collect();
        let (rc, r) = (spec.column_radius(), spec.step_radius());
        let inner = dirs.iter().map(|&d| c + d * rc).collect();
        let outer = dirs.iter().map(|&d| c + d * r).collect();
        Sectors { c, height: spec.height, n, rise: spec.rise(), rc, dirs, inner, outer, ea, eb }
    }

    /// Height of sector `s`'s tread (metres).
    fn h(&self, s: usize) -> f64 {
        if s == self.n { self.height } else { s as f64 * self.rise }
    }

    /// A vertical panel on `from -> to` whose outside is away from the column.
    fn outward(&self, from: DVec2, to: DVec2) -> Panel {
        let mid = (from + to) / 2.0;
        Panel::vertical(MaterialRole::Stair, from, to, mid + (mid - self.c))
    }

    /// The column's bottom and top disks.
    fn column_disks(&self) -> Vec<Panel> {
        let disk = |y: f64| fan(&self.inner.iter().map(|&v| at(v, y)).collect::<Vec<_>>());
        vec![
            filled(Panel::horizontal(MaterialRole::Stair, false), disk(0.0)),
            filled(Panel::horizontal(MaterialRole::Stair, true), disk(self.height)),
        ]
    }

    /// The ramp over step sector `s` (1..n-1): bottom, sloped top (from tread `s` to tread
    /// `s + 1`), outer face and the column's face above the top.
    fn ramp_sector(&self, s: usize) -> [Panel; 4] {
        let (inner, outer, height) = (&self.inner, &self.outer, self.height);
        let (a, b) = (self.h(s), self.h(s + 1));
        let bottom = fan(&[inner[s], outer[s], outer[s + 1], inner[s + 1]].map(|v| at(v, 0.0)));
        let top = vec![
            [at(inner[s], a), at(outer[s], a), at(outer[s + 1], b)],
            [at(inner[s], a), at(outer[s + 1], b), at(inner[s + 1], b)],
        ];
        let side =
            strip(&[at(outer[s], 0.0), at(outer[s], a)], &[at(outer[s + 1], 0.0), at(outer[s + 1], b)]);
        let column =
            strip(&[at(inner[s], a), at(inner[s], height)], &[at(inner[s + 1], b), at(inner[s + 1], height)]);
        [
            filled(Panel::horizontal(MaterialRole::Stair, false), bottom),
            // The sloped top is not one plane; its normal only orients the triangles upwards.
            filled(Panel::horizontal(MaterialRole::Stair, true), top),
            filled(self.outward(outer[s], outer[s + 1]), side),
            filled(self.outward(inner[s], inner[s + 1]), column),
        ]
    }

    /// The column's face over the gap sector, from the floor to the top (split at the first
    /// step's tread, where the riser meets it).
    fn gap_column(&self) -> Panel {
        let (inner, height) = (&self.inner, self.height);
        let mut face = self.outward(inner[0], inner[1]);
        face.extend(strip(
            &[at(inner[0], 0.0), at(inner[0], height)],
            &[at(inner[1], 0.0), at(inner[1], self.h(1)), at(inner[1], height)],
        ));
        face
    }

    /// Step `s` (1..n-1): bottom, tread and outer face.
    fn step(&self, s: usize) -> [Panel; 3] {
        let (inner, outer) = (&self.inner, &self.outer);
        let quad = |y: f64| vec![at(inner[s], y), at(outer[s], y), at(outer[s + 1], y), at(inner[s + 1], y)];
        let chain = |k: usize, other: usize| {
            let mut ys = vec![0.0];
            if self.h(other) > 0.0 && self.h(other) < self.h(s) {
                ys.push(self.h(other));
            }
            ys.push(self.h(s));
            ys.into_iter().map(|y| at(outer[k], y)).collect::<Vec<_>>()
        };
        [
            filled(Panel::horizontal(MaterialRole::Stair, false), fan(&quad(0.0))),
            filled(Panel::horizontal(MaterialRole::Stair, true), fan(&quad(self.h(s)))),
            filled(self.outward(outer[s], outer[s + 1]), strip(&chain(s, s - 1), &chain(s + 1, s + 1))),
        ]
    }

    /// The landing (sector n): bottom, tread and the face on the octagon's wall.
    fn landing(&self) -> [Panel; 3] {
        let (n, ea, eb) = (self.n, self.ea, self.eb);
        let chain_a = |y: f64| vec![at(self.inner[n], y), at(self.outer[n], y), at(ea, y)];
        let chain_b = |y: f64| vec![at(self.inner[0], y), at(eb, y)];
        let side = strip(&[at(ea, 0.0), at(ea, self.height)], &[at(eb, 0.0), at(eb, self.height)]);
        [
            filled(Panel::horizontal(MaterialRole::Stair, false), strip(&chain_a(0.0), &chain_b(0.0))),
            filled(
                Panel::horizontal(MaterialRole::Stair, true),
                strip(&chain_a(self.height), &chain_b(self.height)),
            ),
            filled(self.outward(ea, eb), side),
        ]
    }

    /// The column's face over sector `s` (0..n-1), from its tread up to the top.
    fn column_face(&self, s: usize) -> Panel {
        let (n, height) = (self.n, self.height);
        let k1 = (s + 1) % (n + 1);
        let chain = |k: usize, other: usize| {
            let mut ys = vec![self.h(s)];
            if self.h(other) > self.h(s) && self.h(other) < height {
                ys.push(self.h(other));
            }
            ys.push(height);
            ys.into_iter().map(|y| at(self.inner[k], y)).collect::<Vec<_>>()
        };
        let left_other = if s == 0 { n } else { s - 1 };
        filled(self.outward(self.inner[s], self.inner[k1]), strip(&chain(s, left_other), &chain(k1, k1)))
    }

    /// The riser on boundary `k` (1..=n), facing down the spiral, towards the lower sector.
    fn riser(&self, k: usize) -> Panel {
        let (inner, outer, dirs) = (&self.inner, &self.outer, &self.dirs);
        let back = self.c + dirs[k] * self.rc - DVec2::new(-dirs[k].y, dirs[k].x);
        let (lo, hi) = (self.h(k - 1), self.h(k));
        let mut face = Panel::vertical(MaterialRole::Stair, inner[k], outer[k], back);
        face.extend(strip(&[at(inner[k], lo), at(inner[k], hi)], &[at(outer[k], lo), at(outer[k], hi)]));
        if k == self.n {
            face.extend(strip(
                &[at(outer[k], 0.0), at(outer[k], lo), at(outer[k], hi)],
                &[at(self.ea, 0.0), at(self.ea, hi)],
            ));
        }
        face
    }

    /// Boundary 0: the landing's side facing the gap.
    fn gap_side(&self) -> Panel {
        let (d, i0, eb, height) = (self.dirs[0], self.inner[0], self.eb, self.height);
        let ahead = self.c + d * self.rc + DVec2::new(-d.y, d.x);
        filled(
            Panel::vertical(MaterialRole::Stair, i0, eb, ahead),
            strip(&[at(i0, 0.0), at(i0, height)], &[at(eb, 0.0), at(eb, height)]),
        )
    }
}
