//! Runs the built `taut` binary and checks the output contract of the README and the issue.
//!
//! The planners may still be stubs, so these tests assert only what holds for every correct
//! planner: the header, one row per query with the right index, `invalid` exactly for blocked
//! or off-map endpoints, `length` inf (null in JSON) unless `ok`, formats, errors and exit codes. Assertions
//! compare with exact values: the octile column of the scenario (A*'s optimum) or lengths
//! derived by hand on the small fixtures.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{fails, ok, taut};
use taut::grid::lengths_agree;

const HEADER: &str = "index,start_x,start_y,goal_x,goal_y,status,length,expanded,generated,time_us";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/maps")
}

fn fixture(name: &str) -> String {
    fixtures().join(name).to_string_lossy().into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// A parsed csv row: the columns of [`HEADER`].
#[derive(Debug, Clone, PartialEq)]
struct Row {
    index: usize,
    start: (i32, i32),
    goal: (i32, i32),
    status: String,
    length: f64,
    expanded: u64,
    generated: u64,
    time_us: f64,
}

/// Every row is `ok` with the length of the scenario's octile column (A*'s optimum).
fn assert_octile_column(rows: &[Row], scen: &str) {
    let scen = taut::grid::Scenario::read(fixtures().join(scen)).unwrap();
    assert_eq!(rows.len(), scen.entries.len());
    for (r, e) in rows.iter().zip(&scen.entries) {
        assert_eq!(r.status, "ok", "{r:?}");
        assert!(lengths_agree(r.length, e.octile), "{r:?} vs {}", e.octile);
    }
}

fn parse_csv(text: &str) -> Vec<Row> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(HEADER));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 10, "{l}");
            let row = Row {
                index: f[0].parse().unwrap(),
                start: (f[1].parse().unwrap(), f[2].parse().unwrap()),
                goal: (f[3].parse().unwrap(), f[4].parse().unwrap()),
                status: f[5].to_owned(),
                length: f[6].parse().unwrap(),
                expanded: f[7].parse().unwrap(),
                generated: f[8].parse().unwrap(),
                time_us: f[9].parse().unwrap(),
            };
            // Number formats: 8 decimals for an ok length, inf otherwise; 3 decimals of time.
            if row.status == "ok" {
                assert_eq!(f[6].split_once('.').map(|(_, d)| d.len()), Some(8), "{l}");
            } else {
                assert_eq!(f[6], "inf", "{l}");
            }
            assert_eq!(f[9].split_once('.').map(|(_, d)| d.len()), Some(3), "{l}");
            row
        })
        .collect()
}

/// Relations every correct planner satisfies, whatever it returns.
fn check_invariants(rows: &[Row]) {
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r.index, i);
        assert!(
            ["ok", "unreachable", "invalid"].contains(&r.status.as_str()),
            "{r:?}"
        );
        match r.status.as_str() {
            "ok" => assert!(r.length >= 0.0 && r.length.is_finite(), "{r:?}"),
            "invalid" => {
                assert_eq!(
                    (r.length, r.expanded, r.generated),
                    (f64::INFINITY, 0, 0),
                    "{r:?}"
                );
                assert_eq!(r.time_us, 0.0, "{r:?}");
            }
            _ => assert_eq!(r.length, f64::INFINITY, "{r:?}"),
        }
        if r.start == r.goal && r.status == "ok" {
            assert_eq!(r.length, 0.0, "{r:?}");
        }
        assert!(r.time_us >= 0.0);
    }
}

#[test]
fn scen_csv_header_and_one_row_per_query() {
    let out = ok(&[
        "scen",
        "--map",
        &fixture("arena.map"),
        "--scen",
        &fixture("arena.map.scen"),
        "--algo",
        "astar",
    ]);
    assert_eq!(out.lines().next(), Some(HEADER));
    let rows = parse_csv(&out);
    assert_eq!(rows.len(), 130);
    check_invariants(&rows);
    // The scenario's own coordinates, in file order.
    assert_eq!((rows[0].start, rows[0].goal), ((19, 26), (19, 29)));
    assert_eq!((rows[3].start, rows[3].goal), ((30, 22), (31, 21)));
    // Every MovingAI query is valid and reachable, and A* reproduces the octile column.
    assert_octile_column(&rows, "arena.map.scen");
}

