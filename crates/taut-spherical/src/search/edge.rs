//! Edge roots (the paper's adjoint nodes): a tangent point on a parallel edge with the obstacle
//! on its poleward side. Their nodes stand for the paths that follow the edge from the tangent
//! point and leave it along the great circle tangent to it.

use std::f64::consts::{FRAC_PI_2, PI};

use super::SearchContext;
use super::cone::TurnSpec;
use super::fan::FanSpec;
use super::locate::{goal_lon_in, in_run, line_of};
use super::node::{Goal, Node, PointRoot, RootData, RootKind};
use crate::geo::{
    ANGLE_EPS, V3, lat_from_vertex, lat_from_vertex_tan, tangent_offset, tangent_offset_with,
};
use crate::grid::{Run, SphereGrid};
use crate::trig;

impl SearchContext {
    /// The edge root where the fan's ray tangent to the run's top (`is_top`) or bottom touches
    /// it at longitude `lon_t` (`bound`: the tangent ray's crossing of the far meridian): the
    /// region between that ray and the edge on the far meridian, and the goal beyond the ray in
    /// this column.
    pub(super) fn edge_root(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        s: &FanSpec,
        (lon_t, bound): (f64, f64),
        is_top: bool,
    ) {
        let (line, sgn) = if is_top {
            (s.run.top, 1.0)
        } else {
            (s.run.bottom, -1.0)
        };
        let lat0 = grid.row_line_lat(line);
        let tv = V3::from_lat_lon(lat0, lon_t);
        let g = r.g + r.v.angle(tv);
        // The fan's far meridian `s.m` is at `s.lm`, in the frame of `lon_t`.
        let tau = 2.0 * PI;
        let wrap = tau * ((s.lm - grid.meridian_lon(s.m)) / tau).round();
        let id = self.push_root(RootData {
            kind: RootKind::Edge {
                v: tv,
                lat0,
                lon_t,
                line,
                s: sgn,
                wrap,
            },
            g,
            parent: r.id,
            dep_lon: f64::NAN,
            to_goal: 0.0,
        });
        // The region between the tangent ray and the edge, on the far meridian.
        let (lo, hi) = if is_top { (bound, lat0) } else { (lat0, bound) };
        self.push_split(grid, id, tv, g, s.m, s.dir, s.run, lo, hi);
        // The goal in this column beyond the tangent ray.
        self.goal_via_edge(grid, goal, id, s.col, s.run, s.dir, s.la, s.lm, None);
    }

