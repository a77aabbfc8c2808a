//! The walkable world: every level's plan indexed by slot, the stairs, and the queries a
//! walker needs (ground height under a point, walls near a point).

use glam::DVec2;

use super::plan::{LevelPlan, Wall, WallKind, level_plan_with};
use crate::dungeon::{Dungeon, Ramp};
use crate::geometry::{Layout, RampPlan, Spiral};
use crate::grid::{Dims, Direction, Pos, Slot};
use crate::path::PathRules;

/// A spiral stair as the walk model sees it: the plan the mesh builder extrudes
/// ([`Spiral`]: a column, steps winding clockwise seen from above from just past the landing
/// wall, the landing spanning that wall's angle), walked as a ramp through the middle of
/// every tread. The landing's wall is the stair's exit ([`Dungeon::stair_exit`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Stair {
    /// The stair octagon (on its lower level).
    pub pos: Pos,
    /// Centre of the octagon, world `(x, z)` metres.
    pub centre: DVec2,
    /// Outline of the octagon.
    pub polygon: Vec<DVec2>,
    /// The plan of the stair (level-local heights).
    pub spiral: Spiral,
    /// The wall of the upper octagon one walks off through at the top (the landing's wall).
    pub exit: Direction,
    /// Compass angle of the middle of the exit wall (radians clockwise from north).
    pub exit_angle: f64,
    /// Compass angle where the ramp starts: the clockwise end of the exit wall.
    pub foot_angle: f64,
    /// World height of the lower floor (metres).
    pub base_y: f64,
    /// Rise of one turn: the level height (metres).
    pub rise: f64,
}

impl Stair {
    /// Height (world metres) of the walking surface at `p`: the ramp over the treads, or the
    /// landing; `None` off the stair (outside the octagon, in the column, on the walkway
    /// outside the steps).
    #[must_use]
    pub fn height_at(&self, p: DVec2) -> Option<f64> {
        if !contains(&self.polygon, p) {
            return None;
        }
        self.spiral.ramp(p).map(|h| self.base_y + h)
    }

    /// Radius of the central column (metres).
    #[must_use]
    pub fn column_radius(&self) -> f64 {
        self.spiral.column_radius()
    }

    /// True when a body of `radius` standing with its feet at `y` (world metres) at `p`
    /// overlaps a step or the landing whose tread is more than `step` above its feet: the
    /// stair solid is a block from the lower floor up to each tread, so such a body would be
    /// inside it. The column is not a tread (see [`World::column_near`]).
    #[must_use]
    pub fn blocks(&self, p: DVec2, y: f64, radius: f64, step: f64) -> bool {
        self.overlap(p, y, radius, step) > 0
    }

    /// How deep such a body is in the stair solid: of the body's centre and [`FOOTPRINT`]
    /// points round its rim, how many lie on a step or the landing whose tread
    /// ([`Spiral::tread`]) is more than `step` above its feet. A corner of a step pokes at
    /// most `radius * sin(pi / FOOTPRINT)` into the body unseen: 3 cm for a 0.3 m body.
    #[must_use]
    pub fn overlap(&self, p: DVec2, y: f64, radius: f64, step: f64) -> usize {
        let local = y - self.base_y;
        if local >= self.rise - step || local < -step {
            return 0;
        }
        let reach = self.polygon.iter().map(|v| v.distance(self.centre)).fold(0.0, f64::max);
        if p.distance(self.centre) > reach + radius {
            return 0;
        }
        let rim = (0..FOOTPRINT).map(|k| {
            p + crate::geometry::angle::unit(k as f64 / FOOTPRINT as f64 * std::f64::consts::TAU) * radius
        });
        std::iter::once(p)
            .chain(rim)
            .filter(|&q| contains(&self.polygon, q))
            .filter(|&q| self.spiral.tread(q).is_some_and(|t| t - local > step + 1e-9))
            .count()
    }
}

/// A ramp as the walk model sees it: its plan ([`RampPlan`]) and the height of its foot's
/// floor; its surface is walked as ground.
#[derive(Debug, Clone, PartialEq)]
pub struct RampWalk {
    /// The ramp.
    pub ramp: Ramp,
    /// Its plan (level-local heights).
    pub plan: RampPlan,
    /// World height of its foot's floor (metres).
    pub base_y: f64,
}

