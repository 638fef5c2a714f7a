//! What ship routers ask of `taut route` beyond one route: closing named passages
//! (`--avoid`), keep-out areas (`--avoid-area`), and many routes at once (`--pairs`).
//!
//! On the fixture maps (no shared data): an unknown passage is a one-line error that lists
//! the map's passages; a keep-out wall makes the route go round it, legal on the grid with
//! the area's cells closed, and an end inside the area moves out of it; a bad area file is
//! one line naming it; a pairs file is routed in file order, row by row equal to the single
//! route, with bad rows reported by line and the rest routed; a file without the needed
//! columns is an error; the GeoJSON of a batch is one FeatureCollection with a Feature per
//! row. With the shared Earth rasters (skipped loudly when absent): closing Suez on a route
//! from Mumbai to Rotterdam sends it round Africa, and the JSON names the passages used and
//! avoided; closing the Bosporus from the Black Sea is `unreachable`, not a route over land.

use serde_json::Value;
use taut::spherical::check::check_route;
use taut::spherical::{Area, LatLon, Leg, Route, SphereGrid};

use crate::common::{fails, route_json, sphere_fixture, taut};

const SEA: &str = "-5,-25";
const LAND: &str = "45,35";
const LAKE: &str = "-25,-135";

#[test]
fn an_unknown_passage_is_one_line_listing_the_known_ones() {
    let map = sphere_fixture("tiny_36x18.map");
    let line = fails(
        &[
            "route", "--map", &map, "--from", SEA, "--to", LAND, "--avoid", "kiel",
        ],
        1,
    );
    assert!(line.contains("unknown passage 'kiel'"), "{line}");
    assert!(line.ends_with("are: none"), "{line}");
}

