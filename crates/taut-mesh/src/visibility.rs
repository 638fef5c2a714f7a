//! What a point sees: a resumable, observable-only Polyanya expansion.
//!
//! From a fixed root (a query point, or a mesh vertex looking into some of its polygons) the
//! search pushes intervals across polygons exactly as Polyanya's observable successors do,
//! and never turns: every node keeps the root. Each polygon it enters is seen through a cone;
//! the polygon's vertices inside the closed cone are visible from the root, and are reported
//! (corner vertices only: no shortest path turns anywhere else). If a target point is given,
//! nodes are expanded best-first by Polyanya's `f` (the shortest length of a path from the
//! root through the interval to the target), the search reports when the target itself comes
//! into view, and a caller can stop it at any bound and resume it later: End Point Search
//! runs two such searches, one from each end of a query. Without a target the order is
//! depth-first (building the co-visible graph needs every visible corner, in any order).
//!
//! Decisions are the same orientation tests as Polyanya's (`taut-polyanya`), through the same
//! primitives ([`crate::interval`]), on the same
//! interval ends (lines through the root and a known point), so "visible" here means exactly
//! "a straight segment Polyanya would accept".

use smallvec::SmallVec;
use taut_search::{Entry, OpenList, StampedCosts};

use crate::error::{End, MeshQueryError};
use crate::geom::MeshPoint;
use crate::interval::{
    IEnd, Integer, Kernel, Robust, check_point, cone_sides, heuristic, observable_successors,
    whole_edge, wrap,
};
use crate::mesh::{Ambiguity, Corner, Mesh, NO_POLY, is_small_integer};

/// Something a [`VisibilitySearch`] found in view of its root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visible {
    /// A corner vertex (an obstacle touches it), seen inside polygon `poly` (a polygon around
    /// the vertex: at a vertex where obstacles meet, it tells which side the sight line
    /// arrives on).
    Vertex {
        /// The vertex.
        vertex: u32,
        /// A polygon around the vertex containing the last part of the sight line.
        poly: u32,
    },
    /// The target point.
    Target,
}

#[derive(Debug, Clone, Copy)]
struct VNode {
    poly: u32,
    edge: u16,
    left: IEnd,
    right: IEnd,
    f: f64,
}

/// A resumable visibility search (see the module documentation). Reuse one per thread: once
/// warm, starting and running a search allocates nothing.
#[derive(Debug, Default)]
pub struct VisibilitySearch {
    nodes: Vec<VNode>,
    open: OpenList,
    stack: Vec<u32>,
    pending: Vec<Visible>,
    seen: StampedCosts,
    targets: StampedCosts,
    side_r: Vec<i8>,
    side_l: Vec<i8>,
    root: MeshPoint,
    root_id: u32,
    nv: u32,
    target: Option<MeshPoint>,
    target_seen: bool,
    integer: bool,
    /// Set while [`VisibilitySearch::cones`] runs: cul-de-sacs are entered too (points in
    /// them are in view, though no corner is).
    into_dead_ends: bool,
    expanded: u64,
    /// `f` of the node whose sightings are pending (they all lie beyond it).
    last_f: f64,
    /// The bound of the last [`VisibilitySearch::next`]: nodes at or above it are dropped.
    bound: f64,
}

impl VisibilitySearch {
    /// An empty search.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a search from the point `root`, optionally towards `target`.
    ///
    /// # Errors
    /// [`MeshQueryError`] when `root` or `target` is off the mesh, or an ambiguous vertex that
    /// `ambiguity` refuses.
    pub fn start_at_point(
        &mut self,
        mesh: &Mesh,
        root: MeshPoint,
        target: Option<MeshPoint>,
        ambiguity: Ambiguity,
    ) -> Result<(), MeshQueryError> {
        let mut polys = SmallVec::<[u32; 8]>::new();
        let vertex = check_point(mesh, root, End::Start, ambiguity, &mut polys)?;
        let mut tpolys = SmallVec::<[u32; 8]>::new();
        if let Some(t) = target {
            check_point(mesh, t, End::Goal, ambiguity, &mut tpolys)?;
        }
        self.start_located(mesh, root, vertex, &polys, target, &tpolys);
        Ok(())
    }

