//! The Anya search: nodes, successors, f-values, root history, pruning, path extraction.
//!
//! # Model
//! A search node is an interval `[lo, hi]` of the horizontal grid line `row` together with a
//! root `r`, a lattice point every point of the interval is visible from, and `g`, the length
//! of the best known path from the start to `r`. A *flat* node has its root on its own row; a
//! *cone* node has it on another row, and its successors lie on the next row away from the root.
//!
//! # The ray invariant
//! A cone endpoint at row distance `k` from its root lies on a ray from the root `r` through
//! a lattice point. It is stored as the mixed fraction `q + r / d` together with the ray's
//! slope `sq + sr / d` per row, over the same denominator ([`Frac`]): projecting it one row
//! further is an addition with one carry, exact and without a division. An integer endpoint
//! created at distance `k` ([`Frac::on_ray`]) is written over `d = k` with slope
//! `(x - r.x) / k`, which costs the one division of its ray.
//!
//! # Geometry of one step (see `docs/anya.md` for the proofs)
//! - The cells between a cone interval and the next row are all free or all blocked, because
//!   intervals are split at every point of their row where the cells above or below change.
//! - The observable successors of a cone node are the projection of its interval through the
//!   free run of cells under it, split at those change points.
//! - An endpoint `e` is a turning point when it is a corner whose blocked cell `B` lies on the
//!   interval's outer side and the ray from the root through `e` is tangent to `B` (neither
//!   the ray nor its continuation enters `B`). Its non-observable successors, rooted at `e`,
//!   are the points on `B`'s side of the ray that `e` sees: along the row when `B` is on the
//!   root's side of the row, and on the next row.
//! - A flat node continues along its row to the next change point; its far end is a turning
//!   point when the blocked cell there is behind it, and then the search turns onto the row
//!   beyond that cell.
//! - Paths never pass through a double corner; a double-corner start or goal is left or
//!   entered through its south-east cell (`docs/conventions.md#the-south-east-endpoint-rule`).

use taut_grid::{
    Answer, Grid, Point, QueryError, Stats, Status, Step, TraceEvent, Tracer, begin_query, quad,
};
use taut_search::{Entry, OpenList, StampedCosts};

use crate::frac::Frac;

/// Where the root history (best `g` per root point) is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RootHistory {
    /// Chosen by map size: [`RootHistory::Flat`] up to [`FLAT_HISTORY_MAX_POINTS`] lattice
    /// points (64 MiB of history), [`RootHistory::Hash`] above, so that a warm context on a
    /// huge map holds memory in proportion to what its queries touch, not to the map.
    #[default]
    Auto,
    /// A flat array over all lattice points, reset in O(1) per query (16 bytes per point).
    Flat,
    /// A `hashbrown` table holding only the roots a query touches.
    Hash,
}

/// The largest map, in lattice points (`(W + 1) * (H + 1)`), on which [`RootHistory::Auto`]
/// keeps the flat history: 2^22 points, 64 MiB (a 2047 × 2047 map).
pub const FLAT_HISTORY_MAX_POINTS: usize = 1 << 22;

impl RootHistory {
    /// The storage used on a map of `lattice_points` points: `Flat` or `Hash`.
    pub fn resolve(self, lattice_points: usize) -> RootHistory {
        match self {
            RootHistory::Auto if lattice_points <= FLAT_HISTORY_MAX_POINTS => RootHistory::Flat,
            RootHistory::Auto => RootHistory::Hash,
            h => h,
        }
    }
}

/// Search options. The defaults are what the benchmarks call "Anya".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    /// Cul-de-sac pruning (Algorithm 3): never push a node without successors.
    pub cul_de_sac: bool,
    /// Intermediate pruning (Algorithm 3): a node whose only successor is observable is
    /// replaced by that successor at once, repeatedly, instead of being pushed.
    pub intermediate: bool,
    /// Root history storage.
    pub history: RootHistory,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cul_de_sac: true,
            intermediate: true,
            history: RootHistory::Auto,
        }
    }
}

/// Costs within this of each other are the same root cost (sums of square roots computed in
/// different orders differ by far less; lengths are compared to 1e-6).
const EPS: f64 = 1e-9;
const NO_ROOT: u32 = u32::MAX;

/// A search node (see the module docs).
#[derive(Debug, Clone, Copy)]
struct Node {
    lo: Frac,
    hi: Frac,
    row: i32,
    root: Point,
    /// Index of the root in [`SearchContext::roots`], for path extraction.
    root_id: u32,
    /// Cost of the best known path from the start to the root.
    g: f64,
    /// Turning endpoints, set by [`Search::classify`] before the node is pushed: the blocked
    /// cell (a [`quad`] bit) at the right endpoint of a cone or the far end of a flat node in
    /// the low nibble, at the left endpoint of a cone in the high nibble; 0 when not turning.
    turns: u8,
}

