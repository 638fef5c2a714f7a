//! A* on the 8-connected grid of cells: MovingAI's octile model.
//!
//! # Model
//! A query point `(x, y)` names cell `(x, y)`. From a free cell the search may step to any of
//! its 8 neighbours that is free: straight steps cost 1, diagonal steps √2, and a diagonal step
//! additionally needs both cells it squeezes past (the two orthogonal neighbours it touches)
//! to be free, so the path never cuts a corner. This is exactly the model whose optimum the
//! ninth column of a `.scen` file records.
//!
//! # Algorithm
//! Textbook A* with the octile distance as heuristic. The octile distance is consistent for
//! this move set (it is the exact cost on an empty grid), so a cell popped from the open list
//! for the first time has its optimal cost and is closed for good: no re-expansions. The open
//! list has no decrease-key; improved cells are pushed again and stale entries skipped when
//! popped. Equal `f` is broken in favour of larger `g`.
//!
//! # Invariants of the context
//! [`AStar`] owns flat per-cell records (cost, arrival direction, epoch tag) and the heap. A
//! query bumps the epoch instead of clearing the records, grows them only when a grid larger
//! than any before is searched, and otherwise allocates nothing (the [`Answer`]'s vector is
//! reused too). One context may serve grids of different sizes in any order.
//!
//! # Output
//! The waypoints are the lattice points (top-left corners) of the cells where the path
//! changes direction, plus the start and goal; the length is the octile length, computed from
//! the numbers of straight and diagonal steps (it equals the Euclidean length of the polyline).

use std::f64::consts::SQRT_2;
use std::ops::Deref;

use taut_grid::{
    Answer, Grid, Guarantee, PathModel, Planner, Point, QueryError, Stats, Status, Step, Stepper,
    TraceEvent, Tracer,
};

use crate::arena::{Arena, MOVES};
use taut_search::{Entry, OpenList};

/// Octile distance between two cells.
#[inline(always)]
fn octile(x0: i32, y0: i32, x1: i32, y1: i32) -> f64 {
    let dx = (x1 - x0).unsigned_abs();
    let dy = (y1 - y0).unsigned_abs();
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    f64::from(hi - lo) + f64::from(lo) * SQRT_2
}

/// A reusable A* search context (see the module docs). Create one per thread and reuse it.
#[derive(Debug, Clone, Default)]
pub struct AStar {
    nodes: Arena,
    open: OpenList,
    stats: Stats,
    /// The query being searched (kept between the steps of a stepped search).
    pending: Option<(Point, Point)>,
    /// How the last query ended: its endpoints and whether the goal was reached.
    done: Option<(Point, Point, Status)>,
    /// The entry popped when the last step's budget ran out, expanded first by the next.
    held: Option<Entry>,
}

impl AStar {
    /// An empty context; it sizes itself on the first query.
    pub fn new() -> Self {
        AStar::default()
    }

    /// Finds an optimal octile path from cell `start` to cell `goal` on `grid`, filling `out`.
    ///
    /// Returns [`Status::Found`] with the path, or [`Status::Unreachable`] with no waypoints and
    /// an infinite length. `start == goal` gives the single waypoint `start` and length 0.
    ///
    /// # Errors
    /// The error of [`Grid::check_query`] when an endpoint is off the map or blocked; `out` is
    /// then cleared.
    ///
    /// # Errors
    /// The endpoint errors of [`Grid::check_query`], and [`QueryError::MapTooLarge`] for a
    /// grid of more than `u32::MAX` cells.
    ///
    /// # Example
    /// ```
    /// use taut_baselines::astar::AStar;
    /// use taut_grid::{Answer, Grid, Point, Status};
    ///
    /// let grid = Grid::from_ascii(&["...", ".@.", "..."]).unwrap();
    /// let (mut astar, mut out) = (AStar::new(), Answer::default());
    /// let status = astar.search(&grid, Point::new(0, 0), Point::new(2, 2), &mut out).unwrap();
    /// assert_eq!(status, Status::Found);
    /// assert_eq!(out.length, 4.0); // around the centre cell, no corner cutting
    /// ```
    pub fn search(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Answer,
    ) -> Result<Status, QueryError> {
        self.search_traced(grid, start, goal, out, &mut ())
    }

