//! `taut route` and sphere pictures, on the small fixture maps of `fixtures/sphere/` (no
//! shared data needed). Nothing here depends on the route the search finds: the tests that
//! do are in `route_search.rs`.
//!
//! - Argument errors are one line and the documented exit code (2 for usage, 1 for an
//!   invalid query), never a panic; negative and spaced coordinates are accepted.
//! - The JSON object has every documented key, for each status; an invalid query still
//!   prints it (status `invalid`, `error`) and exits 1.
//! - Snapping keeps sea points and points on a sea cell's boundary, moves land points to the
//!   centre of the nearest sea cell by the analytic distance, and `--no-snap` refuses them.
//! - GeoJSON splitting at the antimeridian (pure functions, synthetic lines and routes) and
//!   the file `--geojson` writes: valid RFC 7946 structure, `[lon, lat]` in range.
//! - Pictures: `--render` and `taut render --sphere` in both formats, and a synthetic route
//!   across the antimeridian drawn as two polylines.

use std::io::Cursor;

use serde_json::Value;
use taut::render::flat_map::{DENSIFY_DEG, densify_route, split_antimeridian};
use taut::render::geojson::route_geojson;
use taut::render::sphere::{End, SphereScene, render_sphere};
use taut::render::{ImageFormat, Layout};
use taut::spherical::geo::crossing_lat_through;
use taut::spherical::{EARTH_RADIUS_KM, LatLon, Leg, Route, SeaMap, SphereGrid};
use taut_cli::load_sphere;

use crate::common::{fails, ok, route_json, sphere_fixture, taut};

/// The keys every `taut route --format json` object has (`error` comes on top when the
/// query is invalid).
const KEYS: [&str; 22] = [
    "status",
    "km",
    "nm",
    "radians",
    "snap_km_from",
    "snap_km_to",
    "time_us",
    "from",
    "to",
    "from_given",
    "to_given",
    "legs",
    "waypoints",
    "expanded",
    "generated",
    "passages",
    "avoided",
    "from_port",
    "to_port",
    "speed_knots",
    "eta_hours",
    "eta_days",
];

fn tiny() -> String {
    sphere_fixture("tiny_36x18.map")
}

/// A point at sea on the tiny map (row 9, column 15).
const SEA: &str = "-5,-25";
/// A point on the tiny map's continent (row 4, column 21): its nearest sea cell is (4, 22),
/// centred on 45N 45E.
const LAND: &str = "45,35";
/// The centre of the lake: a sea cell walled in by land on all eight sides.
const LAKE: &str = "-25,-135";

fn has_keys(v: &Value, invalid: bool) {
    for k in KEYS {
        assert!(v.get(k).is_some(), "missing {k}: {v}");
    }
    assert_eq!(v.get("error").is_some(), invalid, "{v}");
    let n = v.as_object().unwrap().len();
    assert_eq!(n, KEYS.len() + usize::from(invalid), "no other keys: {v}");
}

