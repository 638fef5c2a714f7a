//! `taut route` as a ship's planner uses it: ports by UN/LOCODE, the ice gates closed by
//! default and opened with `--allow`, and the time at sea with `--speed-knots`.
//!
//! Without the shared data: codes, suggestions and ETAs on the tiny fixture map (too coarse
//! for ice gates, so `--allow bering` there is an unknown passage). With the shared 0.25°
//! `_nav` raster (skipped loudly when absent; a failure under `TAUT_REQUIRE_DATA=1`):
//! Shanghai to New York by code goes through Panama, with km, nm, passages and an ETA that is
//! nm / knots; with `--allow northwest-passage` it is shorter and lists `bering` and
//! `northwest-passage`; the GeoJSON carries the ETA; a pairs file of codes gives the same.

use crate::common::{fails, ok, route_json, sphere_fixture, taut};

fn tiny() -> String {
    sphere_fixture("tiny_36x18.map")
}

#[test]
fn codes_and_suggestions_on_any_map() {
    let map = tiny();
    // Two ports by code on the 10° fixture: each moves to its nearest sea cell.
    let (v, code, err) = route_json(&["--map", &map, "--from", "nlrtm", "--to", "USNYC"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["from_port"]["code"], "NLRTM");
    assert_eq!(v["from_port"]["name"], "Rotterdam");
    assert_eq!(v["to_port"]["name"], "New York");
    assert_eq!(v["from_given"][0].as_f64(), Some(51.904383));
    assert!(v["snap_km_from"].as_f64().is_some());
    assert!(
        v["eta_hours"].is_null() && v["speed_knots"].is_null(),
        "{v}"
    );

    let e = fails(
        &["route", "--map", &map, "--from", "NLRTX", "--to", "USNYC"],
        1,
    );
    assert!(
        e.starts_with("taut: invalid start: unknown port 'NLRTX'; did you mean NLRTM (Rotterdam)"),
        "{e}"
    );
    let e = fails(
        &[
            "route",
            "--map",
            &map,
            "--from",
            "NLRTM",
            "--to",
            "Rotterdam",
        ],
        1,
    );
    assert!(
        e.contains("invalid goal: unknown port 'Rotterdam'; did you mean NLRTM"),
        "{e}"
    );
    let e = fails(
        &[
            "route", "--map", &map, "--from", "NLRTM", "--to", "USNYC", "--allow", "bering",
        ],
        1,
    );
    assert!(
        e.contains("--avoid/--allow: unknown passage 'bering'"),
        "{e}"
    );
    for bad in ["0", "-3", "fast", "inf"] {
        let speed = format!("--speed-knots={bad}");
        let e = fails(
            &[
                "route", "--map", &map, "--from", "NLRTM", "--to", "USNYC", &speed,
            ],
            2,
        );
        assert!(e.contains("knots"), "{e}");
    }

    // The ETA is the route's nautical miles over the speed, in text and JSON alike.
    let query = [
        "--map",
        &map,
        "--from",
        "NLRTM",
        "--to",
        "USNYC",
        "--speed-knots",
        "12.5",
    ];
    let (v, _, _) = route_json(&query);
    let nm = v["nm"].as_f64().unwrap();
    assert_eq!(v["eta_hours"].as_f64(), Some(nm / 12.5));
    assert!(
        (v["eta_days"].as_f64().unwrap() - nm / 12.5 / 24.0).abs() < 1e-12,
        "{v}"
    );
    let text = ok(&[&["route"][..], &query].concat());
    let eta = text.lines().nth(1).unwrap();
    assert_eq!(
        eta,
        format!("eta {:.2} h {:.2} d at 12.5 kn", nm / 12.5, nm / 300.0)
    );
    assert!(text.contains(" port NLRTM (Rotterdam)\n"), "{text}");
}

#[test]
fn shanghai_to_new_york_goes_by_panama_unless_the_ice_is_allowed() {
    let Some(data) = taut_testdata::shared_data("route ports and ice gates") else {
        return;
    };
    let map = data.join("sphere/earth_0.25deg_nav.map");
    let map = map.to_str().unwrap();
    let base = [
        "--map",
        map,
        "--from",
        "CNSHA",
        "--to",
        "USNYC",
        "--speed-knots",
        "14",
    ];
    let (v, code, err) = route_json(&base);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["status"], "ok");
    assert_eq!(v["passages"], serde_json::json!(["panama"]));
    let names = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect()
    };
    let avoided = names(&v["avoided"]);
    assert_eq!(
        avoided,
        [
            "bering",
            "central-arctic",
            "northern-sea-route",
            "northwest-passage"
        ]
    );
    let (km, nm) = (v["km"].as_f64().unwrap(), v["nm"].as_f64().unwrap());
    // searoute's Panama route is 19,676 km; the great circle 11,840 km.
    assert!((18_000.0..20_500.0).contains(&km), "{km}");
    assert_eq!(v["eta_hours"].as_f64(), Some(nm / 14.0));

    let text = ok(&[&["route"][..], &base].concat());
    for needle in [
        &format!("distance {km:.3} km {nm:.3} nm")[..],
        &format!("eta {:.2} h {:.2} d at 14 kn", nm / 14.0, nm / 336.0)[..],
        "passages panama\n",
        "port CNSHA (Shanghai)",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }

    let mut args = base.to_vec();
    args.extend(["--allow", "northwest-passage"]);
    let (nwp, _, _) = route_json(&args);
    assert!(nwp["km"].as_f64().unwrap() < km - 3_000.0, "{}", nwp["km"]);
    let used = names(&nwp["passages"]);
    assert!(
        used.iter().any(|p| p == "bering") && used.iter().any(|p| p == "northwest-passage"),
        "{used:?}"
    );

    // The GeoJSON's line carries the ETA.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.geojson");
    let mut args = vec!["route"];
    args.extend(base);
    args.extend(["-o", file.to_str().unwrap()]);
    ok(&args);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let line = doc["features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| {
            f["geometry"]["type"]
                .as_str()
                .is_some_and(|t| t.ends_with("LineString"))
        })
        .expect("the route's line");
    assert_eq!(line["properties"]["eta_hours"].as_f64(), Some(nm / 14.0));

    // A port inside a closed gate moves out of it, far, with a warning naming the gate.
    let o = taut(&["route", "--map", map, "--from", "CANVK", "--to", "LKGAL"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("the start is in northwest-passage, which is closed")
            && err.contains("--allow northwest-passage"),
        "{err}"
    );
    // Ends in waters the raster does not join (Anacortes' water at 0.25°): unreachable at
    // once, without a search.
    let (v, code, _) = route_json(&["--map", map, "--from", "GWBOL", "--to", "USOTS"]);
    assert_eq!(
        (code, v["status"].as_str(), v["expanded"].as_u64()),
        (0, Some("unreachable"), Some(0))
    );

    // A pairs file of codes: the same route, with an eta_hours column.
    let pairs = dir.path().join("p.csv");
    std::fs::write(&pairs, "id,from,to\nsh-ny,CNSHA,USNYC\nice,CANVK,LKGAL\n").unwrap();
    let o = taut(&[
        "route",
        "--map",
        map,
        "--pairs",
        pairs.to_str().unwrap(),
        "--speed-knots",
        "14",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("p.csv line 3: the start is in northwest-passage, which is closed"),
        "{err}"
    );
    let out = String::from_utf8(o.stdout).unwrap();
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let row = reader.records().next().unwrap().unwrap();
    assert_eq!(&row[at("km")], format!("{km:.3}"));
    assert_eq!(&row[at("eta_hours")], format!("{:.2}", nm / 14.0));
    assert_eq!(&row[at("passages")], "panama");
}
