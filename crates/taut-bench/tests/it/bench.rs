//! The bench end to end: the shipped quick suite passes and writes its three reports; a wrong
//! length, a wrong octile column, a reference for another scenario and malformed suite files
//! are caught; on the shared data, the reference optima are enforced.

use std::fs;
use std::path::{Path, PathBuf};

use taut::registry::Algo;
use taut_bench::{BenchError, QueryOutcome, RunOptions, Suite, SuiteRun, bench, run_suite};
use taut_testdata::{fixtures, shared_data, workspace_root};

fn quick() -> Suite {
    let root = workspace_root();
    Suite::read(
        &root.join("benchmarks/suites/quick.toml"),
        &root.join("data"),
    )
    .unwrap()
}

/// A suite directory holding `maps` (copied from `src`), their scenario files, and a suite
/// file with the given body (paths are relative to it).
fn suite_dir(src: &Path, maps: &[&str], body: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    for m in maps {
        fs::copy(
            src.join(format!("{m}.map")),
            dir.path().join(format!("{m}.map")),
        )
        .unwrap();
        fs::copy(
            src.join(format!("{m}.map.scen")),
            dir.path().join(format!("{m}.map.scen")),
        )
        .unwrap();
    }
    let file = dir.path().join("t.toml");
    fs::write(&file, body).unwrap();
    (dir, file)
}

#[test]
fn quick_suite_passes_and_writes_csv_markdown_and_svg() {
    let suite = quick();
    let out = tempfile::tempdir().unwrap();
    let w = bench(
        std::slice::from_ref(&suite),
        &RunOptions::default(),
        out.path(),
        &workspace_root(),
        "test",
    )
    .unwrap();
    let run = &w.runs[0];
    let queries = 130 + 6; // arena.map.scen and small.map.scen
    assert_eq!(run.records.len(), queries * suite.planners.len());
    assert!(run.records.iter().all(|r| r.failure.is_none()));
    // Anya, Polyanya, End Point Search, hub labels and the visibility graph agree on every
    // query of the fixtures (no reference here): each of the five is compared with another.
    assert_eq!(run.checked.cross, 5 * queries);
    assert_eq!(run.checked.paths, queries * suite.planners.len());
    // The CSV: a provenance comment, a header, one row per query and planner.
    let csv = fs::read_to_string(&w.csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("# machine: ") && lines[0].contains("commit "));
    assert!(lines[1].starts_with("suite,map,idx,"));
    assert_eq!(lines.len(), 2 + run.records.len());
    assert!(lines[2..].iter().all(|l| l.ends_with(",ok")));
    // The Markdown: provenance, checks with no failure, one row per planner against A*.
    let md = fs::read_to_string(&w.markdown).unwrap();
    assert!(md.contains("machine: ") && md.contains("date "));
    assert!(md.contains("| quick | every query | 2 | 136 |"));
    for p in [
        "astar",
        "theta",
        "lazy-theta",
        "vg",
        "anya",
        "polyanya",
        "eps",
        "eps:first",
        "hub",
    ] {
        assert!(md.contains(&format!("| quick | {p} | 136 |")), "{p} row");
    }
    assert!(md.contains("### CPDs") && md.contains("### Hub indexes"));
    assert!(md.contains("![quick](time-percentile-quick.svg)"));
    // The plot: an SVG with one line per planner.
    assert_eq!(w.plots.len(), 1);
    let svg = fs::read_to_string(&w.plots[0]).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for p in &suite.planners {
        assert!(
            svg.lines().any(|l| l.trim() == p.label),
            "legend entry for {p}"
        );
    }
    assert!(svg.matches("<polyline").count() >= suite.planners.len());
}

