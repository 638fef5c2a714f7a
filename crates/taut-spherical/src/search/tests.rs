//! The sweep against the column-by-column expansion.

use super::*;
use crate::check::check_route;

/// The route and counters of one search, sweeping or column by column.
fn run(
    grid: &SphereGrid,
    from: LatLon,
    to: LatLon,
    sweep: bool,
) -> (SearchOutcome, Route, SearchStats) {
    let mut ctx = SearchContext {
        no_sweep: !sweep,
        // The search itself, even where the arc is clear.
        no_direct: true,
        ..SearchContext::default()
    };
    let mut route = Route::default();
    let outcome = ctx.search(grid, from, to, &mut route).unwrap();
    (outcome, route, ctx.stats())
}

/// Searches one pair sweeping and column by column: both must find the route, at the
/// same length, and the swept one must be legal. Returns both searches' counters.
fn swept_and_stepped(grid: &SphereGrid, from: LatLon, to: LatLon) -> (SearchStats, SearchStats) {
    let (o1, swept, s1) = run(grid, from, to, true);
    let (o2, stepped, s2) = run(grid, from, to, false);
    assert_eq!((o1, o2), (SearchOutcome::Found, SearchOutcome::Found));
    assert!((swept.radians - stepped.radians).abs() < 1e-12);
    check_route(grid, &swept, from, to).unwrap();
    (s1, s2)
}

#[test]
fn a_cone_clipped_by_a_parallel_coast_is_swept() {
    // 1° cells; land north of 10°N between 40°W and 60°E, and south of 40°S everywhere.
    // From (0°, 30°W) eastwards the start's cone spans the whole open meridian, from the
    // southern coast to the northern one, and the rays through both coasts' corners move
    // towards them until 60°E: the cone is clipped by both parallels at every column.
    let grid = SphereGrid::from_fn(360, 180, |r, c| {
        let lat_top = 90.0 - r as f64;
        let lon_west = c as f64 - 180.0;
        let north_land = lat_top > 10.0 && (-40.0..60.0).contains(&lon_west);
        !(north_land || lat_top <= -40.0)
    })
    .unwrap();
    let (s1, s2) = swept_and_stepped(&grid, LatLon::new(0.0, -30.0), LatLon::new(5.0, 50.0));
    // Before clipped cones were swept, not a column of this cone was (its ends lie on the
    // coasts): 60 columns were expanded one by one.
    assert!(s1.swept >= 60, "{s1:?}");
    assert_eq!(s2.swept, 0);
    assert!(s1.expanded + 60 <= s2.expanded, "{s1:?} against {s2:?}");
}

#[test]
fn a_cone_open_to_the_pole_is_swept() {
    // 1° cells; land south of 20°N, and one island at 30°N-32°N, 64°E-66°E. From (30°N, 0°)
    // to (31°N, 70°E), behind the island, the start's eastward cone spans its meridian from
    // the coast to the North Pole: its top side is the pole, column after column, not a ray.
    let grid = SphereGrid::from_fn(360, 180, |r, c| {
        let lat_top = 90.0 - r as f64;
        let lon_west = c as f64 - 180.0;
        let island = (31.0..=32.0).contains(&lat_top) && (64.0..66.0).contains(&lon_west);
        lat_top > 20.0 && !island
    })
    .unwrap();
    let (s1, s2) = swept_and_stepped(&grid, LatLon::new(30.0, 0.5), LatLon::new(31.0, 70.0));
    // Before cones at a pole were swept, not a column of this one was.
    assert!(s1.swept >= 50, "{s1:?}");
    assert!(s1.expanded + 50 <= s2.expanded, "{s1:?} against {s2:?}");
}

#[test]
fn sweeping_changes_no_route() {
    // Rasters of 1° cells with long coasts along parallels and staircase coasts (bars of
    // 1-6 rows, 10-200 columns) and small islands; random pairs of free points. Sweeping
    // must give the column-by-column expansion's outcome and length.
    let mut next = crate::testing::below(0x2545_f491_4f6c_dd1d);
    let (w, h) = (360u32, 180u32);
    let (mut found, mut swept) = (0, 0);
    for _ in 0..12 {
        let mut free = vec![true; (w * h) as usize];
        for bar in 0..16 {
            let (r0, c0) = (next(h), next(w));
            let (rows, cols) = (1 + next(6), 10 + next(191));
            // Half the bars are staircases, one row up or down every `run` columns: coasts
            // that narrow or widen a run at each step.
            let (step, run) = if bar % 2 == 0 {
                (0, 1)
            } else {
                (if next(2) == 0 { 1 } else { h - 1 }, 1 + next(4))
            };
            for dc in 0..cols {
                let shift = step * (dc / run);
                for dr in 0..rows {
                    let r = (r0 + dr + shift) % h;
                    free[(r * w + (c0 + dc) % w) as usize] = false;
                }
            }
        }
        for _ in 0..40 {
            free[(next(h) * w + next(w)) as usize] = false;
        }
        let grid = SphereGrid::from_fn(w, h, |r, c| free[(r * w + c) as usize]).unwrap();
        let point = |next: &mut dyn FnMut(u32) -> u32| loop {
            let (r, c) = (next(h), next(w));
            if free[(r * w + c) as usize] {
                let lat = 90.0 - (f64::from(r) + 0.25 + 0.5 * f64::from(next(100)) / 100.0);
                let lon = -180.0 + (f64::from(c) + 0.25 + 0.5 * f64::from(next(100)) / 100.0);
                break LatLon::new(lat, lon);
            }
        };
        for _ in 0..10 {
            let (from, to) = (point(&mut next), point(&mut next));
            let (o1, r1, s1) = run(&grid, from, to, true);
            let (o2, r2, _) = run(&grid, from, to, false);
            assert_eq!(o1, o2, "{from:?} -> {to:?}");

            if o1 == SearchOutcome::Found {
                found += 1;
                swept += s1.swept;
                assert!(
                    (r1.radians - r2.radians).abs() <= 1e-10,
                    "{from:?} -> {to:?}: {} swept, {} column by column",
                    r1.radians,
                    r2.radians
                );
                check_route(&grid, &r1, from, to).unwrap();
            }
        }
    }
    assert!(
        found >= 60 && swept > 1000,
        "{found} routes, {swept} columns swept"
    );
}
