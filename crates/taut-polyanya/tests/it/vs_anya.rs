//! Differential tests: Polyanya on meshes of random grids equals Anya (itself tested against
//! the visibility graph) on every query: same status, lengths within 1e-9, legal paths.
//! Meshes: one square per free cell (independent of the mesh builder), and taut's builder's
//! triangulation and merged mesh.

use std::sync::Arc;

use crate::common::{all_options, check_against_anya};
use proptest::prelude::*;
use taut_grid::Grid;
use taut_mesh::BuildOptions;
use taut_mesh::build::mesh_from_grid_with;
use taut_testdata::{cell_mesh, double_corner_grid, random_grid, spread_queries};

fn check_grid(g: &Grid) -> Result<(), TestCaseError> {
    let Some(cells) = cell_mesh(g) else {
        return Ok(());
    };
    let triangles = mesh_from_grid_with(g, &BuildOptions { merge: false })
        .unwrap()
        .0;
    let merged = mesh_from_grid_with(g, &BuildOptions { merge: true })
        .unwrap()
        .0;
    let queries = spread_queries(g, 12);
    for (what, mesh) in [
        ("cells", cells),
        ("triangles", triangles),
        ("merged", merged),
    ] {
        check_against_anya(g, &Arc::new(mesh), &queries, &all_options())
            .map_err(|e| TestCaseError::fail(format!("{what} mesh: {e}")))?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn polyanya_equals_anya(g in random_grid(20)) {
        check_grid(&g)?;
    }

    #[test]
    fn polyanya_equals_anya_with_double_corners(g in double_corner_grid(16)) {
        check_grid(&g)?;
    }
}

#[test]
fn every_tiny_grid_up_to_3x3() {
    for w in 1..=3u32 {
        for h in 1..=3u32 {
            let n = w * h;
            for bits in 0u32..(1 << n) {
                let g = Grid::from_fn(w, h, |x, y| bits >> (y * w + x) & 1 == 0);
                check_grid(&g).unwrap();
            }
        }
    }
}
