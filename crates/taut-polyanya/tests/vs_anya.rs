//! Differential tests: Polyanya on meshes of random grids equals Anya (itself tested against
//! the visibility graph) on every query: same status, lengths within 1e-9, legal paths.
//! Meshes: one square per free cell (independent of the mesh builder), and taut's builder's
//! triangulation and merged mesh.

mod common;

use std::sync::Arc;

use common::{all_options, cell_mesh, check_against_anya, free_points};
use proptest::prelude::*;
use taut_grid::Grid;
use taut_mesh::BuildOptions;
use taut_mesh::build::mesh_from_grid_with;

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
    let pts = free_points(g);
    let step = (pts.len() / 12).max(1);
    let mut queries = Vec::new();
    for (i, &s) in pts.iter().enumerate().step_by(step) {
        for &t in pts.iter().skip(i % 3).step_by(step) {
            queries.push((s, t));
        }
    }
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

fn random_grid(max: u32) -> impl Strategy<Value = Grid> {
    (1u32..=max, 1u32..=max, 0.0f64..0.6).prop_flat_map(|(w, h, density)| {
        proptest::collection::vec(proptest::bool::weighted(density), (w * h) as usize)
            .prop_map(move |blocked| Grid::from_fn(w, h, |x, y| !blocked[(y * w + x) as usize]))
    })
}

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
    fn polyanya_equals_anya(g in random_grid(20)) {
        check_grid(&g)?;
    }

    #[test]
    fn polyanya_equals_anya_with_double_corners(g in double_corner_grid()) {
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
