//! An exact visibility-graph planner over convex corners: the test oracle of the optimal
//! any-angle planners. Slow next to Anya, but simple enough to trust.
//!
//! # Why the graph is exact
//!
//! Under the rules of `docs/conventions.md` a shortest path is a polyline whose waypoints are
//! lattice points, and it can only turn at a lattice point whose free neighbourhood is *not
//! convex*:
//!
//! - With no blocked cell around the point, or two blocked cells side by side (a free
//!   half-plane), or three (one free quadrant), the free region near the point is convex. A turn
//!   there (angle below 180°) can be cut by a chord between two nearby points of the path; the
//!   chord runs through the interior of free cells and meets no lattice point, so it is legal and
//!   strictly shorter.
//! - A *double corner* (two blocked cells touching diagonally) is never passed straight through
//!   (that is illegal), and a path that touches it must arrive and leave on the same free side.
//!   That side is a single free quadrant, which is convex: any turn there is cut as above. So an
//!   optimal path never has an intermediate waypoint on a double corner.
//! - What remains is the *convex corner*: exactly one blocked cell among the four
//!   ([`Grid::is_corner`]; the outside of the map counts as blocked, so the border needs no
//!   special case). Its free region spans 270°, and a path can bend around the blocked cell.
//!
//! Moreover, at a corner `v` whose blocked cell lies in quadrant `B`, an optimal path only uses
//! segments *tangent* at `v`: the line of the segment must not enter the open quadrant `B`. (If
//! the segment arrives from the quadrant opposite `B`, both wedges between it and any legal
//! outgoing direction stay inside the free 270°, one of them below 180°, and the turn can be
//! cut.) With `y` growing south, the segment's direction `d` must satisfy `d.x * d.y <= 0` when
//! `B` is north-west or south-east, and `d.x * d.y >= 0` when `B` is north-east or south-west.
//!
//! The graph therefore has the start, the goal and every convex corner as nodes; corner–corner
//! edges join mutually visible corners (exact [`Grid::segment_is_legal`]) that are tangent at
//! both ends; the start and goal are joined to every visible node (tangent at the corner end),
//! subject to the double-corner endpoint rule ([`Grid::endpoint_allows`]). A* with the Euclidean
//! heuristic finds the shortest path in this graph, which is the shortest legal path.
//!
//! # Finding the visible corners
//!
//! Testing every corner against every other is quadratic in the number of corners. Instead, the
//! corners a point may see are enumerated by an exact *shadow-casting sweep*: quadrant by
//! quadrant, the sweep walks away from the source row by row, keeping the closed set of slopes
//! (exact fractions) of rays that have not yet entered the interior of a blocked cell; a run of
//! blocked cells in a row removes an open interval of slopes. The corners on the next lattice
//! line whose slope survives are *candidates*: a superset of the visible ones (rays that run
//! along an edge between two blocked cells or pass through a double corner survive the sweep),
//! so every candidate is then confirmed by the exact [`Grid::segment_is_legal`]. The four axis
//! directions are walked separately. Cheap rejections come first: the source's tangency rules
//! out two of the four quadrants, and the candidate's tangency rules out, in each quadrant, the
//! corners of the wrong diagonal class (they are kept in separate per-line lists).
//!
//! The visible tangent corners of a corner are computed the first time it is expanded and kept
//! for later queries on the same grid (the cache only grows), so a batch of queries on one map
//! gets faster as it goes.
//!
//! # Pruning during the search
//!
//! When A* expands a corner reached from its parent `u`, it only follows edges that make the
//! turn at the corner *taut*: straight on, or bending towards the corner's blocked cell. A turn
//! away from it (the blocked cell outside the angle the path turns through) can be cut short
//! by a chord through free cells near the corner, so the path through `u` and the corner cannot
//! be a shortest path to the successor; and a shortest path to any node through this corner
//! arrives from a parent as short as `u`, for which the same argument applies. The goal is
//! joined to a corner only along a tangent, taut segment for the same reason. Nodes whose
//! `f = g + h` cannot beat the best path to the goal found so far are not queued.
//!
//! # Cost
//!
//! Building the planner takes time and memory linear in the map's area (a 4-byte corner id per
//! lattice point). A query costs one sweep and `segment_is_legal` per candidate for every
//! newly expanded corner, plus the search over cached edges. On the 512×512 benchmark maps a
//! cold query takes from under a millisecond to a few tens of milliseconds (see the crate's
//! `vg_reference` test, which prints the figures).
//!
//! # Example
//! ```
//! use taut_baselines::vg::VgPlanner;
//! use taut_grid::{Answer, Grid, Planner, Point, Status};
//!
//! let grid = Grid::from_ascii(&["....", ".@..", "....", "...."]).unwrap();
//! let mut vg = VgPlanner::new(&grid);
//! let mut answer = Answer::default();
//! let status = vg.plan(Point::new(0, 0), Point::new(2, 3), &mut answer).unwrap();
//! assert_eq!(status, Status::Found);
//! // Around the south-west corner (1, 2) of the block.
//! assert_eq!(answer.waypoints, [Point::new(0, 0), Point::new(1, 2), Point::new(2, 3)]);
//! assert!((answer.length - (5f64.sqrt() + 2f64.sqrt())).abs() < 1e-12);
//! assert!(grid.check_path(Point::new(0, 0), Point::new(2, 3), &answer.waypoints).is_ok());
//! ```

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::ops::Deref;

