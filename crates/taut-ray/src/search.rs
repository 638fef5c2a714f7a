//! The search: A* over the start and convex corners, each expansion sweeping the node's
//! projection field with rays and boundary walks.

use taut_grid::{Answer, Grid, Point, QueryError, Stats, Status, Step, quad};
use taut_search::{Entry, OpenList, StampedCosts};

use crate::cast::{Cast, Stop, cast};
use crate::geom::HEADINGS;
use crate::geom::{V, cross, field_edge, in_closed_sector, mask, primitive, sub};
use crate::index::RayIndex;
use crate::trace::{End, is_pocket, walk};

/// The node being expanded: its number, point and cost.
#[derive(Debug, Clone, Copy)]
struct Node {
    id: u32,
    at: Point,
    g: f64,
}

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
    /// Where the ray along `to` stops: `to_reach.0 / to_reach.1` in units of `to`.
    to_reach: (i64, i64),
}

/// The reusable state of ray-scanning searches. Create one per thread; a warm context
/// allocates nothing per query.
#[derive(Debug, Default)]
pub struct SearchContext {
    /// Best g per node (the convex corners by their number, then the start), tagged with the
    /// parent's node.
    g: StampedCosts,
    /// Closed marks per node: the query's epoch when closed.
    closed: Vec<u32>,
    /// Per node: where the ray that reached it (from its parent) stops beyond it, which is
    /// where the node's own ray along the straight continuation stops.
    beyond: Vec<Cast>,
    epoch: u32,
    open: OpenList,
    tasks: Vec<Task>,
    grazed: Vec<Point>,
    stats: Stats,
    /// The query being searched, if any (a stepped search keeps it between steps).
    pending: Option<Pending>,
    /// How the last query ended, until the next begins.
    done: Option<Done>,
    #[cfg(feature = "check-successors")]
    pub(crate) check: crate::check::Recorder,
}

/// A query begun and not yet ended.
#[derive(Debug, Clone, Copy)]
struct Pending {
    start: Point,
    goal: Point,
    /// The index's corner count when the query began (the start's node number).
    start_id: u32,
}

/// How a query ended.
#[derive(Debug, Clone, Copy)]
enum Done {
    /// `start == goal`.
    Trivial(Point),
    /// No path.
    Unreachable,
    /// Node `last` was reached with the least cost; when `sees_goal`, the path goes on
    /// straight from it to `goal`, else it is the goal itself.
    Found {
        last: u32,
        sees_goal: bool,
        start: Point,
        goal: Point,
        start_id: u32,
    },
}

/// The state of one query that expansions need.
struct Query<'a> {
    grid: &'a Grid,
    index: &'a RayIndex,
    start: Point,
    goal: Point,
    /// The start's node number (after the corners').
    start_id: u32,
}

impl Query<'_> {
    #[inline(always)]
    fn point(&self, id: u32) -> Point {
        if id == self.start_id {
            self.start
        } else {
            self.index.point(id)
        }
    }
}

impl SearchContext {
    /// A fresh context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds a shortest any-angle path from `start` to `goal` on `grid`, whose index is
    /// `index` ([`RayIndex::new`] of the same grid), filling `out`.
    ///
    /// # Errors
    /// [`QueryError`] when an endpoint is off the map or blocked.
    pub fn search(
        &mut self,
        grid: &Grid,
        index: &RayIndex,
        start: Point,
        goal: Point,
        out: &mut Answer,
    ) -> Result<Status, QueryError> {
        if let Err(e) = self.begin(grid, index, start, goal) {
            out.clear();
            return Err(e);
        }
        let Step::Done(status) = self.run(grid, index, u64::MAX) else {
            unreachable!("an unlimited run ends");
        };
        self.answer(index, out);
        Ok(status)
    }

