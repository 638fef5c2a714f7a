//! The interval primitives every mesh search shares: Polyanya (`taut-polyanya`), the
//! visibility searches of this crate ([`crate::VisibilitySearch`]) and End Point Search
//! (`taut-cpd`).
//!
//! A search node stands for the straight lines from a *root* through an *interval* of one
//! polygon edge. Each end of the interval is an [`IEnd`]: its position (for costs only) and
//! the two *known* points (mesh vertices, or the query point) whose line carries it. Every
//! decision is an orientation test of three known points through a [`Kernel`] (exact robust
//! predicates, or plain `f64` on small integer coordinates, where it is exact too), so no
//! decision ever rests on a computed intersection (`docs/polyanya.md`).
//!
//! Projecting a node across the polygon it enters is one loop, written once:
//! [`cone_sides`] classifies the polygon's vertices against the node's two rays, and
//! [`observable_successors`] turns every edge the cone sees into the interval a successor
//! searches. Polyanya adds its non-observable (turning) successors on top; the visibility
//! searches never turn.

use smallvec::SmallVec;
use taut_grid::Stats;

use crate::error::{End, MeshQueryError};
use crate::geom::MeshPoint;
use crate::geom::{orient_sign, orient_sign_integer};
use crate::mesh::{Ambiguity, Corner, Location, Mesh, NO_POLY};

/// The answer of a mesh query: waypoints from start to goal inclusive (`[start]` when start ==
/// goal, empty when unreachable), the length (`f64::INFINITY` when unreachable) and the
/// search statistics. Reuse one across queries: the search clears and refills it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshAnswer {
    /// Start, every turning point, goal.
    pub waypoints: Vec<MeshPoint>,
    /// Euclidean length of the path.
    pub length: f64,
    /// Expanded and generated nodes, heap operations.
    pub stats: Stats,
}

impl MeshAnswer {
    /// Empties the answer for a new query, keeping its allocation.
    pub fn clear(&mut self) {
        self.waypoints.clear();
        self.length = f64::INFINITY;
        self.stats = Stats::default();
    }
}

/// The id of no vertex (an [`IEnd`] strictly inside an edge).
pub const NONE: u32 = u32::MAX;

/// One end of an interval: its position (for costs), the vertex it coincides with (or
/// [`NONE`]), and the two known points whose line, directed away from the root, carries it.
///
/// Known points are mesh vertex ids; a search gives its query point the id
/// `mesh.vertex_count()`.
#[derive(Debug, Clone, Copy)]
pub struct IEnd {
    /// Where the end lies (used for costs, never for decisions).
    pub p: MeshPoint,
    /// The vertex the end coincides with, or [`NONE`].
    pub vertex: u32,
    /// The first known point of the end's line (the root side).
    pub a: u32,
    /// The second known point of the end's line.
    pub b: u32,
}

/// Orientation kernel: exact for every finite input ([`Robust`]), or plain `f64` for small
/// integers ([`Integer`], exact there and faster).
pub trait Kernel {
    /// The sign of the orientation of `a, b, c`: positive when `c` is left of `a -> b`
    /// (counter-clockwise in a y-up frame), 0 when collinear.
    fn sign(a: MeshPoint, b: MeshPoint, c: MeshPoint) -> i32;
}

/// Shewchuk's adaptive predicates: exact for every finite input.
#[derive(Debug, Clone, Copy)]
pub struct Robust;
impl Kernel for Robust {
    #[inline(always)]
    fn sign(a: MeshPoint, b: MeshPoint, c: MeshPoint) -> i32 {
        orient_sign(a, b, c)
    }
}

/// Plain `f64` arithmetic, exact on coordinates that are small integers
/// ([`crate::is_small_integer`]).
#[derive(Debug, Clone, Copy)]
pub struct Integer;
impl Kernel for Integer {
    #[inline(always)]
    fn sign(a: MeshPoint, b: MeshPoint, c: MeshPoint) -> i32 {
        orient_sign_integer(a, b, c)
    }
}