fn latlon(v: &Value) -> (f64, f64) {
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

#[test]
fn usage_errors_exit_2_and_invalid_queries_exit_1_with_one_line() {
    let map = tiny();
    let route = |extra: &[&str]| -> Vec<String> {
        ["route", "--map", &map]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let run = |args: Vec<String>, code: i32| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&a, code)
    };
    // Usage errors: the parser's, before anything is read.
    run(route(&["--from", SEA]), 2);
    run(
        vec![
            "route".into(),
            "--from".into(),
            SEA.into(),
            "--to".into(),
            SEA.into(),
        ],
        2,
    );
    let e = run(route(&["--from", SEA, "--to", SEA, "--format", "xml"]), 2);
    assert!(e.contains("--format"), "{e}");
    let e = run(route(&["--from", SEA, "--to", SEA, "-o", "x.jpg"]), 2);
    assert!(e.contains(".svg or .png"), "{e}");
    run(route(&["--from", SEA, "--to", SEA, "--bogus"]), 2);
    run(route(&["--from", SEA, "--to", SEA, "--max-px", "0"]), 2);
    // Invalid queries: one line naming what is wrong, exit 1.
    for (bad, what) in [
        ("abc", "not a LAT,LON point"),
        ("", "expected two numbers"),
        ("95,0", "latitude 95 is outside [-90, 90]"),
        ("-90.5,0", "latitude -90.5 is outside"),
        ("0,180.5", "longitude 180.5 is outside [-180, 180]"),
        ("nan,0", "not a finite number"),
        ("0,-inf", "not a finite number"),
        ("1,2,3", "expected two numbers"),
        ("10E,5N", "expected latitude first"),
        ("-10S,5", "both a sign and a hemisphere"),
        ("0x1,0", "is not a number"),
    ] {
        let e = run(route(&["--from", bad, "--to", SEA]), 1);
        assert!(e.starts_with("taut: invalid start: "), "{bad:?}: {e}");
        assert!(e.contains(what), "{bad:?}: {e}");
        let e = run(route(&["--from", SEA, "--to", bad]), 1);
        assert!(e.starts_with("taut: invalid goal: "), "{bad:?}: {e}");
    }
    let e = fails(
        &["route", "--map", "nope.map", "--from", SEA, "--to", SEA],
        1,
    );
    assert!(e.contains("nope.map"), "{e}");
    let bad_map = format!(
        "{}/../../fixtures/bad/map_truncated.map",
        env!("CARGO_MANIFEST_DIR")
    );
    let e = fails(&["route", "--map", &bad_map, "--from", SEA, "--to", SEA], 1);
    assert!(e.contains("map_truncated.map"), "{e}");
    let e = run(route(&["--from", LAND, "--to", SEA, "--no-snap"]), 1);
    assert!(
        e.contains("is on land") && e.contains("45.000000,35.000000"),
        "{e}"
    );
    let dir = tempfile::tempdir().unwrap();
    let nowhere = dir.path().join("missing/r.json");
    let e = run(
        route(&["--from", SEA, "--to", SEA, "-o", nowhere.to_str().unwrap()]),
        1,
    );
    assert!(e.starts_with("taut: cannot write"), "{e}");
}

#[test]
fn coordinates_may_be_negative_spaced_bracketed_or_lettered() {
    let map = tiny();
    for (from, expect) in [
        ("-33.9,18.4", (-33.9, 18.4)),
        (" -33.9 , 18.4 ", (-33.9, 18.4)),
        ("-33.9 18.4", (-33.9, 18.4)),
        ("[-33.9, 18.4]", (-33.9, 18.4)),
        ("(-33.9,18.4)", (-33.9, 18.4)),
        ("33.9S, 18.4E", (-33.9, 18.4)),
        ("33.9°s,18.4°e", (-33.9, 18.4)),
        ("5n,25w", (5.0, -25.0)),
        ("+5,-2.5e1", (5.0, -25.0)),
    ] {
        let (v, code, err) = route_json(&["--map", &map, "--from", from, "--to", SEA]);
        assert_eq!((code, err.as_str()), (0, ""), "{from:?}: {v}");
        assert_eq!(latlon(&v["from_given"]), expect, "{from:?}");
    }
    // `--from=...` works too, and the text format prints nothing on stderr.
    let out = ok(&["route", "--map", &map, "--from=-33.9,18.4", "--to", SEA]);
    assert!(
        out.contains("start -33.900000,18.400000 snap_km 0.000\n"),
        "{out}"
    );
}

