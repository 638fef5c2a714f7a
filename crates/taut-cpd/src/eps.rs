//! End Point Search (Algorithm 1 of the paper, with the pruning of §4.2 and the caching of
//! §4.3).
//!
//! Every shortest path from `s` to `t` that is not the straight segment turns first at a
//! corner `vs` visible from `s` and last at a corner `vt` visible from `t`, and between them
//! follows a shortest path of the corner graph, which the compressed path database walks
//! move by move. End Point Search runs two resumable visibility searches, one from each end,
//! in turn; each corner one of them reports is joined through the database to every corner
//! the other has reported so far, and the best `d(s, vs) + cpd(vs, vt) + d(vt, t)` is kept.
//! Every candidate is a real path, so the search has an answer as soon as one pair is joined
//! (anytime), and it proves the optimum when neither search has a node whose `f` is below
//! the best length.
//!
//! Pruning (each rule drops only candidates that some other candidate matches or beats):
//! - a corner whose `d(end, v) + d(v, other end)` is not below the best length;
//! - a *non-turn* corner: the sight line from the end, continued past it, runs into the
//!   obstacle, so no path bending there is taut;
//! - a *pocketed* corner: every taut turn there leads into a cul-de-sac polygon without the
//!   other end ([`Corners::pocketed`]);
//! - a pair whose straight-line bound `d(s, vs) + d(vs, vt) + d(vt, t)` is not below the best;
//! - a pair whose database path is not taut at either corner: the first move from the new
//!   corner, then from the older one, must be taut with its sight line (else the path it
//!   stands for can be shortened, and a shorter one is found through another pair); pairs
//!   in two components of the graph, which have no database path;
//! - the visibility searches stop expanding nodes whose `f` reaches the best length, and do
//!   not enter cul-de-sacs without the other end.
//!
//! Caching: while joining a new corner `v`, the distance to `v` of every corner on a walked
//! path is remembered (stamped array), so walks from other corners stop where they meet one;
//! such a pair, and one whose corners see each other (a direct move), is taken without the
//! taut tests (its length is that of a real path).

use std::ops::Deref;
use std::sync::Arc;

use smallvec::SmallVec;
use taut_grid::{
    Answer, Anytime, Factor, Grid, Guarantee, Improvement, Planner, Point, QueryError, Stats,
    Status,
};
use taut_mesh::grid::{SOUTH_EAST, grid_error, grid_query, lattice_point};
use taut_mesh::interval::check_point;
use taut_mesh::{
    Ambiguity, End, Mesh, MeshAnswer, MeshPoint, MeshQueryError, VisibilitySearch, Visible,
    is_small_integer,
};
use taut_search::StampedCosts;

use crate::cpd::{Cpd, Move};
use crate::error::CpdError;
use crate::file::mesh_hash;
use crate::rle::DIRECT;
use taut_mesh::corners::{Corners, NO_CORNER};

/// A mesh with its compressed path database, checked to belong together, and the mesh's
/// corners. Immutable and `Send + Sync`: share one across threads, each with its own
/// [`EpsContext`].
#[derive(Debug)]
pub struct Eps {
    mesh: Arc<Mesh>,
    cpd: Arc<Cpd>,
    corners: Corners,
    /// The connected component of each corner in the database's graph: a pair in two
    /// components has no path (its row entry is a wildcard), refused before any lookup.
    component: Vec<u32>,
}

impl Eps {
    /// Pairs `mesh` with `cpd`.
    ///
    /// # Errors
    /// [`CpdError::StaleMesh`] when the database was built from another mesh (its stored
    /// mesh hash differs), [`CpdError::Corrupt`] when its graph's nodes are not the mesh's
    /// corners (a database assembled by hand from a wrong graph).
    pub fn new(mesh: Arc<Mesh>, cpd: Arc<Cpd>) -> Result<Eps, CpdError> {
        cpd.check_mesh(&mesh_hash(&mesh))?;
        let corners = Corners::of(&mesh);
        let g = cpd.graph();
        if corners.len() != g.node_count() || corners.points() != g.points() {
            return Err(CpdError::Corrupt(format!(
                "the CPD's graph has {} nodes but the mesh has {} corners at other places",
                g.node_count(),
                corners.len()
            )));
        }
        let component = components(g);
        Ok(Eps {
            mesh,
            cpd,
            corners,
            component,
        })
    }

