//! Spherical Anya's search.
//!
//! The grid's meridians play the part of Anya's rows: a great circle crosses each meridian's
//! half circle at most once, so a cone of great circles from a root sweeps the meridians in
//! longitude order, as a Euclidean cone sweeps rows. A search node is an interval of one
//! meridian (latitudes `lo..=hi`), the direction (east or west) in which its paths continue,
//! the free run of cells of the column they enter, and a root:
//!
//! - a **point root** (the start, or a grid vertex where the path turns): the node stands for
//!   the great circles from the root through the interval;
//! - an **edge root** (the paper's adjoint node): a tangent point `T` on a parallel edge with
//!   the obstacle on its poleward side. The node stands for the paths that follow the edge from
//!   `T` and leave it along the great circle tangent to it, which is how a route passes a
//!   stretch of coast whose great-circle chord would cut through land.
//!
//! Expanding a node projects it across the column to the next meridian. The cone is cut by the
//! run's top and bottom, where a great circle may bulge above both of its ends (its latitude
//! peaks inside the column): the highest visible ray is then tangent to the run's top
//! parallel, and what lies beyond it is reached through an edge root. An interval end that is
//! an obstacle corner becomes a new point root (Anya's non-observable successors), and from a
//! corner the search also runs along the meridian (Anya's flat successors), where it may turn
//! again at the next corner. `docs/spherical.md` gives the invariants.
//!
//! Costs are exact sums of great-circle and parallel arcs; `f = g + h` with an admissible `h`
//! (the larger of the root's great-circle distance to the goal and the distances root →
//! interval → goal), so the first goal taken from the open list is optimal. Root history keeps,
//! per grid vertex and turning side, the best cost seen.
//!
//! Its files:
//!
//! - this file: the public API ([`SearchContext::search`] and its main loop,
//!   [`SearchOutcome`], [`SearchStats`]) and the checks on the end points;
//! - `node.rs`: what the search stores, roots ([`RootKind`]: point or edge) and nodes
//!   ([`Node`]: an interval of a meridian);
//! - `open.rs`: recording successors: new roots, the root history that prunes them, and
//!   intervals split among the runs ahead with their heuristic, on their way to the open list;
//! - `cone.rs`: expanding a point root's node, and turning at the corners at its ends;
//! - `fan.rs`: a fan, the rays from a point root across one column, cut by the run's top and
//!   bottom (the interval geometry);
//! - `sweep.rs`: moving a cone across open water, many columns per expansion;
//! - `edge.rs`: edge roots (tangent points on a parallel edge) and expanding their nodes;
//! - `flat.rs`: walking along a meridian from a corner (Anya's flat successors);
//! - `poles.rs` and `antipode.rs`: the points where every ray of a root meets, a pole (where
//!   meridians meet) and a root's antipode;
//! - `locate.rs`: which meridian, row line or run a latitude or longitude lies on;
//! - `reconstruct.rs`: the route, read back from the goal's chain of roots.

mod antipode;
mod cone;
mod edge;
mod fan;
mod flat;
mod locate;
mod node;
mod open;
mod poles;
mod reconstruct;
mod sweep;

use std::f64::consts::{FRAC_PI_2, PI};

use hashbrown::HashMap;
use taut_search::{Entry, OpenList};

use crate::direct::arc_is_clear;
use crate::error::SphereError;
use crate::geo::{ANGLE_EPS, LatLon, MeridianView, V3, unwrap_near};
use crate::grid::{Run, SphereGrid};
use crate::route::{Leg, Route};

use fan::FanSpec;
use locate::{line_of, meridian_of, run_containing};
use node::{Goal, NONE, Node, NodeKind, PointRoot, RootData, RootKind};

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOutcome {
    /// A shortest route was found.
    Found,
    /// No route exists.
    Unreachable,
}

/// Counters of the last search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes taken from the open list and expanded.
    pub expanded: u64,
    /// Nodes pushed onto the open list.
    pub generated: u64,
    /// Roots created (corners, tangent points and the start).
    pub roots: u64,
    /// Columns a cone crossed without an expansion, where expanding it could only have given
    /// the same cone one column further (`docs/spherical.md`, "Sweeping open water").
    pub swept: u64,
}

