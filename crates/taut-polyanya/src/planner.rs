//! Polyanya behind the common grid [`Planner`] trait, on a mesh of the grid's free space.

use std::sync::Arc;

use taut_grid::{Answer, Endpoint, Grid, Planner, Point, QueryError, Status, begin_query};

use crate::error::{End, MeshQueryError};
use crate::mesh::{Ambiguity, Mesh, MeshPoint};
use crate::search::{MeshAnswer, Options, SearchContext};

/// Polyanya answering grid queries on a mesh of the grid's free space (lattice coordinates,
/// as built by `taut mesh build` or read from a reference mesh of the same map).
///
/// Grid rules apply: endpoints are validated against the grid, and a start or goal on a
/// double corner belongs to its own (south-east) cell, i.e. [`Ambiguity::Towards`]`(1, 1)`.
#[derive(Debug)]
pub struct PolyanyaPlanner<'g> {
    grid: &'g Grid,
    mesh: Arc<Mesh>,
    options: Options,
    ctx: SearchContext,
    answer: MeshAnswer,
}

impl<'g> PolyanyaPlanner<'g> {
    /// A planner for `grid` searching `mesh`, which must cover exactly the grid's free space
    /// in lattice coordinates.
    pub fn new(grid: &'g Grid, mesh: Arc<Mesh>) -> Self {
        Self::with_options(grid, mesh, Options::default())
    }

    /// As [`PolyanyaPlanner::new`], with search options (the ambiguity rule is always the
    /// grid's south-east rule).
    pub fn with_options(grid: &'g Grid, mesh: Arc<Mesh>, options: Options) -> Self {
        PolyanyaPlanner {
            grid,
            mesh,
            options: Options {
                ambiguity: Ambiguity::Towards(1.0, 1.0),
                ..options
            },
            ctx: SearchContext::new(),
            answer: MeshAnswer::default(),
        }
    }

    /// The mesh searched.
    pub fn mesh(&self) -> &Arc<Mesh> {
        &self.mesh
    }
}

fn to_mesh(p: Point) -> MeshPoint {
    MeshPoint::new(f64::from(p.x), f64::from(p.y))
}

impl Planner for PolyanyaPlanner<'_> {
    fn name(&self) -> &'static str {
        "polyanya"
    }

    fn is_optimal(&self) -> bool {
        true
    }

    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        if let Some(done) = begin_query(self.grid, start, goal, out)? {
            return Ok(done);
        }
        let r = self.ctx.search(
            &self.mesh,
            to_mesh(start),
            to_mesh(goal),
            &self.options,
            &mut self.answer,
        );
        grid_answer(r, &self.answer, start, goal, out)
    }
}

/// Copies the outcome of a mesh search for the grid query `start -> goal` into `out`: the
/// statistics, and the path (lattice points: grid meshes have integer vertices and every
/// turning point is a vertex) and length when found. An end the grid accepted but the mesh
/// does not cover (the mesh does not match the grid) is reported as blocked, for this mesh.
/// Shared by the grid adapters of mesh planners.
pub fn grid_answer(
    r: Result<Status, MeshQueryError>,
    answer: &MeshAnswer,
    start: Point,
    goal: Point,
    out: &mut Answer,
) -> Result<Status, QueryError> {
    out.stats = answer.stats;
    match r {
        Ok(Status::Found) => {
            out.waypoints.extend(
                answer
                    .waypoints
                    .iter()
                    .map(|p| Point::new(p.x as i32, p.y as i32)),
            );
            out.length = answer.length;
            Ok(Status::Found)
        }
        Ok(Status::Unreachable) => Ok(Status::Unreachable),
        Err(MeshQueryError::OffMesh { which, .. } | MeshQueryError::Ambiguous { which, .. }) => {
            let (which, point) = match which {
                End::Start => (Endpoint::Start, start),
                End::Goal => (Endpoint::Goal, goal),
            };
            out.clear();
            Err(QueryError::Blocked { which, point })
        }
    }
}