impl RampWalk {
    /// Height (world metres) of the ramp's surface at `p`, `None` off it.
    #[must_use]
    pub fn height_at(&self, p: DVec2) -> Option<f64> {
        self.plan.height_at(p).map(|h| self.base_y + h)
    }
}

/// Points round a body's rim at which [`Stair::overlap`] reads the treads.
pub const FOOTPRINT: usize = 32;

/// The compass angle of a horizontal direction: 0 north (-z), growing clockwise seen from
/// above (east is pi/2).
#[must_use]
pub fn compass_angle(d: DVec2) -> f64 {
    crate::geometry::angle::atan2(d.x, -d.y)
}

/// The unit `(x, z)` vector of a compass angle.
#[must_use]
pub fn compass_dir(angle: f64) -> DVec2 {
    let (sin, cos) = crate::geometry::angle::sin_cos(angle);
    DVec2::new(sin, -cos)
}

/// True when the convex, positively wound polygon contains `p` (boundary included).
#[must_use]
pub fn contains(polygon: &[DVec2], p: DVec2) -> bool {
    let n = polygon.len();
    (0..n).all(|i| (polygon[(i + 1) % n] - polygon[i]).perp_dot(p - polygon[i]) >= -1e-9)
}

/// Distance from `p` to the segment `a-b`.
#[must_use]
pub fn segment_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let t =
        if ab.length_squared() > 0.0 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    (a + ab * t - p).length()
}

/// True when the segments `p-q` and `a-b` cross or touch.
#[must_use]
pub fn segments_intersect(p: DVec2, q: DVec2, a: DVec2, b: DVec2) -> bool {
    let d1 = (q - p).perp_dot(a - p);
    let d2 = (q - p).perp_dot(b - p);
    let d3 = (b - a).perp_dot(p - a);
    let d4 = (b - a).perp_dot(q - a);
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    let eps = 1e-12;
    (d1.abs() < eps && segment_distance(a, p, q) < 1e-9)
        || (d2.abs() < eps && segment_distance(b, p, q) < 1e-9)
        || (d3.abs() < eps && segment_distance(p, a, b) < 1e-9)
        || (d4.abs() < eps && segment_distance(q, a, b) < 1e-9)
}

/// One level's plan with its pieces and walls bucketed by nearest slot.
#[derive(Debug, Clone)]
struct LevelIndex {
    plan: LevelPlan,
    piece_buckets: Vec<Vec<u32>>,
    wall_buckets: Vec<Vec<u32>>,
}

/// Everything a walker collides with, for every level of a dungeon.
#[derive(Debug, Clone)]
pub struct World {
    dims: Dims,
    layout: Layout,
    levels: Vec<LevelIndex>,
    stairs: Vec<Stair>,
    ramps: Vec<RampWalk>,
}

impl World {
    /// Indexes every level of `dungeon`, its doors as they are now (a closed door is a wall).
    #[must_use]
    pub fn new(dungeon: &Dungeon) -> World {
        World::with_rules(dungeon, &PathRules::default())
    }

    /// Indexes every level of `dungeon` under `rules` ([`level_plan_with`]): with
    /// [`PathRules::open_doors`] the walker passes through closed doors, as a route found
    /// under the same rules does.
    ///
    /// # Panics
    /// Never: points are clamped into the grid before they are looked up.
    #[must_use]
    pub fn with_rules(dungeon: &Dungeon, rules: &PathRules) -> World {
        let dims = dungeon.dims();
        let layout = dungeon.layout();
        let bucket =
            |p: DVec2| dims.index(layout.nearest_slot(p, dims)).expect("invariant: clamped into the grid");
        let levels = (0..dungeon.levels())
            .map(|l| {
                let plan = level_plan_with(dungeon, l, rules);
                let mut piece_buckets = vec![Vec::new(); dims.slot_count()];
                let mut wall_buckets = vec![Vec::new(); dims.slot_count()];
                for (i, p) in plan.pieces.iter().enumerate() {
                    let c = p.polygon.iter().copied().sum::<DVec2>() / p.polygon.len() as f64;
                    piece_buckets[bucket(c)].push(i as u32);
                }
                for (i, w) in plan.walls.iter().enumerate() {
                    wall_buckets[bucket((w.a + w.b) / 2.0)].push(i as u32);
                }
                LevelIndex { plan, piece_buckets, wall_buckets }
            })
            .collect();
        let p = dungeon.proportions();
        let stairs = dungeon
            .cells()
            .filter_map(|pos| {
                let exit = dungeon.stair_landing(pos)?;
                let spiral = Spiral::new(layout, pos.slot, exit, p.layer_height)?;
                let [a, b] = spiral.landing;
                let centre = layout.center(pos.slot);
                Some(Stair {
                    pos,
                    centre,
                    polygon: layout.cell_polygon(pos.slot)?,
                    spiral,
                    exit,
                    exit_angle: compass_angle((a + b) / 2.0 - centre),
                    foot_angle: compass_angle(b - centre),
                    base_y: p.floor_y(pos.level),
                    rise: p.layer_height,
                })
            })
            .collect();
        let ramps = (dungeon.sound_ramps())
            .filter_map(|&ramp| {
                Some(RampWalk { ramp, plan: dungeon.ramp_plan(&ramp)?, base_y: p.floor_y(ramp.level) })
            })
            .collect();
        World { dims, layout: *layout, levels, stairs, ramps }
    }