/// `--summary` adds one line on stderr (the queries' totals and what was built for the map,
/// with its build time and memory) and leaves the rows on stdout as they are.
#[test]
fn scen_summary_reports_expansions_and_the_index_build_time() {
    let run = |algo: &str, summary: bool| {
        let mut args = vec![
            "scen".to_owned(),
            "--map".to_owned(),
            fixture("arena.map"),
            "--scen".to_owned(),
            fixture("arena.map.scen"),
            "--algo".to_owned(),
            algo.to_owned(),
        ];
        if summary {
            args.push("--summary".to_owned());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = taut(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        (parse_csv(&stdout(&o)), stderr(&o))
    };
    // Everything but the time column, which varies.
    let untimed = |rows: &[Row]| -> Vec<Row> {
        rows.iter()
            .map(|r| Row {
                time_us: 0.0,
                ..r.clone()
            })
            .collect()
    };
    for (algo, index) in [
        ("ray", "index: ray index built in "),
        ("polyanya", "index: mesh built in "),
        ("anya", "index: none"),
    ] {
        let (plain, quiet) = run(algo, false);
        let (rows, err) = run(algo, true);
        assert_eq!(quiet, "", "{algo}: nothing on stderr without --summary");
        assert_eq!(untimed(&rows), untimed(&plain), "{algo}: the same rows");
        assert_eq!(err.lines().count(), 1, "{algo}: {err}");
        let expanded: u64 = rows.iter().map(|r| r.expanded).sum();
        let generated: u64 = rows.iter().map(|r| r.generated).sum();
        let head = format!(
            "taut: summary: 130 queries (130 ok, 0 unreachable, 0 invalid), {expanded} expanded, {generated} generated, "
        );
        assert!(err.starts_with(&head), "{algo}: {err}");
        assert!(err.contains(" ms in the planner; "), "{algo}: {err}");
        assert!(err.contains(index), "{algo}: {err}");
        if algo == "ray" {
            // Its build time and its memory.
            let tail = err.trim_end().split(index).nth(1).unwrap();
            let (ms, bytes) = tail.split_once(" ms, ").expect(&err);
            assert!(ms.parse::<f64>().unwrap() >= 0.0, "{err}");
            assert!(bytes.ends_with(" KiB") || bytes.ends_with(" MiB"), "{err}");
        }
    }
}

#[test]
fn scen_limit_takes_the_first_queries() {
    let scen = fixture("arena.map.scen");
    let args = |limit| ["scen", "--scen", scen.as_str(), "--limit", limit];
    let three = parse_csv(&ok(&args("3")));
    assert_eq!(three.len(), 3);
    check_invariants(&three);
    assert_eq!(parse_csv(&ok(&args("0"))).len(), 0);
    assert_eq!(parse_csv(&ok(&args("100000"))).len(), 130);
    fails(&args("-1"), 2);
    fails(&args("x"), 2);
}

#[test]
fn scen_repeat_reports_the_same_answers_with_median_times() {
    // small-edge.scen has invalid rows too: they stay invalid, with no time.
    for (map, scen) in [
        ("arena.map", "arena.map.scen"),
        ("small.map", "small-edge.scen"),
    ] {
        let (map, scen) = (fixture(map), fixture(scen));
        let args = |repeat| {
            [
                "scen", "--map", &map, "--scen", &scen, "--algo", "anya", "--repeat", repeat,
            ]
            .map(str::to_owned)
        };
        let once = parse_csv(&ok(&args("1").each_ref().map(String::as_str)));
        let five = parse_csv(&ok(&args("5").each_ref().map(String::as_str)));
        check_invariants(&five);
        assert_eq!(once.len(), five.len());
        for (a, b) in once.iter().zip(&five) {
            let answer = |r: &Row| (r.index, r.start, r.goal, r.status.clone(), r.length);
            assert_eq!(answer(a), answer(b));
            assert_eq!((a.expanded, a.generated), (b.expanded, b.generated));
        }
        // Invalid rows have no time (check_invariants); the others were timed.
        assert!(five.iter().map(|r| r.time_us).sum::<f64>() > 0.0);
    }
    let scen = fixture("arena.map.scen");
    fails(&["scen", "--scen", &scen, "--repeat", "0"], 2);
}

#[test]
fn scen_invalid_rows_for_blocked_and_off_map_endpoints() {
    let rows = parse_csv(&ok(&[
        "scen",
        "--map",
        &fixture("small.map"),
        "--scen",
        &fixture("small-edge.scen"),
        "--algo",
        "astar",
    ]));
    check_invariants(&rows);
    let status: Vec<&str> = rows.iter().map(|r| r.status.as_str()).collect();
    // 1 blocked start, 2 blocked goal, 3 goal off the map, 6 start on T (blocked by default).
    for i in [1, 2, 3, 6] {
        assert_eq!(status[i], "invalid", "query {i}");
    }
    // 0 ordinary (octile optimum 8 + 2√2), 4 start == goal, 5 walled in.
    assert_eq!((status[0], rows[0].length), ("ok", 10.82842712));
    assert_eq!((status[4], rows[4].length), ("ok", 0.0));
    assert_eq!((status[5], rows[5].length), ("unreachable", f64::INFINITY));
    assert_eq!(rows[3].goal, (9, 7));

    // With T free, query 6 becomes valid; the others keep their status class.
    let rows = parse_csv(&ok(&[
        "scen",
        "--map",
        &fixture("small.map"),
        "--scen",
        &fixture("small-edge.scen"),
        "--free",
        ".GST",
    ]));
    check_invariants(&rows);
    assert_ne!(rows[6].status, "invalid");
    assert_eq!(rows[1].status, "invalid");
}

#[test]
fn scen_json_has_the_csv_rows() {
    for algo in ["astar", "theta", "lazy-theta", "vg"] {
        let base = [
            "scen",
            "--scen",
            &fixture("small-edge.scen"),
            "--algo",
            algo,
        ];
        let csv = parse_csv(&ok(&base));
        let json_text = ok(&[&base[..], &["--format", "json"]].concat());
        let json: serde_json::Value = serde_json::from_str(&json_text).expect("valid JSON");
        let arr = json.as_array().expect("a JSON array");
        assert_eq!(arr.len(), csv.len());
        let keys: Vec<&str> = HEADER.split(',').collect();
        for (o, r) in arr.iter().zip(&csv) {
            let o = o.as_object().expect("objects");
            let mut names: Vec<&str> = o.keys().map(String::as_str).collect();
            let mut want = keys.clone();
            names.sort_unstable();
            want.sort_unstable();
            assert_eq!(names, want);
            assert_eq!(o["index"].as_u64(), Some(r.index as u64));
            assert_eq!(o["start_x"].as_i64(), Some(i64::from(r.start.0)));
            assert_eq!(o["start_y"].as_i64(), Some(i64::from(r.start.1)));
            assert_eq!(o["goal_x"].as_i64(), Some(i64::from(r.goal.0)));
            assert_eq!(o["goal_y"].as_i64(), Some(i64::from(r.goal.1)));
            assert_eq!(o["status"].as_str(), Some(r.status.as_str()));
            // One length convention: inf in csv is null in JSON (which has no infinity).
            assert_eq!(
                o["length"].as_f64(),
                Some(r.length).filter(|l| l.is_finite())
            );
            // Statistics and times come from separate runs: compare them only where fixed.
            if r.status == "invalid" {
                assert_eq!(o["expanded"].as_u64(), Some(0));
                assert_eq!(o["generated"].as_u64(), Some(0));
                assert_eq!(o["time_us"].as_f64(), Some(0.0));
            }
            assert!(o["expanded"].is_u64() && o["generated"].is_u64());
            assert!(o["time_us"].as_f64().is_some_and(|t| t >= 0.0));
        }
    }
    // An empty run is an empty array.
    let empty = ok(&[
        "scen",
        "--scen",
        &fixture("small-edge.scen"),
        "--limit",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&empty).unwrap(),
        serde_json::json!([])
    );
}

#[test]
fn scen_start_equals_goal() {
    let rows = parse_csv(&ok(&[
        "scen",
        "--scen",
        &fixture("small.map.scen"),
        "--algo",
        "astar",
    ]));
    assert_eq!(rows.len(), 6);
    check_invariants(&rows);
    assert_eq!(rows[3].start, rows[3].goal);
    assert_octile_column(&rows, "small.map.scen");
    assert_eq!(rows[3].length, 0.0);
}

/// A scratch directory for one test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("taut-cli-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn scen_resolves_the_map_by_base_name() {
    let d = scratch("resolve");
    let scen_dir = d.join("scens");
    let maps_dir = d.join("maps");
    std::fs::create_dir_all(&scen_dir).unwrap();
    std::fs::create_dir_all(&maps_dir).unwrap();
    std::fs::copy(fixtures().join("small.map"), maps_dir.join("small.map")).unwrap();
    // The map field is a path whose directories do not exist: only the base name counts.
    let text = std::fs::read_to_string(fixtures().join("small-edge.scen"))
        .unwrap()
        .replace("\tsmall.map\t", "\tdao/sub/small.map\t");
    let scen = scen_dir.join("edge.scen");
    std::fs::write(&scen, text).unwrap();
    let scen = scen.to_str().unwrap();
    let maps = maps_dir.to_str().unwrap();

    // Not beside the scenario and no --maps-dir: a one-line error naming the map and where
    // it looked.
    let err = fails(&["scen", "--scen", scen], 1);
    assert!(
        err.contains("\"small.map\"") && err.contains("--maps-dir"),
        "{err}"
    );

    let found = ok(&["scen", "--scen", scen, "--maps-dir", maps]);
    let given = ok(&["scen", "--scen", scen, "--map", &fixture("small.map")]);
    let (found, given) = (parse_csv(&found), parse_csv(&given));
    assert_eq!(found.len(), 7);
    let statuses = |rows: &[Row]| rows.iter().map(|r| r.status.clone()).collect::<Vec<_>>();
    assert_eq!(statuses(&found), statuses(&given));

    // Beside the scenario wins without --maps-dir.
    std::fs::copy(fixtures().join("small.map"), scen_dir.join("small.map")).unwrap();
    assert_eq!(parse_csv(&ok(&["scen", "--scen", scen])).len(), 7);
}

#[test]
fn scen_warns_once_when_the_map_differs() {
    let o = taut(&[
        "scen",
        "--map",
        &fixture("small.map"),
        "--scen",
        &fixture("arena.map.scen"),
        "--limit",
        "5",
    ]);
    assert!(o.status.success());
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("taut: warning: ") && err.contains("arena.map"),
        "{err}"
    );
    // Arena coordinates are off the 8x6 map or on it at random: rows still come, one each.
    let rows = parse_csv(&stdout(&o));
    assert_eq!(rows.len(), 5);
    check_invariants(&rows);
}

