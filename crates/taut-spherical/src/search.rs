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

use std::f64::consts::{FRAC_PI_2, PI};

use crate::trig;

use hashbrown::HashMap;
use taut_search::{Entry, OpenList};

use crate::direct::arc_is_clear;
use crate::error::SphereError;
use crate::geo::{
    ANGLE_EPS, COST_EPS, LatLon, MeridianView, V3, angle_lower_bound, crossing_lat,
    crossing_lat_sc, crossing_tan_sc, extreme_lat, lat_from_vertex, lat_from_vertex_tan,
    lat_sin_cos_fast, peak_between, peak_tan, round_fast, tangent_offset, tangent_offset_with,
    unwrap_near, wrap_near,
};
use crate::grid::{Run, SWEEP_MARGIN, SphereGrid, tan_margin};
use crate::route::{Leg, Route};

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
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

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
enum RootKind {
    /// A point: unit vector, latitude and (unwrapped) longitude.
    Point { v: V3, lat: f64, lon: f64 },
    /// A tangent point on the parallel of row line `line` (latitude `lat0`), at longitude
    /// `lon_t`; `s` is +1 when the obstacle is north of the edge, -1 when south. `wrap` is
    /// the multiple of 2π that puts the root's meridians in `lon_t`'s frame: meridian `k` of
    /// its nodes is at longitude `grid.meridian_lon(k) + wrap`.
    Edge {
        v: V3,
        lat0: f64,
        lon_t: f64,
        line: u32,
        s: f64,
        wrap: f64,
    },
}

#[derive(Clone, Copy, Debug)]
struct RootData {
    kind: RootKind,
    g: f64,
    parent: u32,
    /// When the parent is an edge root: the longitude where the path leaves the edge.
    dep_lon: f64,
    /// Great-circle distance from the root's point (`T` for an edge root) to the goal: one
    /// term of the heuristic of every node of the root.
    to_goal: f64,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    root: u32,
    /// The meridian of the interval (unwrapped index).
    k: i64,
    /// +1: the paths continue east (into column k), -1: west (into column k - 1).
    dir: i64,
    lo: f64,
    hi: f64,
    /// The run of the column entered.
    run: Run,
    /// What the node is.
    kind: NodeKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodeKind {
    /// An interval to expand.
    Interval,
    /// The goal, reached by the root (final).
    Goal,
    /// A walk down meridian `k` from the pole (the root), north pole if `lo > 0`: deferred
    /// until popped, as it may be long and is rarely needed.
    PoleWalk,
}

/// The goal's position, precomputed for the checks in every expansion.
#[derive(Clone, Copy, Debug)]
struct Goal {
    v: V3,
    lat: f64,
    lon: f64,
    /// Meridian index if the goal lies on a meridian.
    on_meridian: Option<i64>,
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

/// The cut of a fan by one side of a run: the extreme visible crossing at the far meridian and,
/// when the cut is a tangency inside the column, the tangent point's longitude.
#[derive(Clone, Copy, Debug)]
struct Cut {
    bound: f64,
    tangent: Option<f64>,
}

/// A point root's geometry.
#[derive(Clone, Copy, Debug)]
struct PointRoot {
    id: u32,
    v: V3,
    lat: f64,
    lon: f64,
    g: f64,
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
    ) -> Result<Outcome, SphereError> {
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
            return Ok(Outcome::Found);
        }
        // The start sees the goal: the great-circle arc is the route (`direct.rs`). Its leg
        // joins the points as given, and its length is `direct`, bit for bit the leg's own
        // (`Leg::radians` takes the same unit vectors' angle).
        if !self.no_direct && arc_is_clear(grid, sv, s_lon, goal.v, goal.lon) {
            out.legs.push(Leg::Great { from, to });
            out.radians = direct;
            return Ok(Outcome::Found);
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
                return Ok(Outcome::Found);
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
        Ok(Outcome::Unreachable)
    }

    fn push_root(&mut self, mut r: RootData) -> u32 {
        self.stats.roots += 1;
        let v = match r.kind {
            RootKind::Point { v, .. } | RootKind::Edge { v, .. } => v,
        };
        r.to_goal = v.angle(self.goal_v);
        self.roots.push(r);
        (self.roots.len() - 1) as u32
    }

    /// Records a vertex root's cost in the history; false if an equal or better one exists.
    fn history_ok(&mut self, grid: &SphereGrid, line: u32, k: i64, side: u8, g: f64) -> bool {
        let key =
            ((line as u64) << 32) | ((k.rem_euclid(grid.width() as i64) as u64) << 4) | side as u64;
        match self.history.get_mut(&key) {
            Some(best) if *best <= g + COST_EPS => false,
            Some(best) => {
                *best = g;
                true
            }
            None => {
                self.history.insert(key, g);
                true
            }
        }
    }

    fn push_node(&mut self, node: Node, f: f64, g: f64) {
        self.stats.generated += 1;
        self.nodes.push(node);
        self.pending.push(((self.nodes.len() - 1) as u32, f, g));
    }

    /// Moves the successors of the last expansion to the open list.
    fn flush(&mut self) {
        for &(id, f, g) in &self.pending {
            self.open.push(Entry { f, g, id });
        }
        self.pending.clear();
    }

    /// Pushes the goal, reached from root `parent` (leaving an edge root at `dep_lon`) with
    /// total cost `g`.
    fn push_goal(&mut self, goal: &Goal, parent: u32, dep_lon: f64, g: f64) {
        let id = self.push_root(RootData {
            kind: RootKind::Point {
                v: goal.v,
                lat: goal.lat,
                lon: goal.lon,
            },
            g,
            parent,
            dep_lon,
            to_goal: 0.0,
        });
        self.push_node(
            Node {
                root: id,
                k: 0,
                dir: 1,
                lo: 0.0,
                hi: 0.0,
                run: Run { top: 0, bottom: 0 },
                kind: NodeKind::Goal,
            },
            g,
            g,
        );
    }