#[test]
fn a_wrong_reference_length_fails_the_run_loudly() {
    // First learn the optimum of query 7 of arena from Anya, then claim it is 0.01 longer.
    let src = fixtures().join("maps");
    let run = run_suite(&quick(), &RunOptions::default()).unwrap();
    let anya = run
        .planners
        .iter()
        .position(|a| a.algo == Algo::Anya)
        .unwrap() as u8;
    let mut csv = String::from("map,idx,sx,sy,gx,gy,len_gppc\n");
    for r in run
        .records
        .iter()
        .filter(|r| r.planner == anya && r.map == 0)
    {
        let len = if r.idx == 7 {
            r.length + 0.01
        } else {
            r.length
        };
        csv += &format!(
            "arena,{},{},{},{},{},{len}\n",
            r.idx, r.start.x, r.start.y, r.goal.x, r.goal.y
        );
    }
    let (dir, file) = suite_dir(
        &src,
        &["arena"],
        "description = \"t\"\nmaps = \".\"\nscenarios = \".\"\nreference = \"ref.csv\"\nplanners = [\"astar\", \"theta\", \"anya\"]\n",
    );
    fs::write(dir.path().join("ref.csv"), csv).unwrap();
    let suite = Suite::read(&file, dir.path()).unwrap();
    let out = tempfile::tempdir().unwrap();
    let err = bench(
        &[suite],
        &RunOptions::default(),
        out.path(),
        dir.path(),
        "test",
    )
    .unwrap_err();
    match err {
        BenchError::Checks { count, first, .. } => {
            // Anya now disagrees with the reference; Theta* (listed before it) fails too when
            // its path is the optimum, as it is on this short query: it is "below" the claim.
            assert!((1..=2).contains(&count), "{count}");
            assert!(first.contains("arena query 7"), "{first}");
        }
        e => panic!("expected a check failure, got {e}"),
    }
    // The reports were written anyway, and they say it.
    let md = fs::read_to_string(out.path().join("summary.md")).unwrap();
    assert!(md.contains("### FAILURES"));
    let csv = fs::read_to_string(out.path().join("queries.csv")).unwrap();
    assert!(
        csv.lines()
            .any(|l| l.starts_with("t,arena,7,") && l.contains(",anya,") && l.contains("FAILED"))
    );
}

#[test]
fn a_wrong_octile_column_fails_astar() {
    let src = fixtures().join("maps");
    let (dir, file) = suite_dir(
        &src,
        &["small"],
        "description = \"t\"\nmaps = \".\"\nscenarios = \".\"\nplanners = [\"astar\", \"anya\"]\n",
    );
    // Lengthen the octile column of the first query by 0.5.
    let scen_path = dir.path().join("small.map.scen");
    let text = fs::read_to_string(&scen_path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut fields: Vec<String> = lines[1].split('\t').map(str::to_owned).collect();
    let v: f64 = fields[8].parse().unwrap();
    fields[8] = format!("{:.8}", v + 0.5);
    lines[1] = fields.join("\t");
    fs::write(&scen_path, lines.join("\n") + "\n").unwrap();
    let run = run_suite(
        &Suite::read(&file, dir.path()).unwrap(),
        &RunOptions::default(),
    )
    .unwrap();
    let failed: Vec<_> = run.records.iter().filter(|r| r.failure.is_some()).collect();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(
        run.planners[failed[0].planner as usize].algo,
        Algo::Baseline(taut::baselines::Baseline::AStar)
    );
    assert_eq!(failed[0].idx, 0);
}

#[test]
fn a_reference_for_another_scenario_file_is_refused() {
    let src = fixtures().join("maps");
    let (dir, file) = suite_dir(
        &src,
        &["small"],
        "description = \"t\"\nmaps = \".\"\nscenarios = \".\"\nreference = \"ref.csv\"\nplanners = [\"anya\"]\n",
    );
    fs::write(
        dir.path().join("ref.csv"),
        "map,idx,sx,sy,gx,gy,len_gppc\nsmall,0,99,99,98,98,1.5\n",
    )
    .unwrap();
    let err = run_suite(
        &Suite::read(&file, dir.path()).unwrap(),
        &RunOptions::default(),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("belongs to another scenario file"),
        "{err}"
    );
}

#[test]
fn malformed_suite_files_are_refused_with_the_reason() {
    let cases = [
        (
            "description = \"t\"\nmaps = \".\"\nscenarios = \".\"\nplanners = [\"dijkstra\"]\n",
            "unknown algorithm",
        ),
        (
            "description = \"t\"\nmaps = \".\"\nscenarios = \".\"\nplanners = []\n",
            "`planners` is empty",
        ),
        (
            "description = \"t\"\nmaps = \".\"\nscenarios = \".\"\nplanners = [\"anya\"]\nsample = 0\n",
            "`sample`",
        ),
        (
            "description = \"t\"\nmaps = \".\"\nscenarios = \".\"\nplanners = [\"anya\"]\ncolour = 1\n",
            "unknown field",
        ),
        (
            "description = \"t\"\nmaps = \".\"\nplanners = [\"anya\"]\n",
            "missing field",
        ),
        ("this is not toml", ""),
    ];
    for (body, why) in cases {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bad.toml");
        fs::write(&file, body).unwrap();
        let err = Suite::read(&file, dir.path()).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("bad.toml") && msg.contains(why),
            "{body:?}: {msg}"
        );
    }
}

