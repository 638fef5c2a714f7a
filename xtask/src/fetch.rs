//! `cargo xtask fetch-maps` (being written).

/// Arguments of `fetch-maps`.
#[derive(Debug, clap::Args)]
pub struct FetchArgs {}

/// Runs `fetch-maps`.
pub fn run(_args: &FetchArgs) -> anyhow::Result<()> {
    anyhow::bail!("not yet: fetch-maps is being written")
}