use taut_grid::{
    Answer, Grid, Guarantee, Planner, Point, QueryError, Stats, Status, Step, Stepper, TraceEvent,
    Tracer, quad,
};

/// No corner at this lattice point.
const NONE: u32 = u32::MAX;

/// A non-negative slope `num / den` (run across per row away from the source); `den == 0`
/// with `num == 1` is +∞. Slopes are compared exactly by cross-multiplication.
#[derive(Debug, Clone, Copy)]
struct Slope {
    num: i64,
    den: i64,
}

impl Slope {
    const INF: Slope = Slope { num: 1, den: 0 };

    #[inline]
    fn is_inf(self) -> bool {
        self.den == 0
    }

    /// `self <= other` (exact).
    #[inline]
    fn le(self, other: Slope) -> bool {
        self.num * other.den <= other.num * self.den
    }

    /// `self < other` (exact).
    #[inline]
    fn lt(self, other: Slope) -> bool {
        self.num * other.den < other.num * self.den
    }

    #[inline]
    fn max(self, other: Slope) -> Slope {
        if self.lt(other) { other } else { self }
    }

    #[inline]
    fn min(self, other: Slope) -> Slope {
        if self.lt(other) { self } else { other }
    }

    /// `floor(self * k)` for a finite slope, `k >= 0`.
    #[inline]
    fn floor_mul(self, k: i64) -> i64 {
        (self.num * k).div_euclid(self.den)
    }

    /// `ceil(self * k)` for a finite slope, `k >= 0`.
    #[inline]
    fn ceil_mul(self, k: i64) -> i64 {
        -(-(self.num * k)).div_euclid(self.den)
    }
}

/// The diagonal class of a corner, by the quadrant of its blocked cell: 0 for north-west or
/// south-east (tangent directions have `d.x * d.y <= 0`), 1 for north-east or south-west
/// (`d.x * d.y >= 0`).
#[inline]
fn class_of(blocked: u8) -> usize {
    usize::from(blocked == quad::NE || blocked == quad::SW)
}

/// The diagonal direction pointing into the blocked quadrant `blocked` (a [`quad`] bit).
#[inline]
fn blocked_dir(blocked: u8) -> Point {
    match blocked {
        quad::NW => Point::new(-1, -1),
        quad::NE => Point::new(1, -1),
        quad::SW => Point::new(-1, 1),
        _ => Point::new(1, 1),
    }
}

#[inline]
fn cross(a: Point, b: Point) -> i64 {
    i64::from(a.x) * i64::from(b.y) - i64::from(a.y) * i64::from(b.x)
}

/// Whether a path arriving at a corner along `a` and leaving along `b` is taut there: it goes
/// straight on, or turns towards the blocked cell, which lies in direction `into` (both
/// segments tangent, so the cell is wholly on one side of each). A turn away from the blocked
/// cell can be cut short near the corner, through free cells only, so no shortest path makes
/// it.
#[inline]
fn taut(a: Point, b: Point, into: Point) -> bool {
    let c = cross(a, b);
    if c == 0 {
        return i64::from(a.x) * i64::from(b.x) + i64::from(a.y) * i64::from(b.y) > 0;
    }
    let (ca, cb) = (cross(a, into), cross(b, into));
    if c > 0 {
        ca >= 0 && cb >= 0
    } else {
        ca <= 0 && cb <= 0
    }
}

