//! The differential suite: every optimal planner against every other, and both path-legality
//! checkers, on adversarial grids up to 64 × 64.
//!
//! - **Plane.** `taut_hardening::Oracle` on each generated grid: Anya, the visibility graph,
//!   Polyanya on the merged mesh and on the triangle mesh and EPS must return the same status
//!   (or the same error for a blocked or off-map endpoint) and lengths within
//!   `taut::grid::LENGTH_TOLERANCE` (1e-6); Theta*, Lazy Theta*, EPS's first solution and A*'s
//!   octile length must never beat them; every path must pass `Grid::check_path` (the exact cell walk) and measure the
//!   length reported.
//! - **Sphere.** The same grids as latitude/longitude rasters: Spherical Anya's route must pass
//!   the sphere's independent checker (`taut::spherical::check::check_route`), never beat the
//!   great circle, equal it on an all-free raster, and exist exactly when the two cells are
//!   connected (a union-find over free cells, written here independently of the search).
//!
//! Grid families (`taut_hardening::maps::Family`): random at 0–60 % density, checkerboards of
//! 1–3-cell blocks with flipped blocks (double corners everywhere), diagonal walls, serpentine
//! one-cell corridors, rooms with one-cell doors, all free, all blocked, and 1 × N / N × 1
//! strips. 48 cases per property by default; `PROPTEST_CASES=N` runs more.

use proptest::prelude::*;
use taut::grid::{Grid, Status};
use taut::spherical::check::check_route;
use taut::spherical::{LatLon, Route, SearchContext, SearchOutcome, SphereGrid};
use taut_hardening::maps::{Family, SplitMix, generate, queries};
use taut_hardening::{Oracle, show};

fn cases() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48);
    ProptestConfig::with_cases(cases)
}

fn family() -> impl Strategy<Value = Family> {
    prop::sample::select(Family::ALL.to_vec())
}

/// Sizes: a third tiny (1–8), a third medium (9–32), a third up to 64 on each side.
fn side() -> impl Strategy<Value = u32> {
    prop_oneof![1u32..=8, 9u32..=32, 33u32..=64]
}

fn plane(grid: &Grid, seed: u64, count: usize) -> Result<usize, TestCaseError> {
    let mut oracle =
        Oracle::new(grid).map_err(|e| TestCaseError::fail(format!("{e} on\n{}", show(grid))))?;
    let mut found = 0;
    for (s, t) in queries(grid, count, seed) {
        match oracle.check(s, t) {
            Ok(v) => found += usize::from(v.outcome == Ok(Status::Found)),
            Err(e) => {
                return Err(TestCaseError::fail(format!(
                    "{e}\nplanners: {:?}\non\n{}",
                    oracle.planner_names(),
                    show(grid)
                )));
            }
        }
    }
    Ok(found)
}

proptest! {
    #![proptest_config(cases())]

    /// Every optimal planner agrees on every family, at every size up to 64 × 64.
    #[test]
    fn optimal_planners_agree(
        family in family(),
        w in side(),
        h in side(),
        seed in any::<u64>(),
    ) {
        let grid = generate(family, w, h, seed);
        // Fewer queries on big maps: the visibility graph is quadratic in the corners.
        let count = if w * h > 1024 { 12 } else { 30 };
        plane(&grid, seed, count)?;
    }

    /// Spherical Anya on the same families read as latitude/longitude rasters. Half the
    /// rasters are 4–8 columns wide: with columns of 45–90°, routes of 180° and more, and
    /// corners at each other's antipodes, are common (the bugs this suite found were all there).
    #[test]
    fn spherical_routes_are_legal_and_complete(
        family in family(),
        w in prop_oneof![4u32..=8, 4u32..=48],
        h in 2u32..=24,
        seed in any::<u64>(),
    ) {
        let grid = generate(family, w, h, seed);
        if grid.width() < 4 || grid.height() < 2 {
            return Ok(()); // a strip is not a sphere raster (checked below)
        }
        let sphere = SphereGrid::from_grid(&grid).expect("at least 4 x 2 cells");
        sphere_queries(&sphere, seed)?;
    }
}

/// Union-find over the free cells of a sphere raster: edge neighbours (longitude wrapping),
/// and every free cell of a polar row joined through its pole. Cells meeting only at a vertex
/// are joined when a third cell there is free, which edge adjacency already implies.
fn components(g: &SphereGrid) -> Vec<usize> {
    let (w, h) = (g.width() as usize, g.height() as usize);
    let mut parent: Vec<usize> = (0..w * h).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let free = |r: usize, c: usize| g.is_free(r as i64, c as i64);
    let union = |p: &mut Vec<usize>, a: usize, b: usize| {
        let (ra, rb) = (find(p, a), find(p, b));
        p[ra] = rb;
    };
    for r in 0..h {
        for c in 0..w {
            if !free(r, c) {
                continue;
            }
            let right = (c + 1) % w;
            if free(r, right) {
                union(&mut parent, r * w + c, r * w + right);
            }
            if r + 1 < h && free(r + 1, c) {
                union(&mut parent, r * w + c, (r + 1) * w + c);
            }
        }
    }
    for r in [0, h - 1] {
        let cells: Vec<usize> = (0..w).filter(|&c| free(r, c)).collect();
        for pair in cells.windows(2) {
            union(&mut parent, r * w + pair[0], r * w + pair[1]);
        }
    }
    (0..w * h).map(|i| find(&mut parent, i)).collect()
}

