//! Ray scanning: exact, online any-angle shortest paths on grids by casting rays.
//!
//! The planner is A* over the start and the *convex corners* of the map (lattice points with
//! exactly one blocked cell), with the straight-line heuristic. Expanding a corner `u` sweeps
//! only its *projection field*, the cone in which a taut path can go on past `u`: a ray is cast
//! along each bound of the cone (and towards the goal when the goal lies inside it); from
//! where a ray stops, the obstacle boundary is walked to the first point where it turns away
//! from `u` (a turning point); a ray cast to that point either reaches it (a successor) or is
//! stopped short by a nearer obstacle, whose boundary is then walked backwards. The cost of an
//! expansion follows the obstacle boundary seen from `u`, not the area: one ray crosses an
//! open field. When the goal is in sight of the node with the least `f` the search ends.
//!
//! The method is that of RayScan (Hechenberger, Stuckey, Harabor, Le Bodic and Cheema, ICAPS
//! 2020), implemented from the paper's definitions and the project's own design. All geometry
//! is integer (cross products of lattice vectors); only path costs are floating point. The
//! rules are those of `docs/conventions.md`: no corner cutting, no squeezing through a double
//! corner, the south-east rule at endpoints on a double corner. `docs/ray.md` states the
//! invariants and why the sweep misses no successor a shortest path needs.
//!
//! # Example
//! ```
//! use taut_ray::{RayIndex, SearchContext};
//! use taut_grid::{Answer, Grid, Point, Status};
//!
//! let grid = Grid::from_ascii(&[
//!     "......",
//!     "..@@..",
//!     "..@@..",
//!     "......",
//! ]).unwrap();
//! let index = RayIndex::new(&grid);
//! let mut ctx = SearchContext::new();
//! let mut answer = Answer::default();
//! let status = ctx
//!     .search(&grid, &index, Point::new(1, 2), Point::new(5, 2), &mut answer)
//!     .unwrap();
//! assert_eq!(status, Status::Found);
//! // Over the obstacle's top corners: (1,2) -> (2,1) -> (4,1) -> (5,2).
//! assert_eq!(answer.waypoints.len(), 4);
//! assert!((answer.length - (2.0 + 2.0 * 2f64.sqrt())).abs() < 1e-9);
//! ```

mod bits;
mod cast;
#[cfg(feature = "check-successors")]
pub mod check;
mod geom;
mod index;
mod runs;
mod search;
mod trace;

#[cfg(feature = "check-successors")]
pub use check::{CheckReport, Mismatch};
pub use index::RayIndex;
pub use search::SearchContext;

use std::ops::Deref;
use taut_grid::{
    Answer, Grid, Guarantee, IndexInfo, Planner, Point, QueryError, Stats, Status, Step, Stepper,
};

/// Ray scanning behind the common [`Planner`] trait: a grid handle, the map's [`RayIndex`]
/// (built on construction) and a private context.
#[derive(Debug)]
pub struct RayPlanner<G> {
    grid: G,
    index: RayIndex,
    ctx: SearchContext,
}

impl<G: Deref<Target = Grid>> RayPlanner<G> {
    /// A planner for `grid`; builds the map's index (O(width · height)).
    pub fn new(grid: G) -> Self {
        let index = RayIndex::new(&grid);
        RayPlanner {
            grid,
            index,
            ctx: SearchContext::new(),
        }
    }

    /// The map's index (its build time and size are reported by the CLI).
    pub fn index(&self) -> &RayIndex {
        &self.index
    }
}

impl<G: Deref<Target = Grid>> Planner for RayPlanner<G> {
    fn name(&self) -> &'static str {
        "ray"
    }

    fn guarantee(&self) -> Guarantee {
        Guarantee::Optimal
    }

    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        self.ctx.search(&self.grid, &self.index, start, goal, out)
    }

    fn stepper(&mut self) -> Option<&mut dyn Stepper> {
        Some(self)
    }

    /// The [`RayIndex`] built with the planner.
    fn index_info(&self) -> Option<IndexInfo> {
        Some(IndexInfo {
            what: "ray index",
            build_time: self.index.build_time(),
            heap_bytes: self.index.heap_bytes(),
        })
    }
}

impl<G: Deref<Target = Grid>> Stepper for RayPlanner<G> {
    fn begin(&mut self, start: Point, goal: Point) -> Result<(), QueryError> {
        self.ctx.begin(&self.grid, &self.index, start, goal)
    }

    fn step(&mut self, budget: u64) -> Step {
        self.ctx.run(&self.grid, &self.index, budget)
    }

    fn answer(&self, out: &mut Answer) {
        self.ctx.answer(&self.index, out);
    }

    fn stats(&self) -> Stats {
        self.ctx.stats()
    }

    fn cancel(&mut self) {
        self.ctx.cancel();
    }
}
