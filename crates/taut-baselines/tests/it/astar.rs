//! A* on tiny hand-drawn maps: exact lengths, errors, unreachable goals, context reuse.

use std::f64::consts::SQRT_2;

use taut_baselines::astar::{AStar, AStarPlanner};
use taut_grid::{Answer, Grid, Planner, Point, Status};

fn p(x: i32, y: i32) -> Point {
    Point::new(x, y)
}

fn grid(rows: &[&str]) -> Grid {
    Grid::from_ascii(rows).unwrap()
}

/// Independent check of an A* answer: waypoints joined by straight or diagonal runs over free
/// cells without corner cutting, no two consecutive runs in the same direction, and a length
/// equal to the octile length of the runs.
fn check_octile(g: &Grid, start: Point, goal: Point, out: &Answer) {
    let w = &out.waypoints;
    assert_eq!(w.first(), Some(&start));
    assert_eq!(w.last(), Some(&goal));
    let mut len = 0.0;
    let mut prev_dir = None;
    for seg in w.windows(2) {
        let (dx, dy) = (seg[1].x - seg[0].x, seg[1].y - seg[0].y);
        assert!(
            dx == 0 || dy == 0 || dx.abs() == dy.abs(),
            "{seg:?} is not a run"
        );
        let n = dx.abs().max(dy.abs());
        assert!(n > 0);
        let d = (dx.signum(), dy.signum());
        assert_ne!(prev_dir, Some(d), "collinear runs not merged at {}", seg[0]);
        prev_dir = Some(d);
        let mut c = seg[0];
        for _ in 0..n {
            let next = p(c.x + d.0, c.y + d.1);
            assert!(g.is_free(next.x, next.y), "cell {next} blocked");
            if d.0 != 0 && d.1 != 0 {
                assert!(
                    g.is_free(c.x + d.0, c.y) && g.is_free(c.x, c.y + d.1),
                    "corner cut at {c}"
                );
            }
            c = next;
        }
        len += if d.0 != 0 && d.1 != 0 {
            f64::from(n) * SQRT_2
        } else {
            f64::from(n)
        };
    }
    assert!(
        (len - out.length).abs() < 1e-9,
        "length {} vs runs {len}",
        out.length
    );
}

