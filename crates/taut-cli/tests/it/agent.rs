//! `taut agent` end to end: runs the built binary and checks its output contract.
//!
//! - csv: the header, one row per query in file order, number formats, and for every reached
//!   row a cost no lower than the scenario's octile column (the optimum with full knowledge
//!   of the map, under the agents' own move rule) and consistent with the number of moves;
//! - invalid queries (blocked or off-map endpoints) are rows with empty fields and exit 0;
//!   an unreachable goal is `unreachable`;
//! - `--format text` has the csv's costs and a summary line that counts and averages them;
//! - `--query N` and `--start`/`--goal` run one query;
//! - usage errors exit 2 with one line;
//! - `-o/--output` (formerly `--render`, which still works with a warning) writes an SVG (or PNG) whose trail runs through cell centres from the start
//!   to the goal in legal 8-connected steps.

use std::path::{Path, PathBuf};

use crate::common::{fails, ok};
use taut::grid::LENGTH_TOLERANCE;

const HEADER: &str = "index,status,cost,moves,episodes,max_episode_expansions,time_us";

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/maps")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A parsed csv row; the numbers are `None` for an invalid query (empty fields).
#[derive(Debug, Clone, PartialEq)]
struct Row {
    index: usize,
    status: String,
    cost: Option<f64>,
    moves: Option<u64>,
    episodes: Option<u64>,
    max_episode_expansions: Option<u32>,
    time_us: Option<f64>,
}

/// Parses `taut agent` csv output, checking the header and the number formats.
fn parse_csv(text: &str) -> Vec<Row> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(HEADER));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 7, "{l}");
            let status = f[1].to_owned();
            if status == "invalid" {
                assert!(f[2..].iter().all(|x| x.is_empty()), "{l}");
            } else {
                // 6 decimals of cost, 1 of time.
                assert_eq!(f[2].split_once('.').map(|(_, d)| d.len()), Some(6), "{l}");
                assert_eq!(f[6].split_once('.').map(|(_, d)| d.len()), Some(1), "{l}");
            }
            let num = |s: &str| (!s.is_empty()).then(|| s.parse().expect(l));
            let int = |s: &str| (!s.is_empty()).then(|| s.parse::<u64>().expect(l));
            Row {
                index: f[0].parse().unwrap(),
                status,
                cost: num(f[2]),
                moves: int(f[3]),
                episodes: int(f[4]),
                max_episode_expansions: (!f[5].is_empty()).then(|| f[5].parse().unwrap()),
                time_us: num(f[6]),
            }
        })
        .collect()
}

