//! Hub labels against Anya (an independent optimal planner) on random grids: the same
//! outcome and length for every query, on taut's merged meshes, on one-square-per-cell meshes
//! and on grids full of double corners, and legal paths of the length reported.

use std::sync::Arc;

use proptest::prelude::*;
use taut_anya::AnyaPlanner;
use taut_grid::{Answer, Grid, Planner, Status};
use taut_hub::{HubError, HubIndex, HubPlanner};
use taut_mesh::{Mesh, mesh_from_grid};
use taut_testdata::{
    Tolerances, cell_mesh, check_answer_within, double_corner_grid, free_points, random_grid,
};

fn check(g: &Grid, mesh: &Mesh, stride: usize) -> Result<(), TestCaseError> {
    check_regions(g, mesh, stride, 1)
}

/// As [`check`], with labels shared by regions of `side × side` cells.
fn check_regions(g: &Grid, mesh: &Mesh, stride: usize, side: u32) -> Result<(), TestCaseError> {
    let index = Arc::new(HubIndex::build_with_regions(g, mesh, side).expect("index"));
    prop_assert_eq!(index.region_size(), side);
    let pts = free_points(g);
    let mut anya = AnyaPlanner::new(g);
    let mut hub = HubPlanner::new(g, index).expect("same grid");
    let (mut want, mut got) = (Answer::default(), Answer::default());
    let mut k = 0usize;
    for &s in &pts {
        for &t in &pts {
            k += 1;
            if !k.is_multiple_of(stride) {
                continue;
            }
            let a = anya.plan(s, t, &mut want).expect("anya");
            let b = hub.plan(s, t, &mut got).expect("hub");
            prop_assert_eq!(a, b, "{:?}->{:?} (regions of {})", s, t, side);
            if a != Status::Found {
                continue;
            }
            if let Err(e) =
                check_answer_within(g, s, t, &got, Some(want.length), Tolerances::both(1e-9))
            {
                prop_assert!(false, "hub {}; anya {:?}", e, want.waypoints);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn hub_on_merged_meshes_equals_anya(g in random_grid(12)) {
        if let Ok(mesh) = mesh_from_grid(&g) {
            check(&g, &mesh, 2)?;
        }
    }

    #[test]
    fn hub_on_cell_meshes_equals_anya(g in random_grid(10)) {
        if let Some(mesh) = cell_mesh(&g) {
            check(&g, &mesh, 2)?;
        }
    }

    #[test]
    fn hub_with_double_corners_equals_anya(g in double_corner_grid(14)) {
        if let Ok(mesh) = mesh_from_grid(&g) {
            check(&g, &mesh, 3)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// Labels shared by regions answer exactly as the points' own, for every region side
    /// (sides that do not divide the map leave partial regions on its right and bottom).
    #[test]
    fn hub_with_regions_equals_anya(g in random_grid(14), side in prop_oneof![2u32..=9, Just(16u32), Just(64u32)]) {
        if let Ok(mesh) = mesh_from_grid(&g) {
            check_regions(&g, &mesh, 2, side)?;
        }
    }

    #[test]
    fn hub_with_regions_and_double_corners_equals_anya(g in double_corner_grid(14), side in prop_oneof![2u32..=9, Just(16u32)]) {
        if let Ok(mesh) = mesh_from_grid(&g) {
            check_regions(&g, &mesh, 3, side)?;
        }
    }
}

#[test]
fn region_sides_outside_1_to_64_are_refused() {
    let g = Grid::from_ascii(&["....", ".@..", "...."]).unwrap();
    let mesh = mesh_from_grid(&g).unwrap();
    for side in [0, 65] {
        let e = HubIndex::build_with_regions(&g, &mesh, side).unwrap_err();
        assert!(matches!(e, HubError::RegionSize(s) if s == side), "{e}");
    }
}

#[test]
fn an_index_for_another_grid_is_refused() {
    let a = Grid::from_ascii(&["....", ".@..", "...."]).unwrap();
    let b = Grid::from_ascii(&["....", "..@.", "...."]).unwrap();
    let c = Grid::from_ascii(&[".....", ".@...", "....."]).unwrap();
    let index = Arc::new(HubIndex::build(&a, &mesh_from_grid(&a).unwrap()).unwrap());
    assert!(HubPlanner::new(&a, index.clone()).is_ok());
    for other in [&b, &c] {
        assert!(matches!(
            HubPlanner::new(other, index.clone()),
            Err(HubError::StaleMap)
        ));
    }
}

#[test]
fn a_mesh_of_another_grid_is_refused() {
    let a = Grid::from_ascii(&["....", ".@..", "...."]).unwrap();
    let b = Grid::from_ascii(&["....", ".@@.", "...."]).unwrap();
    // b's mesh does not cover cell (2, 1), which is free on a; a's covers it, blocked on b.
    let err = HubIndex::build(&a, &mesh_from_grid(&b).unwrap()).unwrap_err();
    assert!(
        matches!(err, HubError::MeshMismatch { x: 2, y: 1 }),
        "{err}"
    );
    let err = HubIndex::build(&b, &mesh_from_grid(&a).unwrap()).unwrap_err();
    assert!(
        matches!(err, HubError::MeshMismatch { x: 2, y: 1 }),
        "{err}"
    );
}

/// A budget picks the finest index that fits: the points' own labels when the budget allows
/// them, regions below that (the same index as a build at that side, still answering as
/// Anya), and a typed refusal when even the coarsest regions do not fit.
#[test]
fn a_budget_picks_the_finest_index_that_fits() {
    let (g, _) = taut_testdata::fixture_queries("arena");
    let mesh = mesh_from_grid(&g).unwrap();
    let full = HubIndex::build(&g, &mesh).unwrap();
    let roomy = HubIndex::build_within(&g, &mesh, full.size_bytes()).unwrap();
    assert_eq!(roomy.region_size(), 1);
    let tight = full.size_bytes() / 3;
    let small = HubIndex::build_within(&g, &mesh, tight).unwrap();
    assert!(small.region_size() > 1, "{}", small.region_size());
    assert!(small.size_bytes() <= tight);
    // The regions the estimates sampled are copied into the build, not labelled again: the
    // very index a build at that side gives.
    let direct = HubIndex::build_with_regions(&g, &mesh, small.region_size()).unwrap();
    assert!(taut_hub::encode_hub(&small) == taut_hub::encode_hub(&direct));
    // The core labels alone pass 1 kB: refused before they are finished.
    let corners = full.stats().corners;
    let e = HubIndex::build_within(&g, &mesh, 1_000).unwrap_err();
    assert!(
        matches!(e, HubError::CoreOverBudget { budget: 1_000, reached, searched, corners: c }
            if reached > 1_000 && searched < corners && c == corners),
        "{e}"
    );
    // Room for the core labels but not for an index: refused with the smallest size found.
    let core_bytes = full.stats().core_entries as u64 * 16;
    let e = HubIndex::build_within(&g, &mesh, core_bytes).unwrap_err();
    assert!(
        matches!(e, HubError::BudgetTooSmall { budget, smallest, .. }
            if budget == core_bytes && smallest > core_bytes),
        "{e}"
    );
    let mut anya = AnyaPlanner::new(&g);
    let mut hub = HubPlanner::new(&g, Arc::new(small)).unwrap();
    let (mut want, mut got) = (Answer::default(), Answer::default());
    let pts = free_points(&g);
    for (k, &s) in pts.iter().enumerate().step_by(7) {
        for &t in pts.iter().skip(k % 5).step_by(11) {
            let a = anya.plan(s, t, &mut want).unwrap();
            assert_eq!(a, hub.plan(s, t, &mut got).unwrap(), "{s:?} -> {t:?}");
            if a == Status::Found {
                assert!((want.length - got.length).abs() <= 1e-9, "{s:?} -> {t:?}");
            }
        }
    }
}