#[test]
fn every_shipped_suite_file_parses() {
    let root = workspace_root();
    let files = taut_bench::suite_files(&root.join("benchmarks/suites")).unwrap();
    assert!(files.len() >= 10, "{files:?}");
    for f in files {
        let s = Suite::read(&f, &root.join("data")).unwrap();
        assert!(
            !s.planners.is_empty() && !s.description.is_empty(),
            "{}",
            f.display()
        );
    }
}

/// On the shared data: one Dragon Age map and one random map of the 2018 set, every 3rd query,
/// A*, Theta* and Anya, checked against the independent optima of `optimal/scen.csv`.
#[test]
fn shared_data_reference_optima_are_enforced() {
    let Some(data) = shared_data("shared_data_reference_optima_are_enforced") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for m in ["arena2", "random512-25-0"] {
        fs::copy(
            data.join(format!("grid/maps/{m}.map")),
            dir.path().join(format!("{m}.map")),
        )
        .unwrap();
        fs::copy(
            data.join(format!("grid/scen/{m}.map.scen")),
            dir.path().join(format!("{m}.map.scen")),
        )
        .unwrap();
    }
    let reference = data.join("grid/optimal/scen.csv");
    let file = dir.path().join("t.toml");
    fs::write(
        &file,
        format!(
            "description = \"t\"\nmaps = \".\"\nscenarios = \".\"\nreference = \"{}\"\nplanners = [\"astar\", \"theta\", \"anya\"]\n",
            reference.display()
        ),
    )
    .unwrap();
    let suite = Suite::read(&file, dir.path()).unwrap();
    let opts = RunOptions {
        sample: Some(3),
        ..RunOptions::default()
    };
    let run = run_suite(&suite, &opts).unwrap();
    let failures: Vec<_> = run
        .records
        .iter()
        .filter_map(|r| r.failure.as_ref())
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures, first {:?}",
        failures.len(),
        failures.first()
    );
    let queries = run.records.len() / 3;
    assert!(queries > 700, "{queries}");
    // Anya and Theta* are held to the reference on every query; A* to the octile column.
    assert_eq!(run.checked.reference, 2 * queries);
    assert!(run.records.iter().all(|r| r.outcome == QueryOutcome::Found));
}

#[test]
fn anya_variants_run_side_by_side_and_are_reported_by_label() {
    let suite = quick();
    let planners: Vec<_> = [
        "astar",
        "anya",
        "anya:no-cul-de-sac+no-intermediate",
        "anya:hash",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    let opts = RunOptions {
        planners: Some(planners),
        ..RunOptions::default()
    };
    let run = run_suite(&suite, &opts).unwrap();
    assert!(run.records.iter().all(|r| r.failure.is_none()));
    // Three optimal planners agree on every query.
    assert_eq!(run.checked.cross, 3 * 136);
    let table = taut_bench::summarise(&run);
    let labels: Vec<&str> = table.iter().map(|p| p.planner.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "astar",
            "anya",
            "anya:no-cul-de-sac+no-intermediate",
            "anya:hash"
        ]
    );
    // Without pruning Anya expands at least as many nodes; the history's storage changes nothing.
    assert!(table[2].mean_expanded >= table[1].mean_expanded);
    assert_eq!(table[3].mean_expanded, table[1].mean_expanded);
}

#[test]
fn unreachable_queries_of_the_older_files_must_be_proved_unreachable() {
    // A wall across the whole map: the right half is unreachable from the left. The older
    // scenario generation writes such queries with length 0.
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("wall.map"),
        "type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("wall.map.scen"),
        "version 1\n\
         0\twall.map\t5\t3\t0\t0\t4\t0\t0\n\
         0\twall.map\t5\t3\t0\t0\t1\t2\t2.41421356\n\
         0\twall.map\t5\t3\t0\t0\t1\t0\t0\n",
    )
    .unwrap();
    let file = dir.path().join("t.toml");
    fs::write(
        &file,
        "description = \"t\"\nmaps = \".\"\nscenarios = \".\"\nplanners = [\"astar\", \"anya\", \"vg\"]\n",
    )
    .unwrap();
    let run = run_suite(
        &Suite::read(&file, dir.path()).unwrap(),
        &RunOptions::default(),
    )
    .unwrap();
    assert_eq!(run.checked.unreachable, 1);
    for r in &run.records {
        match r.idx {
            0 => assert!(
                r.outcome == QueryOutcome::Unreachable && r.failure.is_none(),
                "{r:?}"
            ),
            1 => assert!(
                r.outcome == QueryOutcome::Found && r.failure.is_none(),
                "{r:?}"
            ),
            // Query 2 has a path the scenario denies: every planner's answer is flagged.
            _ => assert!(
                r.failure
                    .as_deref()
                    .is_some_and(|f| f.contains("says there is none")),
                "{r:?}"
            ),
        }
    }
}

