//! Routes across the antimeridian (±180°), where longitudes wrap.
//!
//! - Shanghai → Los Angeles (`CNSHA → USLAX` rows of `../shared/data/sphere/pairs_snapped.csv`,
//!   every resolution and variant; skipped loudly without the shared data): the route is
//!   found, legal, and goes over the Pacific: followed point by point with unwrapped
//!   longitudes, it travels *east* from 121.6E to 118.4W (about +120° of longitude, through
//!   ±180°), never west across Asia and America, and never comes within 100° of Greenwich.
//! - On an empty sphere, routes across the antimeridian (both ways, two resolutions) are the
//!   great circle, to 1e-12 rad.

use crate::common::shared_sphere_data;
use taut_spherical::check::check_route;
use taut_spherical::geo::wrap_deg;
use taut_spherical::{LatLon, Route, SearchContext, SearchOutcome, SphereGrid};

/// The route's points (at most 0.25° apart) with longitudes unwrapped (each step taken as the
/// shorter way round), starting at the route's first point.
fn unwrapped_lons(route: &Route) -> Vec<f64> {
    let pts = route.densify(0.25);
    let mut out = Vec::with_capacity(pts.len());
    let mut lon = pts[0].lon;
    out.push(lon);
    for w in pts.windows(2) {
        lon += wrap_deg(w[1].lon - w[0].lon);
        out.push(lon);
    }
    out
}

#[test]
fn shanghai_to_los_angeles_crosses_the_pacific() {
    let Some(dir) = shared_sphere_data("shanghai_to_los_angeles_crosses_the_pacific") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("pairs_snapped.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (map, from, to) = (col("map"), col("from"), col("to"));
    let (s_lat, s_lon, g_lat, g_lon) = (col("s_lat"), col("s_lon"), col("g_lat"), col("g_lon"));
    let mut ctx = SearchContext::new();
    let mut route = Route::default();
    let mut seen = Vec::new();
    let mut failures = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        if f[from] != "CNSHA" || f[to] != "USLAX" {
            continue;
        }
        let num = |i: usize| f[i].parse::<f64>().unwrap();
        let (a, b) = (
            LatLon::new(num(s_lat), num(s_lon)),
            LatLon::new(num(g_lat), num(g_lon)),
        );
        let name = f[map];
        seen.push(name.to_owned());
        let grid = SphereGrid::read_map(dir.join(name), false).unwrap();
        match ctx.search(&grid, a, b, &mut route) {
            Ok(SearchOutcome::Found) => {}
            other => {
                failures.push(format!("{name}: search returned {other:?}"));
                continue;
            }
        }
        if let Err(v) = check_route(&grid, &route, a, b) {
            failures.push(format!("{name}: illegal route: {v}"));
        }
        let lons = unwrapped_lons(&route);
        let travel = lons.last().unwrap() - lons[0];
        let expected = (b.lon - a.lon).rem_euclid(360.0); // eastwards, the Pacific way
        if (travel - expected).abs() > 1e-6 {
            failures.push(format!(
                "{name}: travels {travel:.3}° of longitude, not {expected:.3}° east"
            ));
        }
        if let Some(lon) = lons.iter().map(|&l| wrap_deg(l)).find(|l| l.abs() < 100.0) {
            failures.push(format!(
                "{name}: passes longitude {lon:.3}, off the Pacific"
            ));
        }
    }
    assert_eq!(
        seen.len(),
        6,
        "expected 3 resolutions × 2 variants, got {seen:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn empty_sphere_across_the_antimeridian_is_the_great_circle() {
    let cases = [
        (LatLon::new(10.0, 170.0), LatLon::new(-20.0, -160.0)),
        (LatLon::new(-20.0, -160.0), LatLon::new(10.0, 170.0)),
        (LatLon::new(47.3, 179.9), LatLon::new(51.1, -179.2)),
        (LatLon::new(-33.3, 150.2), LatLon::new(35.7, -140.6)),
    ];
    let mut ctx = SearchContext::new();
    let mut route = Route::default();
    for (w, h) in [(36, 18), (360, 180)] {
        let grid = SphereGrid::from_fn(w, h, |_, _| true).unwrap();
        for (a, b) in cases {
            let outcome = ctx.search(&grid, a, b, &mut route).unwrap();
            assert_eq!(outcome, SearchOutcome::Found, "{a:?} -> {b:?} on {w}x{h}");
            let gc = a.distance_rad(b);
            assert!(
                (route.radians - gc).abs() < 1e-12,
                "{a:?} -> {b:?} on {w}x{h}: {} vs {gc}",
                route.radians
            );
            check_route(&grid, &route, a, b).unwrap();
            // Across ±180, the short way: the unwrapped travel is the wrapped difference.
            let lons = unwrapped_lons(&route);
            let travel = lons.last().unwrap() - lons[0];
            assert!((travel - wrap_deg(b.lon - a.lon)).abs() < 1e-6, "{travel}");
        }
    }
}

/// The longitude unwrapping used above tells an eastward Pacific crossing from a westward one.
#[test]
fn unwrapping_tells_the_way_round() {
    use taut_spherical::Leg;
    let route = |pts: &[(f64, f64)]| {
        let legs: Vec<Leg> = pts
            .windows(2)
            .map(|w| Leg::Great {
                from: LatLon::new(w[0].0, w[0].1),
                to: LatLon::new(w[1].0, w[1].1),
            })
            .collect();
        let radians = legs.iter().map(Leg::radians).sum();
        Route { legs, radians }
    };
    let pacific = route(&[(31.5, 122.5), (50.0, 180.0), (33.5, -118.5)]);
    let lons = unwrapped_lons(&pacific);
    assert!((lons.last().unwrap() - lons[0] - 119.0).abs() < 1e-9);
    let atlantic = route(&[(31.5, 122.5), (40.0, 60.0), (45.0, 0.0), (33.5, -118.5)]);
    let lons = unwrapped_lons(&atlantic);
    assert!((lons.last().unwrap() - lons[0] + 241.0).abs() < 1e-9);
    // A parallel leg written with unwrapped longitudes past 180.
    let legs = vec![Leg::Parallel {
        lat: 50.0,
        from_lon: 170.0,
        to_lon: 200.0,
    }];
    let lons = unwrapped_lons(&Route {
        radians: legs[0].radians(),
        legs,
    });
    assert!((lons.last().unwrap() - lons[0] - 30.0).abs() < 1e-9);
}
