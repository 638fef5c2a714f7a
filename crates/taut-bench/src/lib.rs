//! Benchmark harness for taut's grid planners.
//!
//! A *suite* (a TOML file under `benchmarks/suites/`) names a directory of maps, one of
//! scenario files, optionally a CSV of reference optima, and the planners to compare. The
//! runner times every (sampled) query of every map once per planner, single-threaded, then
//! checks every answer: the path is legal, its polyline measures the reported length, and the
//! length keeps the planner's promise ([`taut::Guarantee`], as each planner states it): A* equals the scenario's
//! octile column, optimal any-angle planners equal the reference optimum, Theta*-style
//! planners never beat it. Reports: a CSV row per query and planner, a Markdown summary with
//! what the papers print (mean and median µs, expansions, speedups over A*, path-length
//! improvement over A*) and SVG plots of time against the A* difficulty percentile. Every
//! report records the commit, the machine and the date. A failed check never stops the run,
//! but makes [`bench()`] return [`BenchError::Checks`] after the reports are written.
//!
//! `cargo xtask bench` is the front door; the `taut-bench` binary is what it runs.
//!
//! [`frontier`] measures memory against speed: per map, hub labels at several budgets beside
//! the planners that keep no index or a fixed one (`taut-bench frontier`).
//!
//! [`big`] generates the big occupancy-grid maps of the `big` suite (`taut-bench gen-big`)
//! and measures each planner's resident memory on one (`taut-bench big-memory`).
//!
//! [`sphere`] is the other benchmark: Spherical Anya against Euclidean Anya on maps read as
//! the whole sphere and on Earth rasters (Section 6 of the Spherical Anya paper),
//! `taut-bench sphere` / `cargo xtask bench sphere`.
//!
//! # Example
//! ```
//! use std::path::Path;
//! use taut_bench::{RunOptions, Suite, run_suite, summarise};
//!
//! let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
//! let suite = Suite::read(&root.join("benchmarks/suites/quick.toml"), &root.join("data")).unwrap();
//! let opts = RunOptions { max_queries_per_map: Some(5), ..RunOptions::default() };
//! let run = run_suite(&suite, &opts).unwrap();
//! assert!(run.records.iter().all(|r| r.failure.is_none()));
//! let table = summarise(&run);
//! assert_eq!(table[0].row, "quick");
//! ```

pub mod big;
mod error;
pub mod frames;
pub mod frit;
pub mod frontier;
mod machine;
mod plot;
mod reference;
pub mod repair;
mod rng;
pub mod searoute;

mod report;
mod run;
pub mod sphere;
mod suite;

use std::path::{Path, PathBuf};

pub use error::BenchError;
pub use machine::{Provenance, peak_memory_bytes, reset_peak_memory};
pub use plot::{Curve, difficulty_curves, write_svg};
pub use reference::{RefRow, Reference};
pub use report::{PlannerSummary, VsAStar, markdown, summarise, write_csv, write_markdown};
pub use run::{
    CheckCounts, HubInfo, MeshInfo, Promise, QueryOutcome, Record, RunOptions, SuiteRun, run_suite,
};
pub use suite::{Suite, suite_files};

/// The scenario of a map file: `M.map.scen` beside it, else `../scen/M.map.scen` (the shared
/// data's `grid/maps` and `grid/scen` layout). The first when neither exists.
pub fn scenario_of(map: &Path) -> PathBuf {
    let mut beside = map.as_os_str().to_owned();
    beside.push(".scen");
    let beside = PathBuf::from(beside);
    if !beside.exists()
        && let (Some(dir), Some(name)) = (map.parent().and_then(Path::parent), map.file_name())
    {
        let mut n = name.to_owned();
        n.push(".scen");
        let other = dir.join("scen").join(n);
        if other.exists() {
            return other;
        }
    }
    beside
}

/// `Ok` when no answer of `runs` failed its check, else [`BenchError::Checks`] naming the
/// first failure (suite, map, query, planner) and `out`, where the reports are.
///
/// # Errors
/// [`BenchError::Checks`].
pub fn checks_passed(runs: &[SuiteRun], out: &Path) -> Result<(), BenchError> {
    let failures: Vec<String> = runs
        .iter()
        .flat_map(|run| {
            run.records.iter().filter_map(move |r| {
                r.failure.as_ref().map(|f| {
                    format!(
                        "{} {} query {} {}: {f}",
                        run.name, run.maps[r.map as usize], r.idx, run.planners[r.planner as usize]
                    )
                })
            })
        })
        .collect();
    BenchError::from_failures(&failures, out)
}

/// The files one benchmark run wrote.
#[derive(Debug, Clone)]
pub struct Written {
    /// One row per query and planner.
    pub csv: PathBuf,
    /// The Markdown summary.
    pub markdown: PathBuf,
    /// One time-against-difficulty plot per suite that has one.
    pub plots: Vec<PathBuf>,
    /// The runs themselves.
    pub runs: Vec<SuiteRun>,
}

/// Runs `suites` and writes `queries.csv`, `summary.md` and `time-percentile-SUITE.svg` into
/// `out` (created if needed). `repo` is the checkout whose commit the reports record;
/// `command` is the command line, quoted in the summary.
///
/// # Errors
/// Data and write errors as they occur; [`BenchError::Checks`] after writing the reports
/// when any answer failed its check.
pub fn bench(
    suites: &[Suite],
    opts: &RunOptions,
    out: &Path,
    repo: &Path,
    command: &str,
) -> Result<Written, BenchError> {
    std::fs::create_dir_all(out).map_err(|e| BenchError::Write {
        path: out.to_owned(),
        msg: e.to_string(),
    })?;
    let prov = Provenance::collect(repo);
    let mut runs = Vec::new();
    for suite in suites {
        if opts.progress {
            eprintln!("suite {}: {}", suite.name, suite.description);
        }
        runs.push(run_suite(suite, opts)?);
    }
    let mut plots = Vec::new();
    let mut plot_names = Vec::new();
    for run in &runs {
        if let Some(curves) = difficulty_curves(run) {
            let file = format!("time-percentile-{}.svg", run.name);
            let path = out.join(&file);
            let title = format!("{}: {}", run.name, run.description);
            write_svg(&path, &title, &prov.line(), &curves)?;
            plots.push(path);
            plot_names.push((run.name.clone(), file));
        }
    }
    let csv = out.join("queries.csv");
    write_csv(&csv, &runs, &prov)?;
    let md = out.join("summary.md");
    write_markdown(&md, &markdown(&runs, &prov, &plot_names, command))?;
    checks_passed(&runs, out)?;
    Ok(Written {
        csv,
        markdown: md,
        plots,
        runs,
    })
}