/// `taut agent --map arena.map --scen arena.map.scen --algo ALGO --lookahead K EXTRA...`.
fn arena(algo: &str, k: &str, extra: &[&str]) -> String {
    let (map, scen) = (fixture("arena.map"), fixture("arena.map.scen"));
    let mut args = vec![
        "agent",
        "--map",
        &map,
        "--scen",
        &scen,
        "--algo",
        algo,
        "--lookahead",
        k,
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn csv_rows_reach_every_goal_at_no_less_than_the_octile_optimum() {
    let scen = taut::grid::Scenario::read(fixture("arena.map.scen")).unwrap();
    for (algo, k, max_k) in [("bug2", "16", 1), ("p-frit-rt", "16", 16)] {
        let rows = parse_csv(&arena(algo, k, &[]));
        assert_eq!(rows.len(), 130, "{algo}");
        for ((i, r), e) in rows.iter().enumerate().zip(&scen.entries) {
            assert_eq!(r.index, i, "{algo}");
            assert_eq!(r.status, "ok", "{algo} {r:?}");
            let (cost, moves) = (r.cost.unwrap(), r.moves.unwrap() as f64);
            let tol = LENGTH_TOLERANCE;
            assert!(cost >= e.octile - tol, "{algo} {r:?} vs {}", e.octile);
            // Every move costs 1 or √2 (the cost is printed with 6 decimals).
            assert!(
                cost >= moves - tol && cost <= moves * std::f64::consts::SQRT_2 + tol,
                "{algo} {r:?}"
            );
            assert!(r.max_episode_expansions.unwrap() <= max_k, "{algo} {r:?}");
            assert!(r.episodes.unwrap() <= r.moves.unwrap() + 1, "{algo} {r:?}");
            assert!(r.time_us.unwrap() >= 0.0);
        }
    }
}

#[test]
fn text_rows_and_summary_match_the_csv() {
    let csv = parse_csv(&arena("bug2", "1", &[]));
    let text = arena("bug2", "1", &["--format", "text"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), csv.len() + 1);
    for (line, r) in lines.iter().zip(&csv) {
        let w: Vec<&str> = line.split(' ').collect();
        assert_eq!(w.len(), 13, "{line}");
        assert_eq!(
            (w[0], w[3], w[5], w[7], w[9], w[11]),
            (
                "query",
                "cost",
                "moves",
                "episodes",
                "max_episode_expansions",
                "time_us"
            ),
            "{line}"
        );
        assert_eq!(w[1].parse::<usize>().unwrap(), r.index);
        assert_eq!(w[2], r.status);
        // The agents are deterministic: the same cost and moves as the csv run.
        assert_eq!(w[4].parse::<f64>().ok(), r.cost, "{line}");
        assert_eq!(w[6].parse::<u64>().ok(), r.moves, "{line}");
    }
    let summary: Vec<&str> = lines[csv.len()].split(' ').collect();
    assert_eq!(
        summary[..12],
        [
            "queries",
            "130",
            "ok",
            "130",
            "unreachable",
            "0",
            "invalid",
            "0",
            "limit",
            "0",
            "failed",
            "0"
        ]
    );
    assert_eq!((summary[12], summary[14]), ("mean_cost", "mean_time_us"));
    let mean = csv.iter().map(|r| r.cost.unwrap()).sum::<f64>() / csv.len() as f64;
    let printed: f64 = summary[13].parse().unwrap();
    assert!((printed - mean).abs() < 1e-5, "{printed} vs {mean}");
    assert!(summary[15].parse::<f64>().unwrap() >= 0.0);
}

#[test]
fn invalid_queries_are_rows_and_exit_0() {
    // On arena.map, cell (0, 0) is a tree and (60, 3) is off the 49 x 49 map (the scenario
    // declares a larger map, so that it can name the cell).
    let dir = tempfile::tempdir().unwrap();
    let scen = dir.path().join("bad.scen");
    let line = |sx, sy, gx, gy| format!("0\tarena.map\t64\t64\t{sx}\t{sy}\t{gx}\t{gy}\t0\n");
    let text = [
        "version 1\n".to_owned(),
        line(0, 0, 19, 29),
        line(19, 26, 19, 29),
        line(60, 3, 19, 29),
        line(19, 26, 3, 60),
    ]
    .concat();
    std::fs::write(&scen, text).unwrap();
    let out = ok(&[
        "agent",
        "--map",
        &fixture("arena.map"),
        "--scen",
        scen.to_str().unwrap(),
        "--algo",
        "rtaa",
        "--lookahead",
        "4",
    ]);
    assert!(out.contains("\n0,invalid,,,,,\n"), "{out}");
    let rows = parse_csv(&out);
    let status: Vec<&str> = rows.iter().map(|r| r.status.as_str()).collect();
    assert_eq!(status, ["invalid", "ok", "invalid", "invalid"]);
    assert_eq!(rows[1].cost, Some(3.0));

    // small-edge.scen: blocked and off-map endpoints, start == goal, a walled-in start; in
    // text, an invalid query names its reason.
    let (map, scen) = (fixture("small.map"), fixture("small-edge.scen"));
    let args = ["agent", "--map", &map, "--scen", &scen, "--algo", "frit-rt"];
    let rows = parse_csv(&ok(&args));
    let status: Vec<&str> = rows.iter().map(|r| r.status.as_str()).collect();
    assert_eq!(
        status,
        [
            "ok",
            "invalid",
            "invalid",
            "invalid",
            "ok",
            "unreachable",
            "invalid"
        ]
    );
    assert_eq!((rows[4].cost, rows[4].moves), (Some(0.0), Some(0)));
    let text = ok(&[&args[..], &["--format", "text"]].concat());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "query 1 invalid start (2, 1) is a blocked cell");
    assert!(lines[3].starts_with("query 3 invalid goal (9, 7) is off the"));
    assert!(
        lines[7].starts_with("queries 7 ok 2 unreachable 1 invalid 4 limit 0 failed 0 mean_cost ")
    );
}

#[test]
fn one_query_by_index_or_by_cells() {
    let map = fixture("arena.map");
    let rows = parse_csv(&arena("dartaa", "8", &["--query", "3"]));
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].index, rows[0].status.as_str()), (3, "ok"));
    // Query 3 of arena.map.scen is 30,22 -> 31,21.
    let by_cells = parse_csv(&ok(&[
        "agent",
        "--map",
        &map,
        "--start",
        "30,22",
        "--goal",
        "31,21",
        "--algo",
        "dartaa",
        "--lookahead",
        "8",
    ]));
    assert_eq!(by_cells.len(), 1);
    assert_eq!(by_cells[0].index, 0);
    assert_eq!(
        (by_cells[0].cost, by_cells[0].moves),
        (rows[0].cost, rows[0].moves)
    );
    let e = fails(
        &[
            "agent",
            "--map",
            &map,
            "--scen",
            &fixture("arena.map.scen"),
            "--query",
            "130",
        ],
        1,
    );
    assert!(e.contains("has 130 queries: there is no query 130"), "{e}");
    let e = fails(
        &[
            "agent", "--map", "nope.map", "--start", "1,1", "--goal", "2,2",
        ],
        1,
    );
    assert!(e.contains("nope.map"), "{e}");
}

