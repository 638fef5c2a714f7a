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
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use taut::grid::{FreeSet, Grid, MapFile};
use taut::hub::{FORMAT_VERSION, HubIndex, read_hub, read_hub_header, write_hub};
use taut::mesh::{mesh_from_grid, read_mesh};

use crate::args::parse_free_set;
use crate::error::CliError;
use crate::fields::{Field, InfoFormat, num, write_fields, write_summary};

/// Arguments of `taut hub`.
#[derive(Debug, Clone, Args)]
pub struct HubArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: HubCommand,
}

/// The subcommands of `taut hub`.
// Parsed once per run: the size of the build arguments (a free-terrain table) does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Subcommand)]
pub enum HubCommand {
    /// Build the hub index of a map and write it; prints one summary line.
    Build(HubBuildArgs),
    /// Describe a hub index file: format, the map and mesh it belongs to, sizes.
    Info(HubInfoArgs),
}

/// Arguments of `taut hub build`.
#[derive(Debug, Clone, Args)]
pub struct HubBuildArgs {
    /// The MovingAI .map file (the index answers queries between its lattice points).
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// A navigation mesh of the map ("mesh 2" file) to build on, as `--algo hub --mesh`
    /// will; without it, taut's mesh of the map's free cells.
    #[arg(long, value_name = "FILE")]
    pub mesh: Option<PathBuf>,
    /// The index file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Share labels among regions of N × N cells (1 to 64): a smaller index, slower queries.
    /// 1, the default, gives every point its own label.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64), conflicts_with = "budget")]
    pub region: u32,
    /// Build the finest index (point labels, else regions of 2 to 32 cells) whose size in
    /// memory and on disk is at most SIZE: bytes or 64MB, 2G, 1.5GiB. Refused, naming the
    /// smallest size found, when none fits.
    #[arg(long, value_name = "SIZE", value_parser = taut::cpd::estimate::parse_size)]
    pub budget: Option<u64>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// The map characters that are free terrain.
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Output format: the summary line, or one JSON object of its figures.
    #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
    pub format: InfoFormat,
}

/// Arguments of `taut hub info`.
#[derive(Debug, Clone, Args)]
pub struct HubInfoArgs {
    /// The index file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Output format: `key value` lines, or one JSON object with the same keys in snake case.
    #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
    pub format: InfoFormat,
}

/// Runs `taut hub ...`.
///
/// # Errors
/// Unreadable or malformed inputs, a hub index error, an unwritable output.
pub fn run(args: &HubArgs, out: &mut dyn Write) -> Result<(), CliError> {
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
    let (size, secs_text) = (
        format!(
            "{:.2}",
            mb(std::fs::metadata(&args.output).map_or(0, |m| m.len()))
        ),
        format!("{secs:.2}"),
    );
    let text = format!(
        "wrote {}: {} corners, {} core entries, {} points, {labels}, {size} MB, {secs_text} s, {} threads",
        args.output.display(),
        s.corners,
        s.core_entries,
        s.points,
        threads
    );
    let json = serde_json::json!({
        "file": args.output.display().to_string(), "corners": s.corners,
        "core_entries": s.core_entries, "points": s.points, "region_side": s.region,
        "point_entries": s.point_entries, "region_hubs": s.region_hubs,
        "region_vias": s.region_vias, "mb": num(size), "s": num(secs_text), "threads": threads,
    });
    write_summary(out, args.format, &text, &json)?;
    Ok(())
}

fn run_info(args: &HubInfoArgs, out: &mut dyn Write) -> Result<(), CliError> {
    // The header first: a file of another version or kind is named without reading it all.
    read_hub_header(&args.file).map_err(hub_error(&args.file))?;
    let index = read_hub(&args.file).map_err(hub_error(&args.file))?;
    let s = index.stats();
    let (w, h) = index.size();
    let file_len = std::fs::metadata(&args.file).map_or(0, |m| m.len());
    let fields = [
        Field::text("file", args.file.display().to_string()),
        Field::number("format version", FORMAT_VERSION.to_string()),
        Field::new("map", format!("{w} x {h}"), serde_json::json!([w, h])),
        Field::hash("mesh hash", index.mesh_hash()),
        Field::number("corners", s.corners.to_string()),
        Field::number("graph edges", s.edges.to_string()),
        Field::number("core entries", s.core_entries.to_string()),
        Field::number("points", s.points.to_string()),
        Field::number("region side", s.region.to_string()),
        Field::number("point entries", s.point_entries.to_string()),
        Field::number(
            "entries per point",
            format!("{:.1}", s.point_entries as f64 / s.points.max(1) as f64),
        ),
        Field::number("region hubs", s.region_hubs.to_string()),
        Field::number("region vias", s.region_vias.to_string()),
        Field::number("file MB", format!("{:.3}", mb(file_len))),
        Field::number("memory MB", format!("{:.3}", mb(s.bytes as u64))),
    ];
    write_fields(out, args.format, &fields)?;
    Ok(())
}