fn sphere_queries(g: &SphereGrid, seed: u64) -> Result<(), TestCaseError> {
    let (w, h) = (g.width(), g.height());
    let free: Vec<(u32, u32)> = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .filter(|&(r, c)| g.is_free(i64::from(r), i64::from(c)))
        .collect();
    if free.is_empty() {
        return Ok(());
    }
    let comp = components(g);
    let all_free = free.len() == (w * h) as usize;
    let mut rng = SplitMix::new(seed);
    let mut ctx = SearchContext::new();
    let mut route = Route::default();
    let frac = |rng: &mut SplitMix| 0.05 + 0.9 * (rng.below(1000) as f64 / 1000.0);
    for _ in 0..8 {
        let a = free[rng.below(free.len() as u64) as usize];
        let b = free[rng.below(free.len() as u64) as usize];
        let at = |(r, c): (u32, u32), fy: f64, fx: f64| {
            LatLon::new(
                90.0 - (f64::from(r) + fy) * 180.0 / f64::from(h),
                -180.0 + (f64::from(c) + fx) * 360.0 / f64::from(w),
            )
        };
        let from = at(a, frac(&mut rng), frac(&mut rng));
        let to = at(b, frac(&mut rng), frac(&mut rng));
        let what = || format!("{from:?} -> {to:?} on a {w} x {h} raster");
        let outcome = ctx
            .search(g, from, to, &mut route)
            .map_err(|e| TestCaseError::fail(format!("{}: error {e}", what())))?;
        let connected = comp[(a.0 * w + a.1) as usize] == comp[(b.0 * w + b.1) as usize];
        prop_assert_eq!(outcome == SearchOutcome::Found, connected, "{}", what());
        if outcome != SearchOutcome::Found {
            continue;
        }
        if let Err(v) = check_route(g, &route, from, to) {
            prop_assert!(false, "{}: illegal route ({v}): {route:?}", what());
        }
        let gc = from.distance_rad(to);
        prop_assert!(
            route.radians >= gc - 1e-9,
            "{}: below the great circle",
            what()
        );
        if all_free {
            prop_assert!(
                (route.radians - gc).abs() <= 1e-9,
                "{}: all free but not the great circle",
                what()
            );
        }
    }
    Ok(())
}

/// Every family at its extreme sizes (1 × 1, 1 × 64, 64 × 1, 64 × 64), so the corners of the
/// size range are always covered whatever proptest draws.
#[test]
fn every_family_at_the_extreme_sizes() {
    let mut found = 0;
    for family in Family::ALL {
        for (w, h) in [(1, 1), (1, 64), (64, 1), (2, 2), (64, 64)] {
            for seed in 0..3 {
                let grid = generate(family, w, h, seed);
                let count = if w * h > 1024 { 8 } else { 24 };
                match plane(&grid, seed, count) {
                    Ok(n) => found += n,
                    Err(e) => panic!("{family:?} {w}x{h} seed {seed}: {e}"),
                }
            }
        }
    }
    // Not vacuous: 1,320 of these 2,496 queries had a path when this was written.
    assert!(found >= 1000, "only {found} queries had a path");
}

/// On an all-blocked grid every query is refused by every planner, and none builds a mesh.
#[test]
fn all_blocked_grids_refuse_every_query_alike() {
    let grid = generate(Family::AllBlocked, 9, 7, 1);
    let mut oracle = Oracle::new(&grid).unwrap();
    assert!(!oracle.planner_names().contains(&"polyanya"));
    for (s, t) in queries(&grid, 20, 1) {
        let v = oracle.check(s, t).unwrap();
        assert!(v.outcome.is_err(), "{s} -> {t}: {:?}", v.outcome);
    }
}

/// The oracle runs every planner of the facade's table (A* apart): each optimal kind, hub
/// labels and End Point Search included, answers every query of a grid with free space.
#[test]
fn the_oracle_runs_every_planner_of_the_table() {
    let grid = taut::Grid::from_ascii(&["......", ".@@...", "...@..", "......"]).unwrap();
    let oracle = Oracle::new(&grid).unwrap();
    let names = oracle.planner_names();
    for kind in taut::registry::PLANNERS {
        if kind.algo == taut::Algo::Auto {
            // `auto` answers as the planner it picks (here Anya: nothing built beforehand).
            continue;
        }
        if kind.name == "astar" {
            continue; // checked apart, on its octile lengths
        }
        assert!(
            names.contains(&kind.name),
            "{} missing from {names:?}",
            kind.name
        );
    }
    assert!(names.contains(&"hub") && names.contains(&"eps") && names.contains(&"eps-first"));
    // Anya twice (itself and `auto`), Polyanya twice (merged mesh and triangles).
    assert_eq!(
        names.iter().filter(|n| **n == "anya").count(),
        2,
        "{names:?}"
    );
    assert_eq!(
        names.iter().filter(|n| **n == "polyanya").count(),
        2,
        "{names:?}"
    );
}