/// Checks a query point: finds the polygons it may start in (into `out`) under `ambiguity`,
/// and returns the vertex it lies on, if any.
///
/// # Errors
/// [`MeshQueryError::OffMesh`] outside the mesh, [`MeshQueryError::Ambiguous`] on a vertex
/// that `ambiguity` refuses; `which` names the end in the error.
pub fn check_point(
    mesh: &Mesh,
    p: MeshPoint,
    which: End,
    ambiguity: Ambiguity,
    out: &mut SmallVec<[u32; 8]>,
) -> Result<Option<u32>, MeshQueryError> {
    let loc = mesh.locate(p);
    if mesh.endpoint_polygons(loc, ambiguity, out) {
        Ok(match loc {
            Location::Vertex(v) => Some(v),
            _ => None,
        })
    } else if let Location::Vertex(_) = loc {
        Err(MeshQueryError::Ambiguous { which, point: p })
    } else {
        Err(MeshQueryError::OffMesh { which, point: p })
    }
}

/// `i mod n` for `i < 2 n`: the index of a polygon's vertex or edge counted on from another
/// one, without the integer division of `%` (the searches do this per vertex per node).
#[inline(always)]
pub fn wrap(i: usize, n: usize) -> usize {
    debug_assert!(i < 2 * n);
    if i >= n { i - n } else { i }
}

/// Classifies the corners `cs` of a polygon ([`Mesh::poly_corners`]) against a node's two
/// rays: for the chain `c_j = cs[(e + 1 + j) % n]`, `j = 0..n` (from the node's right end round
/// to its left end, `e` being the edge it enters by), `side_r[j]` is the side of `c_j` against
/// the right ray `right = (a, b)` and `side_l[j]` against the left ray. A vertex with
/// `side_r >= 0` and `side_l <= 0` lies inside the closed cone: it is in view of the root.
#[inline(always)]
pub fn cone_sides<K: Kernel>(
    cs: &[Corner],
    e: usize,
    (rl_a, rl_b): (MeshPoint, MeshPoint),
    (ll_a, ll_b): (MeshPoint, MeshPoint),
    side_r: &mut Vec<i8>,
    side_l: &mut Vec<i8>,
) {
    let n = cs.len();
    side_r.clear();
    side_l.clear();
    for j in 0..n {
        let c = cs[wrap(e + 1 + j, n)].p;
        side_r.push(K::sign(rl_a, rl_b, c) as i8);
        side_l.push(K::sign(ll_a, ll_b, c) as i8);
    }
}

/// The observable successors of a node of root `root` entering the polygon of corners `cs`
/// by its edge `e`, whose ends are `right` and `left` with their rays' known points, given
/// the sides of [`cone_sides`]: for every other edge of the polygon that leads to a polygon and that the
/// cone sees with some width, calls `visit(corner, left, right, degenerate)` (`corner` leaves
/// by that edge: [`Corner::adj`] is the polygon across, [`Corner::twin`] the edge there),
/// with the interval of the edge the cone sees. `degenerate` says the cone sees the edge only
/// along one of its sides (the edge lies on a ray): nothing beyond it is seen through it, but
/// a search that turns at the edge's ends (Polyanya) still needs it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn observable_successors(
    cs: &[Corner],
    e: usize,
    root: u32,
    right: (&IEnd, (MeshPoint, MeshPoint)),
    left: (&IEnd, (MeshPoint, MeshPoint)),
    (side_r, side_l): (&[i8], &[i8]),
    mut visit: impl FnMut(&Corner, IEnd, IEnd, bool),
) {
    let n = cs.len();
    for j in 0..n - 1 {
        let k = wrap(e + 1 + j, n);
        let c = &cs[k];
        if c.adj == NO_POLY {
            continue;
        }
        let (sr0, sr1) = (side_r[j], side_r[j + 1]);
        let (sl0, sl1) = (side_l[j], side_l[j + 1]);
        if sr1 < 0 || sl0 > 0 {
            continue; // wholly outside the cone
        }
        if (sr1 == 0 && sr0 < 0) || (sl0 == 0 && sl1 > 0) {
            continue; // touches the cone at one vertex only
        }
        let degenerate = sr0 == 0 && sr1 == 0 || sl0 == 0 && sl1 == 0;
        let (l, r) = observable_ends(root, (c, &cs[wrap(k + 1, n)]), (sr0, sl1), right, left);
        visit(c, l, r, degenerate);
    }
}