    /// Expands a node whose root is an edge root.
    pub(super) fn expand_edge(&mut self, grid: &SphereGrid, goal: &Goal, node: Node) {
        let root = self.roots[node.root as usize];
        let RootKind::Edge {
            v: tv,
            lat0,
            lon_t,
            line,
            s,
            wrap,
        } = root.kind
        else {
            return;
        };
        let (k, dir) = (node.k, node.dir);
        // The meridian in the frame of `lon_t`, from the root's own frame and not by
        // unwrapping near `lon_t`: an edge node's meridian may lie 180° or more past its
        // tangent point (the edge followed some way, then a ray followed almost 180°), and
        // unwrapping near `lon_t` put such a meridian on the wrong side of the root, with
        // wrong departures and parallel lengths.
        let lk = grid.meridian_lon(k) + wrap;
        let m = k + dir;
        let lm = lk + dir as f64 * grid.res_lon();
        let col = if dir > 0 { k } else { k - 1 };
        let run = node.run;
        // Work in u = s·lat: the edge is on the north side in u.
        let u0 = s * lat0;
        let (u_lo, u_hi) = if s > 0.0 {
            (node.lo, node.hi)
        } else {
            (-node.hi, -node.lo)
        };
        let (edge_side_line, far_side_line) = if s > 0.0 {
            (run.top, run.bottom)
        } else {
            (run.bottom, run.top)
        };
        let far_u = s * grid.row_line_lat(far_side_line);
        let far_is_pole = far_side_line == 0 || far_side_line == grid.height();
        let reaches_edge = u_hi >= u0 - ANGLE_EPS;
        // A shortest route never follows the parallel all the way round (it would pass its
        // tangent point again), so the edge is followed less than 360° from `lon_t`. Without
        // this bound an edge round a free ring of cells was followed for ever.
        let df = dir as f64;
        let continues =
            reaches_edge && edge_side_line == line && df * (lm - lon_t) < 2.0 * PI - ANGLE_EPS;
        // Longitude from a ray's departure point to where it crosses meridian `lk` at `u`: the
        // tangent rays cross it at `u` in `[-u0, u0]`, `-u0` being the departure's antipode
        // (a crossing a rounding error below it is that antipode too, not a ray leaving here).
        // The edge's row line gives `tan u0` from the table.
        let t0 = s * grid.line_tan(line);
        let offset = |u: f64| match tangent_offset_with(u, u0, || (trig::tan(u), t0)) {
            Some(d) => d,
            None if u < 0.0 => PI,
            None => 0.0,
        };
        // Projection of an interval point along its tangent ray.
        let proj = |u: f64| -> f64 { lat_from_vertex_tan(t0, lk - df * offset(u), lm) };
        // No ray is followed 180° or more past its departure point (it would no longer be
        // the shorter arc). The node's rays leave the edge from the departure of its far end
        // (the earliest) to that of its near end, or to `lk` where the edge continues along
        // this column.
        //
        // Invariant: every ray of the node that still reaches `lm` within 180° of its
        // departure is kept. Rays leaving before `lm - 180°` are dropped, and only those: the
        // later ones cross `lm` above the limiting ray, which leaves exactly 180° before `lm`
        // and crosses it at its departure's antipode, `-u0`. This used to drop the whole
        // interval as soon as its earliest ray was too long, which lost the routes that
        // follow an edge for a long way and leave it late (a 253° westward detour along a
        // row line was reported unreachable).
        let reaches_lm = |dep: f64| df * (lm - dep) < PI - ANGLE_EPS;
        let dep_lo = lk - df * offset(u_lo);
        let dep_hi = if continues {
            lk
        } else {
            lk - df * offset(u_hi)
        };
        let p_lo = if reaches_lm(dep_lo) { proj(u_lo) } else { -u0 };
        let p_hi = if continues { u0 } else { proj(u_hi) };
        let latest_ok = reaches_lm(dep_hi);
        let v_lo = if far_is_pole { p_lo } else { p_lo.max(far_u) };
        if latest_ok && v_lo <= p_hi + ANGLE_EPS {
            let (lo, hi) = if s > 0.0 {
                (v_lo, p_hi.max(v_lo))
            } else {
                (-p_hi.max(v_lo), -v_lo)
            };
            self.push_split(grid, node.root, tv, root.g, m, dir, run, lo, hi);
        }
        // The goal in this column.
        let reach = if continues { Some(lm) } else { None };
        self.goal_via_edge(
            grid,
            goal,
            node.root,
            col,
            run,
            dir,
            lk,
            lm,
            Some((node, reach)),
        );

        let near = if dir > 0 { k - 1 } else { k };
        // The edge ends at meridian k: its end is a corner.
        let beyond = if s > 0.0 {
            edge_side_line < line
        } else {
            edge_side_line > line
        };
        if reaches_edge && beyond {
            let g = root.g + trig::cos(lat0) * (lk - lon_t).abs();
            let bound = s * lat_from_vertex_tan(t0, lk, lm);
            self.turn_at(
                grid,
                goal,
                TurnSpec {
                    parent: node.root,
                    dep_lon: lk,
                    g,
                    k,
                    lk,
                    i: line,
                    dir,
                    run,
                    up: s > 0.0,
                    bound,
                    flat: true,
                },
            );
        }
        // Corners at the interval's ends (other than the edge's own end, handled above), as
        // for cone nodes; the cost runs along the edge to the ray's departure point.
        for up in [true, false] {
            let end = if up { node.hi } else { node.lo };
            let Some(i) = line_of(grid, end) else {
                continue;
            };
            if i == line && (s * end - u0).abs() < ANGLE_EPS {
                continue;
            }
            let near_blocked = if up {
                !grid.is_free(i as i64 - 1, near)
            } else {
                !grid.is_free(i as i64, near)
            };
            let (goes_on, run_ends) = if up {
                (i > run.top, i == run.top && i > 0)
            } else {
                (i < run.bottom, i == run.bottom && i < grid.height())
            };
            let flat = goes_on && near_blocked;
            let far_side = run_ends && !near_blocked;
            if !flat && !far_side {
                continue;
            }
            let d = offset(s * end);
            if d >= PI - ANGLE_EPS {
                // The corner is its departure's antipode, 180° along the tangent ray: the
                // route breaks where that ray crosses the equator, 90° on, so that no leg is
                // 180° long, and turns at the corner as at any antipode.
                let dep = lk - df * PI;
                let g_dep = root.g + trig::cos(lat0) * (dep - lon_t).abs();
                let (lat, lon) = (0.0, dep + df * FRAC_PI_2);
                let v = V3::from_lat_lon(lat, lon);
                let via = self.push_root(RootData {
                    kind: RootKind::Point { v, lat, lon },
                    g: g_dep + FRAC_PI_2,
                    parent: node.root,
                    dep_lon: dep,
                    to_goal: 0.0,
                });
                self.antipode(grid, goal, via, g_dep + PI, i, k, lk, dir);
                continue;
            }
            let dep = lk - df * d;
            let tp = V3::from_lat_lon(lat0, dep);
            let cv = V3::from_lat_lon(end, lk);
            let g = root.g + trig::cos(lat0) * (dep - lon_t).abs() + tp.angle(cv);
            let bound = s * lat_from_vertex_tan(t0, dep, lm);
            self.turn_at(
                grid,
                goal,
                TurnSpec {
                    parent: node.root,
                    dep_lon: dep,
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
    }

    /// The goal reached from edge root `id` inside column `col` (run `run`) between `la` and
    /// `lm`: it must be beyond the root's tangent point, and either leave the edge before `la`
    /// through the node's interval (`node`) or, where the edge runs along the column
    /// (`reach`), leave it inside the column.
    #[allow(clippy::too_many_arguments)]
    fn goal_via_edge(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        id: u32,
        col: i64,
        run: Run,
        dir: i64,
        la: f64,
        lm: f64,
        node: Option<(Node, Option<f64>)>,
    ) {
        let root = self.roots[id as usize];
        let RootKind::Edge { lat0, lon_t, s, .. } = root.kind else {
            return;
        };
        let Some(lg) = goal_lon_in(grid, goal, col, la, lm) else {
            return;
        };
        if !in_run(grid, run, goal.lat) {
            return;
        }
        let u0 = s * lat0;
        let ug = s * goal.lat;
        let Some(d) = tangent_offset(ug, u0) else {
            return;
        };
        let dep = lg - dir as f64 * d;
        let df = dir as f64;
        // Beyond the tangent point.
        if (dep - lon_t) * df < -ANGLE_EPS {
            return;
        }
        if (lg - dep).abs() >= PI - ANGLE_EPS {
            return;
        }
        match node {
            None => {
                // Created in this column: the edge runs along the whole column, from lon_t.
            }
            Some((n, reach)) => {
                if (dep - la) * df <= ANGLE_EPS {
                    // Leaves before the node's meridian: must cross it inside the interval.
                    let c = lat_from_vertex(u0, dep, la) * s;
                    if c < n.lo - ANGLE_EPS || c > n.hi + ANGLE_EPS {
                        return;
                    }
                } else if reach.is_none() {
                    return;
                }
            }
        }
        let tp = V3::from_lat_lon(lat0, dep);
        let g = root.g + trig::cos(lat0) * (dep - lon_t).abs() + tp.angle(goal.v);
        self.push_goal(goal, id, dep, g);
    }
}
