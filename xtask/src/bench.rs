//! `cargo xtask bench` (being written).

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {}

/// Runs `bench`.
pub fn run(_args: &BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("not yet: bench is being written")
}
