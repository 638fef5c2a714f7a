//! `cargo xtask bench`: builds `taut-bench` in release and runs it.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, bail};

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Suites to run (comma-separated; `all`: every suite whose data is present). See
    /// `benchmarks/suites/` or `--list`.
    #[arg(long, value_delimiter = ',', conflicts_with = "quick")]
    suite: Vec<String>,
    /// Planners to run instead of each suite's own (comma-separated: astar, theta,
    /// lazy-theta, vg, anya).
    #[arg(long, value_delimiter = ',')]
    planners: Vec<String>,
    /// The smoke run: the `quick` suite on the maps shipped in `fixtures/` (no data needed).
    #[arg(long)]
    quick: bool,
    /// Run every K-th query of each scenario file instead of the suite's sampling.
    #[arg(long, value_name = "K")]
    sample: Option<usize>,
    /// At most N queries per scenario file (after sampling).
    #[arg(long, value_name = "N")]
    max_queries: Option<usize>,
    /// The benchmark data (the layout `fetch-maps` writes). Default: $TAUT_BENCH_DATA, else `data/`.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Output directory. Default: `target/bench/DATE-SUITES`.
    #[arg(long, short, value_name = "DIR")]
    out: Option<PathBuf>,
    /// List the suites and whether their data is present.
    #[arg(long)]
    list: bool,
}

/// Runs `bench`.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let root = crate::repo_root();
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(&root).args([
        "run",
        "--quiet",
        "--release",
        "--package",
        "taut-bench",
        "--bin",
        "taut-bench",
        "--",
    ]);
    if args.quick {
        cmd.args(["--suite", "quick"]);
    } else if !args.suite.is_empty() {
        cmd.arg("--suite").arg(args.suite.join(","));
    }
    if !args.planners.is_empty() {
        cmd.arg("--planners").arg(args.planners.join(","));
    }
    if let Some(k) = args.sample {
        cmd.arg("--sample").arg(k.to_string());
    }
    if let Some(n) = args.max_queries {
        cmd.arg("--max-queries").arg(n.to_string());
    }
    if let Some(d) = &args.data {
        cmd.arg("--data").arg(d);
    }
    if let Some(o) = &args.out {
        cmd.arg("--out").arg(o);
    }
    if args.list {
        cmd.arg("--list");
    }
    let data_missing = args.data.is_none()
        && std::env::var_os("TAUT_BENCH_DATA").is_none()
        && !root.join("data").is_dir();
    if data_missing && !args.quick && !args.list {
        let shared = root.join("../shared/data");
        eprintln!(
            "xtask: no benchmark data at {}: fetch it with `cargo xtask fetch-maps`{}",
            root.join("data").display(),
            if shared.is_dir() {
                " --from ../shared/data (a local mirror is beside this checkout)"
            } else {
                ""
            }
        );
    }
    let status = cmd.status().context("running cargo")?;
    if !status.success() {
        bail!("the benchmark failed ({status}); see the messages above");
    }
    Ok(())
}
