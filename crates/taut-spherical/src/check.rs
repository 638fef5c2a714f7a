//! An independent legality checker for routes on a [`SphereGrid`].
//!
//! It shares nothing with the search but the grid's cells: every decision is made here from
//! the geometry of the legs, so that a bug in the search cannot hide behind the same bug in
//! its checker.
//!
//! # Rules (`docs/conventions.md#the-sphere`)
//! A route may run through free cells' interiors and along grid lines (meridians and row
//! parallels) that have a free cell on at least one side. It must not enter a blocked cell's
//! interior, and must not pass *through* a double corner (a grid vertex where two blocked cells
//! touch diagonally and the other two cells are free); it may touch one, i.e. turn there while
//! arriving and leaving on the same free side. A pole is a vertex shared by its whole polar
//! row: a route may touch it where a polar cell is free (`docs/spherical.md`). A start or goal on a double corner may use either free side (the search
//! refuses such endpoints as ambiguous, so the checker does not pick one).
//!
//! # How a leg is tested
//! - A great-circle leg is cut at every crossing with every grid meridian and every row
//!   parallel, computed in closed form from the arc's plane (only the lines within the arc's
//!   longitude and latitude range are tried, so a short leg costs O(1)). Between two consecutive crossings
//!   the arc lies inside one cell (or along one grid line), so testing each piece's midpoint
//!   decides the whole piece; the crossing points themselves are tested too (a point on a line
//!   is fine when a cell on either side is free). On top of this exact cut, the arc is sampled
//!   every [`SAMPLE_CELL_FRACTION`] of the smaller cell side as an independent safety net.
//!   Every vertex the arc passes within [`VERTEX_TOL`] of, away from its ends, must not be a
//!   double corner, and a pole passed within [`LINE_TOL`] needs a free polar cell.
//! - A parallel leg is tested exactly, column by column: on a row line, one of the two cells
//!   (above or below) must be free in every column spanned and no meridian strictly inside the
//!   span may meet the line at a double corner; off a row line, the containing cell must be
//!   free. A [`Leg::Parallel`] must however lie on a row line (that is its contract: it follows
//!   an obstacle's edge), so [`check_route`] reports one that does not as
//!   [`Violation::ParallelOffEdge`].
//! - At every junction of two legs that lies on a double corner, the route must arrive and
//!   leave on the same free side.
//!
//! # Tolerances
//! Coordinates are `f64` degrees converted to unit vectors, so a point a planner computed
//! exactly on a grid line or vertex arrives here a few ulps off (~1e-15 rad). Every tolerance
//! below is a distance on the unit sphere (radians), far above that noise and far below any
//! cell (the finest shared raster has 1/4° = 4.4e-3 rad cells): [`LINE_TOL`], [`VERTEX_TOL`],
//! [`GAP_TOL`] are 1e-9 rad (6.4 mm on the Earth), [`LENGTH_REL_TOL`] is relative, and
//! [`MAX_GREAT_ARC`] keeps great-circle legs well defined.

use std::f64::consts::{FRAC_PI_2, PI};

use thiserror::Error;

use crate::geo::{LatLon, V3};
use crate::grid::SphereGrid;
use crate::route::{Leg, Route};

/// A point within this distance (radians) of a grid line counts as on the line, so it is
/// legal when a cell on either side is free; within this distance of a pole, it is the pole.
///
/// Justification: a point computed on a line arrives a few ulps (~1e-15 rad) off it; 1e-9 rad
/// (6.4 mm on the Earth) leaves six orders of margin for that noise and lets a route encroach
/// on a blocked cell by no more than 1e-9 rad, a millionth of the finest cell (4.4e-3 rad).
pub const LINE_TOL: f64 = 1e-9;

/// A leg passing within this distance (radians) of a grid vertex passes *through* it (for the
/// double-corner rule), and a junction of legs within it of a vertex is *at* that vertex.
///
/// Justification as for [`LINE_TOL`]: turning points computed at corners carry ~1e-15 rad of
/// noise, and an arc that misses a double corner by less than 1e-9 rad crosses from one free
/// side to the other through slivers of the two blocked cells, which is the same violation.
pub const VERTEX_TOL: f64 = 1e-9;