    /// [`AStar::search`], sending every expanded cell to `tracer` as a [`TraceEvent::Cell`]
    /// with the cell it was reached from, in order of expansion (one event per cell counted
    /// in `out.stats.expanded`). With the tracer `()` the recording is compiled away.
    ///
    /// # Errors
    /// As [`AStar::search`].
    pub fn search_traced<T: Tracer>(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Answer,
        tracer: &mut T,
    ) -> Result<Status, QueryError> {
        if let Err(e) = self.begin(grid, start, goal) {
            out.clear();
            return Err(e);
        }
        let Step::Done(status) = self.run_traced(grid, u64::MAX, tracer) else {
            unreachable!("an unlimited run ends");
        };
        self.answer(grid, out);
        Ok(status)
    }

    /// Begins a query for [`AStar::run`], ending any earlier one; nothing is expanded yet.
    ///
    /// # Errors
    /// As [`AStar::search`]; no query is then pending.
    pub fn begin(&mut self, grid: &Grid, start: Point, goal: Point) -> Result<(), QueryError> {
        self.pending = None;
        self.done = None;
        self.held = None;
        self.stats = Stats::default();
        grid.check_query(start, goal)?;
        if start == goal {
            self.done = Some((start, goal, Status::Found));
            return Ok(());
        }
        let w = grid.width();
        let cells = grid.width() as u64 * grid.height() as u64;
        if cells > u64::from(u32::MAX) {
            let limit = u64::from(u32::MAX);
            return Err(QueryError::MapTooLarge {
                planner: "astar",
                nodes: cells,
                limit,
            });
        }
        self.nodes.begin(cells as usize);
        self.open.clear();
        let start_id = start.y as u32 * w as u32 + start.x as u32;
        self.nodes.set_open(start_id, 0.0, 0);
        self.open.push(Entry {
            f: octile(start.x, start.y, goal.x, goal.y),
            g: 0.0,
            id: start_id,
        });
        self.stats.heap_ops += 1;
        self.pending = Some((start, goal));
        Ok(())
    }

    /// Runs at most `budget` expansions of the query begun by [`AStar::begin`] on the same
    /// grid. `Done(Unreachable)` when no query is pending.
    pub fn run(&mut self, grid: &Grid, budget: u64) -> Step {
        self.run_traced(grid, budget, &mut ())
    }