#[test]
fn profiles_options_and_corner_cutting_reach_every_goal() {
    let scen = taut::grid::Scenario::read(fixture("arena.map.scen")).unwrap();
    for extra in [
        &["--profile", "taut"][..],
        &[
            "--frit-option",
            "learned-h=keep,release=off",
            "--frit-option",
            "tree=diagonal-first",
            "--frit-option",
            "ties=insertion",
        ],
        &[
            "--moves",
            "corner-cut",
            "--frit-option",
            "border=common-neighbour",
        ],
    ] {
        let rows = parse_csv(&arena("p-frit-rt", "4", extra));
        assert_eq!(rows.len(), scen.entries.len(), "{extra:?}");
        for (r, e) in rows.iter().zip(&scen.entries) {
            assert_eq!(r.status, "ok", "{extra:?} {r:?}");
            // The octile column is the optimum without corner cutting; with it, paths may be
            // shorter, but never shorter than the octile distance.
            let (dx, dy) = ((e.goal.x - e.start.x).abs(), (e.goal.y - e.start.y).abs());
            let octile = f64::from(dx.max(dy) - dx.min(dy))
                + f64::from(dx.min(dy)) * std::f64::consts::SQRT_2;
            assert!(
                r.cost.unwrap() >= octile - LENGTH_TOLERANCE,
                "{extra:?} {r:?}"
            );
        }
    }
}

/// `--help` names every option the library's `FritConfig::set` takes, with its values.
#[test]
fn help_lists_every_frit_option() {
    let help = ok(&["agent", "--help"]).replace(char::is_whitespace, "");
    for (name, values) in taut::frit::FritConfig::OPTIONS {
        let first = values.split('|').next().unwrap().trim();
        assert!(
            help.contains(&format!("{name}={first}")),
            "{name} ({values}) missing"
        );
    }
}

#[test]
fn bad_arguments_are_usage_errors() {
    let (map, scen) = (fixture("arena.map"), fixture("arena.map.scen"));
    let agent = |extra: &[&str], code: i32| {
        let mut args = vec!["agent", "--map", map.as_str()];
        args.extend_from_slice(extra);
        fails(&args, code)
    };
    let e = agent(&["--scen", &scen, "--algo", "astar"], 2);
    assert!(e.contains("astar") && e.contains("p-frit-rt"), "{e}");
    assert!(e.ends_with("(see `taut agent --help`)"), "{e}");
    let e = agent(&["--scen", &scen, "--lookahead", "0"], 2);
    assert!(e.contains("--lookahead"), "{e}");
    agent(&["--scen", &scen, "--lookahead", "-1"], 2);
    agent(&["--scen", &scen, "--lookahead", "x"], 2);
    agent(&[], 2);
    agent(&["--start", "1,1"], 2);
    agent(&["--start", "1,1", "--goal", "2,2", "--query", "1"], 2);
    agent(&["--start", "1,1", "--goal", "2,2", "--scen", &scen], 2);
    agent(&["--start", "1.5,1", "--goal", "2,2"], 2);
    agent(&["--scen", &scen, "--format", "yaml"], 2);
    agent(&["--scen", &scen, "--output", "x.jpg"], 2);
    agent(&["--scen", &scen, "--free", "x"], 2);
    let e = agent(&["--scen", &scen, "--profile", "fast"], 2);
    assert!(e.contains("paper or taut"), "{e}");
    let e = agent(&["--scen", &scen, "--frit-option", "learned-h=forget"], 2);
    assert!(e.contains("reset | keep"), "{e}");
    let e = agent(&["--scen", &scen, "--frit-option", "colour=walk"], 2);
    assert!(e.contains("unknown FRIT option"), "{e}");
    agent(&["--scen", &scen, "--moves", "diagonal"], 2);
    assert!(ok(&["agent", "--help"]).contains("max_episode_expansions"));
    assert!(ok(&["--help"]).contains("agent"));
}

/// A point in map units.
type Pt = (f64, f64);

/// The points of the SVG polyline of class `path`, and the centres of the `start` and `goal`
/// circles.
fn svg_trail(text: &str) -> (Vec<Pt>, Pt, Pt) {
    let doc = roxmltree::Document::parse(text).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let class = |n: &roxmltree::Node<'_, '_>, c: &str| n.attribute("class") == Some(c);
    let lines: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && class(n, "path"))
        .collect();
    assert_eq!(lines.len(), 1);
    let points = lines[0]
        .attribute("points")
        .unwrap()
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    let centre = |c: &str| {
        let g = doc.descendants().find(|n| class(n, c)).unwrap();
        let circle = g.first_element_child().unwrap();
        let at = |a| circle.attribute(a).unwrap().parse::<f64>().unwrap();
        (at("cx"), at("cy"))
    };
    (points, centre("start"), centre("goal"))
}

