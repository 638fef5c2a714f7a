//! A warm hub planner allocates nothing per query
//! (`docs/architecture.md#immutable-data-reusable-context`): the queries of
//! `fixtures/maps/arena.map.scen` run once to warm a [`HubPlanner`] and an [`Answer`], then
//! again (backwards) under a counting allocator, which must see no allocation; with point
//! labels and with labels shared by regions of 4 × 4 cells.
//!
//! Its own test binary, because `allocation-counter` installs the global allocator (its
//! counts are per thread).

use std::sync::Arc;

use taut_grid::{Answer, Planner};
use taut_hub::{HubIndex, HubPlanner};
use taut_testdata::fixture_queries;

#[test]
fn a_warm_planner_allocates_nothing() {
    let (grid, queries) = fixture_queries("arena");
    let mesh = taut_mesh::mesh_from_grid(&grid).unwrap();
    for side in [1, 4] {
        let index = Arc::new(HubIndex::build_with_regions(&grid, &mesh, side).unwrap());
        let mut planner = HubPlanner::new(&grid, index).unwrap();
        let mut answer = Answer::default();
        let run = |planner: &mut HubPlanner<&taut_grid::Grid>,
                   answer: &mut Answer,
                   out: &mut [f64],
                   rev: bool| {
            let n = queries.len();
            for k in 0..n {
                let i = if rev { n - 1 - k } else { k };
                let (s, t) = queries[i];
                planner.plan(s, t, answer).unwrap();
                out[i] = answer.length;
            }
        };
        let (mut first, mut second) = (vec![0.0; queries.len()], vec![0.0; queries.len()]);
        let warm =
            allocation_counter::measure(|| run(&mut planner, &mut answer, &mut first, false));
        assert!(warm.count_total > 0, "the warm-up pass should allocate");
        let info =
            allocation_counter::measure(|| run(&mut planner, &mut answer, &mut second, true));
        assert_eq!(first, second);
        assert_eq!(
            info.count_total, 0,
            "regions of {side}: the second pass allocated {} times ({} bytes)",
            info.count_total, info.bytes_total
        );
    }
}
