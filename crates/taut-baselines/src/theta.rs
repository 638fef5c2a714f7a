//! Theta* and Lazy Theta*: any-angle search over the lattice points of the grid.
//!
//! # Graph
//! The search runs over lattice points `(x, y)`, `0 <= x <= W`, `0 <= y <= H`. A point's
//! neighbours are the 8 adjacent lattice points reachable by a legal unit segment (a diagonal
//! unit segment crosses one cell, which must be free; an axis-parallel one runs along an edge,
//! which needs a free cell on at least one side). The path of a search state is its parent
//! chain, and `g` is the Euclidean length of that polyline.
//!
//! # Theta* (Nash, Daniel, Koenig, Felner 2007)
//! A* over that graph, except that when a state `s` with parent `p` generates a neighbour `v`,
//! it first tries "path 2", `p → v` directly, which is allowed when the segment is legal
//! ([`Grid::segment_is_legal`], exact); otherwise it uses "path 1", `s → v`, as A* would. So
//! parents need not be neighbours and the path bends only where an obstacle forces it.
//!
//! # Lazy Theta* (Nash, Koenig, Tovey 2010)
//! Generation optimistically assumes path 2 and checks line of sight only when a state is
//! popped for expansion. If the segment to its parent turns out to be blocked, the state takes
//! the best already-expanded neighbour as parent instead (path 1 from there). This trades the
//! many line-of-sight checks of Theta* for one per expansion.
//!
//! # Double corners (`docs/conventions.md#turning-at-a-double-corner`)
//! A lattice point where two blocked cells touch diagonally has two free sides, and a path may
//! touch it but never pass from one side to the other. So:
//! - a *double-corner vertex has two states*, one per free side; the side of a state is the
//!   side its parent lies on (the direction from which the path arrives). Ordinary vertices
//!   have one state. With one state per vertex, closing a double corner from one side would
//!   wrongly hide the other side, and Theta* could call a reachable goal unreachable;
//! - extending `w → u → v` through a double corner `u` requires `v` on the same side as `w`
//!   ([`Grid::turn_allowed`]); this is checked for path 1 at `u` and for path 2 at the parent;
//! - the start, if it is a double corner, owns the state of its south-east side, so every
//!   first segment satisfies [`Grid::endpoint_allows`]; the search ends only when the state of
//!   the goal's south-east side is reached, so the last segment does too.
//!
//! Path 2 may land in the other state of `v` than path 1 would (it arrives from another
//! side). Then both are relaxed: path 2 into its state and path 1 into its own. This keeps the
//! search complete: every state reachable in the graph above is reached. In Lazy Theta* such
//! an optimistic path-2 state may find, once popped, that its parent is out of sight and no
//! expanded neighbour lies on its side; it is then dropped (reset to unreached, so a later
//! relaxation may still reach it) instead of being expanded.
//!
//! # Context
//! [`Theta`] keeps flat per-state records (cost, parent, epoch tag) for `2 (W+1) (H+1)`
//! states (vertex `i`'s second state is `i + (W+1)(H+1)`, touched only at double corners) and
//! a binary-heap open list with lazy deletion; a query bumps an epoch instead of clearing, so
//! a warm context allocates nothing, and one context may serve grids of any size.

use std::f64::consts::SQRT_2;
use std::ops::Deref;

use taut_grid::{
    Answer, Grid, Guarantee, Planner, Point, QueryError, Stats, Status, Step, Stepper, TraceEvent,
    Tracer, path_length, quad,
};

use crate::arena::{Arena, MOVES};
use taut_search::{Entry, OpenList};

/// Which algorithm [`Theta::search`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Theta*: line of sight checked for every generated neighbour.
    Theta,
    /// Lazy Theta*: line of sight checked once per expansion.
    Lazy,
}

/// For each move, the cells around the source point of which one must be free for the unit
/// segment to be legal: an axis move runs between two cells, a diagonal one crosses one.
const MOVE_CELLS: [u8; 8] = [
    quad::NE | quad::SE,
    quad::NW | quad::SW,
    quad::SW | quad::SE,
    quad::NW | quad::NE,
    quad::SE,
    quad::NE,
    quad::SW,
    quad::NW,
];