    /// The mesh.
    pub fn mesh(&self) -> &Arc<Mesh> {
        &self.mesh
    }

    /// The compressed path database.
    pub fn cpd(&self) -> &Arc<Cpd> {
        &self.cpd
    }

    /// The mesh's convex corners (the database's nodes).
    pub fn corners(&self) -> &Corners {
        &self.corners
    }
}

/// The connected component of each node of `g` (numbered from 0 by smallest node).
fn components(g: &crate::graph::Graph) -> Vec<u32> {
    let n = g.node_count();
    let mut comp = vec![u32::MAX; n];
    let mut stack = Vec::new();
    let mut next = 0;
    for s in 0..n as u32 {
        if comp[s as usize] != u32::MAX {
            continue;
        }
        comp[s as usize] = next;
        stack.push(s);
        while let Some(u) = stack.pop() {
            for &v in g.neighbours(u) {
                if comp[v as usize] == u32::MAX {
                    comp[v as usize] = next;
                    stack.push(v);
                }
            }
        }
        next += 1;
    }
    comp
}

/// When [`EpsContext::search`] may stop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stop {
    /// With a path proven shortest.
    Optimal,
    /// With the first path found (any legal path).
    First,
    /// With a path at most this factor (≥ 1) longer than a proven lower bound on the
    /// optimum: bounded suboptimal search.
    Within(f64),
}

/// What one [`EpsContext::step`] achieved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    /// A path strictly shorter than every earlier one.
    Improved {
        /// Its length.
        length: f64,
    },
    /// The search is over: the best path (if any, `f64::INFINITY` otherwise) is optimal.
    Done {
        /// The optimum.
        length: f64,
    },
}

/// One solution of the anytime iterator ([`EpsContext::anytime`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Solution {
    /// Length of the best path so far.
    pub length: f64,
    /// A lower bound on the optimum at that moment.
    pub lower_bound: f64,
    /// Whether it is proven optimal (the iterator's last item).
    pub optimal: bool,
}

/// Counters of one End Point Search query.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EpsStats {
    /// Nodes expanded by the two visibility searches.
    pub expanded: u64,
    /// Corners kept from each end (after dead-end, bound and non-turn pruning).
    pub kept: [u32; 2],
    /// Pairs joined through the database (not pruned).
    pub paths: u64,
    /// First moves read from the database.
    pub first_moves: u64,
    /// Improvements of the best path.
    pub improvements: u32,
}

/// A corner kept from one end, with what joining it reads (kept together: a join reads
/// every kept corner of the other end).
#[derive(Debug, Clone, Copy)]
struct Kept {
    p: MeshPoint,
    /// Distance from the end.
    d: f64,
    c: u32,
    /// Its column in the database's rows.
    col: u32,
    /// Its connected component.
    comp: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Best {
    None,
    Same,
    Direct,
    Pair(u32, u32),
}

/// The reusable state of End Point Search queries (two visibility searches, the corners
/// they found, the distance cache). One per thread; a warm context allocates nothing.
#[derive(Debug)]
pub struct EpsContext {
    vis: [VisibilitySearch; 2],
    /// Corners kept from each end.
    found: [Vec<Kept>; 2],
    marked: [StampedCosts; 2],
    cache: StampedCosts,
    /// During a join: the taut test of each first move (by symbol) from the new corner
    /// (1 taut, 0 not).
    taut_memo: StampedCosts,
    walk: Vec<(u32, f64)>,
    ends: [MeshPoint; 2],
    /// The mesh and both ends have small integer coordinates: taut tests in plain `f64`.
    integer: bool,
    best: f64,
    best_of: Best,
    turn: usize,
    exhausted: [bool; 2],
    finished: bool,
    reported_done: bool,
    stats: EpsStats,
}

impl Default for EpsContext {
    fn default() -> Self {
        Self::new()
    }
}

impl EpsContext {
    /// An empty context.
    pub fn new() -> Self {
        EpsContext {
            vis: [VisibilitySearch::new(), VisibilitySearch::new()],
            found: [Vec::new(), Vec::new()],
            marked: [StampedCosts::default(), StampedCosts::default()],
            cache: StampedCosts::default(),
            taut_memo: StampedCosts::default(),
            walk: Vec::new(),
            ends: [MeshPoint::default(); 2],
            integer: false,
            best: f64::INFINITY,
            best_of: Best::None,
            turn: 0,
            exhausted: [true; 2],
            finished: true,
            reported_done: true,
            stats: EpsStats::default(),
        }
    }