    /// Begins a query for [`SearchContext::run`], ending any earlier one. Nothing is expanded.
    ///
    /// # Errors
    /// [`QueryError`] when an endpoint is off the map or blocked; no query is then pending.
    pub fn begin(
        &mut self,
        grid: &Grid,
        index: &RayIndex,
        start: Point,
        goal: Point,
    ) -> Result<(), QueryError> {
        self.pending = None;
        self.done = None;
        self.stats = Stats::default();
        grid.check_query(start, goal)?;
        if start == goal {
            self.done = Some(Done::Trivial(start));
            return Ok(());
        }
        let n = index.corners() + 1;
        let start_id = index.corners() as u32;
        self.g.begin(n);
        if self.closed.len() < n {
            self.closed.resize(n, 0);
            self.beyond.resize(
                n,
                Cast {
                    stop: Stop::Vertex(start),
                    num: 0,
                    den: 1,
                },
            );
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.closed.iter_mut().for_each(|c| *c = 0);
            self.epoch = 1;
        }
        self.open.clear();
        self.g.set_tagged(start_id as usize, 0.0, NONE);
        self.open.push(Entry {
            f: start.dist(goal),
            g: 0.0,
            id: start_id,
        });
        self.stats.heap_ops += 1;
        self.pending = Some(Pending {
            start,
            goal,
            start_id,
        });
        Ok(())
    }

    /// Runs at most `budget` expansions of the query begun by [`SearchContext::begin`] on the
    /// same grid and index. `Done(Unreachable)` when no query is pending.
    pub fn run(&mut self, grid: &Grid, index: &RayIndex, budget: u64) -> Step {
        let Some(p) = self.pending else {
            return Step::Done(match self.done {
                Some(Done::Unreachable) | None => Status::Unreachable,
                Some(_) => Status::Found,
            });
        };
        let q = Query {
            grid,
            index,
            start: p.start,
            goal: p.goal,
            start_id: p.start_id,
        };
        let found = |last, sees_goal| Done::Found {
            last,
            sees_goal,
            start: p.start,
            goal: p.goal,
            start_id: p.start_id,
        };
        let stop_at = self.stats.expanded.saturating_add(budget);
        while self.stats.expanded < stop_at {
            let Some(e) = self.open.pop() else {
                self.pending = None;
                self.done = Some(Done::Unreachable);
                return Step::Done(Status::Unreachable);
            };
            self.stats.heap_ops += 1;
            let id = e.id as usize;
            if self.closed[id] == self.epoch || e.g > self.g.get(id) {
                continue;
            }
            self.closed[id] = self.epoch;
            self.stats.expanded += 1;
            if q.point(e.id) == p.goal {
                // A corner that is the goal, reached along a ray.
                self.pending = None;
                self.done = Some(found(e.id, false));
                return Step::Done(Status::Found);
            }
            #[cfg(feature = "check-successors")]
            self.check.begin();
            if self.expand(&q, e.id) {
                self.pending = None;
                self.done = Some(found(e.id, true));
                return Step::Done(Status::Found);
            }
            #[cfg(feature = "check-successors")]
            {
                let par = self.g.get_tagged(id).1;
                let parent = (par != NONE).then(|| q.point(par));
                self.check
                    .verify(grid, index, p.start, p.goal, q.point(e.id), parent);
            }
        }
        Step::Pending
    }

    /// The answer of the last query into `out`: its path and length once it has ended with a
    /// path, else no path; the statistics so far either way.
    pub fn answer(&self, index: &RayIndex, out: &mut Answer) {
        out.clear();
        out.stats = self.stats;
        match self.done {
            Some(Done::Trivial(p)) => {
                out.waypoints.push(p);
                out.length = 0.0;
            }
            Some(Done::Found {
                last,
                sees_goal,
                start,
                goal,
                start_id,
            }) => {
                let point = |id: u32| {
                    if id == start_id {
                        start
                    } else {
                        index.point(id)
                    }
                };
                out.waypoints.push(goal);
                let mut at = last;
                if sees_goal {
                    out.waypoints.push(point(at));
                }
                loop {
                    let (_, parent) = self.g.get_tagged(at as usize);
                    if parent == NONE {
                        break;
                    }
                    at = parent;
                    out.waypoints.push(point(at));
                }
                out.waypoints.reverse();
                out.length = self.g.get(last as usize)
                    + if sees_goal {
                        point(last).dist(goal)
                    } else {
                        0.0
                    };
            }
            Some(Done::Unreachable) | None => {}
        }
    }