#[test]
fn path_prints_length_and_waypoints() {
    let map = fixture("small.map");
    let out = ok(&[
        "path", "--map", &map, "--from", "0,0", "--to", "7,5", "--algo", "astar",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "length 10.82842712");
    let n: usize = {
        let n = lines[1]
            .strip_prefix("waypoints ")
            .unwrap()
            .parse()
            .unwrap();
        assert!(n >= 2);
        assert_eq!(lines[2], "0,0");
        assert_eq!(lines[1 + n], "7,5");
        n
    };
    assert_eq!(lines.len(), 4 + n);
    assert!(lines[2 + n].starts_with("expanded "));
    assert!(lines[3 + n].starts_with("generated "));

    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "path", "--map", &map, "--from", "0,0", "--to", "7,5", "--format", "json", "--algo",
        "astar",
    ]))
    .expect("valid JSON");
    assert_eq!(json["status"].as_str(), Some("ok"));
    // Printed with 8 decimals, like the text format.
    assert!((json["length"].as_f64().unwrap() - (8.0 + 2.0 * 2f64.sqrt())).abs() < 1e-8);
    assert_eq!(json["waypoints"].as_array().unwrap().len(), n);
    assert!(json["expanded"].is_u64() && json["generated"].is_u64());
}

#[test]
fn path_rejects_invalid_endpoints() {
    let map = fixture("small.map");
    let err = fails(&["path", "--map", &map, "--from", "2,1", "--to", "0,0"], 1);
    assert!(
        err.contains("start (2, 1)") && err.contains("blocked"),
        "{err}"
    );
    let err = fails(&["path", "--map", &map, "--from", "0,0", "--to", "8,0"], 1);
    assert!(
        err.contains("goal (8, 0)") && err.contains("off the map"),
        "{err}"
    );
    let err = fails(&["path", "--map", &map, "--from", "-1,0", "--to", "0,0"], 1);
    assert!(err.contains("start (-1, 0)"), "{err}");
}