/// Whether direction `d` is tangent at a corner of class `class`.
#[inline]
fn tangent(class: usize, d: Point) -> bool {
    let p = i64::from(d.x) * i64::from(d.y);
    if class == 0 { p <= 0 } else { p >= 0 }
}

/// The corners of a grid and the tables the sweep needs; immutable after construction.
#[derive(Debug)]
struct CornerIndex {
    width: i32,
    height: i32,
    /// Corner positions, in row-major order of lattice points.
    points: Vec<Point>,
    /// Diagonal class of each corner (see [`class_of`]).
    class: Vec<u8>,
    /// The quadrant of each corner's blocked cell (a [`quad`] bit).
    blocked: Vec<u8>,
    /// Corner id at lattice point `(x, y)`, index `y * (width + 1) + x`, or [`NONE`].
    at: Vec<u32>,
    /// Per class: x coordinates and ids of the corners, sorted by (y, x).
    line_x: [Vec<i32>; 2],
    line_id: [Vec<u32>; 2],
    /// Per class: offsets into `line_x`/`line_id` of lattice line y (`height + 2` entries).
    line_off: [Vec<u32>; 2],
    /// Maximal runs `[c0, c1]` of blocked cells per cell row, columns `-1..=width` (the padding
    /// columns included), sorted.
    runs: Vec<(i32, i32)>,
    /// Offsets into `runs` of cell row r (`height + 1` entries).
    run_off: Vec<u32>,
}

impl CornerIndex {
    fn new(grid: &Grid) -> Self {
        let (w, h) = (grid.width(), grid.height());
        let mut points = Vec::new();
        let mut class = Vec::new();
        let mut blocked_quad = Vec::new();
        let mut at = vec![NONE; (w as usize + 1) * (h as usize + 1)];
        let mut line_x = [Vec::new(), Vec::new()];
        let mut line_id = [Vec::new(), Vec::new()];
        let mut line_off = [vec![0u32], vec![0u32]];
        for y in 0..=h {
            for x in 0..=w {
                let p = Point::new(x, y);
                if grid.is_corner(p) {
                    let blocked = !grid.point_cells(p) & 0xf;
                    let c = class_of(blocked);
                    let id = points.len() as u32;
                    at[(y * (w + 1) + x) as usize] = id;
                    points.push(p);
                    class.push(c as u8);
                    blocked_quad.push(blocked);
                    line_x[c].push(x);
                    line_id[c].push(id);
                }
            }
            for c in 0..2 {
                line_off[c].push(line_x[c].len() as u32);
            }
        }
        let mut runs = Vec::new();
        let mut run_off = vec![0u32];
        for r in 0..h {
            let mut c = -1;
            while c <= w {
                if grid.is_free_padded(c, r) {
                    c += 1;
                    continue;
                }
                let c0 = c;
                while c <= w && !grid.is_free_padded(c, r) {
                    c += 1;
                }
                runs.push((c0, c - 1));
            }
            run_off.push(runs.len() as u32);
        }
        CornerIndex {
            width: w,
            height: h,
            points,
            class,
            blocked: blocked_quad,
            at,
            line_x,
            line_id,
            line_off,
            runs,
            run_off,
        }
    }

    #[inline]
    fn corner_at(&self, p: Point) -> u32 {
        self.at[(p.y * (self.width + 1) + p.x) as usize]
    }

    /// Appends to `out` the ids of the corners of class `class` on lattice line `y` with
    /// `x0 <= x <= x1`.
    #[inline]
    fn corners_on_line(&self, class: usize, y: i32, x0: i32, x1: i32, out: &mut Vec<u32>) {
        let (a, b) = (
            self.line_off[class][y as usize] as usize,
            self.line_off[class][y as usize + 1] as usize,
        );
        let xs = &self.line_x[class][a..b];
        let i = xs.partition_point(|&x| x < x0);
        let j = xs.partition_point(|&x| x <= x1);
        out.extend_from_slice(&self.line_id[class][a + i..a + j]);
    }