/// Consecutive legs must meet, the first must start at `from` and the last must end at `to`,
/// to within this distance (radians).
///
/// Justification: the search writes points as `f64` degrees; round-tripping a unit vector
/// through degrees moves it by ~1e-15 rad. A gap of 1e-9 rad (6.4 mm) cannot hide a detour
/// through a blocked cell, which is at least 4.4e-3 rad across.
pub const GAP_TOL: f64 = 1e-9;

/// `route.radians` must equal the sum of the legs' lengths to this relative tolerance (plus
/// 1e-15 rad absolute, for an empty route).
///
/// Justification: the same lengths summed in another order or computed from radians instead
/// of degrees differ by a few ulps per leg; 1e-12 relative allows ~1000 legs of such noise,
/// while any real disagreement (a leg counted twice, a parallel measured as a chord) is
/// larger than 1e-9 relative.
pub const LENGTH_REL_TOL: f64 = 1e-12;

/// The longest great-circle leg accepted (radians): π − 1e-6.
///
/// Justification: a [`Leg::Great`] is the *shorter* arc between its ends, which is undefined
/// for antipodes and ill-conditioned near them (the arc's plane is `from × to`, of length
/// `sin θ`, so its direction carries an error of ~1e-16 / sin θ rad). At θ = π − 1e-6 that
/// error is 1e-10 rad, still below [`LINE_TOL`]; a planner must split a longer leg.
pub const MAX_GREAT_ARC: f64 = PI - 1e-6;

/// Great-circle legs are additionally sampled at most this fraction of the smaller cell side
/// (`min(180/height, 360/width)` degrees of arc) apart: an independent net under the exact cut
/// at grid-line crossings, which alone decides legality when the crossings are right.
pub const SAMPLE_CELL_FRACTION: f64 = 1.0 / 16.0;

/// Legs shorter than this (radians) have no direction: they are skipped by the junction rule.
const DEGENERATE: f64 = 1e-12;

/// Why a route is not legal.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum Violation {
    /// The route has no legs but `from` and `to` differ by more than [`GAP_TOL`].
    #[error("the route is empty but its ends are {distance} rad apart")]
    Empty {
        /// Distance between `from` and `to`, radians.
        distance: f64,
    },
    /// A leg has a coordinate that is not finite, or a latitude outside [-90, 90].
    #[error("leg {leg} has a coordinate that is not a valid latitude/longitude")]
    BadPoint {
        /// Index of the leg.
        leg: usize,
    },
    /// A point of leg `leg` lies inside a blocked cell, on a grid line between two blocked
    /// cells, or on a pole with no free polar cell.
    #[error("leg {leg} is blocked at ({}, {})", at.lat, at.lon)]
    Blocked {
        /// Index of the leg.
        leg: usize,
        /// The offending point.
        at: LatLon,
    },
    /// Leg `leg` passes through a double corner, or the route turns at one from one free side
    /// to the other (then `leg` is the leg leaving it).
    #[error("leg {leg} passes through the double corner ({}, {})", at.lat, at.lon)]
    DoubleCorner {
        /// Index of the leg.
        leg: usize,
        /// The vertex.
        at: LatLon,
    },
    /// Leg `leg` does not start where the previous leg ends (or at `from` for leg 0); `leg ==
    /// legs.len()` when the last leg does not end at `to`.
    #[error("leg {leg} starts {distance} rad away from where it should")]
    Gap {
        /// Index of the leg (the number of legs for the goal).
        leg: usize,
        /// The distance of the mismatch, radians.
        distance: f64,
    },
    /// `route.radians` is not the sum of the legs' lengths (see [`LENGTH_REL_TOL`]).
    #[error("the route claims {claimed} rad but its legs sum to {legs} rad")]
    Length {
        /// The sum of the legs' lengths, radians.
        legs: f64,
        /// `route.radians`.
        claimed: f64,
    },
    /// A great-circle leg is longer than [`MAX_GREAT_ARC`] (so not a well-defined shorter arc).
    #[error("great-circle leg {leg} is too close to a half circle")]
    LongArc {
        /// Index of the leg.
        leg: usize,
    },
    /// A parallel leg is not on a row line of the grid (a grid parallel strictly between the
    /// poles), or spans 360° of longitude or more.
    #[error("parallel leg {leg} is not along a row line of the grid")]
    ParallelOffEdge {
        /// Index of the leg.
        leg: usize,
    },
}

