//! Differential tests: Anya against the exact visibility-graph oracle of `taut-baselines` on
//! random grids of every size from 1×1, obstacle densities 0–60 % and grids built to be full
//! of double corners. For every query of every grid, with every combination of pruning
//! options and both root histories:
//! - Anya finds a path exactly when the oracle does;
//! - the lengths agree to 1e-9 (both are computed from exact waypoints);
//! - Anya's path passes the independent legality checker and its length is the polyline
//!   length of its waypoints.

use proptest::prelude::*;
use taut_anya::{Options, RootHistory, SearchContext};
use taut_baselines::vg::VgPlanner;
use taut_grid::{Answer, Grid, Planner, Point, Status, path_length};

fn all_options() -> Vec<Options> {
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

fn free_points(g: &Grid) -> Vec<Point> {
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

/// Checks every query between `points` (all pairs when few, else a deterministic sample).
fn check_grid(g: &Grid, options: &[Options]) -> Result<(), TestCaseError> {
    let pts = free_points(g);
    let mut vg = VgPlanner::new(g);
    let mut ctx = SearchContext::new();
    let (mut expected, mut got) = (Answer::default(), Answer::default());
    let step = (pts.len() / 12).max(1);
    for (i, &s) in pts.iter().enumerate().step_by(step) {
        for &t in pts.iter().skip(i % 3).step_by(step) {
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
                            "illegal path {:?}: {} on\n{}",
                            got.waypoints,
                            e,
                            show(g)
                        );
                    }
                    prop_assert!((path_length(&got.waypoints) - got.length).abs() < 1e-9);
                } else {
                    prop_assert!(got.waypoints.is_empty() && got.length.is_infinite());
                }
            }
        }
    }
    Ok(())
}

fn show(g: &Grid) -> String {
    let mut s = String::new();
    for y in 0..g.height() {
        for x in 0..g.width() {
            s.push(if g.is_free(x, y) { '.' } else { '@' });
        }
        s.push('\n');
    }
    s
}

/// A random grid: size, obstacle density, one weighted coin per cell.
fn random_grid(max: u32) -> impl Strategy<Value = Grid> {
    (1u32..=max, 1u32..=max, 0.0f64..0.6).prop_flat_map(|(w, h, density)| {
        proptest::collection::vec(proptest::bool::weighted(density), (w * h) as usize)
            .prop_map(move |blocked| Grid::from_fn(w, h, |x, y| !blocked[(y * w + x) as usize]))
    })
}

/// A grid with many double corners: a checkerboard of 2×2 blocks with random holes.
fn double_corner_grid() -> impl Strategy<Value = Grid> {
    (2u32..=16, 2u32..=16, 1u32..=2).prop_flat_map(|(w, h, cell)| {
        proptest::collection::vec(proptest::bool::weighted(0.15), (w * h) as usize).prop_map(
            move |holes| {
                Grid::from_fn(w, h, |x, y| {
                    let checker = ((x / cell) + (y / cell)) % 2 == 0;
                    checker || holes[(y * w + x) as usize]
                })
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn anya_equals_visibility_graph(g in random_grid(20)) {
        check_grid(&g, &all_options())?;
    }

    #[test]
    fn anya_equals_visibility_graph_with_double_corners(g in double_corner_grid()) {
        check_grid(&g, &all_options())?;
    }
}

#[test]
fn every_tiny_grid_up_to_3x3() {
    let opts = all_options();
    for w in 1..=3u32 {
        for h in 1..=3u32 {
            let n = w * h;
            for bits in 0u32..(1 << n) {
                let g = Grid::from_fn(w, h, |x, y| bits >> (y * w + x) & 1 == 0);
                check_grid(&g, &opts).unwrap();
            }
        }
    }
}