    /// Blocked runs of cell row `r` (`0 <= r < height`).
    #[inline]
    fn row_runs(&self, r: i32) -> &[(i32, i32)] {
        &self.runs[self.run_off[r as usize] as usize..self.run_off[r as usize + 1] as usize]
    }

    /// Appends to `out` a superset of the corners visible from `src` in the open quadrant
    /// `(sx, sy)` (signs of `x - src.x` and `y - src.y`) whose class is `class`: every corner
    /// joined to `src` by a segment that enters no blocked cell's interior.
    fn sweep_quadrant(
        &self,
        src: Point,
        sx: i32,
        sy: i32,
        class: usize,
        scratch: &mut Sweep,
        out: &mut Vec<u32>,
    ) {
        let Sweep { cur, next } = scratch;
        cur.clear();
        cur.push((Slope { num: 0, den: 1 }, Slope::INF));
        let mut a: i32 = 0;
        loop {
            // Cell row a (relative), between relative lines a and a + 1.
            let (row, line) = if sy > 0 {
                (src.y + a, src.y + a + 1)
            } else {
                (src.y - a - 1, src.y - a - 1)
            };
            if row < 0 || row >= self.height {
                return;
            }
            let runs = self.row_runs(row);
            let (a64, a1) = (i64::from(a), i64::from(a) + 1);
            next.clear();
            for &(lo, hi) in cur.iter() {
                // Relative columns the rays of [lo, hi] cross in this row.
                let bmin = lo.floor_mul(a64);
                let bmax = if hi.is_inf() {
                    i64::from(self.width) + 1
                } else {
                    hi.ceil_mul(a1) - 1
                };
                // Actual column range, clamped to the padded columns.
                let (cmin, cmax) = if sx > 0 {
                    (i64::from(src.x) + bmin, i64::from(src.x) + bmax)
                } else {
                    (i64::from(src.x) - 1 - bmax, i64::from(src.x) - 1 - bmin)
                };
                let cmin = cmin.max(-1) as i32;
                let cmax = cmax.min(i64::from(self.width)) as i32;
                let i = runs.partition_point(|&(_, c1)| c1 < cmin);
                let j = runs.partition_point(|&(c0, _)| c0 <= cmax).max(i);
                let mut lo_cur = lo;
                let mut carve = |(c0, c1): (i32, i32)| -> bool {
                    // Relative columns of the run, increasing.
                    let (b0, b1) = if sx > 0 {
                        (c0 - src.x, c1 - src.x)
                    } else {
                        (src.x - 1 - c1, src.x - 1 - c0)
                    };
                    if b1 < 0 {
                        return true;
                    }
                    // Rays with slope in the open interval (b0/(a+1), (b1+1)/a) enter the run.
                    let l = Slope {
                        num: i64::from(b0),
                        den: a1,
                    };
                    let u = if a == 0 {
                        Slope::INF
                    } else {
                        Slope {
                            num: i64::from(b1) + 1,
                            den: a64,
                        }
                    };
                    if lo_cur.le(l) {
                        let top = l.min(hi);
                        if lo_cur.le(top) {
                            next.push((lo_cur, top));
                        }
                    }
                    lo_cur = lo_cur.max(u);
                    lo_cur.le(hi)
                };
                let mut open = true;
                if sx > 0 {
                    for &run in &runs[i..j] {
                        if !carve(run) {
                            open = false;
                            break;
                        }
                    }
                } else {
                    for &run in runs[i..j].iter().rev() {
                        if !carve(run) {
                            open = false;
                            break;
                        }
                    }
                }
                if open && !lo_cur.is_inf() && lo_cur.le(hi) {
                    next.push((lo_cur, hi));
                }
            }
            std::mem::swap(cur, next);
            if cur.is_empty() {
                return;
            }
            // Candidates on the next lattice line: relative x = k with k/(a+1) in a surviving
            // interval, k >= 1 (the axis is walked separately).
            for &(lo, hi) in cur.iter() {
                let kmin = lo.ceil_mul(a1).max(1);
                let kmax = if hi.is_inf() {
                    i64::from(self.width)
                } else {
                    hi.floor_mul(a1)
                };
                if kmin > kmax {
                    continue;
                }
                let (x0, x1) = if sx > 0 {
                    (i64::from(src.x) + kmin, i64::from(src.x) + kmax)
                } else {
                    (i64::from(src.x) - kmax, i64::from(src.x) - kmin)
                };
                let x0 = x0.max(0) as i32;
                let x1 = x1.min(i64::from(self.width)) as i32;
                if x0 <= x1 {
                    self.corners_on_line(class, line, x0, x1, out);
                }
            }
            a += 1;
        }
    }

