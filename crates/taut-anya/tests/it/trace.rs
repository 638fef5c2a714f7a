//! `plan_traced` records exactly the expanded nodes, and each is a genuine Anya node: on the
//! 130 arena queries with every option set, the trace has `stats.expanded` events, the answer
//! equals the untraced one, and every interval lies on its row inside the map, over free cells
//! on its root's side (a flat one along traversable edges), with its lattice endpoints visible
//! from a root that is the start or a convex corner.

use crate::common::{all_options, arena};
use taut_anya::AnyaPlanner;
use taut_grid::{Answer, Grid, Planner, Point, Rational, TraceEvent};

fn floor(x: Rational) -> i32 {
    x.floor().to_integer() as i32
}

fn ceil(x: Rational) -> i32 {
    x.ceil().to_integer() as i32
}

/// Checks one traced interval; returns a description of the first violation.
fn check_interval(
    g: &Grid,
    start: Point,
    row: i32,
    lo: Rational,
    hi: Rational,
    root: Point,
) -> Result<(), String> {
    let zero = Rational::from_integer(0);
    let w = Rational::from_integer(i64::from(g.width()));
    if !(zero <= lo && lo <= hi && hi <= w && (0..=g.height()).contains(&row)) {
        return Err("not an interval of a grid line of the map".into());
    }
    if !g.contains_point(root) || (root != start && !g.is_corner(root)) {
        return Err("root is neither the start nor a convex corner".into());
    }
    if root.y == row {
        // Flat: integer ends, the root at or beyond one end, every unit edge traversable.
        if !lo.is_integer() || !hi.is_integer() || lo == hi {
            return Err("flat interval without integer ends".into());
        }
        let (a, b) = (floor(lo), floor(hi));
        if !(root.x <= a || root.x >= b) {
            return Err("flat root inside its interval".into());
        }
        for c in a..b {
            if !g.is_free_padded(c, row - 1) && !g.is_free_padded(c, row) {
                return Err(format!(
                    "edge {c}..{} of a flat interval is not traversable",
                    c + 1
                ));
            }
        }
    } else {
        // Cone: the cells between the interval and the root's side of the row are free.
        let cy = if root.y < row { row - 1 } else { row };
        let cells: Vec<i32> = if lo < hi {
            (floor(lo)..ceil(hi)).collect()
        } else if lo.is_integer() {
            vec![floor(lo) - 1, floor(lo)]
        } else {
            vec![floor(lo)]
        };
        let ok = if lo < hi {
            cells.iter().all(|&c| g.is_free_padded(c, cy))
        } else {
            cells.iter().any(|&c| g.is_free_padded(c, cy))
        };
        if !ok {
            return Err(format!(
                "cells {cells:?} of row {cy} on the root's side are not free"
            ));
        }
    }
    for e in [lo, hi] {
        if e.is_integer() {
            let p = Point::new(floor(e), row);
            if p != root && !g.segment_is_legal(root, p) {
                return Err(format!("endpoint {p} not visible from the root"));
            }
        }
    }
    Ok(())
}

#[test]
fn the_trace_is_the_expanded_intervals() {
    let (grid, queries) = arena();
    let mut total = 0;
    for o in all_options() {
        let mut planner = AnyaPlanner::with_options(&grid, o);
        let (mut plain, mut traced) = (Answer::default(), Answer::default());
        let mut trace = vec![TraceEvent::Cell {
            at: Point::new(0, 0),
            parent: None,
        }];
        for &(s, t) in &queries {
            let st = planner.plan(s, t, &mut plain).unwrap();
            let st2 = planner.plan_traced(s, t, &mut traced, &mut trace).unwrap();
            assert_eq!((st, &plain), (st2, &traced), "{o:?} {s} -> {t}");
            assert_eq!(
                trace.len() as u64,
                traced.stats.expanded,
                "{o:?} {s} -> {t}"
            );
            for ev in &trace {
                let TraceEvent::Interval { row, lo, hi, root } = *ev else {
                    panic!("{o:?} {s} -> {t}: Anya recorded {ev:?}");
                };
                if let Err(why) = check_interval(&grid, s, row, lo, hi, root) {
                    panic!("{o:?} {s} -> {t}: {ev:?}: {why}");
                }
            }
            total += trace.len();
        }
    }
    // Guard against a vacuous pass: the arena queries expand hundreds of nodes per option set.
    assert!(total > 8 * 500, "only {total} intervals traced");
}

#[test]
fn the_checker_rejects_bad_intervals() {
    // The interval checks above can fail: a hand-made node over a blocked strip, a root that is
    // not a corner, and a flat interval across a wall.
    let g = Grid::from_ascii(&["....", ".@@.", "...."]).unwrap();
    let r = |n: i64| Rational::from_integer(n);
    let s = Point::new(0, 0);
    // Row 2 seen from (0, 0) across cells (1, 1), (2, 1): blocked.
    assert!(check_interval(&g, s, 2, r(1), r(3), s).is_err());
    // A root in the middle of free space is not a corner.
    assert!(check_interval(&g, s, 0, r(2), r(3), Point::new(2, 3)).is_err());
    // Along the top border the edges lie beside free cells: fine; beyond the map: not.
    assert!(check_interval(&g, s, 0, r(0), r(4), s).is_ok());
    assert!(check_interval(&g, s, 0, r(0), r(5), s).is_err());
}
