//! Expanding a cone node (an interval whose root is a point off its meridian): project it
//! across the column (moving it over open water first, `sweep.rs`), fan into the run, and turn
//! at the corners its ends make.

use std::f64::consts::FRAC_PI_2;

use super::SearchContext;
use super::fan::{FanSpec, climb};
use super::locate::line_of;
use super::node::{Goal, Node, PointRoot, RootData, RootKind};
use super::open::history_side;
use super::sweep::Swept;
use crate::geo::{ANGLE_EPS, V3, crossing_lat_sc, crossing_tan_sc, unwrap_near};
use crate::grid::{Run, SWEEP_MARGIN, SphereGrid, tan_margin};
use crate::trig;

impl SearchContext {
    /// Expands a node whose root is a point off the node's meridian.
    pub(super) fn expand_cone(&mut self, grid: &SphereGrid, goal: &Goal, r: PointRoot, node: Node) {
        let (k, dir) = (node.k, node.dir);
        let m = k + dir;
        let (b_lo, n_lo) = project_ray(grid, r.v, node.lo, k, m);
        let (b_hi, n_hi) = project_ray(grid, r.v, node.hi, k, m);
        // Across open water the cone moves on column after column without branching: only the
        // last column it reaches that way is fanned.
        let ahead = if self.no_sweep {
            Swept { node, b_lo, b_hi }
        } else {
            self.sweep(grid, goal, r, node, (b_lo, n_lo), (b_hi, n_hi))
        };
        self.stats.swept += (ahead.node.k - node.k).unsigned_abs();
        {
            let (k, m) = (ahead.node.k, ahead.node.k + dir);
            let lk = unwrap_near(grid.meridian_lon(k), r.lon);
            self.fan(
                grid,
                goal,
                r,
                FanSpec {
                    col: if dir > 0 { k } else { k - 1 },
                    run: ahead.node.run,
                    la: lk,
                    m,
                    lm: lk + dir as f64 * grid.res_lon(),
                    dir,
                    b_lo: ahead.b_lo,
                    b_hi: ahead.b_hi,
                    near: Some((ahead.node.lo, ahead.node.hi)),
                },
            );
        }
        let near = if dir > 0 { k - 1 } else { k };
        // The interval's ends may be corners (`CornerKind`); running along the meridian pays
        // only at a near-side one (at a far-side one those points are seen directly), and a
        // far-side one whose fan is empty is only recorded in the root history.
        for (end, top, bound) in [(node.hi, true, b_hi), (node.lo, false, b_lo)] {
            let Some(i) = line_of(grid, end) else {
                continue;
            };
            match corner_kind(grid, node.run, near, i, top) {
                Some(CornerKind::Near) => {
                    self.corner(grid, goal, r, k, i, dir, node.run, top, bound, true);
                }
                Some(CornerKind::Far) if far_corner_sees_nothing(grid, r, i, k, m, top) => {
                    self.record_corner(r, i, k, dir, top, grid);
                }
                Some(CornerKind::Far) => {
                    self.corner(grid, goal, r, k, i, dir, node.run, top, bound, false);
                }
                None => {}
            }
        }
    }

    /// A corner at row line `i` of meridian `k`, reached from point root `r`: becomes a root
    /// (unless the history has it cheaper), fans into `run` beyond the incoming ray (whose
    /// crossing at the far meridian is `bound`), and runs along the meridian away from the
    /// interval (`up`: northwards).
    #[allow(clippy::too_many_arguments)]
    fn corner(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        k: i64,
        i: u32,
        dir: i64,
        run: Run,
        up: bool,
        bound: f64,
        flat: bool,
    ) {
        let lk = unwrap_near(grid.meridian_lon(k), r.lon);
        let cv = grid.vertex_unit(i, k);
        let g = r.g + r.v.angle(cv);
        self.turn_at(
            grid,
            goal,
            TurnSpec {
                parent: r.id,
                dep_lon: f64::NAN,
                g,
                k,
                lk,
                i,
                dir,
                run,
                up,
                bound,
                flat,
            },
        );
    }

    /// A far-side corner at row line `i` of meridian `k` that gives paths from `r` no
    /// successor ([`far_corner_sees_nothing`]): only its cost goes into the root history, as
    /// [`SearchContext::turn_at`] would record it, where it prunes costlier arrivals.
    pub(super) fn record_corner(
        &mut self,
        r: PointRoot,
        i: u32,
        k: i64,
        dir: i64,
        up: bool,
        grid: &SphereGrid,
    ) {
        let g = r.g + r.v.angle(grid.vertex_unit(i, k));
        self.history_ok(grid, i, k, history_side(dir, up), g);
    }