    /// Appends to `out` the corners on the axis ray from `src` in direction `(dx, dy)` up to the
    /// first edge between two blocked cells or the map border (a superset of the visible ones).
    fn walk_axis(&self, grid: &Grid, src: Point, dx: i32, dy: i32, out: &mut Vec<u32>) {
        let mut p = src;
        loop {
            let q = Point::new(p.x + dx, p.y + dy);
            if !grid.contains_point(q) {
                return;
            }
            // The unit edge p–q: the two cells beside it.
            let open = if dy == 0 {
                let x = p.x.min(q.x);
                grid.is_free_padded(x, p.y - 1) || grid.is_free_padded(x, p.y)
            } else {
                let y = p.y.min(q.y);
                grid.is_free_padded(p.x - 1, y) || grid.is_free_padded(p.x, y)
            };
            if !open {
                return;
            }
            let id = self.corner_at(q);
            if id != NONE {
                out.push(id);
            }
            if grid.is_double_corner(q) {
                return;
            }
            p = q;
        }
    }
}

/// Scratch space of the sweep: surviving slope intervals of the current and next row.
#[derive(Debug, Default)]
struct Sweep {
    cur: Vec<(Slope, Slope)>,
    next: Vec<(Slope, Slope)>,
}

/// An open-list entry: ordered so that `BinaryHeap` pops the smallest `f` first (ties: larger
/// `g` first).
#[derive(Debug, Clone, Copy)]
struct Entry {
    f: f64,
    g: f64,
    node: u32,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then_with(|| self.g.total_cmp(&other.g))
            .then_with(|| other.node.cmp(&self.node))
    }
}

/// Per-query search state, reused across queries (reset by bumping an epoch).
#[derive(Debug, Default)]
struct Search {
    /// Index of the goal node in the arrays below.
    goal: usize,
    epoch: u32,
    stamp: Vec<u32>,
    g: Vec<f64>,
    parent: Vec<u32>,
    heap: BinaryHeap<Entry>,
    sweep: Sweep,
    cand: Vec<u32>,
    start_succ: Vec<u32>,
    stats: Stats,
    /// The query being searched (kept between the steps of a stepped search).
    pending: Option<(Point, Point)>,
    /// How the last query ended: its endpoints and whether the goal was reached.
    done: Option<(Point, Point, bool)>,
    /// The entry popped when the last step's budget ran out, expanded first by the next.
    held: Option<Entry>,
}

impl Search {
    /// Offers node `v` the distance `g` via `u` (`h` is `v`'s heuristic).
    #[inline]
    fn relax(&mut self, stats: &mut Stats, u: u32, v: u32, g: f64, h: f64) {
        stats.generated += 1;
        let vi = v as usize;
        if self.stamp[vi] == self.epoch && self.g[vi] <= g {
            return;
        }
        // No use queueing a node that cannot beat the best path to the goal found so far.
        if self.stamp[self.goal] == self.epoch && self.g[self.goal] <= g + h {
            return;
        }
        self.stamp[vi] = self.epoch;
        self.g[vi] = g;
        self.parent[vi] = u;
        self.heap.push(Entry {
            f: g + h,
            g,
            node: v,
        });
        stats.heap_ops += 1;
    }
}

/// How much of a [`VgPlanner`]'s adjacency cache is filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheInfo {
    /// Convex corners of the map (graph nodes besides the start and goal).
    pub corners: usize,
    /// Corners whose tangent visible neighbours have been computed and cached.
    pub cached_corners: usize,
    /// Directed corner–corner edges stored in the cache.
    pub cached_edges: usize,
}

/// The exact visibility-graph planner (see the [module documentation](self)).
///
/// Built once per grid; keeps a cache of corner adjacencies that grows across queries, and
/// reusable search arrays, so a warm query allocates only when the cache grows. One planner per
/// thread.
#[derive(Debug)]
pub struct VgPlanner<G> {
    grid: G,
    index: CornerIndex,
    /// Cached tangent visible corners of each corner; `None` until first expanded.
    adj: Vec<Option<Box<[u32]>>>,
    info: CacheInfo,
    search: Search,
}

