//! The `taut-bench` binary, run by `cargo xtask bench`: runs benchmark suites and writes the
//! reports. Exit status 0 when every check passed, 1 on any failure or error (one line on
//! stderr), 2 on a usage error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use taut_bench::registry::PlannerSpec;
use taut_bench::{BenchError, RunOptions, Suite, suite_files};

/// Run benchmark suites: time every query single-threaded, check every length, write CSV,
/// Markdown and SVG.
#[derive(Debug, Parser)]
#[command(name = "taut-bench")]
struct Args {
    /// Suites to run, by name (comma-separated or repeated); `all` runs every suite whose data
    /// is present. Default: all.
    #[arg(long, value_delimiter = ',', conflicts_with = "quick")]
    suite: Vec<String>,
    /// The smoke run: the `quick` suite on the maps shipped in `fixtures/` (no data needed).
    #[arg(long)]
    quick: bool,
    /// Run these planners instead of each suite's own (comma-separated; Anya takes options:
    /// `anya:no-cul-de-sac+no-intermediate`, `anya:hash`).
    #[arg(long, value_delimiter = ',')]
    planners: Vec<PlannerSpec>,
    /// Run every K-th query of each scenario file instead of the suite's sampling.
    #[arg(long, value_name = "K")]
    sample: Option<usize>,
    /// At most N queries per scenario file (after sampling).
    #[arg(long, value_name = "N")]
    max_queries: Option<usize>,
    /// Where the benchmark data is (the layout of `cargo xtask fetch-maps`). Default:
    /// $TAUT_BENCH_DATA, else `data/` in the repository.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Directory of the suite files. Default: `benchmarks/suites` in the repository.
    #[arg(long, value_name = "DIR")]
    suites_dir: Option<PathBuf>,
    /// Output directory. Default: `target/bench/DATE-SUITES` in the repository.
    #[arg(long, short, value_name = "DIR")]
    out: Option<PathBuf>,
    /// List the suites and whether their data is present, then exit.
    #[arg(long)]
    list: bool,
}

fn repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .map_or_else(|| PathBuf::from("."), Path::to_owned)
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("taut-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), BenchError> {
    let repo = repo_root();
    let data = args
        .data
        .clone()
        .or_else(|| std::env::var_os("TAUT_BENCH_DATA").map(PathBuf::from))
        .unwrap_or_else(|| repo.join("data"));
    let dir = args
        .suites_dir
        .clone()
        .unwrap_or_else(|| repo.join("benchmarks/suites"));
    let all: Vec<Suite> = suite_files(&dir)?
        .iter()
        .map(|p| Suite::read(p, &data))
        .collect::<Result<_, _>>()?;
    if args.list {
        for s in &all {
            println!(
                "{:<14} {:<8} {}",
                s.name,
                if s.has_data() { "ready" } else { "no data" },
                s.description
            );
        }
        return Ok(());
    }
    let wanted: Vec<&str> = if args.quick {
        vec!["quick"]
    } else if args.suite.is_empty() {
        vec!["all"]
    } else {
        args.suite.iter().map(String::as_str).collect()
    };
    let mut suites = Vec::new();
    for w in &wanted {
        if *w == "all" {
            for s in &all {
                if s.has_data() {
                    suites.push(s.clone());
                } else {
                    eprintln!(
                        "taut-bench: NOTICE: suite {} skipped: no data at {}",
                        s.name,
                        s.scenarios.display()
                    );
                }
            }
            continue;
        }
        let s = all
            .iter()
            .find(|s| s.name == *w)
            .ok_or_else(|| BenchError::Data {
                path: dir.clone(),
                msg: format!(
                    "no suite {w:?} (have: {})",
                    all.iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })?;
        if !s.has_data() {
            return Err(BenchError::Data {
                path: s.scenarios.clone(),
                msg: format!(
                    "suite {} has no data here: run `cargo xtask fetch-maps` (or `--from ../shared/data`), or pass --data DIR",
                    s.name
                ),
            });
        }
        suites.push(s.clone());
    }
    if suites.is_empty() {
        return Err(BenchError::Data {
            path: data,
            msg: "no suite has its data here: run `cargo xtask fetch-maps` first".into(),
        });
    }
    let opts = RunOptions {
        planners: (!args.planners.is_empty()).then(|| args.planners.clone()),
        sample: args.sample,
        max_queries_per_map: args.max_queries,
        progress: true,
    };
    let names: Vec<&str> = suites.iter().map(|s| s.name.as_str()).collect();
    let out = args.out.clone().unwrap_or_else(|| {
        let date = taut_bench::Provenance::collect(&repo).date;
        let joined = if names.len() > 3 {
            format!("{}-suites", names.len())
        } else {
            names.join("+")
        };
        repo.join("target/bench").join(format!("{date}-{joined}"))
    });
    let command: Vec<String> = std::env::args().collect();
    let written = taut_bench::bench(&suites, &opts, &out, &repo, &command.join(" "))?;
    eprintln!(
        "taut-bench: all checks passed; wrote {}, {} and {} plot(s)",
        written.markdown.display(),
        written.csv.display(),
        written.plots.len()
    );
    Ok(())
}
