//! A warm planner allocates nothing per step: for every planner of the facade's table that
//! steps, the queries of `fixtures/maps/arena.map.scen` and of a generated map of rooms run
//! once in slices to warm the planner and an [`Answer`], then again (backwards, in slices of
//! another size) under a counting allocator, which must see no allocation in `begin`, `step`
//! or `answer`; and the answers of both passes are the same.
//!
//! Its own test binary, because `allocation-counter` installs the global allocator (its
//! counts are per thread).

use taut::grid::{Answer, Point, Step};
use taut::registry::{PLANNERS, PlannerSpec};
use taut::{BoxedPlanner, Map};
use taut_hardening::maps::{Family, generate, queries};
use taut_testdata::fixture_queries;

fn run(
    p: &mut BoxedPlanner,
    answer: &mut Answer,
    qs: &[(Point, Point)],
    budget: u64,
    rev: bool,
    out: &mut [u64],
) {
    let n = qs.len();
    let s = p.stepper().expect("steps");
    for k in 0..n {
        let i = if rev { n - 1 - k } else { k };
        let (a, b) = qs[i];
        if s.begin(a, b).is_err() {
            out[i] = u64::MAX;
            continue;
        }
        while s.step(budget) == Step::Pending {}
        s.answer(answer);
        out[i] = answer.length.to_bits();
    }
}

#[test]
fn a_warm_planner_allocates_nothing_per_step() {
    let (arena, arena_qs) = fixture_queries("arena");
    let rooms = generate(Family::Rooms, 90, 70, 21);
    let rooms_qs = queries(&rooms, 120, 21);
    let mut planners = 0;
    for (grid, qs) in [(arena, arena_qs), (rooms, rooms_qs)] {
        let map = Map::new(grid);
        for kind in PLANNERS.iter().filter(|k| k.needs.is_online()) {
            let spec: PlannerSpec = kind.name.parse().unwrap();
            let mut p = map.planner(&spec).unwrap();
            if p.stepper().is_none() {
                continue;
            }
            let (mut first, mut second) = (vec![0; qs.len()], vec![0; qs.len()]);
            let mut a = Answer::default();
            let warm =
                allocation_counter::measure(|| run(&mut p, &mut a, &qs, 7, false, &mut first));
            let info =
                allocation_counter::measure(|| run(&mut p, &mut a, &qs, 3, true, &mut second));
            assert_eq!(first, second, "{}", kind.name);
            assert_eq!(
                info.count_total, 0,
                "{}: the warm pass allocated {} times ({} bytes); the first pass {} times",
                kind.name, info.count_total, info.bytes_total, warm.count_total
            );
            planners += 1;
        }
    }
    assert!(planners >= 14, "{planners}");
}
