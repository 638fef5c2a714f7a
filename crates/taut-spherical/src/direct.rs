//! The direct case: a start that sees the goal along the great circle.
//!
//! No route is shorter than the minor great-circle arc between its ends, so when that arc stays
//! inside the free cells it is the route, and the search has nothing to do. A third of the
//! random 0.5° Earth pairs are such (open ocean); Euclidean Anya answers its own direct case
//! from the start's first fan without expanding a node, where Spherical Anya, whose cones move
//! one column at a time, took 5–30 expansions.
//!
//! [`arc_is_clear`] walks the arc's columns. In each it bounds the arc's latitudes by its
//! crossings of the column's two meridians (or the start or goal, in their own columns) and by
//! the circle's peak or trough when it lies inside the column, and asks for one run of the
//! column holding them all, by a margin. All in tangents of latitude from the meridians'
//! tables: no trigonometric call. The test is conservative: an arc that grazes a blocked
//! cell, a corner or a pole within the margin is left to the search, which answers it exactly.

use crate::geo::{ANGLE_EPS, V3, crossing_tan_sc, peak_tan, round_fast, unwrap_near};
use crate::grid::{POLAR_TAN, SphereGrid};
use std::f64::consts::PI;

/// Whether the minor great-circle arc from `s` (longitude `s_lon`, radians in `[-π, π)`) to `g`
/// (`g_lon`) stays inside the free cells of `grid` by a margin: inside one run of every column
/// it crosses, by [`crate::grid::SWEEP_MARGIN`] in latitude
/// ([`SphereGrid::line_clear`]), and away from both poles. Then it touches no blocked cell and
/// no corner, so it is a legal route, and the shortest one.
///
/// `false` means "not shown clear", never "blocked": arcs through a pole, nearly antipodal
/// ends, ends on one meridian and arcs within the margin of a cell boundary are refused.
pub(crate) fn arc_is_clear(grid: &SphereGrid, s: V3, s_lon: f64, g: V3, g_lon: f64) -> bool {
    let n = s.cross(g);
    let d_lon = unwrap_near(g_lon, s_lon) - s_lon;
    // Along a minor arc not through a pole the longitude moves monotonically, by less than π,
    // so by `d_lon`; eastwards exactly when the normal points north. A disagreement (arcs
    // through or near a pole, ends on one meridian, rounding at the antipode) is refused.
    let res = grid.res_lon();
    if n.z == 0.0
        || d_lon.abs() >= PI - res
        || d_lon.abs() < 1e-9
        || (d_lon > 0.0) != (n.z > 0.0)
        || s.dot(g) < -1.0 + 1e-9
    {
        return false;
    }
    let rho = |p: V3| (p.x * p.x + p.y * p.y).sqrt();
    let (rs, rg) = (rho(s), rho(g));
    if rs == 0.0 || rg == 0.0 {
        return false;
    }
    // The circle's peak and trough as tangents of latitude, and where its latitude rises: with
    // `tan lat = -(n.x cos λ + n.y sin λ) / n.z`, it rises with λ where
    // `q(λ) = (n.x sin λ − n.y cos λ)·sign(n.z) > 0`. The peak lies strictly inside a column when
    // it rises at the column's west meridian and falls at its east one; the trough, the reverse.
    // Scaling `(sin, cos)` by a positive factor keeps `q`'s sign, so the ends' `(y, x)` serve.
    let sz = n.z.signum();
    let peak = peak_tan(n);
    if peak >= POLAR_TAN {
        return false;
    }
    let q = |(sn, cs): (f64, f64)| (n.x * sn - n.y * cs) * sz;
    // An end of a column's part of the arc: its tangent of latitude, `q` there, and whether it
    // is the start or the goal.
    let at_meridian = |k: usize| {
        let (sn, cs) = grid.meridian_sin_cos_wrapped(k);
        (crossing_tan_sc(n, sn, cs), q((sn, cs)), false)
    };
    let at_s = (s.z / rs, q((s.y, s.x)), true);
    let at_g = (g.z / rg, q((g.y, g.x)), true);
    let h = grid.height();
    // Column positions in units of columns from the antimeridian, unwrapped along the arc; the
    // number of columns the arc touches. An end within `ANGLE_EPS` of a meridian is on it, as
    // the search takes it (`meridian_of`): the arc then starts (or ends) in the column on its
    // own side, not in a sliver of the column behind, which rounding would make of 62°W
    // (235.99999999999997 columns on the 0.5° raster).
    let on_meridian = |u: f64| {
        let r = round_fast(u);
        if (u - r).abs() * res < ANGLE_EPS {
            r
        } else {
            u
        }
    };
    let u_s = on_meridian((s_lon + PI) / res);
    let u_g = on_meridian(u_s + d_lon / res);
    let east = d_lon > 0.0;
    let (first, last) = if east {
        (u_s.floor(), u_g.ceil() - 1.0)
    } else {
        (u_s.ceil() - 1.0, u_g.floor())
    };
    let count = (last - first).abs() as usize + 1;
    let w = grid.width() as usize;
    // Column `c`, taken modulo the width once; the columns after it are stepped to.
    let mut c = (first as i64).rem_euclid(w as i64) as usize;
    // The end shared with the previous column (the one the arc enters the column by).
    let mut entry = at_s;
    for i in 0..count {
        // The arc's part in column `c` (meridians `c` west, `c + 1` east) ends where it leaves
        // the column, or at the goal.
        let exit = if i + 1 == count {
            at_g
        } else if east {
            at_meridian(if c + 1 == w { 0 } else { c + 1 })
        } else {
            at_meridian(c)
        };
        let (west, east_end) = if east { (entry, exit) } else { (exit, entry) };
        let (peak_in, trough_in) = (
            west.1 > 0.0 && east_end.1 < 0.0,
            west.1 < 0.0 && east_end.1 > 0.0,
        );
        let hi = if peak_in {
            peak
        } else {
            west.0.max(east_end.0)
        };
        let lo = if trough_in {
            -peak
        } else {
            west.0.min(east_end.0)
        };
        // The start or the goal may lie on the run's boundary line (a port on the coast): the
        // arc then touches the line only there if it leaves into the run, monotonically across
        // the column (no peak or trough inside), the endpoint on or inside the line (its
        // tangent against the line's, exactly) and the column's other end clear of it.
        let has_endpoint = west.2 || east_end.2;
        let touches = |line: u32, top: bool| {
            if line == 0 || line == h || (if top { peak_in } else { trough_in }) {
                return false;
            }
            let l = grid.line_tan(line);
            let (below, above) = grid.line_clear(line);
            let ok = |e: (f64, f64, bool), other: (f64, f64, bool)| {
                e.2 && if top {
                    e.0 <= l && other.0 < below
                } else {
                    e.0 >= l && other.0 > above
                }
            };
            ok(west, east_end) || ok(east_end, west)
        };
        let runs = grid.runs_wrapped(c);
        let inside = |r: &crate::grid::Run| {
            hi < grid.line_clear(r.top).0 && lo > grid.line_clear(r.bottom).1
        };
        let touching = |r: &crate::grid::Run| {
            (hi < grid.line_clear(r.top).0 || touches(r.top, true))
                && (lo > grid.line_clear(r.bottom).1 || touches(r.bottom, false))
        };
        // The column's longest run first: one entry per column, read in order along the walk.
        let holds = inside(&grid.longest_run_wrapped(c))
            || runs.iter().any(inside)
            || (has_endpoint && runs.iter().any(touching));
        if !holds {
            return false;
        }
        entry = exit;
        c = if east {
            if c + 1 == w { 0 } else { c + 1 }
        } else if c == 0 {
            w - 1
        } else {
            c - 1
        };
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_route;
    use crate::geo::LatLon;
    use crate::{Route, SearchContext, SearchOutcome};

    fn clear(grid: &SphereGrid, a: LatLon, b: LatLon) -> bool {
        let (a, b) = (a.normalized(), b.normalized());
        arc_is_clear(
            grid,
            a.to_vec(),
            a.lon.to_radians(),
            b.to_vec(),
            b.lon.to_radians(),
        )
    }

    /// 1° cells, free except the cells given as (row, col).
    fn grid_without(blocked: &[(u32, u32)]) -> SphereGrid {
        SphereGrid::from_fn(360, 180, |r, c| !blocked.contains(&(r, c))).unwrap()
    }

    #[test]
    fn open_sea_is_clear_both_ways_and_across_the_antimeridian() {
        let g = grid_without(&[]);
        for (a, b) in [
            (LatLon::new(10.5, 20.5), LatLon::new(-30.25, 100.75)),
            (LatLon::new(60.5, 170.5), LatLon::new(55.5, -160.5)),
            (LatLon::new(-0.5, -179.5), LatLon::new(0.5, 179.5)),
            (LatLon::new(80.5, -100.5), LatLon::new(80.5, 60.5)),
        ] {
            assert!(clear(&g, a, b), "{a:?} -> {b:?}");
            assert!(clear(&g, b, a), "{b:?} -> {a:?}");
        }
        // Refused, though open: one meridian, antipodes, a pole on the way.
        assert!(!clear(
            &g,
            LatLon::new(10.5, 20.5),
            LatLon::new(-30.5, 20.5)
        ));
        assert!(!clear(
            &g,
            LatLon::new(10.5, 20.5),
            LatLon::new(-10.5, -159.5)
        ));
        assert!(!clear(&g, LatLon::new(80.5, 0.5), LatLon::new(80.5, 180.5)));
    }

    #[test]
    fn a_blocked_cell_on_the_arc_or_its_bulge_is_seen() {
        // 1° cells: row r spans latitudes [89 - r, 90 - r], column c longitudes
        // [c - 180, c - 179]. Just north of the equator, a blocked cell on the arc's row, then
        // one row further north.
        let (a, b) = (LatLon::new(0.5, 10.5), LatLon::new(0.5, 30.5));
        assert!(!clear(&grid_without(&[(89, 200)]), a, b));
        assert!(clear(&grid_without(&[(88, 200)]), a, b));
        // Two points at the same latitude, 40° of longitude apart: the great circle peaks at
        // 72.0003°N, halfway, in column 200 (20°E to 21°E), and crosses that column's
        // meridians 0.0006° lower, below the row line at 72°N. Only the peak reaches the cell
        // north of that line.
        let phi = (72.0003f64.to_radians().tan() * 20f64.to_radians().cos())
            .atan()
            .to_degrees();
        let (a, b) = (LatLon::new(phi, 0.5), LatLon::new(phi, 40.5));
        assert!(!clear(&grid_without(&[(17, 200)]), a, b));
        assert!(clear(&grid_without(&[(16, 200)]), a, b));
        // The same in the south: the trough.
        let (a, b) = (LatLon::new(-phi, 0.5), LatLon::new(-phi, 40.5));
        assert!(!clear(&grid_without(&[(162, 200)]), a, b));
        assert!(clear(&grid_without(&[(163, 200)]), a, b));
    }

    #[test]
    fn an_arc_through_a_corner_is_left_to_the_search() {
        // Two blocked cells touching diagonally at (0°, 20°E); the arc from (1°S, 19°E) to
        // (1°N, 21°E) passes through that vertex: refused, as is the same arc grazing the
        // corner of one blocked cell, and accepted on the open raster.
        let (a, b) = (LatLon::new(-1.0, 19.0), LatLon::new(1.0, 21.0));
        assert!(!clear(&grid_without(&[(89, 199), (90, 200)]), a, b));
        assert!(!clear(&grid_without(&[(89, 199)]), a, b));
        assert!(clear(&grid_without(&[]), a, b));
    }

    #[test]
    fn an_endpoint_on_the_coast_is_direct_when_the_arc_leaves_into_the_sea() {
        // Land north of 10°N between 20°E and 22°E (cells of rows 0-79, columns 200-201).
        let land: Vec<(u32, u32)> = (0..80).flat_map(|r| [(r, 200), (r, 201)]).collect();
        let g = grid_without(&land);
        // From the coast at 10°N, 20.5°E south-east to open sea: clear, both ways.
        let (a, b) = (LatLon::new(10.0, 20.5), LatLon::new(0.5, 30.5));
        assert!(clear(&g, a, b) && clear(&g, b, a));
        // Along the coast, or from it north-east over the land: refused.
        assert!(!clear(&g, a, LatLon::new(10.0, 21.5)));
        assert!(!clear(&g, a, LatLon::new(20.5, 25.5)));
        // The coast's corner (10°N, 20°E), leaving south-west: clear.
        assert!(clear(&g, LatLon::new(10.0, 20.0), LatLon::new(5.5, 10.5)));
    }

    #[test]
    fn an_endpoint_on_a_meridian_starts_in_the_column_it_enters() {
        // Land in column 117 (63°W to 62°W) between 12°N and 18°N. 62°W is 117.99999999999999
        // columns from the antimeridian in radians: the arc from (15.5°N, 62°W) eastwards
        // started in a sliver of the land column and was refused.
        let land: Vec<(u32, u32)> = (72..78).map(|r| (r, 117)).collect();
        let g = grid_without(&land);
        let a = LatLon::new(15.5, -62.0);
        assert!(clear(&g, a, LatLon::new(20.5, -43.5)));
        assert!(clear(&g, LatLon::new(20.5, -43.5), a));
        // Westwards it enters the land column.
        assert!(!clear(&g, a, LatLon::new(18.5, -80.5)));
    }

    #[test]
    fn the_direct_answer_is_the_search_answer() {
        // Rasters of 1° cells with random blocks of 1-12 cells a side; random pairs of free
        // points. The search with the direct test must give the one without it: the same
        // outcome and length, a legal route, and a single leg whenever the test passed.
        let mut next = crate::testing::below(0x9e37_79b9_7f4a_7c15);
        let (w, h) = (360u32, 180u32);
        let (mut direct, mut searched) = (0, 0);
        for _ in 0..8 {
            let mut free = vec![true; (w * h) as usize];
            for _ in 0..60 {
                let (r0, c0, rs, cs) = (next(h), next(w), 1 + next(12), 1 + next(12));
                for dr in 0..rs {
                    for dc in 0..cs {
                        let r = (r0 + dr).min(h - 1);
                        free[(r * w + (c0 + dc) % w) as usize] = false;
                    }
                }
            }
            let grid = SphereGrid::from_fn(w, h, |r, c| free[(r * w + c) as usize]).unwrap();
            let point = |next: &mut dyn FnMut(u32) -> u32| loop {
                let (r, c) = (next(h), next(w));
                if free[(r * w + c) as usize] {
                    // Cell centres and points on cell boundaries as well as inside.
                    let f = |next: &mut dyn FnMut(u32) -> u32| f64::from(next(5)) * 0.25;
                    let lat = 90.0 - (f64::from(r) + f(next));
                    let lon = -180.0 + (f64::from(c) + f(next));
                    break LatLon::new(lat, lon);
                }
            };
            for _ in 0..40 {
                let (from, to) = (point(&mut next), point(&mut next));
                if !grid.is_free_point(from) || !grid.is_free_point(to) {
                    continue;
                }
                let is_clear = clear(&grid, from, to);
                let mut fast = SearchContext::default();
                let mut slow = SearchContext::default();
                slow.no_direct = true;
                let (mut r1, mut r2) = (Route::default(), Route::default());
                let Ok(o1) = fast.search(&grid, from, to, &mut r1) else {
                    continue; // an end on a double corner: refused by both
                };
                let o2 = slow.search(&grid, from, to, &mut r2).unwrap();
                assert_eq!(o1, o2, "{from:?} -> {to:?}");
                if o1 == SearchOutcome::Found {
                    assert!(
                        (r1.radians - r2.radians).abs() <= 1e-12 * r2.radians.max(1.0),
                        "{from:?} -> {to:?}: {} direct, {} searched",
                        r1.radians,
                        r2.radians
                    );
                    check_route(&grid, &r1, from, to).unwrap();
                }
                if is_clear {
                    direct += 1;
                    // The leg joins the points as given; the length is the leg's own.
                    assert_eq!(r1.legs[0].start(), from.normalized());
                    assert_eq!(r1.radians, r1.legs[0].radians());
                    assert_eq!(fast.stats().expanded, 0, "{from:?} -> {to:?}");
                    assert_eq!(r1.legs.len(), 1, "{from:?} -> {to:?}");
                    assert_eq!(r2.legs.len(), 1, "{from:?} -> {to:?}: {:?}", r2.legs);
                } else {
                    searched += 1;
                }
            }
        }
        assert!(
            direct >= 40 && searched >= 40,
            "{direct} direct, {searched} searched"
        );
    }
}
