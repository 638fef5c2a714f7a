//! A debug check of every expansion's successors (feature `check-successors`, small maps only).
//!
//! While a node `u` is expanded, the search records every corner it hands to the offer (before
//! the offer's own early-outs: a closed corner, a cost that does not improve), and separately
//! those the pocket rule drops. When the expansion completes without seeing the goal, the
//! record is compared with a brute-force list. A convex corner `w` of the map is a *candidate*
//! when it
//!
//! 1. is in sight of `u` (`Grid::line_of_sight`, and for the start the double-corner endpoint
//!    rule, `Grid::endpoint_allows`),
//! 2. lies in `u`'s projection field (the start: every closed quadrant of a free cell, only the
//!    south-east one on a double corner; a corner reached from `p`: the closed cone from the
//!    direction `p → u` to `field_edge` of `u`, as `docs/ray.md` defines it), and
//! 3. is *tangent*: a path arriving along `u → w` can bend round `w`'s blocked cell. That is
//!    the cell lies on one side of the line `u w`, touching it at most along the edge the path
//!    arrives by (`field_edge` alone also answers for a ray that goes on along an edge of the
//!    cell or points into it, where no bend is possible).
//!
//! The sweep does not offer every candidate, by design: an obstacle that lies strictly inside
//! a sector, touching neither bound ray and met by no walk, hides nothing the goal needs
//! (`docs/ray.md`, "Why no successor a shortest path needs is missed"), and its corners are
//! never looked at. So the list holds the candidates a shortest path from `u` to *this* goal
//! needs: `|u w| + D(w) = D(u)` and the path turns at `w` (goes on from `w` to a corner or the
//! goal off the line `u w`), where `D` is the exact cost to the goal computed by Dijkstra on
//! the visibility graph of the corners (built once per map). A candidate a shortest path only
//! runs straight through is not listed: the corner where it turns, farther along the same ray,
//! is. Candidates not recorded and not listed are counted ([`CheckReport::skipped`]).
//!
//! One exemption: a corner on the continuation of `p → u` beyond `u` is not looked for, since
//! the ray along the continuation is the parent's (`docs/ray.md`, "Continuation"): the parent
//! cast it through `u` and offered the corners it grazes at the same cost, and the parent's own
//! check holds it to that (the segment `p w` through the convex corner `u` is in sight when
//! `p u` and `u w` are, and has the same direction).
//!
//! A mismatch is a listed corner that was not offered (*missing*: a successor a shortest path
//! needs), a listed corner the pocket rule dropped (*dropped as a pocket*: the rule is meant
//! to drop only corners behind which the goal cannot lie), or a recorded corner out of sight
//! of `u` (*extra*: it would give a path that is not legal). Recorded corners in sight but
//! outside the field or not tangent are counted ([`CheckReport::wasted`]).
//!
//! The check costs a line-of-sight test per corner and expansion and a visibility graph per
//! map, so it runs only on maps of at most [`MAX_CELLS`] cells; on larger ones it does nothing.
//! With the feature off none of this is compiled.

use std::fmt;

use taut_grid::{Grid, Point, quad};

use crate::geom::{HEADINGS, V, cross, dot, in_closed_sector, mask, primitive, sub};
use crate::geom::{blocked_cell, field_edge};
use crate::index::RayIndex;

/// The largest map (in cells) the check runs on.
pub const MAX_CELLS: i64 = 64 * 64;

/// How many mismatches a report keeps in full (the rest are only counted).
const KEEP: usize = 16;

