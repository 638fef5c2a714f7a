//! `taut hub build|info` and `taut scen|path --algo hub`: a written index answers as one built
//! in memory and as Anya, and every bad input (missing, truncated, foreign or stale index,
//! misplaced option) is one line and a non-zero exit.

use std::path::{Path, PathBuf};

use crate::common::{arg as s, csv_lengths as lengths, fails, fixture as f, ok, taut};
use taut::grid::lengths_agree;

/// The arguments of `taut hub build --map fixtures/MAP -o OUT EXTRA...`.
fn hub_build(map: &str, out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "hub".into(),
        "build".into(),
        "--map".into(),
        f(map),
        "-o".into(),
        s(out),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

fn build(dir: &Path, map: &str) -> PathBuf {
    let hub = dir.join("index.hub");
    let line = ok(&strs(&hub_build(map, &hub, &["--jobs", "2"])));
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(
        line.starts_with(&format!("wrote {}: ", hub.display())),
        "{line}"
    );
    for word in [
        " corners, ",
        " point entries (",
        " per point), ",
        " MB, ",
        " 2 threads",
    ] {
        assert!(line.contains(word), "{line}");
    }
    hub
}

#[test]
fn a_built_index_is_described_and_answers_as_anya() {
    let dir = tempfile::tempdir().unwrap();
    let hub = build(dir.path(), "maps/arena.map");
    let info = ok(&["hub", "info", &s(&hub)]);
    let keys: Vec<&str> = info
        .lines()
        .map(|l| l.rsplit_once(' ').unwrap().0)
        .collect();
    assert_eq!(
        keys,
        [
            "file",
            "format version",
            "map 49 x",
            "mesh hash",
            "corners",
            "graph edges",
            "core entries",
            "points",
            "region side",
            "point entries",
            "entries per point",
            "region hubs",
            "region vias",
            "file MB",
            "memory MB"
        ]
    );
    // --format json: the same fields, keys in snake case, numbers as numbers.
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["hub", "info", &s(&hub), "--format", "json"])).unwrap();
    assert_eq!(json.as_object().unwrap().len(), keys.len(), "{json}");
    assert_eq!(json["map"], serde_json::json!([49, 49]));
    let points = info
        .lines()
        .find_map(|l| l.strip_prefix("points "))
        .unwrap();
    assert_eq!(json["points"].as_u64(), points.parse().ok());
    let scen = |extra: &[&str]| {
        let (map, scen) = (f("maps/arena.map"), f("maps/arena.map.scen"));
        let mut args = vec!["scen", "--map", &map];
        args.extend(["--scen", &scen, "--format", "csv"]);
        args.extend(extra);
        let o = taut(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        lengths(&String::from_utf8(o.stdout).unwrap())
    };
    let anya = scen(&["--algo", "anya"]);
    let from_file = scen(&["--algo", "hub", "--hub", &s(&hub)]);
    let in_memory = scen(&["--algo", "hub"]);
    assert!(anya.len() > 100);
    assert_eq!(from_file, in_memory);
    // Labels shared by regions of 5 x 5 cells: a smaller file, the same answers.
    let regions = dir.path().join("regions.hub");
    let line = ok(&strs(&hub_build(
        "maps/arena.map",
        &regions,
        &["--region", "5"],
    )));
    assert!(line.contains("regions of 5 x 5: "), "{line}");
    assert!(std::fs::metadata(&regions).unwrap().len() < std::fs::metadata(&hub).unwrap().len());
    let from_regions = scen(&["--algo", "hub", "--hub", &s(&regions)]);
    for ((a, h), r) in anya.iter().zip(&from_file).zip(&from_regions) {
        assert_eq!((&a.0, &a.0), (&h.0, &r.0));
        assert!(a.0 != "ok" || lengths_agree(a.1, h.1), "{a:?} {h:?}");
        assert!(a.0 != "ok" || lengths_agree(a.1, r.1), "{a:?} {r:?}");
    }
    let e = fails(
        &strs(&hub_build("maps/arena.map", &regions, &["--region", "65"])),
        2,
    );
    assert!(e.contains("--region"), "{e}");
    // A budget: the finest index that fits, or one line naming the smallest size found.
    let budget = dir.path().join("budget.hub");
    let line = ok(&strs(&hub_build(
        "maps/arena.map",
        &budget,
        &["--budget", "300KB"],
    )));
    assert!(line.contains("regions of"), "{line}");
    assert!(std::fs::metadata(&budget).unwrap().len() <= 300_000);
    let e = fails(
        &strs(&hub_build("maps/arena.map", &budget, &["--budget", "2KB"])),
        1,
    );
    assert!(
        e.contains("no hub index of this map fits 2000 bytes"),
        "{e}"
    );
    let e = fails(
        &strs(&hub_build(
            "maps/arena.map",
            &budget,
            &["--budget", "1MB", "--region", "2"],
        )),
        2,
    );
    assert!(e.contains("--budget") || e.contains("--region"), "{e}");
    let path = ok(&[
        "path",
        "--algo",
        "hub",
        "--hub",
        &s(&hub),
        "--map",
        &f("maps/arena.map"),
        "--from",
        "3,3",
        "--to",
        "40,40",
    ]);
    assert!(path.contains("length"), "{path}");
}

#[test]
fn bad_indexes_and_options_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let hub = build(dir.path(), "maps/arena.map");
    let arena = f("maps/arena.map");
    let scen = f("maps/arena.map.scen");
    let run = |hub: &str, map: &str, scen: &str| {
        fails(
            &[
                "scen", "--algo", "hub", "--hub", hub, "--map", map, "--scen", scen,
            ],
            1,
        )
    };
    // Missing, truncated, foreign.
    let missing = dir.path().join("missing.hub");
    assert!(run(&s(&missing), &arena, &scen).contains("missing.hub"));
    let bytes = std::fs::read(&hub).unwrap();
    let truncated = dir.path().join("truncated.hub");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    assert!(run(&s(&truncated), &arena, &scen).ends_with("truncated"));
    assert!(run(&arena, &arena, &scen).contains("not a taut hub index"));
    // Another map's index.
    let small = f("maps/small.map");
    let e = run(&s(&hub), &small, &f("maps/small.map.scen"));
    assert!(e.contains("another"), "{e}");
    // --hub with another planner.
    let e = fails(
        &[
            "scen",
            "--algo",
            "anya",
            "--hub",
            &s(&hub),
            "--map",
            &arena,
            "--scen",
            &scen,
        ],
        1,
    );
    assert!(e.contains("--hub works only with --algo hub"), "{e}");
    // info on a damaged file.
    let mut flipped = bytes.clone();
    let k = flipped.len() - 40;
    flipped[k] ^= 1;
    let damaged = dir.path().join("damaged.hub");
    std::fs::write(&damaged, flipped).unwrap();
    assert!(fails(&["hub", "info", &s(&damaged)], 1).contains("checksum"));
}