impl<G: Deref<Target = Grid>> VgPlanner<G> {
    /// Indexes the convex corners of `grid` (time and memory linear in the map's area).
    pub fn new(grid: G) -> Self {
        let index = CornerIndex::new(&grid);
        let n = index.points.len();
        VgPlanner {
            grid,
            adj: vec![None; n],
            info: CacheInfo {
                corners: n,
                cached_corners: 0,
                cached_edges: 0,
            },
            index,
            search: Search::default(),
        }
    }

    /// The grid this planner was built for.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The number of convex corners of the map.
    pub fn corner_count(&self) -> usize {
        self.info.corners
    }

    /// How much of the adjacency cache is filled.
    pub fn cache_info(&self) -> CacheInfo {
        self.info
    }

    /// Appends to `out` the corners visible from `src` (exact) that are tangent at the corner
    /// end, excluding `src` itself; when `src_class` is given (the source is a corner of that
    /// class), only directions tangent at the source are searched.
    fn visible_tangent_corners(
        index: &CornerIndex,
        grid: &Grid,
        src: Point,
        src_class: Option<usize>,
        sweep: &mut Sweep,
        cand: &mut Vec<u32>,
        out: &mut Vec<u32>,
    ) {
        cand.clear();
        for (sx, sy) in [(1, 1), (-1, -1), (1, -1), (-1, 1)] {
            // Directions in this quadrant have sign(d.x * d.y) = sx * sy: corners of class 1
            // need it positive, class 0 negative; likewise the source.
            let class = usize::from(sx * sy > 0);
            if src_class.is_some_and(|c| c != class) {
                continue;
            }
            index.sweep_quadrant(src, sx, sy, class, sweep, cand);
        }
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            index.walk_axis(grid, src, dx, dy, cand);
        }
        for &id in cand.iter() {
            let q = index.points[id as usize];
            debug_assert!(q != src);
            let d = Point::new(q.x - src.x, q.y - src.y);
            if tangent(usize::from(index.class[id as usize]), d)
                && src_class.is_none_or(|c| tangent(c, d))
                && grid.segment_is_legal(src, q)
            {
                out.push(id);
            }
        }
    }

    /// Makes sure corner `v`'s adjacency is cached.
    fn ensure_adj(&mut self, v: u32) {
        if self.adj[v as usize].is_some() {
            return;
        }
        let src = self.index.points[v as usize];
        let class = usize::from(self.index.class[v as usize]);
        let mut out = Vec::new();
        Self::visible_tangent_corners(
            &self.index,
            &self.grid,
            src,
            Some(class),
            &mut self.search.sweep,
            &mut self.search.cand,
            &mut out,
        );
        self.info.cached_corners += 1;
        self.info.cached_edges += out.len();
        self.adj[v as usize] = Some(out.into_boxed_slice());
    }

    /// Fills the adjacency cache for every corner (for measurements and warm benchmarks).
    pub fn fill_cache(&mut self) {
        for v in 0..self.index.points.len() as u32 {
            self.ensure_adj(v);
        }
    }

    /// Answers one query: the shortest legal path from `start` to `goal`.
    ///
    /// `out.stats` counts expanded nodes, generated successors (offered to the open list after
    /// the taut-turn filter, whether queued or not) and heap pushes and pops.
    ///
    /// # Errors
    /// The error of [`Grid::check_query`] for an endpoint off the map or on a blocked cell;
    /// `out` is then cleared.
    pub fn find_path(
        &mut self,
        start: Point,
        goal: Point,
        out: &mut Answer,
    ) -> Result<Status, QueryError> {
        self.find_path_traced(start, goal, out, &mut ())
    }

    /// [`VgPlanner::find_path`], sending every expanded node (the start or a corner) to
    /// `tracer` as a [`TraceEvent::Vertex`] with its parent, in order of expansion (one event
    /// per node counted in `out.stats.expanded`). With the tracer `()` the recording is
    /// compiled away.
    ///
    /// # Errors
    /// As [`VgPlanner::find_path`].
    pub fn find_path_traced<T: Tracer>(
        &mut self,
        start: Point,
        goal: Point,
        out: &mut Answer,
        tracer: &mut T,
    ) -> Result<Status, QueryError> {
        if let Err(e) = self.begin(start, goal) {
            out.clear();
            return Err(e);
        }
        let Step::Done(status) = self.run_traced(u64::MAX, tracer) else {
            unreachable!("an unlimited run ends");
        };
        self.answer(out);
        Ok(status)
    }

    /// Begins a query for [`VgPlanner::run`], ending any earlier one; nothing is expanded yet.
    ///
    /// # Errors
    /// As [`VgPlanner::find_path`]; no query is then pending.
    pub fn begin(&mut self, start: Point, goal: Point) -> Result<(), QueryError> {
        let s = &mut self.search;
        s.pending = None;
        s.done = None;
        s.held = None;
        s.stats = Stats::default();
        self.grid.check_query(start, goal)?;
        if start == goal {
            s.done = Some((start, goal, true));
            return Ok(());
        }
        let n = self.index.points.len();
        let (start_id, goal_id) = (n as u32, n as u32 + 1);
        if s.stamp.len() != n + 2 {
            s.stamp = vec![0; n + 2];
            s.g = vec![f64::INFINITY; n + 2];
            s.parent = vec![NONE; n + 2];
            s.epoch = 0;
        }
        s.epoch = s.epoch.wrapping_add(1);
        if s.epoch == 0 {
            s.stamp.fill(0);
            s.epoch = 1;
        }
        s.heap.clear();
        s.goal = goal_id as usize;
        s.stamp[start_id as usize] = s.epoch;
        s.g[start_id as usize] = 0.0;
        s.parent[start_id as usize] = NONE;
        s.heap.push(Entry {
            f: start.dist(goal),
            g: 0.0,
            node: start_id,
        });
        s.stats.heap_ops += 1;
        s.pending = Some((start, goal));
        Ok(())
    }

    /// Runs at most `budget` expansions of the query begun by [`VgPlanner::begin`].
    /// `Done(Unreachable)` when no query is pending.
    pub fn run(&mut self, budget: u64) -> Step {
        self.run_traced(budget, &mut ())
    }

    /// [`VgPlanner::run`], recording expansions as [`VgPlanner::find_path_traced`] does.
    pub fn run_traced<T: Tracer>(&mut self, budget: u64, tracer: &mut T) -> Step {
        let Some((start, goal)) = self.search.pending else {
            return Step::Done(if self.search.done.is_some_and(|d| d.2) {
                Status::Found
            } else {
                Status::Unreachable
            });
        };
        let n = self.index.points.len();
        let (start_id, goal_id) = (n as u32, n as u32 + 1);
        let point = |index: &CornerIndex, v: u32| -> Point {
            if v == start_id {
                start
            } else if v == goal_id {
                goal
            } else {
                index.points[v as usize]
            }
        };
        let mut stats = self.search.stats;
        let stop_at = stats.expanded.saturating_add(budget);
        let mut found = None;
        loop {
            let e = match self.search.held.take() {
                Some(e) => e,
                None => {
                    let Some(e) = self.search.heap.pop() else {
                        found = Some(false);
                        break;
                    };
                    stats.heap_ops += 1;
                    e
                }
            };
            let Entry { g: gu, node: u, .. } = e;
            if gu > self.search.g[u as usize] {
                continue; // stale entry
            }
            if u == goal_id {
                found = Some(true);
                break;
            }
            if stats.expanded >= stop_at {
                self.search.held = Some(e);
                break;
            }
            stats.expanded += 1;
            let pu = point(&self.index, u);
            if T::ENABLED {
                let parent =
                    (u != start_id).then(|| point(&self.index, self.search.parent[u as usize]));
                tracer.record(TraceEvent::Vertex { at: pu, parent });
            }
            // At a corner, the path only goes on tangentially and taut: `arrive` is the
            // direction it came in by, `into` points into the corner's blocked cell.
            let (arrive, into, class) = if u == start_id {
                (Point::new(0, 0), Point::new(0, 0), 0)
            } else {
                let pp = point(&self.index, self.search.parent[u as usize]);
                let ui = u as usize;
                (
                    Point::new(pu.x - pp.x, pu.y - pp.y),
                    blocked_dir(self.index.blocked[ui]),
                    usize::from(self.index.class[ui]),
                )
            };
            let onward = |to: Point| Point::new(to.x - pu.x, to.y - pu.y);
            // The goal, directly.
            let to_goal_ok = if u == start_id {
                self.grid.endpoint_allows(start, goal)
            } else {
                let d = onward(goal);
                pu != goal && tangent(class, d) && taut(arrive, d, into)
            };
            if to_goal_ok
                && self.grid.endpoint_allows(goal, pu)
                && self.grid.segment_is_legal(pu, goal)
            {
                self.search
                    .relax(&mut stats, u, goal_id, gu + pu.dist(goal), 0.0);
            }
            if u == start_id {
                let s = &mut self.search;
                let mut succ = std::mem::take(&mut s.start_succ);
                succ.clear();
                Self::visible_tangent_corners(
                    &self.index,
                    &self.grid,
                    start,
                    None,
                    &mut s.sweep,
                    &mut s.cand,
                    &mut succ,
                );
                for &v in &succ {
                    let pv = self.index.points[v as usize];
                    if self.grid.endpoint_allows(start, pv) {
                        s.relax(&mut stats, u, v, gu + pu.dist(pv), pv.dist(goal));
                    }
                }
                s.start_succ = succ;
            } else {
                self.ensure_adj(u);
                let adj = self.adj[u as usize].as_deref().unwrap_or(&[]);
                for &v in adj {
                    let pv = self.index.points[v as usize];
                    if taut(arrive, onward(pv), into) {
                        self.search
                            .relax(&mut stats, u, v, gu + pu.dist(pv), pv.dist(goal));
                    }
                }
            }
        }
        self.search.stats = stats;
        let Some(found) = found else {
            return Step::Pending;
        };
        self.search.pending = None;
        self.search.done = Some((start, goal, found));
        Step::Done(if found {
            Status::Found
        } else {
            Status::Unreachable
        })
    }

    /// The answer of the last query into `out` (its path once found; the statistics so far
    /// either way).
    pub fn answer(&self, out: &mut Answer) {
        out.clear();
        let s = &self.search;
        out.stats = s.stats;
        let Some((start, goal, true)) = s.done else {
            return;
        };
        if start == goal {
            out.waypoints.push(start);
            out.length = 0.0;
            return;
        }
        let n = self.index.points.len();
        let (start_id, goal_id) = (n as u32, n as u32 + 1);
        let mut v = goal_id;
        while v != NONE {
            out.waypoints.push(if v == start_id {
                start
            } else if v == goal_id {
                goal
            } else {
                self.index.points[v as usize]
            });
            v = s.parent[v as usize];
        }
        out.waypoints.reverse();
        out.length = out.waypoints.windows(2).map(|w| w[0].dist(w[1])).sum();
    }

    /// The statistics of the current (or last) query.
    pub fn stats(&self) -> Stats {
        self.search.stats
    }

    /// Drops the pending query.
    pub fn cancel(&mut self) {
        self.search.pending = None;
        self.search.done = None;
        self.search.held = None;
    }
}

