//! `taut cpd`: build, merge and describe compressed path databases (End Point Search's
//! preprocessing; `docs/cpd-format.md` describes the files).
//!
//! - `taut cpd build (--map M.map | --mesh M.mesh) -o F.cpd [--jobs N] [--shard I/N]` builds
//!   the CPD of the map's mesh (taut's mesh of the grid, or the given mesh) and writes it, or
//!   with `--shard` only that shard's rows to `F.cpd.shard-I-of-N`; a progress bar on stderr
//!   when it is a terminal, then one summary line on stdout. A CPD estimated larger than
//!   `--max-size` (default 8 GB) is refused before its rows are built.
//! - `taut cpd estimate (--map M.map | --mesh M.mesh) [--sample N] [--jobs N]` builds the
//!   graph and a sample of rows and prints the estimated size, build buffers and row time.
//! - `taut cpd merge SHARD... -o F.cpd [--map M.map | --mesh M.mesh] [--remove-shards]` joins
//!   shard files into the CPD one process would have written (byte for byte), after checking
//!   that they were built for the given map's (or mesh's) mesh; the written file is read back
//!   and compared before the shards are deleted.
//! - `taut cpd info F.cpd` describes a CPD file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::builder::TypedValueParser;
use clap::{ArgGroup, Args, Subcommand};
use taut::cpd::shard::{
    CpdShard, build_shard_within, merge_shards, read_shard, shard_path, write_shard_atomic,
};
use taut::cpd::{
    BuildParams, Cpd, CpdStats, FORMAT_VERSION, build_cpd_within, estimate_cpd, read_cpd,
    write_cpd_atomic,
};
use taut::grid::{FreeSet, Grid, MapFile};
use taut::mesh::{Mesh, mesh_from_grid, read_mesh};

use crate::args::parse_free_set;
use crate::error::CliError;
use crate::fields::{Field, InfoFormat, num, write_fields, write_summary};
use crate::progress::TermProgress;

/// Arguments of `taut cpd`.
#[derive(Debug, Clone, Args)]
pub struct CpdArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: CpdCommand,
}

/// The subcommands of `taut cpd`.
// Parsed once per run: the size of the build arguments (a free-terrain table) does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Subcommand)]
pub enum CpdCommand {
    /// Build the CPD of a map's mesh (or one shard of it) and write it; prints one summary
    /// line.
    Build(CpdBuildArgs),
    /// Estimate a map's CPD without building it (its graph, then a sample of rows): size,
    /// build buffers and row time; prints one line per figure.
    Estimate(CpdEstimateArgs),
    /// Merge shard files into one CPD file (identical to a one-process build).
    Merge(CpdMergeArgs),
    /// Describe a CPD file: format, mesh hash, parameters, sizes.
    Info(CpdInfoArgs),
}