#[test]
fn render_draws_the_trail_through_cell_centres() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("trail.svg");
    // Query 114 of arena.map.scen: 39,6 -> 12,40 (cells), across the arena.
    let out = arena(
        "p-frit-rt",
        "16",
        &["--query", "114", "--output", svg.to_str().unwrap()],
    );
    let rows = parse_csv(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].status, "ok");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(!text.is_empty());
    let (points, start, goal) = svg_trail(&text);
    assert_eq!((start, goal), ((39.5, 6.5), (12.5, 40.5)));
    assert!(points.len() >= 2);
    assert_eq!((points[0], points[points.len() - 1]), (start, goal));
    // Cell centres, joined by straight or diagonal runs of moves.
    for w in points.windows(2) {
        let ((ax, ay), (bx, by)) = (w[0], w[1]);
        assert!(ax.fract() == 0.5 && ay.fract() == 0.5, "{w:?}");
        let (dx, dy) = ((bx - ax).abs(), (by - ay).abs());
        assert!(dx == 0.0 || dy == 0.0 || dx == dy, "{w:?}");
        assert!(dx + dy > 0.0, "{w:?}");
    }
    // The trail is at least as long as the run's cost (runs merged, nothing skipped).
    let len: f64 = points
        .windows(2)
        .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
        .sum();
    assert!(
        (len - rows[0].cost.unwrap()).abs() < 1e-4,
        "{len} vs {rows:?}"
    );
    let title = roxmltree::Document::parse(&text)
        .unwrap()
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text().map(str::to_owned))
        .unwrap();
    assert!(
        title.starts_with("p-frit-rt (lookahead 16) query 114"),
        "{title}"
    );

    // Without --query, every query is run and the first one is drawn; PNG by extension.
    let png = dir.path().join("trail.png");
    let rows = parse_csv(&arena("bug2", "1", &["--output", png.to_str().unwrap()]));
    assert_eq!(rows.len(), 130);
    let bytes = std::fs::read(&png).unwrap();
    let reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let layout = taut::render::Layout::fit(49, 49, 2048, None).unwrap();
    assert_eq!(
        (reader.info().width, reader.info().height),
        (layout.width, layout.height)
    );
    let svg0 = dir.path().join("first.svg");
    arena("bug2", "1", &["--output", svg0.to_str().unwrap()]);
    let (_, start, goal) = svg_trail(&std::fs::read_to_string(&svg0).unwrap());
    // Query 0 of arena.map.scen is 19,26 -> 19,29.
    assert_eq!((start, goal), ((19.5, 26.5), (19.5, 29.5)));
}

#[test]
fn render_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing: PathBuf = dir.path().join("missing").join("x.svg");
    let e = fails(
        &[
            "agent",
            "--map",
            &fixture("arena.map"),
            "--start",
            "19,26",
            "--goal",
            "19,29",
            "--output",
            missing.to_str().unwrap(),
        ],
        1,
    );
    assert!(
        e.starts_with("taut: cannot write ") && e.contains("missing"),
        "{e}"
    );
}

#[test]
fn json_has_the_csv_columns_and_the_old_render_name_warns() {
    let csv = parse_csv(&arena("p-frit-rt", "4", &[]));
    let json = arena("p-frit-rt", "4", &["--format", "json"]);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&json).expect("one JSON array");
    assert_eq!(rows.len(), csv.len());
    for (j, c) in rows.iter().zip(&csv) {
        assert_eq!(j["index"], c.index);
        assert_eq!(j["status"], c.status.as_str());
        assert_eq!(j["cost"].as_f64(), c.cost, "{j}");
        assert_eq!(j["moves"].as_u64(), c.moves);
        assert_eq!(j["reason"], serde_json::Value::Null);
    }
    // An invalid query: nulls and its reason.
    let (map, blocked) = (fixture("arena.map"), ["--start", "0,0", "--goal", "5,5"]);
    let out = ok(&[
        "agent", "--map", &map, blocked[0], blocked[1], blocked[2], blocked[3], "--format", "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["status"], "invalid");
    assert!(v[0]["cost"].is_null() && v[0]["reason"].as_str().is_some_and(|r| !r.is_empty()));
    // --render is the old name of -o/--output: it still draws, with one warning line.
    let dir = std::env::temp_dir().join(format!("taut-agent-old-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("t.svg");
    let scen = fixture("arena.map.scen");
    let o = crate::common::taut(&[
        "agent",
        "--map",
        &map,
        "--scen",
        &scen,
        "--query",
        "3",
        "--render",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--render is now -o/--output"), "{err}");
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
}