#[test]
fn bad_arguments_give_one_line_and_exit_2() {
    let map = fixture("small.map");
    let scen = fixture("small-edge.scen");
    let err = fails(&["scen", "--scen", &scen, "--algo", "dijkstra"], 2);
    assert!(err.contains("dijkstra") && err.contains("astar"), "{err}");
    for bad in [
        "1",
        "1,",
        ",2",
        "1,2,3",
        "a,b",
        "1.5,2",
        "1, 2",
        "+1,2",
        "99999999999,0",
    ] {
        let err = fails(&["path", "--map", &map, "--from", bad, "--to", "0,0"], 2);
        assert!(err.contains(&format!("'{bad}'")), "{bad}: {err}");
    }
    fails(&["path", "--map", &map, "--from", "0,0"], 2);
    fails(&["scen", "--scen", &scen, "--format", "xml"], 2);
    fails(&["scen", "--scen", &scen, "--free", ""], 2);
    fails(&["scen", "--scen", &scen, "--free", "x"], 2);
    fails(&["frobnicate"], 2);
    fails(&[], 2);
    assert!(ok(&["--help"]).contains("scen"));
    assert!(ok(&["scen", "--help"]).contains("--maps-dir"));
}

#[test]
fn unreadable_or_malformed_files_give_one_line_and_exit_1() {
    let d = scratch("bad-files");
    let missing = d.join("missing.map");
    let missing = missing.to_str().unwrap();
    let err = fails(
        &["path", "--map", missing, "--from", "0,0", "--to", "1,1"],
        1,
    );
    assert!(err.contains("missing.map"), "{err}");
    let err = fails(
        &["scen", "--scen", &d.join("nope.scen").to_string_lossy()],
        1,
    );
    assert!(err.contains("nope.scen"), "{err}");

    let bad_map = d.join("bad.map");
    std::fs::write(&bad_map, "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n").unwrap();
    let bad_map = bad_map.to_str().unwrap();
    let err = fails(
        &["path", "--map", bad_map, "--from", "0,0", "--to", "1,1"],
        1,
    );
    assert!(err.contains("bad.map:") && err.contains("'x'"), "{err}");
    let err = fails(
        &[
            "scen",
            "--map",
            bad_map,
            "--scen",
            &fixture("small-edge.scen"),
        ],
        1,
    );
    assert!(err.contains("bad.map:"), "{err}");

    // A map passed as a scenario: the header is wrong.
    let err = fails(&["scen", "--scen", &fixture("small.map")], 1);
    assert!(err.contains("small.map:1"), "{err}");
}

