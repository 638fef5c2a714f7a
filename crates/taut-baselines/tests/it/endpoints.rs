//! Bad query endpoints, for every planner of the crate through its `Planner` adapter: an
//! endpoint off the map or on a blocked cell is a typed `QueryError` naming which end and why
//! (never "unreachable", never a panic), and the answer is left cleared. Every planner starts
//! its queries with `taut_grid::begin_query`; this test holds each of them to it.

use taut_baselines::{Baseline, baseline_planner};
use taut_grid::{Answer, Endpoint, Grid, Point, QueryError};

fn p(x: i32, y: i32) -> Point {
    Point::new(x, y)
}

#[test]
fn bad_endpoints_are_typed_errors_for_every_planner() {
    let g = Grid::from_ascii(&["..@", "..."]).unwrap();
    let off = |which, point| QueryError::OffMap {
        which,
        point,
        width: 3,
        height: 2,
    };
    let blocked = |which, point| QueryError::Blocked { which, point };
    let cases = [
        (p(2, 0), p(0, 0), blocked(Endpoint::Start, p(2, 0))),
        (p(0, 0), p(2, 0), blocked(Endpoint::Goal, p(2, 0))),
        // (3, 0) is a lattice point of the map, but no cell has it as its top-left corner.
        (p(0, 0), p(3, 0), off(Endpoint::Goal, p(3, 0))),
        (p(0, 0), p(0, 2), off(Endpoint::Goal, p(0, 2))),
        (p(-1, 0), p(0, 0), off(Endpoint::Start, p(-1, 0))),
        (p(0, -1), p(0, 0), off(Endpoint::Start, p(0, -1))),
        // Both bad: the start is reported.
        (p(2, 0), p(9, 9), blocked(Endpoint::Start, p(2, 0))),
    ];
    for algo in Baseline::ALL {
        let mut planner = baseline_planner(algo, &g);
        assert_eq!(planner.name(), algo.name());
        assert_eq!(
            planner.guarantee() == taut_grid::Guarantee::Optimal,
            matches!(algo, Baseline::AStar | Baseline::Vg),
            "{algo}"
        );
        assert_eq!(
            planner.path_model() == taut_grid::PathModel::Octile,
            algo == Baseline::AStar,
            "{algo}"
        );
        let mut out = Answer::default();
        for &(s, t, err) in &cases {
            out.waypoints.push(p(9, 9));
            out.length = 1.0;
            assert_eq!(planner.plan(s, t, &mut out), Err(err), "{algo} {s} -> {t}");
            assert!(
                out.waypoints.is_empty() && out.length == f64::INFINITY,
                "{algo}: {out:?}"
            );
        }
        // The planner is still usable after errors.
        assert!(planner.plan(p(0, 0), p(1, 1), &mut out).is_ok(), "{algo}");
    }
}
