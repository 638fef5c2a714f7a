//! The search: A* over the start and convex corners, each expansion sweeping the node's
//! projection field with rays and boundary walks.

use taut_grid::{Answer, Grid, Point, QueryError, Stats, Status, begin_query, quad};
use taut_search::{Entry, OpenList, StampedCosts};

use crate::cast::{Stop, cast};
use crate::geom::{V, cross, in_closed_sector, mask, primitive, sub};
use crate::trace::{End, walk};

/// No parent (the start).
const NONE: u32 = u32::MAX;

/// One sector still to sweep: the open sector from `from` to `to` (turning the way `dir`),
/// walked from where the ray along `from` stopped.
#[derive(Debug, Clone, Copy)]
struct Task {
    from: V,
    to: V,
    stop: Stop,
    dir: i64,
}

/// The reusable state of ray-scanning searches. Create one per thread; a warm context
/// allocates nothing per query.
#[derive(Debug, Default)]
pub struct SearchContext {
    /// Best g per lattice point, tagged with the parent's id.
    g: StampedCosts,
    /// Closed marks per lattice point: the query's epoch when closed.
    closed: Vec<u32>,
    epoch: u32,
    open: OpenList,
    tasks: Vec<Task>,
    grazed: Vec<Point>,
    stats: Stats,
}

/// The state of one query that expansions need.
struct Query<'a> {
    grid: &'a Grid,
    goal: Point,
    cols: i64,
}

impl Query<'_> {
    #[inline(always)]
    fn id(&self, p: Point) -> u32 {
        (i64::from(p.y) * self.cols + i64::from(p.x)) as u32
    }
    #[inline(always)]
    fn point(&self, id: u32) -> Point {
        let id = i64::from(id);
        Point::new((id % self.cols) as i32, (id / self.cols) as i32)
    }
}

impl SearchContext {
    /// A fresh context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds a shortest any-angle path from `start` to `goal` on `grid`, filling `out`.
    ///
    /// # Errors
    /// [`QueryError`] when an endpoint is off the map or blocked.
    pub fn search(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Answer,
    ) -> Result<Status, QueryError> {
        if let Some(status) = begin_query(grid, start, goal, out)? {
            return Ok(status);
        }
        let cols = i64::from(grid.width()) + 1;
        let n = (cols * (i64::from(grid.height()) + 1)) as usize;
        let q = Query { grid, goal, cols };
        self.g.begin(n);
        if self.closed.len() < n {
            self.closed.resize(n, 0);
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.closed.iter_mut().for_each(|c| *c = 0);
            self.epoch = 1;
        }
        self.open.clear();
        self.stats = Stats::default();
        let sid = q.id(start);
        self.g.set_tagged(sid as usize, 0.0, NONE);
        self.open.push(Entry {
            f: start.dist(goal),
            g: 0.0,
            id: sid,
        });
        self.stats.heap_ops += 1;
        while let Some(e) = self.open.pop() {
            self.stats.heap_ops += 1;
            let id = e.id as usize;
            if self.closed[id] == self.epoch || e.g > self.g.get(id) {
                continue;
            }
            self.closed[id] = self.epoch;
            self.stats.expanded += 1;
            if self.expand(&q, e.id) {
                let u = q.point(e.id);
                out.waypoints.push(goal);
                let mut at = e.id;
                loop {
                    out.waypoints.push(q.point(at));
                    let (_, parent) = self.g.get_tagged(at as usize);
                    if parent == NONE {
                        break;
                    }
                    at = parent;
                }
                out.waypoints.reverse();
                out.length = self.g.get(id) + u.dist(goal);
                out.stats = self.stats;
                return Ok(Status::Found);
            }
        }
        out.stats = self.stats;
        Ok(Status::Unreachable)
    }

    /// Offers `w` as a successor of `u` (id `uid`, cost `gu`).
    #[inline]
    fn offer(&mut self, q: &Query<'_>, uid: u32, u: Point, gu: f64, w: Point) {
        self.stats.generated += 1;
        let wid = q.id(w);
        if wid == uid || self.closed[wid as usize] == self.epoch {
            return;
        }
        let g = gu + u.dist(w);
        if g < self.g.get(wid as usize) {
            self.g.set_tagged(wid as usize, g, uid);
            self.open.push(Entry {
                f: g + w.dist(q.goal),
                g,
                id: wid,
            });
            self.stats.heap_ops += 1;
        }
    }

    /// Casts the ray from `u` along `d` (primitive), offering the corners it grazes.
    fn cast_offer(
        &mut self,
        q: &Query<'_>,
        uid: u32,
        u: Point,
        gu: f64,
        d: V,
    ) -> crate::cast::Cast {
        self.grazed.clear();
        let c = cast(q.grid, u, d, &mut self.grazed);
        for i in 0..self.grazed.len() {
            let w = self.grazed[i];
            self.offer(q, uid, u, gu, w);
        }
        c
    }

