//! `taut route` answers that need Spherical Anya's search, against analytic lengths on the
//! fixture maps of `fixtures/sphere/` (the cases of the shared data's `analytic_cases.json`
//! that fit a 10° grid) and, when the shared data is present, bounds on the Earth maps.
//!
//! Until the search lands (it answers `unreachable` to everything for now), the tests that
//! expect a route fail; the ones about walled-in water pass either way.

use serde_json::Value;
use taut::spherical::{EARTH_RADIUS_KM, KM_PER_NM, LatLon, Route, SearchContext, SearchOutcome};

use crate::common::{ok, route_json, sphere_fixture};

/// Lengths are compared to 1e-9 radians (6 mm on the Earth).
const TOL: f64 = 1e-9;

fn latlon(v: &Value) -> (f64, f64) {
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

fn gc(a: (f64, f64), b: (f64, f64)) -> f64 {
    LatLon::new(a.0, a.1).distance_rad(LatLon::new(b.0, b.1))
}

/// `taut route --format json` that must answer `ok`: the object, with its internal
/// consistency checked (units, legs adding up, waypoints joining the legs, the ends).
fn route_ok(map: &str, from: &str, to: &str) -> Value {
    let (v, code, err) = route_json(&["--map", map, "--from", from, "--to", to]);
    assert_eq!((code, err.as_str()), (0, ""), "{v}");
    assert_eq!(v["status"], "ok", "{from} -> {to}: {v}");
    let rad = v["radians"].as_f64().unwrap();
    let km = v["km"].as_f64().unwrap();
    assert!((km - rad * EARTH_RADIUS_KM).abs() < 1e-6, "{v}");
    assert!(
        (v["nm"].as_f64().unwrap() - km / KM_PER_NM).abs() < 1e-6,
        "{v}"
    );
    let legs = v["legs"].as_array().unwrap();
    let sum: f64 = legs.iter().map(|l| l["radians"].as_f64().unwrap()).sum();
    assert!((sum - rad).abs() < 1e-9, "legs add up: {v}");
    let wp = v["waypoints"].as_array().unwrap();
    if !legs.is_empty() {
        assert_eq!(wp.len(), legs.len() + 1, "{v}");
        for (i, l) in legs.iter().enumerate() {
            assert!(["great", "parallel"].contains(&l["kind"].as_str().unwrap()));
            assert_eq!(l["from"], wp[i], "{v}");
            assert_eq!(l["to"], wp[i + 1], "{v}");
        }
        let near = |a: (f64, f64), b: (f64, f64)| gc(a, b) < 1e-9;
        assert!(near(latlon(&wp[0]), latlon(&v["from"])), "{v}");
        assert!(near(latlon(wp.last().unwrap()), latlon(&v["to"])), "{v}");
    }
    v
}

#[test]
fn on_an_empty_sphere_the_route_is_the_great_circle() {
    let map = sphere_fixture("empty_36x18.map");
    // analytic_cases.json: empty_equator_quarter and empty_generic.
    let v = route_ok(&map, "0,0", "0,90");
    assert!((v["radians"].as_f64().unwrap() - std::f64::consts::FRAC_PI_2).abs() < TOL);
    let v = route_ok(&map, "40,-74", "57,12");
    assert!((v["radians"].as_f64().unwrap() - 0.9664908581168271).abs() < TOL);
    assert_eq!(v["legs"].as_array().unwrap().len(), 1);
    assert_eq!(v["legs"][0]["kind"], "great");
    // Any pair, across the antimeridian and near the poles too.
    for (a, b) in [
        ((35.0, 140.0), (37.0, -122.0)),
        ((-33.9, 151.2), (-12.0, -77.0)),
        ((80.0, 10.0), (75.0, -170.0)),
        ((-5.5, -25.25), (12.0, 100.0)),
        ((1.0, 2.0), (1.0, 2.0)),
    ] {
        let v = route_ok(
            &map,
            &format!("{},{}", a.0, a.1),
            &format!("{},{}", b.0, b.1),
        );
        let r = v["radians"].as_f64().unwrap();
        assert!(
            (r - gc(a, b)).abs() < TOL,
            "{a:?} -> {b:?}: {r} vs {}",
            gc(a, b)
        );
    }
}

#[test]
fn north_of_60n_blocked_the_route_follows_the_parallel_between_tangent_points() {
    let map = sphere_fixture("cap60_36x18.map");
    // cap60_blocked_endpoints_55N: great circle, 60N parallel, great circle.
    let v = route_ok(&map, "55,0", "55,90");
    assert!(
        (v["radians"].as_f64().unwrap() - 0.8450236240639002).abs() < TOL,
        "{v}"
    );
    let kinds: Vec<&str> = v["legs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["great", "parallel", "great"]);
    let wp: Vec<(f64, f64)> = v["waypoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(latlon)
        .collect();
    let expected = [
        (55.0, 0.0),
        (60.0, 34.4579522522933),
        (60.0, 55.5420477477067),
        (55.0, 90.0),
    ];
    for (w, e) in wp.iter().zip(expected) {
        assert!(
            (w.0 - e.0).abs() < 1e-6 && (w.1 - e.1).abs() < 1e-6,
            "{wp:?}"
        );
    }
    assert_eq!(v["legs"][1]["lat"].as_f64(), Some(60.0));
    assert!((v["legs"][1]["dlon"].as_f64().unwrap() - 21.0840954954134).abs() < 1e-6);
    // cap60_blocked_endpoints_on_boundary: along the parallel all the way.
    let v = route_ok(&map, "60,0", "60,90");
    assert!(
        (v["radians"].as_f64().unwrap() - 0.7853981633974485).abs() < TOL,
        "{v}"
    );
    // cap60_blocked_endpoints_50N_unblocked: the great circle peaks below 60N.
    let v = route_ok(&map, "50,0", "50,90");
    assert!(
        (v["radians"].as_f64().unwrap() - 0.9436653474154129).abs() < TOL,
        "{v}"
    );
    assert_eq!(v["legs"].as_array().unwrap().len(), 1);
    // The text format reports the same numbers.
    let out = ok(&["route", "--map", &map, "--from", "55,0", "--to", "55,90"]);
    assert!(
        out.starts_with("distance 5383.646 km 2906.936 nm 0.8450236241 rad\n"),
        "{out}"
    );
    assert!(
        out.contains("\nlegs 3 great 2 parallel 1\npassages -\navoided -\nwaypoints 4\n"),
        "{out}"
    );
}

#[test]
fn around_the_antimeridian_island_by_its_corners() {
    let map = sphere_fixture("tiny_36x18.map");
    // The island covers 10S-10N, 170E-170W: the equator is blocked; the route turns at
    // (10N, 170E) and (10N, 170W), or their mirror images in the south (same length).
    let v = route_ok(&map, "0,160", "0,-160");
    let expected = 2.0 * gc((0.0, 160.0), (10.0, 170.0)) + gc((10.0, 170.0), (10.0, -170.0));
    assert!(
        (v["radians"].as_f64().unwrap() - expected).abs() < TOL,
        "{v}"
    );
    let wp: Vec<(f64, f64)> = v["waypoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(latlon)
        .collect();
    assert_eq!(wp.len(), 4, "{v}");
    assert!(
        (wp[1].0.abs() - 10.0).abs() < 1e-9 && (wp[1].1 - 170.0).abs() < 1e-9,
        "{wp:?}"
    );
    assert!(
        (wp[2].0.abs() - 10.0).abs() < 1e-9 && (wp[2].1 + 170.0).abs() < 1e-9,
        "{wp:?}"
    );
    // Its GeoJSON line is cut at the antimeridian.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.json");
    route_json(&[
        "--map",
        &map,
        "--from",
        "0,160",
        "--to",
        "0,-160",
        "-o",
        file.to_str().unwrap(),
    ]);
    let g: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let route = g["features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["properties"]["name"] == "route")
        .expect("a route feature");
    assert_eq!(route["geometry"]["type"], "MultiLineString");
    // Its picture draws it in two pieces.
    let svg = dir.path().join("r.svg");
    route_json(&[
        "--map",
        &map,
        "--from",
        "0,160",
        "--to",
        "0,-160",
        "-o",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("<polyline class=\"path\"").count(), 2);
}

#[test]
fn land_endpoints_are_snapped_before_the_search() {
    let map = sphere_fixture("tiny_36x18.map");
    // 45N 35E is on the continent; the route starts from 45N 45E.
    let v = route_ok(&map, "45,35", "45,60");
    assert_eq!(latlon(&v["waypoints"][0]), (45.0, 45.0));
    assert!((v["radians"].as_f64().unwrap() - gc((45.0, 45.0), (45.0, 60.0))).abs() < TOL);
}

#[test]
fn walled_in_water_is_unreachable_but_its_inside_is_connected() {
    let map = sphere_fixture("tiny_36x18.map");
    let (v, code, _) = route_json(&["--map", &map, "--from", "-25,-135", "--to", "0,0"]);
    assert_eq!(
        (code, v["status"].as_str()),
        (0, Some("unreachable")),
        "{v}"
    );
    let (v, code, _) = route_json(&["--map", &map, "--from", "0,0", "--to", "-25,-135"]);
    assert_eq!(
        (code, v["status"].as_str()),
        (0, Some("unreachable")),
        "{v}"
    );
    // Within the lake's one cell.
    let v = route_ok(&map, "-25,-135", "-22,-132");
    assert!((v["radians"].as_f64().unwrap() - gc((-25.0, -135.0), (-22.0, -132.0))).abs() < TOL);
}

/// On the Earth at 1°: every port pair of the shared data is `ok`, no shorter than the great
/// circle and no longer than the 8-connected Dijkstra path between the same cell centres
/// (`dijkstra8_km`: great-circle moves between centres, no corner cutting, so each of its
/// moves is a legal arc and the optimum cannot be longer). Both are rounded to 0.1 km.
#[test]
fn earth_port_pairs_lie_between_the_great_circle_and_dijkstra() {
    let Some(data) = taut_testdata::shared_data("route port pairs") else {
        return;
    };
    let dir = data.join("sphere");
    let text = std::fs::read_to_string(dir.join("pairs_snapped.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut grids = std::collections::HashMap::new();
    let mut ctx = SearchContext::new();
    let mut route = Route::default();
    let mut checked = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        if f[col("res")] != "1deg" {
            continue;
        }
        let map = f[col("map")];
        let grid = grids.entry(map.to_owned()).or_insert_with(|| {
            taut_cli::load_sphere(&dir.join(map), false, &mut Vec::new()).unwrap()
        });
        let num = |name: &str| f[col(name)].parse::<f64>().unwrap();
        let from = LatLon::new(num("s_lat"), num("s_lon"));
        let to = LatLon::new(num("g_lat"), num("g_lon"));
        let outcome = ctx.search(grid, from, to, &mut route).unwrap();
        let what = format!("{map} pair {}", f[col("id")]);
        assert_eq!(outcome, SearchOutcome::Found, "{what}");
        let km = route.km();
        assert!(
            km >= num("gc_km") - 0.06,
            "{what}: {km} < gc {}",
            num("gc_km")
        );
        assert!(
            km <= num("dijkstra8_km") + 0.06,
            "{what}: {km} > dijkstra8 {}",
            num("dijkstra8_km")
        );
        checked += 1;
    }
    assert_eq!(checked, 74);
}
