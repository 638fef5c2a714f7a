//! The search against the brute-force reference of `common::brute_force` on small random
//! sphere grids (width 8–24, height 6–12, 0–35 % blocked, start and goal anywhere inside free
//! cells), and the brute force itself against known answers.
//!
//! For every case: the search and the brute force agree on reachability; a found route passes
//! the legality checker, is never shorter than the great-circle distance (− 1e-9 rad) and never
//! longer than the brute-force route (+ 1e-9 rad), which is legal and so an upper bound on the
//! optimum. 64 cases by default (a few seconds at the test profile's opt-level 1); set
//! `PROPTEST_CASES` to run more.

use crate::common::{brute_force, cases, connected, random_query, show};
use proptest::prelude::*;
use taut_spherical::check::check_route;
use taut_spherical::{LatLon, Route, SearchContext, SearchOutcome, SphereGrid};

/// Slack on both bounds, radians.
const TOL: f64 = 1e-9;

/// Obstacle edges are sampled every `1/STEP_DIV` of a column: the finer, the tighter the
/// upper bound and the slower the brute force (its graph grows with the square).
const STEP_DIV: f64 = 8.0;

fn step(g: &SphereGrid) -> f64 {
    360.0 / f64::from(g.width()) / STEP_DIV
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn search_agrees_with_brute_force(q in random_query()) {
        let mut ctx = SearchContext::new();
        let mut route = Route::default();
        let outcome = ctx.search(&q.grid, q.from, q.to, &mut route);
        let brute = brute_force(&q.grid, q.from, q.to, step(&q.grid));
        let ctx_msg = || format!("{:?} -> {:?} on\n{}", q.from, q.to, show(&q.grid));
        let outcome = match outcome {
            Ok(o) => o,
            Err(e) => return Err(TestCaseError::fail(format!("search error {e} for {}", ctx_msg()))),
        };
        prop_assert_eq!(
            brute.is_some(),
            connected(&q.grid, q.from, q.to),
            "brute force against cell connectivity for {}", ctx_msg()
        );
        match (outcome, &brute) {
            (SearchOutcome::Found, Some(b)) => {
                if let Err(v) = check_route(&q.grid, &route, q.from, q.to) {
                    prop_assert!(false, "illegal route ({v}): {route:?} for {}", ctx_msg());
                }
                let gc = q.from.distance_rad(q.to);
                prop_assert!(
                    route.radians >= gc - TOL,
                    "route {} shorter than the great circle {gc} for {}", route.radians, ctx_msg()
                );
                prop_assert!(
                    route.radians <= b.radians + TOL,
                    "route {} longer than the brute force {} ({:?}) for {}",
                    route.radians, b.radians, b, ctx_msg()
                );
            }
            (SearchOutcome::Unreachable, None) => {}
            (o, b) => prop_assert!(false, "search {o:?}, brute force {b:?} for {}", ctx_msg()),
        }
    }
}

/// The brute force's own routes are legal and its reachability is cell connectivity on random
/// grids (16 by default; `BRUTE_CASES` runs more).
#[test]
fn brute_force_routes_are_legal() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = random_query();
    let n = std::env::var("BRUTE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16);
    for _ in 0..n {
        let q = strategy.new_tree(&mut runner).unwrap().current();
        let brute = brute_force(&q.grid, q.from, q.to, step(&q.grid));
        assert_eq!(
            brute.is_some(),
            connected(&q.grid, q.from, q.to),
            "{:?} -> {:?} on\n{}",
            q.from,
            q.to,
            show(&q.grid)
        );
        if let Some(r) = brute {
            check_route(&q.grid, &r, q.from, q.to).unwrap();
            assert!(r.radians >= q.from.distance_rad(q.to) - 1e-12);
            assert_eq!(r.radians, r.legs_radians());
        }
    }
}

#[test]
fn brute_force_on_an_empty_sphere_is_the_great_circle() {
    let g = SphereGrid::from_fn(12, 6, |_, _| true).unwrap();
    let (a, b) = (LatLon::new(40.0, -74.0), LatLon::new(57.0, 12.0));
    let r = brute_force(&g, a, b, 5.0).unwrap();
    assert_eq!(r.legs.len(), 1);
    assert!((r.radians - 0.9664908581168271).abs() < 1e-12);
}

#[test]
fn brute_force_converges_on_the_polar_cap() {
    // 10° cells, everything north of 60N blocked: analytic_cases.json's cap60_blocked_endpoints_55N,
    // whose file also gives the same graph's optimum with 1° samples.
    let g = SphereGrid::from_fn(36, 18, |r, _| r >= 3).unwrap();
    let (a, b) = (LatLon::new(55.0, 0.0), LatLon::new(55.0, 90.0));
    let exact = 0.8450236240639002;
    let r1 = brute_force(&g, a, b, 1.0).unwrap();
    check_route(&g, &r1, a, b).unwrap();
    assert!(r1.radians >= exact - 1e-12, "{}", r1.radians);
    assert!(
        (r1.radians - 0.8450236884550608).abs() < 1e-12,
        "{}",
        r1.radians
    );
    let r5 = brute_force(&g, a, b, 5.0).unwrap();
    assert!(r5.radians >= r1.radians - 1e-12);
    assert!(r5.radians - exact < 1e-4, "{}", r5.radians);
}

#[test]
fn unreachable_goals_are_unreachable_for_both() {
    // A blocked band around the equator separates the hemispheres.
    let g = SphereGrid::from_fn(16, 8, |r, _| r != 3 && r != 4).unwrap();
    let (a, b) = (LatLon::new(50.0, 10.0), LatLon::new(-50.0, 10.0));
    assert!(brute_force(&g, a, b, 5.0).is_none());
    let mut route = Route::default();
    let outcome = SearchContext::new().search(&g, a, b, &mut route).unwrap();
    assert_eq!(outcome, SearchOutcome::Unreachable);
    // A double corner does not let a route through: the band broken by two cells that touch
    // diagonally only.
    let g = SphereGrid::from_fn(16, 8, |r, c| match r {
        3 => c == 5,
        4 => c == 6,
        _ => true,
    })
    .unwrap();
    assert!(brute_force(&g, a, b, 5.0).is_none());
    let outcome = SearchContext::new().search(&g, a, b, &mut route).unwrap();
    assert_eq!(outcome, SearchOutcome::Unreachable);
    // One more free cell makes a 4-connected passage.
    let g = SphereGrid::from_fn(16, 8, |r, c| match r {
        3 => c == 5 || c == 6,
        4 => c == 6,
        _ => true,
    })
    .unwrap();
    let r = brute_force(&g, a, b, 5.0).unwrap();
    check_route(&g, &r, a, b).unwrap();
    let outcome = SearchContext::new().search(&g, a, b, &mut route).unwrap();
    assert_eq!(outcome, SearchOutcome::Found);
    assert!(route.radians <= r.radians + TOL);
}