    /// The statistics of the current (or last) query.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Drops the pending query.
    pub fn cancel(&mut self) {
        self.pending = None;
        self.done = None;
    }

    /// Offers the corner `w` as a successor of `u` (node `uid`, cost `gu`), reached by a ray
    /// that stops at `beyond` past it.
    #[inline]
    fn offer(&mut self, q: &Query<'_>, n: Node, w: Point, d: V, c: Cast) {
        let Node {
            id: uid,
            at: u,
            g: gu,
        } = n;
        self.stats.generated += 1;
        let Some(wid) = q.index.corner_id(w) else {
            return;
        };
        if w == q.start || self.closed[wid as usize] == self.epoch {
            return;
        }
        let g = gu + u.dist(w);
        if g < self.g.get(wid as usize) {
            self.g.set_tagged(wid as usize, g, uid);
            // The same ray, measured from w = u + k·d.
            let k = crate::geom::dot(sub(w, u), d) / crate::geom::dot(d, d);
            self.beyond[wid as usize] = Cast {
                stop: c.stop,
                num: c.num - k * c.den,
                den: c.den,
            };
            self.open.push(Entry {
                f: g + w.dist(q.goal),
                g,
                id: wid,
            });
            self.stats.heap_ops += 1;
        }
    }

    /// Casts the ray from `u` along `d` (primitive), offering the corners it grazes.
    /// [`Self::offer`], unless `w`, reached along the ray `c` from `u` in direction `d`, only
    /// leads into a dead pocket ([`crate::trace::is_pocket`]).
    #[allow(clippy::too_many_arguments)]
    fn offer_unless_pocket(&mut self, q: &Query<'_>, n: Node, w: Point, d: V, c: Cast) {
        let Node { at: u, g: gu, .. } = n;
        #[cfg(feature = "check-successors")]
        self.check.offered(w);
        // The pocket walk only for a corner this offer would improve (the cheap test first).
        match q.index.corner_id(w) {
            Some(wid)
                if w != q.start
                    && self.closed[wid as usize] != self.epoch
                    && gu + u.dist(w) < self.g.get(wid as usize) => {}
            _ => {
                self.stats.generated += 1;
                return;
            }
        }
        let m = mask(q.grid, w);
        if !quad::is_convex_corner(m) {
            return;
        }
        if let Some((side, first)) = field_edge(m, d)
            && is_pocket(
                q.grid,
                q.index.runs(),
                u,
                d,
                (c.num, c.den),
                w,
                first,
                side,
                q.goal,
                2,
            )
        {
            #[cfg(feature = "check-successors")]
            self.check.pocket(w);
            self.stats.generated += 1;
            return;
        }
        self.offer(q, n, w, d, c);
    }

    fn cast_offer(&mut self, q: &Query<'_>, n: Node, d: V) -> Cast {
        let Node { at: u, .. } = n;
        self.grazed.clear();
        let c = cast(
            q.grid,
            q.index.transposed(),
            q.index.cells(),
            u,
            d,
            &mut self.grazed,
        );
        for i in 0..self.grazed.len() {
            let w = self.grazed[i];
            self.offer_unless_pocket(q, n, w, d, c);
        }
        c
    }