/// One expansion whose successors differ from the brute-force list.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// The query's start.
    pub start: Point,
    /// The query's goal.
    pub goal: Point,
    /// The node expanded.
    pub node: Point,
    /// Its parent (`None` for the start).
    pub parent: Option<Point>,
    /// Corners the goal needs (in the list) that were not offered.
    pub missing: Vec<Point>,
    /// Corners the goal needs that the pocket rule dropped.
    pub pocketed: Vec<Point>,
    /// Corners offered that are not in sight of the node.
    pub extra: Vec<Point>,
    /// Every corner recorded (offered or dropped as a pocket).
    pub recorded: Vec<Point>,
    /// Of those, the ones dropped as pockets.
    pub pockets: Vec<Point>,
    /// The map (`Grid::to_ascii`).
    pub map: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "query {} -> {}: expanding {} (parent {}): missing {:?}, dropped as pockets {:?}, extra {:?}; recorded {:?}, pockets {:?}",
            self.start,
            self.goal,
            self.node,
            self.parent
                .map_or_else(|| "none, the start".to_string(), |p| p.to_string()),
            self.missing,
            self.pocketed,
            self.extra,
            self.recorded,
            self.pockets
        )?;
        write!(f, "{}", self.map)
    }
}

/// What the check saw, summed over the queries of one [`crate::SearchContext`].
#[derive(Debug, Clone, Default)]
pub struct CheckReport {
    /// Expansions compared with the brute-force list.
    pub expansions: u64,
    /// Corners in the brute-force lists (visible tangent corners in the field that start a
    /// shortest path to the goal).
    pub expected: u64,
    /// Visible tangent corners in the field, whether the goal needs them or not.
    pub literal: u64,
    /// Of those, the ones not recorded (by design: nothing the goal needs lies behind them).
    pub skipped: u64,
    /// Corners recorded (offered or dropped as pockets), counted once per expansion.
    pub recorded: u64,
    /// Of those, the ones the pocket rule dropped.
    pub pockets: u64,
    /// Recorded corners in sight but outside the field or not tangent (harmless extra work).
    pub wasted: u64,
    /// Expansions with a mismatch.
    pub failures: u64,
    /// The first few mismatches in full.
    pub mismatches: Vec<Mismatch>,
}

impl CheckReport {
    /// Whether every expansion matched.
    pub fn ok(&self) -> bool {
        self.failures == 0
    }
}

/// The record of the expansion under way, and the report.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    /// Corners handed to the offer.
    offered: Vec<Point>,
    /// Corners the pocket rule dropped.
    pocket: Vec<Point>,
    oracle: Option<Oracle>,
    pub report: CheckReport,
}

impl Recorder {
    /// A new expansion begins.
    #[inline]
    pub fn begin(&mut self) {
        self.offered.clear();
        self.pocket.clear();
    }

    /// `w` is handed to the offer.
    #[inline]
    pub fn offered(&mut self, w: Point) {
        self.offered.push(w);
    }

    /// The pocket rule drops `w`.
    #[inline]
    pub fn pocket(&mut self, w: Point) {
        self.pocket.push(w);
    }