/// Checks that `route` is a legal route from `from` to `to` on `grid`: its legs are
/// well-formed, contiguous (to [`GAP_TOL`]), start at `from` and end at `to`; its length is the
/// sum of theirs (to [`LENGTH_REL_TOL`]); every leg passes [`check_leg`]; and at every junction
/// on a double corner the route stays on one free side. The first violation found is returned.
pub fn check_route(
    grid: &SphereGrid,
    route: &Route,
    from: LatLon,
    to: LatLon,
) -> Result<(), Violation> {
    route_in(&Cells::all(grid), route, from, to)
}

/// [`check_route`] on `grid` with the free cells for which `closed(row, col)` holds taken as
/// blocked (`col` in `0..width`). A route that is legal on `grid` but not once the cells of a
/// passage are closed is a route through that passage.
pub fn check_route_closing(
    grid: &SphereGrid,
    closed: &dyn Fn(u32, u32) -> bool,
    route: &Route,
    from: LatLon,
    to: LatLon,
) -> Result<(), Violation> {
    route_in(
        &Cells {
            grid,
            closed: Some(closed),
        },
        route,
        from,
        to,
    )
}

fn route_in(grid: &Cells<'_>, route: &Route, from: LatLon, to: LatLon) -> Result<(), Violation> {
    for (i, leg) in route.legs.iter().enumerate() {
        if !leg_is_well_formed(leg) {
            return Err(Violation::BadPoint { leg: i });
        }
    }
    let sum: f64 = route.legs.iter().map(Leg::radians).sum();
    if !route.radians.is_finite()
        || (route.radians - sum).abs() > LENGTH_REL_TOL * sum.abs() + 1e-15
    {
        return Err(Violation::Length {
            legs: sum,
            claimed: route.radians,
        });
    }
    if route.legs.is_empty() {
        let distance = from.to_vec().angle(to.to_vec());
        if distance > GAP_TOL {
            return Err(Violation::Empty { distance });
        }
        return if point_ok(grid, from.to_vec()) {
            Ok(())
        } else {
            Err(Violation::Blocked { leg: 0, at: from })
        };
    }
    let mut at = from.to_vec();
    for (i, leg) in route.legs.iter().enumerate() {
        let distance = at.angle(leg_start(leg));
        if distance > GAP_TOL {
            return Err(Violation::Gap { leg: i, distance });
        }
        at = leg_end(leg);
    }
    let distance = at.angle(to.to_vec());
    if distance > GAP_TOL {
        return Err(Violation::Gap {
            leg: route.legs.len(),
            distance,
        });
    }
    for (i, leg) in route.legs.iter().enumerate() {
        leg_in(grid, leg, i)?;
    }
    // Junctions: between consecutive legs that have a direction.
    let mut prev: Option<&Leg> = None;
    for (i, leg) in route.legs.iter().enumerate() {
        if leg.radians() <= DEGENERATE {
            continue;
        }
        if let Some(p) = prev
            && let Some(v) = junction_crosses(grid, p, leg)
        {
            return Err(Violation::DoubleCorner { leg: i, at: v });
        }
        prev = Some(leg);
    }
    Ok(())
}

/// Checks one leg on its own (`index` is only used in the violation): its coordinates are
/// valid; a great-circle leg is at most [`MAX_GREAT_ARC`] long, a parallel leg lies on a row
/// line and spans less than 360°; and the leg enters no blocked cell, runs along no grid line
/// between two blocked cells, passes through no double corner and no impassable pole.
pub fn check_leg(grid: &SphereGrid, leg: &Leg, index: usize) -> Result<(), Violation> {
    leg_in(&Cells::all(grid), leg, index)
}