    /// The dungeon's grid-to-world mapping (and back), which this world was built on.
    #[must_use]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Number of levels.
    #[must_use]
    pub fn levels(&self) -> u16 {
        self.levels.len() as u16
    }

    /// Vertical distance between levels (metres).
    #[must_use]
    pub fn level_height(&self) -> f64 {
        self.layout.proportions().layer_height
    }

    /// The dungeon's default floor-to-ceiling height of a room (metres); a cell may have
    /// its own ([`World::room_height_at`]).
    #[must_use]
    pub fn room_height(&self) -> f64 {
        self.layout.proportions().room_height
    }

    /// Floor-to-ceiling height (metres) over `p` on `level`: the height of the carved piece
    /// there (a cell's room height, a seam's height; the tallest where pieces meet), or the
    /// default room height where no piece is (inside rock).
    #[must_use]
    pub fn room_height_at(&self, level: u16, p: DVec2) -> f64 {
        let Some(li) = self.levels.get(usize::from(level)) else { return self.room_height() };
        let mut found: Option<f64> = None;
        for b in self.near(p) {
            for &i in &li.piece_buckets[b] {
                let piece = &li.plan.pieces[i as usize];
                if contains(&piece.polygon, p) {
                    found = Some(found.map_or(piece.height, |h| h.max(piece.height)));
                }
            }
        }
        found.unwrap_or_else(|| self.room_height())
    }

    /// The carved plan of `level`, if it exists.
    #[must_use]
    pub fn plan(&self, level: u16) -> Option<&LevelPlan> {
        self.levels.get(usize::from(level)).map(|l| &l.plan)
    }

    /// Every stair of the dungeon.
    #[must_use]
    pub fn stairs(&self) -> &[Stair] {
        &self.stairs
    }

    /// Every sound ramp of the dungeon ([`Dungeon::ramp_is_sound`]).
    #[must_use]
    pub fn ramps(&self) -> &[RampWalk] {
        &self.ramps
    }

    /// The stair standing on `pos`, if any.
    #[must_use]
    pub fn stair(&self, pos: Pos) -> Option<&Stair> {
        self.stairs.iter().find(|s| s.pos == pos)
    }

    /// The level whose floor is nearest below `y` ([`Layout::level_at`], clamped to the
    /// dungeon's levels: below level 0 is level 0, above the top is the top level).
    #[must_use]
    pub fn level_at(&self, y: f64) -> u16 {
        let top = self.levels().saturating_sub(1);
        match self.layout.level_at(y) {
            Some(level) => level.min(top),
            None if y > 0.0 => top,
            None => 0,
        }
    }

