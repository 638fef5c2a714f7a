//! Differential tests: Anya against the exact visibility-graph oracle of `taut-baselines` on
//! random grids of every size from 1×1, obstacle densities 0–60 % and grids built to be full
//! of double corners. For every query of every grid, with every combination of pruning
//! options and both root histories:
//! - Anya finds a path exactly when the oracle does;
//! - the lengths agree to 1e-9 (both are computed from exact waypoints);
//! - Anya's path passes the independent legality checker and its length is the polyline
//!   length of its waypoints.

mod common;

use common::{all_options, check_against_vg, free_points};
use proptest::prelude::*;
use taut_anya::Options;
use taut_grid::Grid;

/// Checks a spread of queries between free points (all pairs when few) against the oracle.
fn check_grid(g: &Grid, options: &[Options]) -> Result<(), TestCaseError> {
    let pts = free_points(g);
    let step = (pts.len() / 12).max(1);
    let mut queries = Vec::new();
    for (i, &s) in pts.iter().enumerate().step_by(step) {
        for &t in pts.iter().skip(i % 3).step_by(step) {
            queries.push((s, t));
        }
    }
    check_against_vg(g, &queries, options)
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
