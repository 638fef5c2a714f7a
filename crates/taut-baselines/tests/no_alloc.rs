//! Warm search contexts allocate nothing
//! (`docs/architecture.md#immutable-data-reusable-context`): for A*, Theta*, Lazy Theta* and the
//! visibility graph, the 130 queries of `fixtures/maps/arena.map.scen` run once to warm the
//! planner and an [`Answer`], then again, in reverse order, under a counting allocator, which must see no
//! allocation at all. (The visibility graph fills its corner-adjacency cache during the
//! warm-up; a second pass over the same queries only reads it.)
//!
//! This file is its own test binary because `allocation-counter` installs the global
//! allocator; its counts are per thread, so the test harness's other threads do not disturb
//! them.

#[path = "it/common/mod.rs"]
mod common;

use common::arena;
use taut_baselines::astar::AStarPlanner;
use taut_baselines::theta::{ThetaPlanner, Variant};
use taut_baselines::vg::VgPlanner;
use taut_grid::{Answer, Planner, Point, Status};

/// Runs every query twice through `planner` and asserts that the second pass allocates
/// nothing and gives the same lengths.
fn second_pass_allocates_nothing(planner: &mut dyn Planner, queries: &[(Point, Point)]) {
    let mut answer = Answer::default();
    // The second pass goes backwards, so no query follows the one it followed when warm.
    let run = |planner: &mut dyn Planner, answer: &mut Answer, lengths: &mut [f64], rev: bool| {
        let n = queries.len();
        for k in 0..n {
            let i = if rev { n - 1 - k } else { k };
            let (s, t) = queries[i];
            let st = planner.plan(s, t, answer).unwrap();
            assert_eq!(st, Status::Found);
            lengths[i] = answer.length;
        }
    };
    let (mut first, mut second) = (vec![0.0; queries.len()], vec![0.0; queries.len()]);
    let warm = allocation_counter::measure(|| run(planner, &mut answer, &mut first, false));
    assert!(warm.count_total > 0, "the warm-up pass should allocate");
    let info = allocation_counter::measure(|| run(planner, &mut answer, &mut second, true));
    assert_eq!(first, second);
    assert_eq!(
        info.count_total,
        0,
        "{}: the second pass allocated {} times ({} bytes); warm-up: {} times",
        planner.name(),
        info.count_total,
        info.bytes_total,
        warm.count_total
    );
}

#[test]
fn astar() {
    let (grid, queries) = arena();
    second_pass_allocates_nothing(&mut AStarPlanner::new(&grid), &queries);
}

#[test]
fn theta() {
    let (grid, queries) = arena();
    second_pass_allocates_nothing(&mut ThetaPlanner::new(&grid, Variant::Theta), &queries);
}

#[test]
fn lazy_theta() {
    let (grid, queries) = arena();
    second_pass_allocates_nothing(&mut ThetaPlanner::new(&grid, Variant::Lazy), &queries);
}

#[test]
fn visibility_graph() {
    let (grid, queries) = arena();
    second_pass_allocates_nothing(&mut VgPlanner::new(&grid), &queries);
}
