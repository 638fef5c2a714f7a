//! Anya: optimal, online any-angle path planning on grids.
//!
//! Anya (Harabor, Grastien, Oz and Aksakalli, JAIR 2016) finds a *shortest* path between two
//! lattice points of a grid map among all paths that avoid blocked cells, with no
//! preprocessing. Instead of searching points it searches *intervals* of grid lines, each
//! paired with a *root*: the last turning point of every path the node stands for. Interval
//! endpoints are exact fractions and every visibility decision is exact; floating point is
//! used only for path costs.
//!
//! - [`SearchContext`] holds the reusable buffers of a search (open list, node arena, root
//!   history). Create one per thread; a warm context allocates nothing per query.
//! - [`Options`] switches cul-de-sac and intermediate pruning (Algorithm 3 of the paper) and
//!   chooses the root-history storage, so that their effect can be measured.
//! - [`AnyaPlanner`] adapts it to [`taut_grid::Planner`] for the CLI and the benchmarks.
//!
//! The grid rules are those of `docs/conventions.md`: paths may touch but never pass through a
//! double corner, and a start or goal on a double corner is left or entered through its own
//! (south-east) cell. `docs/anya.md` states the invariants the implementation relies on.
//!
//! `examples/anya_map.rs` is a whole program: it reads a `.map`, plans one query, checks the
//! path and answers the map's `.scen` (`cargo run --release -p taut-anya --example anya_map`).
//!
//! # Example
//! ```
//! use taut_anya::{Options, SearchContext};
//! use taut_grid::{Answer, Grid, Point, Status};
//!
//! let grid = Grid::from_ascii(&[
//!     "......",
//!     "..@@..",
//!     "..@@..",
//!     "......",
//! ]).unwrap();
//! let mut ctx = SearchContext::new();
//! let mut answer = Answer::default();
//! let status = ctx
//!     .search(&grid, Point::new(1, 2), Point::new(5, 2), &Options::default(), &mut answer)
//!     .unwrap();
//! assert_eq!(status, Status::Found);
//! // Over the obstacle's top corners: (1,2) -> (2,1) -> (4,1) -> (5,2).
//! assert_eq!(answer.waypoints.len(), 4);
//! assert!((answer.length - (2.0 + 2.0 * 2f64.sqrt())).abs() < 1e-9);
//! ```

mod frac;
mod search;

pub use search::{FLAT_HISTORY_MAX_POINTS, Options, RootHistory, SearchContext};

use std::ops::Deref;
use taut_grid::{
    Answer, Grid, Guarantee, Planner, Point, QueryError, Stats, Status, Step, Stepper, TraceEvent,
};

/// Anya behind the common [`Planner`] trait: a grid reference, options and a private context.
#[derive(Debug)]
pub struct AnyaPlanner<G> {
    grid: G,
    options: Options,
    ctx: SearchContext,
}

impl<G: Deref<Target = Grid>> AnyaPlanner<G> {
    /// A planner for `grid` with the default options.
    pub fn new(grid: G) -> Self {
        Self::with_options(grid, Options::default())
    }

    /// A planner for `grid` with the given options.
    pub fn with_options(grid: G, options: Options) -> Self {
        AnyaPlanner {
            grid,
            options,
            ctx: SearchContext::new(),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        &self.options
    }
}

impl<G: Deref<Target = Grid>> Planner for AnyaPlanner<G> {
    fn name(&self) -> &'static str {
        "anya"
    }

    fn guarantee(&self) -> Guarantee {
        Guarantee::Optimal
    }

    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        self.ctx.search(&self.grid, start, goal, &self.options, out)
    }

    /// Records each expanded node as a [`TraceEvent::Interval`].
    fn plan_traced(
        &mut self,
        start: Point,
        goal: Point,
        out: &mut Answer,
        trace: &mut Vec<TraceEvent>,
    ) -> Result<Status, QueryError> {
        trace.clear();
        self.ctx
            .search_traced(&self.grid, start, goal, &self.options, out, trace)
    }

    fn stepper(&mut self) -> Option<&mut dyn Stepper> {
        Some(self)
    }
}

impl<G: Deref<Target = Grid>> Stepper for AnyaPlanner<G> {
    fn begin(&mut self, start: Point, goal: Point) -> Result<(), QueryError> {
        self.ctx.begin(&self.grid, start, goal, &self.options)
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
