//! The label of a lattice point ([`PointEntry`]s): the hubs it reaches through the corners it
//! sees, built with a per-thread [`Scratch`].

use taut_grid::Point;
use taut_mesh::corners::{Corners, NO_CORNER};
use taut_mesh::grid::{SOUTH_EAST, lattice_point};
use taut_mesh::{Mesh, VisibilitySearch, Visible};
use taut_search::StampedCosts;

use crate::HubError;
use crate::core::{CoreEntry, CoreLabels};
use crate::turn_order::TurnOrder;

/// One entry of a point's label: a hub (by rank), the length of a shortest path from the
/// point to it, and the core entry (for the same hub) of the corner that path goes to first.
///
/// `repr(C)`, with no padding: index files store it as its bytes (`file.rs`).
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct PointEntry {
    /// The length of a shortest path from the point to the hub.
    pub dist: f64,
    /// The hub's rank.
    pub hub: u32,
    /// The index among the core's entries of the first corner's entry for the hub: its
    /// `corner` is where the path turns first, and the walk to the hub starts there.
    pub entry: u32,
}

/// Per-thread scratch of the point-label build.
#[derive(Default)]
pub(crate) struct Scratch {
    vis: VisibilitySearch,
    seen: StampedCosts,
    /// Per hub rank, `f64::INFINITY` between points: the best distance so far (`best`) and
    /// the core entry giving it (`via`). Dense, not stamped: the pruning test reads `best`
    /// once per core entry, the build's inner loop.
    best: Vec<f64>,
    via: Vec<u32>,
    /// Per hub rank, where in its core label the entry that last covered it is: the next
    /// point, a neighbour, is mostly covered by the same hub, found without a scan.
    hint: Vec<u32>,
    touched: Vec<u32>,
    /// While a region is built ([`Scratch::begin_region`]; `region` is 0 before): the core
    /// entries already among its (hub, via) pairs are those stamped `region`.
    in_region: Vec<u32>,
    region: u32,
    /// The corners the last point sees and can turn at.
    visible: Vec<u32>,
    /// Per corner, where its taut arc ended for the last point that saw it: the next point,
    /// a neighbour, mostly ends there too (`TurnOrder::taut_runs`).
    arc_hint: Vec<u32>,
}

impl Scratch {
    /// Starts a region: [`Scratch::point_label`] then leaves out the (hub, via) pairs an
    /// earlier point of the region gave (`entries`: the core's entry count).
    pub(crate) fn begin_region(&mut self, entries: usize) {
        if self.in_region.len() != entries || self.region == u32::MAX {
            self.in_region = vec![0; entries];
            self.region = 0;
        }
        self.region += 1;
    }

    /// The corners the last point of [`Scratch::point_label`] sees and can turn at.
    pub(crate) fn visible(&self) -> &[u32] {
        &self.visible
    }