#[test]
fn closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    // A scenario long enough to overflow the pipe buffer once the reader is gone.
    let d = scratch("pipe");
    let mut text = String::from("version 1\n");
    for _ in 0..20_000 {
        text.push_str("0\tsmall.map\t8\t6\t2\t1\t0\t0\t0\n");
    }
    let scen = d.join("long.scen");
    std::fs::write(&scen, text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_taut"))
        .args(["scen", "--map", &fixture("small.map"), "--scen"])
        .arg(&scen)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here: further writes fail with EPIPE.
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{:?}", o.status);
    assert_eq!(stderr(&o), "");
}

/// `--algo anya` with every pruning and history option gives the visibility graph's lengths on
/// the arena fixture (both optimal), and the pruning rules change only the search effort.
#[test]
fn anya_and_its_options_reproduce_the_visibility_graph() {
    let (map, scen) = (fixture("arena.map"), fixture("arena.map.scen"));
    let base = [
        "scen",
        "--map",
        map.as_str(),
        "--scen",
        scen.as_str(),
        "--algo",
    ];
    let run = |algo: &str, extra: &[&str]| {
        let mut args = base.to_vec();
        args.push(algo);
        args.extend_from_slice(extra);
        let rows = parse_csv(&ok(&args));
        check_invariants(&rows);
        rows
    };
    let vg = run("vg", &[]);
    let variants: [&[&str]; 5] = [
        &[],
        &["--no-cul-de-sac"],
        &["--no-intermediate"],
        &["--no-cul-de-sac", "--no-intermediate"],
        &["--root-history", "hash"],
    ];
    let mut expansions = Vec::new();
    for extra in variants {
        let rows = run("anya", extra);
        assert_eq!(rows.len(), vg.len());
        for (a, v) in rows.iter().zip(&vg) {
            assert_eq!(a.status, v.status, "{extra:?} {a:?}");
            assert!(
                lengths_agree(a.length, v.length),
                "{extra:?} {a:?} vs {v:?}"
            );
        }
        expansions.push(rows.iter().map(|r| r.expanded).sum::<u64>());
    }
    // Turning both pruning rules off makes the search expand more nodes.
    assert!(expansions[3] > expansions[0], "{expansions:?}");
    // The root history's storage does not change the search.
    assert_eq!(expansions[4], expansions[0]);
    fails(
        &[
            "path",
            "--map",
            map.as_str(),
            "--from",
            "1,1",
            "--to",
            "2,2",
            "--algo",
            "anya",
            "--root-history",
            "tree",
        ],
        2,
    );
}

