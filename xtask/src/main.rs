//! Project automation, run as `cargo xtask <command>` (the alias is in `.cargo/config.toml`).
//!
//! - `fetch-maps`: get the MovingAI benchmark maps and scenarios (download, or import from a
//!   local mirror such as `../shared/data`), verified, with a SHA-256 manifest.
//! - `bench`: build in release and run the benchmark suites of `benchmarks/`.
//! - `preprocess --cpd`: build the compressed path databases of suites or maps, skipping
//!   those up to date, in shards and merged when asked (`preprocess.rs`), or through a
//!   scheduler: processes on this machine or a Slurm job array (`cluster.rs`).
//! - `preprocess --hub`: build the hub label indexes of suites or maps (`hub.rs`).
//! - `passages`: derive the named passages of the Earth rasters (`passages.rs`).
//! - `tidy`: fail on any dependency between workspace crates that `docs/architecture.md` does
//!   not allow (`tidy.rs`).

use anyhow::Context;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod cluster;
mod fetch;
mod house;
mod hub;
mod links;
mod passages;
mod preprocess;
mod tidy;

/// Project automation for taut.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask")]
struct Xtask {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Download the MovingAI benchmark maps and scenarios, or import them from a local mirror.
    FetchMaps(fetch::FetchArgs),
    /// Build in release and run the benchmark suites, writing CSV, Markdown and SVG reports
    /// (`cargo xtask bench --help` lists the options).
    Bench(bench::BenchArgs),
    /// Build the compressed path databases (CPDs, `--cpd`) or hub label indexes (`--hub`) of
    /// suites or maps, skipping those up to date; for CPDs `--shard I/N` and `--merge` split a
    /// build across jobs; `--scheduler local|slurm` runs such a split, or one hub task per map
    /// (docs/cluster.md).
    Preprocess(Box<preprocess::PreprocessArgs>),
    /// Derive the named passages (canals, straits) of the shared Earth rasters into
    /// crates/taut-spherical/data/passages.csv (`--check`: fail if it is out of date).
    Passages(passages::PassagesArgs),
    /// Check that every dependency between workspace crates (and of the fuzz workspace) is
    /// one the table in docs/architecture.md allows.
    Tidy(tidy::TidyArgs),
}

/// The repository root: the parent of this crate's directory.
fn repo_root() -> std::path::PathBuf {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_owned()
}

fn main() -> ExitCode {
    let cli = Xtask::parse();
    let result = match cli.command {
        Command::FetchMaps(args) => fetch::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Preprocess(args) => {
            let argv: Vec<String> = std::env::args().skip(1).collect();
            run_preprocess(&args, &argv)
        }
        Command::Passages(args) => passages::run(&args),
        Command::Tidy(args) => tidy::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `preprocess` (re-running itself in release from a debug build).
fn run_preprocess(args: &preprocess::PreprocessArgs, argv: &[String]) -> anyhow::Result<()> {
    if cfg!(debug_assertions) && std::env::var_os(preprocess::IN_RELEASE).is_none() {
        let status =
            std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
                .current_dir(repo_root())
                .args(["run", "--quiet", "--release", "--package", "xtask", "--"])
                .args(argv)
                .env(preprocess::IN_RELEASE, "1")
                .status()
                .context("running cargo")?;
        if !status.success() {
            anyhow::bail!("preprocess failed ({status}); see the messages above");
        }
        return Ok(());
    }
    if !args.cpd && !args.hub {
        anyhow::bail!(
            "say what to preprocess: --cpd (compressed path databases), --hub (hub labels)"
        );
    }
    if args.cluster.scheduler.is_some() {
        return cluster::run(args, &repo_root(), &mut std::io::stdout());
    }
    let mut out = std::io::stdout();
    if args.cpd {
        let summary = preprocess::preprocess(args, &repo_root(), &mut out)?;
        if let Some(dir) = &args.report {
            let path = preprocess::write_report(dir, &summary)?;
            println!("report: {}", path.display());
        }
    }
    if args.hub {
        let summary = hub::preprocess(args, &repo_root(), &mut out)?;
        if let Some(dir) = &args.report {
            let path = hub::write_report(dir, &summary)?;
            println!("report: {}", path.display());
        }
        if summary.failed() > 0 {
            anyhow::bail!(
                "{} of {} maps could not be built (above)",
                summary.failed(),
                summary.maps.len()
            );
        }
    }
    Ok(())
}
