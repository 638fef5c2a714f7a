//! `taut-bench frit` end to end on the shipped fixture maps (no shared data needed): every
//! algorithm at two lookaheads on a few seeded problems per map, every run checked, the same
//! rows from one thread and from two, and the three reports written.

use taut::frit::Algo;
use taut_bench::frit::{FritOptions, run_experiment, summarise, write_reports};

fn options(threads: usize) -> FritOptions {
    FritOptions {
        maps_dir: taut_testdata::workspace_root().join("fixtures/maps"),
        maps: vec!["arena".into(), "small".into()],
        problems: 3,
        lookaheads: vec![1, 16],
        algos: Algo::ALL.to_vec(),
        seed: 7,
        threads,
        progress: false,
    }
}

#[test]
fn the_frit_experiment_runs_checks_and_reports() {
    let opts = options(1);
    let rows = run_experiment(&opts).expect("the fixture maps load");
    // FRIT(BFS) and Bug2 ignore the lookahead and run once per problem; LRTA* runs at k = 1.
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!(
            r.status,
            "reached",
            "{} #{} {} k={}",
            r.map,
            r.problem,
            r.algo.name(),
            r.lookahead
        );
        assert!(r.optimal > 0.0, "a problem with start = goal was drawn");
        assert!(
            r.cost >= r.optimal - 1e-9,
            "{} beat the optimum on {} #{}: {} < {}",
            r.algo.name(),
            r.map,
            r.problem,
            r.cost,
            r.optimal
        );
        let k = r.algo.effective_lookahead(r.lookahead);
        assert!(r.max_episode_expansions <= k, "{} k={k}", r.algo.name());
    }
    for algo in Algo::ALL {
        assert!(
            rows.iter().any(|r| r.algo == algo),
            "{} never ran",
            algo.name()
        );
    }

    // Same problems and the same trajectories on two threads (times differ).
    let strip = |rows: &[taut_bench::frit::RunRow]| {
        let mut v: Vec<_> = rows
            .iter()
            .map(|r| {
                (
                    r.map.clone(),
                    r.problem,
                    r.algo.name(),
                    r.lookahead,
                    r.moves,
                    r.cost.to_bits(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let two = run_experiment(&options(2)).expect("the fixture maps load");
    assert_eq!(strip(&rows), strip(&two));

    let cells = summarise(&rows);
    assert!(cells.values().all(|c| c.runs > 0 && c.reached == c.runs));

    let dir = tempfile::tempdir().unwrap();
    let md = write_reports(
        &rows,
        &opts,
        dir.path(),
        &taut_testdata::workspace_root(),
        "test",
    )
    .expect("reports written");
    let summary = std::fs::read_to_string(md).unwrap();
    assert!(
        summary.contains("p-FRIT_RT against daRTAA* and FRIT_RT"),
        "{summary}"
    );
    let csv = std::fs::read_to_string(dir.path().join("runs.csv")).unwrap();
    let data_lines = csv.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(data_lines, rows.len() + 1, "header + one line per run");
    assert!(dir.path().join("cost.svg").is_file());
}