    /// Expands node `uid`; true when the goal is seen from it (the search is over).
    fn expand(&mut self, q: &Query<'_>, uid: u32) -> bool {
        let grid = q.grid;
        let u = q.point(uid);
        let (gu, parent) = self.g.get_tagged(uid as usize);
        let n = Node {
            id: uid,
            at: u,
            g: gu,
        };
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
            if !quad::is_convex_corner(m) {
                return false;
            }
            let Some((s, e)) = field_edge(m, din) else {
                return false;
            };
            let e = HEADINGS[e];
            sectors[0] = (din, e, s);
            count = 1;
        }
        // The ray along the straight continuation was cast by the parent, through u.
        let continued = (parent != NONE).then(|| self.beyond[uid as usize]);
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
            let sa = match continued {
                Some(c) => c,
                None => self.cast_offer(q, n, a),
            };
            let sb = self.cast_offer(q, n, b);
            let strictly_inside = cross(a, t) * s > 0 && cross(t, b) * s > 0;
            if strictly_inside {
                let (tp, _) = primitive(t);
                let st = self.cast_offer(q, n, tp);
                self.sweep_sector(q, n, (a, sa), (tp, st), s, limit);
                self.sweep_sector(q, n, (tp, st), (b, sb), s, limit);
            } else {
                self.sweep_sector(q, n, (a, sa), (b, sb), s, limit);
            }
        }
        false
    }

    /// Sweeps the sector from ray `a` to ray `b` (turning the way `s`): walked from `a`'s stop
    /// as far as it goes, then the rest from `b`'s stop backwards (a walk can pass behind an
    /// obstacle without turning, and the walk from the other side meets that obstacle first).
    #[allow(clippy::too_many_arguments)]
    fn sweep_sector(
        &mut self,
        q: &Query<'_>,
        n: Node,
        (a, sa): (V, Cast),
        (b, sb): (V, Cast),
        s: i64,
        limit: usize,
    ) {
        let reached = self.sweep(
            q,
            n,
            Task {
                from: a,
                to: b,
                stop: sa.stop,
                to_reach: (sb.num, sb.den),
                dir: s,
            },
            limit,
        );
        self.drain(q, n, limit);
        if cross(reached, b) * s > 0 {
            self.sweep(
                q,
                n,
                Task {
                    from: b,
                    to: reached,
                    stop: sb.stop,
                    to_reach: (sa.num, sa.den),
                    dir: -s,
                },
                limit,
            );
            self.drain(q, n, limit);
        }
    }

    /// Runs the queued backward sweeps.
    fn drain(&mut self, q: &Query<'_>, n: Node, limit: usize) {
        while let Some(task) = self.tasks.pop() {
            self.sweep(q, n, task, limit);
        }
    }

    /// Sweeps one sector of u's field: walks the boundary from the ray's stop; at each turning
    /// point casts a ray to it, offers it when in sight, and carries on beyond it; where that
    /// ray is blocked short of it, the part behind the blocker is queued to sweep backwards.
    fn sweep(&mut self, q: &Query<'_>, n: Node, task: Task, limit: usize) -> V {
        let Node { at: u, .. } = n;
        let Task {
            mut from,
            to,
            mut stop,
            dir,
            to_reach,
        } = task;
        // Where the ray along `from` stops (for the backward sweeps queued from here).
        let mut from_reach = (0i64, 1i64);
        loop {
            match walk(
                q.grid,
                q.index.runs(),
                u,
                from,
                to,
                &stop,
                dir,
                to_reach,
                limit,
            ) {
                // The walk met the far ray where that ray stops: the sector is covered.
                End::Exit(true) => return to,
                End::Exit(false) => return from,
                End::Turn(w) => {
                    let uw = sub(w, u);
                    let on_bound = cross(uw, to) * dir == 0;
                    if cross(from, uw) * dir <= 0 || cross(uw, to) * dir < 0 {
                        return from;
                    }
                    let (d, k) = primitive(uw);
                    let c = self.cast_offer(q, n, d);
                    if c.reaches(k) {
                        self.offer_unless_pocket(q, n, w, d, c);
                    } else {
                        self.tasks.push(Task {
                            from: d,
                            to: from,
                            stop: c.stop,
                            dir: -dir,
                            to_reach: from_reach,
                        });
                    }
                    if on_bound {
                        return from;
                    }
                    from = d;
                    stop = c.stop;
                    from_reach = (c.num, c.den);
                }
            }
        }
    }
}