impl<G: Deref<Target = Grid>> Planner for VgPlanner<G> {
    fn name(&self) -> &'static str {
        "vg"
    }

    fn guarantee(&self) -> Guarantee {
        Guarantee::Optimal
    }

    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        self.find_path(start, goal, out)
    }

    /// Records each expanded node as a [`TraceEvent::Vertex`].
    fn plan_traced(
        &mut self,
        start: Point,
        goal: Point,
        out: &mut Answer,
        trace: &mut Vec<TraceEvent>,
    ) -> Result<Status, QueryError> {
        trace.clear();
        self.find_path_traced(start, goal, out, trace)
    }

    fn stepper(&mut self) -> Option<&mut dyn Stepper> {
        Some(self)
    }
}

impl<G: Deref<Target = Grid>> Stepper for VgPlanner<G> {
    fn begin(&mut self, start: Point, goal: Point) -> Result<(), QueryError> {
        VgPlanner::begin(self, start, goal)
    }

    fn step(&mut self, budget: u64) -> Step {
        self.run(budget)
    }

    fn answer(&self, out: &mut Answer) {
        VgPlanner::answer(self, out);
    }

    fn stats(&self) -> Stats {
        VgPlanner::stats(self)
    }

    fn cancel(&mut self) {
        VgPlanner::cancel(self);
    }
}