/// Writes `text` to a file in `dir` and returns its path.
fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_batch_is_each_route_in_file_order_with_bad_rows_reported() {
    let map = sphere_fixture("tiny_36x18.map");
    let dir = tempfile::tempdir().unwrap();
    // Columns in another order, an extra column, a bad row, an unreachable row, a land point.
    let rows = [
        ("a", SEA, LAND),
        ("lake", LAKE, LAND),
        ("b", LAND, "-5,155"),
        ("c", "10,-100", "-40,60"),
    ];
    let mut csv = String::from("note,to_lon,to_lat,id,from_lat,from_lon\n");
    for (id, from, to) in &rows[..2] {
        let (f, t) = (from.split_once(',').unwrap(), to.split_once(',').unwrap());
        csv.push_str(&format!("x,{},{},{id},{},{}\n", t.1, t.0, f.0, f.1));
    }
    csv.push_str("x,1,2,bad,north,3\n");
    for (id, from, to) in &rows[2..] {
        let (f, t) = (from.split_once(',').unwrap(), to.split_once(',').unwrap());
        csv.push_str(&format!("x,{},{},{id},{},{}\n", t.1, t.0, f.0, f.1));
    }
    let pairs = write(&dir, "pairs.csv", &csv);
    let geojson = dir.path().join("all.geojson");
    let o = taut(&[
        "route",
        "--map",
        &map,
        "--pairs",
        &pairs,
        "--jobs",
        "2",
        "-o",
        geojson.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    let warnings: Vec<&str> = err.lines().collect();
    assert_eq!(warnings.len(), 2, "{err}");
    assert!(
        warnings[0].contains("pairs.csv line 4: from_lat 'north' is not a number"),
        "{err}"
    );
    assert!(
        warnings[1].starts_with("taut: routed 5 pairs in ")
            && warnings[1].ends_with("ok 3, unreachable 1, invalid 1"),
        "{err}"
    );

    let out = String::from_utf8(o.stdout).unwrap();
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(header, taut_cli::PAIRS_HEADER);
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let ids: Vec<&str> = records.iter().map(|r| &r[0]).collect();
    assert_eq!(ids, ["a", "lake", "bad", "b", "c"]);
    let status: Vec<&str> = records.iter().map(|r| &r[2]).collect();
    assert_eq!(status, ["ok", "unreachable", "invalid", "ok", "ok"]);
    assert_eq!(&records[2][16], "from_lat 'north' is not a number");
    // No route, no length: km and nm are inf, as in every command's csv.
    assert_eq!((&records[1][3], &records[1][4]), ("inf", "inf"));
    // --format json: the same rows as one array, numbers as numbers, inf as null.
    let o = taut(&[
        "route", "--map", &map, "--pairs", &pairs, "--format", "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let arr: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let arr = arr.as_array().unwrap();
    assert_eq!(arr.len(), records.len());
    for (obj, record) in arr.iter().zip(&records) {
        assert_eq!(obj["id"].as_str(), Some(&record[0]));
        assert_eq!(obj["status"].as_str(), Some(&record[2]));
        assert_eq!(
            obj["km"].as_f64(),
            record[3].parse::<f64>().ok().filter(|k| k.is_finite())
        );
        assert!(obj["passages"].is_array(), "{obj}");
    }
    // Every routed row equals the route alone.
    for (record, (id, from, to)) in records.iter().filter(|r| &r[0] != "bad").zip(&rows) {
        assert_eq!(&record[0], *id);
        let (v, code, _) = route_json(&["--map", &map, "--from", from, "--to", to]);
        assert_eq!(code, 0);
        assert_eq!(v["status"].as_str().unwrap(), &record[2], "{id}");
        if let Some(km) = v["km"].as_f64() {
            let batch: f64 = record[3].parse().unwrap();
            assert!((batch - km).abs() < 5e-4, "{id}: {batch} vs {km}");
        }
        let snapped: f64 = record[9].parse().unwrap();
        assert!(
            (snapped - v["snap_km_from"].as_f64().unwrap()).abs() < 5e-4,
            "{id}"
        );
    }

    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&geojson).unwrap()).unwrap();
    assert_eq!(doc["type"], "FeatureCollection");
    let features = doc["features"].as_array().unwrap();
    assert_eq!(features.len(), 5);
    for (f, record) in features.iter().zip(&records) {
        assert_eq!(f["type"], "Feature");
        assert_eq!(f["properties"]["id"].as_str().unwrap(), &record[0]);
        assert_eq!(f["properties"]["status"].as_str().unwrap(), &record[2]);
        assert_eq!(f["geometry"].is_null(), &record[2] != "ok", "{f}");
    }
}

#[test]
fn a_pairs_file_without_its_columns_is_an_error() {
    let map = sphere_fixture("tiny_36x18.map");
    let dir = tempfile::tempdir().unwrap();
    let pairs = write(&dir, "p.csv", "from_lat,from_lon,to_lat\n1,2,3\n");
    let line = fails(&["route", "--map", &map, "--pairs", &pairs], 1);
    assert!(
        line.contains("p.csv: no column to_lon in the header"),
        "{line}"
    );
    let line = fails(
        &["route", "--map", &map, "--pairs", "/nonexistent/p.csv"],
        1,
    );
    assert!(line.contains("/nonexistent/p.csv"), "{line}");
    // --pairs and --from do not go together; --threads 0 is no thread count.
    fails(
        &["route", "--map", &map, "--pairs", &pairs, "--from", SEA],
        2,
    );
    fails(
        &["route", "--map", &map, "--pairs", &pairs, "--jobs", "0"],
        2,
    );
}

#[test]
fn a_keep_out_area_is_gone_round_and_ends_inside_it_move_out() {
    let map = sphere_fixture("empty_36x18.map");
    let area = sphere_fixture("wall_0e.geojson");
    let (open, _, _) = route_json(&["--map", &map, "--from", "0,-30", "--to", "0,30"]);
    let (walled, code, _) = route_json(&[
        "--map",
        &map,
        "--from",
        "0,-30",
        "--to",
        "0,30",
        "--avoid-area",
        &area,
    ]);
    assert_eq!(code, 0);
    let (a, b) = (open["km"].as_f64().unwrap(), walled["km"].as_f64().unwrap());
    assert!((a - 6671.696).abs() < 1e-3, "{a}");
    assert!(b > a + 5000.0, "round the wall: {b}");
    // The route is legal with the area's cells closed, and not without closing them only
    // because it is longer: check it on the closed grid.
    let grid = SphereGrid::read_map(&map, false).unwrap();
    let cells = Area::read(&area).unwrap().cells(36, 18);
    assert_eq!(cells.len(), 20, "{cells:?}");
    let closed = grid.with_closed(&cells);
    let legs: Vec<Leg> = walled["legs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let p = |v: &Value| LatLon::new(v[0].as_f64().unwrap(), v[1].as_f64().unwrap());
            assert_eq!(l["kind"], "great", "{l}");
            Leg::Great {
                from: p(&l["from"]),
                to: p(&l["to"]),
            }
        })
        .collect();
    let route = Route {
        radians: legs.iter().map(Leg::radians).sum(),
        legs,
    };
    check_route(
        &closed,
        &route,
        LatLon::new(0.0, -30.0),
        LatLon::new(0.0, 30.0),
    )
    .expect("legal with the area closed");
    // An end inside the area moves to the nearest open cell.
    let (v, code, _) = route_json(&[
        "--map",
        &map,
        "--from",
        "0,0",
        "--to",
        "0,30",
        "--avoid-area",
        &area,
    ]);
    assert_eq!(code, 0);
    assert!(v["snap_km_from"].as_f64().unwrap() > 1000.0, "{v}");
    let from = &v["from"];
    let (r, c) = grid.cell_of(LatLon::new(
        from[0].as_f64().unwrap(),
        from[1].as_f64().unwrap(),
    ));
    assert!(!cells.contains(&(r, c)), "{v}");
}

#[test]
fn a_bad_area_file_is_one_line_naming_it() {
    let map = sphere_fixture("empty_36x18.map");
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "empty.geojson",
            r#"{"type":"FeatureCollection","features":[]}"#,
            "empty",
        ),
        (
            "point.geojson",
            r#"{"type":"Point","coordinates":[1,2]}"#,
            "Point",
        ),
        ("junk.geojson", "not json at all", "JSON"),
    ];
    let with_area = |path: &str| {
        fails(
            &[
                "route",
                "--map",
                &map,
                "--from",
                SEA,
                "--to",
                "0,30",
                "--avoid-area",
                path,
            ],
            1,
        )
    };
    for (name, text, needle) in cases {
        let line = with_area(&write(&dir, name, text));
        assert!(line.contains(name) && line.contains(needle), "{line}");
    }
    let line = with_area("/nonexistent.geojson");
    assert!(line.contains("/nonexistent.geojson"), "{line}");
}