    /// The buckets of the slots within two of the slot nearest to `p`
    /// ([`Layout::nearest_slot`]): every piece or wall that can hold or touch `p`.
    fn near(&self, p: DVec2) -> impl Iterator<Item = usize> + '_ {
        let centre = self.layout.nearest_slot(p, self.dims);
        (-2..=2)
            .flat_map(move |dr| (-2..=2).filter_map(move |dc| centre.offset(dr, dc)))
            .filter_map(move |slot| self.dims.index(slot).ok())
    }

    /// True when level `level` has a floor at `p`.
    fn has_floor(&self, level: u16, p: DVec2) -> bool {
        let Some(li) = self.levels.get(usize::from(level)) else { return false };
        self.near(p).any(|b| {
            li.piece_buckets[b].iter().any(|&i| {
                let piece = &li.plan.pieces[i as usize];
                piece.floor && contains(&piece.polygon, p)
            })
        })
    }

    /// The highest walkable surface under `p` no higher than `top` (world metres): a level
    /// floor, a stair's ramp or a ramp. `None` when there is nothing below (a bottomless
    /// fall).
    #[must_use]
    pub fn ground(&self, p: DVec2, top: f64) -> Option<f64> {
        let mut best: Option<f64> = None;
        let highest = self.level_at(top);
        for l in (0..=highest).rev() {
            let y = self.layout.proportions().floor_y(l);
            if y <= top && self.has_floor(l, p) {
                best = Some(y);
                break;
            }
        }
        let stairs = self.stairs.iter().map(|s| s.height_at(p));
        let ramps = self.ramps.iter().map(|r| r.height_at(p));
        for h in stairs.chain(ramps).flatten() {
            if h <= top && best.is_none_or(|b| h > b) {
                best = Some(h);
            }
        }
        best
    }

    /// The wall segments that can touch a body whose feet are at height `y` near `p`:
    /// the walls of the level it stands in, or the shaft's eight walls when the body is
    /// in a stair shaft above the room height. `step` is how far below the next floor one
    /// already counts as standing on it.
    pub fn walls_near(&self, p: DVec2, y: f64, step: f64, body: f64, out: &mut Vec<Wall>) {
        out.clear();
        let level = self.level_at(y + step);
        let local = y - self.layout.proportions().floor_y(level);
        if let Some(s) = self.stairs.iter().find(|s| s.pos.level == level && contains(&s.polygon, p))
            && local > self.room_height_at(level, s.centre) - body
        {
            let n = s.polygon.len();
            out.extend((0..n).map(|i| Wall {
                a: s.polygon[i],
                b: s.polygon[(i + 1) % n],
                kind: WallKind::Rock,
                height: self.level_height(),
            }));
            return;
        }
        let Some(li) = self.levels.get(usize::from(level)) else { return };
        for b in self.near(p) {
            out.extend(li.wall_buckets[b].iter().map(|&i| li.plan.walls[i as usize]));
        }
    }

    /// Height (world metres) of the ceiling above a body standing at `p` with its feet at `y`:
    /// the ceiling of its level ([`World::room_height_at`] above the floor), or where `p` is
    /// under no ceiling there (a stair shaft, open up to the next level, or a piece open
    /// above into a void), the ceiling of the first level up that has one. `None` when a
    /// shaft leads past the top level (open above).
    #[must_use]
    pub fn ceiling(&self, p: DVec2, y: f64) -> Option<f64> {
        let mut level = self.level_at(y + 1e-6);
        while self.open_overhead(level, p) {
            level = level.checked_add(1).filter(|&l| l < self.levels())?;
        }
        Some(self.layout.proportions().floor_y(level) + self.room_height_at(level, p))
    }

    /// Whether `p` on `level` is under no ceiling: on a piece without one
    /// ([`super::plan::Piece::ceiling`] false: a stair's octagon, whose shaft goes up, or a
    /// piece open above into a void).
    fn open_overhead(&self, level: u16, p: DVec2) -> bool {
        let Some(li) = self.levels.get(usize::from(level)) else { return false };
        self.near(p).any(|b| {
            li.piece_buckets[b].iter().any(|&i| {
                let piece = &li.plan.pieces[i as usize];
                !piece.ceiling && contains(&piece.polygon, p)
            })
        })
    }

    /// The stair column near `p` on the level a body at height `y` is in, if any: its centre
    /// and radius.
    #[must_use]
    pub fn column_near(&self, p: DVec2, y: f64) -> Option<(DVec2, f64)> {
        self.stairs
            .iter()
            .find(|s| y >= s.base_y - 0.5 && y < s.base_y + s.rise - 0.5 && contains(&s.polygon, p))
            .map(|s| (s.centre, s.column_radius()))
    }

    /// How deep a body of `radius` with its feet at `y` at `p` is in the steps and landings
    /// of the stairs more than `step` above its feet ([`Stair::overlap`]; 0 when clear).
    #[must_use]
    pub fn stair_overlap(&self, p: DVec2, y: f64, radius: f64, step: f64) -> usize {
        self.stairs.iter().map(|s| s.overlap(p, y, radius, step)).sum()
    }

    /// World `(x, z)` of the centre of a slot ([`Layout::center`]).
    #[must_use]
    pub fn slot_centre(&self, slot: Slot) -> DVec2 {
        self.layout.center(slot)
    }
}