    /// The expansion of `u` (reached from `parent`) is complete and the goal was not in
    /// sight: compares the record with the brute-force list.
    pub fn verify(
        &mut self,
        grid: &Grid,
        index: &RayIndex,
        start: Point,
        goal: Point,
        u: Point,
        parent: Option<Point>,
    ) {
        if i64::from(grid.width()) * i64::from(grid.height()) > MAX_CELLS {
            return;
        }
        let oracle = Oracle::get(&mut self.oracle, grid, index, goal);
        let is_start = parent.is_none();
        let field = Field::of(grid, u, parent);
        let key = |p: &Point| (p.y, p.x);
        let mut recorded: Vec<Point> = self
            .offered
            .iter()
            .copied()
            .filter(|&w| w != u && index.corner_id(w).is_some())
            .collect();
        recorded.sort_unstable_by_key(key);
        recorded.dedup();
        let mut pockets = self.pocket.clone();
        pockets.sort_unstable_by_key(key);
        pockets.dedup();
        let has = |v: &[Point], w: Point| v.binary_search_by_key(&key(&w), key).is_ok();
        let seen = |w: Point| grid.line_of_sight(u, w) && (!is_start || grid.endpoint_allows(u, w));
        // The cost to the goal from u: straight, or through a corner in sight.
        let mut du = if seen(goal) && grid.endpoint_allows(goal, u) {
            u.dist(goal)
        } else {
            f64::INFINITY
        };
        for id in 0..index.corners() {
            let w = index.point(id as u32);
            if w != u && oracle.dist[id].is_finite() && seen(w) {
                du = du.min(u.dist(w) + oracle.dist[id]);
            }
        }
        let (mut missing, mut pocketed) = (Vec::new(), Vec::new());
        let (mut expected, mut literal, mut skipped) = (0, 0, 0);
        for id in 0..index.corners() {
            let w = index.point(id as u32);
            if w == u || !seen(w) {
                continue;
            }
            let uw = sub(w, u);
            if !field.holds(uw) || !tangent(grid, w, primitive(uw).0) || field.on_continuation(uw) {
                continue;
            }
            literal += 1;
            let offered = has(&recorded, w);
            if !offered {
                skipped += 1;
            }
            if !du.is_finite()
                || u.dist(w) + oracle.dist[id] > du + 1e-9
                || !oracle.bends(grid, u, id, du)
            {
                continue;
            }
            expected += 1;
            if !offered {
                missing.push(w);
            } else if has(&pockets, w) {
                pocketed.push(w);
            }
        }
        let mut extra = Vec::new();
        let mut wasted = 0;
        for &w in &recorded {
            if !seen(w) {
                extra.push(w);
            } else {
                let uw = sub(w, u);
                if !field.holds(uw) || !tangent(grid, w, primitive(uw).0) {
                    wasted += 1;
                }
            }
        }
        let r = &mut self.report;
        r.expansions += 1;
        r.expected += expected;
        r.literal += literal;
        r.skipped += skipped;
        r.recorded += recorded.len() as u64;
        r.pockets += pockets.len() as u64;
        r.wasted += wasted;
        if !missing.is_empty() || !pocketed.is_empty() || !extra.is_empty() {
            r.failures += 1;
            if r.mismatches.len() < KEEP {
                r.mismatches.push(Mismatch {
                    start,
                    goal,
                    node: u,
                    parent,
                    missing,
                    pocketed,
                    extra,
                    recorded,
                    pockets,
                    map: grid.to_ascii(),
                });
            }
        }
    }
}

/// Exact costs to the goal from every convex corner, by Dijkstra on the visibility graph of
/// the corners (built once per map), the goal joined to the corners in sight of it under the
/// double-corner endpoint rule.
#[derive(Debug)]
struct Oracle {
    grid: Grid,
    /// The corners, by number.
    corners: Vec<Point>,
    /// Per pair of corners (by number): in sight of each other.
    vis: Vec<bool>,
    goal: Point,
    /// Per corner: the cost of a shortest path to the goal (`INFINITY` if none).
    dist: Vec<f64>,
}

impl Oracle {
    /// Whether a shortest path from `u` to the goal goes to corner `id` and turns there (a
    /// path that runs straight on through it turns, if at all, at a corner farther along the
    /// same ray, which is looked for in its own right).
    fn bends(&self, grid: &Grid, u: Point, id: usize, du: f64) -> bool {
        let n = self.dist.len();
        let (w, goal) = (self.corners[id], self.goal);
        let (uw, base) = (sub(w, u), u.dist(w));
        let turns = |x: Point| cross(uw, sub(x, w)) != 0;
        if turns(goal)
            && grid.line_of_sight(w, goal)
            && grid.endpoint_allows(goal, w)
            && base + w.dist(goal) <= du + 1e-9
        {
            return true;
        }
        (0..n).any(|j| {
            let x = self.corners[j];
            self.vis[id * n + j] && turns(x) && base + w.dist(x) + self.dist[j] <= du + 1e-9
        })
    }