/// Step lengths of [`MOVES`].
const STEP: [f64; 8] = [1.0, 1.0, 1.0, 1.0, SQRT_2, SQRT_2, SQRT_2, SQRT_2];

/// For a double corner with mask `m`, whether the direction `(dx, dy)` (of a legal segment
/// leaving it) lies on its southern free side (south-east or south-west, whichever is free).
/// This decides which of the vertex's two states a path arriving from that direction uses.
#[inline(always)]
fn south(m: u8, dx: i32, dy: i32) -> bool {
    quad::double_corner_side(m, Point::new(dx, dy)) & (quad::SE | quad::SW) != 0
}

/// Per-query constants.
#[derive(Debug, Clone, Copy)]
struct Layout {
    /// Lattice points per row: `W + 1`.
    stride: u32,
    /// Number of lattice points: `(W + 1) (H + 1)`; also the offset of second states.
    n: u32,
}

impl Layout {
    #[inline(always)]
    fn id(self, x: i32, y: i32) -> u32 {
        y as u32 * self.stride + x as u32
    }

    #[inline(always)]
    fn point(self, state: u32) -> Point {
        let v = if state >= self.n {
            state - self.n
        } else {
            state
        };
        Point::new((v % self.stride) as i32, (v / self.stride) as i32)
    }

    /// The state of vertex `id` (cell mask `m`) for a path arriving from direction `(dx, dy)`
    /// (pointing from the vertex towards its parent).
    #[inline(always)]
    fn state(self, id: u32, m: u8, dx: i32, dy: i32) -> u32 {
        if quad::is_double_corner(m) && south(m, dx, dy) {
            id + self.n
        } else {
            id
        }
    }

    /// Whether the path of `state` (at a vertex with mask `m`) may continue in direction
    /// `(dx, dy)`: always, unless the vertex is a double corner and the direction lies on the
    /// other side than the one the state arrived from.
    #[inline(always)]
    fn may_leave(self, state: u32, m: u8, dx: i32, dy: i32) -> bool {
        !quad::is_double_corner(m) || south(m, dx, dy) == (state >= self.n)
    }
}

/// A reusable Theta* / Lazy Theta* search context (see the module docs). Create one per
/// thread and reuse it across queries, variants and grids.
#[derive(Debug, Clone, Default)]
pub struct Theta {
    states: Arena,
    open: OpenList,
    stats: Stats,
    /// The query being searched (kept between the steps of a stepped search).
    pending: Option<Pending>,
    /// How the last query ended.
    done: Option<Done>,
    /// The entry popped (and, in Lazy Theta*, given its parent) when the last step's budget
    /// ran out, expanded first by the next.
    held: Option<Entry>,
}

/// A query begun and not ended.
#[derive(Debug, Clone, Copy)]
struct Pending {
    variant: Variant,
    start: Point,
    goal: Point,
    lay: Layout,
    start_state: u32,
    goal_state: u32,
}

/// How a query ended: its endpoints, and the goal's state when it was reached.
#[derive(Debug, Clone, Copy)]
struct Done {
    start: Point,
    goal: Point,
    found: Option<(Layout, u32, u32)>,
}

impl Theta {
    /// An empty context; it sizes itself on the first query.
    pub fn new() -> Self {
        Theta::default()
    }