#[test]
fn json_has_every_key_for_unreachable_and_invalid() {
    let map = tiny();
    // The lake is walled in: unreachable whatever the search (and exit 0).
    let (v, code, err) = route_json(&["--map", &map, "--from", LAKE, "--to", SEA]);
    assert_eq!((code, err.as_str()), (0, ""), "{v}");
    has_keys(&v, false);
    assert_eq!(v["status"], "unreachable");
    for k in ["km", "nm", "radians"] {
        assert!(v[k].is_null(), "{k}: {v}");
    }
    assert_eq!(v["legs"], serde_json::json!([]));
    assert_eq!(v["waypoints"], serde_json::json!([]));
    assert!(v["time_us"].as_f64().unwrap() >= 0.0);
    assert_eq!(latlon(&v["from"]), (-25.0, -135.0));
    assert_eq!(v["snap_km_from"].as_f64(), Some(0.0));
    assert!(v["expanded"].is_u64() && v["generated"].is_u64(), "{v}");

    // Invalid: the object is printed, the error is on stderr too, exit 1.
    for args in [
        vec!["--map", &map, "--from", "91,0", "--to", SEA],
        vec!["--map", &map, "--from", LAND, "--to", SEA, "--no-snap"],
        vec!["--map", "nope.map", "--from", SEA, "--to", SEA],
    ] {
        let (v, code, err) = route_json(&args);
        assert_eq!(code, 1, "{args:?}");
        has_keys(&v, true);
        assert_eq!(v["status"], "invalid");
        let e = v["error"].as_str().unwrap();
        assert_eq!(err, format!("taut: {e}\n"), "{args:?}");
        for k in [
            "km",
            "nm",
            "radians",
            "time_us",
            "from",
            "to",
            "snap_km_from",
        ] {
            assert!(v[k].is_null(), "{k}: {v}");
        }
    }
    // What was read before the failure is kept.
    let (v, _, _) = route_json(&["--map", "nope.map", "--from", SEA, "--to", "1,2"]);
    assert_eq!(latlon(&v["from_given"]), (-5.0, -25.0));
    assert_eq!(latlon(&v["to_given"]), (1.0, 2.0));
}