/// A suite with a `meshes` directory: Polyanya on taut's mesh and on the given reference mesh,
/// both checked against Anya; the summary's mesh table has both polygon counts.
#[test]
fn polyanya_runs_on_built_and_given_meshes() {
    let dir = tempfile::tempdir().unwrap();
    let fx = fixtures();
    let suite_file = dir.path().join("meshes.toml");
    fs::write(
        &suite_file,
        format!(
            "description = \"arena with its reference mesh\"\nmaps = {:?}\nscenarios = {:?}\n\
             only = [\"arena\"]\nmeshes = {:?}\nplanners = [\"anya\", \"polyanya\", \"polyanya:reference\"]\n",
            fx.join("maps").display().to_string(),
            fx.join("maps").display().to_string(),
            fx.join("meshes").display().to_string(),
        ),
    )
    .unwrap();
    let suite = Suite::read(&suite_file, dir.path()).unwrap();
    let run = run_suite(&suite, &RunOptions::default()).unwrap();
    assert_eq!(run.records.len(), 3 * 130);
    assert!(
        run.records
            .iter()
            .all(|r| r.failure.is_none() && r.outcome == QueryOutcome::Found)
    );
    assert_eq!(run.checked.cross, 3 * 130);
    assert_eq!(run.meshes.len(), 1);
    let m = run.meshes[0];
    assert_eq!(m.given_polygons, 55, "arena-merged.mesh has 55 polygons");
    assert!(m.built_polygons > 0 && m.built_polygons < 55, "{m:?}");
    let md = summary_of(&run);
    assert!(md.contains("### Meshes") && md.contains("| 55 |"), "{md}");

    // A mesh of another map is refused with an error naming the file.
    let wrong = dir.path().join("wrong");
    fs::create_dir(&wrong).unwrap();
    fs::copy(
        fx.join("meshes/square.mesh"),
        wrong.join("arena-merged.mesh"),
    )
    .unwrap();
    let text = fs::read_to_string(&suite_file).unwrap().replace(
        &fx.join("meshes").display().to_string(),
        &wrong.display().to_string(),
    );
    fs::write(&suite_file, text).unwrap();
    let suite = Suite::read(&suite_file, dir.path()).unwrap();
    let err = run_suite(&suite, &RunOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("is not a mesh of this map") && err.contains("arena-merged.mesh"),
        "{err}"
    );
}

/// A suite (in `dir`) of the arena fixture alone with `planners` (TOML strings) and the
/// `extra` line (a data directory).
fn arena_suite(dir: &Path, extra: &str, planners: &str) -> Suite {
    let maps = fixtures().join("maps").display().to_string();
    let file = dir.join("arena.toml");
    fs::write(
        &file,
        format!(
            "description = \"arena\"\nmaps = {maps:?}\nscenarios = {maps:?}\n\
             only = [\"arena\"]\n{extra}\nplanners = [{planners}]\n"
        ),
    )
    .unwrap();
    Suite::read(&file, dir).unwrap()
}

/// The Markdown summary of `run` alone.
fn summary_of(run: &SuiteRun) -> String {
    taut_bench::markdown(
        std::slice::from_ref(run),
        &taut_bench::Provenance::collect(&workspace_root()),
        &[],
        "test",
    )
}

/// Every query of `run` found a path and passed its checks.
fn assert_all_found(run: &SuiteRun) {
    assert!(
        run.records
            .iter()
            .all(|r| r.failure.is_none() && r.outcome == QueryOutcome::Found),
        "{:?}",
        run.records.iter().find(|r| r.failure.is_some())
    );
}