/// Reusable state of Spherical Anya searches.
#[derive(Debug, Default)]
pub struct SearchContext {
    stats: SearchStats,
    open: OpenList,
    nodes: Vec<Node>,
    roots: Vec<RootData>,
    history: HashMap<u64, f64>,
    scratch: Vec<(f64, f64, Run)>,
    /// Successors of the node being expanded: (node, f, g).
    pending: Vec<(u32, f64, f64)>,
    /// The goal's unit vector in the current search.
    goal_v: V3,
    /// The goal seen from each meridian (index modulo the width), valid when its stamp is
    /// the current search's `stamp`: computed once per meridian and query for the heuristic.
    goal_views: Vec<(u32, MeridianView)>,
    stamp: u32,
    /// Expand column by column, never sweeping (for tests that compare the two).
    no_sweep: bool,
    /// Search even when the great-circle arc is clear (for tests that compare the two).
    pub(crate) no_direct: bool,
}

impl SearchContext {
    /// A fresh context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counters of the last search.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Zeroes the counters: a query answered without a search.
    pub(crate) fn reset_stats(&mut self) {
        self.stats = SearchStats::default();
    }

    /// The shortest route from `from` to `to` on `grid`, written to `out` (cleared first).
    ///
    /// Both points must lie in the closure of a free cell, not at a pole, and not on a
    /// vertex where blocked cells touch diagonally.
    pub fn search(
        &mut self,
        grid: &SphereGrid,
        from: LatLon,
        to: LatLon,
        out: &mut Route,
    ) -> Result<SearchOutcome, SphereError> {
        out.legs.clear();
        out.radians = 0.0;
        self.stats = SearchStats::default();
        check_endpoint(grid, "start", from)?;
        check_endpoint(grid, "goal", to)?;
        // Any finite longitude names a meridian, but the search works in radians near
        // [-π, π): 1e308° converted as given lost the point (a wrong route) and saturated a
        // column index. The remainder is exact.
        let (from, to) = (from.normalized(), to.normalized());
        self.open.clear();
        self.nodes.clear();
        self.roots.clear();
        self.history.clear();
        self.pending.clear();

        let goal = Goal {
            v: to.to_vec(),
            lat: to.lat.to_radians(),
            lon: to.lon.to_radians(),
            on_meridian: meridian_of(grid, to.lon.to_radians()),
        };
        self.goal_v = goal.v;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.goal_views.len() != grid.width() as usize {
            let blank = MeridianView::new(goal.v, 0.0, 1.0);
            self.goal_views.clear();
            self.goal_views.resize(grid.width() as usize, (0, blank));
            self.stamp = 1;
        }
        let s_lat = from.lat.to_radians();
        let s_lon = from.lon.to_radians();
        let sv = from.to_vec();
        let direct = sv.angle(goal.v);
        if direct < ANGLE_EPS {
            return Ok(SearchOutcome::Found);
        }
        // The start sees the goal: the great-circle arc is the route (`direct.rs`). Its leg
        // joins the points as given, and its length is `direct`, bit for bit the leg's own
        // (`Leg::radians` takes the same unit vectors' angle).
        if !self.no_direct && arc_is_clear(grid, sv, s_lon, goal.v, goal.lon) {
            out.legs.push(Leg::Great { from, to });
            out.radians = direct;
            return Ok(SearchOutcome::Found);
        }
        let start = self.push_root(RootData {
            kind: RootKind::Point {
                v: sv,
                lat: s_lat,
                lon: s_lon,
            },
            g: 0.0,
            parent: NONE,
            dep_lon: f64::NAN,
            to_goal: 0.0,
        });
        let sroot = PointRoot {
            id: start,
            v: sv,
            lat: s_lat,
            lon: s_lon,
            g: 0.0,
        };
        let s_mer = meridian_of(grid, s_lon);
        // Fans into the column(s) containing the start.
        let (cols, ncols) = match s_mer {
            Some(k) => ([k - 1, k], 2),
            None => ([((s_lon + PI) / grid.res_lon()).floor() as i64, 0], 1),
        };
        for &c in &cols[..ncols] {
            if let Some(run) = run_containing(grid, c, s_lat) {
                let la = s_lon;
                // Fan east (to meridian c + 1) unless the start is on that meridian, and west.
                for dir in [1i64, -1] {
                    let m = if dir > 0 { c + 1 } else { c };
                    if s_mer == Some(m) {
                        continue;
                    }
                    let lm = unwrap_near(grid.meridian_lon(m), la);
                    self.fan(
                        grid,
                        &goal,
                        sroot,
                        FanSpec {
                            col: c,
                            run,
                            la,
                            m,
                            lm,
                            dir,
                            b_lo: -FRAC_PI_2,
                            b_hi: FRAC_PI_2,
                            near: None,
                        },
                    );
                }
            }
        }
        if let Some(k) = s_mer {
            if let Some(i) = line_of(grid, s_lat) {
                self.flat(grid, &goal, sroot, k, i, true, None);
                self.flat(grid, &goal, sroot, k, i, false, None);
            } else {
                self.flat_from_inside(grid, &goal, sroot, k);
            }
        }

        self.flush();
        while let Some(Entry { id, .. }) = self.open.pop() {
            let mut node = self.nodes[id as usize];
            if node.kind == NodeKind::Goal {
                self.reconstruct(grid, node.root, out);
                return Ok(SearchOutcome::Found);
            }
            if node.kind == NodeKind::PoleWalk {
                let root = self.roots[node.root as usize];
                if let RootKind::Point { v, lat, lon } = root.kind {
                    let pr = PointRoot {
                        id: node.root,
                        v,
                        lat,
                        lon,
                        g: root.g,
                    };
                    let north = node.lo > 0.0;
                    let line = if north { 0 } else { grid.height() };
                    self.flat(grid, &goal, pr, node.k, line, !north, None);
                }
                self.flush();
                continue;
            }
            loop {
                self.stats.expanded += 1;
                let root = self.roots[node.root as usize];
                match root.kind {
                    RootKind::Point { v, lat, lon } => {
                        let pr = PointRoot {
                            id: node.root,
                            v,
                            lat,
                            lon,
                            g: root.g,
                        };
                        self.expand_cone(grid, &goal, pr, node);
                    }
                    RootKind::Edge { .. } => self.expand_edge(grid, &goal, node),
                }
                // A node whose only successor is the next interval of the same cone, with an f
                // no larger than any open node's, would be popped next: expand it at once,
                // without the open list (goals always go through the open list).
                if self.pending.len() == 1 {
                    let (next, f, _) = self.pending[0];
                    let nn = self.nodes[next as usize];
                    let first = self.open.peek().is_none_or(|e| f <= e.f);
                    if nn.kind == NodeKind::Interval && nn.root == node.root && first {
                        self.pending.clear();
                        node = nn;
                        continue;
                    }
                }
                break;
            }
            self.flush();
        }
        Ok(SearchOutcome::Unreachable)
    }
}