    /// [`VisibilitySearch::start_at_point`] with both points already located by
    /// [`check_point`]: `root` is mesh vertex `vertex` (if any) and a path leaves it through
    /// `polys`; `target` lies in `target_polys`. Two searches between the same two points
    /// (End Point Search's) locate them once.
    pub fn start_located(
        &mut self,
        mesh: &Mesh,
        root: MeshPoint,
        vertex: Option<u32>,
        polys: &[u32],
        target: Option<MeshPoint>,
        target_polys: &[u32],
    ) {
        self.begin(mesh, root, vertex, target, target_polys);
        self.open_polygons(mesh, polys);
    }

    /// Everything mesh vertex `v` sees looking into the polygons `polys` around it (a corner's
    /// sector), as parts of polygons: calls `f(poly, None)` for each of `polys` (seen whole:
    /// the root lies on its boundary), then `f(poly, Some([ra, rb, la, lb]))` for every cone
    /// through which the sight lines enter another polygon. The part of `poly` in view through
    /// that cone is the closed polygon on or left of the right ray's line, through mesh
    /// vertices `ra` then `rb`, and on or right of the left ray's line, through `la` then `lb`
    /// (ids of mesh vertices, `v` among them). A polygon may come several times, through
    /// different cones, and cul-de-sacs come too, since points in them are in view. A point
    /// `p` of the mesh lies in one of these parts exactly when it sees `v` on a segment the
    /// search from `p` accepts: the decisions are the same orientation tests (`taut-hub`
    /// checks the two against each other on every point of the dao maps).
    pub fn cones(
        &mut self,
        mesh: &Mesh,
        v: u32,
        polys: &[u32],
        mut f: impl FnMut(u32, Option<[u32; 4]>),
    ) {
        self.begin(mesh, mesh.point(v), Some(v), None, &[]);
        self.into_dead_ends = true;
        for &p in polys {
            f(p, None);
        }
        self.open_polygons(mesh, polys);
        while let Some(id) = self.stack.pop() {
            let node = self.nodes[id as usize];
            // The root is vertex `v` (`root_id`), so every known point is a mesh vertex.
            f(
                node.poly,
                Some([node.right.a, node.right.b, node.left.a, node.left.b]),
            );
            self.expanded += 1;
            if self.integer {
                self.expand::<Integer>(mesh, &node);
            } else {
                self.expand::<Robust>(mesh, &node);
            }
            self.pending.clear();
        }
        self.pending.clear();
        self.into_dead_ends = false;
    }

    /// Starts a search from mesh vertex `v` looking into the polygons `polys` around it (one
    /// sector between obstacles, say), optionally towards `target` lying in `target_polys`.
    pub fn start_at_vertex(
        &mut self,
        mesh: &Mesh,
        v: u32,
        polys: &[u32],
        target: Option<MeshPoint>,
        target_polys: &[u32],
    ) {
        self.begin(mesh, mesh.point(v), Some(v), target, target_polys);
        self.open_polygons(mesh, polys);
    }

    fn begin(
        &mut self,
        mesh: &Mesh,
        root: MeshPoint,
        vertex: Option<u32>,
        target: Option<MeshPoint>,
        target_polys: &[u32],
    ) {
        self.nodes.clear();
        self.open.clear();
        self.stack.clear();
        self.pending.clear();
        self.nv = mesh.vertex_count() as u32;
        self.seen.begin(mesh.vertex_count());
        self.targets.begin(mesh.polygon_count());
        for &p in target_polys {
            self.targets.set(p as usize, 0.0);
        }
        self.root = root;
        self.root_id = vertex.unwrap_or(self.nv);
        if let Some(v) = vertex {
            self.seen.set(v as usize, 0.0);
        }
        self.target = target;
        self.target_seen = false;
        self.expanded = 0;
        self.last_f = target.map_or(0.0, |t| root.dist(t));
        self.bound = f64::INFINITY;
        let small = |p: MeshPoint| is_small_integer(p.x) && is_small_integer(p.y);
        self.integer = mesh.is_integer() && small(root) && target.is_none_or(small);
        self.into_dead_ends = false;
    }

