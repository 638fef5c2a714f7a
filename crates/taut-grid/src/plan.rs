//! What every grid planner returns, and the one trait the bench and CLI drive them through.

use taut_geom::Point;

use crate::error::QueryError;
use crate::grid::Grid;

/// Search statistics, always collected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes taken off the open list and expanded.
    pub expanded: u64,
    /// Nodes generated (successors produced, whether or not they were pushed).
    pub generated: u64,
    /// Pushes, pops and decrease-keys on the open list.
    pub heap_ops: u64,
}

/// Whether a valid query has a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// A path was found; the answer holds it.
    Found,
    /// No path exists between the (valid) endpoints.
    Unreachable,
}

/// The result of one query, shared by every planner. Reuse one across queries: planners clear
/// and refill it, so a warm caller allocates nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    /// Waypoints from start to goal inclusive (`[start]` when start == goal); empty when the
    /// goal is unreachable.
    pub waypoints: Vec<Point>,
    /// Path length (Euclidean for any-angle planners, octile for A*); `f64::INFINITY` when
    /// unreachable.
    pub length: f64,
    /// Search statistics of this query.
    pub stats: Stats,
}

impl Answer {
    /// Resets the answer for a new query, keeping its allocation.
    pub fn clear(&mut self) {
        self.waypoints.clear();
        self.length = f64::INFINITY;
        self.stats = Stats::default();
    }
}

/// The common start of every grid query: clears `out`, validates both endpoints, and answers
/// start == goal (`[start]`, length 0).
///
/// Returns `Ok(Some(Status::Found))` when the query is answered already, `Ok(None)` when the
/// planner must search.
///
/// # Errors
/// The [`QueryError`] of [`Grid::check_query`].
pub fn begin_query(
    grid: &Grid,
    start: Point,
    goal: Point,
    out: &mut Answer,
) -> Result<Option<Status>, QueryError> {
    out.clear();
    grid.check_query(start, goal)?;
    if start == goal {
        out.waypoints.push(start);
        out.length = 0.0;
        return Ok(Some(Status::Found));
    }
    Ok(None)
}

/// A point-to-point planner over a grid it was built for.
///
/// Algorithm crates keep their own natural APIs (a search context plus the map); small adapters
/// implement this trait so that the bench and CLI treat all planners alike.
pub trait Planner {
    /// Short name used on the command line (`astar`, `theta`, ...).
    fn name(&self) -> &'static str;

    /// Whether the planner's lengths are optimal for its path model.
    fn is_optimal(&self) -> bool;

    /// Answers one query, filling `out`.
    ///
    /// # Errors
    /// [`QueryError`] when an endpoint is off the map or on a blocked cell; `out` is then
    /// cleared.
    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError>;
}
