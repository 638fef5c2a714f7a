//! Exact visibility-graph planner over convex corners. STUB: being written.
#![allow(missing_docs)]
use taut_grid::{Answer, Grid, Planner, Point, QueryError, Status};

pub struct VgPlanner<'g> {
    grid: &'g Grid,
}

impl<'g> VgPlanner<'g> {
    pub fn new(grid: &'g Grid) -> Self {
        VgPlanner { grid }
    }
}

impl Planner for VgPlanner<'_> {
    fn name(&self) -> &'static str {
        "vg"
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
