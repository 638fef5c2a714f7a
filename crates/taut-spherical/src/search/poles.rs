//! The poles, where every meridian meets: a vertex where routes may turn when its polar row is
//! partly blocked, and a point cones pass over when it is all free.

use std::f64::consts::{FRAC_PI_2, PI};

use super::SearchContext;
use super::locate::{in_run, meridian_of};
use super::node::{Goal, Node, NodeKind, PointRoot, RootData, RootKind};
use crate::geo::{ANGLE_EPS, LatLon, V3, unwrap_near};
use crate::grid::{Run, SphereGrid};

impl SearchContext {
    /// A pole reached with cost `g` from root `parent`. Where its polar row is partly
    /// blocked, the pole is a vertex that touches obstacles and a route may turn there: from
    /// it, every ray is a meridian, so its successors are the goal if it lies in a polar run
    /// and the walks down every grid meridian. (Where the row is all free no route needs to
    /// turn at the pole, and cones pass over it.)
    pub(super) fn pole(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        g: f64,
        north: bool,
    ) {
        let parent = r.id;
        let line = if north { 0 } else { grid.height() };
        let w = grid.width() as i64;
        let free = i64::from(grid.polar_free(north));
        if free == 0 {
            return;
        }
        if free == w {
            self.pole_pass(grid, goal, r, g, north);
            return;
        }
        if !self.history_ok(grid, line, 0, 15, g) {
            return;
        }
        let lat = if north { FRAC_PI_2 } else { -FRAC_PI_2 };
        let v = V3::from_lat_lon(lat, 0.0);
        let id = self.push_root(RootData {
            kind: RootKind::Point { v, lat, lon: 0.0 },
            g,
            parent,
            dep_lon: f64::NAN,
            to_goal: 0.0,
        });
        // The goal in a polar run: straight down its meridian.
        let (gr, gc) = grid.cell_of(LatLon::new(goal.lat.to_degrees(), goal.lon.to_degrees()));
        if let Some(run) = grid.run_at(gr, gc as i64)
            && (if north {
                run.top == 0
            } else {
                run.bottom == grid.height()
            })
            && in_run(grid, run, goal.lat)
        {
            self.push_goal(goal, id, f64::NAN, g + v.angle(goal.v));
        }
        for k in 0..w {
            let pr = PointRoot {
                id,
                v,
                lat,
                lon: grid.meridian_lon(k),
                g,
            };
            self.flat(grid, goal, pr, k, line, !north, None);
        }
    }

    /// A pole with all its polar cells free, reached by the ray of root `r` that passes over
    /// it: cones cover every other ray, but this one continues down the meridian opposite the
    /// root, 180° of longitude away, where no cone reaches. It reaches the goal if the goal is
    /// on that meridian in a polar run, and, if that meridian is a grid line, the corners
    /// along it (a walk down the meridian from the pole).
    fn pole_pass(&mut self, grid: &SphereGrid, goal: &Goal, r: PointRoot, g: f64, north: bool) {
        if r.lat.abs() >= FRAC_PI_2 - ANGLE_EPS {
            return;
        }
        let lon = r.lon + PI;
        // What follows (the goal on the meridian opposite the root, the walk down that
        // meridian) depends only on the pole, the meridian and the cost: a pass already made
        // to the same meridian at no greater cost makes this one useless. Root history, keyed
        // by the pole's line, the meridian and a side of its own.
        if let Some(k) = meridian_of(grid, lon) {
            let line = if north { 0 } else { grid.height() };
            if !self.history_ok(grid, line, k, 14, g) {
                return;
            }
        }
        let lat = if north { FRAC_PI_2 } else { -FRAC_PI_2 };
        let v = V3::from_lat_lon(lat, lon);
        let id = self.push_root(RootData {
            kind: RootKind::Point { v, lat, lon },
            g,
            parent: r.id,
            dep_lon: f64::NAN,
            to_goal: 0.0,
        });
        if (unwrap_near(goal.lon, lon) - lon).abs() < ANGLE_EPS {
            let (_, gc) = grid.cell_of(LatLon::new(goal.lat.to_degrees(), goal.lon.to_degrees()));
            let polar = |run: Run| {
                if north {
                    run.top == 0
                } else {
                    run.bottom == grid.height()
                }
            };
            let cols = match goal.on_meridian {
                Some(k) => [k - 1, k],
                None => [gc as i64, gc as i64],
            };
            if cols.iter().any(|&c| {
                grid.runs(c)
                    .iter()
                    .any(|&run| polar(run) && in_run(grid, run, goal.lat))
            }) {
                self.push_goal(goal, id, f64::NAN, g + v.angle(goal.v));
            }
        }
        if let Some(k) = meridian_of(grid, lon) {
            let f = g + v.angle(goal.v);
            self.push_node(
                Node {
                    root: id,
                    k,
                    dir: 0,
                    lo: lat,
                    hi: lat,
                    run: Run { top: 0, bottom: 0 },
                    kind: NodeKind::PoleWalk,
                },
                f,
                g,
            );
        }
    }
}