    /// Appends the label of `p` to `out`, each entry with `x`.
    ///
    /// `D(p, h)` is the smallest `|pc| + d(c, h)` over the corners `c` that `p` sees and can
    /// turn at, over the hubs `h` of `c`'s label: the length of a real path, and exactly
    /// `d(p, h)` for every hub that is the highest-ranked corner on some shortest path from
    /// `p` (that hub is in the label of the path's first corner). A hub `h` is dropped when
    /// a higher-ranked hub `x` of its own label gives `D(p, x) + d(x, h) <= D(p, h)`: pruned
    /// labelling's test with `p` ranked last, over every hub's value rather than only the
    /// hubs kept before `h`, so that it drops at least as much and does not depend on the
    /// order of the tests. The hub a query needs is never dropped: `D(p, x) >= d(p, x)`, so
    /// such an `x` would lie on a shortest path through it, ranked higher.
    ///
    /// After [`Scratch::begin_region`], the (hub, via) pairs the region already has are left
    /// out untested: whether this point needs them too changes nothing in the region's label.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn point_label(
        &mut self,
        mesh: &Mesh,
        corners: &Corners,
        core: &CoreLabels,
        turns: &TurnOrder,
        p: Point,
        x: u32,
        out: &mut Vec<(u32, PointEntry)>,
    ) -> Result<(), HubError> {
        let n = core.len();
        let mp = lattice_point(p);
        self.visible.clear();
        self.vis
            .start_at_point(mesh, mp, None, SOUTH_EAST)
            .map_err(|_| HubError::MeshMismatch { x: p.x, y: p.y })?;
        self.seen.begin(n);
        while let Some(seen) = self.vis.next(mesh, f64::INFINITY) {
            let Visible::Vertex { vertex, poly } = seen else {
                continue;
            };
            let c = corners.at(mesh, vertex, poly);
            if c == NO_CORNER || self.seen.get(c as usize) == 0.0 {
                continue;
            }
            self.seen.set(c as usize, 0.0);
            if corners.can_turn(c, mp) {
                self.visible.push(c);
            }
        }
        self.label_visible(corners, core, turns, p, x, out);
        Ok(())
    }

    /// [`Scratch::point_label`] given the corners `p` sees (`seen`, before the turn test:
    /// [`crate::sight`]) instead of searching for them.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn point_label_seen(
        &mut self,
        corners: &Corners,
        core: &CoreLabels,
        turns: &TurnOrder,
        p: Point,
        x: u32,
        seen: &[u32],
        out: &mut Vec<(u32, PointEntry)>,
    ) {
        let mp = lattice_point(p);
        self.visible.clear();
        self.visible
            .extend(seen.iter().copied().filter(|&c| corners.can_turn(c, mp)));
        self.label_visible(corners, core, turns, p, x, out);
    }

    /// The label of `p` from the corners it sees and can turn at (`self.visible`).
    fn label_visible(
        &mut self,
        corners: &Corners,
        core: &CoreLabels,
        turns: &TurnOrder,
        p: Point,
        x: u32,
        out: &mut Vec<(u32, PointEntry)>,
    ) {
        let n = core.len();
        let mp = lattice_point(p);
        if self.best.len() != n {
            self.best = vec![f64::INFINITY; n];
            self.via = vec![0; n];
            self.hint = vec![0; n];
            self.arc_hint = vec![0; n];
        }
        self.touched.clear();
        for &c in &self.visible {
            let dc = mp.dist(corners.point(c));
            let first = core.label_start(c);
            let (best, via, touched) = (&mut self.best[..n], &mut self.via[..n], &mut self.touched);
            let mut reach = |hub: u32, dist: f64, entry: u32| {
                let d = dc + dist;
                let h = hub as usize;
                let b = best[h];
                // Between equal values the lower entry: the label does not depend on the
                // order in which the corners come (a search's, or `sight.rs`'s).
                if d < b || (d == b && entry < via[h]) {
                    if b == f64::INFINITY {
                        touched.push(hub);
                    }
                    best[h] = d;
                    via[h] = entry;
                }
            };
            match turns.taut_runs(corners, c, mp, &mut self.arc_hint[c as usize]) {
                // Only the entries whose paths are taut at `c` (`turns.rs`).
                Some(runs) => {
                    for t in runs.iter().flat_map(|r| r.iter()) {
                        reach(t.hub, t.dist, t.entry);
                    }
                }
                None => {
                    for (k, e) in core.label(c).iter().enumerate() {
                        reach(e.hub, e.dist, first + k as u32);
                    }
                }
            }
        }
        // The test reads every hub's value, not only those kept: its outcome does not depend
        // on the order of the hubs, and the label is sorted once it is built.
        let start = out.len();
        let (best, hint) = (&self.best, &mut self.hint);
        for &r in &self.touched {
            let (d, entry) = (best[r as usize], self.via[r as usize]);
            if self.region != 0 && self.in_region[entry as usize] == self.region {
                continue; // the region has this pair: whether it is covered changes nothing
            }
            // Covered when a higher-ranked hub gives `d` or less through `r`'s label: the
            // one that covered `r` at the last point is tried first, then the label in order.
            let label = core.label(core.corner(r));
            let covers = |e: &CoreEntry| e.hub < r && best[e.hub as usize] + e.dist <= d;
            let covered = label.get(hint[r as usize] as usize).is_some_and(covers)
                || match label.iter().take_while(|e| e.hub < r).position(covers) {
                    Some(k) => {
                        hint[r as usize] = k as u32;
                        true
                    }
                    None => false,
                };
            if covered {
                continue;
            }
            if self.region != 0 {
                self.in_region[entry as usize] = self.region;
            }
            out.push((
                x,
                PointEntry {
                    dist: d,
                    hub: r,
                    entry,
                },
            ));
        }
        for &r in &self.touched {
            self.best[r as usize] = f64::INFINITY;
        }
        out[start..].sort_unstable_by_key(|&(_, e)| e.hub);
    }
}