    /// Starts a query from `s` to `t`; drive it with [`EpsContext::step`] or
    /// [`EpsContext::anytime`].
    ///
    /// # Errors
    /// [`MeshQueryError`] when an end is off the mesh or an ambiguous vertex `ambiguity`
    /// refuses.
    pub fn start(
        &mut self,
        eps: &Eps,
        s: MeshPoint,
        t: MeshPoint,
        ambiguity: Ambiguity,
    ) -> Result<(), MeshQueryError> {
        let mesh = &*eps.mesh;
        self.finished = true;
        self.reported_done = true;
        // Each end located once, for both searches.
        let (mut sp, mut tp) = (SmallVec::<[u32; 8]>::new(), SmallVec::<[u32; 8]>::new());
        let sv = check_point(mesh, s, End::Start, ambiguity, &mut sp)?;
        let tv = check_point(mesh, t, End::Goal, ambiguity, &mut tp)?;
        self.vis[0].start_located(mesh, s, sv, &sp, Some(t), &tp);
        self.vis[1].start_located(mesh, t, tv, &tp, Some(s), &sp);
        let n = eps.corners.len();
        for k in 0..2 {
            self.found[k].clear();
            self.marked[k].begin(n);
        }
        self.ends = [s, t];
        let small = |p: MeshPoint| is_small_integer(p.x) && is_small_integer(p.y);
        self.integer = mesh.is_integer() && small(s) && small(t);
        self.best = f64::INFINITY;
        self.best_of = Best::None;
        self.turn = 0;
        self.exhausted = [false; 2];
        self.finished = false;
        self.reported_done = false;
        self.stats = EpsStats::default();
        if s == t {
            self.best = 0.0;
            self.best_of = Best::Same;
            self.finished = true;
        }
        Ok(())
    }

    /// Length of the best path so far (`f64::INFINITY` before the first).
    pub fn best_length(&self) -> f64 {
        self.best
    }

    /// A lower bound on the optimum: no path not yet considered is shorter. Equals
    /// [`EpsContext::best_length`] once the search is done.
    pub fn lower_bound(&self) -> f64 {
        if self.finished {
            return self.best;
        }
        self.vis[0]
            .lower_bound()
            .min(self.vis[1].lower_bound())
            .min(self.best)
    }

    /// Counters of the current query.
    pub fn stats(&self) -> EpsStats {
        EpsStats {
            expanded: self.vis[0].expanded() + self.vis[1].expanded(),
            ..self.stats
        }
    }

    /// Runs until the best path improves or the search ends.
    pub fn step(&mut self, eps: &Eps) -> Step {
        loop {
            if let Some(p) = self.advance(eps) {
                return p;
            }
        }
    }

    /// The next solution: the first path, then strictly shorter ones, and last the optimum
    /// again with `optimal: true`; then `None`. Nothing at all when the ends are not
    /// connected. Between calls, [`EpsContext::best_path`] gives the path.
    pub fn next_solution(&mut self, eps: &Eps) -> Option<Solution> {
        if self.reported_done {
            return None;
        }
        match self.step(eps) {
            Step::Improved { length } => Some(Solution {
                length,
                lower_bound: self.lower_bound(),
                optimal: false,
            }),
            Step::Done { length } => {
                self.reported_done = true;
                length.is_finite().then_some(Solution {
                    length,
                    lower_bound: length,
                    optimal: true,
                })
            }
        }
    }

    /// [`EpsContext::next_solution`] as an iterator.
    pub fn anytime<'a>(&'a mut self, eps: &'a Eps) -> impl Iterator<Item = Solution> + 'a {
        std::iter::from_fn(move || self.next_solution(eps))
    }