#[test]
fn eps_runs_with_a_built_or_read_cpd_and_is_checked_by_its_stop_rule() {
    let dir = tempfile::tempdir().unwrap();
    let fx = fixtures();
    let cpds = dir.path().join("cpd");
    let suite = arena_suite(
        dir.path(),
        &format!("cpds = {:?}", cpds.display().to_string()),
        r#""anya", "eps", "eps:first", "eps:q1.05""#,
    );
    assert_eq!(suite.cpd_of("arena"), Some(cpds.join("arena.cpd")));
    // No file yet: built in memory, once for the three eps planners.
    let run = run_suite(&suite, &RunOptions::default()).unwrap();
    assert_eq!(run.records.len(), 4 * 130);
    assert_all_found(&run);
    // Anya and eps are both optimal: each is compared with the other.
    assert_eq!(run.checked.cross, 2 * 130);
    assert_eq!(run.cpds.len(), 1);
    let built = run.cpds[0];
    assert!(
        built.built && built.nodes > 0 && built.runs >= built.nodes,
        "{built:?}"
    );
    let md = summary_of(&run);
    assert!(md.contains("### CPDs"), "{md}");

    // An up-to-date file is read instead.
    let grid = taut::grid::Grid::from_map(
        &taut::grid::MapFile::read(fx.join("maps/arena.map")).unwrap(),
        &taut::grid::FreeSet::default(),
    );
    let mesh = taut::mesh::mesh_from_grid(&grid).unwrap();
    let cpd = taut::cpd::build_cpd(
        &mesh,
        &taut::cpd::BuildParams::default(),
        &taut::cpd::NoProgress,
    )
    .unwrap();
    fs::create_dir(&cpds).unwrap();
    taut::cpd::write_cpd(&cpds.join("arena.cpd"), &cpd).unwrap();
    let run = run_suite(&suite, &RunOptions::default()).unwrap();
    assert!(run.records.iter().all(|r| r.failure.is_none()));
    let read = run.cpds[0];
    assert!(!read.built);
    assert_eq!(
        (read.nodes, read.edges, read.runs),
        (built.nodes, built.edges, built.runs)
    );

    // A CPD of another map is stale for this one: built again, not used.
    let small = taut::grid::Grid::from_map(
        &taut::grid::MapFile::read(fx.join("maps/small.map")).unwrap(),
        &taut::grid::FreeSet::default(),
    );
    let other = taut::cpd::build_cpd(
        &taut::mesh::mesh_from_grid(&small).unwrap(),
        &taut::cpd::BuildParams::default(),
        &taut::cpd::NoProgress,
    )
    .unwrap();
    taut::cpd::write_cpd(&cpds.join("arena.cpd"), &other).unwrap();
    let run = run_suite(&suite, &RunOptions::default()).unwrap();
    assert!(run.records.iter().all(|r| r.failure.is_none()));
    assert!(run.cpds[0].built);
}

#[test]
fn hub_runs_with_a_built_or_read_index_and_is_checked_against_anya() {
    let dir = tempfile::tempdir().unwrap();
    let fx = fixtures();
    let hubs = dir.path().join("hub");
    let suite = arena_suite(
        dir.path(),
        &format!("hubs = {:?}", hubs.display().to_string()),
        r#""anya", "hub""#,
    );
    assert_eq!(suite.hub_of("arena"), Some(hubs.join("arena.hub")));
    // No file yet: built in memory, a label per point.
    let run = run_suite(&suite, &RunOptions::default()).unwrap();
    assert_eq!(run.records.len(), 2 * 130);
    assert_all_found(&run);
    assert_eq!(run.checked.cross, 2 * 130, "hub and Anya are compared");
    assert_eq!(run.hubs.len(), 1);
    let built = run.hubs[0];
    assert!(
        built.built && built.corners > 0 && built.region == 1,
        "{built:?}"
    );
    let md = summary_of(&run);
    assert!(md.contains("### Hub indexes"), "{md}");

    // An up-to-date file (here of regions of 4) is read and used instead.
    let grid = |name: &str| {
        taut::grid::Grid::from_map(
            &taut::grid::MapFile::read(fx.join(format!("maps/{name}.map"))).unwrap(),
            &taut::grid::FreeSet::default(),
        )
    };
    let arena = grid("arena");
    let mesh = taut::mesh::mesh_from_grid(&arena).unwrap();
    let index = taut::hub::HubIndex::build_with_regions(&arena, &mesh, 4).unwrap();
    fs::create_dir(&hubs).unwrap();
    taut::hub::write_hub(&hubs.join("arena.hub"), &index).unwrap();
    let run = run_suite(&suite, &RunOptions::default()).unwrap();
    assert!(run.records.iter().all(|r| r.failure.is_none()));
    assert_eq!(run.checked.cross, 2 * 130);
    let read = run.hubs[0];
    assert!(!read.built && read.region == 4, "{read:?}");

    // An index of another map is stale for this one: built again, not used.
    let small = grid("small");
    let other =
        taut::hub::HubIndex::build(&small, &taut::mesh::mesh_from_grid(&small).unwrap()).unwrap();
    taut::hub::write_hub(&hubs.join("arena.hub"), &other).unwrap();
    let run = run_suite(&suite, &RunOptions::default()).unwrap();
    assert!(run.records.iter().all(|r| r.failure.is_none()));
    assert!(run.hubs[0].built && run.hubs[0].region == 1);
}