/// The ends of a whole edge from corner `u` to corner `w` seen from root `r` (which lies
/// beyond it, `w` on the root's left): each end is the edge's vertex, on the line through the
/// root and itself. Returns (left, right).
#[inline(always)]
pub fn whole_edge(r: u32, u: &Corner, w: &Corner) -> (IEnd, IEnd) {
    (
        IEnd {
            p: w.p,
            vertex: w.v,
            a: r,
            b: w.v,
        },
        IEnd {
            p: u.p,
            vertex: u.v,
            a: r,
            b: u.v,
        },
    )
}

/// The ends of the interval that a node's cone sees on the polygon edge from corner `c0` to
/// corner `c1` (in the
/// chain from the node's right end to its left end), given the sides `sr0` of `c0` against
/// the right ray and `sl1` of `c1` against the left ray: an end is the edge's vertex when that
/// vertex is inside the cone, else the point where the ray (the node's end's line) crosses
/// the edge, keeping that line's two known points. Returns (left, right).
#[inline(always)]
pub fn observable_ends(
    root: u32,
    (c0, c1): (&Corner, &Corner),
    (sr0, sl1): (i8, i8),
    (right, (rl_a, rl_b)): (&IEnd, (MeshPoint, MeshPoint)),
    (left, (ll_a, ll_b)): (&IEnd, (MeshPoint, MeshPoint)),
) -> (IEnd, IEnd) {
    let (p0, p1) = (c0.p, c1.p);
    let r = if sr0 >= 0 {
        IEnd {
            p: p0,
            vertex: c0.v,
            a: root,
            b: c0.v,
        }
    } else {
        IEnd {
            p: intersect(rl_a, rl_b, p0, p1),
            vertex: NONE,
            ..*right
        }
    };
    let l = if sl1 <= 0 {
        IEnd {
            p: p1,
            vertex: c1.v,
            a: root,
            b: c1.v,
        }
    } else {
        IEnd {
            p: intersect(ll_a, ll_b, p0, p1),
            vertex: NONE,
            ..*left
        }
    };
    (l, r)
}

/// Where the line through `a` and `b` crosses the segment `p q` (clamped to it).
#[inline(always)]
pub fn intersect(a: MeshPoint, b: MeshPoint, p: MeshPoint, q: MeshPoint) -> MeshPoint {
    let cross = |o: MeshPoint, u: MeshPoint, v: MeshPoint| {
        (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x)
    };
    let sp = cross(a, b, p);
    let sq = cross(a, b, q);
    let d = sp - sq;
    let t = if d == 0.0 {
        0.0
    } else {
        (sp / d).clamp(0.0, 1.0)
    };
    MeshPoint::new(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y))
}

/// A lower bound on the length of a path from `root` through the interval `[l, r]` (`l` on
/// the root's left) to `goal`: the goal is mirrored across the interval's line when it lies
/// on the root's side, then the straight line is used if it passes through the interval, the
/// nearer end otherwise.
#[inline(always)]
pub fn heuristic(root: MeshPoint, l: MeshPoint, r: MeshPoint, goal: MeshPoint) -> f64 {
    let cross = |o: MeshPoint, u: MeshPoint, v: MeshPoint| {
        (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x)
    };
    if l == r {
        return root.dist(l) + l.dist(goal);
    }
    // Seen from the root, l is on the left and r on the right: the root is left of r -> l.
    let mut g = goal;
    let root_side = cross(r, l, root);
    let goal_side = cross(r, l, goal);
    if root_side * goal_side > 0.0 {
        // Same side: mirror across the line through l and r.
        let (dx, dy) = (l.x - r.x, l.y - r.y);
        let len2 = dx * dx + dy * dy;
        let t = ((goal.x - r.x) * dx + (goal.y - r.y) * dy) / len2;
        let (fx, fy) = (r.x + t * dx, r.y + t * dy);
        g = MeshPoint::new(2.0 * fx - goal.x, 2.0 * fy - goal.y);
    }
    let sr = cross(root, r, g);
    let sl = cross(root, l, g);
    if sr >= 0.0 && sl <= 0.0 {
        root.dist(g)
    } else if sr < 0.0 {
        root.dist(r) + r.dist(g)
    } else {
        root.dist(l) + l.dist(g)
    }
}
