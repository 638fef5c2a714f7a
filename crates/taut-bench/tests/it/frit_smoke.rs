//! `taut-bench frit` end to end on the shipped fixture maps (no shared data needed): every
//! algorithm at two lookaheads on a few seeded problems per map, every run checked, the same
//! rows from one thread and from two, and the three reports written.

use taut::frit::{AgentAlgo, FritConfig, MoveRule, RunParams};
use taut_bench::frit::{
    FritOptions, RunRow, cost_ratio, mean_cost, per_problem_ratios, run_experiment, summarise,
    write_reports,
};

fn options(threads: usize) -> FritOptions {
    with(threads, "paper", MoveRule::NoCornerCut)
}

fn with(threads: usize, profile: &str, moves: MoveRule) -> FritOptions {
    FritOptions {
        maps_dir: taut_testdata::workspace_root().join("fixtures/maps"),
        maps: vec!["arena".into(), "small".into()],
        problems: 3,
        first_problem: 0,
        lookaheads: vec![1, 16],
        algos: AgentAlgo::ALL.to_vec(),
        seed: 7,
        threads,
        progress: false,
        config: FritConfig::profile(profile).unwrap(),
        config_name: profile.into(),
        moves,
        steps_per_expansion: RunParams::STEPS_PER_EXPANSION,
        max_moves: None,
    }
}

/// Every run of `rows` reached its goal at no less than the optimum, within its lookahead.
fn check_rows(rows: &[RunRow]) {
    assert!(!rows.is_empty());
    for r in rows {
        assert_eq!(
            r.status,
            "ok",
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
}

#[test]
fn the_frit_experiment_runs_checks_and_reports() {
    let opts = options(1);
    let rows = run_experiment(&opts).expect("the fixture maps load");
    // FRIT(BFS) and Bug2 ignore the lookahead and run once per problem; LRTA* runs at k = 1.
    check_rows(&rows);
    for algo in AgentAlgo::ALL {
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
    assert!(summary.contains("Planning time per episode"), "{summary}");
    assert!(
        csv.contains("# frit: paper (goal-test=all-min-f"),
        "{}",
        &csv[..300]
    );
}

#[test]
fn the_taut_profile_and_corner_cutting_reach_every_goal() {
    for (profile, moves) in [
        ("taut", MoveRule::NoCornerCut),
        ("paper", MoveRule::CornerCut),
        ("taut", MoveRule::CornerCut),
    ] {
        let rows = run_experiment(&with(1, profile, moves)).expect("the fixture maps load");
        check_rows(&rows);
    }
    // The corner-cut optimum is never longer, and strictly shorter on some problem of
    // these maps (both have diagonal squeezes).
    let cut = run_experiment(&with(1, "paper", MoveRule::CornerCut)).unwrap();
    let plain = run_experiment(&with(1, "paper", MoveRule::NoCornerCut)).unwrap();
    let mut shorter = 0;
    for (a, b) in cut.iter().zip(&plain) {
        assert_eq!((a.start, a.goal), (b.start, b.goal), "same problems");
        assert!(a.optimal <= b.optimal + 1e-9);
        shorter += usize::from(a.optimal < b.optimal - 1e-9);
    }
    assert!(shorter > 0, "corner cutting never shortened an optimum");
}

#[test]
fn a_run_from_a_later_problem_repeats_the_tail_of_a_full_run() {
    let full = run_experiment(&options(1)).unwrap();
    let tail = run_experiment(&FritOptions {
        first_problem: 2,
        ..options(1)
    })
    .unwrap();
    let expected: Vec<_> = full.iter().filter(|r| r.problem >= 2).collect();
    assert!(!tail.is_empty());
    assert_eq!(tail.len(), expected.len());
    for (a, b) in tail.iter().zip(expected) {
        assert_eq!(
            (&a.map, a.problem, a.algo, a.lookahead, a.status, a.moves),
            (&b.map, b.problem, b.algo, b.lookahead, b.status, b.moves)
        );
        assert_eq!(a.cost.to_bits(), b.cost.to_bits());
    }
}

fn row(map: &str, problem: usize, algo: AgentAlgo, cost: f64) -> RunRow {
    RunRow {
        map: map.into(),
        problem,
        algo,
        lookahead: 1,
        status: "ok",
        cost,
        moves: 0,
        episodes: 0,
        expansions: 0,
        max_episode_expansions: 0,
        time_us: 0.0,
        episode_time_us: 0.0,
        optimal: 1.0,
        start: (0, 0),
        goal: (1, 1),
        episode_times: Default::default(),
    }
}

#[test]
fn intervals_and_per_problem_ratios() {
    // daRTAA* costs exactly twice p-FRIT_RT on every problem: every resample gives 2.
    let mut rows = Vec::new();
    for (i, c) in [3.0, 10.0, 50.0, 7.0, 400.0].into_iter().enumerate() {
        let map = if i < 2 { "a" } else { "b" };
        rows.push(row(map, i, AgentAlgo::PFritRt, c));
        rows.push(row(map, i, AgentAlgo::DaRtaa, 2.0 * c));
    }
    let r = cost_ratio(&rows, (AgentAlgo::DaRtaa, 1), (AgentAlgo::PFritRt, 1)).unwrap();
    assert!(
        (r.value - 2.0).abs() < 1e-12 && (r.lo - 2.0).abs() < 1e-12 && (r.hi - 2.0).abs() < 1e-12
    );
    let (geo, median) =
        per_problem_ratios(&rows, (AgentAlgo::DaRtaa, 1), (AgentAlgo::PFritRt, 1)).unwrap();
    assert!((geo - 2.0).abs() < 1e-12 && (median - 2.0).abs() < 1e-12);
    // The mean's interval holds the mean and lies within the sample's range; it is wide for
    // this heavy-tailed sample.
    let m = mean_cost(&rows, (AgentAlgo::PFritRt, 1)).unwrap();
    assert!((m.value - 94.0).abs() < 1e-12);
    assert!(m.lo <= m.value && m.value <= m.hi, "{m:?}");
    assert!(m.lo >= 3.0 && m.hi <= 400.0 && m.hi - m.lo > 50.0, "{m:?}");
    // Geometric mean and median of 1, 4 (and of 1, 2, 8): 2, 2.5; 2, 2.
    let rows = vec![
        row("a", 0, AgentAlgo::PFritRt, 1.0),
        row("a", 0, AgentAlgo::FritRt, 1.0),
        row("a", 1, AgentAlgo::PFritRt, 1.0),
        row("a", 1, AgentAlgo::FritRt, 4.0),
    ];
    let (geo, median) =
        per_problem_ratios(&rows, (AgentAlgo::FritRt, 1), (AgentAlgo::PFritRt, 1)).unwrap();
    assert!((geo - 2.0).abs() < 1e-12 && (median - 2.5).abs() < 1e-12);
    assert!(cost_ratio(&rows, (AgentAlgo::DaRtaa, 1), (AgentAlgo::PFritRt, 1)).is_none());
}

#[test]
fn a_first_problem_past_the_last_is_refused_with_the_reason() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_taut-bench"))
        .args([
            "frit",
            "--problems",
            "3",
            "--first-problem",
            "3",
            "--maps",
            "arena",
        ])
        .arg("--maps-dir")
        .arg(taut_testdata::workspace_root().join("fixtures/maps"))
        .arg("--out")
        .arg(std::env::temp_dir().join("taut-bench-first-problem-refused"))
        .output()
        .expect("taut-bench runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--first-problem") && err.contains("below --problems (3)"),
        "{err}"
    );
}