#[test]
fn the_frontier_times_hub_at_each_budget_beside_the_baselines_and_checks_every_length() {
    use taut_bench::frontier::{
        FRONTIER_HEADER, FrontierOptions, check_against, pareto, run_frontier, write_frontier,
    };
    let dir = tempfile::tempdir().unwrap();
    let suite = quick();
    let opts = FrontierOptions {
        budgets: vec![1000, 10_000_000_000],
        full: true,
        baselines: vec!["anya".parse().unwrap(), "eps".parse().unwrap()],
        hubs_dir: dir.path().join("hubs"),
        run: RunOptions::default(),
    };
    let f = run_frontier(&suite, &opts).unwrap();
    assert_eq!(f.failures(), 0, "{:?}", f.rows);
    // Per map: anya, eps, then hub full, 1KB (refused) and 10GB (the full index again).
    assert_eq!(f.rows.len(), 2 * 5);
    for map in ["arena", "small"] {
        let rows: Vec<_> = f.rows.iter().filter(|r| r.map == map).collect();
        let queries = if map == "arena" { 130 } else { 6 };
        let hub = |setting: &str| {
            rows.iter()
                .find(|r| r.planner == "hub" && r.setting == setting)
                .unwrap()
        };
        for r in &rows {
            if r.setting != "1KB" {
                assert_eq!(r.queries, queries, "{r:?}");
                assert!(r.median_us > 0.0 && r.mean_us > 0.0, "{r:?}");
            }
        }
        let refused = hub("1KB");
        assert!(
            refused
                .refused
                .as_deref()
                .unwrap()
                .contains("fits 1000 bytes")
                && refused.queries == 0,
            "{refused:?}"
        );
        assert_eq!((hub("full").region, hub("10GB").region), (1, 1));
        assert_eq!(hub("full").index_bytes, hub("10GB").index_bytes);
        assert!(hub("full").build_secs.is_some() && hub("full").index_bytes > 0);
        let eps = rows.iter().find(|r| r.planner == "eps").unwrap();
        assert!(eps.index_bytes > 0, "the CPD's size: {eps:?}");
        assert_eq!(
            rows.iter()
                .find(|r| r.planner == "anya")
                .unwrap()
                .index_bytes,
            0
        );
        assert!(dir.path().join(format!("hubs/full/{map}.hub")).is_file());
    }
    // A refused row is never on the frontier (`pareto` itself is tested in frontier.rs).
    let front = pareto(&f.rows);
    for (r, on) in f.rows.iter().zip(&front) {
        if r.refused.is_some() {
            assert!(!on);
        }
    }
    // A hub length off the baselines' optimum is flagged, naming the planner it differs from.
    let (baselines, hub) = (&f.runs[0], &f.runs[1]);
    let mut wrong = hub.clone();
    assert_eq!(check_against(&mut wrong, baselines), 0);
    let k = wrong
        .records
        .iter()
        .position(|r| r.outcome == QueryOutcome::Found && r.length > 1.0)
        .unwrap();
    wrong.records[k].length += 1e-3;
    assert_eq!(check_against(&mut wrong, baselines), 1);
    assert!(
        wrong.records[k]
            .failure
            .as_deref()
            .is_some_and(|f| f.contains("differs from anya's optimum")),
        "{:?}",
        wrong.records[k].failure
    );
    let files = write_frontier(&dir.path().join("out"), &f, "machine: test", "test").unwrap();
    let csv = fs::read_to_string(&files[0]).unwrap();
    assert_eq!(csv.lines().nth(1), Some(FRONTIER_HEADER));
    assert_eq!(csv.lines().count(), 2 + f.rows.len());
    let md = fs::read_to_string(&files[1]).unwrap();
    assert!(md.contains("## arena") && md.contains("★"), "{md}");
    assert_eq!(files.len(), 4, "csv, md and one plot per map: {files:?}");
    let svg = fs::read_to_string(&files[2]).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("full (g=1)"));
}
