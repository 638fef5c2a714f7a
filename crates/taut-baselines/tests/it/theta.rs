//! Theta* and Lazy Theta* on tiny hand-drawn maps: exact lengths, the double-corner rules,
//! errors, unreachable goals, context reuse.

use taut_baselines::theta::{Theta, ThetaPlanner, Variant};
use taut_grid::{Answer, Grid, Planner, Point, Status};
use taut_testdata::{Tolerances, check_answer_within};

const BOTH: [Variant; 2] = [Variant::Theta, Variant::Lazy];

fn p(x: i32, y: i32) -> Point {
    Point::new(x, y)
}

fn grid(rows: &[&str]) -> Grid {
    Grid::from_ascii(rows).unwrap()
}

/// Runs one variant; checks the path with the grid's legality checker and its length.
fn run(g: &Grid, v: Variant, s: Point, t: Point) -> Option<Answer> {
    let mut out = Answer::default();
    match Theta::new().search(g, v, s, t, &mut out).unwrap() {
        Status::Found => {
            // Legal, and exactly its polyline length.
            if let Err(e) = check_answer_within(g, s, t, &out, None, Tolerances::both(0.0)) {
                panic!("{v:?} {e}");
            }
            Some(out)
        }
        Status::Unreachable => {
            assert!(out.waypoints.is_empty() && out.length == f64::INFINITY);
            None
        }
    }
}

fn length(g: &Grid, v: Variant, s: Point, t: Point) -> Option<f64> {
    run(g, v, s, t).map(|a| a.length)
}

fn assert_len(g: &Grid, s: Point, t: Point, want: f64) {
    for v in BOTH {
        let got = length(g, v, s, t);
        assert!(
            got.is_some_and(|l| (l - want).abs() < 1e-9),
            "{v:?} {s}->{t}: {got:?} != {want}"
        );
    }
}

#[test]
fn straight_lines_on_open_maps() {
    let g = grid(&[".....", ".....", "....."]);
    for v in BOTH {
        let a = run(&g, v, p(0, 0), p(4, 2)).unwrap();
        assert_eq!(a.waypoints, [p(0, 0), p(4, 2)]);
        assert_eq!(a.length, 20f64.sqrt());
    }
    // Along the map border: the border is blocked, but the free cells beside make it legal.
    assert_len(&grid(&[".", ".", "."]), p(0, 0), p(0, 2), 2.0);
    assert_len(&grid(&["...."]), p(3, 0), p(0, 0), 3.0);
}

#[test]
fn around_a_wall_through_a_gap() {
    // The wall leaves only cell (2, 1) open: (0,0) -> (2,1) -> (2,2) -> (0,2).
    let g = grid(&["....", "@@.@", "...."]);
    assert_len(&g, p(0, 0), p(0, 2), 5f64.sqrt() + 1.0 + 2.0);
    for v in BOTH {
        assert_eq!(
            run(&g, v, p(0, 0), p(0, 2)).unwrap().waypoints,
            [p(0, 0), p(2, 1), p(2, 2), p(0, 2)]
        );
    }
    // Straight through the gap when it lines up: (2,0) -> (2,2) runs along x = 2 beside the
    // free cell (2, 1).
    assert_len(&g, p(2, 0), p(2, 2), 2.0);
}

#[test]
fn double_corner_is_not_a_passage() {
    // Cells (1,1) and (2,2) touch at the double corner (2,2). The straight segment
    // (1,3) -> (3,1) enters no blocked cell but crosses that point; the legal ways round are
    // (1,3) -> (3,3) -> (3,1) and (1,3) -> (1,1) -> (3,1), both of length 4.
    let g = grid(&["....", ".@..", "..@.", "...."]);
    assert!(!g.segment_is_legal(p(1, 3), p(3, 1)));
    assert_len(&g, p(1, 3), p(3, 1), 4.0);
    assert_len(&g, p(3, 1), p(1, 3), 4.0);
}

#[test]
fn double_corner_endpoints_use_their_own_cell() {
    // (2,2) is a double corner whose free cells are (1,1) (north-west) and (2,2) (south-east).
    let g = grid(&["....", "..@.", ".@..", "...."]);
    assert!(g.is_double_corner(p(2, 2)));
    // From (0,0) the diagonal to (2,2) is a legal segment but arrives from the north-west. The
    // goal must be entered from its own cell: round the east of cell (2,1),
    // (0,0) -> (3,1) -> (3,2) -> (2,2), or symmetrically round the south of cell (1,2).
    // (Java Anya, which accepts either free quadrant, would answer √8.)
    assert!(g.segment_is_legal(p(0, 0), p(2, 2)));
    assert!(!g.endpoint_allows(p(2, 2), p(0, 0)));
    assert_len(&g, p(0, 0), p(2, 2), 10f64.sqrt() + 2.0);
    // The same rule for a start on the double corner.
    assert_len(&g, p(2, 2), p(0, 0), 10f64.sqrt() + 2.0);
    // From the south-west the goal is entered along x = 2 from below: (0,3) -> (2,3) -> (2,2).
    assert_len(&g, p(0, 3), p(2, 2), 3.0);
    // Leaving a double-corner start through its own cell is a straight line.
    assert_len(&g, p(2, 2), p(3, 3), 2f64.sqrt());
    let g = grid(&[".@..", "@...", "...."]);
    assert_len(&g, p(1, 1), p(3, 2), 5f64.sqrt());
    assert_len(&g, p(3, 2), p(1, 1), 5f64.sqrt());
}