    /// Finds a path from `s` to `t` and stops as `stop` allows, filling `out` (waypoints,
    /// length; `stats.expanded` counts visibility-search expansions and `stats.generated`
    /// first moves read).
    ///
    /// # Errors
    /// As [`EpsContext::start`]; `out` is then cleared.
    pub fn search(
        &mut self,
        eps: &Eps,
        s: MeshPoint,
        t: MeshPoint,
        stop: Stop,
        ambiguity: Ambiguity,
        out: &mut MeshAnswer,
    ) -> Result<Status, MeshQueryError> {
        out.waypoints.clear();
        out.length = f64::INFINITY;
        out.stats = Stats::default();
        self.start(eps, s, t, ambiguity)?;
        loop {
            let p = self.advance(eps);
            if let Some(Step::Done { .. }) = p {
                break;
            }
            let enough = match stop {
                Stop::Optimal => false,
                Stop::First => self.best.is_finite(),
                Stop::Within(q) => self.best.is_finite() && self.best <= q * self.lower_bound(),
            };
            if enough {
                break;
            }
        }
        self.best_path(eps, &mut out.waypoints);
        out.length = out.waypoints.windows(2).map(|w| w[0].dist(w[1])).sum();
        let st = self.stats();
        out.stats = Stats {
            expanded: st.expanded,
            generated: st.first_moves,
            heap_ops: 0,
        };
        Ok(if self.best.is_finite() {
            Status::Found
        } else {
            out.length = f64::INFINITY;
            Status::Unreachable
        })
    }

    /// The best path so far, from `s` to `t` inclusive (empty before the first).
    pub fn best_path(&self, eps: &Eps, out: &mut Vec<MeshPoint>) {
        out.clear();
        let [s, t] = self.ends;
        match self.best_of {
            Best::None => {}
            Best::Same => out.push(s),
            Best::Direct => out.extend([s, t]),
            Best::Pair(vs, vt) => {
                out.push(s);
                let g = eps.cpd.graph();
                let mut x = vs;
                out.push(g.point(x));
                let mut steps = 0;
                while x != vt && steps <= g.node_count() {
                    x = match eps.cpd.first_move(x, vt) {
                        Move::Arrived => break,
                        Move::Direct => vt,
                        Move::Via(y) => y,
                    };
                    if x as usize >= g.node_count() {
                        break;
                    }
                    out.push(g.point(x));
                    steps += 1;
                }
                out.push(t);
                out.dedup();
            }
        }
    }

    /// One unit of work: one sighting from one end. `Some` when the best path improved or
    /// the search ended.
    fn advance(&mut self, eps: &Eps) -> Option<Step> {
        if self.finished {
            return Some(Step::Done { length: self.best });
        }
        if self.exhausted[0] && self.exhausted[1] {
            self.finished = true;
            return Some(Step::Done { length: self.best });
        }
        let side = if self.exhausted[self.turn] {
            1 - self.turn
        } else {
            self.turn
        };
        let mesh = &*eps.mesh;
        match self.vis[side].next(mesh, self.best) {
            None => {
                self.exhausted[side] = true;
                self.turn = 1 - side;
                None
            }
            Some(Visible::Target) => {
                // The ends see each other: the segment is the shortest path.
                // (A path through corners on the segment may have been found first: it is
                // as short, and only a strictly shorter one counts as an improvement.)
                self.finished = true;
                let d = self.ends[0].dist(self.ends[1]);
                if d < self.best {
                    self.best = d;
                    self.best_of = Best::Direct;
                    self.stats.improvements += 1;
                    Some(Step::Improved { length: self.best })
                } else {
                    Some(Step::Done { length: self.best })
                }
            }
            Some(Visible::Vertex { vertex, poly }) => {
                self.turn = 1 - side;
                let c = eps.corners.at(mesh, vertex, poly);
                if c == NO_CORNER || self.marked[side].get(c as usize) == 0.0 {
                    return None;
                }
                self.marked[side].set(c as usize, 0.0);
                let (end, opp) = (self.ends[side], self.ends[1 - side]);
                let cp = eps.corners.point(c);
                let dv = end.dist(cp);
                let vis = &self.vis[side];
                if dv + cp.dist(opp) >= self.best
                    || !eps.corners.can_turn(c, end)
                    || eps.corners.pocketed(c, end, |p| vis.target_in(p))
                {
                    return None;
                }
                let improved = self.join(eps, side, c, dv);
                self.found[side].push(Kept {
                    p: cp,
                    d: dv,
                    c,
                    col: eps.cpd.order().column(c),
                    comp: eps.component[c as usize],
                });
                self.stats.kept[side] += 1;
                improved.then_some(Step::Improved { length: self.best })
            }
        }
    }

