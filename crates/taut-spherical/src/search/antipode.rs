//! A root's antipode, where every ray of the root meets again, 180° away: beyond it no arc is
//! shortest, and where it is an obstacle corner routes may turn there, as from a start.

use std::f64::consts::{FRAC_PI_2, PI};

use super::SearchContext;
use super::fan::FanSpec;
use super::locate::{line_of, run_containing};
use super::node::{Goal, PointRoot, RootData, RootKind};
use crate::geo::{ANGLE_EPS, V3, lat_from_vertex, tangent_offset};
use crate::grid::SphereGrid;
use crate::trig;

impl SearchContext {
    /// A cone node whose fan ends at its root's antipode on the far meridian `s.m`: if the
    /// antipode is a grid vertex touching an obstacle and a ray of the node reaches it inside
    /// the run, the antipode becomes a root, 180° from `r`.
    pub(super) fn cone_to_antipode(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        s: &FanSpec,
        near: (f64, f64),
    ) {
        if r.lat.abs() >= FRAC_PI_2 - ANGLE_EPS {
            return;
        }
        let Some(i) = line_of(grid, -r.lat) else {
            return; // not a vertex: no route turns there
        };
        if let Some(via) = self.via_to_antipode(grid, r, s, near) {
            self.antipode(grid, goal, via, r.g + PI, i, s.m, s.lm, s.dir);
        }
    }

    /// A root on a ray of the cone node `near` (across column `s.col` to the far meridian at
    /// 180° from `r`) that stays in the run up to `r`'s antipode: the point where the ray
    /// crosses the node's meridian. A route through the antipode breaks there, so that no leg
    /// is 180° long (an antipodal leg has no unique great circle). `None` if no ray of the node
    /// reaches the antipode inside the run.
    pub(super) fn via_to_antipode(
        &mut self,
        grid: &SphereGrid,
        r: PointRoot,
        s: &FanSpec,
        near: (f64, f64),
    ) -> Option<u32> {
        let da = (s.la - r.lon).abs();
        if da <= ANGLE_EPS || da >= PI - ANGLE_EPS {
            return None;
        }
        let band = (
            grid.row_line_lat(s.run.bottom),
            grid.row_line_lat(s.run.top),
        );
        let a = rays_to_antipode(r.lat, da, near, band)?;
        let lat = trig::atan(trig::tan(r.lat) * trig::cos(da) + a * trig::sin(da));
        let v = V3::from_lat_lon(lat, s.la);
        Some(self.push_root(RootData {
            kind: RootKind::Point { v, lat, lon: s.la },
            g: r.g + r.v.angle(v),
            parent: r.id,
            dep_lon: f64::NAN,
            to_goal: 0.0,
        }))
    }

    /// The antipode of a root, reached with cost `g` (from `parent`, the last point before it)
    /// at vertex (row line `i`, meridian `k`, unwrapped longitude `lk`) by rays travelling
    /// `dir` across the column behind `k`. Every ray of the root met there, so a route may
    /// leave in any direction, as from a start: fans into both columns and walks along the
    /// meridian, except through a double corner (from the column arrived in to the cell
    /// diagonally across, the two others blocked). A vertex with all four cells free is no
    /// place to turn.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn antipode(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        parent: u32,
        g: f64,
        i: u32,
        k: i64,
        lk: f64,
        dir: i64,
    ) {
        if i == 0 || i == grid.height() {
            return;
        }
        let (arrived, other) = if dir > 0 { (k - 1, k) } else { (k, k - 1) };
        let (up, down) = (i as i64 - 1, i as i64);
        let (au, ad) = (grid.is_free(up, arrived), grid.is_free(down, arrived));
        let (du, dd) = (grid.is_free(up, other), grid.is_free(down, other));
        if au && ad && du && dd {
            return;
        }
        if !self.history_ok(grid, i, k, 13, g) {
            return;
        }
        // From an arrival cell to a cell of the other column: legal unless they are diagonal
        // and the two other cells blocked.
        let to_up = du && (au || (ad && dd));
        let to_down = dd && (ad || (au && du));
        let lat = grid.row_line_lat(i);
        let v = grid.vertex_unit(i, k);
        let id = self.push_root(RootData {
            kind: RootKind::Point { v, lat, lon: lk },
            g,
            parent,
            dep_lon: f64::NAN,
            to_goal: 0.0,
        });
        if v.angle(goal.v) < ANGLE_EPS {
            self.push_goal(goal, id, f64::NAN, g);
        }
        let pr = PointRoot {
            id,
            v,
            lat,
            lon: lk,
            g,
        };
        for (col, fdir, legal) in [
            (arrived, -dir, true),
            (other, dir, (du && to_up) || (dd && to_down)),
        ] {
            if !legal {
                continue;
            }
            if let Some(run) = run_containing(grid, col, lat) {
                self.fan_from_vertex(grid, goal, pr, k, fdir, run, (-FRAC_PI_2, FRAC_PI_2));
            }
        }
        // Along the meridian: north between the two upper cells, south between the lower.
        if au || (du && to_up) {
            self.flat(grid, goal, pr, k, i, true, None);
        }
        if ad || (dd && to_down) {
            self.flat(grid, goal, pr, k, i, false, None);
        }
    }
}

