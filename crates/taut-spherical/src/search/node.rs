//! What the search stores: roots, the nodes (intervals of a meridian) that hang from them,
//! and the goal.

use crate::geo::V3;
use crate::grid::Run;

/// No parent: the start's root.
pub(super) const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
pub(super) enum RootKind {
    /// A point: unit vector, latitude and (unwrapped) longitude.
    Point { v: V3, lat: f64, lon: f64 },
    /// A tangent point on the parallel of row line `line` (latitude `lat0`), at longitude
    /// `lon_t`; `s` is +1 when the obstacle is north of the edge, -1 when south. `wrap` is
    /// the multiple of 2π that puts the root's meridians in `lon_t`'s frame: meridian `k` of
    /// its nodes is at longitude `grid.meridian_lon(k) + wrap`.
    Edge {
        v: V3,
        lat0: f64,
        lon_t: f64,
        line: u32,
        s: f64,
        wrap: f64,
    },
}

#[derive(Clone, Copy, Debug)]
pub(super) struct RootData {
    pub(super) kind: RootKind,
    pub(super) g: f64,
    pub(super) parent: u32,
    /// When the parent is an edge root: the longitude where the path leaves the edge.
    pub(super) dep_lon: f64,
    /// Great-circle distance from the root's point (`T` for an edge root) to the goal: one
    /// term of the heuristic of every node of the root.
    pub(super) to_goal: f64,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) root: u32,
    /// The meridian of the interval (unwrapped index).
    pub(super) k: i64,
    /// +1: the paths continue east (into column k), -1: west (into column k - 1).
    pub(super) dir: i64,
    pub(super) lo: f64,
    pub(super) hi: f64,
    /// The run of the column entered.
    pub(super) run: Run,
    /// What the node is.
    pub(super) kind: NodeKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NodeKind {
    /// An interval to expand.
    Interval,
    /// The goal, reached by the root (final).
    Goal,
    /// A walk down meridian `k` from the pole (the root), north pole if `lo > 0`: deferred
    /// until popped, as it may be long and is rarely needed.
    PoleWalk,
}

/// The goal's position, precomputed for the checks in every expansion.
#[derive(Clone, Copy, Debug)]
pub(super) struct Goal {
    pub(super) v: V3,
    pub(super) lat: f64,
    pub(super) lon: f64,
    /// Meridian index if the goal lies on a meridian.
    pub(super) on_meridian: Option<i64>,
}

/// A point root's geometry.
#[derive(Clone, Copy, Debug)]
pub(super) struct PointRoot {
    pub(super) id: u32,
    pub(super) v: V3,
    pub(super) lat: f64,
    pub(super) lon: f64,
    pub(super) g: f64,
}