fn leg_in(grid: &Cells<'_>, leg: &Leg, index: usize) -> Result<(), Violation> {
    if !leg_is_well_formed(leg) {
        return Err(Violation::BadPoint { leg: index });
    }
    match *leg {
        Leg::Great { from, to } => check_great(grid, from.to_vec(), to.to_vec(), index),
        Leg::Parallel {
            lat,
            from_lon,
            to_lon,
        } => {
            let span = (to_lon - from_lon).to_radians().abs();
            let phi = lat.to_radians();
            if span >= 2.0 * PI || row_line_of(grid, phi).is_none() {
                return Err(Violation::ParallelOffEdge { leg: index });
            }
            check_parallel(grid, phi, from_lon.to_radians(), to_lon.to_radians(), index)
        }
    }
}

fn leg_is_well_formed(leg: &Leg) -> bool {
    let ok = |p: LatLon| p.lat.is_finite() && p.lon.is_finite() && p.lat.abs() <= 90.0;
    match *leg {
        Leg::Great { from, to } => ok(from) && ok(to),
        Leg::Parallel {
            lat,
            from_lon,
            to_lon,
        } => ok(LatLon::new(lat, from_lon)) && ok(LatLon::new(lat, to_lon)),
    }
}

fn leg_start(leg: &Leg) -> V3 {
    match *leg {
        Leg::Great { from, .. } => from.to_vec(),
        Leg::Parallel { lat, from_lon, .. } => LatLon::new(lat, from_lon).to_vec(),
    }
}

fn leg_end(leg: &Leg) -> V3 {
    match *leg {
        Leg::Great { to, .. } => to.to_vec(),
        Leg::Parallel { lat, to_lon, .. } => LatLon::new(lat, to_lon).to_vec(),
    }
}

// ---------------------------------------------------------------------------------------------
// Grid geometry, computed here from the width and height only.

/// The cells a route is checked against: a grid's, with some free cells taken as blocked.
#[derive(Clone, Copy)]
struct Cells<'a> {
    grid: &'a SphereGrid,
    closed: Option<&'a dyn Fn(u32, u32) -> bool>,
}

impl<'a> Cells<'a> {
    fn all(grid: &'a SphereGrid) -> Self {
        Cells { grid, closed: None }
    }

    fn width(&self) -> u32 {
        self.grid.width()
    }

    fn height(&self) -> u32 {
        self.grid.height()
    }

    /// As [`SphereGrid::is_free`] (columns wrap, rows off the map are blocked), minus the
    /// closed cells.
    fn is_free(&self, row: i64, col: i64) -> bool {
        self.grid.is_free(row, col)
            && self.closed.is_none_or(|closed| {
                let c = col.rem_euclid(i64::from(self.grid.width()));
                !closed(row as u32, c as u32)
            })
    }
}

/// Row height in radians.
fn res_lat(grid: &Cells<'_>) -> f64 {
    PI / f64::from(grid.height())
}

/// Column width in radians.
fn res_lon(grid: &Cells<'_>) -> f64 {
    2.0 * PI / f64::from(grid.width())
}

/// Latitude (radians) of row line `i`.
fn line_lat(grid: &Cells<'_>, i: i64) -> f64 {
    FRAC_PI_2 - i as f64 * res_lat(grid)
}

/// Longitude (radians) of meridian `k`.
fn meridian(grid: &Cells<'_>, k: i64) -> f64 {
    -PI + k as f64 * res_lon(grid)
}

/// The interior row line (1..height) within [`LINE_TOL`] of latitude `phi`, if any.
fn row_line_of(grid: &Cells<'_>, phi: f64) -> Option<i64> {
    let i = ((FRAC_PI_2 - phi) / res_lat(grid)).round() as i64;
    (i > 0 && i < i64::from(grid.height()) && (phi - line_lat(grid, i)).abs() <= LINE_TOL)
        .then_some(i)
}

/// The sine of the distance from a point at latitude `phi` to the meridian (half circle) of
/// longitude `lambda`, as long as the point is within a quarter turn of it.
fn sin_dist_to_meridian(phi: f64, lon: f64, lambda: f64) -> f64 {
    let d = lon - lambda;
    if d.cos() <= 0.0 {
        return 1.0;
    }
    phi.cos() * d.sin().abs()
}