    /// Joins corner `c` (seen from end `side` at distance `dv`) to every corner the other
    /// end has kept; true if the best path improved.
    ///
    /// A pair's database distance is taken, cheapest first, from the cache of distances to
    /// `c`, or as the straight line when the database says the two see each other (a direct
    /// move); both are lengths of real paths, so they need no taut test. Otherwise rule 4 is
    /// applied from `c`'s side (one lookup), then from the older corner's side, whose first
    /// move starts the walk.
    fn join(&mut self, eps: &Eps, side: usize, c: u32, dv: f64) -> bool {
        let cpd = &*eps.cpd;
        let g = cpd.graph();
        let cp = g.point(c);
        let col = cpd.order().column(c);
        let comp = eps.component[c as usize];
        let (mine, opp) = (self.ends[side], self.ends[1 - side]);
        self.cache.begin(g.node_count());
        self.taut_memo.begin(g.neighbours(c).len());
        let mut improved = false;
        for i in 0..self.found[1 - side].len() {
            let Kept {
                p: p2,
                d: d2,
                c: c2,
                col: col2,
                comp: comp2,
            } = self.found[1 - side][i];
            let straight = cp.dist(p2);
            if dv + straight + d2 >= self.best {
                continue;
            }
            let len = if c2 == c {
                0.0
            } else if comp2 != comp {
                continue;
            } else {
                let cached = self.cache.get(c2 as usize);
                if cached.is_finite() {
                    cached
                } else {
                    match self.database_length(eps, (c, col, mine), (c2, col2, opp), straight) {
                        Some(l) => l,
                        None => continue,
                    }
                }
            };
            self.stats.paths += 1;
            let total = dv + len + d2;
            if total < self.best {
                self.best = total;
                self.best_of = if side == 0 {
                    Best::Pair(c, c2)
                } else {
                    Best::Pair(c2, c)
                };
                self.stats.improvements += 1;
                improved = true;
            }
        }
        improved
    }

    /// The database's distance between corner `c` (column `col`, seen from end `e`) and the
    /// older corner `c2` (column `col2`, seen from end `e2`), at `straight` from each other,
    /// or `None` when rule 4 rejects the pair from either side.
    fn database_length(
        &mut self,
        eps: &Eps,
        (c, col, e): (u32, u32, MeshPoint),
        (c2, col2, e2): (u32, u32, MeshPoint),
        straight: f64,
    ) -> Option<f64> {
        let cpd = &*eps.cpd;
        let g = cpd.graph();
        self.stats.first_moves += 1;
        match cpd.symbol_in_column(c, col2) {
            DIRECT if g.neighbours(c).binary_search(&c2).is_ok() => return Some(straight),
            DIRECT => return None,
            k => {
                // Many older corners share a first move from `c`: its taut test is kept
                // for the rest of this join.
                let known = self.taut_memo.get(k as usize);
                let taut = if known.is_finite() {
                    known > 0.0
                } else {
                    let y = g.neighbours(c).get(k as usize).copied()?;
                    let t = self.taut(eps, c, e, g.point(y));
                    self.taut_memo.set(k as usize, if t { 1.0 } else { 0.0 });
                    t
                };
                if !taut {
                    return None;
                }
            }
        }
        self.stats.first_moves += 1;
        match cpd.first_move_in_column(c2, col) {
            Move::Direct if g.neighbours(c2).binary_search(&c).is_ok() => Some(straight),
            Move::Via(y2) if self.taut(eps, c2, e2, g.point(y2)) => {
                self.walk_length(eps, c2, y2, c, col)
            }
            _ => None,
        }
    }

    /// [`Corners::taut`], in plain `f64` when every coordinate is a small integer.
    #[inline]
    fn taut(&self, eps: &Eps, c: u32, a: MeshPoint, b: MeshPoint) -> bool {
        if self.integer {
            eps.corners.taut_integer(c, a, b)
        } else {
            eps.corners.taut(c, a, b)
        }
    }