    /// Pushes interval `[lo, hi]` of meridian `m` (paths continuing `dir` out of run `from` of
    /// the column behind it), split among the runs of the column ahead.
    #[allow(clippy::too_many_arguments)]
    fn push_split(
        &mut self,
        grid: &SphereGrid,
        root: u32,
        root_v: V3,
        g: f64,
        m: i64,
        dir: i64,
        from: Run,
        lo: f64,
        hi: f64,
    ) {
        if lo > hi + ANGLE_EPS {
            return;
        }
        let next_col = if dir > 0 { m } else { m - 1 };
        self.scratch.clear();
        for &r in grid.runs(next_col) {
            // The two runs' common rows, if any (runs touching at a double corner share none).
            let (top, bottom) = (r.top.max(from.top), r.bottom.min(from.bottom));
            if top >= bottom {
                continue;
            }
            let o_hi = grid.row_line_lat(top);
            if o_hi < lo - ANGLE_EPS {
                // Runs come north first: this one and the rest lie south of the interval.
                break;
            }
            let o_lo = grid.row_line_lat(bottom);
            let p_lo = lo.max(o_lo);
            let p_hi = hi.min(o_hi);
            if p_lo <= p_hi + ANGLE_EPS {
                self.scratch.push((p_lo, p_hi.max(p_lo), r));
            }
        }
        if self.scratch.is_empty() {
            return;
        }
        // An admissible h: the larger of the root's distance to the goal and the shortest way
        // root -> interval -> goal (`MeridianView::via_segment_with`; where its argument does
        // not apply, the root's and the goal's distances to the interval, added). The root's
        // distance to the goal is kept with the root, and the goal's view of each meridian is
        // computed once per query.
        let (sn, cs) = grid.meridian_sin_cos(m);
        let to_goal = self.roots[root as usize].to_goal;
        let slot = m.rem_euclid(grid.width() as i64) as usize;
        if self.goal_views[slot].0 != self.stamp {
            self.goal_views[slot] = (self.stamp, MeridianView::new(self.goal_v, sn, cs));
        }
        let goal_view = self.goal_views[slot].1;
        let root_frame = MeridianView::frame(root_v, sn, cs);
        let via = goal_view.via(root_frame, angle_lower_bound);
        for i in 0..self.scratch.len() {
            let (p_lo, p_hi, r) = self.scratch[i];
            // The bounds need the ends' sin_cos: computed once, by polynomials within 1e-9.
            // Their angles are lower bounds (a polynomial, at most 1e-6 below, far more than
            // the sin_cos error moves them), which keeps h admissible; only h uses them, never
            // a cost.
            let (sc_lo, sc_hi) = (lat_sin_cos_fast(p_lo), lat_sin_cos_fast(p_hi));
            let through = goal_view
                .via_segment_with(&via, sc_lo, sc_hi, angle_lower_bound)
                .unwrap_or_else(|| {
                    MeridianView::segment_distance_with(root_frame, sc_lo, sc_hi, angle_lower_bound)
                        + MeridianView::segment_distance_with(
                            goal_view.coords(),
                            sc_lo,
                            sc_hi,
                            angle_lower_bound,
                        )
                });
            let h = to_goal.max(through);
            self.push_node(
                Node {
                    root,
                    k: m,
                    dir,
                    lo: p_lo,
                    hi: p_hi,
                    run: r,
                    kind: NodeKind::Interval,
                },
                g + h,
                g,
            );
        }
    }

