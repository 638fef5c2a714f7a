//! A warm search context allocates nothing
//! (`docs/architecture.md#immutable-data-reusable-context`): the 130 queries of
//! `fixtures/maps/arena.map.scen` on the reference merged mesh of arena run once to warm a
//! [`SearchContext`] and a [`MeshAnswer`], then again (backwards) under a counting allocator,
//! which must see no allocation, for every option set.
//!
//! Its own test binary, because `allocation-counter` installs the global allocator (its
//! counts are per thread).

use taut_grid::Status;
use taut_mesh::{Ambiguity, MeshAnswer, read_mesh};
use taut_polyanya::{Options, SearchContext};
use taut_testdata::{fixture_queries, fixtures, mesh_queries};

#[test]
fn a_warm_context_allocates_nothing() {
    let mesh = read_mesh(&fixtures().join("meshes/arena-merged.mesh")).unwrap();
    let queries = mesh_queries(&fixture_queries("arena").1);
    for cul_de_sac in [false, true] {
        for intermediate in [false, true] {
            let o = Options {
                cul_de_sac,
                intermediate,
                ambiguity: Ambiguity::Towards(1.0, 1.0),
            };
            let mut ctx = SearchContext::new();
            let mut answer = MeshAnswer::default();
            let run = |ctx: &mut SearchContext,
                       answer: &mut MeshAnswer,
                       lengths: &mut [f64],
                       rev: bool| {
                let n = queries.len();
                for k in 0..n {
                    let i = if rev { n - 1 - k } else { k };
                    let (s, t) = queries[i];
                    let st = ctx.search(&mesh, s, t, &o, answer).unwrap();
                    assert_eq!(st, Status::Found);
                    lengths[i] = answer.length;
                }
            };
            let (mut first, mut second) = (vec![0.0; queries.len()], vec![0.0; queries.len()]);
            let warm =
                allocation_counter::measure(|| run(&mut ctx, &mut answer, &mut first, false));
            assert!(warm.count_total > 0, "the warm-up pass should allocate");
            let info =
                allocation_counter::measure(|| run(&mut ctx, &mut answer, &mut second, true));
            assert_eq!(first, second);
            assert_eq!(
                info.count_total, 0,
                "{o:?}: the second pass allocated {} times ({} bytes)",
                info.count_total, info.bytes_total
            );
        }
    }
}