/// Whether some cell of polar row `row` is free: the pole is the vertex all of them share,
/// and, as at any vertex, a route may touch it (turn there, or pass over it) when a free cell
/// borders it; the samples on either side of it check the cells the route actually uses.
fn polar_row_free(grid: &Cells<'_>, row: i64) -> bool {
    (0..i64::from(grid.width())).any(|c| grid.is_free(row, c))
}

/// The point rule: `p` is legal when some cell whose closure lies within [`LINE_TOL`] of it is
/// free (so a point inside a cell needs that cell, a point on a grid line either side, a
/// point on a vertex any of its four cells); a pole, some cell of its polar row.
fn point_ok(grid: &Cells<'_>, p: V3) -> bool {
    let h = i64::from(grid.height());
    let phi = p.lat();
    if FRAC_PI_2 - phi <= LINE_TOL {
        return polar_row_free(grid, 0);
    }
    if phi + FRAC_PI_2 <= LINE_TOL {
        return polar_row_free(grid, h - 1);
    }
    let lon = p.lon();
    let r0 = (((FRAC_PI_2 - phi) / res_lat(grid)).floor() as i64).clamp(0, h - 1);
    let mut rows = [r0; 3];
    if line_lat(grid, r0) - phi <= LINE_TOL {
        rows[1] = r0 - 1;
    }
    if phi - line_lat(grid, r0 + 1) <= LINE_TOL {
        rows[2] = r0 + 1;
    }
    let c0 = ((lon + PI) / res_lon(grid)).floor() as i64;
    let mut cols = [c0; 3];
    if sin_dist_to_meridian(phi, lon, meridian(grid, c0)) <= LINE_TOL {
        cols[1] = c0 - 1;
    }
    if sin_dist_to_meridian(phi, lon, meridian(grid, c0 + 1)) <= LINE_TOL {
        cols[2] = c0 + 1;
    }
    rows.iter()
        .any(|&r| cols.iter().any(|&c| grid.is_free(r, c)))
}

/// The free-cell pattern around vertex (`i`, `k`) if it is a double corner: `Some(true)` when
/// the north-west and south-east cells are blocked (the free sides are north-east and
/// south-west), `Some(false)` when the north-east and south-west cells are.
fn double_corner(grid: &Cells<'_>, i: i64, k: i64) -> Option<bool> {
    if i <= 0 || i >= i64::from(grid.height()) {
        return None;
    }
    let nw = grid.is_free(i - 1, k - 1);
    let ne = grid.is_free(i - 1, k);
    let sw = grid.is_free(i, k - 1);
    let se = grid.is_free(i, k);
    if !nw && !se && ne && sw {
        Some(true)
    } else if nw && se && !ne && !sw {
        Some(false)
    } else {
        None
    }
}

/// The grid vertex (row line, meridian) within [`VERTEX_TOL`] of `p`, if any (poles excluded).
fn vertex_near(grid: &Cells<'_>, p: V3) -> Option<(i64, i64)> {
    let phi = p.lat();
    let i = row_line_of_tol(grid, phi, VERTEX_TOL)?;
    let lon = p.lon();
    let k = ((lon + PI) / res_lon(grid)).round() as i64;
    (sin_dist_to_meridian(phi, lon, meridian(grid, k)) <= VERTEX_TOL).then_some((i, k))
}

fn row_line_of_tol(grid: &Cells<'_>, phi: f64, tol: f64) -> Option<i64> {
    let i = ((FRAC_PI_2 - phi) / res_lat(grid)).round() as i64;
    (i > 0 && i < i64::from(grid.height()) && (phi - line_lat(grid, i)).abs() <= tol).then_some(i)
}

fn vertex_latlon(grid: &Cells<'_>, i: i64, k: i64) -> LatLon {
    LatLon::new(
        line_lat(grid, i).to_degrees(),
        meridian(grid, k).to_degrees(),
    )
    .normalized()
}

