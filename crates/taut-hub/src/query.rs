//! Answering grid queries with a [`HubIndex`].

use std::ops::Deref;
use std::sync::Arc;

use taut_grid::{Answer, Grid, Guarantee, Planner, Point, QueryError, Status, begin_query};

use crate::HubError;
use crate::index::HubIndex;
use crate::point::PointEntry;
use crate::region::{Regions, Via};
use taut_mesh::corners::NO_CORNER;

/// The best path through a common hub: its length `D(s, h) + D(t, h)` and the core entries of
/// its first corner from each end (for the walk to the hub).
type Best = Option<(f64, u32, u32)>;

/// The best common hub of two point labels, and the number of entries read.
fn merge(a: &[PointEntry], b: &[PointEntry]) -> (Best, u64) {
    let (mut i, mut j) = (0, 0);
    let mut best: Best = None;
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if x.hub < y.hub {
            i += 1;
        } else if x.hub > y.hub {
            j += 1;
        } else {
            let d = x.dist + y.dist;
            if best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, x.entry, y.entry));
            }
            i += 1;
            j += 1;
        }
    }
    (best, (i + j) as u64)
}

/// `|pc|` for each corner of `p`'s region that `p` sees (infinite for the others).
fn corner_distances(ix: &HubIndex, r: &Regions, p: Point, out: &mut Vec<f64>) -> usize {
    let (k, bit) = r.locate(p);
    out.clear();
    out.extend(r.corner_range(k).map(|j| {
        if r.sees(j, bit) {
            p.dist(ix.corner_point(r.corner(j)))
        } else {
            f64::INFINITY
        }
    }));
    k
}

/// `D(p, h)` for a region hub of vias `vias`: the best via `p` sees, with its core entry.
#[inline]
fn via_distance(vias: &[Via], dc: &[f64]) -> (f64, u32) {
    vias.iter().fold((f64::INFINITY, 0), |best, v| {
        let d = dc[v.local as usize] + v.dist;
        if d < best.0 { (d, v.entry) } else { best }
    })
}

/// The best common hub of the labels of the regions of `s` and `t`, and the number of vias
/// read.
fn merge_regions(
    ix: &HubIndex,
    r: &Regions,
    s: Point,
    t: Point,
    ds: &mut Vec<f64>,
    dt: &mut Vec<f64>,
) -> (Best, u64) {
    let ks = corner_distances(ix, r, s, ds);
    let kt = corner_distances(ix, r, t, dt);
    let (a, b) = (r.hub_range(ks), r.hub_range(kt));
    let (mut i, mut j) = (a.start, b.start);
    let mut best: Best = None;
    let mut read = 0;
    while i < a.end && j < b.end {
        let (x, y) = (r.hub(i), r.hub(j));
        if x == y {
            let (vs, vt) = (r.vias(i), r.vias(j));
            let (d1, e1) = via_distance(vs, ds);
            let (d2, e2) = via_distance(vt, dt);
            read += (vs.len() + vt.len()) as u64;
            let d = d1 + d2;
            if d.is_finite() && best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, e1, e2));
            }
        }
        // Advanced without a branch: which list moves is unpredictable (measured: 2-12 %
        // faster on region indexes, 5-9 % slower on point labels' `merge`).
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    (best, read)
}

/// Hub labels answering grid queries (the `hub` planner): the shortest path is the straight
/// segment when the ends see each other (grid line of sight and endpoint rules, checked only
/// when it could be shorter than the best path through a hub), and otherwise the best
/// path through a common hub of the ends' labels. Optimal; a warm planner allocates nothing.
#[derive(Debug)]
pub struct HubPlanner<G> {
    grid: G,
    index: Arc<HubIndex>,
    corners: Vec<u32>,
    /// Distances from the ends to their regions' corners (indexes of regions).
    ds: Vec<f64>,
    dt: Vec<f64>,
}

impl<G: Deref<Target = Grid>> HubPlanner<G> {
    /// A planner for `grid` over `index`.
    ///
    /// # Errors
    /// [`HubError::StaleMap`] when `index` was built for another grid.
    pub fn new(grid: G, index: Arc<HubIndex>) -> Result<Self, HubError> {
        if !index.matches(&grid) {
            return Err(HubError::StaleMap);
        }
        Ok(HubPlanner {
            grid,
            index,
            corners: Vec::new(),
            ds: Vec::new(),
            dt: Vec::new(),
        })
    }

    /// The index answering the queries.
    pub fn index(&self) -> &Arc<HubIndex> {
        &self.index
    }
}

impl<G: Deref<Target = Grid>> Planner for HubPlanner<G> {
    fn name(&self) -> &'static str {
        "hub"
    }

    fn guarantee(&self) -> Guarantee {
        Guarantee::Optimal
    }

    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        if let Some(done) = begin_query(&self.grid, start, goal, out)? {
            return Ok(done);
        }
        let ix = &*self.index;
        let (best, read) = match ix.regions() {
            None => merge(ix.point_label(start), ix.point_label(goal)),
            Some(r) => merge_regions(ix, r, start, goal, &mut self.ds, &mut self.dt),
        };
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
        c.push(core.corner_of(es));
        core.walk_to_hub(es, c);
        let mid = c.len();
        c.push(core.corner_of(et));
        core.walk_to_hub(et, c);
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
