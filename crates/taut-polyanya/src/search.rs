//! Polyanya search: intervals of polygon edges seen from roots, expanded best-first.
//!
//! A node stands for every path that reaches its *interval* (a piece of one edge of the
//! polygon it is about to enter) in a straight line from its *root* (the start, or the last
//! vertex the paths turned at). Expanding it projects the interval across that polygon:
//! - *observable* successors: the parts of the polygon's other edges inside the cone from the
//!   root through the interval, same root;
//! - *non-observable* successors: when the interval ends exactly at a corner vertex (an
//!   obstacle touches it), the parts of the polygon beyond the cone's side, seen from that
//!   vertex, which becomes the root;
//! - *degenerate* nodes: an interval on a line through its root (the root lies on the edge's
//!   line: the cone has no width). Its expansion turns at the edge's end nearer the root, if
//!   that is a corner (or, if the root is an end, sweeps on around it) into the polygon beyond.
//!
//! Decision invariant: every interval endpoint lies on a line through its node's root and two
//! *known* points (mesh vertices or the start), stored as their ids; "which side of the ray
//! through this endpoint is vertex v" is an orientation test of three known points, exact
//! (robust predicates, or plain `f64` on integer meshes). Endpoint coordinates are computed in
//! `f64` only to measure costs. `docs/polyanya.md` explains why the invariant holds.

use smallvec::SmallVec;
use taut_grid::{Stats, Status, Step};
use taut_search::{Entry, OpenList, StampedCosts};

use taut_mesh::interval::{
    IEnd, Integer, Kernel, MeshAnswer, NONE, Robust, check_point, cone_sides, heuristic, intersect,
    observable_successors, whole_edge, wrap,
};
use taut_mesh::{
    Ambiguity, Corner, End, Mesh, MeshPoint, MeshQueryError, NO_POLY, is_small_integer,
};

/// Search options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Skip polygons that lead nowhere: no neighbour but the one the node came from, and no
    /// goal inside (cul-de-sac pruning).
    pub cul_de_sac: bool,
    /// Expand a node at once, without the open list, when it has exactly one successor and is
    /// not the goal (intermediate pruning).
    pub intermediate: bool,
    /// Which polygons a start or goal on an ambiguous vertex belongs to.
    pub ambiguity: Ambiguity,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            cul_de_sac: true,
            intermediate: true,
            ambiguity: Ambiguity::Refuse,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Root strictly on the far side of the interval's edge.
    Normal,
    /// Root on the line of the interval's edge.
    Degenerate,
    /// The goal, seen from `root`.
    Final,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    parent: u32,
    root: u32,
    poly: u32,
    edge: u16,
    kind: Kind,
    /// End on the side of `poly`'s vertex `edge` (the root's left).
    left: IEnd,
    /// End on the side of `poly`'s vertex `edge + 1` (the root's right).
    right: IEnd,
    g: f64,
    f: f64,
}

/// The reusable state of Polyanya searches: node arena, open list, root history, goal
/// polygons and scratch buffers. Create one per thread and reuse it; once warm, a query
/// allocates nothing.
#[derive(Debug, Default)]
pub struct SearchContext {
    nodes: Vec<Node>,
    open: OpenList,
    root_g: StampedCosts,
    /// For each vertex with a `root_g` entry this query: the root it was reached from.
    root_from: Vec<u32>,
    targets: StampedCosts,
    side_r: Vec<i8>,
    side_l: Vec<i8>,
    succ: Vec<Node>,
    start: MeshPoint,
    goal: MeshPoint,
    start_id: u32,
    nv: u32,
    stats: Stats,
    /// The query being searched, if any: its options and whether it runs on the integer
    /// kernel (kept between the steps of a stepped search).
    pending: Option<(Options, bool)>,
    /// A chain of lone successors being expanded when the last step's budget ran out: the
    /// stored node it continues and the node to expand next.
    chain: Option<(u32, Node)>,
    /// How the last query ended, until the next begins.
    done: Option<Status>,
    /// The final node of a query that found its goal.
    final_id: u32,
}

