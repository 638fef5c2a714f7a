//! `taut hub`: build and describe hub label indexes (`docs/hub.md`; `docs/hub-format.md`
//! describes the files).
//!
//! - `taut hub build --map M.map [--mesh M.mesh] -o F.hub [--region N | --budget SIZE]
//!   [--jobs N]` builds the index of the map (on taut's mesh of its free cells, or on the
//!   given mesh; labels shared by regions of N × N cells with `--region`; the finest that
//!   fits SIZE with `--budget`) and writes it; one summary line on stdout.
//! - `taut hub info F.hub` describes an index file.
//!
//! `taut scen|path --algo hub --hub F.hub` answers queries with it.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use taut::grid::{Grid, MapFile};
use taut::hub::{FORMAT_VERSION, HubIndex, read_hub, read_hub_header, write_hub};
use taut::mesh::{mesh_from_grid, read_mesh};

use crate::args::{HubArgs, HubBuildArgs, HubCommand, HubInfoArgs};
use crate::error::CliError;

/// Runs `taut hub ...`.
///
/// # Errors
/// Unreadable or malformed inputs, a hub index error, an unwritable output.
pub fn run_hub(args: &HubArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match &args.command {
        HubCommand::Build(a) => run_build(a, out),
        HubCommand::Info(a) => run_info(a, out),
    }
}

fn hub_error(path: &Path) -> impl Fn(taut::hub::HubError) -> CliError + '_ {
    |source| CliError::Hub {
        path: path.to_owned(),
        source,
    }
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn run_build(args: &HubBuildArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let grid = Grid::from_map(&MapFile::read(&args.map)?, &args.free);
    let mesh = match &args.mesh {
        Some(path) => read_mesh(path)?,
        None => mesh_from_grid(&grid)?,
    };
    let t = Instant::now();
    let build = || {
        match args.budget {
            Some(budget) => HubIndex::build_within(&grid, &mesh, budget),
            None => HubIndex::build_with_regions(&grid, &mesh, args.region),
        }
        .map_err(hub_error(&args.output))
    };
    let (index, threads) = match args.jobs {
        None => (build()?, rayon::current_num_threads()),
        Some(jobs) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(usize::from(jobs))
                .build()
                .map_err(|e| CliError::Threads(e.to_string()))?;
            (pool.install(build)?, pool.current_num_threads())
        }
    };
    let secs = t.elapsed().as_secs_f64();
    write_hub(&args.output, &index).map_err(hub_error(&args.output))?;
    let s = index.stats();
    let labels = if s.region == 1 {
        format!(
            "{} point entries ({:.1} per point)",
            s.point_entries,
            s.point_entries as f64 / s.points.max(1) as f64
        )
    } else {
        format!(
            "regions of {r} x {r}: {} hubs, {} vias",
            s.region_hubs,
            s.region_vias,
            r = s.region
        )
    };
    writeln!(
        out,
        "wrote {}: {} corners, {} core entries, {} points, {labels}, {:.2} MB, {:.2} s, {} threads",
        args.output.display(),
        s.corners,
        s.core_entries,
        s.points,
        mb(std::fs::metadata(&args.output).map_or(0, |m| m.len())),
        secs,
        threads
    )?;
    Ok(())
}

fn run_info(args: &HubInfoArgs, out: &mut dyn Write) -> Result<(), CliError> {
    // The header first: a file of another version or kind is named without reading it all.
    read_hub_header(&args.file).map_err(hub_error(&args.file))?;
    let index = read_hub(&args.file).map_err(hub_error(&args.file))?;
    let s = index.stats();
    let (w, h) = index.size();
    let hash: String = index.mesh_hash()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    writeln!(out, "file {}", args.file.display())?;
    writeln!(out, "format version {FORMAT_VERSION}")?;
    writeln!(out, "map {w} x {h}")?;
    writeln!(out, "mesh hash {hash}…")?;
    writeln!(out, "corners {}", s.corners)?;
    writeln!(out, "graph edges {}", s.edges)?;
    writeln!(out, "core entries {}", s.core_entries)?;
    writeln!(out, "points {}", s.points)?;
    writeln!(out, "region side {}", s.region)?;
    writeln!(out, "point entries {}", s.point_entries)?;
    writeln!(
        out,
        "entries per point {:.1}",
        s.point_entries as f64 / s.points.max(1) as f64
    )?;
    writeln!(out, "region hubs {}", s.region_hubs)?;
    writeln!(out, "region vias {}", s.region_vias)?;
    writeln!(
        out,
        "file MB {:.3}",
        mb(std::fs::metadata(&args.file).map_or(0, |m| m.len()))
    )?;
    writeln!(out, "memory MB {:.3}", mb(s.bytes as u64))?;
    Ok(())
}
