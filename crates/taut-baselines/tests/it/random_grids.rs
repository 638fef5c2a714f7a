//! Property tests on random grids (up to 24×24, random obstacle densities):
//! (a) A*'s length equals that of a deliberately simple Dijkstra over cells written here, and
//!     its path is legal and measures that length,
//! (b) every Theta* and Lazy Theta* path passes the grid's legality checker and its length is
//!     the polyline length of its waypoints,
//! (c) A*, Theta* and Lazy Theta* agree on reachability.

use std::f64::consts::SQRT_2;

use proptest::prelude::*;
use taut_baselines::astar::AStar;
use taut_baselines::theta::{Theta, Variant};
use taut_grid::{Answer, Grid, Point, Status};
use taut_testdata::{Tolerances, check_answer_within, query_picks, random_grid};

/// Octile shortest-path length from cell `s` to cell `t` by plain Dijkstra with a linear scan
/// for the minimum (no heap, no heuristic): 8 moves, a diagonal only when both cells it
/// passes are free. `None` when unreachable.
fn dijkstra(g: &Grid, s: Point, t: Point) -> Option<f64> {
    let (w, h) = (g.width(), g.height());
    let idx = |x: i32, y: i32| (y * w + x) as usize;
    let mut dist = vec![f64::INFINITY; (w * h) as usize];
    let mut done = vec![false; (w * h) as usize];
    dist[idx(s.x, s.y)] = 0.0;
    loop {
        let mut best = None;
        for i in 0..dist.len() {
            if !done[i] && dist[i].is_finite() && best.is_none_or(|b: usize| dist[i] < dist[b]) {
                best = Some(i);
            }
        }
        let u = best?;
        done[u] = true;
        let (x, y) = ((u as i32) % w, (u as i32) / w);
        if (x, y) == (t.x, t.y) {
            return Some(dist[u]);
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (nx, ny) = (x + dx, y + dy);
                if (dx, dy) == (0, 0) || !g.is_free(nx, ny) {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal && !(g.is_free(x + dx, y) && g.is_free(x, y + dy)) {
                    continue;
                }
                let d = dist[u] + if diagonal { SQRT_2 } else { 1.0 };
                if d < dist[idx(nx, ny)] {
                    dist[idx(nx, ny)] = d;
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn planners_agree_on_random_grids(
        g in random_grid(24),
        queries in query_picks(1..8),
    ) {
        prop_assume!(g.free_cells() > 0);
        let mut astar = AStar::new();
        let mut theta = Theta::new();
        let mut out = Answer::default();
        for (s, t) in queries.on(&g) {
            // (a) A* against the simple Dijkstra.
            let st = astar.search(&g, s, t, &mut out).unwrap();
            let want = dijkstra(&g, s, t);
            match (st, want) {
                (Status::Found, Some(d)) => {
                    // From s to t, legal, measuring its length, and Dijkstra's (to 1e-9).
                    let strict = Tolerances::both(1e-9);
                    if let Err(e) = check_answer_within(&g, s, t, &out, Some(d), strict) {
                        prop_assert!(false, "A* {e}");
                    }
                }
                (Status::Unreachable, None) => {
                    prop_assert!(out.waypoints.is_empty() && out.length == f64::INFINITY);
                }
                _ => prop_assert!(false, "A* {st:?} vs Dijkstra {want:?} for {s}->{t}"),
            }
            let reachable = want.is_some();
            for v in [Variant::Theta, Variant::Lazy] {
                let st = theta.search(&g, v, s, t, &mut out).unwrap();
                // (c) the same reachability as A*.
                prop_assert_eq!(
                    st == Status::Found, reachable, "{:?} {:?} for {}->{}", v, st, s, t
                );
                if st == Status::Found {
                    // (b) legal paths with honest lengths (exactly their polyline length).
                    let exact = Tolerances::both(0.0);
                    if let Err(e) = check_answer_within(&g, s, t, &out, None, exact) {
                        prop_assert!(false, "{v:?} {e}");
                    }
                    // An any-angle path is never shorter than the straight line.
                    prop_assert!(out.length >= s.dist(t) - 1e-9);
                } else {
                    prop_assert!(out.waypoints.is_empty() && out.length == f64::INFINITY);
                }
            }
        }
    }
}
