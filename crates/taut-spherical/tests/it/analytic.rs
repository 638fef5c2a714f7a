//! Every case of `../shared/data/sphere/analytic_cases.json` (exact optima on the unit sphere
//! for small obstacle layouts), reproduced by the search to 1e-9 rad, with a legal route whose
//! length is the sum of its legs. Skipped loudly when the shared data is absent (a failure
//! under `TAUT_REQUIRE_DATA=1`).
//!
//! Each case's obstacles are described in words (its `free` field); every description is
//! mapped below to a grid of 1° cells (360 × 180) on which the obstacles are exactly
//! grid-aligned. A description not listed is a failure, so a new case cannot be skipped.

use crate::common::shared_sphere_data;
use serde_json::Value;
use taut_spherical::check::check_route;
use taut_spherical::{LatLon, Leg, Route, SearchContext, SearchOutcome, SphereGrid};

/// Lengths must match the analytic optimum to this, radians.
const TOL: f64 = 1e-9;
/// Waypoints must match the analytic turning points to this, degrees.
const POINT_TOL_DEG: f64 = 1e-7;

/// The 1° grid for a case's `free` description. Row r spans latitudes [89 - r, 90 - r],
/// column c longitudes [c - 180, c - 179].
fn grid_for(free: &str) -> SphereGrid {
    let f: fn(u32, u32) -> bool = match free {
        "all" => |_, _| true,
        // Cells north of 60N (rows 0..30) blocked.
        "lat <= 60" | "lat <= 60 (cells north of 60N blocked)" => |r, _| r >= 30,
        // Only the cap north of 60N free.
        "lat >= 60" => |r, _| r < 30,
        // The wall: column 180 (lon [0, 1]), rows 60..120 (lat [-30, 30]).
        "all except cells lon[0,1] x lat[-30,30]" => |r, c| !(c == 180 && (60..120).contains(&r)),
        other => panic!("analytic case with an unknown obstacle description {other:?}"),
    };
    SphereGrid::from_fn(360, 180, f).unwrap()
}