    /// The oracle for `grid` and `goal`, rebuilt when either changed.
    fn get<'a>(
        slot: &'a mut Option<Oracle>,
        grid: &Grid,
        index: &RayIndex,
        goal: Point,
    ) -> &'a Oracle {
        let n = index.corners();
        let pts: Vec<Point> = (0..n as u32).map(|i| index.point(i)).collect();
        if slot.as_ref().is_none_or(|o| o.grid != *grid) {
            let mut vis = vec![false; n * n];
            for i in 0..n {
                for j in i + 1..n {
                    let v = grid.line_of_sight(pts[i], pts[j]);
                    vis[i * n + j] = v;
                    vis[j * n + i] = v;
                }
            }
            *slot = Some(Oracle {
                grid: grid.clone(),
                corners: pts.clone(),
                vis,
                goal,
                dist: Vec::new(),
            });
        }
        let o = slot.as_mut().expect("just built");
        if o.goal != goal || o.dist.len() != n {
            o.goal = goal;
            let mut dist: Vec<f64> = pts
                .iter()
                .map(|&w| {
                    if grid.line_of_sight(w, goal) && grid.endpoint_allows(goal, w) {
                        w.dist(goal)
                    } else {
                        f64::INFINITY
                    }
                })
                .collect();
            let mut done = vec![false; n];
            while let Some(i) = (0..n)
                .filter(|&i| !done[i] && dist[i].is_finite())
                .min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
            {
                done[i] = true;
                for j in 0..n {
                    if !done[j] && o.vis[i * n + j] {
                        let d = dist[i] + pts[i].dist(pts[j]);
                        if d < dist[j] {
                            dist[j] = d;
                        }
                    }
                }
            }
            o.dist = dist;
        }
        o
    }
}

/// A node's projection field, as closed sectors (each less than a half turn).
struct Field {
    sectors: Vec<(V, V, i64)>,
    /// The direction `p → u` (primitive), for a node reached from a parent.
    din: Option<V>,
}

impl Field {
    /// The field of `u`, reached from `parent` (`None`: `u` is the start).
    fn of(grid: &Grid, u: Point, parent: Option<Point>) -> Field {
        let m = mask(grid, u);
        let mut sectors = Vec::new();
        let Some(p) = parent else {
            // The start: every free quadrant, only the south-east one on a double corner.
            for (bit, a, b) in [
                (quad::SE, HEADINGS[0], HEADINGS[1]),
                (quad::SW, HEADINGS[1], HEADINGS[2]),
                (quad::NW, HEADINGS[2], HEADINGS[3]),
                (quad::NE, HEADINGS[3], HEADINGS[0]),
            ] {
                if m & bit != 0 && (!quad::is_double_corner(m) || bit == quad::SE) {
                    sectors.push((a, b, 1));
                }
            }
            return Field { sectors, din: None };
        };
        let (din, _) = primitive(sub(u, p));
        if quad::is_convex_corner(m)
            && let Some((s, e)) = field_edge(m, din)
        {
            sectors.push((din, HEADINGS[e], s));
        }
        Field {
            sectors,
            din: Some(din),
        }
    }

    /// Whether the direction `t` is in the field.
    fn holds(&self, t: V) -> bool {
        self.sectors
            .iter()
            .any(|&(a, b, s)| in_closed_sector(a, b, s, t))
    }

    /// Whether `t` points along the continuation of the ray that reached the node.
    fn on_continuation(&self, t: V) -> bool {
        self.din.is_some_and(|d| cross(d, t) == 0 && dot(d, t) > 0)
    }
}

/// Whether a path arriving at the convex corner `w` along the primitive direction `d` can
/// bend round `w`'s blocked cell: the cell's two edges from `w` both lie strictly on one side
/// of the line through `w` along `d`, except the edge the path may arrive by (heading `-d`).
/// This is `field_edge` being `Some` less the cases where the ray goes on along an edge of
/// the cell or points into it.
fn tangent(grid: &Grid, w: Point, d: V) -> bool {
    let m = mask(grid, w);
    if !quad::is_convex_corner(m) || field_edge(m, d).is_none() {
        return false;
    }
    let (centre, e1, e2) = blocked_cell(m);
    let s = cross(d, centre).signum();
    [HEADINGS[e1], HEADINGS[e2]]
        .iter()
        .all(|&h| cross(d, h) * s > 0 || h == (-d.0, -d.1))
}

impl crate::SearchContext {
    /// What the successor check saw over this context's queries so far.
    pub fn check_report(&self) -> &CheckReport {
        &self.check.report
    }

    /// Takes the successor check's report, leaving an empty one.
    pub fn take_check_report(&mut self) -> CheckReport {
        std::mem::take(&mut self.check.report)
    }
}