impl SearchContext {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds a shortest path from `start` to `goal` inside `mesh`, filling `out`.
    ///
    /// # Errors
    /// [`MeshQueryError`] when an endpoint is off the mesh (outside it or inside an obstacle),
    /// or an ambiguous vertex that `options.ambiguity` refuses; `out` is then cleared.
    pub fn search(
        &mut self,
        mesh: &Mesh,
        start: MeshPoint,
        goal: MeshPoint,
        options: &Options,
        out: &mut MeshAnswer,
    ) -> Result<Status, MeshQueryError> {
        if let Err(e) = self.begin(mesh, start, goal, options) {
            out.clear();
            return Err(e);
        }
        let Step::Done(status) = self.run(mesh, u64::MAX) else {
            unreachable!("an unlimited run ends");
        };
        self.answer(mesh, out);
        Ok(status)
    }

    /// Begins a query for [`SearchContext::run`], ending any earlier one: the start's
    /// polygons are projected, nothing is expanded.
    ///
    /// # Errors
    /// As [`SearchContext::search`]; no query is then pending.
    pub fn begin(
        &mut self,
        mesh: &Mesh,
        start: MeshPoint,
        goal: MeshPoint,
        options: &Options,
    ) -> Result<(), MeshQueryError> {
        self.pending = None;
        self.chain = None;
        self.done = None;
        self.stats = Stats::default();
        self.start = start;
        self.goal = goal;
        let mut start_polys = SmallVec::<[u32; 8]>::new();
        let start_vertex =
            check_point(mesh, start, End::Start, options.ambiguity, &mut start_polys)?;
        let mut goal_polys = SmallVec::<[u32; 8]>::new();
        check_point(mesh, goal, End::Goal, options.ambiguity, &mut goal_polys)?;
        if start == goal {
            self.done = Some(Status::Found);
            return Ok(());
        }
        let small_int = |p: MeshPoint| is_small_integer(p.x) && is_small_integer(p.y);
        let integer = mesh.is_integer() && small_int(start) && small_int(goal);
        if integer {
            self.init::<Integer>(mesh, start_vertex, &start_polys, &goal_polys, options);
        } else {
            self.init::<Robust>(mesh, start_vertex, &start_polys, &goal_polys, options);
        }
        self.pending = Some((*options, integer));
        Ok(())
    }

    /// Runs at most `budget` expansions of the query begun by [`SearchContext::begin`] on the
    /// same mesh. `Done(Unreachable)` when no query is pending.
    pub fn run(&mut self, mesh: &Mesh, budget: u64) -> Step {
        let Some((options, integer)) = self.pending else {
            return Step::Done(self.done.unwrap_or(Status::Unreachable));
        };
        let ended = if integer {
            self.steps::<Integer>(mesh, budget, &options)
        } else {
            self.steps::<Robust>(mesh, budget, &options)
        };
        match ended {
            Some(status) => {
                self.pending = None;
                self.chain = None;
                self.done = Some(status);
                Step::Done(status)
            }
            None => Step::Pending,
        }
    }

    /// The answer of the last query into `out` (on the mesh it searched): its path once
    /// found, the statistics so far either way.
    pub fn answer(&self, mesh: &Mesh, out: &mut MeshAnswer) {
        out.clear();
        out.stats = self.stats;
        if self.done != Some(Status::Found) {
            return;
        }
        if self.start == self.goal {
            out.waypoints.push(self.start);
            out.length = 0.0;
        } else {
            self.extract(mesh, self.final_id, out);
        }
    }

    /// [`SearchContext::answer`] for a search of a grid's mesh in lattice coordinates (the
    /// grid planner's stepped answer): the waypoints as lattice points. Allocates nothing
    /// once `out` has room.
    pub fn answer_grid(&self, mesh: &Mesh, out: &mut taut_grid::Answer) {
        out.clear();
        out.stats = self.stats;
        if self.done != Some(Status::Found) {
            return;
        }
        let lattice = |p: MeshPoint| taut_grid::Point::new(p.x as i32, p.y as i32);
        if self.start == self.goal {
            out.waypoints.push(lattice(self.start));
            out.length = 0.0;
            return;
        }
        let w = &mut out.waypoints;
        w.push(lattice(self.goal));
        let mut id = self.final_id;
        let mut last = NONE;
        while id != NONE {
            let n = &self.nodes[id as usize];
            if n.root != last {
                w.push(lattice(self.pt(mesh, n.root)));
                last = n.root;
            }
            id = n.parent;
        }
        if *w.last().expect("not empty") != lattice(self.start) {
            w.push(lattice(self.start));
        }
        w.reverse();
        // The length as `extract` sums it: over the mesh points, in order.
        out.length = w
            .windows(2)
            .map(|p| {
                let (a, b) = (p[0], p[1]);
                MeshPoint::new(f64::from(a.x), f64::from(a.y))
                    .dist(MeshPoint::new(f64::from(b.x), f64::from(b.y)))
            })
            .sum();
    }