    /// Expands a node whose root is a point off the node's meridian.
    fn expand_cone(&mut self, grid: &SphereGrid, goal: &Goal, r: PointRoot, node: Node) {
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
    fn record_corner(
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

    fn turn_at(&mut self, grid: &SphereGrid, goal: &Goal, t: TurnSpec) {
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

    /// A pole reached with cost `g` from root `parent`. Where its polar row is partly
    /// blocked, the pole is a vertex that touches obstacles and a route may turn there: from
    /// it, every ray is a meridian, so its successors are the goal if it lies in a polar run
    /// and the walks down every grid meridian. (Where the row is all free no route needs to
    /// turn at the pole, and cones pass over it.)
    fn pole(&mut self, grid: &SphereGrid, goal: &Goal, r: PointRoot, g: f64, north: bool) {
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

    /// Runs along meridian `k` from row line `i` (point root `r` there, or `r` inside the cell
    /// row just behind the line when `behind` gives that row's free sides), north if `up`,
    /// while a free cell borders the meridian and no double corner blocks it, turning at every
    /// corner where a run begins on a side that was blocked.
    #[allow(clippy::too_many_arguments)]
    fn flat(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        k: i64,
        i: u32,
        up: bool,
        behind: Option<(bool, bool)>,
    ) {
        let lk = r.lon;
        let (west, east) = (k - 1, k);
        let width = grid.width() as i64;
        let goal_on = goal
            .on_meridian
            .is_some_and(|gk| (gk - k).rem_euclid(width) == 0);
        let mut line = i;
        let mut prev = behind;
        loop {
            let row = if up { line as i64 - 1 } else { line as i64 };
            if row < 0 || row >= grid.height() as i64 {
                if prev.is_none() {
                    break;
                }
                if r.lat.abs() < FRAC_PI_2 - ANGLE_EPS {
                    let g = r.g + (grid.row_line_lat(line) - r.lat).abs();
                    self.pole(grid, goal, r, g, up);
                } else {
                    // A walk from one pole reaches the other: the two are antipodes, 180° apart
                    // along this meridian. The route breaks at the last row line before the
                    // far pole, so that no leg is 180° long (an antipodal leg has no unique
                    // great circle).
                    let via_line = if up { 1 } else { grid.height() - 1 };
                    let lat = grid.row_line_lat(via_line);
                    let lon = grid.meridian_lon(k);
                    let v = V3::from_lat_lon(lat, lon);
                    let g = r.g + (lat - r.lat).abs();
                    let id = self.push_root(RootData {
                        kind: RootKind::Point { v, lat, lon },
                        g,
                        parent: r.id,
                        dep_lon: f64::NAN,
                        to_goal: 0.0,
                    });
                    let via = PointRoot { id, v, lat, lon, g };
                    self.pole(grid, goal, via, r.g + PI, up);
                }
                break;
            }
            let (gw, ge) = (grid.is_free(row, west), grid.is_free(row, east));
            if let Some((fw, fe)) = prev {
                // At `line`: a double corner (the free side swaps) blocks the way on.
                if (fw && !fe && !gw && ge) || (fe && !fw && !ge && gw) {
                    break;
                }
                let g = r.g + (grid.row_line_lat(line) - r.lat).abs();
                // A run begins on a side that was blocked: a corner to turn around.
                for (begins, side, dir) in [(gw && !fw, west, -1i64), (ge && !fe, east, 1)] {
                    if !begins {
                        continue;
                    }
                    let run = grid
                        .run_at(row as u32, side)
                        .expect("a free cell has a run");
                    let t = TurnSpec {
                        parent: r.id,
                        dep_lon: f64::NAN,
                        g,
                        k,
                        lk,
                        i: line,
                        dir,
                        run,
                        up,
                        bound: if up { -FRAC_PI_2 } else { FRAC_PI_2 },
                        flat: true,
                    };
                    self.turn_at(grid, goal, t);
                }
            }
            if !gw && !ge {
                break;
            }
            // Nothing happens before one of the two columns changes: jump to that line.
            let (cw, ce) = (
                grid.next_change_line(row as u32, west, up),
                grid.next_change_line(row as u32, east, up),
            );
            let next = if up { cw.max(ce) } else { cw.min(ce) };
            if goal_on {
                let (a, b) = (grid.row_line_lat(line), grid.row_line_lat(next));
                let (a, b) = (a.min(b), a.max(b));
                if goal.lat >= a - ANGLE_EPS && goal.lat <= b + ANGLE_EPS {
                    let g = r.g + (goal.lat - r.lat).abs();
                    self.push_goal(goal, r.id, f64::NAN, g);
                }
            }
            prev = Some((gw, ge));
            line = next;
        }
    }

    /// A start on meridian `k` strictly between two row lines: runs north and south along the
    /// meridian from the start's cell row.
    fn flat_from_inside(&mut self, grid: &SphereGrid, goal: &Goal, r: PointRoot, k: i64) {
        let row = ((FRAC_PI_2 - r.lat) / grid.res_lat()).floor() as i64;
        let row = row.clamp(0, grid.height() as i64 - 1);
        let sides = (grid.is_free(row, k - 1), grid.is_free(row, k));
        if !sides.0 && !sides.1 {
            return;
        }
        let width = grid.width() as i64;
        for up in [true, false] {
            let line = if up { row as u32 } else { row as u32 + 1 };
            let lat = grid.row_line_lat(line);
            if goal
                .on_meridian
                .is_some_and(|gk| (gk - k).rem_euclid(width) == 0)
            {
                let (a, b) = (lat.min(r.lat), lat.max(r.lat));
                if goal.lat >= a - ANGLE_EPS && goal.lat <= b + ANGLE_EPS {
                    self.push_goal(goal, r.id, f64::NAN, (goal.lat - r.lat).abs());
                }
            }
            self.flat(grid, goal, r, k, line, up, Some(sides));
        }
    }

    /// The fan from a root `r` on meridian `k` (at `r.lon`) into the column on side `dir`
    /// (`run` of it), restricted to the rays crossing the far meridian within `(b_lo, b_hi)`.
    #[allow(clippy::too_many_arguments)]
    fn fan_from_vertex(
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
    fn fan(&mut self, grid: &SphereGrid, goal: &Goal, r: PointRoot, s: FanSpec) {
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

    /// The edge root where the fan's ray tangent to the run's top (`is_top`) or bottom touches
    /// it at longitude `lon_t` (`bound`: the tangent ray's crossing of the far meridian): the
    /// region between that ray and the edge on the far meridian, and the goal beyond the ray in
    /// this column.
    fn edge_root(
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

    /// A cone node whose fan ends at its root's antipode on the far meridian `s.m`: if the
    /// antipode is a grid vertex touching an obstacle and a ray of the node reaches it inside
    /// the run, the antipode becomes a root, 180° from `r`.
    fn cone_to_antipode(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        s: &FanSpec,
        near: (f64, f64),
    ) {
        if r.lat.abs() >= FRAC_PI_2 - ANGLE_EPS {
            return;
        }
        let Some(i) = line_of(grid, -r.lat) else {
            return; // not a vertex: no route turns there
        };
        if let Some(via) = self.via_to_antipode(grid, r, s, near) {
            self.antipode(grid, goal, via, r.g + PI, i, s.m, s.lm, s.dir);
        }
    }

    /// A root on a ray of the cone node `near` (across column `s.col` to the far meridian at
    /// 180° from `r`) that stays in the run up to `r`'s antipode: the point where the ray
    /// crosses the node's meridian. A route through the antipode breaks there, so that no leg
    /// is 180° long (an antipodal leg has no unique great circle). `None` if no ray of the node
    /// reaches the antipode inside the run.
    fn via_to_antipode(
        &mut self,
        grid: &SphereGrid,
        r: PointRoot,
        s: &FanSpec,
        near: (f64, f64),
    ) -> Option<u32> {
        let da = (s.la - r.lon).abs();
        if da <= ANGLE_EPS || da >= PI - ANGLE_EPS {
            return None;
        }
        let band = (
            grid.row_line_lat(s.run.bottom),
            grid.row_line_lat(s.run.top),
        );
        let a = rays_to_antipode(r.lat, da, near, band)?;
        let lat = trig::atan(trig::tan(r.lat) * trig::cos(da) + a * trig::sin(da));
        let v = V3::from_lat_lon(lat, s.la);
        Some(self.push_root(RootData {
            kind: RootKind::Point { v, lat, lon: s.la },
            g: r.g + r.v.angle(v),
            parent: r.id,
            dep_lon: f64::NAN,
            to_goal: 0.0,
        }))
    }

    /// The antipode of a root, reached with cost `g` (from `parent`, the last point before it)
    /// at vertex (row line `i`, meridian `k`, unwrapped longitude `lk`) by rays travelling
    /// `dir` across the column behind `k`. Every ray of the root met there, so a route may
    /// leave in any direction, as from a start: fans into both columns and walks along the
    /// meridian, except through a double corner (from the column arrived in to the cell
    /// diagonally across, the two others blocked). A vertex with all four cells free is no
    /// place to turn.
    #[allow(clippy::too_many_arguments)]
    fn antipode(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        parent: u32,
        g: f64,
        i: u32,
        k: i64,
        lk: f64,
        dir: i64,
    ) {
        if i == 0 || i == grid.height() {
            return;
        }
        let (arrived, other) = if dir > 0 { (k - 1, k) } else { (k, k - 1) };
        let (up, down) = (i as i64 - 1, i as i64);
        let (au, ad) = (grid.is_free(up, arrived), grid.is_free(down, arrived));
        let (du, dd) = (grid.is_free(up, other), grid.is_free(down, other));
        if au && ad && du && dd {
            return;
        }
        if !self.history_ok(grid, i, k, 13, g) {
            return;
        }
        // From an arrival cell to a cell of the other column: legal unless they are diagonal
        // and the two other cells blocked.
        let to_up = du && (au || (ad && dd));
        let to_down = dd && (ad || (au && du));
        let lat = grid.row_line_lat(i);
        let v = grid.vertex_unit(i, k);
        let id = self.push_root(RootData {
            kind: RootKind::Point { v, lat, lon: lk },
            g,
            parent,
            dep_lon: f64::NAN,
            to_goal: 0.0,
        });
        if v.angle(goal.v) < ANGLE_EPS {
            self.push_goal(goal, id, f64::NAN, g);
        }
        let pr = PointRoot {
            id,
            v,
            lat,
            lon: lk,
            g,
        };
        for (col, fdir, legal) in [
            (arrived, -dir, true),
            (other, dir, (du && to_up) || (dd && to_down)),
        ] {
            if !legal {
                continue;
            }
            if let Some(run) = run_containing(grid, col, lat) {
                self.fan_from_vertex(grid, goal, pr, k, fdir, run, (-FRAC_PI_2, FRAC_PI_2));
            }
        }
        // Along the meridian: north between the two upper cells, south between the lower.
        if au || (du && to_up) {
            self.flat(grid, goal, pr, k, i, true, None);
        }
        if ad || (dd && to_down) {
            self.flat(grid, goal, pr, k, i, false, None);
        }
    }

    /// Expands a node whose root is an edge root.
    fn expand_edge(&mut self, grid: &SphereGrid, goal: &Goal, node: Node) {
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

    /// Writes the route ending at root `id` into `out`.
    fn reconstruct(&self, grid: &SphereGrid, id: u32, out: &mut Route) {
        // Points are written in degrees; tangent and departure points on an edge get the row
        // line's latitude computed in degrees (a 60° line is written as 60 exactly), so that
        // consecutive legs share their end points bit for bit.
        let line_deg = |line: u32| 90.0 - f64::from(line) * 180.0 / f64::from(grid.height());
        let pos = |r: &RootData| match r.kind {
            RootKind::Point { v, .. } => v.to_lat_lon(),
            RootKind::Edge { line, lon_t, .. } => LatLon::new(line_deg(line), lon_t.to_degrees()),
        };
        // `out`'s legs keep their capacity from query to query: no allocation when warm.
        let legs = &mut out.legs;
        legs.clear();
        let mut cur = id;
        while self.roots[cur as usize].parent != NONE {
            let c = self.roots[cur as usize];
            let p = self.roots[c.parent as usize];
            let here = pos(&c);
            match p.kind {
                RootKind::Point { .. } => push_great(legs, pos(&p), here),
                RootKind::Edge { lon_t, line, .. } => {
                    let dep = LatLon::new(line_deg(line), c.dep_lon.to_degrees());
                    push_great(legs, dep, here);
                    if (c.dep_lon - lon_t).abs() > 1e-15 {
                        legs.push(Leg::Parallel {
                            lat: line_deg(line),
                            from_lon: lon_t.to_degrees(),
                            to_lon: c.dep_lon.to_degrees(),
                        });
                    }
                }
            }
            cur = c.parent;
        }
        legs.reverse();
        out.radians = out.legs.iter().map(Leg::radians).sum();
    }
}

fn push_great(legs: &mut Vec<Leg>, a: LatLon, b: LatLon) {
    if a.to_vec().angle(b.to_vec()) > 1e-15 {
        legs.push(Leg::Great { from: a, to: b });
    }
}

#[derive(Clone, Copy, Debug)]
struct FanSpec {
    col: i64,
    run: Run,
    /// Longitude where the fan enters the column (the near meridian or the root's own).
    la: f64,
    /// The far meridian and its (unwrapped) longitude.
    m: i64,
    lm: f64,
    dir: i64,
    /// The rays allowed, as crossings of the far meridian.
    b_lo: f64,
    b_hi: f64,
    /// For a cone node, its interval on the near meridian (the rays allowed, as crossings of
    /// the near meridian; used for the goal, which may lie 180° or more from the root's far
    /// side).
    near: Option<(f64, f64)>,
}

#[derive(Clone, Copy, Debug)]
struct TurnSpec {
    parent: u32,
    dep_lon: f64,
    g: f64,
    k: i64,
    lk: f64,
    i: u32,
    dir: i64,
    run: Run,
    up: bool,
    bound: f64,
    /// Whether to run along the meridian too.
    flat: bool,
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
enum CornerKind {
    /// The column behind is blocked just beyond the end while the run goes on: the path turns
    /// round the near obstacle, and may also run along the meridian.
    Near,
    /// The run ends at the end while the column behind goes on: the path turns round the
    /// obstacle of the column entered.
    Far,
}

/// The corner, if any, at an interval end on row line `i` ([`CornerKind`]).
fn corner_kind(grid: &SphereGrid, run: Run, near: i64, i: u32, top: bool) -> Option<CornerKind> {
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

/// How fast the great circle from `r` through the vertex `c` climbs towards the north (`top`)
/// or the south at `c`, going on away from `r`, up to a positive factor: the `z` component
/// of the direction of travel `(r·c) c − r`, signed. The sign is what [`cut`] and the sweep
/// decide on; no transcendental call.
#[inline]
fn climb(r: V3, c: V3, top: bool) -> f64 {
    let sg = if top { 1.0 } else { -1.0 };
    sg * (r.dot(c) * c.z - r.z)
}

/// The root history's side key for a corner turned at going `dir` (east when positive) on the
/// top side of a node (`up`) or its bottom side.
#[inline]
fn history_side(dir: i64, up: bool) -> u8 {
    u8::from(dir > 0) | (u8::from(up) << 1)
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
fn far_corner_sees_nothing(
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

/// A cone node moved on by [`sweep`], with its rays' crossings of the meridian after it.
struct Swept {
    node: Node,
    b_lo: f64,
    b_hi: f64,
}

/// One end of a swept cone on the meridian it has reached: the tangent of its latitude, and
/// the row line it lies on when the run's boundary parallel clips the cone there.
#[derive(Clone, Copy)]
struct SweptEnd {
    tan: f64,
    line: Option<u32>,
}

impl SearchContext {
    /// Moves cone node `node` of point root `r` on, column after column, while expanding it could
    /// only give the same cone one column further, clipped by the run as the fan would clip it:
    /// - on each side, either the cone's ray stays strictly inside the run across the column (no
    ///   cut there), or the ray through the run's far corner on that side is still climbing
    ///   towards the boundary parallel at that corner (for the top; descending, for the bottom),
    ///   so the fan's bound is the parallel itself, with no tangent point and so no edge root;
    ///   the new end is then the ray's crossing if it lies inside the run by the margin, or the
    ///   parallel if the ray crosses beyond it by the margin (the cone is clipped, and its side
    ///   is from then on the ray through that corner, as the column-by-column expansion makes
    ///   it);
    /// - exactly one run of the next column meets the new interval (one successor), and the
    ///   new node's ends make no corner the search may turn at: a clipped end whose parallel
    ///   goes on as that run's boundary is none; where the run narrows, the new end on its
    ///   boundary is a far-side corner, passed (and recorded in the root history, as its
    ///   expansion would record it) only when [`far_corner_sees_nothing`]; where the run
    ///   widens, the end is a near-side corner and the sweep stops;
    /// - the goal's longitude is not in the column, and the root is more than 180° minus a column
    ///   away.
    ///
    /// A polar run's top (or bottom) is the pole. A cone whose side is at the pole (the fan's
    /// bound there is the pole itself, `cut`) keeps that side while the runs it enters stay open
    /// to the pole: no ray, no tangent point, no corner, and the pole was already offered to the
    /// search (`pole`) by the fan that made the node, at the same cost. Where the next run is
    /// closed before the pole, that side is clipped to the run's top like any other. (Half the
    /// columns of the 0.5° Earth's oceans belong to runs open to the Arctic; before such cones
    /// were swept, 58 % of the expansions on the random 0.5° pairs were their columns.) The two
    /// pairs are the node's lower and upper rays' crossings of the next meridian with their great
    /// circles' normals, as [`project_ray`] gives them. Returns the node on the last meridian so
    /// reached (the node itself if none) and its crossings of the meridian after that, as
    /// [`project_ray`] gives them. The nodes skipped are not counted as expanded, as Euclidean
    /// Anya does not count the intermediate nodes it expands in place.
    fn sweep(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        node: Node,
        (b_lo, n_lo): (f64, V3),
        (b_hi, n_hi): (f64, V3),
    ) -> Swept {
        let unmoved = Swept { node, b_lo, b_hi };
        let (h, res) = (grid.height(), grid.res_lon());
        // A side at a pole (`project_ray`'s test): the cone's side there is the pole itself,
        // not a ray, and stays so while the runs it enters stay open to that pole.
        let mut pole_lo = node.lo <= -FRAC_PI_2 + ANGLE_EPS;
        let mut pole_hi = node.hi >= FRAC_PI_2 - ANGLE_EPS;
        if r.lat.abs() >= FRAC_PI_2 - SWEEP_MARGIN
            || (pole_lo && pole_hi)
            || (n_lo.z == 0.0 && !pole_lo)
            || (n_hi.z == 0.0 && !pole_hi)
        {
            return unmoved;
        }
        let df = node.dir as f64;
        // Latitudes as tangents (monotone, and the crossings' own form: `atan` of them is what
        // `crossing_lat_sc` returns), so a swept column takes no trigonometric call. A margin of
        // SWEEP_MARGIN in latitude is at least this much in tangent.
        let line_tan = |i: u32| grid.line_tan(i);
        let margin = tan_margin;
        // Strictly below row line `i` (above, for `above`), by the margin; at a pole, by 1e-8 rad
        // (the pole's own tangent is not finite): `SphereGrid::line_clear`'s table.
        let below = |t: f64, i: u32| t < grid.line_clear(i).0;
        let above = |t: f64, i: u32| t > grid.line_clear(i).1;
        // A row line as an end, and which of two ends lies further north: `Some(true)` strictly
        // north, `Some(false)` strictly south or on the same row line, `None` when a free end is
        // within the margin of the other end.
        let line_end = |i: u32| SweptEnd {
            tan: if i == 0 {
                f64::INFINITY
            } else if i == h {
                f64::NEG_INFINITY
            } else {
                line_tan(i)
            },
            line: Some(i),
        };
        let north = |a: SweptEnd, b: SweptEnd| match (a.line, b.line) {
            (Some(x), Some(y)) => Some(x < y),
            _ => {
                let at = if a.line.is_some() { b.tan } else { a.tan };
                let d = a.tan - b.tan;
                let mg = margin(at);
                if d > mg {
                    Some(true)
                } else if d < -mg {
                    Some(false)
                } else {
                    None
                }
            }
        };
        // The new end on the run's top (`top`, sign 1) or bottom side (sign -1) at meridian `m`,
        // for a side whose great circle has normal `nn` (mirrored for the bottom, so that its
        // trough is a peak), crossing meridian k at `tk` and meridian m at `tm`, the run's
        // boundary on that side being row line `line`.
        let end = |nn: V3, (tk, tm): (f64, f64), line: u32, m: i64, (west, east), top: bool| {
            let sg = if top { 1.0 } else { -1.0 };
            let peak = peak_between(nn, west, east)?;
            let ext = if peak {
                sg * peak_tan(nn)
            } else if top {
                tk.max(tm)
            } else {
                tk.min(tm)
            };
            let inside = if top {
                below(ext, line)
            } else {
                above(ext, line)
            };
            if inside {
                return Some(SweptEnd {
                    tan: tm,
                    line: None,
                });
            }
            if line == 0 || line == h {
                return None;
            }
            // The test `cut` makes first, in the same arithmetic.
            let c = grid.vertex_unit(line, m);
            if climb(r.v, c, top) < 0.0 {
                return None;
            }
            let l = line_tan(line);
            if sg * (tm - l) > margin(l) {
                Some(SweptEnd {
                    tan: l,
                    line: Some(line),
                })
            } else if sg * (l - tm) > margin(l) {
                Some(SweptEnd {
                    tan: tm,
                    line: None,
                })
            } else {
                None
            }
        };
        let (mut n_lo, mut n_hi) = (n_lo, n_hi);
        let crossings = |k: i64, n_lo: V3, n_hi: V3| {
            let (s, c) = grid.meridian_sin_cos(k);
            (crossing_tan_sc(n_lo, s, c), crossing_tan_sc(n_hi, s, c))
        };
        let mut n = node;
        let mut at_k = crossings(n.k, n_lo, n_hi);
        let mut lines: (Option<u32>, Option<u32>) = (None, None);
        let mut moved = false;
        // Every meridian swept lies less than 180° from the root, so one multiple of 2π places
        // them all near the root (`unwrap_near`, computed once), and the goal's longitude lies in
        // a column exactly when its value nearest the root does (`goal_lon_in`, once).
        let wrap = wrap_near(grid.meridian_lon(n.k), r.lon);
        let lg = unwrap_near(goal.lon, r.lon);
        'sweep: loop {
            let (k, m) = (n.k, n.k + n.dir);
            let lk = grid.meridian_lon(k) + wrap;
            let lm = lk + df * res;
            let col = if n.dir > 0 { k } else { k - 1 };
            let (a, b) = if lk < lm { (lk, lm) } else { (lm, lk) };
            if df * (lm - r.lon) + res >= PI - 1e-6 || (lg >= a - ANGLE_EPS && lg <= b + ANGLE_EPS)
            {
                break;
            }
            let at_m = crossings(m, n_lo, n_hi);
            let sides = if lk < lm {
                (grid.meridian_sin_cos(k), grid.meridian_sin_cos(m))
            } else {
                (grid.meridian_sin_cos(m), grid.meridian_sin_cos(k))
            };
            // A side at a pole stays there while the run is open to it: no ray, no cut, no
            // tangent point (`cut` bounds a fan at the pole by the pole, with no edge root).
            let hi = if pole_hi {
                if n.run.top != 0 {
                    break;
                }
                line_end(0)
            } else {
                let Some(hi) = end(n_hi, (at_k.1, at_m.1), n.run.top, m, sides, true) else {
                    break;
                };
                hi
            };
            let lo = if pole_lo {
                if n.run.bottom != h {
                    break;
                }
                line_end(h)
            } else {
                let Some(lo) = end(
                    n_lo.mirrored(),
                    (at_k.0, at_m.0),
                    n.run.bottom,
                    m,
                    sides,
                    false,
                ) else {
                    break;
                };
                lo
            };
            // The runs of the column after `m` that the new interval meets, as `push_split`
            // splits it among them: exactly one, clearly, or the sweep stops.
            let next = col + n.dir;
            let mut held = None;
            let mut stop = false;
            for &rr in grid.runs(next) {
                let (top, bot) = (rr.top.max(n.run.top), rr.bottom.min(n.run.bottom));
                if top >= bot {
                    continue; // no overlap, or runs touching at a double corner
                }
                let (te, be) = (line_end(top), line_end(bot));
                let (Some(cut_top), Some(cut_bot)) = (north(hi, te), north(be, lo)) else {
                    stop = true;
                    break;
                };
                let (p_hi, p_lo) = (if cut_top { te } else { hi }, if cut_bot { be } else { lo });
                match north(p_hi, p_lo) {
                    Some(true) if held.is_none() => held = Some((rr, p_lo, p_hi)),
                    Some(false) => {}
                    _ => {
                        stop = true;
                        break;
                    }
                }
            }
            let (false, Some((run, lo, hi))) = (stop, held) else {
                break;
            };
            // The new node's corners, found as its expansion would find them (`expand_cone`): a
            // near-side corner, or a far-side one the search may turn at, stops the sweep; a
            // far-side corner that gives nothing is only recorded in the root history.
            let mut recorded = [None, None];
            for (slot, (end, top)) in [(hi, true), (lo, false)].into_iter().enumerate() {
                let Some(i) = end.line else {
                    continue;
                };
                match corner_kind(grid, run, col, i, top) {
                    Some(CornerKind::Far)
                        if far_corner_sees_nothing(grid, r, i, m, m + n.dir, top) =>
                    {
                        recorded[slot] = Some((i, top));
                    }
                    Some(_) => break 'sweep,
                    None => {}
                }
            }
            // A clipped side is from now on the ray through the corner it is clipped at; a side
            // at a pole has no ray (a zero normal, as `project_ray` gives it).
            let at_pole = |line: Option<u32>| line == Some(0) || line == Some(h);
            let through = |line: Option<u32>, nn: V3| match line {
                _ if at_pole(line) => V3::default(),
                Some(i) => r.v.cross(grid.vertex_unit(i, m)),
                None => nn,
            };
            let (new_lo, new_hi) = (through(lo.line, n_lo), through(hi.line, n_hi));
            if (new_lo.z == 0.0 && !at_pole(lo.line)) || (new_hi.z == 0.0 && !at_pole(hi.line)) {
                break;
            }
            (pole_lo, pole_hi) = (at_pole(lo.line), at_pole(hi.line));
            for (i, up) in recorded.into_iter().flatten() {
                self.record_corner(r, i, m, n.dir, up, grid);
            }
            (n_lo, n_hi) = (new_lo, new_hi);
            n = Node { k: m, run, ..n };
            at_k = (lo.tan, hi.tan);
            lines = (lo.line, hi.line);
            moved = true;
        }
        if !moved {
            return unmoved;
        }
        // Back to latitudes, as the column-by-column expansion would have computed them.
        let (s, c) = grid.meridian_sin_cos(n.k + n.dir);
        n.lo = lines
            .0
            .map_or_else(|| trig::atan(at_k.0), |i| grid.row_line_lat(i));
        n.hi = lines
            .1
            .map_or_else(|| trig::atan(at_k.1), |i| grid.row_line_lat(i));
        Swept {
            node: n,
            b_lo: if pole_lo {
                n.lo
            } else {
                crossing_lat_sc(n_lo, s, c)
            },
            b_hi: if pole_hi {
                n.hi
            } else {
                crossing_lat_sc(n_hi, s, c)
            },
        }
    }
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

/// The rays from a point at latitude `phi` that cross the meridian `da` radians of longitude
/// past it (`0 < da < π`) at latitudes within `near` and stay within latitudes `band` from
/// there to the point's antipode, `π` past it: one such ray, as its parameter `a`, or `None`.
///
/// The great circles through the point, other than its meridian, are
/// `tan lat(δ) = tan φ cos δ + a sin δ` (`δ` the longitude travelled); all meet at the
/// antipode (`δ = π`). At each `δ` the latitude grows with `a`, so each bound of the band is
/// one bound on `a` per `δ`, whose extreme over `[da, π)` lies at `da`, at the one stationary
/// point (`cos δ = tan φ / tan band`, where the ray is tangent to the band's parallel) or in
/// the limit at `π`.
fn rays_to_antipode(phi: f64, da: f64, near: (f64, f64), band: (f64, f64)) -> Option<f64> {
    let t = trig::tan(phi);
    let (sa, ca) = trig::sin_cos(da);
    let lim = FRAC_PI_2 - 1e-9;
    let a_at = |lat: f64| (trig::tan(lat.clamp(-lim, lim)) - t * ca) / sa;
    let (mut lo, mut hi) = (a_at(near.0), a_at(near.1));
    // `side` +1: the band's top, `a <= (tan top - t cos δ) / sin δ`; -1: its bottom, `>=`.
    for (lat, side) in [(band.1, 1.0), (band.0, -1.0)] {
        if lat.abs() >= FRAC_PI_2 - ANGLE_EPS {
            continue; // a pole: no ray but the meridian reaches it
        }
        let tb = trig::tan(lat);
        let bound = |d: f64| (tb - t * trig::cos(d)) / trig::sin(d);
        let mut b = bound(da);
        // At π the bound tends to ±∞ as the antipode (tan = -t) lies inside the band, to 0 as
        // it lies on the band's line, and the antipode is out of the band otherwise.
        let end = side * (tb + t);
        let slack = 1e-12 * (1.0 + tb.abs());
        if end < -slack {
            return None;
        }
        if end <= slack {
            b = if side > 0.0 { b.min(0.0) } else { b.max(0.0) };
        } else if tb != 0.0 && (t / tb).abs() < 1.0 {
            let ds = trig::acos(t / tb);
            if ds > da {
                b = if side > 0.0 {
                    b.min(bound(ds))
                } else {
                    b.max(bound(ds))
                };
            }
        }
        if side > 0.0 {
            hi = hi.min(b);
        } else {
            lo = lo.max(b);
        }
    }
    let tol = 1e-9 * (1.0 + lo.abs().max(hi.abs()));
    (lo <= hi + tol).then(|| 0.5 * (lo + hi.max(lo)))
}

/// In a fan whose far meridian lies 180° or more from the root (so [`cut`] does not apply):
/// where the ray of cone node `near` tangent to the run's top (`top`) or bottom touches it,
/// if inside the column and short of the antipode, as (tangent longitude, the ray's crossing
/// of the far meridian).
fn tangent_before_antipode(
    grid: &SphereGrid,
    r: PointRoot,
    s: &FanSpec,
    near: (f64, f64),
    top: bool,
) -> Option<(f64, f64)> {
    let line = if top { s.run.top } else { s.run.bottom };
    if line == 0 || line == grid.height() {
        return None;
    }
    let lat = grid.row_line_lat(line);
    let sg = if top { 1.0 } else { -1.0 };
    let d = tangent_offset(sg * r.lat, sg * lat)?;
    let df = s.dir as f64;
    let lv = r.lon + df * d;
    if d >= PI - ANGLE_EPS || (lv - s.la) * df < -ANGLE_EPS {
        return None;
    }
    // One of the node's rays: it crosses the node's meridian inside the interval. From there it
    // climbs to the tangent point (falls, for the bottom), so it stays in the run.
    let c = lat_from_vertex(lat, lv, s.la);
    if c < near.0 - ANGLE_EPS || c > near.1 + ANGLE_EPS {
        return None;
    }
    Some((lv, lat_from_vertex(lat, lv, s.lm)))
}

/// The goal's longitude unwrapped near the column, if it lies in the column (closed) between
/// longitudes `la` and `lm`.
fn goal_lon_in(grid: &SphereGrid, goal: &Goal, col: i64, la: f64, lm: f64) -> Option<f64> {
    let _ = (grid, col);
    let lg = unwrap_near(goal.lon, 0.5 * (la + lm));
    let (a, b) = if la <= lm { (la, lm) } else { (lm, la) };
    (lg >= a - ANGLE_EPS && lg <= b + ANGLE_EPS).then_some(lg)
}

fn in_run(grid: &SphereGrid, run: Run, lat: f64) -> bool {
    lat <= grid.row_line_lat(run.top) + ANGLE_EPS
        && lat >= grid.row_line_lat(run.bottom) - ANGLE_EPS
}

/// The meridian index whose longitude is `lon` (radians), if any.
fn meridian_of(grid: &SphereGrid, lon: f64) -> Option<i64> {
    let x = (lon + PI) / grid.res_lon();
    let r = round_fast(x);
    ((x - r).abs() * grid.res_lon() < ANGLE_EPS).then(|| (r as i64).rem_euclid(grid.width() as i64))
}

/// The row line index whose latitude is `lat`, if any.
fn line_of(grid: &SphereGrid, lat: f64) -> Option<u32> {
    let y = (FRAC_PI_2 - lat) / grid.res_lat();
    let r = round_fast(y);
    ((y - r).abs() * grid.res_lat() < ANGLE_EPS && r >= 0.0 && r <= grid.height() as f64)
        .then_some(r as u32)
}

/// The run of column `col` whose closed latitude range contains `lat`.
fn run_containing(grid: &SphereGrid, col: i64, lat: f64) -> Option<Run> {
    grid.runs(col)
        .iter()
        .copied()
        .find(|&r| in_run(grid, r, lat))
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
mod tests {
    use super::*;
    use crate::check::check_route;

    /// The route and counters of one search, sweeping or column by column.
    fn run(
        grid: &SphereGrid,
        from: LatLon,
        to: LatLon,
        sweep: bool,
    ) -> (Outcome, Route, SearchStats) {
        let mut ctx = SearchContext {
            no_sweep: !sweep,
            // The search itself, even where the arc is clear.
            no_direct: true,
            ..SearchContext::default()
        };
        let mut route = Route::default();
        let outcome = ctx.search(grid, from, to, &mut route).unwrap();
        (outcome, route, ctx.stats())
    }

    /// Searches one pair sweeping and column by column: both must find the route, at the
    /// same length, and the swept one must be legal. Returns both searches' counters.
    fn swept_and_stepped(
        grid: &SphereGrid,
        from: LatLon,
        to: LatLon,
    ) -> (SearchStats, SearchStats) {
        let (o1, swept, s1) = run(grid, from, to, true);
        let (o2, stepped, s2) = run(grid, from, to, false);
        assert_eq!((o1, o2), (Outcome::Found, Outcome::Found));
        assert!((swept.radians - stepped.radians).abs() < 1e-12);
        check_route(grid, &swept, from, to).unwrap();
        (s1, s2)
    }

    #[test]
    fn a_cone_clipped_by_a_parallel_coast_is_swept() {
        // 1° cells; land north of 10°N between 40°W and 60°E, and south of 40°S everywhere.
        // From (0°, 30°W) eastwards the start's cone spans the whole open meridian, from the
        // southern coast to the northern one, and the rays through both coasts' corners move
        // towards them until 60°E: the cone is clipped by both parallels at every column.
        let grid = SphereGrid::from_fn(360, 180, |r, c| {
            let lat_top = 90.0 - r as f64;
            let lon_west = c as f64 - 180.0;
            let north_land = lat_top > 10.0 && (-40.0..60.0).contains(&lon_west);
            !(north_land || lat_top <= -40.0)
        })
        .unwrap();
        let (s1, s2) = swept_and_stepped(&grid, LatLon::new(0.0, -30.0), LatLon::new(5.0, 50.0));
        // Before clipped cones were swept, not a column of this cone was (its ends lie on the
        // coasts): 60 columns were expanded one by one.
        assert!(s1.swept >= 60, "{s1:?}");
        assert_eq!(s2.swept, 0);
        assert!(s1.expanded + 60 <= s2.expanded, "{s1:?} against {s2:?}");
    }

    #[test]
    fn a_cone_open_to_the_pole_is_swept() {
        // 1° cells; land south of 20°N, and one island at 30°N-32°N, 64°E-66°E. From (30°N, 0°)
        // to (31°N, 70°E), behind the island, the start's eastward cone spans its meridian from
        // the coast to the North Pole: its top side is the pole, column after column, not a ray.
        let grid = SphereGrid::from_fn(360, 180, |r, c| {
            let lat_top = 90.0 - r as f64;
            let lon_west = c as f64 - 180.0;
            let island = (31.0..=32.0).contains(&lat_top) && (64.0..66.0).contains(&lon_west);
            lat_top > 20.0 && !island
        })
        .unwrap();
        let (s1, s2) = swept_and_stepped(&grid, LatLon::new(30.0, 0.5), LatLon::new(31.0, 70.0));
        // Before cones at a pole were swept, not a column of this one was.
        assert!(s1.swept >= 50, "{s1:?}");
        assert!(s1.expanded + 50 <= s2.expanded, "{s1:?} against {s2:?}");
    }

    #[test]
    fn sweeping_changes_no_route() {
        // Rasters of 1° cells with long coasts along parallels and staircase coasts (bars of
        // 1-6 rows, 10-200 columns) and small islands; random pairs of free points. Sweeping
        // must give the column-by-column expansion's outcome and length.
        let mut next = crate::testing::below(0x2545_f491_4f6c_dd1d);
        let (w, h) = (360u32, 180u32);
        let (mut found, mut swept) = (0, 0);
        for _ in 0..12 {
            let mut free = vec![true; (w * h) as usize];
            for bar in 0..16 {
                let (r0, c0) = (next(h), next(w));
                let (rows, cols) = (1 + next(6), 10 + next(191));
                // Half the bars are staircases, one row up or down every `run` columns: coasts
                // that narrow or widen a run at each step.
                let (step, run) = if bar % 2 == 0 {
                    (0, 1)
                } else {
                    (if next(2) == 0 { 1 } else { h - 1 }, 1 + next(4))
                };
                for dc in 0..cols {
                    let shift = step * (dc / run);
                    for dr in 0..rows {
                        let r = (r0 + dr + shift) % h;
                        free[(r * w + (c0 + dc) % w) as usize] = false;
                    }
                }
            }
            for _ in 0..40 {
                free[(next(h) * w + next(w)) as usize] = false;
            }
            let grid = SphereGrid::from_fn(w, h, |r, c| free[(r * w + c) as usize]).unwrap();
            let point = |next: &mut dyn FnMut(u32) -> u32| loop {
                let (r, c) = (next(h), next(w));
                if free[(r * w + c) as usize] {
                    let lat = 90.0 - (f64::from(r) + 0.25 + 0.5 * f64::from(next(100)) / 100.0);
                    let lon = -180.0 + (f64::from(c) + 0.25 + 0.5 * f64::from(next(100)) / 100.0);
                    break LatLon::new(lat, lon);
                }
            };
            for _ in 0..10 {
                let (from, to) = (point(&mut next), point(&mut next));
                let (o1, r1, s1) = run(&grid, from, to, true);
                let (o2, r2, _) = run(&grid, from, to, false);
                assert_eq!(o1, o2, "{from:?} -> {to:?}");

                if o1 == Outcome::Found {
                    found += 1;
                    swept += s1.swept;
                    assert!(
                        (r1.radians - r2.radians).abs() <= 1e-10,
                        "{from:?} -> {to:?}: {} swept, {} column by column",
                        r1.radians,
                        r2.radians
                    );
                    check_route(&grid, &r1, from, to).unwrap();
                }
            }
        }
        assert!(
            found >= 60 && swept > 1000,
            "{found} routes, {swept} columns swept"
        );
    }
}
