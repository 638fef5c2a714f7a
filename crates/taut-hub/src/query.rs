//! Answering grid queries with a [`HubIndex`].

use std::sync::Arc;

use taut_grid::{Answer, Grid, Guarantee, Planner, Point, QueryError, Status, begin_query};

use crate::HubError;
use crate::index::{HubIndex, PointEntry};
use taut_mesh::corners::NO_CORNER;

/// The best common hub of two labels: `(D(s, h) + D(t, h), entry of s, entry of t)`, and the
/// number of entries read.
fn merge(a: &[PointEntry], b: &[PointEntry]) -> (Option<(f64, PointEntry, PointEntry)>, u64) {
    let (mut i, mut j) = (0, 0);
    let mut best: Option<(f64, PointEntry, PointEntry)> = None;
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if x.hub < y.hub {
            i += 1;
        } else if x.hub > y.hub {
            j += 1;
        } else {
            let d = x.dist + y.dist;
            if best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, x, y));
            }
            i += 1;
            j += 1;
        }
    }
    (best, (i + j) as u64)
}

/// Hub labels answering grid queries (the `hub` planner): the shortest path is the straight
/// segment when the ends see each other (grid line of sight and endpoint rules, checked only
/// when it could be shorter than the best path through a hub), and otherwise the best
/// path through a common hub of the ends' labels. Optimal; a warm planner allocates nothing.
#[derive(Debug)]
pub struct HubPlanner<'g> {
    grid: &'g Grid,
    index: Arc<HubIndex>,
    corners: Vec<u32>,
}

impl<'g> HubPlanner<'g> {
    /// A planner for `grid` over `index`.
    ///
    /// # Errors
    /// [`HubError::StaleMap`] when `index` was built for another grid.
    pub fn new(grid: &'g Grid, index: Arc<HubIndex>) -> Result<Self, HubError> {
        if !index.matches(grid) {
            return Err(HubError::StaleMap);
        }
        Ok(HubPlanner {
            grid,
            index,
            corners: Vec::new(),
        })
    }

    /// The index answering the queries.
    pub fn index(&self) -> &Arc<HubIndex> {
        &self.index
    }
}

impl Planner for HubPlanner<'_> {
    fn name(&self) -> &'static str {
        "hub"
    }

    fn guarantee(&self) -> Guarantee {
        Guarantee::Optimal
    }

    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        if let Some(done) = begin_query(self.grid, start, goal, out)? {
            return Ok(done);
        }
        let ix = &*self.index;
        let (best, read) = merge(ix.point_label(start), ix.point_label(goal));
        out.stats.generated = read;
        let direct = start.dist(goal);
        // Only a strictly shorter straight segment improves on the path through a hub.
        if best.is_none_or(|(d, _, _)| direct < d)
            && self.grid.line_of_sight(start, goal)
            && self.grid.endpoint_allows(start, goal)
            && self.grid.endpoint_allows(goal, start)
        {
            out.waypoints.extend([start, goal]);
            out.length = direct;
            return Ok(Status::Found);
        }
        let Some((_, es, et)) = best else {
            return Ok(Status::Unreachable);
        };
        // start, the corners from its first corner to the hub, back from the hub to the
        // goal's first corner, goal.
        let core = ix.core();
        let c = &mut self.corners;
        c.clear();
        c.push(core.entry_at(es.entry).corner);
        core.walk_to_hub(es.entry, c);
        let mid = c.len();
        c.push(core.entry_at(et.entry).corner);
        core.walk_to_hub(et.entry, c);
        c.pop(); // the hub, already there
        c[mid..].reverse();
        out.waypoints.push(start);
        for &k in c.iter() {
            debug_assert_ne!(k, NO_CORNER);
            let p = ix.corner_point(k);
            if out.waypoints.last() != Some(&p) {
                out.waypoints.push(p);
            }
        }
        if out.waypoints.last() != Some(&goal) {
            out.waypoints.push(goal);
        }
        out.length = out.waypoints.windows(2).map(|w| w[0].dist(w[1])).sum();
        Ok(Status::Found)
    }
}
