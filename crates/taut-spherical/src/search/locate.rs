//! Where a latitude or longitude lies on the grid: the meridian or row line it is on, the run
//! of a column that holds it, whether the goal's longitude lies in a column.

use std::f64::consts::{FRAC_PI_2, PI};

use super::node::Goal;
use crate::geo::{ANGLE_EPS, round_fast, unwrap_near};
use crate::grid::{Run, SphereGrid};

/// The goal's longitude unwrapped near the column, if it lies in the column (closed) between
/// longitudes `la` and `lm`.
pub(super) fn goal_lon_in(
    grid: &SphereGrid,
    goal: &Goal,
    col: i64,
    la: f64,
    lm: f64,
) -> Option<f64> {
    let _ = (grid, col);
    let lg = unwrap_near(goal.lon, 0.5 * (la + lm));
    let (a, b) = if la <= lm { (la, lm) } else { (lm, la) };
    (lg >= a - ANGLE_EPS && lg <= b + ANGLE_EPS).then_some(lg)
}

pub(super) fn in_run(grid: &SphereGrid, run: Run, lat: f64) -> bool {
    lat <= grid.row_line_lat(run.top) + ANGLE_EPS
        && lat >= grid.row_line_lat(run.bottom) - ANGLE_EPS
}

/// The meridian index whose longitude is `lon` (radians), if any.
pub(super) fn meridian_of(grid: &SphereGrid, lon: f64) -> Option<i64> {
    let x = (lon + PI) / grid.res_lon();
    let r = round_fast(x);
    ((x - r).abs() * grid.res_lon() < ANGLE_EPS).then(|| (r as i64).rem_euclid(grid.width() as i64))
}

/// The row line index whose latitude is `lat`, if any.
pub(super) fn line_of(grid: &SphereGrid, lat: f64) -> Option<u32> {
    let y = (FRAC_PI_2 - lat) / grid.res_lat();
    let r = round_fast(y);
    ((y - r).abs() * grid.res_lat() < ANGLE_EPS && r >= 0.0 && r <= grid.height() as f64)
        .then_some(r as u32)
}

/// The run of column `col` whose closed latitude range contains `lat`.
pub(super) fn run_containing(grid: &SphereGrid, col: i64, lat: f64) -> Option<Run> {
    grid.runs(col)
        .iter()
        .copied()
        .find(|&r| in_run(grid, r, lat))
}