    /// Whether the target lies in (or on the boundary of) polygon `poly`.
    #[inline]
    pub fn target_in(&self, poly: u32) -> bool {
        self.targets.get(poly as usize) == 0.0
    }

    /// Nodes expanded since the search started.
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// The smallest `f` among the nodes not yet expanded (`f64::INFINITY` when none is left):
    /// every corner not yet reported lies beyond one of them, or beyond a node dropped at or
    /// above the last bound, so no path from the root through such a corner to the target is
    /// shorter than the smaller of this and that bound. Zero in a search without target.
    pub fn frontier(&self) -> f64 {
        if self.target.is_some() {
            self.open.peek().map_or(f64::INFINITY, |e| e.f)
        } else if self.stack.is_empty() {
            f64::INFINITY
        } else {
            0.0
        }
    }

    /// A lower bound on the length of every path from the root to the target through a
    /// corner this search has not returned yet: [`VisibilitySearch::frontier`], or less while
    /// sightings of the last expanded node are still to be returned.
    pub fn lower_bound(&self) -> f64 {
        if self.pending.is_empty() {
            self.frontier()
        } else {
            self.last_f.min(self.frontier())
        }
    }

    /// The next thing in view whose node's `f` is below `bound`, or `None` when the search
    /// is exhausted up to that bound. Nodes generated with `f` at or above the bound are
    /// dropped, so a search must not be resumed with a larger bound than before (End Point
    /// Search's bound, its best length, only falls). Without a target the bound is ignored.
    pub fn next(&mut self, mesh: &Mesh, bound: f64) -> Option<Visible> {
        self.bound = bound;
        loop {
            if let Some(v) = self.pending.pop() {
                return Some(v);
            }
            let id = if self.target.is_some() {
                match self.open.peek() {
                    Some(e) if e.f < bound => self.open.pop().map(|e| e.id)?,
                    _ => return None,
                }
            } else {
                self.stack.pop()?
            };
            let node = self.nodes[id as usize];
            self.expanded += 1;
            self.last_f = node.f;
            if self.integer {
                self.expand::<Integer>(mesh, &node);
            } else {
                self.expand::<Robust>(mesh, &node);
            }
        }
    }

    /// Reports corner vertex `v`, seen inside `poly`, unless reported before.
    #[inline]
    fn report(&mut self, mesh: &Mesh, c: &Corner, poly: u32) {
        let v = c.v;
        if v == self.root_id || !c.is_corner() {
            return;
        }
        // At a vertex where obstacles meet, each side is a different corner: report every
        // sighting and let the caller tell them apart.
        if !mesh.is_ambiguous(v) {
            if self.seen.get(v as usize) == 0.0 {
                return;
            }
            self.seen.set(v as usize, 0.0);
        }
        self.pending.push(Visible::Vertex { vertex: v, poly });
    }

    #[inline]
    fn report_target(&mut self) {
        if !self.target_seen {
            self.target_seen = true;
            self.pending.push(Visible::Target);
        }
    }

    /// Whether the polygon across `c`'s edge is a cul-de-sac without the target: nothing in
    /// it needs reporting. Its vertices off the entry edge lie between two obstacle edges of
    /// this one convex polygon, so the polygon is their whole sector, of less than 180°: no
    /// shortest path turns there. The two ends of the entry edge are vertices of the polygon
    /// the interval comes from, reported (with the same sector) when that one was entered.
    #[inline(always)]
    fn dead_end(&self, c: &Corner) -> bool {
        !self.into_dead_ends && c.leads_to_one_way() && self.targets.get(c.adj as usize) != 0.0
    }