    /// Finds an any-angle path from lattice point `start` to lattice point `goal` with the
    /// given variant, filling `out` with the waypoints (the parent chain, start first) and the
    /// Euclidean length of that polyline. The path obeys every rule of `docs/conventions.md`
    /// (it passes [`Grid::check_path`]); it is usually short but not guaranteed optimal.
    ///
    /// Returns [`Status::Unreachable`] (no waypoints, infinite length) exactly when no legal
    /// path exists. `start == goal` gives the single waypoint `start` and length 0.
    ///
    /// # Errors
    /// The error of [`Grid::check_query`] when an endpoint is off the map or blocked; `out` is
    /// then cleared.
    ///
    /// # Errors
    /// The endpoint errors of [`Grid::check_query`], and [`QueryError::MapTooLarge`] for a
    /// grid of more than `u32::MAX / 2` lattice points.
    ///
    /// # Example
    /// ```
    /// use taut_baselines::theta::{Theta, Variant};
    /// use taut_grid::{Answer, Grid, Point, Status};
    ///
    /// let grid = Grid::from_ascii(&["....", "....", "...."]).unwrap();
    /// let (mut theta, mut out) = (Theta::new(), Answer::default());
    /// let (s, g) = (Point::new(0, 0), Point::new(3, 2));
    /// assert_eq!(theta.search(&grid, Variant::Lazy, s, g, &mut out), Ok(Status::Found));
    /// assert_eq!(out.waypoints, [s, g]); // a straight line on an open map
    /// assert_eq!(out.length, 13f64.sqrt());
    /// ```
    pub fn search(
        &mut self,
        grid: &Grid,
        variant: Variant,
        start: Point,
        goal: Point,
        out: &mut Answer,
    ) -> Result<Status, QueryError> {
        self.search_traced(grid, variant, start, goal, out, &mut ())
    }

    /// [`Theta::search`], sending every expanded state to `tracer` as a
    /// [`TraceEvent::Vertex`] with its parent, in order of expansion (one event per state
    /// counted in `out.stats.expanded`). With the tracer `()` the recording is compiled away.
    ///
    /// # Errors
    /// As [`Theta::search`].
    pub fn search_traced<T: Tracer>(
        &mut self,
        grid: &Grid,
        variant: Variant,
        start: Point,
        goal: Point,
        out: &mut Answer,
        tracer: &mut T,
    ) -> Result<Status, QueryError> {
        if let Err(e) = self.begin(grid, variant, start, goal) {
            out.clear();
            return Err(e);
        }
        let Step::Done(status) = self.run_traced(grid, u64::MAX, tracer) else {
            unreachable!("an unlimited run ends");
        };
        self.answer(out);
        Ok(status)
    }

    /// Begins a query for [`Theta::run`], ending any earlier one; nothing is expanded yet.
    ///
    /// # Errors
    /// As [`Theta::search`]; no query is then pending.
    pub fn begin(
        &mut self,
        grid: &Grid,
        variant: Variant,
        start: Point,
        goal: Point,
    ) -> Result<(), QueryError> {
        self.pending = None;
        self.done = None;
        self.held = None;
        self.stats = Stats::default();
        grid.check_query(start, goal)?;
        if start == goal {
            self.done = Some(Done {
                start,
                goal,
                found: None,
            });
            return Ok(());
        }
        let stride = grid.width() as u64 + 1;
        let points = stride * (grid.height() as u64 + 1);
        if 2 * points > u64::from(u32::MAX) {
            let limit = u64::from(u32::MAX) / 2;
            return Err(QueryError::MapTooLarge {
                planner: "theta",
                nodes: points,
                limit,
            });
        }
        let lay = Layout {
            stride: stride as u32,
            n: points as u32,
        };
        self.states.begin(2 * points as usize);
        self.open.clear();

        let start_m = grid.point_cells_padded(Point::new(start.x, start.y));
        // A double-corner start leaves through its south-east side: give it that state.
        let start_state = lay.state(lay.id(start.x, start.y), start_m, 1, 1);
        let goal_m = grid.point_cells_padded(Point::new(goal.x, goal.y));
        // Only an arrival on the goal's south-east side ends the search.
        let goal_state = lay.state(lay.id(goal.x, goal.y), goal_m, 1, 1);
        self.states.set_open(start_state, 0.0, start_state);
        self.open.push(Entry {
            f: start.dist(goal),
            g: 0.0,
            id: start_state,
        });
        self.stats.heap_ops += 1;
        self.pending = Some(Pending {
            variant,
            start,
            goal,
            lay,
            start_state,
            goal_state,
        });
        Ok(())
    }

    /// Runs at most `budget` expansions of the query begun by [`Theta::begin`] on the same
    /// grid. `Done(Unreachable)` when no query is pending.
    pub fn run(&mut self, grid: &Grid, budget: u64) -> Step {
        self.run_traced(grid, budget, &mut ())
    }

