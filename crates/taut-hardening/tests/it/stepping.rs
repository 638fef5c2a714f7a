//! Time-sliced and bounded queries: every planner of the table that searches (everything but the
//! look-ups of hub labels and End Point Search's database) answers a query run in slices of any
//! budget exactly as in one go (status, length bit for bit, waypoints, statistics), and a limit
//! stops it with the work done, never a different answer.
//!
//! The planners come from the facade's table ([`taut::registry::PLANNERS`]): a planner added to
//! it is tested here without an edit, and one that searches without a stepper fails
//! `every_searching_planner_is_a_stepper`.

use std::time::Duration;

use proptest::prelude::*;
use taut::grid::{Answer, Grid, Limit, LimitKind, PlanError, Point, Status, Step};
use taut::registry::{Needs, PLANNERS, PlannerSpec};
use taut::{BoxedPlanner, Map};
use taut_hardening::maps::{Family, SplitMix, generate, queries};

/// The table's planners that search the grid or a mesh of it (`auto` is one of them).
fn searching_planners(map: &Map) -> Vec<(&'static str, BoxedPlanner)> {
    PLANNERS
        .iter()
        .filter(|k| k.needs.is_online())
        .filter_map(|k| {
            let spec: PlannerSpec = k.name.parse().expect("a table name parses");
            match map.planner(&spec) {
                Ok(p) => Some((k.name, p)),
                // A map with no free cell has no mesh: nothing to search there.
                Err(_) if k.needs == Needs::Mesh && map.grid().free_cells() == 0 => None,
                Err(e) => panic!("{}: {e}", k.name),
            }
        })
        .collect()
}

/// One query run in slices whose budgets `budgets` draws: the status and the answer.
fn stepped(
    p: &mut BoxedPlanner,
    (s, t): (Point, Point),
    budgets: &mut impl FnMut() -> u64,
    out: &mut Answer,
) -> Option<Status> {
    let stepper = p.stepper().expect("a searching planner steps");
    if stepper.begin(s, t).is_err() {
        return None;
    }
    let mut slices = 0u64;
    let status = loop {
        let before = stepper.stats().expanded;
        let budget = budgets();
        match stepper.step(budget) {
            Step::Pending => {
                let spent = stepper.stats().expanded - before;
                assert!(
                    spent <= budget,
                    "a step of budget {budget} expanded {spent}"
                );
                // A pending search says so with no path and the work so far.
                stepper.answer(out);
                assert!(out.waypoints.is_empty() && out.length.is_infinite());
                assert_eq!(out.stats.expanded, stepper.stats().expanded);
            }
            Step::Done(status) => break status,
        }
        slices += 1;
        assert!(slices < 10_000_000, "no end in sight");
    };
    // Once ended, it stays ended.
    assert_eq!(stepper.step(5), Step::Done(status));
    stepper.answer(out);
    Some(status)
}

/// Checks every query of `grid` with every searching planner: stepped = one shot.
fn check_grid(grid: Grid, seed: u64, count: usize) -> Result<usize, String> {
    let map = Map::new(grid);
    let qs = queries(map.grid(), count, seed);
    let mut rng = SplitMix::new(seed ^ 0xb0d9e7);
    let (mut a, mut b) = (Answer::default(), Answer::default());
    let mut checked = 0;
    for (name, mut p) in searching_planners(&map) {
        for &(s, t) in &qs {
            let once = p.plan(s, t, &mut a);
            let mut budgets = || 1 + rng.below(100);
            let sliced = stepped(&mut p, (s, t), &mut budgets, &mut b);
            match (once, sliced) {
                (Err(_), None) => {}
                (Ok(st), Some(st2)) => {
                    if st != st2 || a != b || a.length.to_bits() != b.length.to_bits() {
                        return Err(format!(
                            "{name} {s}->{t}: one shot {st:?} {a:?}, stepped {st2:?} {b:?}\n{}",
                            map.grid().to_ascii()
                        ));
                    }
                    checked += 1;
                }
                (x, y) => {
                    return Err(format!(
                        "{name} {s}->{t}: one shot {x:?}, stepped {y:?} (begin refused?)"
                    ));
                }
            }
        }
    }
    Ok(checked)
}