#[test]
fn isolated_double_corner_goal_is_unreachable() {
    // Cell (0,0) touches cell (1,1) only at the double corner (1,1): the diagonal segment is
    // legal, but it would enter the goal (1,1) from the north-west side.
    let g = grid(&[".@", "@."]);
    assert!(g.segment_is_legal(p(0, 0), p(1, 1)));
    for v in BOTH {
        assert_eq!(length(&g, v, p(0, 0), p(1, 1)), None);
        assert_eq!(length(&g, v, p(1, 1), p(0, 0)), None);
    }
}

#[test]
fn start_equals_goal() {
    let g = grid(&[".@", "@."]);
    for v in BOTH {
        let a = run(&g, v, p(1, 1), p(1, 1)).unwrap();
        assert_eq!(a.waypoints, [p(1, 1)]);
        assert_eq!(a.length, 0.0);
    }
}

#[test]
fn unreachable_in_bounded_time() {
    assert_eq!(
        length(
            &grid(&["..@..", "..@..", "..@.."]),
            Variant::Theta,
            p(0, 0),
            p(4, 2)
        ),
        None
    );
    assert_eq!(
        length(
            &grid(&["..@..", "..@..", "..@.."]),
            Variant::Lazy,
            p(0, 0),
            p(4, 2)
        ),
        None
    );
    // A pocket sealed by diagonal contacts only: every wall cell touches the next one at a
    // corner, which no path may slip through.
    let g = Grid::from_fn(200, 200, |x, y| {
        let (dx, dy) = ((x as i32 - 100).abs(), (y as i32 - 100).abs());
        dx + dy != 3
    });
    let mut ctx = Theta::new();
    let mut out = Answer::default();
    for v in BOTH {
        assert_eq!(
            ctx.search(&g, v, p(0, 0), p(100, 100), &mut out),
            Ok(Status::Unreachable)
        );
        assert_eq!(
            ctx.search(&g, v, p(100, 100), p(0, 0), &mut out),
            Ok(Status::Unreachable)
        );
        assert!(out.stats.expanded < 100, "{:?}", out.stats);
        assert_eq!(
            ctx.search(&g, v, p(101, 100), p(99, 101), &mut out),
            Ok(Status::Found)
        );
        assert_eq!(
            ctx.search(&g, v, p(0, 0), p(199, 199), &mut out),
            Ok(Status::Found)
        );
        assert!(g.check_path(p(0, 0), p(199, 199), &out.waypoints).is_ok());
    }
}

#[test]
fn context_reuse_across_queries_variants_and_grid_sizes() {
    let big = Grid::from_fn(40, 30, |x, y| {
        (x * 7 + y * 13) % 11 != 0 && (x + y) % 9 != 4
    });
    let small = grid(&["...", ".@.", "..."]);
    let tall = Grid::from_fn(3, 61, |x, y| !(y % 4 == 2 && x != y % 3));
    let mut shared = Theta::new();
    let mut out = Answer::default();
    let mut fresh_out = Answer::default();
    for round in 0..3 {
        for g in [&big, &small, &tall, &small, &big] {
            for i in 0..25 {
                let s = p((i * 5) % g.width(), (i * 3) % g.height());
                let t = p((i * 11 + 3) % g.width(), (i * 7 + 1) % g.height());
                if g.check_query(s, t).is_err() {
                    continue;
                }
                for v in BOTH {
                    let a = shared.search(g, v, s, t, &mut out).unwrap();
                    let b = Theta::new().search(g, v, s, t, &mut fresh_out).unwrap();
                    assert_eq!(a, b, "round {round} {v:?} {s}->{t}");
                    assert_eq!(out, fresh_out, "round {round} {v:?} {s}->{t}");
                }
            }
        }
    }
}

#[test]
fn planner_adapters() {
    let g = grid(&["....", "@@.@", "...."]);
    for (v, name) in [(Variant::Theta, "theta"), (Variant::Lazy, "lazy-theta")] {
        let mut planner = ThetaPlanner::new(&g, v);
        assert_eq!(planner.name(), name);
        assert_eq!(planner.guarantee(), taut_grid::Guarantee::Any);
        assert_eq!(planner.path_model(), taut_grid::PathModel::AnyAngle);
        let mut out = Answer::default();
        assert_eq!(planner.plan(p(0, 0), p(0, 2), &mut out), Ok(Status::Found));
        assert!((out.length - (5f64.sqrt() + 3.0)).abs() < 1e-9);
        let s = out.stats;
        assert!(
            s.expanded > 0 && s.generated >= s.expanded && s.heap_ops > s.expanded,
            "{s:?}"
        );
    }
}
