//! A warm search context allocates nothing
//! (`docs/architecture.md#immutable-data-reusable-context`): the 130 queries of
//! `fixtures/maps/arena.map.scen` run once to warm a [`SearchContext`] and an [`Answer`], then
//! again under a counting allocator, which must see no allocation at all, for every option
//! set (cul-de-sac and intermediate pruning on and off, flat and hashed root history).
//!
//! `allocation-counter` installs the global allocator of the whole `it` binary; its counts
//! are per thread, so the tests on the harness's other threads do not disturb them.

use crate::common::{all_options, arena};
use taut_anya::SearchContext;
use taut_grid::{Answer, Status};

#[test]
fn a_warm_context_allocates_nothing() {
    let (grid, queries) = arena();
    for o in all_options() {
        let mut ctx = SearchContext::new();
        let mut answer = Answer::default();
        // The second pass goes backwards, so no query follows the one it followed when warm.
        let run = |ctx: &mut SearchContext, answer: &mut Answer, lengths: &mut [f64], rev: bool| {
            let n = queries.len();
            for k in 0..n {
                let i = if rev { n - 1 - k } else { k };
                let (s, t) = queries[i];
                let st = ctx.search(&grid, s, t, &o, answer).unwrap();
                assert_eq!(st, Status::Found);
                lengths[i] = answer.length;
            }
        };
        let (mut first, mut second) = (vec![0.0; queries.len()], vec![0.0; queries.len()]);
        let warm = allocation_counter::measure(|| run(&mut ctx, &mut answer, &mut first, false));
        assert!(warm.count_total > 0, "the warm-up pass should allocate");
        let info = allocation_counter::measure(|| run(&mut ctx, &mut answer, &mut second, true));
        assert_eq!(first, second);
        assert_eq!(
            info.count_total, 0,
            "{o:?}: the second pass allocated {} times ({} bytes); warm-up: {} times",
            info.count_total, info.bytes_total, warm.count_total
        );
    }
}