/// The rays from a point at latitude `phi` that cross the meridian `da` radians of longitude
/// past it (`0 < da < π`) at latitudes within `near` and stay within latitudes `band` from
/// there to the point's antipode, `π` past it: one such ray, as its parameter `a`, or `None`.
///
/// The great circles through the point, other than its meridian, are
/// `tan lat(δ) = tan φ cos δ + a sin δ` (`δ` the longitude travelled); all meet at the
/// antipode (`δ = π`). At each `δ` the latitude grows with `a`, so each bound of the band is
/// one bound on `a` per `δ`, whose extreme over `[da, π)` lies at `da`, at the one stationary
/// point (`cos δ = tan φ / tan band`, where the ray is tangent to the band's parallel) or in
/// the limit at `π`.
fn rays_to_antipode(phi: f64, da: f64, near: (f64, f64), band: (f64, f64)) -> Option<f64> {
    let t = trig::tan(phi);
    let (sa, ca) = trig::sin_cos(da);
    let lim = FRAC_PI_2 - 1e-9;
    let a_at = |lat: f64| (trig::tan(lat.clamp(-lim, lim)) - t * ca) / sa;
    let (mut lo, mut hi) = (a_at(near.0), a_at(near.1));
    // `side` +1: the band's top, `a <= (tan top - t cos δ) / sin δ`; -1: its bottom, `>=`.
    for (lat, side) in [(band.1, 1.0), (band.0, -1.0)] {
        if lat.abs() >= FRAC_PI_2 - ANGLE_EPS {
            continue; // a pole: no ray but the meridian reaches it
        }
        let tb = trig::tan(lat);
        let bound = |d: f64| (tb - t * trig::cos(d)) / trig::sin(d);
        let mut b = bound(da);
        // At π the bound tends to ±∞ as the antipode (tan = -t) lies inside the band, to 0 as
        // it lies on the band's line, and the antipode is out of the band otherwise.
        let end = side * (tb + t);
        let slack = 1e-12 * (1.0 + tb.abs());
        if end < -slack {
            return None;
        }
        if end <= slack {
            b = if side > 0.0 { b.min(0.0) } else { b.max(0.0) };
        } else if tb != 0.0 && (t / tb).abs() < 1.0 {
            let ds = trig::acos(t / tb);
            if ds > da {
                b = if side > 0.0 {
                    b.min(bound(ds))
                } else {
                    b.max(bound(ds))
                };
            }
        }
        if side > 0.0 {
            hi = hi.min(b);
        } else {
            lo = lo.max(b);
        }
    }
    let tol = 1e-9 * (1.0 + lo.abs().max(hi.abs()));
    (lo <= hi + tol).then(|| 0.5 * (lo + hi.max(lo)))
}

/// In a fan whose far meridian lies 180° or more from the root (so `cut` does not apply):
/// where the ray of cone node `near` tangent to the run's top (`top`) or bottom touches it,
/// if inside the column and short of the antipode, as (tangent longitude, the ray's crossing
/// of the far meridian).
pub(super) fn tangent_before_antipode(
    grid: &SphereGrid,
    r: PointRoot,
    s: &FanSpec,
    near: (f64, f64),
    top: bool,
) -> Option<(f64, f64)> {
    let line = if top { s.run.top } else { s.run.bottom };
    if line == 0 || line == grid.height() {
        return None;
    }
    let lat = grid.row_line_lat(line);
    let sg = if top { 1.0 } else { -1.0 };
    let d = tangent_offset(sg * r.lat, sg * lat)?;
    let df = s.dir as f64;
    let lv = r.lon + df * d;
    if d >= PI - ANGLE_EPS || (lv - s.la) * df < -ANGLE_EPS {
        return None;
    }
    // One of the node's rays: it crosses the node's meridian inside the interval. From there it
    // climbs to the tangent point (falls, for the bottom), so it stays in the run.
    let c = lat_from_vertex(lat, lv, s.la);
    if c < near.0 - ANGLE_EPS || c > near.1 + ANGLE_EPS {
        return None;
    }
    Some((lv, lat_from_vertex(lat, lv, s.lm)))
}
