//! A* on the 8-connected grid (octile heuristic, no corner cutting). STUB: being written.
#![allow(missing_docs)]
use taut_grid::{Answer, Grid, Planner, Point, QueryError, Status};

pub struct AStarPlanner<'g> {
    grid: &'g Grid,
}

impl<'g> AStarPlanner<'g> {
    pub fn new(grid: &'g Grid) -> Self {
        AStarPlanner { grid }
    }
}

impl Planner for AStarPlanner<'_> {
    fn name(&self) -> &'static str {
        "astar"
    }
    fn is_optimal(&self) -> bool {
        true
    }
    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        out.clear();
        self.grid.check_query(start, goal)?;
        Ok(Status::Unreachable)
    }
}