#[test]
fn snapping_keeps_sea_points_and_moves_land_points_to_the_nearest_sea_centre() {
    let map = tiny();
    // At sea, and on the boundary between land (row 6) and sea (row 7): kept as given.
    for p in [SEA, "20,10", "60,25"] {
        let (v, code, _) = route_json(&["--map", &map, "--from", p, "--to", SEA]);
        assert_eq!(code, 0, "{v}");
        assert_eq!(v["snap_km_from"].as_f64(), Some(0.0), "{p}: {v}");
        assert_eq!(v["from"], v["from_given"], "{p}");
    }
    // On land: the centre of cell (row 4, column 22), 45N 45E, at the analytic distance.
    let (v, code, _) = route_json(&["--map", &map, "--from", SEA, "--to", LAND]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(latlon(&v["to"]), (45.0, 45.0));
    assert_eq!(latlon(&v["to_given"]), (45.0, 35.0));
    let expected = LatLon::new(45.0, 35.0).distance_rad(LatLon::new(45.0, 45.0)) * EARTH_RADIUS_KM;
    let got = v["snap_km_to"].as_f64().unwrap();
    assert!((got - expected).abs() < 1e-9, "{got} vs {expected}");
    assert!((got - 785.767).abs() < 1e-3, "{got}");
    // The text format says the same.
    let out = ok(&["route", "--map", &map, "--from", SEA, "--to", LAND]);
    assert!(
        out.contains("goal 45.000000,45.000000 snap_km 785.767 given 45.000000,35.000000\n"),
        "{out}"
    );
    // A map without sea: nothing to snap to.
    let dir = tempfile::tempdir().unwrap();
    let land = dir.path().join("land.map");
    std::fs::write(&land, "type octile\nheight 2\nwidth 4\nmap\n@@@@\n@@@@\n").unwrap();
    let (v, code, _) = route_json(&[
        "--map",
        land.to_str().unwrap(),
        "--from",
        "0,0",
        "--to",
        "1,1",
    ]);
    assert_eq!(code, 1);
    assert!(v["error"].as_str().unwrap().contains("has no sea"), "{v}");
}

#[test]
fn the_text_format_has_one_item_a_line() {
    let out = ok(&["route", "--map", &tiny(), "--from", LAKE, "--to", LAND]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "{out}");
    assert_eq!(lines[0], "unreachable");
    assert_eq!(lines[1], "start -25.000000,-135.000000 snap_km 0.000");
    assert!(lines[2].starts_with("goal 45.000000,45.000000 snap_km 785.767 given"));
    let key = |l: &str| l.split(' ').next().unwrap().to_owned();
    assert_eq!(
        lines[3..].iter().map(|l| key(l)).collect::<Vec<_>>(),
        [
            "time_us",
            "expanded",
            "generated",
            "legs",
            "passages",
            "avoided",
            "waypoints"
        ]
    );
    assert!(
        lines[3].split_once('.').unwrap().1.len() == 3,
        "{}",
        lines[3]
    );
    assert_eq!(lines[6], "legs 0 great 0 parallel 0");
    assert_eq!(lines[7], "passages -");
    assert_eq!(lines[8], "avoided -");
    assert_eq!(lines[9], "waypoints 0");
}

#[test]
fn transposed_maps_read_the_same_sphere() {
    let normal = load_sphere(tiny().as_ref(), false, &mut Vec::new()).unwrap();
    let mut warnings = Vec::new();
    let t_path = sphere_fixture("tiny_36x18_T.map");
    let transposed = load_sphere(t_path.as_ref(), true, &mut warnings).unwrap();
    assert!(warnings.is_empty());
    let reference = SphereGrid::read_map(&t_path, true).unwrap();
    assert_eq!((transposed.width(), transposed.height()), (36, 18));
    for r in 0..18 {
        for c in 0..36 {
            assert_eq!(transposed.is_free(r, c), normal.is_free(r, c), "({r}, {c})");
            assert_eq!(reference.is_free(r, c), normal.is_free(r, c), "({r}, {c})");
        }
    }
    // Read without --transposed, a _T map is taller than wide: one warning line.
    load_sphere(t_path.as_ref(), false, &mut warnings).unwrap();
    let w = String::from_utf8(warnings).unwrap();
    assert!(
        w.starts_with("taut: warning: ") && w.contains("--transposed"),
        "{w}"
    );
    assert_eq!(w.lines().count(), 1);
    // End to end: the same answer from both files.
    let a = route_json(&["--map", &tiny(), "--from", LAND, "--to", LAKE]).0;
    let b = route_json(&[
        "--map",
        &t_path,
        "--transposed",
        "--from",
        LAND,
        "--to",
        LAKE,
    ])
    .0;
    for k in ["status", "from", "to", "snap_km_from", "snap_km_to", "legs"] {
        assert_eq!(a[k], b[k], "{k}");
    }
}

// ---------------------------------------------------------------------------------------
// GeoJSON

/// Checks the RFC 7946 structure of a FeatureCollection and returns every position.
fn check_geojson(v: &Value) -> Vec<[f64; 2]> {
    assert_eq!(v["type"], "FeatureCollection", "{v}");
    let mut positions = Vec::new();
    let mut position = |p: &Value| {
        let a = p.as_array().expect("a position is an array");
        assert_eq!(a.len(), 2, "{p}");
        let (lon, lat) = (a[0].as_f64().unwrap(), a[1].as_f64().unwrap());
        assert!((-180.0..=180.0).contains(&lon), "lon {lon}");
        assert!((-90.0..=90.0).contains(&lat), "lat {lat}");
        positions.push([lon, lat]);
    };
    for f in v["features"].as_array().expect("features") {
        assert_eq!(f["type"], "Feature");
        assert!(f["properties"].is_object());
        let g = &f["geometry"];
        let c = &g["coordinates"];
        match g["type"].as_str().unwrap() {
            "Point" => position(c),
            "MultiPoint" => c.as_array().unwrap().iter().for_each(&mut position),
            "LineString" => {
                assert!(c.as_array().unwrap().len() >= 2);
                c.as_array().unwrap().iter().for_each(&mut position);
            }
            "MultiLineString" => {
                for line in c.as_array().unwrap() {
                    assert!(line.as_array().unwrap().len() >= 2);
                    line.as_array().unwrap().iter().for_each(&mut position);
                }
            }
            other => panic!("unexpected geometry {other}"),
        }
    }
    positions
}

fn feature<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    v["features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["properties"]["name"] == name)
}

#[test]
fn splitting_a_synthetic_line_across_the_antimeridian() {
    // East across +180 at lat 20 -> 21 (crossing at 20.5), back west, and east again.
    let line: Vec<LatLon> = [
        (20.0, 178.0),
        (20.0, 179.5),
        (21.0, -179.5),
        (22.0, -179.0),
        (22.0, 179.0),
        (23.0, 179.5),
        (24.0, -179.5),
    ]
    .iter()
    .map(|&(lat, lon)| LatLon::new(lat, lon))
    .collect();
    let parts = split_antimeridian(&line);
    assert_eq!(
        parts,
        vec![
            vec![[178.0, 20.0], [179.5, 20.0], [180.0, 20.5]],
            vec![
                [-180.0, 20.5],
                [-179.5, 21.0],
                [-179.0, 22.0],
                [-180.0, 22.0]
            ],
            vec![[180.0, 22.0], [179.0, 22.0], [179.5, 23.0], [180.0, 23.5]],
            vec![[-180.0, 23.5], [-179.5, 24.0]],
        ]
    );
    // No part jumps across the map.
    for part in &parts {
        for w in part.windows(2) {
            assert!((w[1][0] - w[0][0]).abs() < 180.0, "{part:?}");
        }
    }
}

/// A synthetic route around the fixture's antimeridian island: two corners and the arc
/// between them, which crosses 180.
fn island_route() -> Route {
    let a = LatLon::new(0.0, 160.0);
    let b = LatLon::new(10.0, 170.0);
    let c = LatLon::new(10.0, -170.0);
    let d = LatLon::new(0.0, -160.0);
    let legs = vec![
        Leg::Great { from: a, to: b },
        Leg::Great { from: b, to: c },
        Leg::Great { from: c, to: d },
        Leg::Parallel {
            lat: 0.0,
            from_lon: -160.0,
            to_lon: -150.0,
        },
    ];
    let mut route = Route { legs, radians: 0.0 };
    route.radians = route.legs_radians();
    route
}

fn end(lat: f64, lon: f64) -> End {
    End {
        point: LatLon::new(lat, lon),
        given: None,
        snap_km: 0.0,
    }
}

#[test]
fn a_route_across_the_antimeridian_is_a_multilinestring_in_lon_lat_order() {
    let route = island_route();
    let from = End {
        point: LatLon::new(0.0, 160.0),
        given: Some(LatLon::new(1.0, 159.0)),
        snap_km: 157.0,
    };
    let to = end(0.0, -150.0);
    let doc = route_geojson(Some(&route), &from, &to, &["suez".to_owned()]);
    // Through text, as a file would be.
    let v: Value = serde_json::from_str(&serde_json::to_string(&doc).unwrap()).unwrap();
    check_geojson(&v);
    let r = feature(&v, "route").expect("route feature");
    assert_eq!(r["geometry"]["type"], "MultiLineString");
    let parts = r["geometry"]["coordinates"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    let first = parts[0].as_array().unwrap();
    let second = parts[1].as_array().unwrap();
    // [lon, lat]: the route starts at 0N 160E and ends at 0N 150W.
    assert_eq!(first[0], serde_json::json!([160.0, 0.0]));
    assert_eq!(second.last().unwrap(), &serde_json::json!([-150.0, 0.0]));
    // The cut: +180 then -180 at the same latitude, the great circle's own at 180.
    let (end0, start1) = (first.last().unwrap(), &second[0]);
    assert_eq!(
        (end0[0].as_f64(), start1[0].as_f64()),
        (Some(180.0), Some(-180.0))
    );
    assert_eq!(end0[1], start1[1]);
    let exact = crossing_lat_through(
        LatLon::new(10.0, 170.0).to_vec(),
        LatLon::new(10.0, -170.0).to_vec(),
        std::f64::consts::PI,
    )
    .to_degrees();
    assert!(
        (end0[1].as_f64().unwrap() - exact).abs() < 1e-4,
        "{end0} vs {exact}"
    );
    assert!(exact > 10.0, "the arc bulges poleward");
    // Densified: no step longer than the promise.
    let pts = densify_route(&route, DENSIFY_DEG);
    for w in pts.windows(2) {
        assert!(w[0].distance_rad(w[1]).to_degrees() <= DENSIFY_DEG + 1e-9);
    }
    let p = &r["properties"];
    assert!((p["radians"].as_f64().unwrap() - route.radians).abs() < 1e-15);
    assert!((p["km"].as_f64().unwrap() - route.km()).abs() < 1e-9);
    assert!((p["nm"].as_f64().unwrap() - route.nm()).abs() < 1e-9);
    assert_eq!(p["passages"], serde_json::json!(["suez"]));
    // Waypoints, start, goal and the point as given.
    let w = feature(&v, "waypoints").unwrap();
    assert_eq!(w["geometry"]["coordinates"].as_array().unwrap().len(), 5);
    assert_eq!(
        feature(&v, "start (given)").unwrap()["geometry"]["coordinates"],
        serde_json::json!([159.0, 1.0])
    );
    assert_eq!(
        feature(&v, "start").unwrap()["properties"]["snap_km"],
        157.0
    );
    assert!(feature(&v, "goal (given)").is_none());
}

#[test]
fn the_geojson_file_of_the_cli_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.geojson");
    let f = file.to_str().unwrap();
    let (v, code, _) = route_json(&[
        "--map",
        &tiny(),
        "--from",
        LAND,
        "--to",
        "-33.9,170",
        "-o",
        f,
    ]);
    assert_eq!(code, 0, "{v}");
    let text = std::fs::read_to_string(&file).unwrap();
    let g: Value = serde_json::from_str(&text).expect("the file is JSON");
    check_geojson(&g);
    let at = |name: &str| feature(&g, name).unwrap()["geometry"]["coordinates"].clone();
    assert_eq!(at("start"), serde_json::json!([45.0, 45.0]));
    assert_eq!(at("start (given)"), serde_json::json!([35.0, 45.0]));
    assert_eq!(at("goal"), serde_json::json!([170.0, -33.9]));
    assert!(feature(&g, "goal (given)").is_none());
    // With a route (once the search finds one), its length is the JSON's.
    if let Some(r) = feature(&g, "route") {
        assert_eq!(r["properties"]["km"], v["km"]);
    }
}

// ---------------------------------------------------------------------------------------
// Pictures

fn decode(bytes: &[u8]) -> (u32, u32) {
    let dec = png::Decoder::new(Cursor::new(bytes));
    let reader = dec.read_info().unwrap();
    let info = reader.info();
    (info.width, info.height)
}

#[test]
fn route_pictures_in_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("r.svg");
    let png_file = dir.path().join("r.PNG");
    for out in [&svg, &png_file] {
        let (v, code, _) = route_json(&[
            "--map",
            &tiny(),
            "--from",
            LAND,
            "--to",
            SEA,
            "-o",
            out.to_str().unwrap(),
            "--max-px",
            "720",
        ]);
        assert_eq!(code, 0, "{v}");
    }
    // 20 px per cell: 36 x 18 cells and 6 px margins.
    let l = Layout::fit(36, 18, 720, None).unwrap();
    assert_eq!((l.width, l.height), (732, 372));
    assert_eq!(decode(&std::fs::read(&png_file).unwrap()), (732, 372));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed SVG");
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(c))
            .count()
    };
    assert_eq!(
        (class("map"), class("start"), class("goal"), class("given")),
        (1, 1, 1, 1)
    );
    // The start is where 45N 45E projects: x = 225/360 * 36, y = 45/180 * 18.
    let start = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("start"))
        .unwrap();
    let circle = start.first_element_child().unwrap();
    assert_eq!(circle.attribute("cx"), Some("22.5"));
    assert_eq!(circle.attribute("cy"), Some("4.5"));
}

