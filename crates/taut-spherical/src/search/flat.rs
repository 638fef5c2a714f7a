//! Walking along a meridian (Anya's flat successors): from a corner, or a start on a meridian,
//! north or south while a free cell borders it, turning at every corner on the way.

use std::f64::consts::{FRAC_PI_2, PI};

use super::SearchContext;
use super::cone::TurnSpec;
use super::node::{Goal, PointRoot, RootData, RootKind};
use crate::geo::{ANGLE_EPS, V3};
use crate::grid::SphereGrid;

impl SearchContext {
    /// Runs along meridian `k` from row line `i` (point root `r` there, or `r` inside the cell
    /// row just behind the line when `behind` gives that row's free sides), north if `up`,
    /// while a free cell borders the meridian and no double corner blocks it, turning at every
    /// corner where a run begins on a side that was blocked.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn flat(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        k: i64,
        i: u32,
        up: bool,
        behind: Option<(bool, bool)>,
    ) {
        let lk = r.lon;
        let (west, east) = (k - 1, k);
        let width = grid.width() as i64;
        let goal_on = goal
            .on_meridian
            .is_some_and(|gk| (gk - k).rem_euclid(width) == 0);
        let mut line = i;
        let mut prev = behind;
        loop {
            let row = if up { line as i64 - 1 } else { line as i64 };
            if row < 0 || row >= grid.height() as i64 {
                if prev.is_none() {
                    break;
                }
                if r.lat.abs() < FRAC_PI_2 - ANGLE_EPS {
                    let g = r.g + (grid.row_line_lat(line) - r.lat).abs();
                    self.pole(grid, goal, r, g, up);
                } else {
                    // A walk from one pole reaches the other: the two are antipodes, 180° apart
                    // along this meridian. The route breaks at the last row line before the
                    // far pole, so that no leg is 180° long (an antipodal leg has no unique
                    // great circle).
                    let via_line = if up { 1 } else { grid.height() - 1 };
                    let lat = grid.row_line_lat(via_line);
                    let lon = grid.meridian_lon(k);
                    let v = V3::from_lat_lon(lat, lon);
                    let g = r.g + (lat - r.lat).abs();
                    let id = self.push_root(RootData {
                        kind: RootKind::Point { v, lat, lon },
                        g,
                        parent: r.id,
                        dep_lon: f64::NAN,
                        to_goal: 0.0,
                    });
                    let via = PointRoot { id, v, lat, lon, g };
                    self.pole(grid, goal, via, r.g + PI, up);
                }
                break;
            }
            let (gw, ge) = (grid.is_free(row, west), grid.is_free(row, east));
            if let Some((fw, fe)) = prev {
                // At `line`: a double corner (the free side swaps) blocks the way on.
                if (fw && !fe && !gw && ge) || (fe && !fw && !ge && gw) {
                    break;
                }
                let g = r.g + (grid.row_line_lat(line) - r.lat).abs();
                // A run begins on a side that was blocked: a corner to turn around.
                for (begins, side, dir) in [(gw && !fw, west, -1i64), (ge && !fe, east, 1)] {
                    if !begins {
                        continue;
                    }
                    let run = grid
                        .run_at(row as u32, side)
                        .expect("a free cell has a run");
                    let t = TurnSpec {
                        parent: r.id,
                        dep_lon: f64::NAN,
                        g,
                        k,
                        lk,
                        i: line,
                        dir,
                        run,
                        up,
                        bound: if up { -FRAC_PI_2 } else { FRAC_PI_2 },
                        flat: true,
                    };
                    self.turn_at(grid, goal, t);
                }
            }
            if !gw && !ge {
                break;
            }
            // Nothing happens before one of the two columns changes: jump to that line.
            let (cw, ce) = (
                grid.next_change_line(row as u32, west, up),
                grid.next_change_line(row as u32, east, up),
            );
            let next = if up { cw.max(ce) } else { cw.min(ce) };
            if goal_on {
                let (a, b) = (grid.row_line_lat(line), grid.row_line_lat(next));
                let (a, b) = (a.min(b), a.max(b));
                if goal.lat >= a - ANGLE_EPS && goal.lat <= b + ANGLE_EPS {
                    let g = r.g + (goal.lat - r.lat).abs();
                    self.push_goal(goal, r.id, f64::NAN, g);
                }
            }
            prev = Some((gw, ge));
            line = next;
        }
    }

    /// A start on meridian `k` strictly between two row lines: runs north and south along the
    /// meridian from the start's cell row.
    pub(super) fn flat_from_inside(
        &mut self,
        grid: &SphereGrid,
        goal: &Goal,
        r: PointRoot,
        k: i64,
    ) {
        let row = ((FRAC_PI_2 - r.lat) / grid.res_lat()).floor() as i64;
        let row = row.clamp(0, grid.height() as i64 - 1);
        let sides = (grid.is_free(row, k - 1), grid.is_free(row, k));
        if !sides.0 && !sides.1 {
            return;
        }
        let width = grid.width() as i64;
        for up in [true, false] {
            let line = if up { row as u32 } else { row as u32 + 1 };
            let lat = grid.row_line_lat(line);
            if goal
                .on_meridian
                .is_some_and(|gk| (gk - k).rem_euclid(width) == 0)
            {
                let (a, b) = (lat.min(r.lat), lat.max(r.lat));
                if goal.lat >= a - ANGLE_EPS && goal.lat <= b + ANGLE_EPS {
                    self.push_goal(goal, r.id, f64::NAN, (goal.lat - r.lat).abs());
                }
            }
            self.flat(grid, goal, r, k, line, up, Some(sides));
        }
    }
}