fn length(g: &Grid, s: Point, t: Point) -> Option<f64> {
    let mut out = Answer::default();
    match AStar::new().search(g, s, t, &mut out).unwrap() {
        Status::Found => {
            check_octile(g, s, t, &out);
            Some(out.length)
        }
        Status::Unreachable => {
            assert!(out.waypoints.is_empty() && out.length == f64::INFINITY);
            None
        }
    }
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn open_map_is_octile_distance() {
    let g = grid(&[".....", ".....", "....."]);
    assert!(close(length(&g, p(0, 0), p(4, 2)), 2.0 + 2.0 * SQRT_2));
    assert!(close(length(&g, p(4, 0), p(0, 0)), 4.0));
    assert!(close(length(&g, p(0, 2), p(2, 0)), 2.0 * SQRT_2));
    let mut out = Answer::default();
    AStar::new().search(&g, p(0, 0), p(4, 0), &mut out).unwrap();
    assert_eq!(out.waypoints, [p(0, 0), p(4, 0)]); // one merged run
}

#[test]
fn no_corner_cutting() {
    assert!(close(
        length(&grid(&["..", ".."]), p(0, 0), p(1, 1)),
        SQRT_2
    ));
    assert!(close(length(&grid(&[".@", ".."]), p(0, 0), p(1, 1)), 2.0));
    assert!(close(length(&grid(&["..", "@."]), p(0, 0), p(1, 1)), 2.0));
    // Around the centre block: no diagonal is possible next to it.
    assert!(close(
        length(&grid(&["...", ".@.", "..."]), p(0, 0), p(2, 2)),
        4.0
    ));
    // The crate example: the two blocked cells forbid every diagonal, so 5 straight steps.
    assert!(close(
        length(&grid(&["....", ".@@.", "...."]), p(0, 0), p(3, 2)),
        5.0
    ));
}

#[test]
fn through_a_gap() {
    let g = grid(&[".....", "@@@.@", "....."]);
    // (0,0) -> (3,0) -> (3,2) -> (4,2): 3 + 2 + 1; the diagonals past the gap would cut corners.
    assert!(close(length(&g, p(0, 0), p(4, 2)), 6.0));
    // (0,0) -> (3,0) -> (3,2) -> (0,2).
    assert!(close(length(&g, p(0, 0), p(0, 2)), 8.0));
    // A diagonal is possible once the gap is left behind.
    let g = grid(&[".....", "@@@.@", ".....", "....."]);
    assert!(close(
        length(&g, p(4, 0), p(1, 3)),
        1.0 + 2.0 + SQRT_2 + 1.0
    ));
}

#[test]
fn start_equals_goal() {
    let g = grid(&["...", "..."]);
    let mut out = Answer::default();
    let st = AStar::new().search(&g, p(1, 1), p(1, 1), &mut out).unwrap();
    assert_eq!(st, Status::Found);
    assert_eq!(out.waypoints, [p(1, 1)]);
    assert_eq!(out.length, 0.0);
}

#[test]
fn unreachable_goals() {
    // A wall splits the map.
    assert_eq!(
        length(&grid(&["..@..", "..@..", "..@.."]), p(0, 0), p(4, 2)),
        None
    );
    // Cells touching only diagonally are not connected.
    assert_eq!(length(&grid(&[".@", "@."]), p(0, 0), p(1, 1)), None);
    // A walled-off pocket inside a large open map: the search ends after exhausting the
    // start's side (bounded time), and the context still works afterwards.
    let g = Grid::from_fn(300, 300, |x, y| {
        !((x == 150 || x == 152) && (149..=151).contains(&y)
            || (y == 149 || y == 151) && (150..=152).contains(&x))
    });
    let mut ctx = AStar::new();
    let mut out = Answer::default();
    assert_eq!(
        ctx.search(&g, p(0, 0), p(151, 150), &mut out),
        Ok(Status::Unreachable)
    );
    assert_eq!(out.stats.expanded, g.free_cells() - 1);
    assert_eq!(
        ctx.search(&g, p(0, 0), p(299, 9), &mut out),
        Ok(Status::Found)
    );
    assert!((out.length - (290.0 + 9.0 * SQRT_2)).abs() < 1e-9);
}

#[test]
fn context_reuse_across_queries_and_grid_sizes() {
    let big = Grid::from_fn(40, 30, |x, y| (x * 7 + y * 13) % 11 != 0);
    let small = grid(&["...", ".@.", "..."]);
    let wide = Grid::from_fn(97, 3, |x, y| !(x % 4 == 2 && y != x % 3));
    let mut shared = AStar::new();
    let mut out = Answer::default();
    let mut fresh_out = Answer::default();
    let queries = |g: &Grid| {
        let mut q = Vec::new();
        for i in 0..25 {
            let s = p((i * 5) % g.width(), (i * 3) % g.height());
            let t = p((i * 11 + 3) % g.width(), (i * 7 + 1) % g.height());
            if g.check_query(s, t).is_ok() {
                q.push((s, t));
            }
        }
        q
    };
    for round in 0..3 {
        for g in [&big, &small, &wide, &small, &big] {
            for (s, t) in queries(g) {
                let a = shared.search(g, s, t, &mut out).unwrap();
                let b = AStar::new().search(g, s, t, &mut fresh_out).unwrap();
                assert_eq!(a, b, "round {round} {s}->{t}");
                assert_eq!(out, fresh_out, "round {round} {s}->{t}");
            }
        }
    }
}

#[test]
fn statistics_and_planner_adapter() {
    let g = grid(&[".....", "@@@.@", "....."]);
    let mut planner = AStarPlanner::new(&g);
    assert_eq!(planner.name(), "astar");
    assert_eq!(planner.guarantee(), taut_grid::Guarantee::Optimal);
    assert_eq!(planner.path_model(), taut_grid::PathModel::Octile);
    let mut out = Answer::default();
    assert_eq!(planner.plan(p(0, 0), p(0, 2), &mut out), Ok(Status::Found));
    assert!((out.length - 8.0).abs() < 1e-9);
    let s = out.stats;
    // Every free cell but the goal is expanded before the goal is popped here.
    assert!(s.expanded >= 8 && s.expanded <= 10, "{s:?}");
    assert!(s.generated >= s.expanded);
    assert!(s.heap_ops > s.expanded);
}