/// Without `--algo`, `path` and `scen` give the exact any-angle optimum (`auto`): Anya's
/// lengths, not A*'s octile ones.
#[test]
fn the_default_planner_is_the_exact_any_angle_optimum() {
    let map = fixture("arena.map");
    let length = |algo: Option<&str>| {
        let mut args = vec!["path", "--map", &map, "--from", "3,3", "--to", "40,40"];
        args.extend(algo.map(|a| ["--algo", a]).into_iter().flatten());
        let out = ok(&args);
        let first = out.lines().next().unwrap().to_owned();
        first
            .strip_prefix("length ")
            .unwrap()
            .parse::<f64>()
            .unwrap()
    };
    let (default, anya, astar) = (length(None), length(Some("anya")), length(Some("astar")));
    assert_eq!(default, anya);
    assert!(astar > anya + 0.1, "astar {astar} anya {anya}");
    let scen = fixture("arena.map.scen");
    let by_default = parse_csv(&ok(&["scen", "--scen", &scen]));
    let by_anya = parse_csv(&ok(&["scen", "--scen", &scen, "--algo", "anya"]));
    assert_eq!(by_default.len(), 130);
    for (d, a) in by_default.iter().zip(&by_anya) {
        assert_eq!(d.status, a.status);
        assert!(lengths_agree(d.length, a.length), "{d:?} vs {a:?}");
    }
    assert_eq!(length(Some("auto")), anya);
}

