//! Fans: the great circles from a point root across one column, restricted to bounds on the
//! far meridian and cut by the run's top and bottom, either at the ray through a far corner or
//! at a ray tangent to the run's boundary parallel (which makes an edge root, `edge.rs`).

use std::f64::consts::{FRAC_PI_2, PI};

use super::SearchContext;
use super::antipode::tangent_before_antipode;
use super::locate::{goal_lon_in, in_run};
use super::node::{Goal, PointRoot};
use crate::geo::{
    ANGLE_EPS, V3, crossing_lat, crossing_lat_sc, crossing_tan_sc, extreme_lat,
    lat_from_vertex_tan, peak_between, peak_tan, tangent_offset_with,
};
use crate::grid::{Run, SphereGrid};

impl SearchContext {
    /// The fan from a root `r` on meridian `k` (at `r.lon`) into the column on side `dir`
    /// (`run` of it), restricted to the rays crossing the far meridian within `(b_lo, b_hi)`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fan_from_vertex(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        k: i64,
        dir: i64,
        run: Run,
        (b_lo, b_hi): (f64, f64),
    ) {
        let spec = FanSpec {
            col: if dir > 0 { k } else { k - 1 },
            run,
            la: r.lon,
            m: k + dir,
            lm: r.lon + dir as f64 * grid.res_lon(),
            dir,
            b_lo,
            b_hi,
            near: None,
        };
        self.fan(grid, goal, r, spec);
    }

    /// The fan of great circles from point root `r` across column `s.col` (run `s.run`) from
    /// longitude `s.la` to meridian `s.m`, restricted to the rays crossing `s.m` within
    /// `[s.b_lo, s.b_hi]`: pushes the visible part of `s.m`, the edge roots where the run's top
    /// or bottom cuts the fan by tangency, and the goal if it is in the column and in view.
    pub(super) fn fan(&mut self, grid: &SphereGrid, goal: &Goal, r: PointRoot, s: FanSpec) {
        if (s.lm - r.lon).abs() >= PI - ANGLE_EPS {
            // Rays from the root meet again at its antipode: beyond it no arc is shortest.
            // The antipode itself, when it is an obstacle corner, is a vertex where routes
            // turn: every ray of the cone reaching it costs exactly 180°.
            // Rays tangent to the run's top or bottom short of the antipode still leave the
            // column along the edge: the fan's far meridian lies at or past 180°, but the
            // tangent point does not.
            if let Some(near) = s.near {
                if ((s.lm - r.lon).abs() - PI).abs() < ANGLE_EPS {
                    self.cone_to_antipode(grid, goal, r, &s, near);
                }
                for top in [true, false] {
                    if let Some(t) = tangent_before_antipode(grid, r, &s, near, top) {
                        self.edge_root(grid, goal, r, &s, t, top);
                    }
                }
            }
            self.goal_in_fan(grid, goal, r, &s);
            return;
        }
        let top = cut(grid, r, &s, true);
        let bot = cut(grid, r, &s, false);
        let lo = s.b_lo.max(bot.bound);
        let hi = s.b_hi.min(top.bound);
        if lo <= hi + ANGLE_EPS {
            self.push_split(grid, r.id, r.v, r.g, s.m, s.dir, s.run, lo, hi.max(lo));
            // The fan reaches a pole: where the polar row is partly blocked, the pole is a
            // vertex touching obstacles, and routes may turn there.
            if hi >= FRAC_PI_2 - ANGLE_EPS && s.run.top == 0 {
                let g = r.g + r.v.angle(V3::from_lat_lon(FRAC_PI_2, 0.0));
                self.pole(grid, goal, r, g, true);
            }
            if lo <= -FRAC_PI_2 + ANGLE_EPS && s.run.bottom == grid.height() {
                let g = r.g + r.v.angle(V3::from_lat_lon(-FRAC_PI_2, 0.0));
                self.pole(grid, goal, r, g, false);
            }
        }
        self.goal_in_fan(grid, goal, r, &s);
        // Edge roots: the fan is cut by a tangency and the tangent ray is in the fan.
        for (c, is_top) in [(top, true), (bot, false)] {
            let Some(lon_t) = c.tangent else { continue };
            // The tangent ray must be one of the fan's rays (possibly its boundary: then the
            // strip beyond it is outside the fan but still reached along the edge).
            if c.bound >= s.b_lo - ANGLE_EPS && c.bound <= s.b_hi + ANGLE_EPS {
                self.edge_root(grid, goal, r, &s, (lon_t, c.bound), is_top);
            }
        }
    }

    /// The goal, if it lies in the fan's column and run and a ray of the fan reaches it.
    fn goal_in_fan(&mut self, grid: &SphereGrid, goal: &Goal, r: PointRoot, s: &FanSpec) {
        let Some(lg) = goal_lon_in(grid, goal, s.col, s.la, s.lm) else {
            return;
        };
        if !in_run(grid, s.run, goal.lat) {
            return;
        }
        if (lg - r.lon).abs() >= PI - ANGLE_EPS {
            // The goal at the root's antipode: every ray of the cone that stays in the run
            // reaches it, 180° away.
            if let Some(near) = s.near
                && r.v.angle(goal.v) >= PI - ANGLE_EPS
                && let Some(via) = self.via_to_antipode(grid, r, s, near)
            {
                self.push_goal(goal, via, f64::NAN, r.g + PI);
            }
            return;
        }
        // The ray through the goal, continued to the far meridian, must be in the fan.
        let n = r.v.cross(goal.v);
        if n.norm() < 1e-15 {
            return;
        }
        if let Some((lo, hi)) = s.near {
            // A cone node: the ray must cross the node's interval.
            let c = if (lg - s.la).abs() < ANGLE_EPS {
                goal.lat
            } else {
                crossing_lat(n, s.la)
            };
            if c < lo - ANGLE_EPS || c > hi + ANGLE_EPS {
                return;
            }
        } else {
            let c = crossing_lat(n, s.lm);
            if c < s.b_lo - ANGLE_EPS || c > s.b_hi + ANGLE_EPS {
                return;
            }
        }
        // And stay inside the run between the fan's start and the goal.
        let (a, b) = (s.la, lg);
        if (a - b).abs() > ANGLE_EPS {
            let top = extreme_lat(n, a, b, true);
            let bot = extreme_lat(n, a, b, false);
            if top > grid.row_line_lat(s.run.top) + ANGLE_EPS
                || bot < grid.row_line_lat(s.run.bottom) - ANGLE_EPS
            {
                return;
            }
        }
        let g = r.g + r.v.angle(goal.v);
        self.push_goal(goal, r.id, f64::NAN, g);
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct FanSpec {
    pub(super) col: i64,
    pub(super) run: Run,
    /// Longitude where the fan enters the column (the near meridian or the root's own).
    pub(super) la: f64,
    /// The far meridian and its (unwrapped) longitude.
    pub(super) m: i64,
    pub(super) lm: f64,
    pub(super) dir: i64,
    /// The rays allowed, as crossings of the far meridian.
    pub(super) b_lo: f64,
    pub(super) b_hi: f64,
    /// For a cone node, its interval on the near meridian (the rays allowed, as crossings of
    /// the near meridian; used for the goal, which may lie 180° or more from the root's far
    /// side).
    pub(super) near: Option<(f64, f64)>,
}

/// The cut of a fan by one side of a run: the extreme visible crossing at the far meridian and,
/// when the cut is a tangency inside the column, the tangent point's longitude.
#[derive(Clone, Copy, Debug)]
struct Cut {
    bound: f64,
    tangent: Option<f64>,
}

/// How fast the great circle from `r` through the vertex `c` climbs towards the north (`top`)
/// or the south at `c`, going on away from `r`, up to a positive factor: the `z` component
/// of the direction of travel `(r·c) c − r`, signed. The sign is what [`cut`] and the sweep
/// decide on; no transcendental call.
#[inline]
pub(super) fn climb(r: V3, c: V3, top: bool) -> f64 {
    let sg = if top { 1.0 } else { -1.0 };
    sg * (r.dot(c) * c.z - r.z)
}

/// The extreme visible crossing of the fan at the far meridian on the run's top (`top`) or
/// bottom side.
fn cut(grid: &SphereGrid, r: PointRoot, s: &FanSpec, top: bool) -> Cut {
    let line = if top { s.run.top } else { s.run.bottom };
    if line == 0 || line == grid.height() {
        return Cut {
            bound: if top { FRAC_PI_2 } else { -FRAC_PI_2 },
            tangent: None,
        };
    }
    let lat = grid.row_line_lat(line);
    let corner = grid.vertex_unit(line, s.m);
    let n = r.v.cross(corner);
    let sg = if top { 1.0 } else { -1.0 };
    // The ray through the far corner stays on the run's side of the parallel across the
    // column when it is still climbing towards the parallel at the corner (for the top;
    // descending, for the bottom): its latitude is unimodal and the arc from the root is
    // shorter than 180°, so the corner is then its extreme in the column. The direction of
    // travel at the corner, away from the root, is `(r·c) c − r`; its z component decides,
    // without a single transcendental call. Otherwise the extreme is computed exactly.
    let climbing = climb(r.v, corner, top) >= 0.0;
    let fine = climbing || n.norm() < 1e-15 || stays_within(grid, r, s, n, line, top);
    if fine {
        return Cut {
            bound: lat,
            tangent: None,
        };
    }
    // The boundary ray touches the parallel inside the column.
    // Tangents from the table and the root's unit vector (its latitude's tangent is
    // `z / |(x, y)|`; a root at a pole is not offset from anything).
    let l = grid.line_tan(line);
    let rho = (r.v.x * r.v.x + r.v.y * r.v.y).sqrt();
    let tans = || (sg * r.v.z / rho, sg * l);
    if let Some(d) = tangent_offset_with(sg * r.lat, sg * lat, tans) {
        let lv = r.lon + s.dir as f64 * d;
        let inside =
            (lv - s.la) * s.dir as f64 >= -ANGLE_EPS && (s.lm - lv) * s.dir as f64 > ANGLE_EPS;
        if inside {
            return Cut {
                bound: lat_from_vertex_tan(l, lv, s.lm),
                tangent: Some(lv),
            };
        }
    }
    // Or it touches the parallel at the near meridian: the ray through the near corner, when
    // that ray moves away from the parallel across the column (its tangent point, if any, lies
    // behind the column). This is what the bisection below finds, in closed form.
    if (s.la - r.lon).abs() > ANGLE_EPS {
        let near = grid.vertex_unit(line, s.m - s.dir);
        let n2 = r.v.cross(near);
        if n2.norm() >= 1e-15 && stays_within(grid, r, s, n2, line, top) {
            let (sm, cm) = grid.meridian_sin_cos(s.m);
            return Cut {
                bound: crossing_lat_sc(n2, sm, cm),
                tangent: None,
            };
        }
    }
    // Not expected geometrically (wide columns only): find the boundary ray by bisection.
    let (mut a, mut b) = if top {
        (-FRAC_PI_2, lat)
    } else {
        (lat, FRAC_PI_2)
    };
    for _ in 0..80 {
        let mid = 0.5 * (a + b);
        let p = V3::from_lat_lon(mid, s.lm);
        let n = r.v.cross(p);
        let e = extreme_lat(n, s.la, s.lm, top);
        let ok = if top { e <= lat } else { e >= lat };
        if ok == top {
            a = mid;
        } else {
            b = mid;
        }
    }
    Cut {
        bound: if top { a } else { b },
        tangent: None,
    }
}

/// Whether the great circle with normal `n` stays on the run's side of row line `line` (below
/// it for the run's top, `top`; above it for the bottom) across the column of fan `s` of point
/// root `r`, to [`ANGLE_EPS`]: `extreme_lat(n, s.la, s.lm, top)` against the line's latitude,
/// in tangents of latitude from the tables. The circle's extreme in the column is its crossing
/// of either side, or its peak (trough) where [`peak_between`] puts it inside; a vertex fan's
/// near side is the root's own meridian, where the circle passes through the root. A margin
/// of `ANGLE_EPS` in latitude is `ANGLE_EPS·(1 + t²)` in tangent, to first order. Circles
/// through the poles and roots at a pole go through [`extreme_lat`].
fn stays_within(grid: &SphereGrid, r: PointRoot, s: &FanSpec, n: V3, line: u32, top: bool) -> bool {
    let rho = (r.v.x * r.v.x + r.v.y * r.v.y).sqrt();
    if n.z == 0.0 || rho == 0.0 {
        let (e, lat) = (extreme_lat(n, s.la, s.lm, top), grid.row_line_lat(line));
        return if top {
            e <= lat + ANGLE_EPS
        } else {
            e >= lat - ANGLE_EPS
        };
    }
    let (a_sc, t_a) = if s.near.is_some() {
        let sc = grid.meridian_sin_cos(s.m - s.dir);
        (sc, crossing_tan_sc(n, sc.0, sc.1))
    } else {
        // `peak_between` reads only the signs: `(sin, cos)` times `rho` serve.
        ((r.v.y, r.v.x), r.v.z / rho)
    };
    let m_sc = grid.meridian_sin_cos(s.m);
    let t_m = crossing_tan_sc(n, m_sc.0, m_sc.1);
    let (west, east) = if s.dir > 0 {
        (a_sc, m_sc)
    } else {
        (m_sc, a_sc)
    };
    let l = grid.line_tan(line);
    let tol = ANGLE_EPS * (1.0 + l * l);
    let peak = || peak_tan(n);
    if top {
        let e = if peak_between(n, west, east) == Some(true) {
            peak()
        } else {
            t_a.max(t_m)
        };
        e <= l + tol
    } else {
        let e = if peak_between(n.mirrored(), west, east) == Some(true) {
            -peak()
        } else {
            t_a.min(t_m)
        };
        e >= l - tol
    }
}
