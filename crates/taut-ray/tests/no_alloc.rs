//! A warm search context allocates nothing (`docs/ray.md`, Invariants): the 130 queries of
//! `fixtures/maps/arena.map.scen` run once to warm a [`SearchContext`] and an [`Answer`], then
//! again (backwards) under a counting allocator, which must see no allocation.
//!
//! Its own test binary, because `allocation-counter` installs the global allocator (its
//! counts are per thread).

use taut_grid::{Answer, Status};
use taut_ray::{RayIndex, SearchContext};
use taut_testdata::fixture_queries;

#[test]
fn a_warm_context_allocates_nothing() {
    let (grid, queries) = fixture_queries("arena");
    let index = RayIndex::new(&grid);
    let mut ctx = SearchContext::new();
    let mut answer = Answer::default();
    let mut run = |ctx: &mut SearchContext, lengths: &mut [f64], rev: bool| {
        let n = queries.len();
        for k in 0..n {
            let i = if rev { n - 1 - k } else { k };
            let (s, t) = queries[i];
            let st = ctx.search(&grid, &index, s, t, &mut answer).unwrap();
            assert_eq!(st, Status::Found);
            lengths[i] = answer.length;
        }
    };
    let (mut first, mut second) = (vec![0.0; queries.len()], vec![0.0; queries.len()]);
    let warm = allocation_counter::measure(|| run(&mut ctx, &mut first, false));
    assert!(warm.count_total > 0, "the warm-up pass should allocate");
    let info = allocation_counter::measure(|| run(&mut ctx, &mut second, true));
    assert_eq!(first, second);
    assert_eq!(
        info.count_total, 0,
        "the second pass allocated {} times ({} bytes)",
        info.count_total, info.bytes_total
    );
}