#[test]
fn scen_limits_stop_queries_with_status_limit_and_the_work_done() {
    let scen = |extra: &[&str]| {
        let mut args = vec![
            "scen", "--map", "MAP", "--scen", "SCEN", "--algo", "polyanya",
        ];
        let (map, sc) = (fixture("arena.map"), fixture("arena.map.scen"));
        args[2] = &map;
        args[4] = &sc;
        args.extend_from_slice(extra);
        parse_csv(&ok(&args))
    };
    let free = scen(&[]);
    let bounded = scen(&["--max-expansions", "3"]);
    assert_eq!(free.len(), bounded.len());
    let mut stopped = 0;
    for (f, b) in free.iter().zip(&bounded) {
        if f.expanded <= 3 {
            // A query that needs at most the limit is answered as without one.
            assert_eq!((f.status.as_str(), f.length), (b.status.as_str(), b.length));
        } else {
            assert_eq!(b.status, "limit", "{f:?} {b:?}");
            assert_eq!((b.length, b.expanded), (f64::INFINITY, 3));
            stopped += 1;
        }
    }
    assert!(stopped > 10, "{stopped}");
    // A deadline of 0 ms stops every search that needs more than the first slice of
    // expansions (`Limit::FIRST_SLICE`: the clock is first read after 8).
    let timed = scen(&["--timeout-ms", "0"]);
    for (f, t) in free.iter().zip(&timed) {
        if f.expanded > 8 {
            assert_eq!(t.status, "limit");
        } else {
            assert_eq!(t.status, f.status);
        }
    }
}