    /// Length of the database's path from `from` (whose first move is `hop`) to `to` (in
    /// column `col`), using and filling the cache of distances to `to`; `None` when the walk
    /// does not arrive (a corrupt row: the pair is in one component).
    fn walk_length(&mut self, eps: &Eps, from: u32, hop: u32, to: u32, col: u32) -> Option<f64> {
        let cpd = &*eps.cpd;
        let g = cpd.graph();
        let n = g.node_count();
        self.walk.clear();
        self.walk.push((from, 0.0));
        let mut acc = g.weight(from, hop);
        let mut x = hop;
        let mut tail = 0.0;
        while x != to {
            let cached = self.cache.get(x as usize);
            if cached.is_finite() {
                tail = cached;
                break;
            }
            if self.walk.len() > n {
                return None;
            }
            self.stats.first_moves += 1;
            let y = match cpd.first_move_in_column(x, col) {
                Move::Arrived => to,
                Move::Direct if g.neighbours(x).binary_search(&to).is_err() => return None,
                Move::Direct => to,
                Move::Via(y) => y,
            };
            self.walk.push((x, acc));
            acc += g.weight(x, y);
            x = y;
        }
        let total = acc + tail;
        for &(w, before) in &self.walk {
            self.cache.set(w as usize, total - before);
        }
        Some(total)
    }
}

/// End Point Search answering grid queries on a mesh of the grid's free space and its
/// database (as `taut_polyanya::PolyanyaPlanner` does for Polyanya): grid endpoint rules,
/// and an end on a double corner belongs to its south-east cell.
#[derive(Debug)]
pub struct EpsPlanner<G> {
    grid: G,
    eps: Arc<Eps>,
    stop: Stop,
    ctx: EpsContext,
    answer: MeshAnswer,
}

impl<G: Deref<Target = Grid>> EpsPlanner<G> {
    /// A planner for `grid` over `eps`, stopping as `stop` says.
    pub fn new(grid: G, eps: Arc<Eps>, stop: Stop) -> Self {
        EpsPlanner {
            grid,
            eps,
            stop,
            ctx: EpsContext::new(),
            answer: MeshAnswer::default(),
        }
    }

    /// The last query's counters.
    pub fn last_stats(&self) -> EpsStats {
        self.ctx.stats()
    }
}

impl<G: Deref<Target = Grid>> Planner for EpsPlanner<G> {
    fn name(&self) -> &'static str {
        match self.stop {
            Stop::Optimal => "eps",
            Stop::First => "eps-first",
            Stop::Within(_) => "eps-bounded",
        }
    }

    fn guarantee(&self) -> Guarantee {
        match self.stop {
            Stop::Optimal => Guarantee::Optimal,
            Stop::First => Guarantee::Any,
            Stop::Within(q) => Guarantee::WithinFactor(Factor(q)),
        }
    }

    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError> {
        let (ctx, eps, stop) = (&mut self.ctx, &self.eps, self.stop);
        grid_query(
            &self.grid,
            start,
            goal,
            &mut self.answer,
            out,
            |s, t, rule, answer| ctx.search(eps, s, t, stop, rule, answer),
        )
    }

    fn anytime(&mut self) -> Option<&mut dyn Anytime> {
        Some(self)
    }
}

/// End Point Search as an anytime planner: [`EpsContext::next_solution`] on grid queries, with
/// the grid's endpoint rules. The stop rule of [`EpsPlanner::new`] does not apply: the caller
/// decides when to stop asking.
impl<G: Deref<Target = Grid>> Anytime for EpsPlanner<G> {
    fn start(&mut self, start: Point, goal: Point) -> Result<(), QueryError> {
        self.grid.check_query(start, goal)?;
        self.ctx
            .start(
                &self.eps,
                lattice_point(start),
                lattice_point(goal),
                SOUTH_EAST,
            )
            .map_err(|e| grid_error(e, start, goal))
    }

    fn next_solution(&mut self) -> Option<Improvement> {
        self.ctx.next_solution(&self.eps).map(|s| Improvement {
            length: s.length,
            lower_bound: s.lower_bound,
            optimal: s.optimal,
        })
    }

    fn best(&mut self, out: &mut Answer) {
        out.clear();
        self.ctx.best_path(&self.eps, &mut self.answer.waypoints);
        let w = &self.answer.waypoints;
        if !w.is_empty() {
            out.length = w.windows(2).map(|p| p[0].dist(p[1])).sum();
            out.waypoints
                .extend(w.iter().map(|p| Point::new(p.x as i32, p.y as i32)));
        }
        let st = self.ctx.stats();
        out.stats = Stats {
            expanded: st.expanded,
            generated: st.first_moves,
            heap_ops: 0,
        };
    }
}