    /// [`AStar::run`], recording expansions as [`AStar::search_traced`] does.
    pub fn run_traced<T: Tracer>(&mut self, grid: &Grid, budget: u64, tracer: &mut T) -> Step {
        let Some((start, goal)) = self.pending else {
            return Step::Done(self.done.map_or(Status::Unreachable, |d| d.2));
        };
        let w = grid.width();
        let id = |x: i32, y: i32| y as u32 * w as u32 + x as u32;
        let (gx, gy) = (goal.x, goal.y);
        let start_id = id(start.x, start.y);
        let goal_id = id(gx, gy);
        let stats = &mut self.stats;
        let stop_at = stats.expanded.saturating_add(budget);
        let mut status = None;
        loop {
            let e = match self.held.take() {
                Some(e) => e,
                None => {
                    let Some(e) = self.open.pop() else {
                        status = Some(Status::Unreachable);
                        break;
                    };
                    stats.heap_ops += 1;
                    e
                }
            };
            let u = e.id;
            if self.nodes.closed(u) || e.g > self.nodes.g(u) {
                continue; // stale
            }
            if u == goal_id {
                status = Some(Status::Found);
                break;
            }
            if stats.expanded >= stop_at {
                self.held = Some(e);
                break;
            }
            self.nodes.close(u);
            stats.expanded += 1;
            let (x, y) = ((u % w as u32) as i32, (u / w as u32) as i32);
            if T::ENABLED {
                let parent = (u != start_id).then(|| {
                    let (dx, dy) = MOVES[self.nodes.parent(u) as usize];
                    Point::new(x - dx, y - dy)
                });
                tracer.record(TraceEvent::Cell {
                    at: Point::new(x, y),
                    parent,
                });
            }
            // The padding ring is blocked, so every look-up here is in range.
            let free = [
                grid.is_free_padded(x + 1, y),
                grid.is_free_padded(x - 1, y),
                grid.is_free_padded(x, y + 1),
                grid.is_free_padded(x, y - 1),
            ];
            for (k, &(dx, dy)) in MOVES.iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                let (ok, cost) = if k < 4 {
                    (free[k], 1.0)
                } else {
                    // Diagonal: both orthogonal neighbours it passes must be free.
                    let horiz = free[if dx > 0 { 0 } else { 1 }];
                    let vert = free[if dy > 0 { 2 } else { 3 }];
                    (horiz && vert && grid.is_free_padded(nx, ny), SQRT_2)
                };
                if !ok {
                    continue;
                }
                stats.generated += 1;
                let v = id(nx, ny);
                if self.nodes.closed(v) {
                    continue;
                }
                let g = e.g + cost;
                if g < self.nodes.g(v) {
                    self.nodes.set_open(v, g, k as u32);
                    self.open.push(Entry {
                        f: g + octile(nx, ny, gx, gy),
                        g,
                        id: v,
                    });
                    stats.heap_ops += 1;
                }
            }
        }
        match status {
            Some(status) => {
                self.pending = None;
                self.done = Some((start, goal, status));
                Step::Done(status)
            }
            None => Step::Pending,
        }
    }

    /// The answer of the last query into `out` (its path once found; the statistics so far
    /// either way). `grid` is the grid it searched.
    pub fn answer(&self, grid: &Grid, out: &mut Answer) {
        out.clear();
        out.stats = self.stats;
        let Some((start, goal, Status::Found)) = self.done else {
            return;
        };
        out.waypoints.push(goal);
        if start == goal {
            out.length = 0.0;
            return;
        }
        let w = grid.width();
        let id = |x: i32, y: i32| y as u32 * w as u32 + x as u32;
        // Walk back from the goal, keeping the cells where the arrival direction changes.
        let (mut straight, mut diagonal) = (0u32, 0u32);
        let mut cur = goal;
        let mut dir = self.nodes.parent(id(goal.x, goal.y));
        loop {
            let (dx, dy) = MOVES[dir as usize];
            if dir < 4 {
                straight += 1;
            } else {
                diagonal += 1;
            }
            cur = Point::new(cur.x - dx, cur.y - dy);
            if cur == start {
                out.waypoints.push(start);
                break;
            }
            let prev_dir = self.nodes.parent(id(cur.x, cur.y));
            if prev_dir != dir {
                out.waypoints.push(cur);
            }
            dir = prev_dir;
        }
        out.waypoints.reverse();
        out.length = f64::from(straight) + f64::from(diagonal) * SQRT_2;
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
}

/// [`AStar`] bound to one grid, as a [`Planner`] (name `astar`, optimal for its model).
#[derive(Debug, Clone)]
pub struct AStarPlanner<G> {
    grid: G,
    ctx: AStar,
}

impl<G: Deref<Target = Grid>> AStarPlanner<G> {
    /// A planner for `grid` with a fresh context.
    pub fn new(grid: G) -> Self {
        AStarPlanner {
            grid,
            ctx: AStar::new(),
        }
    }
}

impl<G: Deref<Target = Grid>> Planner for AStarPlanner<G> {
    fn name(&self) -> &'static str {
        "astar"
    }

    fn guarantee(&self) -> Guarantee {
        Guarantee::Optimal
    }

    fn path_model(&self) -> PathModel {
        PathModel::Octile
    }

    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        self.ctx.search(&self.grid, start, goal, out)
    }

    /// Records each expanded cell as a [`TraceEvent::Cell`].
    fn plan_traced(
        &mut self,
        start: Point,
        goal: Point,
        out: &mut Answer,
        trace: &mut Vec<TraceEvent>,
    ) -> Result<Status, QueryError> {
        trace.clear();
        self.ctx.search_traced(&self.grid, start, goal, out, trace)
    }

    fn stepper(&mut self) -> Option<&mut dyn Stepper> {
        Some(self)
    }
}

impl<G: Deref<Target = Grid>> Stepper for AStarPlanner<G> {
    fn begin(&mut self, start: Point, goal: Point) -> Result<(), QueryError> {
        self.ctx.begin(&self.grid, start, goal)
    }

    fn step(&mut self, budget: u64) -> Step {
        self.ctx.run(&self.grid, budget)
    }

    fn answer(&self, out: &mut Answer) {
        self.ctx.answer(&self.grid, out);
    }

    fn stats(&self) -> Stats {
        self.ctx.stats()
    }

    fn cancel(&mut self) {
        self.ctx.cancel();
    }
}