    /// [`Theta::run`], recording expansions as [`Theta::search_traced`] does.
    pub fn run_traced<T: Tracer>(&mut self, grid: &Grid, budget: u64, tracer: &mut T) -> Step {
        let Some(q) = self.pending else {
            return Step::Done(match self.done {
                Some(Done { found: Some(_), .. }) => Status::Found,
                Some(Done { start, goal, .. }) if start == goal => Status::Found,
                _ => Status::Unreachable,
            });
        };
        let (lay, variant, start_state, goal_state) =
            (q.lay, q.variant, q.start_state, q.goal_state);
        let stop_at = self.stats.expanded.saturating_add(budget);
        let mut found = None;
        loop {
            let (e, s) = match self.held.take() {
                // Already checked and (Lazy Theta*) given its parent.
                Some(e) => (e, e.id),
                None => {
                    let Some(e) = self.open.pop() else {
                        found = Some(false);
                        break;
                    };
                    self.stats.heap_ops += 1;
                    let s = e.id;
                    if self.states.closed(s) || e.g > self.states.g(s) {
                        continue; // stale
                    }
                    if variant == Variant::Lazy && !self.set_vertex(grid, lay, s, start_state) {
                        continue; // dropped: its optimistic parent is out of sight
                    }
                    (e, s)
                }
            };
            if s == goal_state {
                found = Some(true);
                break;
            }
            if self.stats.expanded >= stop_at {
                self.held = Some(e);
                break;
            }
            self.states.close(s);
            self.stats.expanded += 1;
            if T::ENABLED {
                let parent = (s != start_state).then(|| lay.point(self.states.parent(s)));
                tracer.record(TraceEvent::Vertex {
                    at: lay.point(s),
                    parent,
                });
            }
            self.expand(grid, lay, variant, s, start_state, q.goal);
        }
        let Some(found) = found else {
            return Step::Pending;
        };
        self.pending = None;
        self.done = Some(Done {
            start: q.start,
            goal: q.goal,
            found: found.then_some((lay, start_state, goal_state)),
        });
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
        out.stats = self.stats;
        match self.done {
            Some(Done {
                start,
                goal,
                found: None,
            }) if start == goal => {
                out.waypoints.push(start);
                out.length = 0.0;
            }
            Some(Done {
                start,
                found: Some((lay, start_state, goal_state)),
                ..
            }) => {
                let mut s = goal_state;
                while s != start_state {
                    out.waypoints.push(lay.point(s));
                    s = self.states.parent(s);
                }
                out.waypoints.push(start);
                out.waypoints.reverse();
                out.length = path_length(&out.waypoints);
            }
            _ => {}
        }
    }

    /// The statistics of the current (or last) query.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Drops the pending query.
    pub fn cancel(&mut self) {
        self.pending = None;
        self.done = None;
        self.held = None;
    }

    #[inline(always)]
    fn expand(
        &mut self,
        grid: &Grid,
        lay: Layout,
        variant: Variant,
        s: u32,
        start_state: u32,
        goal: Point,
    ) {
        let u = lay.point(s);
        let mu = grid.point_cells_padded(Point::new(u.x, u.y));
        let gs = self.states.g(s);
        let p = self.states.parent(s);
        let is_start = s == start_state;
        let pu = lay.point(p);
        let mp = grid.point_cells_padded(Point::new(pu.x, pu.y));
        let gp = self.states.g(p);
        for k in 0..8 {
            if mu & MOVE_CELLS[k] == 0 {
                continue;
            }
            let (dx, dy) = MOVES[k];
            if !lay.may_leave(s, mu, dx, dy) {
                continue; // would cross the double corner u (or leave the start on its NW)
            }
            self.stats.generated += 1;
            let v = Point::new(u.x + dx, u.y + dy);
            let vid = lay.id(v.x, v.y);
            let mv = grid.point_cells_padded(Point::new(v.x, v.y));
            let s1 = lay.state(vid, mv, -dx, -dy);
            // Path 2: from the parent straight to v.
            if !is_start && pu != v && lay.may_leave(p, mp, v.x - pu.x, v.y - pu.y) {
                let s2 = lay.state(vid, mv, pu.x - v.x, pu.y - v.y);
                if self.states.closed(s2) {
                    if s2 == s1 {
                        continue;
                    }
                } else {
                    let cand = gp + pu.dist(v);
                    if cand >= self.states.g(s2) {
                        // Path 1 into the same state is no shorter (triangle inequality).
                        if s2 == s1 {
                            continue;
                        }
                    } else if variant == Variant::Lazy || grid.segment_is_legal(pu, v) {
                        self.relax(s2, cand, p, v, goal);
                        if s2 == s1 {
                            continue;
                        }
                    }
                }
            }
            // Path 1: from s to its neighbour v.
            if !self.states.closed(s1) {
                let cand = gs + STEP[k];
                if cand < self.states.g(s1) {
                    self.relax(s1, cand, s, v, goal);
                }
            }
        }
    }

