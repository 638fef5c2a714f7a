//! `cargo xtask passages`: derive the named passages of the shared Earth rasters
//! (`taut::spherical::passage::derive`) and write `crates/taut-spherical/data/passages.csv`,
//! or, with `--check`, fail when the file differs from what the rasters give.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use taut::spherical::SphereGrid;
use taut::spherical::passage::{derive, to_csv};

/// The resolutions of the shared rasters, in the file's order.
const RESOLUTIONS: [&str; 3] = ["1deg", "0.5deg", "0.25deg"];

/// Options of `cargo xtask passages`.
#[derive(Debug, clap::Args)]
pub struct PassagesArgs {
    /// Where `earth_{1deg,0.5deg,0.25deg}.map` and their `_nav` twins are. Default:
    /// `../shared/data/sphere` beside the repository.
    #[arg(long, value_name = "DIR")]
    sphere_data: Option<PathBuf>,
    /// Do not write: fail if the file in the repository differs from the derivation.
    #[arg(long)]
    check: bool,
}

/// Runs `cargo xtask passages`.
pub fn run(args: &PassagesArgs) -> anyhow::Result<()> {
    let repo = crate::repo_root();
    let dir = args
        .sphere_data
        .clone()
        .unwrap_or_else(|| repo.join("../shared/data/sphere"));
    let mut cells = Vec::new();
    for res in RESOLUTIONS {
        let base = read(&dir.join(format!("earth_{res}.map")))?;
        let nav = read(&dir.join(format!("earth_{res}_nav.map")))?;
        let found = derive(&base, &nav).with_context(|| format!("deriving the {res} passages"))?;
        println!("{res}: {} passage cells", found.len());
        cells.extend(found);
    }
    let text = to_csv(&cells);
    let out = repo.join("crates/taut-spherical/data/passages.csv");
    if args.check {
        let have =
            std::fs::read_to_string(&out).with_context(|| format!("reading {}", out.display()))?;
        if have != text {
            bail!(
                "{} differs from the rasters in {}",
                out.display(),
                dir.display()
            );
        }
        println!("{} is up to date", out.display());
    } else {
        std::fs::write(&out, text).with_context(|| format!("writing {}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

fn read(path: &Path) -> anyhow::Result<SphereGrid> {
    SphereGrid::read_map(path, false).with_context(|| format!("reading {}", path.display()))
}
