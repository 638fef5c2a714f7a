//! Sweeping open water: a cone node moved on column after column, without an expansion,
//! while expanding it could only give the same cone one column further
//! (`docs/spherical.md`, "Sweeping open water").

use std::f64::consts::{FRAC_PI_2, PI};

use super::SearchContext;
use super::cone::{CornerKind, corner_kind, far_corner_sees_nothing};
use super::fan::climb;
use super::node::{Goal, Node, PointRoot};
use crate::geo::{
    ANGLE_EPS, V3, crossing_lat_sc, crossing_tan_sc, peak_between, peak_tan, unwrap_near, wrap_near,
};
use crate::grid::{SWEEP_MARGIN, SphereGrid, tan_margin};
use crate::trig;

/// A cone node moved on by [`SearchContext::sweep`], with its rays' crossings of the meridian
/// after it.
pub(super) struct Swept {
    pub(super) node: Node,
    pub(super) b_lo: f64,
    pub(super) b_hi: f64,
}

/// One end of a swept cone on the meridian it has reached: the tangent of its latitude, and
/// the row line it lies on when the run's boundary parallel clips the cone there.
#[derive(Clone, Copy)]
struct SweptEnd {
    tan: f64,
    line: Option<u32>,
}

impl SearchContext {
    /// Moves cone node `node` of point root `r` on, column after column, while expanding it could
    /// only give the same cone one column further, clipped by the run as the fan would clip it:
    /// - on each side, either the cone's ray stays strictly inside the run across the column (no
    ///   cut there), or the ray through the run's far corner on that side is still climbing
    ///   towards the boundary parallel at that corner (for the top; descending, for the bottom),
    ///   so the fan's bound is the parallel itself, with no tangent point and so no edge root;
    ///   the new end is then the ray's crossing if it lies inside the run by the margin, or the
    ///   parallel if the ray crosses beyond it by the margin (the cone is clipped, and its side
    ///   is from then on the ray through that corner, as the column-by-column expansion makes
    ///   it);
    /// - exactly one run of the next column meets the new interval (one successor), and the
    ///   new node's ends make no corner the search may turn at: a clipped end whose parallel
    ///   goes on as that run's boundary is none; where the run narrows, the new end on its
    ///   boundary is a far-side corner, passed (and recorded in the root history, as its
    ///   expansion would record it) only when [`far_corner_sees_nothing`]; where the run
    ///   widens, the end is a near-side corner and the sweep stops;
    /// - the goal's longitude is not in the column, and the root is more than 180° minus a column
    ///   away.
    ///
    /// A polar run's top (or bottom) is the pole. A cone whose side is at the pole (the fan's
    /// bound there is the pole itself, `cut`) keeps that side while the runs it enters stay open
    /// to the pole: no ray, no tangent point, no corner, and the pole was already offered to the
    /// search (`pole`) by the fan that made the node, at the same cost. Where the next run is
    /// closed before the pole, that side is clipped to the run's top like any other. (Half the
    /// columns of the 0.5° Earth's oceans belong to runs open to the Arctic; before such cones
    /// were swept, 58 % of the expansions on the random 0.5° pairs were their columns.) The two
    /// pairs are the node's lower and upper rays' crossings of the next meridian with their great
    /// circles' normals, as `project_ray` gives them. Returns the node on the last meridian so
    /// reached (the node itself if none) and its crossings of the meridian after that, as
    /// `project_ray` gives them. The nodes skipped are not counted as expanded, as Euclidean
    /// Anya does not count the intermediate nodes it expands in place.
    pub(super) fn sweep(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        node: Node,
        (b_lo, n_lo): (f64, V3),
        (b_hi, n_hi): (f64, V3),
    ) -> Swept {
        let unmoved = Swept { node, b_lo, b_hi };
        let (h, res) = (grid.height(), grid.res_lon());
        // A side at a pole (`project_ray`'s test): the cone's side there is the pole itself,
        // not a ray, and stays so while the runs it enters stay open to that pole.
        let mut pole_lo = node.lo <= -FRAC_PI_2 + ANGLE_EPS;
        let mut pole_hi = node.hi >= FRAC_PI_2 - ANGLE_EPS;
        if r.lat.abs() >= FRAC_PI_2 - SWEEP_MARGIN
            || (pole_lo && pole_hi)
            || (n_lo.z == 0.0 && !pole_lo)
            || (n_hi.z == 0.0 && !pole_hi)
        {
            return unmoved;
        }
        let df = node.dir as f64;
        // Latitudes as tangents (monotone, and the crossings' own form: `atan` of them is what
        // `crossing_lat_sc` returns), so a swept column takes no trigonometric call. A margin of
        // SWEEP_MARGIN in latitude is at least this much in tangent.
        let line_tan = |i: u32| grid.line_tan(i);
        let margin = tan_margin;
        // Strictly below row line `i` (above, for `above`), by the margin; at a pole, by 1e-8 rad
        // (the pole's own tangent is not finite): `SphereGrid::line_clear`'s table.
        let below = |t: f64, i: u32| t < grid.line_clear(i).0;
        let above = |t: f64, i: u32| t > grid.line_clear(i).1;
        // A row line as an end, and which of two ends lies further north: `Some(true)` strictly
        // north, `Some(false)` strictly south or on the same row line, `None` when a free end is
        // within the margin of the other end.
        let line_end = |i: u32| SweptEnd {
            tan: if i == 0 {
                f64::INFINITY
            } else if i == h {
                f64::NEG_INFINITY
            } else {
                line_tan(i)
            },
            line: Some(i),
        };
        let north = |a: SweptEnd, b: SweptEnd| match (a.line, b.line) {
            (Some(x), Some(y)) => Some(x < y),
            _ => {
                let at = if a.line.is_some() { b.tan } else { a.tan };
                let d = a.tan - b.tan;
                let mg = margin(at);
                if d > mg {
                    Some(true)
                } else if d < -mg {
                    Some(false)
                } else {
                    None
                }
            }
        };
        // The new end on the run's top (`top`, sign 1) or bottom side (sign -1) at meridian `m`,
        // for a side whose great circle has normal `nn` (mirrored for the bottom, so that its
        // trough is a peak), crossing meridian k at `tk` and meridian m at `tm`, the run's
        // boundary on that side being row line `line`.
        let end = |nn: V3, (tk, tm): (f64, f64), line: u32, m: i64, (west, east), top: bool| {
            let sg = if top { 1.0 } else { -1.0 };
            let peak = peak_between(nn, west, east)?;
            let ext = if peak {
                sg * peak_tan(nn)
            } else if top {
                tk.max(tm)
            } else {
                tk.min(tm)
            };
            let inside = if top {
                below(ext, line)
            } else {
                above(ext, line)
            };
            if inside {
                return Some(SweptEnd {
                    tan: tm,
                    line: None,
                });
            }
            if line == 0 || line == h {
                return None;
            }
            // The test `cut` makes first, in the same arithmetic.
            let c = grid.vertex_unit(line, m);
            if climb(r.v, c, top) < 0.0 {
                return None;
            }
            let l = line_tan(line);
            if sg * (tm - l) > margin(l) {
                Some(SweptEnd {
                    tan: l,
                    line: Some(line),
                })
            } else if sg * (l - tm) > margin(l) {
                Some(SweptEnd {
                    tan: tm,
                    line: None,
                })
            } else {
                None
            }
        };
        let (mut n_lo, mut n_hi) = (n_lo, n_hi);
        let crossings = |k: i64, n_lo: V3, n_hi: V3| {
            let (s, c) = grid.meridian_sin_cos(k);
            (crossing_tan_sc(n_lo, s, c), crossing_tan_sc(n_hi, s, c))
        };
        let mut n = node;
        let mut at_k = crossings(n.k, n_lo, n_hi);
        let mut lines: (Option<u32>, Option<u32>) = (None, None);
        let mut moved = false;
        // Every meridian swept lies less than 180° from the root, so one multiple of 2π places
        // them all near the root (`unwrap_near`, computed once), and the goal's longitude lies in
        // a column exactly when its value nearest the root does (`goal_lon_in`, once).
        let wrap = wrap_near(grid.meridian_lon(n.k), r.lon);
        let lg = unwrap_near(goal.lon, r.lon);
        'sweep: loop {
            let (k, m) = (n.k, n.k + n.dir);
            let lk = grid.meridian_lon(k) + wrap;
            let lm = lk + df * res;
            let col = if n.dir > 0 { k } else { k - 1 };
            let (a, b) = if lk < lm { (lk, lm) } else { (lm, lk) };
            if df * (lm - r.lon) + res >= PI - 1e-6 || (lg >= a - ANGLE_EPS && lg <= b + ANGLE_EPS)
            {
                break;
            }
            let at_m = crossings(m, n_lo, n_hi);
            let sides = if lk < lm {
                (grid.meridian_sin_cos(k), grid.meridian_sin_cos(m))
            } else {
                (grid.meridian_sin_cos(m), grid.meridian_sin_cos(k))
            };
            // A side at a pole stays there while the run is open to it: no ray, no cut, no
            // tangent point (`cut` bounds a fan at the pole by the pole, with no edge root).
            let hi = if pole_hi {
                if n.run.top != 0 {
                    break;
                }
                line_end(0)
            } else {
                let Some(hi) = end(n_hi, (at_k.1, at_m.1), n.run.top, m, sides, true) else {
                    break;
                };
                hi
            };
            let lo = if pole_lo {
                if n.run.bottom != h {
                    break;
                }
                line_end(h)
            } else {
                let Some(lo) = end(
                    n_lo.mirrored(),
                    (at_k.0, at_m.0),
                    n.run.bottom,
                    m,
                    sides,
                    false,
                ) else {
                    break;
                };
                lo
            };
            // The runs of the column after `m` that the new interval meets, as `push_split`
            // splits it among them: exactly one, clearly, or the sweep stops.
            let next = col + n.dir;
            let mut held = None;
            let mut stop = false;
            for &rr in grid.runs(next) {
                let (top, bot) = (rr.top.max(n.run.top), rr.bottom.min(n.run.bottom));
                if top >= bot {
                    continue; // no overlap, or runs touching at a double corner
                }
                let (te, be) = (line_end(top), line_end(bot));
                let (Some(cut_top), Some(cut_bot)) = (north(hi, te), north(be, lo)) else {
                    stop = true;
                    break;
                };
                let (p_hi, p_lo) = (if cut_top { te } else { hi }, if cut_bot { be } else { lo });
                match north(p_hi, p_lo) {
                    Some(true) if held.is_none() => held = Some((rr, p_lo, p_hi)),
                    Some(false) => {}
                    _ => {
                        stop = true;
                        break;
                    }
                }
            }
            let (false, Some((run, lo, hi))) = (stop, held) else {
                break;
            };
            // The new node's corners, found as its expansion would find them (`expand_cone`): a
            // near-side corner, or a far-side one the search may turn at, stops the sweep; a
            // far-side corner that gives nothing is only recorded in the root history.
            let mut recorded = [None, None];
            for (slot, (end, top)) in [(hi, true), (lo, false)].into_iter().enumerate() {
                let Some(i) = end.line else {
                    continue;
                };
                match corner_kind(grid, run, col, i, top) {
                    Some(CornerKind::Far)
                        if far_corner_sees_nothing(grid, r, i, m, m + n.dir, top) =>
                    {
                        recorded[slot] = Some((i, top));
                    }
                    Some(_) => break 'sweep,
                    None => {}
                }
            }
            // A clipped side is from now on the ray through the corner it is clipped at; a side
            // at a pole has no ray (a zero normal, as `project_ray` gives it).
            let at_pole = |line: Option<u32>| line == Some(0) || line == Some(h);
            let through = |line: Option<u32>, nn: V3| match line {
                _ if at_pole(line) => V3::default(),
                Some(i) => r.v.cross(grid.vertex_unit(i, m)),
                None => nn,
            };
            let (new_lo, new_hi) = (through(lo.line, n_lo), through(hi.line, n_hi));
            if (new_lo.z == 0.0 && !at_pole(lo.line)) || (new_hi.z == 0.0 && !at_pole(hi.line)) {
                break;
            }
            (pole_lo, pole_hi) = (at_pole(lo.line), at_pole(hi.line));
            for (i, up) in recorded.into_iter().flatten() {
                self.record_corner(r, i, m, n.dir, up, grid);
            }
            (n_lo, n_hi) = (new_lo, new_hi);
            n = Node { k: m, run, ..n };
            at_k = (lo.tan, hi.tan);
            lines = (lo.line, hi.line);
            moved = true;
        }
        if !moved {
            return unmoved;
        }
        // Back to latitudes, as the column-by-column expansion would have computed them.
        let (s, c) = grid.meridian_sin_cos(n.k + n.dir);
        n.lo = lines
            .0
            .map_or_else(|| trig::atan(at_k.0), |i| grid.row_line_lat(i));
        n.hi = lines
            .1
            .map_or_else(|| trig::atan(at_k.1), |i| grid.row_line_lat(i));
        Swept {
            node: n,
            b_lo: if pole_lo {
                n.lo
            } else {
                crossing_lat_sc(n_lo, s, c)
            },
            b_hi: if pole_hi {
                n.hi
            } else {
                crossing_lat_sc(n_hi, s, c)
            },
        }
    }
}