    pub(super) fn turn_at(&mut self, grid: &SphereGrid, goal: &Goal, t: TurnSpec) {
        if !self.history_ok(grid, t.i, t.k, history_side(t.dir, t.up), t.g) {
            return;
        }
        let lat = grid.row_line_lat(t.i);
        let v = grid.vertex_unit(t.i, t.k);
        let id = self.push_root(RootData {
            kind: RootKind::Point { v, lat, lon: t.lk },
            g: t.g,
            parent: t.parent,
            dep_lon: t.dep_lon,
            to_goal: 0.0,
        });
        let pr = PointRoot {
            id,
            v,
            lat,
            lon: t.lk,
            g: t.g,
        };
        let bounds = if t.up {
            (t.bound, FRAC_PI_2)
        } else {
            (-FRAC_PI_2, t.bound)
        };
        self.fan_from_vertex(grid, goal, pr, t.k, t.dir, t.run, bounds);
        if t.flat {
            self.flat(grid, goal, pr, t.k, t.i, t.up, None);
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct TurnSpec {
    pub(super) parent: u32,
    pub(super) dep_lon: f64,
    pub(super) g: f64,
    pub(super) k: i64,
    pub(super) lk: f64,
    pub(super) i: u32,
    pub(super) dir: i64,
    pub(super) run: Run,
    pub(super) up: bool,
    pub(super) bound: f64,
    /// Whether to run along the meridian too.
    pub(super) flat: bool,
}

/// The latitude where the great circle from `r` through (`lat`, meridian `k`) crosses meridian
/// `m`, from the meridians' tables, and the normal of that great circle (zero for a point at a
/// pole, whose latitude is returned unchanged).
#[inline]
fn project_ray(grid: &SphereGrid, r: V3, lat: f64, k: i64, m: i64) -> (f64, V3) {
    if lat.abs() >= FRAC_PI_2 - ANGLE_EPS {
        return (
            lat,
            V3 {
                x: 0.0,
                y: 0.0,
                z: 0.0,
            },
        );
    }
    let (sp, cp) = trig::sin_cos(lat);
    let (sl, cl) = grid.meridian_sin_cos(k);
    let p = V3 {
        x: cp * cl,
        y: cp * sl,
        z: sp,
    };
    let (sm, cm) = grid.meridian_sin_cos(m);
    let n = r.cross(p);
    (crossing_lat_sc(n, sm, cm), n)
}

/// The kind of corner an interval end on row line `i` makes, on its node's top side (`top`)
/// or bottom side: the node enters the column of run `run`, and `near` is the column behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CornerKind {
    /// The column behind is blocked just beyond the end while the run goes on: the path turns
    /// round the near obstacle, and may also run along the meridian.
    Near,
    /// The run ends at the end while the column behind goes on: the path turns round the
    /// obstacle of the column entered.
    Far,
}

/// The corner, if any, at an interval end on row line `i` ([`CornerKind`]).
pub(super) fn corner_kind(
    grid: &SphereGrid,
    run: Run,
    near: i64,
    i: u32,
    top: bool,
) -> Option<CornerKind> {
    let (beyond, edge, inner) = if top {
        (i64::from(i) - 1, run.top, i > 0)
    } else {
        (i64::from(i), run.bottom, i < grid.height())
    };
    let near_blocked = !grid.is_free(beyond, near);
    let run_goes_on = if top { i > edge } else { i < edge };
    if run_goes_on && near_blocked {
        Some(CornerKind::Near)
    } else if i == edge && inner && !near_blocked {
        Some(CornerKind::Far)
    } else {
        None
    }
}

/// Whether a far-side corner at row line `i` of meridian `k` (the run entered ends there, on
/// its top side if `top`, while the column behind goes on) can give no successor to paths
/// from point root `r` through it, so that the search need not turn there: the ray from `r`
/// through the corner still climbs towards the corner's parallel at the corner (descends, for
/// the bottom side), by more than [`SWEEP_MARGIN`], and crosses the far meridian `m` beyond
/// the parallel by the margin.
///
/// Then the corner's fan, the rays from the corner beyond that ray that cross `m` inside the
/// run, is empty: every cut of the run's side lies on or inside the parallel at `m`, below the
/// ray's crossing. It has no edge root (a tangent ray would cross `m` below it too) and holds
/// no goal: the ray is on or beyond the parallel all across the column (it starts on it and
/// climbs, and if it turns back it still ends beyond it), and a ray from the corner beyond it
/// at `m` stays beyond it throughout (two great circles through the corner meet again only
/// at its antipode), so it never enters the run. Turning there could only record the corner
/// in the root history.
pub(super) fn far_corner_sees_nothing(
    grid: &SphereGrid,
    r: PointRoot,
    i: u32,
    k: i64,
    m: i64,
    top: bool,
) -> bool {
    let sg = if top { 1.0 } else { -1.0 };
    let c = grid.vertex_unit(i, k);
    if climb(r.v, c, top) <= SWEEP_MARGIN {
        return false;
    }
    let n = r.v.cross(c);
    if n.z == 0.0 {
        return false;
    }
    let (s, cm) = grid.meridian_sin_cos(m);
    let l = grid.line_tan(i);
    sg * (crossing_tan_sc(n, s, cm) - l) > tan_margin(l)
}