fn check_endpoint(grid: &SphereGrid, which: &'static str, p: LatLon) -> Result<(), SphereError> {
    if !p.lat.is_finite() || !p.lon.is_finite() || p.lat.abs() > 90.0 {
        return Err(SphereError::BadCoordinate {
            which,
            lat: p.lat,
            lon: p.lon,
        });
    }
    if p.lat.abs() >= 90.0 - 1e-9 {
        return Err(SphereError::Ambiguous {
            which,
            lat: p.lat,
            lon: p.lon,
        });
    }
    let (cells, n) = grid.cells_at(p);
    let mut free = [false; 4];
    for (f, &(r, c)) in free.iter_mut().zip(&cells[..n]) {
        *f = grid.is_free(r, c);
    }
    if !free[..n].iter().any(|&f| f) {
        return Err(SphereError::Blocked {
            which,
            lat: p.lat,
            lon: p.lon,
        });
    }
    if n == 4 {
        // Order: (r-1, c-1), (r-1, c), (r, c-1), (r, c).
        let (nw, ne, sw, se) = (free[0], free[1], free[2], free[3]);
        if (nw && se && !ne && !sw) || (ne && sw && !nw && !se) {
            return Err(SphereError::Ambiguous {
                which,
                lat: p.lat,
                lon: p.lon,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