    /// The statistics of the current (or last) query.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Drops the pending query.
    pub fn cancel(&mut self) {
        self.pending = None;
        self.chain = None;
        self.done = None;
    }

    #[inline(always)]
    fn pt(&self, mesh: &Mesh, id: u32) -> MeshPoint {
        if id < self.nv {
            mesh.point(id)
        } else {
            self.start
        }
    }

    /// Sets a query up (`self.start`, `self.goal` set): the start's polygons projected onto
    /// the open list.
    fn init<K: Kernel>(
        &mut self,
        mesh: &Mesh,
        start_vertex: Option<u32>,
        start_polys: &[u32],
        goal_polys: &[u32],
        options: &Options,
    ) {
        self.nodes.clear();
        self.open.clear();
        self.nv = mesh.vertex_count() as u32;
        self.start_id = start_vertex.unwrap_or(self.nv);
        self.root_g.begin(mesh.vertex_count());
        if self.root_from.len() < mesh.vertex_count() {
            self.root_from.resize(mesh.vertex_count(), NONE);
        }
        self.targets.begin(mesh.polygon_count());
        for &p in goal_polys {
            self.targets.set(p as usize, 0.0);
        }
        if let Some(v) = start_vertex {
            self.root_g.set(v as usize, 0.0);
            self.root_from[v as usize] = NONE;
        }
        // Start: every start polygon, as if the start were a vertex on its boundary.
        self.succ.clear();
        for &p in start_polys {
            self.expand_point::<K>(
                mesh,
                self.start_id,
                0.0,
                p,
                u16::MAX,
                Some(start_polys),
                options,
            );
        }
        self.push_succ(mesh, NONE);
    }

    /// Expands at most `budget` nodes; the status once the search has ended.
    fn steps<K: Kernel>(&mut self, mesh: &Mesh, budget: u64, options: &Options) -> Option<Status> {
        let stop_at = self.stats.expanded.saturating_add(budget);
        loop {
            // `id` is the stored node `node` continues: same root, so paths extract alike.
            let (mut id, mut node) = match self.chain.take() {
                Some(chain) => chain,
                None => {
                    let Some(e) = self.open.pop() else {
                        return Some(Status::Unreachable);
                    };
                    self.stats.heap_ops += 1;
                    (e.id, self.nodes[e.id as usize])
                }
            };
            // The node and the lone successors intermediate pruning expands at once after it
            // (a local loop: the chain goes through `self.chain` only when the budget ends it).
            loop {
                if node.kind == Kind::Final {
                    self.final_id = id;
                    return Some(Status::Found);
                }
                if node.root < self.nv && node.g > self.root_g.get(node.root as usize) {
                    break;
                }
                if self.stats.expanded >= stop_at {
                    // Kept to be expanded first by the next step (nothing it was checked
                    // against changes in between).
                    self.chain = Some((id, node));
                    return None;
                }
                self.stats.expanded += 1;
                self.succ.clear();
                self.expand::<K>(mesh, &node, options);
                // Intermediate pruning: a lone successor that is not the goal is expanded at
                // once instead of going through the open list.
                if options.intermediate && self.succ.len() == 1 && self.succ[0].kind != Kind::Final
                {
                    let mut s = self.succ[0];
                    if s.root != node.root {
                        // A turn: keep the node, for the path.
                        s.parent = id;
                        self.nodes.push(s);
                        id = self.nodes.len() as u32 - 1;
                    }
                    node = s;
                    continue;
                }
                self.push_succ(mesh, id);
                break;
            }
        }
    }