#[test]
fn stepped_queries_equal_one_shot_queries_on_every_family() {
    let mut checked = 0;
    for (i, family) in Family::ALL.into_iter().enumerate() {
        for seed in 0..6u64 {
            let seed = seed * 8 + i as u64;
            let grid = generate(family, 14 + (seed % 9) as u32, 10 + (seed % 7) as u32, seed);
            checked += check_grid(grid, seed, 24).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    // Six searching planners or more, on most of 48 maps' 24 queries.
    assert!(checked > 3_000, "only {checked} answers compared");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn stepped_queries_equal_one_shot_queries(
        w in 2u32..18, h in 2u32..14,
        cells in proptest::collection::vec(proptest::bool::weighted(0.3), 18 * 14),
        seed in any::<u64>(),
    ) {
        let grid = Grid::from_fn(w, h, |x, y| !cells[(y * 18 + x) as usize]);
        if let Err(e) = check_grid(grid, seed, 12) {
            prop_assert!(false, "{}", e);
        }
    }
}

#[test]
fn every_searching_planner_is_a_stepper() {
    let map = Map::new(generate(Family::Rooms, 20, 20, 3));
    let planners = searching_planners(&map);
    assert!(planners.len() >= 7, "{}", planners.len());
    for (name, mut p) in planners {
        assert!(p.stepper().is_some(), "{name} has no stepper");
    }
}

/// A limit stops a search after exactly its expansions, with the work done; a limit the
/// search fits in changes nothing; a zero timeout stops a long search.
#[test]
fn limits_stop_searches_with_the_work_done() {
    let grid = generate(Family::Corridors, 40, 30, 5);
    let map = Map::new(grid);
    let qs = queries(map.grid(), 40, 5);
    let (mut a, mut b) = (Answer::default(), Answer::default());
    let mut stopped = 0;
    for (name, mut p) in searching_planners(&map) {
        for &(s, t) in &qs {
            let Ok(status) = p.plan(s, t, &mut a) else {
                assert!(matches!(
                    p.plan_within(s, t, Limit::expansions(3), &mut b),
                    Err(PlanError::Query(_))
                ));
                continue;
            };
            let needed = a.stats.expanded;
            // Enough: the same answer.
            let r = p.plan_within(s, t, Limit::expansions(needed), &mut b);
            assert_eq!(r, Ok(status), "{name} {s}->{t}");
            assert_eq!(a, b, "{name} {s}->{t}");
            if needed == 0 {
                continue;
            }
            // One short: stopped, with the work done and no path.
            match p.plan_within(s, t, Limit::expansions(needed - 1), &mut b) {
                Err(PlanError::Limit(l)) => {
                    assert_eq!(l.kind, LimitKind::Expansions);
                    assert_eq!(l.stats.expanded, needed - 1, "{name} {s}->{t}");
                    assert_eq!(b.stats.expanded, needed - 1);
                    assert!(b.waypoints.is_empty() && b.length.is_infinite());
                    stopped += 1;
                }
                other => panic!("{name} {s}->{t}: needed {needed}, one short gave {other:?}"),
            }
            // The planner is not left in the stopped query: the next one is whole.
            assert_eq!(p.plan(s, t, &mut b), Ok(status));
            assert_eq!(a, b);
            // No time at all: a search longer than the first slice is stopped by the clock
            // after it.
            if needed > Limit::FIRST_SLICE {
                match p.plan_within(s, t, Limit::timeout(Duration::ZERO), &mut b) {
                    Err(PlanError::Limit(l)) => {
                        assert_eq!(l.kind, LimitKind::Timeout);
                        assert_eq!(l.stats.expanded, Limit::FIRST_SLICE, "{name}");
                    }
                    other => panic!("{name}: a zero timeout gave {other:?}"),
                }
            }
        }
    }
    assert!(stopped > 100, "only {stopped} queries stopped");
}

/// Cancelling drops the query; a later begin starts afresh.
#[test]
fn cancel_ends_a_pending_query() {
    let map = Map::new(generate(Family::Corridors, 40, 30, 6));
    let qs = queries(map.grid(), 20, 6);
    let mut out = Answer::default();
    for (name, mut p) in searching_planners(&map) {
        for &(s, t) in &qs {
            let Ok(status) = p.plan(s, t, &mut out) else {
                continue;
            };
            let want = out.clone();
            let st = p.stepper().expect("steps");
            st.begin(s, t).unwrap();
            if st.step(1) == Step::Pending {
                st.cancel();
                assert_eq!(st.step(10), Step::Done(Status::Unreachable), "{name}");
            }
            st.begin(s, t).unwrap();
            let got = loop {
                if let Step::Done(x) = st.step(7) {
                    break x;
                }
            };
            st.answer(&mut out);
            assert_eq!((got, &out), (status, &want), "{name} {s}->{t}");
        }
    }
}