#[test]
fn path_limit_is_a_status_in_text_and_json() {
    let map = fixture("arena.map");
    let base = ["path", "--map", &map, "--from", "1,3", "--to", "45,40"];
    let mut args = base.to_vec();
    args.extend(["--max-expansions", "2", "--algo", "anya"]);
    let text = ok(&args);
    assert!(
        text.starts_with("limit reached after 2 expansions"),
        "{text}"
    );
    args.extend(["--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    assert_eq!(json["status"], "limit");
    assert!(json["length"].is_null(), "{json}");
    assert_eq!(json["expanded"], 2);
    // A limit large enough changes nothing.
    let mut enough = base.to_vec();
    enough.extend(["--max-expansions", "100000", "--algo", "anya"]);
    let mut plain = base.to_vec();
    plain.extend(["--algo", "anya"]);
    assert_eq!(ok(&enough), ok(&plain));
}

#[test]
fn planners_lists_the_table_as_text_and_json() {
    let text = ok(&["planners"]);
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["planners", "--format", "json"])).expect("one JSON object");
    let rows = json["planners"].as_array().unwrap();
    assert_eq!(rows.len(), taut::registry::PLANNERS.len());
    for (row, kind) in rows.iter().zip(taut::registry::PLANNERS) {
        assert_eq!(row["name"], kind.name);
        assert!(
            text.contains(&format!("{:<11} {}", kind.name, kind.summary)),
            "{text}"
        );
        let options: Vec<&str> = row["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        let want: Vec<&str> = kind.options.iter().map(|o| o.name).collect();
        assert_eq!(options, want, "{}", kind.name);
    }
    let with_map: serde_json::Value = serde_json::from_str(&ok(&[
        "planners",
        "--format",
        "json",
        "--map",
        &fixture("arena.map"),
    ]))
    .unwrap();
    let m = &with_map["maps"][0];
    assert_eq!(m["free_cells"], 2054);
    let csv = ok(&["planners", "--map", &fixture("arena.map")]);
    let row = csv.lines().last().unwrap();
    assert!(
        row.ends_with(&format!(
            ",{},{}",
            m["auto"].as_str().unwrap(),
            m["auto_with_mesh"].as_str().unwrap()
        )),
        "{row}"
    );
    fails(&["planners", "--markdown", "--format", "json"], 2);
}

#[test]
fn algo_takes_the_tables_spelling_of_options_as_the_library_and_python_do() {
    let (map, scen) = (fixture("arena.map"), fixture("arena.map.scen"));
    let run = |algo: &str, extra: &[&str]| {
        let mut args = vec!["scen", "--map", &map, "--scen", &scen, "--algo", algo];
        args.extend_from_slice(extra);
        let out = ok(&args);
        // Status and length columns, and the expansions (the options change the search).
        out.lines()
            .skip(1)
            .map(|l| {
                let c: Vec<&str> = l.split(',').collect();
                (c[5].to_owned(), c[6].to_owned(), c[7].to_owned())
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        run("anya:no-cul-de-sac", &[]),
        run("anya", &["--no-cul-de-sac"])
    );
    assert_eq!(
        run("anya:hash", &[]),
        run("anya", &["--root-history", "hash"])
    );
    assert_eq!(
        run("polyanya:no-intermediate", &[]),
        run("polyanya", &["--no-intermediate"])
    );
    let e = fails(
        &[
            "path",
            "--map",
            &map,
            "--from",
            "1,3",
            "--to",
            "45,40",
            "--algo",
            "anya:speed",
        ],
        2,
    );
    assert!(
        e.contains("no-cul-de-sac"),
        "the error lists anya's options: {e}"
    );
    let e = fails(
        &[
            "path", "--map", &map, "--from", "1,3", "--to", "45,40", "--algo", "dijkstra",
        ],
        2,
    );
    for k in taut::registry::PLANNERS {
        assert!(e.contains(k.name), "the error lists every planner: {e}");
    }
}

#[test]
fn build_commands_report_as_json_too() {
    let dir = tempfile::tempdir().unwrap();
    let map = fixture("arena.map");
    let path = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
    let json = |args: &[&str]| -> serde_json::Value {
        let mut all = args.to_vec();
        all.extend(["--format", "json"]);
        serde_json::from_str(&ok(&all)).unwrap_or_else(|e| panic!("{all:?}: {e}"))
    };
    let mesh = json(&["mesh", "build", "--map", &map, "-o", &path("a.mesh")]);
    let text = ok(&["mesh", "build", "--map", &map, "-o", &path("b.mesh")]);
    assert!(
        text.starts_with(&format!(
            "vertices {} polygons {} ",
            mesh["vertices"], mesh["polygons"]
        )),
        "{text}"
    );
    let cpd = json(&[
        "cpd",
        "build",
        "--map",
        &map,
        "-o",
        &path("a.cpd"),
        "--jobs",
        "1",
    ]);
    assert_eq!(cpd["threads"], 1);
    let info: serde_json::Value =
        serde_json::from_str(&ok(&["cpd", "info", &path("a.cpd"), "--format", "json"])).unwrap();
    assert_eq!(
        (cpd["nodes"].clone(), cpd["runs"].clone()),
        (info["nodes"].clone(), info["runs"].clone())
    );
    let est = json(&["cpd", "estimate", "--map", &map, "--jobs", "1"]);
    assert_eq!(est["nodes"], cpd["nodes"]);
    assert_eq!(est["threads"], 1);
    for i in 0..2 {
        let spec = format!("{i}/2");
        let shard = json(&[
            "cpd",
            "build",
            "--map",
            &map,
            "-o",
            &path("s.cpd"),
            "--shard",
            &spec,
        ]);
        assert_eq!(shard["shard"], spec.as_str());
    }
    let merged = json(&[
        "cpd",
        "merge",
        &path("s.cpd.shard-0-of-2"),
        &path("s.cpd.shard-1-of-2"),
        "-o",
        &path("s.cpd"),
    ]);
    assert_eq!(
        (merged["shards"].clone(), merged["runs"].clone()),
        (serde_json::json!(2), cpd["runs"].clone())
    );
    let hub = json(&["hub", "build", "--map", &map, "-o", &path("a.hub")]);
    let info: serde_json::Value =
        serde_json::from_str(&ok(&["hub", "info", &path("a.hub"), "--format", "json"])).unwrap();
    assert_eq!(hub["points"], info["points"]);
    assert_eq!(hub["corners"], info["corners"]);
}
