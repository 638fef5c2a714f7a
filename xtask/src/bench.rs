//! `cargo xtask bench`: builds `taut-bench` in release and runs it with the given arguments.
//! The options are taut-bench's own (`cargo xtask bench --help` prints them); this wrapper
//! only makes sure the timings come from an optimised build.

use std::process::Command;

use anyhow::{Context, bail};

/// Arguments of `bench`: passed through to `taut-bench` unchanged.
#[derive(Debug, clap::Args)]
#[command(disable_help_flag = true)]
pub struct BenchArgs {
    /// taut-bench's options (`--suite`, `--planners`, `--quick`, `--sample`, `--data`,
    /// `--out`, `--list`, `--help`, ...).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    args: Vec<String>,
}

/// Runs `bench`.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(crate::repo_root())
        .args([
            "run",
            "--quiet",
            "--release",
            "--package",
            "taut-bench",
            "--bin",
            "taut-bench",
            "--",
        ])
        .args(&args.args)
        .status()
        .context("running cargo")?;
    if !status.success() {
        bail!("the benchmark failed ({status}); see the messages above");
    }
    Ok(())
}