impl Node {
    /// A node not yet classified (see [`Node::turns`]).
    #[inline(always)]
    fn new(lo: Frac, hi: Frac, row: i32, root: Point, root_id: u32, g: f64) -> Node {
        Node {
            lo,
            hi,
            row,
            root,
            root_id,
            g,
            turns: 0,
        }
    }

    #[inline(always)]
    fn is_flat(&self) -> bool {
        self.root.y == self.row
    }
}

/// A root: a lattice point some path reaches and turns at.
#[derive(Debug, Clone, Copy)]
struct Root {
    p: Point,
    /// Index of the root before it on the path, [`NO_ROOT`] for the start.
    parent: u32,
    /// A later root at the same point is cheaper: nodes from this one are stale. (Read at
    /// every pop instead of the root history, which is a random access into a table the
    /// size of the map; the roots of a query are few and recent.)
    superseded: bool,
}

/// Everything a query needs besides the grid, reused across queries: the open list, the node
/// and root arenas, the root history and scratch buffers. Once warm (grown to the largest
/// query seen), a query allocates nothing. One context per thread; the grid is shared.
#[derive(Debug, Default)]
pub struct SearchContext {
    open: OpenList,
    nodes: Vec<Node>,
    /// Roots in order of creation.
    roots: Vec<Root>,
    /// Best `g` per lattice point, tagged with the index of the root that holds it.
    flat_history: StampedCosts,
    /// The same, keyed by the full lattice index: maps may have more than 2^32 lattice points.
    hash_history: hashbrown::HashMap<u64, (f64, u32)>,
    succ: Vec<Node>,
    chain: Vec<Node>,
    /// The query being searched (kept between the steps of a stepped search).
    pending: Option<Pending>,
    /// How the last query ended, until the next begins.
    done: Option<Status>,
    /// The answer being built: statistics so far, then the path.
    result: Answer,
    /// The entry popped when the last step's budget ran out, expanded first by the next.
    held: Option<Entry>,
}

/// What a begun query keeps between steps.
#[derive(Debug, Clone, Copy)]
struct Pending {
    goal: Point,
    goal_double_corner: bool,
    opts: Options,
    flat_history: bool,
    stride: usize,
}

impl SearchContext {
    /// A new, empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Heap bytes held by the context's buffers (they only grow).
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.roots.capacity() * std::mem::size_of::<Root>()
            + self.flat_history.heap_bytes()
            + self.hash_history.capacity() * std::mem::size_of::<(u64, (f64, u32))>()
            + (self.succ.capacity() + self.chain.capacity()) * std::mem::size_of::<Node>()
    }

    /// Finds a shortest any-angle path from `start` to `goal` on `grid`, filling `out` with
    /// its waypoints (start, every turning point, goal), its Euclidean length and statistics.
    ///
    /// # Errors
    /// [`QueryError`] when an endpoint is off the map or its cell (the one whose top-left
    /// corner it is) is blocked.
    pub fn search(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        options: &Options,
        out: &mut Answer,
    ) -> Result<Status, QueryError> {
        self.search_traced(grid, start, goal, options, out, &mut ())
    }

    /// [`SearchContext::search`], sending every expanded node to `tracer` as a
    /// [`TraceEvent::Interval`] (its interval, row and root), in order of expansion: one event
    /// per node counted in `out.stats.expanded`. With the tracer `()` this is exactly
    /// [`SearchContext::search`]: the recording is compiled away.
    ///
    /// # Errors
    /// As [`SearchContext::search`].
    pub fn search_traced<T: Tracer>(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        options: &Options,
        out: &mut Answer,
        tracer: &mut T,
    ) -> Result<Status, QueryError> {
        if let Err(e) = self.begin_traced(grid, start, goal, options, tracer) {
            out.clear();
            return Err(e);
        }
        let Step::Done(status) = self.run_traced(grid, u64::MAX, tracer) else {
            unreachable!("an unlimited run ends");
        };
        self.answer(out);
        Ok(status)
    }

    /// Begins a query for [`SearchContext::run`], ending any earlier one: the start's
    /// successors are generated, nothing is expanded.
    ///
    /// # Errors
    /// As [`SearchContext::search`]; no query is then pending.
    pub fn begin(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        options: &Options,
    ) -> Result<(), QueryError> {
        self.begin_traced(grid, start, goal, options, &mut ())
    }

    fn begin_traced<T: Tracer>(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        options: &Options,
        _tracer: &mut T,
    ) -> Result<(), QueryError> {
        self.pending = None;
        self.done = None;
        self.held = None;
        let mut out = std::mem::take(&mut self.result);
        let early = begin_query(grid, start, goal, &mut out);
        let early = match early {
            Ok(early) => early,
            Err(e) => {
                self.result = out;
                return Err(e);
            }
        };
        if let Some(status) = early {
            self.result = out;
            self.done = Some(status);
            return Ok(());
        }
        // A goal in plain sight: the straight segment is the shortest path (no search).
        if grid.line_of_sight(start, goal)
            && grid.endpoint_allows(start, goal)
            && grid.endpoint_allows(goal, start)
        {
            out.waypoints.extend([start, goal]);
            out.length = start.dist(goal);
            self.result = out;
            self.done = Some(Status::Found);
            return Ok(());
        }
        let stride = grid.width() as usize + 1;
        let points = stride * (grid.height() as usize + 1);
        let pending = Pending {
            goal,
            goal_double_corner: grid.is_double_corner(goal),
            opts: *options,
            flat_history: options.history.resolve(points) == RootHistory::Flat,
            stride,
        };
        let mut s = Search::new(grid, pending, self, &mut out);
        s.init(start);
        self.result = out;
        self.pending = Some(pending);
        Ok(())
    }

    /// Runs at most `budget` expansions of the query begun by [`SearchContext::begin`] on the
    /// same grid. `Done(Unreachable)` when no query is pending.
    pub fn run(&mut self, grid: &Grid, budget: u64) -> Step {
        self.run_traced(grid, budget, &mut ())
    }

    /// [`SearchContext::run`], recording expansions as [`SearchContext::search_traced`] does.
    pub fn run_traced<T: Tracer>(&mut self, grid: &Grid, budget: u64, tracer: &mut T) -> Step {
        let Some(pending) = self.pending else {
            return Step::Done(self.done.unwrap_or(Status::Unreachable));
        };
        let mut out = std::mem::take(&mut self.result);
        let mut s = Search::new(grid, pending, self, &mut out);
        let ended = s.steps(budget, tracer);
        self.result = out;
        match ended {
            Some(status) => {
                self.pending = None;
                self.done = Some(status);
                Step::Done(status)
            }
            None => Step::Pending,
        }
    }

    /// The answer of the last query into `out`: its path once found, the statistics so far
    /// either way.
    pub fn answer(&self, out: &mut Answer) {
        out.clear();
        out.stats = self.result.stats;
        if self.done.is_some() {
            // Copied into `out`'s own vector: no allocation once it has room.
            out.waypoints.extend_from_slice(&self.result.waypoints);
            out.length = self.result.length;
        }
    }

    /// The statistics of the current (or last) query.
    pub fn stats(&self) -> Stats {
        self.result.stats
    }

    /// Drops the pending query.
    pub fn cancel(&mut self) {
        self.pending = None;
        self.done = None;
        self.held = None;
        self.result.clear();
    }
}

