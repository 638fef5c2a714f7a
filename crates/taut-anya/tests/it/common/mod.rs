//! Helpers shared by the test modules of taut-anya (not every module uses every helper).
#![allow(dead_code)]

use proptest::prelude::*;
use taut_anya::{Options, RootHistory, SearchContext};
use taut_baselines::vg::VgPlanner;
use taut_grid::{Answer, Grid, Planner, Point, Status};
use taut_testdata::{Tolerances, check_answer_within, fixture_queries, show};

/// Every combination of the two pruning rules and the two root histories.
pub fn all_options() -> Vec<Options> {
    let mut v = Vec::new();
    for cul_de_sac in [false, true] {
        for intermediate in [false, true] {
            for history in [RootHistory::Flat, RootHistory::Hash] {
                v.push(Options {
                    cul_de_sac,
                    intermediate,
                    history,
                });
            }
        }
    }
    v
}

/// Anya against the visibility-graph oracle on each query, with each option set: the same
/// status, lengths equal to 1e-9, a path that passes `Grid::check_path`, and a reported length
/// equal to the path's polyline length.
pub fn check_against_vg(
    g: &Grid,
    queries: &[(Point, Point)],
    options: &[Options],
) -> Result<(), TestCaseError> {
    let mut vg = VgPlanner::new(g);
    let mut ctx = SearchContext::new();
    let (mut expected, mut got) = (Answer::default(), Answer::default());
    for &(s, t) in queries {
        let vs = vg.plan(s, t, &mut expected).unwrap();
        for o in options {
            let st = ctx.search(g, s, t, o, &mut got).unwrap();
            prop_assert_eq!(
                st,
                vs,
                "status {:?}->{:?} with {:?} on\n{}",
                s,
                t,
                o,
                show(g)
            );
            if st == Status::Found {
                if let Err(e) = check_answer_within(
                    g,
                    s,
                    t,
                    &got,
                    Some(expected.length),
                    Tolerances::both(1e-9),
                ) {
                    prop_assert!(
                        false,
                        "anya {} with {:?}; vg {:?} on\n{}",
                        e,
                        o,
                        expected.waypoints,
                        show(g)
                    );
                }
            } else {
                prop_assert!(got.waypoints.is_empty() && got.length.is_infinite());
            }
        }
    }
    Ok(())
}

/// The arena fixture (`fixtures/maps/arena.map`) and the 130 queries of its scenario file.
pub fn arena() -> (Grid, Vec<(Point, Point)>) {
    let (grid, queries) = fixture_queries("arena");
    assert_eq!(queries.len(), 130);
    (grid, queries)
}