    /// The f-value of a normal or degenerate node: `g` plus a lower bound on the rest of the
    /// way through its interval.
    #[inline]
    fn f_value(&self, mesh: &Mesh, s: &Node) -> f64 {
        let rp = self.pt(mesh, s.root);
        let (l, r) = (s.left.p, s.right.p);
        let h = if s.kind == Kind::Degenerate {
            (rp.dist(l) + l.dist(self.goal)).min(rp.dist(r) + r.dist(self.goal))
        } else {
            heuristic(rp, l, r, self.goal)
        };
        s.g + h
    }

    fn push_succ(&mut self, mesh: &Mesh, parent: u32) {
        for i in 0..self.succ.len() {
            let mut s = self.succ[i];
            s.parent = parent;
            if s.kind != Kind::Final {
                s.f = self.f_value(mesh, &s);
            }
            let id = self.nodes.len() as u32;
            self.nodes.push(s);
            let g = if s.kind == Kind::Final { s.f } else { s.g };
            self.open.push(Entry { f: s.f, g, id });
            self.stats.heap_ops += 1;
        }
    }

    fn extract(&self, mesh: &Mesh, final_id: u32, out: &mut MeshAnswer) {
        out.waypoints.push(self.goal);
        let mut id = final_id;
        let mut last = NONE;
        while id != NONE {
            let n = &self.nodes[id as usize];
            if n.root != last {
                out.waypoints.push(self.pt(mesh, n.root));
                last = n.root;
            }
            id = n.parent;
        }
        if *out.waypoints.last().unwrap_or(&self.goal) != self.start {
            out.waypoints.push(self.start);
        }
        out.waypoints.reverse();
        out.length = out.waypoints.windows(2).map(|w| w[0].dist(w[1])).sum();
    }

    /// Records a new root `r` reached with cost `g` by turning there on a path from root
    /// `from`; false when the node must be pruned (root-level pruning):
    /// - `r` was reached more cheaply before;
    /// - or as cheaply, from another root. Both arrivals then lead to the same optimal paths
    ///   beyond `r` (a path that bends at `r` the wrong way for one of them could be shortened
    ///   near `r`, so it is not optimal), and keeping both would double the search below `r`
    ///   at every tie, which grid-like maps are full of. Arrivals from the *same* root with
    ///   the same cost are kept: they are the two sides of one cone meeting at `r` (an
    ///   interval ending at `r` on its right, another on its left), each turning its own way.
    #[inline]
    fn admit_root(&mut self, r: u32, g: f64, from: u32) -> bool {
        if r >= self.nv {
            return true;
        }
        let best = self.root_g.get(r as usize);
        if g > best || (g == best && self.root_from[r as usize] != from) {
            return false;
        }
        if g < best {
            self.root_g.set(r as usize, g);
            self.root_from[r as usize] = from;
        }
        true
    }

    /// Adds the goal node for root `r` (cost `g`) if it is a target polygon.
    #[inline]
    fn maybe_final(&mut self, mesh: &Mesh, poly: u32, r: u32, g: f64, template: &Node) {
        if self.targets.get(poly as usize) == 0.0 {
            let f = g + self.pt(mesh, r).dist(self.goal);
            self.stats.generated += 1;
            self.succ.push(Node {
                kind: Kind::Final,
                root: r,
                g,
                f,
                ..*template
            });
        }
    }

    /// Successors of a root `r` (cost `g`) lying on the boundary of polygon `poly`: every edge
    /// of `poly` except `skip` (the edge the search arrived through) is visible from `r`.
    /// `start_set`: at the start, edges shared with another start polygon are skipped.
    #[allow(clippy::too_many_arguments)]
    fn expand_point<K: Kernel>(
        &mut self,
        mesh: &Mesh,
        r: u32,
        g: f64,
        poly: u32,
        skip: u16,
        start_set: Option<&[u32]>,
        options: &Options,
    ) {
        let template = Node {
            parent: NONE,
            root: r,
            poly,
            edge: 0,
            kind: Kind::Final,
            left: IEnd {
                p: MeshPoint::default(),
                vertex: NONE,
                a: NONE,
                b: NONE,
            },
            right: IEnd {
                p: MeshPoint::default(),
                vertex: NONE,
                a: NONE,
                b: NONE,
            },
            g,
            f: 0.0,
        };
        self.maybe_final(mesh, poly, r, g, &template);
        let rp = self.pt(mesh, r);
        let cs = mesh.poly_corners(poly);
        let n = cs.len();
        for i in 0..n {
            let c = &cs[i];
            if i as u16 == skip || c.adj == NO_POLY {
                continue;
            }
            let d = &cs[wrap(i + 1, n)];
            let (up, wp) = (c.p, d.p);
            let side = K::sign(up, wp, rp);
            let degenerate = side == 0;
            if degenerate && let Some(set) = start_set {
                // The start lies on this edge's line; if on the edge itself, the polygon
                // across is a start polygon too.
                let on_edge = c.v == r || d.v == r || {
                    let d = (rp.x - up.x) * (wp.x - up.x) + (rp.y - up.y) * (wp.y - up.y);
                    let len2 = (wp.x - up.x).powi(2) + (wp.y - up.y).powi(2);
                    (0.0..=len2).contains(&d)
                };
                if on_edge && set.contains(&(c.adj as u32)) {
                    continue;
                }
            }
            if self.dead_end(c, options) {
                continue;
            }
            // In the next polygon's numbering the edge runs d -> c: left (seen from r) is d,
            // right is c.
            let (left, right) = whole_edge(r, c, d);
            self.add(r, g, c.adj as u32, c.twin, left, right, degenerate);
        }
    }