    fn push(&mut self, node: VNode) {
        if self.target.is_some() && node.f >= self.bound {
            return;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        if self.target.is_some() {
            self.open.push(Entry {
                f: node.f,
                g: 0.0,
                id,
            });
        } else {
            self.stack.push(id);
        }
    }

    fn make(&self, poly: u32, edge: u16, left: IEnd, right: IEnd) -> VNode {
        let f = match self.target {
            Some(t) => heuristic(self.root, left.p, right.p, t),
            None => 0.0,
        };
        VNode {
            poly,
            edge,
            left,
            right,
            f,
        }
    }

    /// The root lies in (or on the boundary of) each of `polys`: everything in them is in
    /// view, and every edge leading elsewhere is an interval seen whole.
    fn open_polygons(&mut self, mesh: &Mesh, polys: &[u32]) {
        let r = self.root_id;
        let rp = self.root;
        for &poly in polys {
            if self.targets.get(poly as usize) == 0.0 {
                self.report_target();
            }
            let cs = mesh.poly_corners(poly);
            for c in cs {
                self.report(mesh, c, poly);
            }
            let n = cs.len();
            for i in 0..n {
                let c = &cs[i];
                if c.adj == NO_POLY || polys.contains(&(c.adj as u32)) || self.dead_end(c) {
                    continue;
                }
                let d = &cs[wrap(i + 1, n)];
                let side = if self.integer {
                    Integer::sign(c.p, d.p, rp)
                } else {
                    Robust::sign(c.p, d.p, rp)
                };
                if side == 0 {
                    // The root is on this edge's line: only the edge itself is seen through
                    // it, and its ends were reported with the polygon.
                    continue;
                }
                let (left, right) = whole_edge(r, c, d);
                let node = self.make(c.adj as u32, c.twin, left, right);
                self.push(node);
            }
        }
    }

    #[inline(always)]
    fn pt(&self, mesh: &Mesh, id: u32) -> MeshPoint {
        if id < self.nv {
            mesh.point(id)
        } else {
            self.root
        }
    }

    fn expand<K: Kernel>(&mut self, mesh: &Mesh, node: &VNode) {
        let poly = node.poly;
        let cs = mesh.poly_corners(poly);
        let n = cs.len();
        let e = node.edge as usize;
        let right_ray = (self.pt(mesh, node.right.a), self.pt(mesh, node.right.b));
        let left_ray = (self.pt(mesh, node.left.a), self.pt(mesh, node.left.b));
        let (mut side_r, mut side_l) = (
            std::mem::take(&mut self.side_r),
            std::mem::take(&mut self.side_l),
        );
        cone_sides::<K>(cs, e, right_ray, left_ray, &mut side_r, &mut side_l);
        for j in 0..n {
            if side_r[j] >= 0 && side_l[j] <= 0 {
                self.report(mesh, &cs[wrap(e + 1 + j, n)], poly);
            }
        }
        if self.targets.get(poly as usize) == 0.0
            && let Some(t) = self.target
            && K::sign(right_ray.0, right_ray.1, t) >= 0
            && K::sign(left_ray.0, left_ray.1, t) <= 0
        {
            self.report_target();
        }
        observable_successors(
            cs,
            e,
            self.root_id,
            (&node.right, right_ray),
            (&node.left, left_ray),
            (&side_r, &side_l),
            |c, left, right, degenerate| {
                // Along a side of the cone: nothing beyond the edge is seen through it.
                if !degenerate && !self.dead_end(c) {
                    let node = self.make(c.adj as u32, c.twin, left, right);
                    self.push(node);
                }
            },
        );
        self.side_r = side_r;
        self.side_l = side_l;
    }
}