#[test]
fn a_synthetic_route_across_the_antimeridian_draws_two_polylines() {
    let grid = SphereGrid::read_map(tiny(), false).unwrap();
    let route = island_route();
    let scene = SphereScene {
        grid: &grid,
        route: Some(&route),
        from: end(0.0, 160.0),
        to: end(0.0, -150.0),
    };
    let layout = Layout::fit(36, 18, 360, None).unwrap();
    let svg = render_sphere(&scene, &layout, ImageFormat::Svg, "synthetic").unwrap();
    let text = String::from_utf8(svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let lines: Vec<Vec<(f64, f64)>> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("class") == Some("path"))
        .map(|n| {
            n.attribute("points")
                .unwrap()
                .split(' ')
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect();
    assert_eq!(lines.len(), 2);
    // West part: from 160E (x = 34) to the east edge (x = 36); east part from x = 0.
    assert_eq!(lines[0][0], (34.0, 9.0));
    assert_eq!(lines[0].last().unwrap().0, 36.0);
    assert_eq!(lines[1][0].0, 0.0);
    assert_eq!(*lines[1].last().unwrap(), (3.0, 9.0));
    // Three turning points (the two corners and the start of the parallel leg).
    let turns = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("turns"))
        .unwrap();
    assert_eq!(
        turns
            .children()
            .filter(|n| n.has_tag_name("circle"))
            .count(),
        3
    );
    let png = render_sphere(&scene, &layout, ImageFormat::Png, "synthetic").unwrap();
    assert_eq!(decode(&png), (layout.width, layout.height));
}

#[test]
fn taut_render_sphere_draws_a_route_and_checks_its_points() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.svg");
    let o = out.to_str().unwrap();
    let map = tiny();
    let line = ok(&[
        "render", "--sphere", "--map", &map, "--from", LAND, "--to", "-5.5,-25", "-o", o,
    ]);
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!((w[0], w[2], w[4]), ("status", "km", "nm"), "{line}");
    assert_eq!(w[w.len() - 2..], ["output", o]);
    assert!(out.exists());
    let t = sphere_fixture("tiny_36x18_T.map");
    let png = dir.path().join("r.png");
    ok(&[
        "render",
        "--sphere",
        "--transposed",
        "--map",
        &t,
        "--from",
        "0,0",
        "--to",
        "10,10",
        "--scale",
        "3",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(
        decode(&std::fs::read(&png).unwrap()),
        (36 * 3 + 12, 18 * 3 + 12)
    );
    // Usage errors: points in degrees without --sphere, sphere options without it, a
    // scenario with it, coordinates out of range.
    let render = |extra: &[&str], code| {
        let mut a = vec!["render", "--map", map.as_str()];
        a.extend_from_slice(extra);
        a.extend_from_slice(&["-o", o]);
        fails(&a, code)
    };
    let e = render(&["--from", "1.5,2", "--to", "3,4"], 2);
    assert!(e.contains("need --sphere"), "{e}");
    render(&["--transposed", "--from", "1,2", "--to", "3,4"], 2);
    render(&["--no-snap", "--from", "1,2", "--to", "3,4"], 2);
    render(&["--sphere", "--scen", "x.scen", "--index", "0"], 2);
    let e = render(
        &["--sphere", "--algo", "anya", "--from", "1,2", "--to", "3,4"],
        2,
    );
    assert!(e.contains("cannot be used with '--algo"), "{e}");
    let e = render(&["--sphere", "--from", "100,2", "--to", "3,4"], 2);
    assert!(e.contains("latitude 100 is outside"), "{e}");
    render(&["--sphere", "--from", "95.5,2", "--to", "3,4"], 2);
    // Invalid queries: exit 1.
    let e = render(&["--sphere", "--no-snap", "--from", LAND, "--to", "3,4"], 1);
    assert!(e.contains("is on land"), "{e}");
}

#[test]
fn the_help_documents_route() {
    let top = ok(&["--help"]);
    assert!(top.contains("route"), "{top}");
    let help = ok(&["route", "--help"]);
    for needle in [
        "-o",
        "GeoJSON",
        "antimeridian",
        "nearest sea cell",
        "--no-snap",
        "Exit status",
        "status (ok, unreachable, invalid)",
        "snap_km_from",
        "--transposed",
        "-o",
        "--avoid",
        "--pairs",
        "passages",
        "bab-el-mandeb",
    ] {
        assert!(help.contains(needle), "{needle}: {help}");
    }
    let render = ok(&["render", "--help"]);
    assert!(render.contains("--sphere"), "{render}");
    // No panic, one line, for an empty --to.
    let o = taut(&["route", "--map", &tiny(), "--from", SEA, "--to", ""]);
    assert_eq!(o.status.code(), Some(1));
}

/// On the Earth maps of the shared data, at every resolution: a port in a sea cell is kept
/// as given, and a port on land moves to the cell `ports_snapped.csv` names (`sea_row`,
/// `sea_col`, the nearest sea cell centre) by its `sea_nudge_km` (rounded to 0.1 km there).
#[test]
fn earth_ports_snap_to_the_shared_datas_sea_cells() {
    let Some(data) = taut_testdata::shared_data("route port snapping") else {
        return;
    };
    let dir = data.join("sphere");
    let text = std::fs::read_to_string(dir.join("ports_snapped.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut grids = std::collections::HashMap::new();
    let mut cli_checked = std::collections::HashSet::new();
    let mut checked = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let nav = if f[col("variant")] == "nav" {
            "_nav"
        } else {
            ""
        };
        let map = dir.join(format!("earth_{}{nav}.map", f[col("res")]));
        let sea = grids
            .entry(map.clone())
            .or_insert_with(|| SeaMap::new(load_sphere(&map, false, &mut Vec::new()).unwrap()));
        let grid = sea.grid();
        let num = |name: &str| f[col(name)].parse::<f64>().unwrap();
        let p = LatLon::new(num("lat"), num("lon"));
        let end = sea.snap(p).unwrap();
        let what = format!("{} {}", map.display(), f[col("locode")]);
        if f[col("raw_is_sea")] == "True" {
            assert_eq!((end.point, end.given, end.km), (p, None, 0.0), "{what}");
        } else {
            let (row, col_) = (num("sea_row") as u32, num("sea_col") as u32);
            assert_eq!(end.point, grid.cell_centre(row, col_), "{what}");
            assert_eq!(end.given, Some(p));
            assert!(
                (end.km - num("sea_nudge_km")).abs() <= 0.05 + 1e-9,
                "{what}"
            );
            // The same through the command line, once per map.
            if !cli_checked.insert(map.clone()) {
                checked += 1;
                continue;
            }
            let (v, code, _) = route_json(&[
                "--map",
                map.to_str().unwrap(),
                "--from",
                &format!("{},{}", p.lat, p.lon),
                "--to",
                &format!("{},{}", end.point.lat, end.point.lon),
            ]);
            assert_eq!(code, 0, "{v}");
            assert_eq!(v["from"], v["to"], "{what}");
        }
        checked += 1;
    }
    assert_eq!(checked, 318);
}

#[test]
fn outputs_are_chosen_by_extension_and_the_old_names_warn() {
    let dir = tempfile::tempdir().unwrap();
    let (geo, svg) = (dir.path().join("r.geojson"), dir.path().join("r.svg"));
    let base = ["route", "--map", &tiny(), "--from", SEA, "--to", LAND];
    let mut both = base.to_vec();
    both.extend([
        "-o",
        geo.to_str().unwrap(),
        "--output",
        svg.to_str().unwrap(),
    ]);
    ok(&both);
    let g: Value = serde_json::from_str(&std::fs::read_to_string(&geo).unwrap()).unwrap();
    check_geojson(&g);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // The old names still write the same files, with one warning line each.
    let (geo2, svg2) = (dir.path().join("old.json"), dir.path().join("old.svg"));
    let mut old = base.to_vec();
    old.extend([
        "--geojson",
        geo2.to_str().unwrap(),
        "--render",
        svg2.to_str().unwrap(),
    ]);
    let o = taut(&old);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.contains("--geojson FILE is now -o/--output FILE.geojson"),
        "{err}"
    );
    assert!(
        err.contains("--render FILE is now -o/--output FILE.svg|.png"),
        "{err}"
    );
    assert_eq!(std::fs::read(&geo2).unwrap(), std::fs::read(&geo).unwrap());
    // An extension that names no format, two GeoJSON files: usage errors (one line, exit 2).
    let mut bad = base.to_vec();
    bad.extend(["-o", "r.txt"]);
    let e = fails(&bad, 2);
    assert!(e.contains("the extension says what to write"), "{e}");
    let mut two = base.to_vec();
    two.extend(["-o", "a.json", "-o", "b.geojson"]);
    let e = fails(&two, 2);
    assert!(e.contains("two GeoJSON outputs"), "{e}");
}
