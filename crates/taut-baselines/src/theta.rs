//! Theta* and Lazy Theta*. STUB: being written.
#![allow(missing_docs)]
use taut_grid::{Answer, Grid, Planner, Point, QueryError, Status};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Theta,
    Lazy,
}

pub struct ThetaPlanner<'g> {
    grid: &'g Grid,
    variant: Variant,
}

impl<'g> ThetaPlanner<'g> {
    pub fn new(grid: &'g Grid, variant: Variant) -> Self {
        ThetaPlanner { grid, variant }
    }
}

impl Planner for ThetaPlanner<'_> {
    fn name(&self) -> &'static str {
        match self.variant {
            Variant::Theta => "theta",
            Variant::Lazy => "lazy-theta",
        }
    }
    fn is_optimal(&self) -> bool {
        false
    }
    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        out.clear();
        self.grid.check_query(start, goal)?;
        Ok(Status::Unreachable)
    }
}
