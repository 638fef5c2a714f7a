//! Differential tests: Anya against the exact visibility-graph oracle of `taut-baselines` on
//! random grids of every size from 1×1, obstacle densities 0–60 % and grids built to be full
//! of double corners. For every query of every grid, with every combination of pruning
//! options and both root histories:
//! - Anya finds a path exactly when the oracle does;
//! - the lengths agree to 1e-9 (both are computed from exact waypoints);
//! - Anya's path passes the independent legality checker and its length is the polyline
//!   length of its waypoints.

use crate::common::{all_options, check_against_vg};
use proptest::prelude::*;
use taut_anya::Options;
use taut_grid::Grid;
use taut_testdata::{double_corner_grid, random_grid, spread_queries};

/// Checks a spread of queries between free points (all pairs when few) against the oracle.
fn check_grid(g: &Grid, options: &[Options]) -> Result<(), TestCaseError> {
    check_against_vg(g, &spread_queries(g, 12), options)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn anya_equals_visibility_graph(g in random_grid(20)) {
        check_grid(&g, &all_options())?;
    }

    #[test]
    fn anya_equals_visibility_graph_with_double_corners(g in double_corner_grid(16)) {
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