    /// Expands node `uid`; true when the goal is seen from it (the search is over).
    fn expand(&mut self, q: &Query<'_>, uid: u32) -> bool {
        let grid = q.grid;
        let u = q.point(uid);
        let (gu, parent) = self.g.get_tagged(uid as usize);
        let t = sub(q.goal, u);
        // The closed sectors of the projection field, each less than a half turn, turning the
        // way of their sign.
        let mut sectors: [(V, V, i64); 4] = [((0, 0), (0, 0), 0); 4];
        let mut count = 0;
        const E: V = (1, 0);
        const S: V = (0, 1);
        const W: V = (-1, 0);
        const N: V = (0, -1);
        let m = mask(grid, u);
        if parent == NONE {
            if quad::is_double_corner(m) {
                sectors[0] = (E, S, 1);
                count = 1;
            } else {
                for (bit, a, b) in [
                    (quad::SE, E, S),
                    (quad::SW, S, W),
                    (quad::NW, W, N),
                    (quad::NE, N, E),
                ] {
                    if m & bit != 0 {
                        sectors[count] = (a, b, 1);
                        count += 1;
                    }
                }
            }
        } else {
            let (din, _) = primitive(sub(u, q.point(parent)));
            // The one blocked cell: its doubled centre offset and its two edges from u.
            let (centre, e1, e2) = match !m & 0xF {
                quad::SE => ((1, 1), E, S),
                quad::SW => ((-1, 1), S, W),
                quad::NW => ((-1, -1), W, N),
                quad::NE => ((1, -1), N, E),
                _ => return false,
            };
            let s = cross(din, centre).signum();
            if s == 0 {
                return false;
            }
            // Turning from din towards the cell, the first of its edges reached.
            let (c1, c2) = (cross(din, e1) * s, cross(din, e2) * s);
            let e = match (c1 > 0, c2 > 0) {
                (true, true) => {
                    if cross(e1, e2) * s > 0 {
                        e1
                    } else {
                        e2
                    }
                }
                (true, false) => e1,
                (false, true) => e2,
                (false, false) => return false,
            };
            sectors[0] = (din, e, s);
            count = 1;
        }
        // The goal, if it is in the field and in sight, ends the search: u has the least f.
        for &(a, b, s) in &sectors[..count] {
            if in_closed_sector(a, b, s, t) {
                if grid.line_of_sight(u, q.goal) && grid.endpoint_allows(q.goal, u) {
                    return true;
                }
                break;
            }
        }
        let limit = 4 * (grid.width() as usize + 2) * (grid.height() as usize + 2);
        for &(a, b, s) in &sectors[..count] {
            let ca = self.cast_offer(q, uid, u, gu, a);
            let cb = self.cast_offer(q, uid, u, gu, b);
            let strictly_inside = cross(a, t) * s > 0 && cross(t, b) * s > 0;
            // Each sector is walked from both of its bounding rays: a boundary walked from one
            // side can pass behind an obstacle that the walk from the other side meets first.
            if strictly_inside {
                let (tp, _) = primitive(t);
                let ct = self.cast_offer(q, uid, u, gu, tp);
                self.push_both(a, ca.stop, tp, ct.stop, s);
                self.push_both(tp, ct.stop, b, cb.stop, s);
            } else {
                self.push_both(a, ca.stop, b, cb.stop, s);
            }
            while let Some(task) = self.tasks.pop() {
                self.sweep(q, uid, u, gu, task, limit);
            }
        }
        false
    }

    /// Queues the sector from `a` to `b` (turning the way `s`) to be walked from both rays.
    fn push_both(&mut self, a: V, sa: Stop, b: V, sb: Stop, s: i64) {
        self.tasks.push(Task {
            from: a,
            to: b,
            stop: sa,
            dir: s,
        });
        self.tasks.push(Task {
            from: b,
            to: a,
            stop: sb,
            dir: -s,
        });
    }

    /// Sweeps one sector of u's field: walks the boundary from the ray's stop; at each turning
    /// point casts a ray to it, offers it when in sight, and carries on beyond it; where that
    /// ray is blocked short of it, the part behind the blocker is queued to sweep backwards.
    fn sweep(&mut self, q: &Query<'_>, uid: u32, u: Point, gu: f64, task: Task, limit: usize) {
        let Task {
            mut from,
            to,
            mut stop,
            dir,
        } = task;
        loop {
            match walk(q.grid, u, from, to, &stop, dir, limit) {
                End::Exit => return,
                End::Turn(w) => {
                    let uw = sub(w, u);
                    if cross(from, uw) * dir <= 0 || cross(uw, to) * dir <= 0 {
                        return;
                    }
                    let (d, k) = primitive(uw);
                    let c = self.cast_offer(q, uid, u, gu, d);
                    if c.reaches(k) {
                        if quad::is_convex_corner(mask(q.grid, w)) {
                            self.offer(q, uid, u, gu, w);
                        }
                    } else {
                        self.tasks.push(Task {
                            from: d,
                            to: from,
                            stop: c.stop,
                            dir: -dir,
                        });
                    }
                    from = d;
                    stop = c.stop;
                }
            }
        }
    }
}