    /// Records the improved cost `g` (via `parent`) of `state` at point `v` and queues it.
    #[inline(always)]
    fn relax(&mut self, state: u32, g: f64, parent: u32, v: Point, goal: Point) {
        self.states.set_open(state, g, parent);
        self.open.push(Entry {
            f: g + v.dist(goal),
            g,
            id: state,
        });
        self.stats.heap_ops += 1;
    }

    /// Lazy Theta*'s check when `s` is popped: keeps the optimistic parent if it is in sight,
    /// else re-parents `s` to its best expanded neighbour on the same side. Returns `false`
    /// (and resets `s` to unreached) when there is none.
    // Inlined into `search_traced` as when it had one caller: that function is instantiated
    // once per tracer, and LLVM then kept this out of line (+8 % instructions, callgrind).
    #[inline(always)]
    fn set_vertex(&mut self, grid: &Grid, lay: Layout, s: u32, start_state: u32) -> bool {
        if s == start_state {
            return true;
        }
        let v = lay.point(s);
        let mv = grid.point_cells_padded(Point::new(v.x, v.y));
        let pu = lay.point(self.states.parent(s));
        let (ax, ay) = (pu.x - v.x, pu.y - v.y);
        let in_sight = if ax.abs() <= 1 && ay.abs() <= 1 {
            let k = MOVES.iter().position(|&d| d == (ax, ay)).unwrap_or(0);
            mv & MOVE_CELLS[k] != 0
        } else {
            grid.segment_is_legal(pu, v)
        };
        if in_sight {
            return true;
        }
        let mut best = f64::INFINITY;
        let mut best_parent = 0;
        for k in 0..8 {
            if mv & MOVE_CELLS[k] == 0 {
                continue;
            }
            let (dx, dy) = MOVES[k];
            if quad::is_double_corner(mv) && south(mv, dx, dy) != (s >= lay.n) {
                continue; // that neighbour is on the other side of v
            }
            let (wx, wy) = (v.x + dx, v.y + dy);
            let wid = lay.id(wx, wy);
            let mw = grid.point_cells_padded(Point::new(wx, wy));
            let second = if quad::is_double_corner(mw) { 2 } else { 1 };
            for t in (0..second).map(|i| wid + i * lay.n) {
                if !self.states.closed(t) || !lay.may_leave(t, mw, -dx, -dy) {
                    continue;
                }
                let cand = self.states.g(t) + STEP[k];
                if cand < best {
                    best = cand;
                    best_parent = t;
                }
            }
        }
        // A dropped state reads as unreached (g = ∞), so a later relaxation may revive it.
        self.states.set_open(s, best, best_parent);
        best.is_finite()
    }
}

/// [`Theta`] bound to one grid and variant, as a [`Planner`] (names `theta` and `lazy-theta`,
/// not optimal).
#[derive(Debug, Clone)]
pub struct ThetaPlanner<G> {
    grid: G,
    variant: Variant,
    ctx: Theta,
}

