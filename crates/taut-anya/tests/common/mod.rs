//! Helpers shared by the test binaries of taut-anya (each test file includes this module;
//! not every file uses every helper).
#![allow(dead_code)]

use proptest::prelude::*;
use taut_anya::{Options, RootHistory, SearchContext};
use taut_baselines::vg::VgPlanner;
use taut_grid::{Answer, Grid, Planner, Point, Status, path_length};

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

/// The grid as rows of `.` and `@`, for failure messages.
pub fn show(g: &Grid) -> String {
    let mut s = String::new();
    for y in 0..g.height() {
        for x in 0..g.width() {
            s.push(if g.is_free(x, y) { '.' } else { '@' });
        }
        s.push('\n');
    }
    s
}

/// Every valid query point (a free cell's top-left corner), in row-major order.
pub fn free_points(g: &Grid) -> Vec<Point> {
    let mut v = Vec::new();
    for y in 0..g.height() {
        for x in 0..g.width() {
            if g.is_free(x, y) {
                v.push(Point::new(x, y));
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
                prop_assert!(
                    (got.length - expected.length).abs() < 1e-9,
                    "{:?}->{:?} anya {} ({:?}) vg {} ({:?}) with {:?} on\n{}",
                    s,
                    t,
                    got.length,
                    got.waypoints,
                    expected.length,
                    expected.waypoints,
                    o,
                    show(g)
                );
                if let Err(e) = g.check_path(s, t, &got.waypoints) {
                    prop_assert!(
                        false,
                        "illegal path {:?}->{:?} {:?}: {} with {:?} on\n{}",
                        s,
                        t,
                        got.waypoints,
                        e,
                        o,
                        show(g)
                    );
                }
                prop_assert!((path_length(&got.waypoints) - got.length).abs() < 1e-9);
            } else {
                prop_assert!(got.waypoints.is_empty() && got.length.is_infinite());
            }
        }
    }
    Ok(())
}

/// The arena fixture (`fixtures/maps/arena.map`) and the 130 queries of its scenario file.
pub fn arena() -> (Grid, Vec<(Point, Point)>) {
    let maps = taut_testdata::fixtures().join("maps");
    let map = taut_grid::MapFile::read(maps.join("arena.map")).unwrap();
    let scen = taut_grid::Scenario::read(maps.join("arena.map.scen")).unwrap();
    let queries: Vec<_> = scen.entries.iter().map(|e| (e.start, e.goal)).collect();
    assert_eq!(queries.len(), 130);
    (
        Grid::from_map(&map, &taut_grid::FreeSet::default()),
        queries,
    )
}