/// One running query.
struct Search<'a> {
    grid: &'a Grid,
    goal: Point,
    goal_double_corner: bool,
    opts: Options,
    /// The root history in use: the flat array, or else the hash table (`opts.history`
    /// resolved for this map's size).
    flat_history: bool,
    /// Lattice points per row (`width + 1`).
    stride: usize,
    ctx: &'a mut SearchContext,
    out: &'a mut Answer,
}

/// The cells-around-a-point bits.
const NW: u8 = quad::NW;
const NE: u8 = quad::NE;
const SW: u8 = quad::SW;
const SE: u8 = quad::SE;

impl<'a> Search<'a> {
    fn new(
        grid: &'a Grid,
        p: Pending,
        ctx: &'a mut SearchContext,
        out: &'a mut Answer,
    ) -> Search<'a> {
        Search {
            grid,
            goal: p.goal,
            goal_double_corner: p.goal_double_corner,
            opts: p.opts,
            flat_history: p.flat_history,
            stride: p.stride,
            ctx,
            out,
        }
    }
}

impl Search<'_> {
    /// Sets the query up: the start's root and its successors on the open list.
    fn init(&mut self, start: Point) {
        let c = &mut *self.ctx;
        c.open.clear();
        c.nodes.clear();
        c.roots.clear();
        c.succ.clear();
        c.chain.clear();
        if self.flat_history {
            c.flat_history
                .begin(self.stride * (self.grid.height() as usize + 1));
        } else {
            c.hash_history.clear();
        }
        c.roots.push(Root {
            p: start,
            parent: NO_ROOT,
            superseded: false,
        });
        self.set_root_g(start, 0.0, 0);

        let mut succ = std::mem::take(&mut self.ctx.succ);
        self.start_successors(start, &mut succ);
        for n in succ.drain(..) {
            self.consider(n);
        }
        self.ctx.succ = succ;
    }

    /// Expands at most `budget` nodes; the status once the search has ended.
    fn steps<T: Tracer>(&mut self, budget: u64, tracer: &mut T) -> Option<Status> {
        let mut succ = std::mem::take(&mut self.ctx.succ);
        let stop_at = self.out.stats.expanded.saturating_add(budget);
        let mut ended = None;
        loop {
            let e = match self.ctx.held.take() {
                Some(e) => e,
                None => {
                    let Some(e) = self.ctx.open.pop() else {
                        ended = Some(Status::Unreachable);
                        break;
                    };
                    self.out.stats.heap_ops += 1;
                    e
                }
            };
            let n = self.ctx.nodes[e.id as usize];
            if self.contains_goal(&n) {
                self.extract_path(&n);
                ended = Some(Status::Found);
                break;
            }
            if self.ctx.roots[n.root_id as usize].superseded {
                continue; // a better path to this root was found after the node was pushed
            }
            if self.out.stats.expanded >= stop_at {
                self.ctx.held = Some(e);
                break;
            }
            self.out.stats.expanded += 1;
            if T::ENABLED {
                tracer.record(TraceEvent::Interval {
                    row: n.row,
                    lo: n.lo.to_rational(),
                    hi: n.hi.to_rational(),
                    root: n.root,
                });
            }
            self.successors(&n, &mut succ);
            for n in succ.drain(..) {
                self.consider(n);
            }
        }
        self.ctx.succ = succ;
        ended
    }

    // ----- root history -----------------------------------------------------------------

    #[inline(always)]
    fn root_index(&self, p: Point) -> usize {
        p.y as usize * self.stride + p.x as usize
    }

    /// The best `g` known at `p` and the index of the root holding it
    /// (`(f64::INFINITY, u32::MAX)` when `p` has not been reached).
    #[inline(always)]
    fn root_g(&self, p: Point) -> (f64, u32) {
        let i = self.root_index(p);
        if self.flat_history {
            self.ctx.flat_history.get_tagged(i)
        } else {
            self.ctx
                .hash_history
                .get(&(i as u64))
                .copied()
                .unwrap_or((f64::INFINITY, u32::MAX))
        }
    }

    #[inline(always)]
    fn set_root_g(&mut self, p: Point, g: f64, id: u32) {
        let i = self.root_index(p);
        if self.flat_history {
            self.ctx.flat_history.set_tagged(i, g, id);
        } else {
            self.ctx.hash_history.insert(i as u64, (g, id));
        }
    }

    /// Records `p` as a new root reached with cost `g` from the root `parent_id`, unless it
    /// has been reached at least as cheaply before (within [`EPS`]); the root it replaces, if
    /// any, is marked superseded. Returns the new root's index.
    fn new_root(&mut self, p: Point, g: f64, parent_id: u32) -> Option<u32> {
        let (best, holder) = self.root_g(p);
        if best <= g + EPS {
            return None;
        }
        if holder != u32::MAX {
            self.ctx.roots[holder as usize].superseded = true;
        }
        let id = self.ctx.roots.len() as u32;
        self.set_root_g(p, g, id);
        self.ctx.roots.push(Root {
            p,
            parent: parent_id,
            superseded: false,
        });
        Some(id)
    }

    // ----- goal, f-value, path ----------------------------------------------------------

    #[inline]
    fn contains_goal(&self, n: &Node) -> bool {
        n.row == self.goal.y
            && n.lo.cmp_int(self.goal.x).is_le()
            && n.hi.cmp_int(self.goal.x).is_ge()
            // A double-corner goal is entered through its own (south-east) cell.
            && (!self.goal_double_corner || (n.root.x >= self.goal.x && n.root.y >= self.goal.y))
    }

    /// The smallest `g(r) + d(r, p) + d(p, t)` over the interval (Lemmas 1 and 2).
    fn f_value(&self, n: &Node) -> f64 {
        let (rx, ry) = (f64::from(n.root.x), f64::from(n.root.y));
        let y = f64::from(n.row);
        let (tx, ty) = (f64::from(self.goal.x), f64::from(self.goal.y));
        // Lemma 2: a target on the root's side of the row is mirrored through the row. (Signs
        // only: the product of the two row distances overflows `i32` on maps taller than
        // 46,341 rows.)
        let ty_eff = if (self.goal.y - n.row).signum() * (n.root.y - n.row).signum() > 0 {
            2.0 * y - ty
        } else {
            ty
        };
        // Lemma 1: the point closest to where the segment root-target crosses the row.
        let cross = if n.root.y == n.row {
            if self.goal.y == n.row { tx } else { rx }
        } else {
            rx + (tx - rx) * (y - ry) / (ty_eff - ry)
        };
        let p = cross.clamp(n.lo.to_f64(), n.hi.to_f64());
        let (ax, ay, bx, by) = (p - rx, y - ry, tx - p, ty - y);
        n.g + (ax * ax + ay * ay).sqrt() + (bx * bx + by * by).sqrt()
    }

    fn extract_path(&mut self, n: &Node) {
        let w = &mut self.out.waypoints;
        w.push(self.goal);
        let mut id = n.root_id;
        while id != NO_ROOT {
            let Root { p, parent, .. } = self.ctx.roots[id as usize];
            if *w.last().expect("not empty") != p {
                w.push(p);
            }
            id = parent;
        }
        w.reverse();
        self.out.length = n.g + n.root.dist(self.goal);
    }

    // ----- pushing, pruning ---------------------------------------------------------------

    #[inline(always)]
    fn push(&mut self, n: Node) {
        let f = self.f_value(&n);
        let id = self.ctx.nodes.len() as u32;
        self.ctx.nodes.push(n);
        self.ctx.open.push(Entry { f, g: n.g, id });
        self.out.stats.heap_ops += 1;
    }

    /// Handles a freshly generated node: pushes it, or prunes it (Algorithm 3).
    ///
    /// With intermediate pruning, a node none of whose endpoints turns (and which does not
    /// contain the goal) has only observable successors, so it is expanded at once instead of
    /// being pushed: its successors replace it, each handled the same way (a worklist, since
    /// one projection may split into several pieces). A node with no successor at all is a
    /// cul-de-sac and vanishes.
    fn consider(&mut self, n: Node) {
        self.out.stats.generated += 1;
        if !self.opts.intermediate {
            let mut n = n;
            self.classify(&mut n);
            if self.opts.cul_de_sac && !self.contains_goal(&n) && self.is_cul_de_sac(&n) {
                return;
            }
            self.push(n);
            return;
        }
        let mut work = std::mem::take(&mut self.ctx.chain);
        debug_assert!(work.is_empty());
        work.push(n);
        'work: while let Some(mut n) = work.pop() {
            self.classify(&mut n);
            if self.contains_goal(&n) || !self.is_intermediate(&n) {
                self.push(n);
                continue;
            }
            // The common case first: the cone crosses open ground, one row at a time.
            while self.open_ground_step(&mut n) {
                self.out.stats.generated += 1;
                self.classify(&mut n);
                if self.contains_goal(&n) || !self.is_intermediate(&n) {
                    self.push(n);
                    continue 'work;
                }
            }
            // `n` has observable successors only: generate them now, in its place.
            let before = work.len();
            self.observable_successors(&n, &mut work);
            let made = work.len() - before;
            self.out.stats.generated += made as u64;
            if made == 0 && !self.opts.cul_de_sac {
                self.push(n);
            }
        }
        self.ctx.chain = work;
    }

    /// Advances cone node `n` to its observable successor in the common case: its projection is one
    /// interval, with no change point strictly inside. That holds when the cells beyond the
    /// next row under the (clipped) projection are all free: then, as [`Search::project_cone`]
    /// would, the projection is clipped to the free run of the strip under `n` and not split.
    /// The run is found by bounded scans (only as far as the projection reaches), and the
    /// split test is one bounded row read, instead of unbounded run and change-point scans.
    /// On success `n` becomes that successor (its turns not yet classified); `false`, with
    /// `n` untouched, when the test fails (the general projection then decides) or when `n`
    /// is flat or a single point.
    #[inline(always)]
    fn open_ground_step(&self, n: &mut Node) -> bool {
        if n.is_flat() || !n.lo.lt(n.hi) {
            return false;
        }
        let (y2, cy, beyond) = if n.row > n.root.y {
            (n.row + 1, n.row, n.row + 1)
        } else {
            (n.row - 1, n.row - 1, n.row - 2)
        };
        if beyond < -1 || beyond > self.grid.height() {
            return false;
        }
        // The cells under the interval are all free or all blocked (module docs).
        let c0 = n.lo.floor();
        if !self.free(c0, cy) {
            return false;
        }
        let (a2, b2) = (n.lo.project(), n.hi.project());
        let k2 = (y2 - n.root.y).abs();
        let lo = if a2.floor() < c0 {
            match self.grid.last_blocked(cy, a2.floor().max(-1), c0 - 1) {
                Some(b) if a2.cmp_int(b + 1).is_lt() => Frac::on_ray(b + 1, k2, n.root.x),
                _ => a2,
            }
        } else {
            a2
        };
        let last = n.hi.ceil() - 1;
        let hi = if b2.ceil() - 1 > last {
            match self
                .grid
                .first_blocked(cy, last + 1, (b2.ceil() - 1).min(self.grid.width()))
            {
                Some(b) if b2.cmp_int(b).is_gt() => Frac::on_ray(b, k2, n.root.x),
                _ => b2,
            }
        } else {
            b2
        };
        // The blocked ring bounds the clipping: `lo >= 0` and `hi <= width`.
        debug_assert!(lo.floor() >= 0 && hi.ceil() <= self.grid.width());
        if hi.lt(lo) || !self.grid.all_free(beyond, lo.floor(), hi.ceil() - 1) {
            return false;
        }
        n.lo = lo;
        n.hi = hi;
        n.row = y2;
        n.turns = 0;
        true
    }

    /// Finds the turning endpoints of a new node (see [`Node::turns`]).
    #[inline]
    fn classify(&self, n: &mut Node) {
        n.turns = if n.is_flat() {
            let (p, side) = self.flat_far_end(n);
            self.flat_turn(p, n.row, side).unwrap_or(0)
        } else {
            self.cone_turn(n, n.hi, 1).unwrap_or(0) | self.cone_turn(n, n.lo, -1).unwrap_or(0) << 4
        };
    }

    /// Whether every successor of `n` is observable (Algorithm 3, `Is-Intermediate`).
    #[inline]
    fn is_intermediate(&self, n: &Node) -> bool {
        n.turns == 0
    }

    /// Whether `n` has no successor at all (Algorithm 3, `Is-cul-de-sac`).
    fn is_cul_de_sac(&mut self, n: &Node) -> bool {
        let mut chain = std::mem::take(&mut self.ctx.chain);
        chain.clear();
        self.observable_successors(n, &mut chain);
        let none = chain.is_empty() && self.is_intermediate(n);
        self.ctx.chain = chain;
        none
    }

    // ----- successors -----------------------------------------------------------------------

    #[inline(always)]
    fn free(&self, x: i32, y: i32) -> bool {
        self.grid.is_free_padded(x, y)
    }

    /// Where a walk along row `y` from lattice `x` in direction `side` stops: the next point
    /// where the cells above or below change (a corner, a double corner, the end of the free
    /// stretch). Returns `x` when the first unit edge is not traversable, or when `x` is a
    /// double corner that the walk would cross (`from_endpoint` is set for the start, which
    /// may leave a double corner along its own cell's edge).
    fn flat_scan(&self, x: i32, y: i32, side: i32, from_endpoint: bool) -> i32 {
        let c = if side > 0 { x } else { x - 1 };
        if !self.free(c, y - 1) && !self.free(c, y) {
            return x;
        }
        if !from_endpoint && quad::is_double_corner(self.grid.point_cells_padded(Point::new(x, y)))
        {
            return x;
        }
        if side > 0 {
            self.grid.next_change(x, y)
        } else {
            self.grid.prev_change(x, y)
        }
    }

    /// Pushes the cone nodes covering `[lo, hi]` on row `y` (root `root`, row distance `k`),
    /// split at every change point strictly inside.
    #[allow(clippy::too_many_arguments)]
    fn split(
        &self,
        lo: Frac,
        hi: Frac,
        y: i32,
        k: i32,
        root: Point,
        root_id: u32,
        g: f64,
        out: &mut Vec<Node>,
    ) {
        debug_assert!(lo.le(hi));
        let mut a = lo;
        let mut x = self.grid.next_change(lo.floor(), y);
        while hi.cmp_int(x).is_gt() {
            let b = Frac::on_ray(x, k, root.x);
            out.push(Node::new(a, b, y, root, root_id, g));
            a = b;
            x = self.grid.next_change(x, y);
        }
        out.push(Node::new(a, hi, y, root, root_id, g));
    }

    /// Pushes the flat node from `p` along row `y` in direction `side` to where
    /// [`Search::flat_scan`] stops, if that is anywhere.
    #[allow(clippy::too_many_arguments)]
    fn push_flat(
        &self,
        p: i32,
        y: i32,
        side: i32,
        from_endpoint: bool,
        root: Point,
        root_id: u32,
        g: f64,
        out: &mut Vec<Node>,
    ) {
        let q = self.flat_scan(p, y, side, from_endpoint);
        if q != p {
            let (lo, hi) = (p.min(q), p.max(q));
            out.push(Node::new(Frac::int(lo), Frac::int(hi), y, root, root_id, g));
        }
    }

    /// What the lattice point `x` on a grid line sees of the next line through the strip of
    /// cells `cy` between them: `[lo, hi]`, the free run around its left cell (`x - 1`, only
    /// when `use_left`) joined to the free run from its right cell (`x`). `None` when neither
    /// cell is free (or usable).
    #[inline]
    fn seen_through(&self, x: i32, cy: i32, use_left: bool) -> Option<(i32, i32)> {
        let left = use_left && self.free(x - 1, cy);
        let right = self.free(x, cy);
        if !left && !right {
            return None;
        }
        let lo = if left {
            self.grid.free_run(x - 1, cy).0
        } else {
            x
        };
        let hi = if right {
            self.grid.free_run(x, cy).1
        } else {
            x
        };
        Some((lo, hi))
    }

    // Inlined into `run` as when it had one caller: `run` is instantiated once per tracer.
    #[inline(always)]
    fn start_successors(&self, s: Point, out: &mut Vec<Node>) {
        // A double-corner start leaves through its own (south-east) cell only.
        let se_only = quad::is_double_corner(self.grid.point_cells_padded(s));
        self.push_flat(s.x, s.y, 1, true, s, 0, 0.0, out);
        if !se_only {
            self.push_flat(s.x, s.y, -1, true, s, 0, 0.0, out);
        }
        for up in [true, false] {
            if up && se_only {
                continue;
            }
            let (cy, y2) = if up {
                (s.y - 1, s.y - 1)
            } else {
                (s.y, s.y + 1)
            };
            if let Some((lo, hi)) = self.seen_through(s.x, cy, !se_only) {
                let (lo, hi) = (Frac::on_ray(lo, 1, s.x), Frac::on_ray(hi, 1, s.x));
                self.split(lo, hi, y2, 1, s, 0, 0.0, out);
            }
        }
    }

    /// All successors of `n` (Algorithm 1).
    // Inlined into `run` as when it had one caller: `run` is instantiated once per tracer.
    #[inline(always)]
    fn successors(&mut self, n: &Node, out: &mut Vec<Node>) {
        self.observable_successors(n, out);
        if n.is_flat() {
            let (p, side) = self.flat_far_end(n);
            if n.turns != 0 {
                self.flat_turn_successors(n, p, side, n.turns, out);
            }
        } else {
            if n.turns & 0xF != 0 {
                self.cone_turn_successors(n, n.hi.as_int(), 1, n.turns & 0xF, out);
            }
            if n.turns >> 4 != 0 {
                self.cone_turn_successors(n, n.lo.as_int(), -1, n.turns >> 4, out);
            }
        }
    }

    /// The successors of `n` that keep its root.
    fn observable_successors(&self, n: &Node, out: &mut Vec<Node>) {
        if n.is_flat() {
            let (p, side) = self.flat_far_end(n);
            self.push_flat(p, n.row, side, false, n.root, n.root_id, n.g, out);
        } else {
            self.project_cone(n, out);
        }
    }

    /// The far end of a flat node (the endpoint away from its root) and the direction of
    /// travel.
    #[inline]
    fn flat_far_end(&self, n: &Node) -> (i32, i32) {
        if n.lo.cmp_int(n.root.x).is_ge() {
            (n.hi.as_int(), 1)
        } else {
            (n.lo.as_int(), -1)
        }
    }

    /// The observable successors of a cone node: its interval projected one row further from
    /// the root through the free cells in between, split at change points.
    fn project_cone(&self, n: &Node, out: &mut Vec<Node>) {
        let k = (n.row - n.root.y).abs();
        let dir = (n.row - n.root.y).signum();
        let (y2, cy) = if dir > 0 {
            (n.row + 1, n.row)
        } else {
            (n.row - 1, n.row - 1)
        };
        let project = |f: Frac| {
            debug_assert!(f.on_ray_from(n.root.x, k), "ray invariant");
            f.project()
        };
        if n.lo.cmp(n.hi).is_eq()
            && n.lo.is_int()
            && quad::is_double_corner(
                self.grid
                    .point_cells_padded(Point::new(n.lo.as_int(), n.row)),
            )
        {
            // A ray may touch a double corner but never continue through it. (For a longer
            // interval the cells beyond a double-corner endpoint are always blocked on the
            // ray's side, so the clipping below already excludes its ray.)
            return;
        }
        let (a2, b2) = (project(n.lo), project(n.hi));
        // A cell under the interval: all of them are free or all blocked (module docs).
        let c0 = if n.lo.lt(n.hi) || !n.lo.is_int() {
            n.lo.floor()
        } else {
            // A single lattice point: the cell the ray enters.
            let x = n.lo.as_int();
            match a2.cmp_int(x) {
                std::cmp::Ordering::Greater => x,
                std::cmp::Ordering::Less => x - 1,
                std::cmp::Ordering::Equal => {
                    if self.free(x - 1, cy) {
                        x - 1
                    } else {
                        x
                    }
                }
            }
        };
        if !self.free(c0, cy) {
            return;
        }
        let (l, r) = self.grid.free_run(c0, cy);
        let k2 = k + 1;
        // Clip to the run; a clipped end starts a new ray (the only division here).
        let lo = if a2.cmp_int(l).is_lt() {
            Frac::on_ray(l, k2, n.root.x)
        } else {
            a2
        };
        let hi = if b2.cmp_int(r).is_gt() {
            Frac::on_ray(r, k2, n.root.x)
        } else {
            b2
        };
        if hi.lt(lo) {
            return;
        }
        #[cfg(debug_assertions)]
        for (e, e2, clipped) in [(n.lo, a2, lo), (n.hi, b2, hi)] {
            let dc = e.is_int()
                && quad::is_double_corner(
                    self.grid.point_cells_padded(Point::new(e.as_int(), n.row)),
                );
            debug_assert!(
                !dc || !clipped.cmp(e2).is_eq(),
                "a ray through the double corner ({}, {}) survived the clip",
                e.to_f64(),
                n.row
            );
        }
        self.split(lo, hi, y2, k2, n.root, n.root_id, n.g, out);
    }

    /// If the far end `p` of a flat node travelling in direction `side` along row `y` is a
    /// turning point, the blocked cell there (which is behind the direction of travel).
    #[inline]
    fn flat_turn(&self, p: i32, y: i32, side: i32) -> Option<u8> {
        let mask = self.grid.point_cells_padded(Point::new(p, y));
        if !quad::is_convex_corner(mask) {
            return None;
        }
        let blocked = !mask & 0xF;
        let behind = if side > 0 { NW | SW } else { NE | SE };
        (blocked & behind != 0).then_some(blocked)
    }

    /// The non-observable successors at a flat node's far end `p`: turn around the blocked
    /// cell onto the row beyond it.
    fn flat_turn_successors(
        &mut self,
        n: &Node,
        p: i32,
        side: i32,
        blocked: u8,
        out: &mut Vec<Node>,
    ) {
        let at = Point::new(p, n.row);
        let g = n.g + f64::from((p - n.root.x).abs());
        let Some(root_id) = self.new_root(at, g, n.root_id) else {
            return;
        };
        let up = blocked & (NW | NE) != 0;
        let (cy, y2) = if up {
            (n.row - 1, n.row - 1)
        } else {
            (n.row, n.row + 1)
        };
        // The cell just past the corner on the new row's side is free (only one is blocked).
        let (lo, hi) = if side > 0 {
            (p, self.grid.free_run(p, cy).1)
        } else {
            (self.grid.free_run(p - 1, cy).0, p)
        };
        self.split(
            Frac::on_ray(lo, 1, p),
            Frac::on_ray(hi, 1, p),
            y2,
            1,
            at,
            root_id,
            g,
            out,
        );
    }

    /// If the endpoint `e` of cone node `n` on side `side` (+1 right, -1 left) is a turning
    /// point, the blocked cell there.
    #[inline(always)]
    fn cone_turn(&self, n: &Node, e: Frac, side: i32) -> Option<u8> {
        if !e.is_int() {
            return None;
        }
        let x = e.as_int();
        let mask = self.grid.point_cells_padded(Point::new(x, n.row));
        if !quad::is_convex_corner(mask) {
            return None;
        }
        let blocked = !mask & 0xF;
        let outer = if side > 0 { NE | SE } else { NW | SW };
        if blocked & outer == 0 {
            return None;
        }
        if x == n.root.x {
            // A vertical ray runs along a side of the blocked cell: a path turns round it only
            // at its far end, where the cell lies behind `e`. At the near end the cell is
            // ahead, every direction into its side of the ray enters it at once, and a bend
            // along the row with the cell outside it is never taut (see docs/anya.md).
            let behind = if n.row > n.root.y { NW | NE } else { SW | SE };
            return (blocked & behind != 0).then_some(blocked);
        }
        // Tangency: the line through the root and `e` must not enter the blocked cell.
        let cross = i64::from(x - n.root.x) * i64::from(n.row - n.root.y);
        let tangent = if blocked & (NE | SW) != 0 {
            cross >= 0
        } else {
            cross <= 0
        };
        tangent.then_some(blocked)
    }

    /// The non-observable successors of cone node `n` at its turning endpoint `e`.
    fn cone_turn_successors(
        &mut self,
        n: &Node,
        e: i32,
        side: i32,
        blocked: u8,
        out: &mut Vec<Node>,
    ) {
        let at = Point::new(e, n.row);
        let (dx, dy) = (e - n.root.x, n.row - n.root.y);
        let g = n.g + at.dist(n.root);
        let Some(root_id) = self.new_root(at, g, n.root_id) else {
            return;
        };
        let dir = dy.signum();
        // Along the row, when the blocked cell hides it from the root.
        let behind = if dir > 0 { NW | NE } else { SW | SE };
        if blocked & behind != 0 {
            self.push_flat(e, n.row, side, false, at, root_id, g, out);
        }
        // On the next row: between the continued ray and what `e` sees on the blocked side.
        let (y2, cy) = if dir > 0 {
            (n.row + 1, n.row)
        } else {
            (n.row - 1, n.row - 1)
        };
        let Some((l, r)) = self.seen_through(e, cy, true) else {
            return;
        };
        let k = dy.abs();
        // The ray continued one row past `e`, written at distance 1 from the new root `e`.
        let ray = Frac::continued(e, dx, k);
        let (lo, hi) = if side > 0 {
            (ray.max(Frac::on_ray(l, 1, e)), Frac::on_ray(r, 1, e))
        } else {
            (Frac::on_ray(l, 1, e), ray.min(Frac::on_ray(r, 1, e)))
        };
        if lo.lt(hi) {
            self.split(lo, hi, y2, 1, at, root_id, g, out);
        }
    }
}