impl<G: Deref<Target = Grid>> ThetaPlanner<G> {
    /// A planner running `variant` on `grid` with a fresh context.
    pub fn new(grid: G, variant: Variant) -> Self {
        ThetaPlanner {
            grid,
            variant,
            ctx: Theta::new(),
        }
    }
}

impl<G: Deref<Target = Grid>> Planner for ThetaPlanner<G> {
    fn name(&self) -> &'static str {
        match self.variant {
            Variant::Theta => "theta",
            Variant::Lazy => "lazy-theta",
        }
    }

    fn guarantee(&self) -> Guarantee {
        Guarantee::Any
    }

    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        self.ctx.search(&self.grid, self.variant, start, goal, out)
    }

    /// Records each expanded state as a [`TraceEvent::Vertex`].
    fn plan_traced(
        &mut self,
        start: Point,
        goal: Point,
        out: &mut Answer,
        trace: &mut Vec<TraceEvent>,
    ) -> Result<Status, QueryError> {
        trace.clear();
        self.ctx
            .search_traced(&self.grid, self.variant, start, goal, out, trace)
    }

    fn stepper(&mut self) -> Option<&mut dyn Stepper> {
        Some(self)
    }
}

impl<G: Deref<Target = Grid>> Stepper for ThetaPlanner<G> {
    fn begin(&mut self, start: Point, goal: Point) -> Result<(), QueryError> {
        self.ctx.begin(&self.grid, self.variant, start, goal)
    }

    fn step(&mut self, budget: u64) -> Step {
        self.ctx.run(&self.grid, budget)
    }

    fn answer(&self, out: &mut Answer) {
        self.ctx.answer(out);
    }

    fn stats(&self) -> Stats {
        self.ctx.stats()
    }

    fn cancel(&mut self) {
        self.ctx.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small grids covering every 2×2 pattern, with borders.
    fn grids() -> Vec<Grid> {
        (0u32..512)
            .map(|bits| Grid::from_fn(3, 3, |x, y| bits >> (y * 3 + x) & 1 == 1))
            .collect()
    }

    #[test]
    fn unit_move_table_matches_segment_is_legal() {
        for g in grids() {
            for y in 0..=3 {
                for x in 0..=3 {
                    let m = g.point_cells_padded(Point::new(x, y));
                    assert_eq!(m, g.point_cells(Point::new(x, y)));
                    for (k, &(dx, dy)) in MOVES.iter().enumerate() {
                        let legal =
                            g.segment_is_legal(Point::new(x, y), Point::new(x + dx, y + dy));
                        assert_eq!(m & MOVE_CELLS[k] != 0, legal, "{g:?} ({x},{y}) move {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn sides_match_turn_allowed_and_endpoint_allows() {
        for g in grids() {
            for y in 0..=3 {
                for x in 0..=3 {
                    let u = Point::new(x, y);
                    let m = g.point_cells_padded(Point::new(x, y));
                    assert_eq!(quad::is_double_corner(m), g.is_double_corner(u));
                    if !quad::is_double_corner(m) {
                        continue;
                    }
                    let legal: Vec<(i32, i32)> = (0..8)
                        .filter(|&k| m & MOVE_CELLS[k] != 0)
                        .map(|k| MOVES[k])
                        .collect();
                    let pt = |(dx, dy): (i32, i32)| Point::new(x + dx, y + dy);
                    for &a in &legal {
                        // The start state (its south-east side) may leave towards `a` exactly
                        // when the endpoint rule allows it. (Only NW|SE double corners can be
                        // endpoints: an endpoint's own, south-east cell is free.)
                        let lay = Layout { stride: 4, n: 16 };
                        let start_state = lay.state(lay.id(x, y), m, 1, 1);
                        if m == quad::NW | quad::SE {
                            assert_eq!(
                                lay.may_leave(start_state, m, a.0, a.1),
                                g.endpoint_allows(u, pt(a))
                            );
                        }
                        for &b in &legal {
                            let state = lay.state(lay.id(x, y), m, a.0, a.1);
                            assert_eq!(
                                lay.may_leave(state, m, b.0, b.1),
                                g.turn_allowed(pt(a), u, pt(b)),
                                "{g:?} at {u}: {a:?} -> {b:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
