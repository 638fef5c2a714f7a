//! A warm search context allocates nothing
//! (`docs/architecture.md#immutable-data-reusable-context`). Queries that turn at the wall's
//! corners, follow the 60°N parallel, cross the antimeridian and turn at the South Pole warm a
//! [`SearchContext`] and a [`Route`], then run again, in reverse order, under a counting
//! allocator, which must see no allocation at all.
//!
//! This file is its own test binary because `allocation-counter` installs the global
//! allocator; its counts are per thread, so the test harness's other threads do not disturb
//! them.

use taut_spherical::{LatLon, Route, SearchContext, SearchOutcome, SphereGrid};

#[test]
fn a_warm_context_allocates_nothing() {
    // 10° cells: a cap of land north of 60°N, and a wall along 0–10°E from 60°N to 60°S.
    let grid = SphereGrid::from_fn(36, 18, |r, c| !(r < 3 || (r < 15 && c == 18))).unwrap();
    let queries = [
        (LatLon::new(55.0, 0.0), LatLon::new(55.0, 90.0)),
        (LatLon::new(-5.0, -20.0), LatLon::new(5.0, 30.0)),
        (LatLon::new(30.0, 170.0), LatLon::new(-40.0, -150.0)),
        (LatLon::new(-75.0, -30.0), LatLon::new(-75.0, 150.0)),
        (LatLon::new(50.0, -5.0), LatLon::new(50.0, 25.0)),
        (LatLon::new(55.0, 20.0), LatLon::new(55.0, 170.0)),
    ];
    let mut ctx = SearchContext::new();
    let mut route = Route::default();
    let run = |ctx: &mut SearchContext, route: &mut Route, lengths: &mut [f64], rev: bool| {
        let n = queries.len();
        for k in 0..n {
            let i = if rev { n - 1 - k } else { k };
            let (a, b) = queries[i];
            assert_eq!(
                ctx.search(&grid, a, b, route).unwrap(),
                SearchOutcome::Found
            );
            lengths[i] = route.radians;
        }
    };
    let (mut first, mut second) = ([0.0; 6], [0.0; 6]);
    let warm = allocation_counter::measure(|| run(&mut ctx, &mut route, &mut first, false));
    assert!(warm.count_total > 0, "the warm-up pass should allocate");
    let info = allocation_counter::measure(|| run(&mut ctx, &mut route, &mut second, true));
    assert_eq!(first, second);
    assert_eq!(
        info.count_total, 0,
        "the second pass allocated {} times ({} bytes); warm-up: {} times",
        info.count_total, info.bytes_total, warm.count_total
    );
}
