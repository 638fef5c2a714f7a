//! Spherical Anya answers a query and its reverse with the same length: a property with no
//! reference to compare against, which caught four successor bugs the analytic cases missed
//! (corners at the edge-side end of adjoint nodes, far-side corners, goals 180° or more from
//! a cone's root, turning at a partly blocked pole).

use proptest::prelude::*;
use taut_spherical::{LatLon, Route, SearchContext, SearchOutcome, SphereGrid};

/// A random grid and two points in the closure of free cells: cell centres, interior points
/// and grid vertices (3 kinds), away from the poles.
fn case() -> impl Strategy<Value = (SphereGrid, LatLon, LatLon)> {
    (8u32..28, 6u32..16, 0u32..40)
        .prop_flat_map(|(w, h, dens)| {
            let cells = proptest::collection::vec(0u32..100, (w * h) as usize);
            let pts = proptest::collection::vec(
                (0u32..h, 0u32..w, 0u8..3, 0u32..1000, 0u32..1000),
                2..40,
            );
            (Just((w, h, dens)), cells, pts)
        })
        .prop_filter_map("needs two usable points", |((w, h, dens), cells, pts)| {
            let grid =
                SphereGrid::from_fn(w, h, |r, c| cells[(r * w + c) as usize] >= dens).ok()?;
            let mut found = Vec::new();
            for (r, c, kind, a, b) in pts {
                if !grid.is_free(r as i64, c as i64) {
                    continue;
                }
                let (fy, fx) = match kind {
                    0 => (0.5, 0.5),
                    1 => (a as f64 / 1000.0, b as f64 / 1000.0),
                    _ => ((a % 2) as f64, (b % 2) as f64),
                };
                let p = LatLon::new(
                    90.0 - (r as f64 + fy) * 180.0 / h as f64,
                    -180.0 + (c as f64 + fx) * 360.0 / w as f64,
                );
                if p.lat.abs() < 89.0 {
                    found.push(p);
                }
                if found.len() == 2 {
                    return Some((grid, found[0], found[1]));
                }
            }
            None
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn reverse_query_has_the_same_length((grid, a, b) in case()) {
        let mut ctx = SearchContext::new();
        let (mut ab, mut ba) = (Route::default(), Route::default());
        let o1 = ctx.search(&grid, a, b, &mut ab);
        let o2 = ctx.search(&grid, b, a, &mut ba);
        match (o1, o2) {
            (Ok(o1), Ok(o2)) => {
                prop_assert_eq!(o1, o2);
                if o1 == SearchOutcome::Found {
                    prop_assert!((ab.radians - ba.radians).abs() < 1e-9,
                        "a->b {} b->a {}", ab.radians, ba.radians);
                    // Both routes go from their start to their goal, leg after leg.
                    for (r, s, t) in [(&ab, a, b), (&ba, b, a)] {
                        if r.legs.is_empty() {
                            prop_assert!(s.distance_rad(t) < 1e-12);
                            continue;
                        }
                        prop_assert!(r.legs[0].start().distance_rad(s) < 1e-9);
                        prop_assert!(r.legs.last().unwrap().end().distance_rad(t) < 1e-9);
                        for w in r.legs.windows(2) {
                            prop_assert!(w[0].end().distance_rad(w[1].start()) < 1e-9);
                        }
                        prop_assert!((r.radians - r.legs_radians()).abs() < 1e-12);
                        prop_assert!(r.radians >= s.distance_rad(t) - 1e-12);
                    }
                }
            }
            // A refused point (a double-corner vertex) is refused both ways.
            (Err(_), Err(_)) => {}
            (x, y) => prop_assert!(false, "{:?} vs {:?}", x, y),
        }
    }
}
