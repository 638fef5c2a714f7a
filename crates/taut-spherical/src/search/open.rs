//! Recording the successors of an expansion: new roots, the root history that prunes the
//! costlier arrivals at a vertex, and intervals split among the runs of the column ahead, each
//! with its admissible heuristic, kept as pending until [`SearchContext::flush`] moves them to
//! the open list.

use taut_search::Entry;

use super::SearchContext;
use super::node::{Goal, Node, NodeKind, RootData, RootKind};
use crate::geo::{ANGLE_EPS, COST_EPS, MeridianView, V3, angle_lower_bound, lat_sin_cos_fast};
use crate::grid::{Run, SphereGrid};

impl SearchContext {
    pub(super) fn push_root(&mut self, mut r: RootData) -> u32 {
        self.stats.roots += 1;
        let v = match r.kind {
            RootKind::Point { v, .. } | RootKind::Edge { v, .. } => v,
        };
        r.to_goal = v.angle(self.goal_v);
        self.roots.push(r);
        (self.roots.len() - 1) as u32
    }

    /// Records a vertex root's cost in the history; false if an equal or better one exists.
    pub(super) fn history_ok(
        &mut self,
        grid: &SphereGrid,
        line: u32,
        k: i64,
        side: u8,
        g: f64,
    ) -> bool {
        let key =
            ((line as u64) << 32) | ((k.rem_euclid(grid.width() as i64) as u64) << 4) | side as u64;
        match self.history.get_mut(&key) {
            Some(best) if *best <= g + COST_EPS => false,
            Some(best) => {
                *best = g;
                true
            }
            None => {
                self.history.insert(key, g);
                true
            }
        }
    }

    pub(super) fn push_node(&mut self, node: Node, f: f64, g: f64) {
        self.stats.generated += 1;
        self.nodes.push(node);
        self.pending.push(((self.nodes.len() - 1) as u32, f, g));
    }

    /// Moves the successors of the last expansion to the open list.
    pub(super) fn flush(&mut self) {
        for &(id, f, g) in &self.pending {
            self.open.push(Entry { f, g, id });
        }
        self.pending.clear();
    }

    /// Pushes the goal, reached from root `parent` (leaving an edge root at `dep_lon`) with
    /// total cost `g`.
    pub(super) fn push_goal(&mut self, goal: &Goal, parent: u32, dep_lon: f64, g: f64) {
        let id = self.push_root(RootData {
            kind: RootKind::Point {
                v: goal.v,
                lat: goal.lat,
                lon: goal.lon,
            },
            g,
            parent,
            dep_lon,
            to_goal: 0.0,
        });
        self.push_node(
            Node {
                root: id,
                k: 0,
                dir: 1,
                lo: 0.0,
                hi: 0.0,
                run: Run { top: 0, bottom: 0 },
                kind: NodeKind::Goal,
            },
            g,
            g,
        );
    }

    /// Pushes interval `[lo, hi]` of meridian `m` (paths continuing `dir` out of run `from` of
    /// the column behind it), split among the runs of the column ahead.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_split(
        &mut self,
        grid: &SphereGrid,
        root: u32,
        root_v: V3,
        g: f64,
        m: i64,
        dir: i64,
        from: Run,
        lo: f64,
        hi: f64,
    ) {
        if lo > hi + ANGLE_EPS {
            return;
        }
        let next_col = if dir > 0 { m } else { m - 1 };
        self.scratch.clear();
        for &r in grid.runs(next_col) {
            // The two runs' common rows, if any (runs touching at a double corner share none).
            let (top, bottom) = (r.top.max(from.top), r.bottom.min(from.bottom));
            if top >= bottom {
                continue;
            }
            let o_hi = grid.row_line_lat(top);
            if o_hi < lo - ANGLE_EPS {
                // Runs come north first: this one and the rest lie south of the interval.
                break;
            }
            let o_lo = grid.row_line_lat(bottom);
            let p_lo = lo.max(o_lo);
            let p_hi = hi.min(o_hi);
            if p_lo <= p_hi + ANGLE_EPS {
                self.scratch.push((p_lo, p_hi.max(p_lo), r));
            }
        }
        if self.scratch.is_empty() {
            return;
        }
        // An admissible h: the larger of the root's distance to the goal and the shortest way
        // root -> interval -> goal (`MeridianView::via_segment_with`; where its argument does
        // not apply, the root's and the goal's distances to the interval, added). The root's
        // distance to the goal is kept with the root, and the goal's view of each meridian is
        // computed once per query.
        let (sn, cs) = grid.meridian_sin_cos(m);
        let to_goal = self.roots[root as usize].to_goal;
        let slot = m.rem_euclid(grid.width() as i64) as usize;
        if self.goal_views[slot].0 != self.stamp {
            self.goal_views[slot] = (self.stamp, MeridianView::new(self.goal_v, sn, cs));
        }
        let goal_view = self.goal_views[slot].1;
        let root_frame = MeridianView::frame(root_v, sn, cs);
        let via = goal_view.via(root_frame, angle_lower_bound);
        for i in 0..self.scratch.len() {
            let (p_lo, p_hi, r) = self.scratch[i];
            // The bounds need the ends' sin_cos: computed once, by polynomials within 1e-9.
            // Their angles are lower bounds (a polynomial, at most 1e-6 below, far more than
            // the sin_cos error moves them), which keeps h admissible; only h uses them, never
            // a cost.
            let (sc_lo, sc_hi) = (lat_sin_cos_fast(p_lo), lat_sin_cos_fast(p_hi));
            let through = goal_view
                .via_segment_with(&via, sc_lo, sc_hi, angle_lower_bound)
                .unwrap_or_else(|| {
                    MeridianView::segment_distance_with(root_frame, sc_lo, sc_hi, angle_lower_bound)
                        + MeridianView::segment_distance_with(
                            goal_view.coords(),
                            sc_lo,
                            sc_hi,
                            angle_lower_bound,
                        )
                });
            let h = to_goal.max(through);
            self.push_node(
                Node {
                    root,
                    k: m,
                    dir,
                    lo: p_lo,
                    hi: p_hi,
                    run: r,
                    kind: NodeKind::Interval,
                },
                g + h,
                g,
            );
        }
    }
}

/// The root history's side key for a corner turned at going `dir` (east when positive) on the
/// top side of a node (`up`) or its bottom side.
#[inline]
pub(super) fn history_side(dir: i64, up: bool) -> u8 {
    u8::from(dir > 0) | (u8::from(up) << 1)
}