#[test]
fn closing_suez_and_the_bosporus_on_the_earth() {
    let Some(data) = taut_testdata::shared_data("route_requests::closing_suez") else {
        return;
    };
    let map = data.join("sphere/earth_0.5deg_nav.map");
    let map = map.to_str().unwrap();
    let mumbai_rotterdam = ["--map", map, "--from", "18.9,72.8", "--to", "51.9,4.4"];
    let (open, code, _) = route_json(&mumbai_rotterdam);
    assert_eq!(code, 0);
    let used: Vec<&str> = open["passages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for p in ["suez", "bab-el-mandeb", "gibraltar", "dover"] {
        assert!(used.contains(&p), "{p} in {used:?}");
    }
    let mut args = mumbai_rotterdam.to_vec();
    args.extend(["--avoid", "Suez"]);
    let (closed, code, _) = route_json(&args);
    assert_eq!(code, 0);
    // Suez, and the ice gates that every request closes unless it allows them.
    assert_eq!(
        closed["avoided"],
        serde_json::json!([
            "bering",
            "central-arctic",
            "northern-sea-route",
            "northwest-passage",
            "suez"
        ])
    );
    let used = closed["passages"].as_array().unwrap();
    assert!(!used.contains(&Value::from("suez")), "{used:?}");
    let (a, b) = (open["km"].as_f64().unwrap(), closed["km"].as_f64().unwrap());
    assert!(b > a + 3000.0, "round Africa: {a} km, then {b} km");

    let (v, code, _) = route_json(&[
        "--map",
        map,
        "--from",
        "43.0,34.0",
        "--to",
        "35.0,20.0",
        "--avoid",
        "bosporus",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["status"], "unreachable", "{v}");
}

/// `port_pairs.csv` routed as it is (`--pairs` takes its columns, ignores the others): every
/// pair is found at 0.5° and 0.25°, and each route goes through the passage the file says it
/// needs (`needs_passage`; `(optional)` entries and the Beagle Channel, which taut does not
/// name, are not required).
#[test]
fn the_shared_port_pairs_use_the_passages_they_need() {
    let Some(data) = taut_testdata::shared_data("route_requests::port_pairs") else {
        return;
    };
    let file = data.join("sphere/port_pairs.csv");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut input = csv::Reader::from_reader(text.as_bytes());
    let header = input.headers().unwrap().clone();
    let needs_col = header.iter().position(|h| h == "needs_passage").unwrap();
    let needs: Vec<String> = input
        .records()
        .map(|r| r.unwrap()[needs_col].to_owned())
        .collect();
    for res in ["0.5deg", "0.25deg"] {
        let map = data.join(format!("sphere/earth_{res}_nav.map"));
        let o = taut(&[
            "route",
            "--map",
            map.to_str().unwrap(),
            "--pairs",
            file.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0));
        let out = String::from_utf8(o.stdout).unwrap();
        let mut reader = csv::Reader::from_reader(out.as_bytes());
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), needs.len());
        let mut required = 0;
        for (row, need) in rows.iter().zip(&needs) {
            assert_eq!(&row[2], "ok", "{res} pair {}", &row[0]);
            let used: Vec<&str> = row[14].split(';').collect();
            let want: &[&str] = match need.as_str() {
                "bab_el_mandeb" => &["bab-el-mandeb"],
                // Istanbul lies on both sides of the Bosporus; Piraeus is past the Dardanelles.
                "bosporus_dardanelles" => &["dardanelles"],
                "gibraltar" => &["gibraltar"],
                "hormuz" => &["hormuz"],
                "juan_de_fuca" => &["juan-de-fuca"],
                "oresund" => &["oresund"],
                _ => &[],
            };
            for p in want {
                assert!(
                    used.contains(p),
                    "{res} pair {}: {p} not in {used:?}",
                    &row[0]
                );
                required += 1;
            }
        }
        assert_eq!(required, 7, "{res}");
    }
}
