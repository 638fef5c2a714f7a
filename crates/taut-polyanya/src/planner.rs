//! Polyanya behind the common grid [`Planner`] trait, on a mesh of the grid's free space.

use std::ops::Deref;
use std::sync::Arc;

use taut_grid::{
    Answer, Grid, Guarantee, Planner, Point, QueryError, Stats, Status, Step, Stepper,
};
use taut_mesh::grid::{SOUTH_EAST, grid_error, grid_query, lattice_point};
use taut_mesh::{Mesh, MeshAnswer};

use crate::search::{Options, SearchContext};

/// Polyanya answering grid queries on a mesh of the grid's free space (lattice coordinates,
/// as built by `taut mesh build` or read from a reference mesh of the same map).
///
/// Grid rules apply: endpoints are validated against the grid, and a start or goal on a
/// double corner belongs to its own (south-east) cell ([`taut_mesh::grid`]).
#[derive(Debug)]
pub struct PolyanyaPlanner<G> {
    grid: G,
    mesh: Arc<Mesh>,
    options: Options,
    ctx: SearchContext,
    answer: MeshAnswer,
    /// A stepped query answered without searching (`start == goal`), until the next begins.
    trivial: Option<Point>,
}

impl<G: Deref<Target = Grid>> PolyanyaPlanner<G> {
    /// A planner for `grid` searching `mesh`, which must cover exactly the grid's free space
    /// in lattice coordinates.
    pub fn new(grid: G, mesh: Arc<Mesh>) -> Self {
        Self::with_options(grid, mesh, Options::default())
    }

    /// As [`PolyanyaPlanner::new`], with search options (the ambiguity rule is always the
    /// grid's south-east rule).
    pub fn with_options(grid: G, mesh: Arc<Mesh>, options: Options) -> Self {
        PolyanyaPlanner {
            grid,
            mesh,
            options: Options {
                ambiguity: SOUTH_EAST,
                ..options
            },
            ctx: SearchContext::new(),
            answer: MeshAnswer::default(),
            trivial: None,
        }
    }

    /// The mesh searched.
    pub fn mesh(&self) -> &Arc<Mesh> {
        &self.mesh
    }
}

impl<G: Deref<Target = Grid>> Planner for PolyanyaPlanner<G> {
    fn name(&self) -> &'static str {
        "polyanya"
    }

    fn guarantee(&self) -> Guarantee {
        Guarantee::Optimal
    }

    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        let (ctx, mesh, options) = (&mut self.ctx, &self.mesh, &self.options);
        grid_query(
            &self.grid,
            start,
            goal,
            &mut self.answer,
            out,
            |s, t, _, answer| {
                // `options.ambiguity` is the grid's rule already (set in `with_options`).
                ctx.search(mesh, s, t, options, answer)
            },
        )
    }

    fn stepper(&mut self) -> Option<&mut dyn Stepper> {
        Some(self.as_stepper())
    }
}

impl<G: Deref<Target = Grid>> PolyanyaPlanner<G> {
    /// The stepper of [`Planner::stepper`].
    fn as_stepper(&mut self) -> &mut dyn Stepper {
        self
    }
}

impl<G: Deref<Target = Grid>> Stepper for PolyanyaPlanner<G> {
    fn begin(&mut self, start: Point, goal: Point) -> Result<(), QueryError> {
        self.trivial = None;
        self.ctx.cancel();
        self.grid.check_query(start, goal)?;
        if start == goal {
            self.trivial = Some(start);
            return Ok(());
        }
        self.ctx
            .begin(
                &self.mesh,
                lattice_point(start),
                lattice_point(goal),
                &self.options,
            )
            .map_err(|e| grid_error(e, start, goal))
    }

    fn step(&mut self, budget: u64) -> Step {
        if self.trivial.is_some() {
            return Step::Done(Status::Found);
        }
        self.ctx.run(&self.mesh, budget)
    }

    fn answer(&self, out: &mut Answer) {
        out.clear();
        if let Some(p) = self.trivial {
            out.waypoints.push(p);
            out.length = 0.0;
            return;
        }
        // Straight from the context's nodes into lattice points: no allocation once `out`
        // has room.
        self.ctx.answer_grid(&self.mesh, out);
    }

    fn stats(&self) -> Stats {
        if self.trivial.is_some() {
            Stats::default()
        } else {
            self.ctx.stats()
        }
    }

    fn cancel(&mut self) {
        self.trivial = None;
        self.ctx.cancel();
    }
}