fn vertex_vec(grid: &Cells<'_>, i: i64, k: i64) -> V3 {
    V3::from_lat_lon(line_lat(grid, i), meridian(grid, k))
}

// ---------------------------------------------------------------------------------------------
// Great-circle legs.

/// Meridian indices `k_lo..=k_hi` (taken modulo the width) that include every meridian the
/// arc from `a` to `b` (shorter than π) can cross. Along a great circle that misses the poles
/// the longitude is strictly monotone, and over less than half the circle it changes by less
/// than π, so the arc covers exactly the shorter longitude interval between its ends. One
/// extra meridian on each side absorbs rounding. All meridians when an end is within 1e-9
/// rad of a pole (its longitude means nothing) or the ends are (nearly) half a turn apart in
/// longitude (the arc passes a pole).
fn arc_meridians(grid: &Cells<'_>, a: V3, b: V3) -> (i64, i64) {
    let w = i64::from(grid.width());
    let all = (0, w - 1);
    if a.x.hypot(a.y) < 1e-9 || b.x.hypot(b.y) < 1e-9 {
        return all;
    }
    let la = a.lon();
    let d = (b.lon() - la + PI).rem_euclid(2.0 * PI) - PI;
    if d.abs() > PI - 1e-9 {
        return all;
    }
    let (lo, hi) = if d >= 0.0 { (la, la + d) } else { (la + d, la) };
    let res = res_lon(grid);
    let k_lo = ((lo + PI) / res).floor() as i64 - 1;
    let k_hi = ((hi + PI) / res).ceil() as i64 + 1;
    if k_hi - k_lo + 1 >= w {
        all
    } else {
        (k_lo, k_hi)
    }
}

/// Interior row lines `i_lo..=i_hi` that include every row line the arc from `a` to `b`
/// (length `theta`, `z(t) = r cos(t − alpha)`) can cross: those between the lowest and the
/// highest latitude the arc reaches (an end, or the great circle's extreme point when it lies
/// on the arc), widened by one line each side for rounding.
fn arc_rows(grid: &Cells<'_>, a: V3, b: V3, theta: f64, r: f64, alpha: f64) -> (i64, i64) {
    let h = i64::from(grid.height());
    let (mut zmin, mut zmax) = (a.z.min(b.z), a.z.max(b.z));
    let on_arc = |t: f64| t.rem_euclid(2.0 * PI) <= theta + 1e-12;
    if on_arc(alpha) {
        zmax = r;
    }
    if on_arc(alpha + PI) {
        zmin = -r;
    }
    let res = res_lat(grid);
    let lat = |z: f64| z.clamp(-1.0, 1.0).asin();
    let i_lo = ((FRAC_PI_2 - lat(zmax)) / res).floor() as i64 - 1;
    let i_hi = ((FRAC_PI_2 - lat(zmin)) / res).ceil() as i64 + 1;
    (i_lo.max(1), i_hi.min(h - 1))
}