/// Arguments of `taut cpd build`.
#[derive(Debug, Clone, Args)]
#[command(group(ArgGroup::new("input").required(true).args(["map", "mesh"])))]
pub struct CpdBuildArgs {
    /// A MovingAI .map file: the CPD of taut's mesh of its free cells (what `--algo eps
    /// --map M.map` searches).
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// A navigation mesh ("mesh 2" file): the CPD of this mesh (for `--algo eps --mesh`).
    #[arg(long, value_name = "FILE")]
    pub mesh: Option<PathBuf>,
    /// The CPD file to write (with --shard, the shard goes to FILE.shard-I-of-N).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Build only shard I of N (0-based) of the rows, for `taut cpd merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<taut::cpd::shard::ShardSpec>,
    /// The map characters that are free terrain (with --map).
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Refuse, before building the rows, a CPD estimated larger than this (the whole CPD,
    /// also with --shard): bytes or 500M, 12G, 1.5GiB, none.
    #[arg(long, value_name = "SIZE", default_value = "8G", value_parser = taut::cpd::estimate::parse_size)]
    pub max_size: u64,
    /// Output format: the summary line, or one JSON object of its figures.
    #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
    pub format: InfoFormat,
}

/// Arguments of `taut cpd estimate`.
#[derive(Debug, Clone, Args)]
#[command(group(ArgGroup::new("input").required(true).args(["map", "mesh"])))]
pub struct CpdEstimateArgs {
    /// A MovingAI .map file: the CPD of taut's mesh of its free cells.
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// A navigation mesh ("mesh 2" file).
    #[arg(long, value_name = "FILE")]
    pub mesh: Option<PathBuf>,
    /// Rows to build for the estimate, spread over the map (every row of a smaller graph).
    #[arg(long, value_name = "N", default_value_t = taut::cpd::estimate::SAMPLE_ROWS, value_parser = clap::value_parser!(u32).range(1..).map(|n| n as usize))]
    pub sample: usize,
    /// Worker threads (default: every core); the row time is given for this many.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// The map characters that are free terrain (with --map).
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Output format: the summary line, or one JSON object of its figures.
    #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
    pub format: InfoFormat,
}

/// Arguments of `taut cpd merge`.
#[derive(Debug, Clone, Args)]
pub struct CpdMergeArgs {
    /// The shard files (all N shards of one CPD, any order).
    #[arg(value_name = "SHARD", required = true)]
    pub shards: Vec<PathBuf>,
    /// The CPD file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Check that the shards were built for this map's mesh (taut's mesh of its free cells)
    /// before writing anything.
    #[arg(long, value_name = "FILE", conflicts_with = "mesh")]
    pub map: Option<PathBuf>,
    /// Check that the shards were built for this navigation mesh before writing anything.
    #[arg(long, value_name = "FILE")]
    pub mesh: Option<PathBuf>,
    /// The map characters that are free terrain (with --map).
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Delete the shard files once the CPD has been written and read back identical.
    #[arg(long)]
    pub remove_shards: bool,
    /// Output format: the summary line, or one JSON object of its figures.
    #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
    pub format: InfoFormat,
}

/// Arguments of `taut cpd info`.
#[derive(Debug, Clone, Args)]
pub struct CpdInfoArgs {
    /// The CPD file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Output format: `key value` lines, or one JSON object with the same keys in snake case.
    #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
    pub format: InfoFormat,
}

/// Runs `taut cpd ...`.
///
/// # Errors
/// Unreadable or malformed inputs, a CPD error, an unwritable output.
pub fn run(args: &CpdArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match &args.command {
        CpdCommand::Build(a) => run_build(a, out),
        CpdCommand::Estimate(a) => run_estimate(a, out),
        CpdCommand::Merge(a) => run_merge(a, out),
        CpdCommand::Info(a) => run_info(a, out),
    }
}

/// The mesh of `--map` (taut's mesh of the grid, free terrain `free`) or `--mesh`.
fn input_mesh(
    map: &Option<std::path::PathBuf>,
    mesh: &Option<std::path::PathBuf>,
    free: &taut::grid::FreeSet,
) -> Result<Mesh, CliError> {
    match (map, mesh) {
        (Some(map), _) => {
            let grid = Grid::from_map(&MapFile::read(map)?, free);
            Ok(mesh_from_grid(&grid)?)
        }
        (None, Some(mesh)) => Ok(read_mesh(mesh)?),
        (None, None) => unreachable!("clap requires --map or --mesh"),
    }
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// What `taut cpd build` computed, and in how many seconds.
enum Built {
    Cpd(Cpd, f64),
    Shard(CpdShard, f64),
}

/// Builds the CPD (or shard) on the current rayon pool.
fn compute(args: &CpdBuildArgs) -> Result<Built, CliError> {
    let mesh = input_mesh(&args.map, &args.mesh, &args.free)?;
    let params = BuildParams::default();
    let progress = TermProgress::stderr();
    let t = Instant::now();
    let err = |source| CliError::Cpd {
        path: args.output.clone(),
        source,
    };
    let built = match args.shard {
        None => Built::Cpd(
            build_cpd_within(&mesh, &params, args.max_size, &progress).map_err(err)?,
            t.elapsed().as_secs_f64(),
        ),
        Some(spec) => Built::Shard(
            build_shard_within(&mesh, &params, spec, args.max_size, &progress).map_err(err)?,
            t.elapsed().as_secs_f64(),
        ),
    };
    progress.finish();
    Ok(built)
}

/// Runs `work` on a pool of `jobs` threads (default: the global pool); returns its result
/// and the number of threads.
fn on_pool<T: Send>(
    jobs: Option<u16>,
    work: impl FnOnce() -> Result<T, CliError> + Send,
) -> Result<(T, usize), CliError> {
    match jobs {
        None => Ok((work()?, rayon::current_num_threads())),
        Some(jobs) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(usize::from(jobs))
                .build()
                .map_err(|e| CliError::Threads(e.to_string()))?;
            Ok((pool.install(work)?, pool.current_num_threads()))
        }
    }
}

fn run_estimate(args: &CpdEstimateArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let mesh = input_mesh(&args.map, &args.mesh, &args.free)?;
    let t = Instant::now();
    let (e, threads) = on_pool(args.jobs, || {
        let progress = TermProgress::stderr();
        let e = estimate_cpd(&mesh, &BuildParams::default(), args.sample, &progress);
        progress.finish();
        e.map_err(|source| CliError::Cpd {
            path: args
                .map
                .clone()
                .or_else(|| args.mesh.clone())
                .unwrap_or_default(),
            source,
        })
    })?;
    let fields = [
        Field::number("nodes", e.nodes.to_string()),
        Field::number("edges", e.edges.to_string()),
        Field::number("sampled rows", e.sampled_rows.to_string()),
        Field::number("runs per row", format!("{:.1}", e.runs_per_row)),
        Field::number("estimated MB", format!("{:.1}", mb(e.bytes))),
        Field::number("estimated buffers MB", format!("{:.1}", mb(e.buffer_bytes))),
        Field::number("row ms", format!("{:.3}", e.row_seconds * 1e3)),
        Field::new(
            "estimated row phase s",
            format!("{:.1} ({threads} threads)", e.row_phase_seconds(threads)),
            num(format!("{:.1}", e.row_phase_seconds(threads))),
        ),
        Field::number("threads", threads.to_string()),
        Field::number("estimate s", format!("{:.2}", t.elapsed().as_secs_f64())),
    ];
    // The text keeps its lines (threads is in the row phase's line).
    let shown: Vec<Field> = match args.format {
        InfoFormat::Text => fields
            .into_iter()
            .filter(|f| f.key() != "threads")
            .collect(),
        InfoFormat::Json => fields.into_iter().collect(),
    };
    write_fields(out, args.format, &shown)?;
    Ok(())
}

fn run_build(args: &CpdBuildArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (built, threads) = on_pool(args.jobs, || compute(args))?;
    let cpd_err = |path: &Path| {
        let path = path.to_owned();
        move |source| CliError::Cpd { path, source }
    };
    match built {
        Built::Cpd(cpd, secs) => {
            write_cpd_atomic(&args.output, &cpd).map_err(cpd_err(&args.output))?;
            let s = cpd.stats();
            let (size, secs_text) = (
                format!("{:.2}", mb(file_len(&args.output))),
                format!("{secs:.2}"),
            );
            let text = format!(
                "wrote {}: {} nodes, {} edges, {} runs, {size} MB, {secs_text} s, {} threads",
                args.output.display(),
                s.nodes,
                s.edges,
                s.runs,
                threads
            );
            let json = serde_json::json!({
                "file": args.output.display().to_string(), "nodes": s.nodes, "edges": s.edges,
                "runs": s.runs, "mb": num(size), "s": num(secs_text), "threads": threads,
            });
            write_summary(out, args.format, &text, &json)?;
        }
        Built::Shard(shard, secs) => {
            let spec = shard.spec();
            let path = shard_path(&args.output, spec);
            write_shard_atomic(&path, &shard).map_err(cpd_err(&path))?;
            let rows = shard.rows();
            let (size, secs_text) = (format!("{:.2}", mb(file_len(&path))), format!("{secs:.2}"));
            let text = format!(
                "wrote {}: shard {spec}, rows {}..{} of {} nodes, {} edges, {} runs, {size} MB, {secs_text} s, {} threads",
                path.display(),
                rows.start,
                rows.end,
                shard.graph().node_count(),
                shard.graph().edge_count(),
                shard.runs(),
                threads
            );
            let json = serde_json::json!({
                "file": path.display().to_string(), "shard": spec.to_string(),
                "rows": [rows.start, rows.end], "nodes": shard.graph().node_count(),
                "edges": shard.graph().edge_count(), "runs": shard.runs(), "mb": num(size),
                "s": num(secs_text), "threads": threads,
            });
            write_summary(out, args.format, &text, &json)?;
        }
    }
    Ok(())
}

fn run_merge(args: &CpdMergeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let t = Instant::now();
    // As `merge_shard_files`, but reading each shard here so that an error names the shard
    // at fault (it was reported under the output file's name).
    let cpd_err = |path: &Path| {
        let path = path.to_owned();
        move |source| CliError::Cpd { path, source }
    };
    let parts = args
        .shards
        .iter()
        .map(|p| read_shard(p).map_err(cpd_err(p)))
        .collect::<Result<Vec<_>, _>>()?;
    let cpd = merge_shards(parts).map_err(cpd_err(&args.output))?;
    let expected = match (&args.map, &args.mesh) {
        (Some(map), _) => Some(mesh_from_grid(&Grid::from_map(
            &MapFile::read(map)?,
            &args.free,
        ))?),
        (None, Some(mesh)) => Some(read_mesh(mesh)?),
        (None, None) => None,
    };
    if let Some(mesh) = expected {
        // Name the first shard: the shards agree with each other (merge_shards checked).
        cpd.check_mesh(&taut::cpd::mesh_hash(&mesh))
            .map_err(cpd_err(&args.shards[0]))?;
    }
    write_cpd_atomic(&args.output, &cpd).map_err(cpd_err(&args.output))?;
    if read_cpd(&args.output).map_err(cpd_err(&args.output))? != cpd {
        return Err(cpd_err(&args.output)(taut::cpd::CpdError::Corrupt(
            "the file read back differs from the merged CPD".into(),
        )));
    }
    if args.remove_shards {
        for p in &args.shards {
            std::fs::remove_file(p).map_err(|source| CliError::RemoveFile {
                path: p.clone(),
                source,
            })?;
        }
    }
    let s = cpd.stats();
    let (size, secs) = (
        format!("{:.2}", mb(file_len(&args.output))),
        format!("{:.2}", t.elapsed().as_secs_f64()),
    );
    let text = format!(
        "wrote {}: {} shards, {} nodes, {} edges, {} runs, {size} MB, {secs} s",
        args.output.display(),
        args.shards.len(),
        s.nodes,
        s.edges,
        s.runs,
    );
    let json = serde_json::json!({
        "file": args.output.display().to_string(), "shards": args.shards.len(),
        "nodes": s.nodes, "edges": s.edges, "runs": s.runs, "mb": num(size), "s": num(secs),
    });
    write_summary(out, args.format, &text, &json)?;
    Ok(())
}

fn run_info(args: &CpdInfoArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let cpd: Cpd = read_cpd(&args.file).map_err(|source| CliError::Cpd {
        path: args.file.clone(),
        source,
    })?;
    let s: CpdStats = cpd.stats();
    let fields = [
        Field::text("file", args.file.display().to_string()),
        Field::number("format version", FORMAT_VERSION.to_string()),
        Field::hash("mesh hash", cpd.mesh_hash()),
        Field::number("tie tolerance", format!("{:e}", s.params.tie_tolerance)),
        Field::number("nodes", s.nodes.to_string()),
        Field::number("edges", s.edges.to_string()),
        Field::number("max degree", s.max_degree.to_string()),
        Field::number("runs", s.runs.to_string()),
        Field::number("runs per row", format!("{:.2}", s.runs_per_row)),
        Field::number("file MB", format!("{:.3}", mb(file_len(&args.file)))),
        Field::number("memory MB", format!("{:.3}", mb(s.total_bytes as u64))),
        Field::number("symbol bits", s.symbol_bits.to_string()),
    ];
    write_fields(out, args.format, &fields)?;
    Ok(())
}