    /// Whether the polygon across the edge leaving corner `c` is a cul-de-sac to skip: that
    /// edge is its only one leading to another polygon, and the goal is not inside it.
    #[inline]
    fn dead_end(&self, c: &Corner, options: &Options) -> bool {
        options.cul_de_sac && c.leads_to_one_way() && self.targets.get(c.adj as usize) != 0.0
    }

    /// Pushes a successor node into the successor buffer. Its f-value is left for
    /// [`SearchContext::push_succ`]: a lone successor expanded at once never needs one.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn add(
        &mut self,
        root: u32,
        g: f64,
        poly: u32,
        edge: u16,
        left: IEnd,
        right: IEnd,
        degenerate: bool,
    ) {
        self.stats.generated += 1;
        self.succ.push(Node {
            parent: NONE,
            root,
            poly,
            edge,
            kind: if degenerate {
                Kind::Degenerate
            } else {
                Kind::Normal
            },
            left,
            right,
            g,
            f: f64::NAN,
        });
    }

    fn expand<K: Kernel>(&mut self, mesh: &Mesh, node: &Node, options: &Options) {
        let poly = node.poly;
        let cs = mesh.poly_corners(poly);
        let n = cs.len();
        let e = node.edge as usize;
        if node.kind == Kind::Degenerate {
            let (a, b) = (&cs[e], &cs[wrap(e + 1, n)]);
            if node.root == a.v || node.root == b.v {
                // The root is an end of the edge: sweep on around it into this polygon.
                let r = node.root;
                self.expand_point::<K>(mesh, r, node.g, poly, node.edge, None, options);
                return;
            }
            // The root lies on the edge's line beyond it: a path along the line reaches the
            // nearer end first, and may turn only there. Turning at the farther end instead
            // would give paths into this polygon that the nearer end sees directly (the
            // polygon is convex and the three points are collinear), at no lower cost.
            let rp = self.pt(mesh, node.root);
            let near = if rp.dist(a.p) <= rp.dist(b.p) { a } else { b };
            if near.is_corner() {
                let g = node.g + rp.dist(near.p);
                if self.admit_root(near.v, g, node.root) {
                    self.expand_point::<K>(mesh, near.v, g, poly, node.edge, None, options);
                }
            }
            return;
        }
        let root = node.root;
        let rp = self.pt(mesh, root);
        let (rl_a, rl_b) = (self.pt(mesh, node.right.a), self.pt(mesh, node.right.b));
        let (ll_a, ll_b) = (self.pt(mesh, node.left.a), self.pt(mesh, node.left.b));
        let (mut side_r, mut side_l) = (
            std::mem::take(&mut self.side_r),
            std::mem::take(&mut self.side_l),
        );
        cone_sides::<K>(cs, e, (rl_a, rl_b), (ll_a, ll_b), &mut side_r, &mut side_l);
        // The goal, if visible through the interval.
        if self.targets.get(poly as usize) == 0.0 {
            let g = self.goal;
            let sr = K::sign(rl_a, rl_b, g);
            let sl = K::sign(ll_a, ll_b, g);
            if sr >= 0 && sl <= 0 {
                self.maybe_final(mesh, poly, root, node.g, node);
            }
        }
        // Observable successors.
        observable_successors(
            cs,
            e,
            root,
            (&node.right, (rl_a, rl_b)),
            (&node.left, (ll_a, ll_b)),
            (&side_r, &side_l),
            |c, left, right, degenerate| {
                if !self.dead_end(c, options) {
                    self.add(root, node.g, c.adj as u32, c.twin, left, right, degenerate);
                }
            },
        );
        self.side_r = side_r;
        self.side_l = side_l;
        // Non-observable successors on the right: the interval ends at the corner v[e+1].
        let rc = &cs[wrap(e + 1, n)];
        let rv = rc.v;
        if node.right.vertex == rv && rc.is_corner() && self.side_r[1] < 0 {
            let g = node.g + rp.dist(rc.p);
            if self.admit_root(rv, g, root) {
                if self.targets.get(poly as usize) == 0.0 && K::sign(rl_a, rl_b, self.goal) < 0 {
                    self.maybe_final(mesh, poly, rv, g, node);
                }
                for j in 0..n - 1 {
                    let (s0, s1) = (self.side_r[j], self.side_r[j + 1]);
                    if s0 >= 0 && j > 0 {
                        break;
                    }
                    let k = wrap(e + 1 + j, n);
                    let ck = &cs[k];
                    if ck.adj == NO_POLY {
                        if s1 >= 0 {
                            break;
                        }
                        continue;
                    }
                    let ck1 = &cs[wrap(k + 1, n)];
                    let (cj, cj1, pj, pj1) = (ck.v, ck1.v, ck.p, ck1.p);
                    let right = IEnd {
                        p: pj,
                        vertex: cj,
                        a: rv,
                        b: cj,
                    };
                    let left = if s1 <= 0 {
                        IEnd {
                            p: pj1,
                            vertex: cj1,
                            a: rv,
                            b: cj1,
                        }
                    } else {
                        IEnd {
                            p: intersect(rl_a, rl_b, pj, pj1),
                            vertex: NONE,
                            ..node.right
                        }
                    };
                    if !self.dead_end(ck, options) {
                        let degenerate = j == 0 || K::sign(rc.p, pj, pj1) == 0;
                        self.add(rv, g, ck.adj as u32, ck.twin, left, right, degenerate);
                    }
                    if s1 >= 0 {
                        break;
                    }
                }
            }
        }
        // Non-observable successors on the left: the interval ends at the corner v[e].
        let lc = &cs[e];
        let lv = lc.v;
        if node.left.vertex == lv && lc.is_corner() && self.side_l[n - 2] > 0 {
            let g = node.g + rp.dist(lc.p);
            if self.admit_root(lv, g, root) {
                if self.targets.get(poly as usize) == 0.0 && K::sign(ll_a, ll_b, self.goal) > 0 {
                    self.maybe_final(mesh, poly, lv, g, node);
                }
                for j in (0..n - 1).rev() {
                    let (s0, s1) = (self.side_l[j], self.side_l[j + 1]);
                    if s1 <= 0 && j < n - 2 {
                        break;
                    }
                    let k = wrap(e + 1 + j, n);
                    let ck = &cs[k];
                    if ck.adj == NO_POLY {
                        if s0 <= 0 {
                            break;
                        }
                        continue;
                    }
                    let ck1 = &cs[wrap(k + 1, n)];
                    let (cj, cj1, pj, pj1) = (ck.v, ck1.v, ck.p, ck1.p);
                    let left = IEnd {
                        p: pj1,
                        vertex: cj1,
                        a: lv,
                        b: cj1,
                    };
                    let right = if s0 >= 0 {
                        IEnd {
                            p: pj,
                            vertex: cj,
                            a: lv,
                            b: cj,
                        }
                    } else {
                        IEnd {
                            p: intersect(ll_a, ll_b, pj, pj1),
                            vertex: NONE,
                            ..node.left
                        }
                    };
                    if !self.dead_end(ck, options) {
                        let degenerate = j == n - 2 || K::sign(lc.p, pj, pj1) == 0;
                        self.add(lv, g, ck.adj as u32, ck.twin, left, right, degenerate);
                    }
                    if s0 <= 0 {
                        break;
                    }
                }
            }
        }
    }
}