fn check_great(grid: &Cells<'_>, a: V3, b: V3, index: usize) -> Result<(), Violation> {
    let theta = a.angle(b);
    if theta > MAX_GREAT_ARC {
        return Err(Violation::LongArc { leg: index });
    }
    let blocked = |p: V3| Violation::Blocked {
        leg: index,
        at: p.to_lat_lon().normalized(),
    };
    if theta <= DEGENERATE {
        return if point_ok(grid, a) && point_ok(grid, b) {
            Ok(())
        } else {
            Err(blocked(a))
        };
    }
    let n = a.cross(b);
    let n = n.scale(1.0 / n.norm());
    // Unit tangent at `a` towards `b`: p(t) = a cos t + u sin t, t in [0, theta].
    let u = n.cross(a);
    let u = u.scale(1.0 / u.norm());
    let at = |t: f64| a.scale(t.cos()).plus(u.scale(t.sin()));

    // Exact cut: every crossing with a meridian plane and with a row parallel. Only the
    // meridians and row lines the arc can reach are tried (`arc_meridians`, `arc_rows`): a
    // superset of those it crosses, so the cut is the same as trying every line, but a short
    // leg costs O(1) instead of O(W + H) (Recipe 2 of the Section 6 bench checks routes of
    // a million one-arc-second legs).
    let (h, w) = (i64::from(grid.height()), i64::from(grid.width()));
    let (k_lo, k_hi) = arc_meridians(grid, a, b);
    let r = a.z.hypot(u.z);
    let alpha = u.z.atan2(a.z);
    let (i_lo, i_hi) = arc_rows(grid, a, b, theta, r, alpha);
    let lines = (k_hi - k_lo + 1).max(0) + 2 * (i_hi - i_lo + 1).max(0);
    let mut cuts: Vec<f64> = Vec::with_capacity(lines as usize + 2);
    cuts.push(0.0);
    cuts.push(theta);
    // Crossing points, with the grid line they were found on, for the vertex test.
    let mut on_meridian: Vec<f64> = Vec::new();
    let mut on_parallel: Vec<f64> = Vec::new();
    for k in k_lo..=k_hi {
        let lambda = meridian(grid, k.rem_euclid(w));
        let m = V3 {
            x: -lambda.sin(),
            y: lambda.cos(),
            z: 0.0,
        };
        let (ca, cu) = (a.dot(m), u.dot(m));
        if ca.hypot(cu) < 1e-15 {
            continue; // the arc lies in this meridian plane: the parallels cut it
        }
        // ca cos t + cu sin t = 0  <=>  (cos t, sin t) ∝ ±(cu, -ca).
        let t = (-ca).atan2(cu).rem_euclid(PI);
        if t <= theta {
            cuts.push(t);
            on_meridian.push(t);
        }
    }
    for i in i_lo..=i_hi {
        if r < 1e-15 {
            break; // the arc lies on the equator: no crossing, samples test it
        }
        let c = line_lat(grid, i).sin() / r;
        if c.abs() > 1.0 + 1e-12 {
            continue;
        }
        let d = c.clamp(-1.0, 1.0).acos();
        for t in [alpha - d, alpha + d] {
            let t = t.rem_euclid(2.0 * PI);
            if t <= theta {
                cuts.push(t);
                on_parallel.push(t);
            }
        }
    }
    cuts.sort_by(f64::total_cmp);
    for (j, &t) in cuts.iter().enumerate() {
        let p = at(t);
        if !point_ok(grid, p) {
            return Err(blocked(p));
        }
        if let Some(&t1) = cuts.get(j + 1)
            && t1 > t
        {
            let p = at(0.5 * (t + t1));
            if !point_ok(grid, p) {
                return Err(blocked(p));
            }
        }
    }
    // Safety net: dense samples.
    let step = SAMPLE_CELL_FRACTION * res_lat(grid).min(res_lon(grid));
    let samples = (theta / step).ceil() as usize;
    for s in 1..samples {
        let p = at(theta * s as f64 / samples as f64);
        if !point_ok(grid, p) {
            return Err(blocked(p));
        }
    }
    // Double corners passed through: the vertices beside each crossing.
    let vertex_check = |i: i64, k: i64| -> Result<(), Violation> {
        if i <= 0 || i >= h || double_corner(grid, i, k).is_none() {
            return Ok(());
        }
        let v = vertex_vec(grid, i, k);
        if v.dot(n).abs() > VERTEX_TOL {
            return Ok(());
        }
        let tv = v.dot(u).atan2(v.dot(a));
        if tv > VERTEX_TOL && tv < theta - VERTEX_TOL {
            return Err(Violation::DoubleCorner {
                leg: index,
                at: vertex_latlon(grid, i, k),
            });
        }
        Ok(())
    };
    for &t in &on_meridian {
        let p = at(t);
        let y = (FRAC_PI_2 - p.lat()) / res_lat(grid);
        let k = ((p.lon() + PI) / res_lon(grid)).round() as i64;
        vertex_check(y.floor() as i64, k)?;
        vertex_check(y.ceil() as i64, k)?;
    }
    for &t in &on_parallel {
        let p = at(t);
        let i = ((FRAC_PI_2 - p.lat()) / res_lat(grid)).round() as i64;
        let x = (p.lon() + PI) / res_lon(grid);
        vertex_check(i, x.floor() as i64)?;
        vertex_check(i, x.ceil() as i64)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Parallel legs.

/// Exact test of the arc of parallel `phi` from longitude `l0` to `l1` (radians, unwrapped).
fn check_parallel(
    grid: &Cells<'_>,
    phi: f64,
    l0: f64,
    l1: f64,
    index: usize,
) -> Result<(), Violation> {
    let (lo, hi) = if l0 <= l1 { (l0, l1) } else { (l1, l0) };
    let res = res_lon(grid);
    let blocked = |lon: f64| Violation::Blocked {
        leg: index,
        at: LatLon::new(phi.to_degrees(), lon.to_degrees()).normalized(),
    };
    // LINE_TOL as a fraction of a column at this latitude.
    let tol_cols = LINE_TOL / (phi.cos() * res).max(f64::MIN_POSITIVE);
    let first = ((lo + PI) / res + tol_cols).floor() as i64;
    let last = ((hi + PI) / res - tol_cols).ceil() as i64 - 1;
    if first > last {
        // Shorter than the tolerance, inside one column or at a meridian: a point.
        let p = V3::from_lat_lon(phi, lo);
        return if point_ok(grid, p) {
            Ok(())
        } else {
            Err(blocked(lo))
        };
    }
    let line = row_line_of(grid, phi);
    let h = i64::from(grid.height());
    let row = (((FRAC_PI_2 - phi) / res_lat(grid)).floor() as i64).clamp(0, h - 1);
    for c in first..=last {
        let ok = match line {
            Some(i) => grid.is_free(i - 1, c) || grid.is_free(i, c),
            None => grid.is_free(row, c),
        };
        if !ok {
            let mid = meridian(grid, c) + 0.5 * res;
            return Err(blocked(mid.clamp(lo, hi)));
        }
    }
    if let Some(i) = line {
        for k in first + 1..=last {
            if double_corner(grid, i, k).is_some() {
                return Err(Violation::DoubleCorner {
                    leg: index,
                    at: vertex_latlon(grid, i, k),
                });
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Junctions.

/// If the junction of `prev` and `next` is at a double corner and the route crosses from one
/// free side to the other there, the vertex.
fn junction_crosses(grid: &Cells<'_>, prev: &Leg, next: &Leg) -> Option<LatLon> {
    let j = leg_end(prev);
    let (i, k) = vertex_near(grid, j)?;
    let nw_se_blocked = double_corner(grid, i, k)?;
    let (phi, lambda) = (line_lat(grid, i), meridian(grid, k));
    let east = V3 {
        x: -lambda.sin(),
        y: lambda.cos(),
        z: 0.0,
    };
    let north = V3 {
        x: -phi.sin() * lambda.cos(),
        y: -phi.sin() * lambda.sin(),
        z: phi.cos(),
    };
    // Tangent directions at the vertex: back along `prev`, forward along `next`.
    let back = match *prev {
        Leg::Great { from, to } => {
            let (a, b) = (from.to_vec(), to.to_vec());
            a.plus(b.scale(-a.dot(b)))
        }
        Leg::Parallel {
            from_lon, to_lon, ..
        } => east.scale(-(to_lon - from_lon).signum()),
    };
    let fwd = match *next {
        Leg::Great { from, to } => {
            let (a, b) = (from.to_vec(), to.to_vec());
            b.plus(a.scale(-a.dot(b)))
        }
        Leg::Parallel {
            from_lon, to_lon, ..
        } => east.scale((to_lon - from_lon).signum()),
    };
    // Free sides: NE/SW when NW and SE are blocked (split by the line de + dn = 0), else
    // NW/SE (split by dn - de = 0). Axis directions fall on the free side they border.
    let side = |d: V3| {
        let (de, dn) = (d.dot(east), d.dot(north));
        if nw_se_blocked {
            de + dn > 0.0
        } else {
            dn - de > 0.0
        }
    };
    (side(back) != side(fwd)).then(|| vertex_latlon(grid, i, k))
}

#[cfg(test)]
mod tests;
