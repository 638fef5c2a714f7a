//! A warm End Point Search context allocates nothing per query
//! (`docs/architecture.md#immutable-data-reusable-context`): the queries
//! of `fixtures/maps/arena.map.scen` run once to warm an [`EpsContext`] and a
//! [`MeshAnswer`], then again (backwards) under a counting allocator, which must see no
//! allocation — for the optimal, first-solution and bounded stop rules, and for the anytime
//! iterator with `best_path`.
//!
//! In the `alloc` test binary, not `it`, because `allocation-counter` installs the global
//! allocator (its counts are per thread).

use crate::common::arena_eps;
use taut_cpd::{EpsContext, Stop};
use taut_mesh::{Ambiguity, MeshAnswer};

#[test]
fn a_warm_context_allocates_nothing() {
    let (eps, queries) = arena_eps();
    let towards = Ambiguity::Towards(1.0, 1.0);
    for stop in [Stop::Optimal, Stop::First, Stop::Within(1.05)] {
        let mut ctx = EpsContext::new();
        let mut answer = MeshAnswer::default();
        let mut path = Vec::new();
        let mut run =
            |ctx: &mut EpsContext, answer: &mut MeshAnswer, out: &mut [f64], rev: bool| {
                let n = queries.len();
                for k in 0..n {
                    let i = if rev { n - 1 - k } else { k };
                    let (s, t) = queries[i];
                    ctx.search(&eps, s, t, stop, towards, answer).unwrap();
                    out[i] = answer.length;
                    ctx.start(&eps, s, t, towards).unwrap();
                    while ctx.next_solution(&eps).is_some() {
                        ctx.best_path(&eps, &mut path);
                    }
                }
            };
        let (mut first, mut second) = (vec![0.0; queries.len()], vec![0.0; queries.len()]);
        let warm = allocation_counter::measure(|| run(&mut ctx, &mut answer, &mut first, false));
        assert!(warm.count_total > 0, "the warm-up pass should allocate");
        let info = allocation_counter::measure(|| run(&mut ctx, &mut answer, &mut second, true));
        assert_eq!(first, second);
        assert_eq!(
            info.count_total, 0,
            "{stop:?}: the second pass allocated {} times ({} bytes)",
            info.count_total, info.bytes_total
        );
    }
}