fn point(v: &Value) -> LatLon {
    LatLon::new(v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

fn close(a: LatLon, b: LatLon) -> bool {
    let a = a.normalized();
    let b = b.normalized();
    let dlon = (a.lon - b.lon).abs();
    (a.lat - b.lat).abs() <= POINT_TOL_DEG && dlon.min(360.0 - dlon) <= POINT_TOL_DEG
}

#[test]
fn analytic_cases_are_reproduced() {
    let Some(dir) = shared_sphere_data("analytic_cases_are_reproduced") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("analytic_cases.json")).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert!(cases.len() >= 7, "only {} cases", cases.len());
    let mut ctx = SearchContext::new();
    let mut route = Route::default();
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let grid = grid_for(case["free"].as_str().unwrap());
        let (from, to) = (point(&case["start"]), point(&case["goal"]));
        let optimal = case["optimal_rad"].as_f64().unwrap();
        let mut fail = |m: String| failures.push(format!("{name}: {m}"));
        match ctx.search(&grid, from, to, &mut route) {
            Ok(SearchOutcome::Found) => {}
            other => {
                fail(format!("search returned {other:?}"));
                continue;
            }
        }
        if (route.radians - optimal).abs() > TOL {
            fail(format!("length {} rad, expected {optimal}", route.radians));
        }
        if let Err(v) = check_route(&grid, &route, from, to) {
            fail(format!("illegal route: {v} in {route:?}"));
        }
        let legs = route.legs_radians();
        if (route.radians - legs).abs() > 1e-12 * legs.max(1.0) {
            fail(format!("length {} but legs sum to {legs}", route.radians));
        }
        let waypoints = route.waypoints();
        if let Some(tangents) = case.get("tangent_points") {
            // The route turns at the two tangent points and follows the parallel between them.
            let (t1, t2) = (point(&tangents[0]), point(&tangents[1]));
            for t in [t1, t2] {
                if !waypoints.iter().any(|&w| close(w, t)) {
                    fail(format!(
                        "no waypoint at the tangent point {t:?}: {waypoints:?}"
                    ));
                }
            }
            let along = route.legs.iter().any(|leg| match *leg {
                Leg::Parallel {
                    lat,
                    from_lon,
                    to_lon,
                } => close(LatLon::new(lat, from_lon), t1) && close(LatLon::new(lat, to_lon), t2),
                Leg::Great { .. } => false,
            });
            if !along {
                fail(format!(
                    "no parallel leg from {t1:?} to {t2:?}: {:?}",
                    route.legs
                ));
            }
        }
        if let Some(path) = case.get("path") {
            // The route turns at the given corners, or at their mirror images (the file notes
            // the symmetric path of equal length).
            let path: Vec<LatLon> = path.as_array().unwrap().iter().map(point).collect();
            let mirror: Vec<LatLon> = path.iter().map(|p| LatLon::new(-p.lat, p.lon)).collect();
            let has = |pts: &[LatLon]| pts.iter().all(|&p| waypoints.iter().any(|&w| close(w, p)));
            if !has(&path) && !has(&mirror) {
                fail(format!(
                    "waypoints {waypoints:?} miss the corners of {path:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The mapping of descriptions to grids puts the obstacles where the descriptions say.
#[test]
fn case_grids_match_their_descriptions() {
    let cap = grid_for("lat <= 60");
    assert!(!cap.is_free_point(LatLon::new(60.5, 10.0)));
    assert!(cap.is_free_point(LatLon::new(59.5, 10.0)));
    assert!(cap.is_free_point(LatLon::new(60.0, 10.0)));
    let only = grid_for("lat >= 60");
    assert!(only.is_free_point(LatLon::new(60.5, 10.0)));
    assert!(!only.is_free_point(LatLon::new(59.5, 10.0)));
    let wall = grid_for("all except cells lon[0,1] x lat[-30,30]");
    assert_eq!(wall.free_cells(), 360 * 180 - 60);
    for (lat, lon) in [(29.5, 0.5), (-29.5, 0.5), (0.0, 0.5)] {
        assert!(!wall.is_free_point(LatLon::new(lat, lon)), "({lat}, {lon})");
    }
    for (lat, lon) in [(30.5, 0.5), (-30.5, 0.5), (0.0, 1.5), (0.0, -0.5)] {
        assert!(wall.is_free_point(LatLon::new(lat, lon)), "({lat}, {lon})");
    }
    assert_eq!(grid_for("all").free_cells(), 360 * 180);
}

/// The optimal routes the file describes, built by hand, pass the checker on the grids above
/// and have the file's lengths: the grids and the checker agree with the analytic geometry,
/// whatever the search does.
#[test]
fn described_optimal_routes_are_legal() {
    let Some(dir) = shared_sphere_data("described_optimal_routes_are_legal") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("analytic_cases.json")).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    for case in json["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let grid = grid_for(case["free"].as_str().unwrap());
        let (from, to) = (point(&case["start"]), point(&case["goal"]));
        let great = |a: LatLon, b: LatLon| Leg::Great { from: a, to: b };
        let legs = if let Some(t) = case.get("tangent_points") {
            let (t1, t2) = (point(&t[0]), point(&t[1]));
            vec![
                great(from, t1),
                Leg::Parallel {
                    lat: t1.lat,
                    from_lon: t1.lon,
                    to_lon: t2.lon,
                },
                great(t2, to),
            ]
        } else if let Some(path) = case.get("path") {
            let path: Vec<LatLon> = path.as_array().unwrap().iter().map(point).collect();
            path.windows(2).map(|w| great(w[0], w[1])).collect()
        } else if name == "cap60_blocked_endpoints_on_boundary" {
            vec![Leg::Parallel {
                lat: from.lat,
                from_lon: from.lon,
                to_lon: to.lon,
            }]
        } else {
            vec![great(from, to)]
        };
        let radians = legs.iter().map(Leg::radians).sum();
        let route = Route { legs, radians };
        let optimal = case["optimal_rad"].as_f64().unwrap();
        assert!(
            (radians - optimal).abs() < TOL,
            "{name}: {radians} vs {optimal}"
        );
        if let Err(v) = check_route(&grid, &route, from, to) {
            panic!("{name}: {v}");
        }
        // And the unconstrained great circle is illegal wherever the file says it is longer.
        if let Some(gc) = case.get("unconstrained_great_circle_rad") {
            assert!(gc.as_f64().unwrap() < optimal - 1e-6);
            let direct = Route {
                legs: vec![great(from, to)],
                radians: from.distance_rad(to),
            };
            assert!(check_route(&grid, &direct, from, to).is_err(), "{name}");
        }
    }
}
