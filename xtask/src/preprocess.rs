//! `cargo xtask preprocess --cpd`: build the compressed path databases of whole suites (or of
//! single maps) for End Point Search, skipping those already up to date, in shards when asked.
//! (`--hub` builds hub label indexes the same way: [`crate::hub`].)
//!
//! - `--suite NAME`: every map of `benchmarks/suites/NAME.toml` (the maps that have a scenario
//!   file, as the bench runs them), written to the suite's `cpds` directory as `NAME.cpd`.
//! - `--map M.map`: that map, written beside it (or into `--out DIR`) as `M.cpd`.
//! - A map whose CPD file has the current format version, the hash of the map's mesh and the
//!   default build parameters is skipped, unless `--force`.
//! - `--shard I/N` builds only shard I of every selected map (`NAME.cpd.shard-I-of-N`, see
//!   [`taut::cpd::shard::shard_path`]); `--merge` joins the shard files present into `NAME.cpd`
//!   ([`taut::cpd::shard::merge_shard_files`]) and deletes them once the merged file has been written
//!   and read back. A batch scheduler runs one `--shard` job per index, then one `--merge`.
//!
//! - `--scheduler local|slurm` builds in shards through a scheduler, then merges
//!   ([`crate::cluster`], docs/cluster.md).
//!
//! The rows of one map are built in parallel on a rayon pool of `--jobs` threads (default:
//! every core); maps go one after the other, so memory holds one map's CPD at a time.
//! Building runs in release: from a debug `cargo xtask`, the command re-runs itself with
//! `cargo run --release`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use taut::cpd::estimate::DEFAULT_MAX_BYTES;
use taut::cpd::shard::{
    ShardSpec, build_shard_within, find_shard_files, merge_shard_files, read_shard_header,
    shard_path, write_shard_atomic,
};
use taut::cpd::{
    BuildParams, CpdHeader, FORMAT_VERSION, GRAPH_PHASE, build_cpd_within, mesh_hash,
    read_cpd_header, write_cpd_atomic,
};
use taut::grid::{FreeSet, Grid, MapFile};
use taut_bench::Suite;

/// Set in the environment of the release re-run, so that it does not re-run again.
pub const IN_RELEASE: &str = "TAUT_XTASK_RELEASE";

/// Arguments of `preprocess`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PreprocessArgs {
    /// Build compressed path databases (End Point Search), `NAME.cpd`.
    #[arg(long)]
    pub cpd: bool,
    /// Build hub label indexes, `NAME.hub` (into a suite's `hubs` directory); with
    /// `--region` or `--budget` as `taut hub build` (`crate::hub`).
    #[arg(long, conflicts_with_all = ["shard", "merge"])]
    pub hub: bool,
    /// With --hub: share labels among regions of N × N cells (1 to 64; default 1, every
    /// point its own label).
    #[arg(long, value_name = "N", requires = "hub", conflicts_with = "budget", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub region: Option<u32>,
    /// With --hub: the finest index whose size in memory and on disk is at most SIZE (bytes
    /// or 64MB, 2G); a map where none fits is reported and the others still built.
    #[arg(long, value_name = "SIZE", requires = "hub", value_parser = taut::cpd::estimate::parse_size)]
    pub budget: Option<u64>,
    /// A suite (`benchmarks/suites/NAME.toml`, or a path to a .toml file): every map of it.
    #[arg(long = "suite", value_name = "NAME")]
    pub suites: Vec<String>,
    /// A single .map file.
    #[arg(long = "map", value_name = "FILE")]
    pub maps: Vec<PathBuf>,
    /// Worker threads of each map's build (default: every core; with --scheduler, threads of
    /// each task, default 1).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Build only shard I of N (0-based) of every selected map.
    #[arg(long, value_name = "I/N", conflicts_with = "merge")]
    pub shard: Option<ShardSpec>,
    /// Merge the shard files of every selected map into its CPD, then delete them.
    #[arg(long)]
    pub merge: bool,
    /// Rebuild even when the file is up to date.
    #[arg(long)]
    pub force: bool,
    /// The data root `{data}` of the suite files. Default: $TAUT_BENCH_DATA, else `data/`.
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Where the CPDs or hub indexes of `--map` maps go (default: beside each map).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Write a per-map CSV to `DIR/DATE-cpd-build/cpd-build.csv` (and with --hub
    /// `DIR/DATE-hub-build/hub-build.csv`), e.g. `--report benchmarks/results`.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Directory of the suite files. Default: `benchmarks/suites`.
    #[arg(long, value_name = "DIR")]
    pub suites_dir: Option<PathBuf>,
    /// Refuse, before building its rows, a CPD estimated larger than this (bytes or 500M,
    /// 12G, 1.5GiB, none). Default: 8G.
    #[arg(long, value_name = "SIZE", value_parser = taut::cpd::estimate::parse_size)]
    pub max_size: Option<u64>,
    /// A sharded build through a scheduler (`--scheduler local|slurm`, `cluster.rs`).
    #[command(flatten)]
    pub cluster: ClusterArgs,
}

/// One map to preprocess.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// `SUITE/MAP`, or the map's file stem for `--map`.
    pub label: String,
    /// The .map file.
    pub map: PathBuf,
    /// The file to write (`NAME.cpd` or `NAME.hub`).
    pub out: PathBuf,
}

/// What happened to one map.
#[derive(Debug, Clone, PartialEq)]
pub enum PrepOutcome {
    /// Up to date: nothing done.
    Skipped,
    /// Built (a CPD, or a shard with `--shard`), or merged from shards (`--merge`).
    Done(MapReport),
}

/// Sizes and times of one map's CPD (or shard).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MapReport {
    /// The job's label.
    pub label: String,
    /// The file written.
    pub file: PathBuf,
    /// Nodes (convex corners).
    pub nodes: usize,
    /// Undirected edges.
    pub edges: usize,
    /// Runs written.
    pub runs: usize,
    /// Size of the file written, in bytes.
    pub bytes: u64,
    /// Seconds building the corner graph (0 for a merge).
    pub graph_secs: f64,
    /// Seconds building the rows (for a merge: merging, writing and checking).
    pub rows_secs: f64,
    /// Seconds in all, reading the map and writing included.
    pub total_secs: f64,
}

/// The result of a whole run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Summary {
    /// One entry per map, in order.
    pub maps: Vec<(Job, PrepOutcome)>,
    /// Wall time.
    pub wall: Duration,
    /// Threads of the pool.
    pub threads: usize,
}

impl Summary {
    /// How many maps were built (or merged).
    pub fn built(&self) -> usize {
        self.maps
            .iter()
            .filter(|(_, o)| matches!(o, PrepOutcome::Done(_)))
            .count()
    }

    /// How many were skipped as up to date.
    pub fn skipped(&self) -> usize {
        self.maps.len() - self.built()
    }

    /// Bytes written.
    pub fn bytes(&self) -> u64 {
        self.maps
            .iter()
            .map(|(_, o)| match o {
                PrepOutcome::Done(r) => r.bytes,
                PrepOutcome::Skipped => 0,
            })
            .sum()
    }
}

/// Where the work is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scheduler {
    /// Processes on this machine, `--workers` at a time.
    Local,
    /// A Slurm job array and a dependent merge job, submitted with `sbatch`.
    Slurm,
}

impl Scheduler {
    /// The scheduler's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Scheduler::Local => "local",
            Scheduler::Slurm => "slurm",
        }
    }
}

/// The options of a sharded build (`--scheduler`).
#[derive(Debug, Clone, clap::Args)]
pub struct ClusterArgs {
    /// Build in shards through a scheduler: `local` (processes on this machine) or `slurm`
    /// (a job array, then a dependent merge job); with --hub, one task per map and no merge.
    /// Without it, one process builds each map.
    #[arg(long, value_enum, conflicts_with_all = ["shard", "merge", "report"])]
    pub scheduler: Option<Scheduler>,
    /// Shards per map (default: the number of workers with local, 4 with slurm).
    #[arg(long, value_name = "N", requires = "scheduler")]
    pub shards: Option<u32>,
    /// Processes at once with `--scheduler local` (default: every core).
    #[arg(long, value_name = "W", requires = "scheduler")]
    pub workers: Option<usize>,
    /// The Slurm partition of both jobs (sbatch --partition).
    #[arg(long, value_name = "NAME", requires = "scheduler")]
    pub partition: Option<String>,
    /// Time limit of each array task and of the merge job (sbatch --time), e.g. 2:00:00.
    #[arg(long, value_name = "TIME", requires = "scheduler")]
    pub time: Option<String>,
    /// Memory of each array task and of the merge job (sbatch --mem), e.g. 8G.
    #[arg(long, value_name = "MEM", requires = "scheduler")]
    pub mem: Option<String>,
    /// Another sbatch option for both jobs, e.g. `--sbatch-arg=--account=geo` (repeatable).
    #[arg(
        long = "sbatch-arg",
        value_name = "ARG",
        allow_hyphen_values = true,
        requires = "scheduler"
    )]
    pub sbatch_args: Vec<String>,
    /// At most this many array tasks (the cluster's MaxArraySize); with more shards, each
    /// array task builds several.
    #[arg(long, value_name = "N", default_value_t = 1000, requires = "scheduler")]
    pub max_array: u32,
    /// Print the plan, the scripts and the commands; write, submit and run nothing.
    #[arg(long, requires = "scheduler")]
    pub dry_run: bool,
    /// With slurm: wait for the jobs, resubmit failed tasks (--retries) and report. Without
    /// it the command returns once the jobs are submitted.
    #[arg(long, requires = "scheduler")]
    pub wait: bool,
    /// How many times a failed task is run again before it is reported.
    #[arg(long, value_name = "R", default_value_t = 1, requires = "scheduler")]
    pub retries: u32,
    /// Where run directories (scripts, task lists, logs, statuses) go; on a cluster, a
    /// directory every node sees. Default: `target/cpd-runs`.
    #[arg(long, value_name = "DIR", requires = "scheduler")]
    pub work_dir: Option<PathBuf>,
    /// The taut binary the tasks run (default: `cargo build --release -p taut-cli` now, and
    /// its `target/release/taut`).
    #[arg(long, value_name = "FILE", requires = "scheduler")]
    pub taut: Option<PathBuf>,
    /// With --wait: give up waiting after this many seconds (the jobs go on; re-run the
    /// command later). Default: wait as long as it takes.
    #[arg(long, value_name = "SECONDS", requires = "wait")]
    pub wait_timeout: Option<f64>,
    /// Seconds between two looks at the Slurm queue with --wait.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, hide = true)]
    pub poll: f64,
}

impl Default for ClusterArgs {
    fn default() -> Self {
        ClusterArgs {
            scheduler: None,
            shards: None,
            workers: None,
            partition: None,
            time: None,
            mem: None,
            sbatch_args: Vec::new(),
            max_array: 1000,
            dry_run: false,
            wait: false,
            retries: 1,
            work_dir: None,
            taut: None,
            wait_timeout: None,
            poll: 2.0,
        }
    }
}

/// What a job builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A compressed path database, `NAME.cpd` in a suite's `cpds` directory.
    Cpd,
    /// A hub label index, `NAME.hub` in a suite's `hubs` directory.
    Hub,
}

impl Kind {
    /// The file extension, and the suite key of the directory.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Kind::Cpd => ("cpd", "cpds"),
            Kind::Hub => ("hub", "hubs"),
        }
    }

    /// The file of `map` in `suite`'s directory of this kind, if it has one.
    fn file_of(self, suite: &Suite, map: &str) -> Option<PathBuf> {
        match self {
            Kind::Cpd => suite.cpd_of(map),
            Kind::Hub => suite.hub_of(map),
        }
    }
}

/// The maps `args` select, with their files of `kind`.
///
/// # Errors
/// A suite that cannot be read or has no directory for `kind`, a map file name that is not
/// UTF-8.
pub fn jobs(args: &PreprocessArgs, repo: &Path, kind: Kind) -> anyhow::Result<Vec<Job>> {
    let (ext, key) = kind.names();
    let data = args
        .data
        .clone()
        .or_else(|| std::env::var_os("TAUT_BENCH_DATA").map(PathBuf::from))
        .unwrap_or_else(|| repo.join("data"));
    let suites_dir = args
        .suites_dir
        .clone()
        .unwrap_or_else(|| repo.join("benchmarks/suites"));
    let mut jobs = Vec::new();
    for name in &args.suites {
        let file = if name.ends_with(".toml") {
            PathBuf::from(name)
        } else {
            suites_dir.join(format!("{name}.toml"))
        };
        let suite = Suite::read(&file, &data)?;
        for (map, _) in suite.scenario_files()? {
            let Some(out) = kind.file_of(&suite, &map) else {
                bail!(
                    "suite {} has no `{key}` directory: add `{key} = \"{{data}}/SET/{ext}\"` to {}",
                    suite.name,
                    file.display()
                );
            };
            jobs.push(Job {
                label: format!("{}/{map}", suite.name),
                map: suite.maps.join(format!("{map}.map")),
                out,
            });
        }
    }
    for map in &args.maps {
        let stem = map
            .file_stem()
            .and_then(|s| s.to_str())
            .with_context(|| format!("{}: not a UTF-8 file name", map.display()))?;
        let dir = match &args.out {
            Some(d) => d.clone(),
            None => map
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_owned),
        };
        jobs.push(Job {
            label: stem.to_owned(),
            map: map.clone(),
            out: dir.join(format!("{stem}.{ext}")),
        });
    }
    Ok(jobs)
}

/// Whether a CPD (or shard) header says the file was built by this format for `hash` with
/// `params`.
fn up_to_date(header: &CpdHeader, hash: &[u8; 32], params: &BuildParams) -> bool {
    header.version == FORMAT_VERSION && &header.mesh_hash == hash && &header.params == params
}

/// The progress display: one bar for the maps, one for the phases of the current map.
struct Bars {
    multi: MultiProgress,
    maps: ProgressBar,
    rows: ProgressBar,
    /// When each phase of the current map began (name, instant).
    phases: Mutex<Vec<(String, Instant)>>,
}

impl Bars {
    fn new(maps: u64) -> Bars {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let multi = MultiProgress::with_draw_target(target);
        let style = |t: &str| {
            ProgressStyle::with_template(t)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ")
        };
        let m = multi.add(ProgressBar::new(maps));
        m.set_style(style(
            "{msg:>24} [{bar:30}] {pos}/{len} maps ({elapsed_precise})",
        ));
        let rows = multi.add(ProgressBar::new(0));
        rows.set_style(style("{msg:>24} [{bar:30}] {pos}/{len} ({eta} left)"));
        Bars {
            multi,
            maps: m,
            rows,
            phases: Mutex::new(Vec::new()),
        }
    }

    /// Seconds of the graph phase and of the phases after it, until now.
    fn phase_secs(&self) -> (f64, f64) {
        let phases = self.phases.lock().expect("not poisoned");
        let now = Instant::now();
        let graph_end = phases.get(1).map_or(now, |p| p.1);
        let graph = phases
            .iter()
            .find(|p| p.0 == GRAPH_PHASE)
            .map_or(0.0, |p| (graph_end - p.1).as_secs_f64());
        let rows = phases.get(1).map_or(0.0, |p| (now - p.1).as_secs_f64());
        (graph, rows)
    }

    fn say(&self, out: &mut dyn Write, line: &str) -> std::io::Result<()> {
        self.multi.suspend(|| writeln!(out, "{line}"))
    }
}

impl taut::cpd::Progress for Bars {
    fn begin(&self, phase: &str, total: u64) {
        self.phases
            .lock()
            .expect("not poisoned")
            .push((phase.to_owned(), Instant::now()));
        self.rows.set_message(phase.to_owned());
        self.rows.set_length(total);
        self.rows.set_position(0);
    }

    fn advance(&self, n: u64) {
        self.rows.inc(n);
    }
}

/// Runs the preprocessing `args` ask for on the current (or a new `--jobs`) rayon pool,
/// writing one line per map and a final table to `out`.
///
/// # Errors
/// Unreadable maps or suites, a map without free space, a CPD error, missing shards.
pub fn preprocess(
    args: &PreprocessArgs,
    repo: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<Summary> {
    if !args.cpd {
        bail!(
            "preprocess builds CPDs (--cpd); hub indexes are built by the hub module's preprocess"
        );
    }
    let jobs = jobs(args, repo, Kind::Cpd)?;
    if jobs.is_empty() {
        bail!("no maps selected: give --suite NAME or --map FILE");
    }
    let pool = pool(args.jobs)?;
    let t0 = Instant::now();
    let bars = Bars::new(jobs.len() as u64);
    let mut summary = Summary {
        threads: pool.current_num_threads(),
        ..Summary::default()
    };
    for job in jobs {
        bars.maps.set_message(job.label.clone());
        bars.phases.lock().expect("not poisoned").clear();
        let outcome = pool
            .install(|| one_map(&job, args, &bars))
            .with_context(|| job.label.clone())?;
        let line = match &outcome {
            PrepOutcome::Skipped => format!("{}: up to date, skipped", job.label),
            PrepOutcome::Done(r) => format!(
                "{}: wrote {} ({} nodes, {} edges, {} runs, {:.2} MB, graph {:.2} s, rows {:.2} s)",
                job.label,
                r.file.display(),
                r.nodes,
                r.edges,
                r.runs,
                r.bytes as f64 / 1e6,
                r.graph_secs,
                r.rows_secs
            ),
        };
        bars.say(out, &line)?;
        bars.maps.inc(1);
        summary.maps.push((job, outcome));
    }
    bars.rows.finish_and_clear();
    bars.maps.finish_and_clear();
    summary.wall = t0.elapsed();
    let what = match (args.shard, args.merge) {
        (Some(s), _) => format!("shards {s} built"),
        (None, true) => "maps merged".to_owned(),
        (None, false) => "maps built".to_owned(),
    };
    writeln!(out, "{what:<14} {}", summary.built())?;
    writeln!(out, "{:<14} {} (up to date)", "skipped", summary.skipped())?;
    writeln!(
        out,
        "{:<14} {:.2} s",
        "wall time",
        summary.wall.as_secs_f64()
    )?;
    writeln!(out, "{:<14} {}", "threads", summary.threads)?;
    writeln!(
        out,
        "{:<14} {:.2}",
        "total MB",
        summary.bytes() as f64 / 1e6
    )?;
    Ok(summary)
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// A rayon pool of `jobs` threads (default: every core).
///
/// # Errors
/// `jobs` is 0, or the pool cannot be built.
pub(crate) fn pool(jobs: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    Ok(match jobs {
        Some(0) => bail!("--jobs must be at least 1"),
        Some(n) => rayon::ThreadPoolBuilder::new().num_threads(n).build()?,
        None => rayon::ThreadPoolBuilder::new().build()?,
    })
}

/// An error as its message alone: the errors of taut's crates name their file and already
/// include their cause, which anyhow's chain would print twice.
pub(crate) fn flat(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

/// taut's mesh of a map's free cells (what the CPD of the map is built on) and its hash.
pub(crate) fn map_mesh(map: &Path) -> anyhow::Result<(taut::mesh::Mesh, [u8; 32])> {
    let grid = Grid::from_map(&MapFile::read(map).map_err(flat)?, &FreeSet::default());
    let mesh = taut::mesh::mesh_from_grid(&grid).map_err(flat)?;
    let hash = mesh_hash(&mesh);
    Ok((mesh, hash))
}

/// Whether `cpd` holds a CPD built for the mesh of `hash` with the default parameters and
/// the current format.
pub(crate) fn cpd_built(cpd: &Path, hash: &[u8; 32]) -> bool {
    read_cpd_header(cpd).is_ok_and(|h| up_to_date(&h, hash, &BuildParams::default()))
}

/// Whether `path` holds shard `spec` built for the mesh of `hash`, as [`cpd_built`].
pub(crate) fn shard_built(path: &Path, hash: &[u8; 32], spec: ShardSpec) -> bool {
    read_shard_header(path)
        .is_ok_and(|h| up_to_date(&h, hash, &BuildParams::default()) && h.shard == Some(spec))
}

/// Builds, shards or merges one map.
fn one_map(job: &Job, args: &PreprocessArgs, bars: &Bars) -> anyhow::Result<PrepOutcome> {
    let t = Instant::now();
    let (mesh, hash) = map_mesh(&job.map)?;
    let params = BuildParams::default();
    let max_size = args.max_size.unwrap_or(DEFAULT_MAX_BYTES);
    let cpd_current = cpd_built(&job.out, &hash);
    if let Some(parent) = job.out.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    let report = |file: &Path, nodes, edges, runs, (graph_secs, rows_secs)| MapReport {
        label: job.label.clone(),
        file: file.to_owned(),
        nodes,
        edges,
        runs,
        bytes: file_len(file),
        graph_secs,
        rows_secs,
        total_secs: t.elapsed().as_secs_f64(),
    };
    if args.merge {
        let shards = find_shard_files(&job.out).map_err(flat)?;
        if shards.is_empty() {
            if cpd_current && !args.force {
                return Ok(PrepOutcome::Skipped);
            }
            bail!(
                "no shard files {} to merge",
                shard_path(&job.out, ShardSpec { index: 0, count: 1 })
                    .display()
                    .to_string()
                    .replace(".shard-0-of-1", ".shard-I-of-N")
            );
        }
        let count = shards[0].0.count;
        if let Some((other, _)) = shards.iter().find(|(s, _)| s.count != count) {
            bail!(
                "shard files of different counts ({count} and {}) beside {}: delete the stale ones",
                other.count,
                job.out.display()
            );
        }
        let missing: Vec<String> = (0..count)
            .filter(|i| !shards.iter().any(|(s, _)| s.index == *i))
            .map(|i| {
                shard_path(&job.out, ShardSpec { index: i, count })
                    .display()
                    .to_string()
            })
            .collect();
        if !missing.is_empty() {
            bail!("missing shard files: {}", missing.join(", "));
        }
        for (_, p) in &shards {
            let h = read_shard_header(p).map_err(flat)?;
            if !up_to_date(&h, &hash, &params) {
                bail!(
                    "{} was built for another mesh, parameters or format: rebuild the shards",
                    p.display()
                );
            }
        }
        let paths: Vec<PathBuf> = shards.into_iter().map(|(_, p)| p).collect();
        let tm = Instant::now();
        let cpd = merge_shard_files(&paths, &job.out, true).map_err(flat)?;
        let s = cpd.stats();
        return Ok(PrepOutcome::Done(report(
            &job.out,
            s.nodes,
            s.edges,
            s.runs,
            (0.0, tm.elapsed().as_secs_f64()),
        )));
    }
    if cpd_current && !args.force {
        return Ok(PrepOutcome::Skipped);
    }
    match args.shard {
        Some(spec) => {
            let path = shard_path(&job.out, spec);
            if shard_built(&path, &hash, spec) && !args.force {
                return Ok(PrepOutcome::Skipped);
            }
            let shard = build_shard_within(&mesh, &params, spec, max_size, bars).map_err(flat)?;
            let secs = bars.phase_secs();
            write_shard_atomic(&path, &shard).map_err(flat)?;
            Ok(PrepOutcome::Done(report(
                &path,
                shard.graph().node_count(),
                shard.graph().edge_count(),
                shard.runs(),
                secs,
            )))
        }
        None => {
            let cpd = build_cpd_within(&mesh, &params, max_size, bars).map_err(flat)?;
            let secs = bars.phase_secs();
            write_cpd_atomic(&job.out, &cpd).map_err(flat)?;
            let s = cpd.stats();
            Ok(PrepOutcome::Done(report(
                &job.out, s.nodes, s.edges, s.runs, secs,
            )))
        }
    }
}

/// The CSV of [`write_report`].
pub const REPORT_HEADER: &str = "name,file,nodes,edges,runs,mb,graph_s,rows_s,total_s";

/// Writes `DIR/DATE-cpd-build/cpd-build.csv`: a provenance comment, [`REPORT_HEADER`], one
/// row per map built (skipped maps are left out). Returns the file.
///
/// # Errors
/// The directory or file cannot be written.
pub fn write_report(dir: &Path, summary: &Summary) -> anyhow::Result<PathBuf> {
    let rows = summary.maps.iter().filter_map(|(_, o)| match o {
        PrepOutcome::Done(r) => Some(format!(
            "{},{},{},{},{},{:.3},{:.3},{:.3},{:.3}",
            r.label,
            file_name(&r.file),
            r.nodes,
            r.edges,
            r.runs,
            r.bytes as f64 / 1e6,
            r.graph_secs,
            r.rows_secs,
            r.total_secs
        )),
        PrepOutcome::Skipped => None,
    });
    write_build_csv(
        dir,
        "cpd-build",
        REPORT_HEADER,
        summary.threads,
        summary.wall,
        rows,
    )
}

/// The last component of `path`, or nothing.
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned())
}

/// Writes `DIR/DATE-NAME/NAME.csv`: a provenance comment with `threads` and the `wall` time,
/// `header`, then `rows`. Returns the file.
///
/// # Errors
/// The directory or file cannot be written.
pub(crate) fn write_build_csv(
    dir: &Path,
    name: &str,
    header: &str,
    threads: usize,
    wall: Duration,
    rows: impl Iterator<Item = String>,
) -> anyhow::Result<PathBuf> {
    let prov = taut_bench::Provenance::collect(&crate::repo_root());
    let dir = dir.join(format!("{}-{name}", prov.date));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut text = format!(
        "# {}; {threads} threads; wall {:.2} s\n{header}\n",
        prov.line(),
        wall.as_secs_f64()
    );
    for row in rows {
        text.push_str(&row);
        text.push('\n');
    }
    let path = dir.join(format!("{name}.csv"));
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A suite of the two fixture maps in a temporary directory, its CPDs in `cpd/`.
    pub(crate) fn tiny_suite() -> (tempfile::TempDir, PreprocessArgs) {
        let dir = tempfile::tempdir().unwrap();
        let fx = taut_testdata::fixtures().join("maps");
        for f in ["arena.map", "arena.map.scen", "small.map", "small.map.scen"] {
            std::fs::copy(fx.join(f), dir.path().join(f)).unwrap();
        }
        std::fs::write(
            dir.path().join("tiny.toml"),
            "description = \"two fixture maps\"\nmaps = \".\"\nscenarios = \".\"\n\
             planners = [\"eps\"]\ncpds = \"cpd\"\n",
        )
        .unwrap();
        let args = PreprocessArgs {
            cpd: true,
            suites: vec![dir.path().join("tiny.toml").display().to_string()],
            jobs: Some(2),
            ..PreprocessArgs::default()
        };
        (dir, args)
    }

    fn run(args: &PreprocessArgs) -> anyhow::Result<(Summary, String)> {
        let mut out = Vec::new();
        let s = preprocess(args, &crate::repo_root(), &mut out)?;
        Ok((s, String::from_utf8(out).unwrap()))
    }

    #[test]
    fn builds_then_skips_what_is_up_to_date_unless_forced() {
        let (dir, args) = tiny_suite();
        let (s, text) = run(&args).unwrap();
        assert_eq!((s.built(), s.skipped(), s.threads), (2, 0, 2), "{text}");
        let arena = dir.path().join("cpd/arena.cpd");
        let small = dir.path().join("cpd/small.cpd");
        assert!(arena.is_file() && small.is_file());
        assert!(text.contains("tiny/arena: wrote "), "{text}");
        assert!(text.contains("maps built     2"), "{text}");
        let PrepOutcome::Done(r) = &s.maps[0].1 else {
            panic!("arena was built")
        };
        assert!(
            r.nodes > 0 && r.runs >= r.nodes && r.bytes == file_len(&arena),
            "{r:?}"
        );
        assert!(r.graph_secs > 0.0 && r.rows_secs > 0.0 && r.total_secs >= r.rows_secs);
        let bytes = std::fs::read(&arena).unwrap();

        let (s, text) = run(&args).unwrap();
        assert_eq!((s.built(), s.skipped()), (0, 2), "{text}");
        assert!(text.contains("skipped        2 (up to date)"), "{text}");

        // A CPD of another map is stale: rebuilt.
        std::fs::copy(&small, &arena).unwrap();
        let (s, _) = run(&args).unwrap();
        assert_eq!((s.built(), s.skipped()), (1, 1));
        assert_eq!(std::fs::read(&arena).unwrap(), bytes);

        let forced = PreprocessArgs {
            force: true,
            ..args.clone()
        };
        let (s, _) = run(&forced).unwrap();
        assert_eq!(s.built(), 2);

        // The report: one row per map built.
        let report = write_report(&dir.path().join("results"), &s).unwrap();
        let csv = std::fs::read_to_string(&report).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].starts_with("# machine: "));
        assert_eq!(lines[1], REPORT_HEADER);
        assert_eq!(lines.len(), 4);
        assert!(
            lines[2].starts_with("tiny/arena,arena.cpd,"),
            "{}",
            lines[2]
        );
        assert!(report.parent().unwrap().ends_with(format!(
            "{}-cpd-build",
            taut_bench::Provenance::collect(&crate::repo_root()).date
        )));
    }

    #[test]
    fn shards_then_merge_give_the_one_process_file_and_are_deleted() {
        let (dir, args) = tiny_suite();
        let (whole_dir, whole_args) = tiny_suite();
        run(&whole_args).unwrap();
        let cpd = |d: &tempfile::TempDir, m: &str| d.path().join(format!("cpd/{m}.cpd"));
        // Shard 0 and 2 of 3 only: merging names the missing file and changes nothing.
        for i in [0, 2] {
            let a = PreprocessArgs {
                shard: Some(ShardSpec::new(i, 3).unwrap()),
                ..args.clone()
            };
            let (s, _) = run(&a).unwrap();
            assert_eq!(s.built(), 2);
        }
        let shard_file = |m: &str, i: u32| shard_path(&cpd(&dir, m), ShardSpec::new(i, 3).unwrap());
        assert!(shard_file("arena", 0).is_file() && shard_file("small", 2).is_file());
        let merge = PreprocessArgs {
            merge: true,
            ..args.clone()
        };
        let err = format!("{:#}", run(&merge).unwrap_err());
        assert!(
            err.contains("missing shard files") && err.contains("arena.cpd.shard-1-of-3"),
            "{err}"
        );
        assert!(!cpd(&dir, "arena").exists() && shard_file("arena", 0).is_file());
        // A shard already built is skipped; the missing one is built; then the merge.
        let a = PreprocessArgs {
            shard: Some(ShardSpec::new(1, 3).unwrap()),
            ..args.clone()
        };
        run(&a).unwrap();
        let (s, _) = run(&PreprocessArgs {
            shard: Some(ShardSpec::new(0, 3).unwrap()),
            ..args.clone()
        })
        .unwrap();
        assert_eq!(s.skipped(), 2);
        let (s, text) = run(&merge).unwrap();
        assert_eq!(s.built(), 2, "{text}");
        assert!(text.contains("maps merged    2"), "{text}");
        for m in ["arena", "small"] {
            assert_eq!(
                std::fs::read(cpd(&dir, m)).unwrap(),
                std::fs::read(cpd(&whole_dir, m)).unwrap(),
                "{m}"
            );
            for i in 0..3 {
                assert!(!shard_file(m, i).exists(), "{m} shard {i} deleted");
            }
        }
        // Nothing left to merge, and the CPDs are up to date: skipped. Shards of an
        // up-to-date CPD are not built.
        let (s, _) = run(&merge).unwrap();
        assert_eq!(s.skipped(), 2);
        let (s, _) = run(&a).unwrap();
        assert_eq!(s.skipped(), 2);
        assert!(!shard_file("arena", 1).exists());
    }

    #[test]
    fn single_maps_go_beside_the_map_or_into_out() {
        let (dir, _) = tiny_suite();
        let map = dir.path().join("small.map");
        let args = PreprocessArgs {
            cpd: true,
            maps: vec![map.clone()],
            ..PreprocessArgs::default()
        };
        assert_eq!(
            jobs(&args, &crate::repo_root(), Kind::Cpd).unwrap(),
            [Job {
                label: "small".into(),
                map: map.clone(),
                out: dir.path().join("small.cpd"),
            }]
        );
        let out = PreprocessArgs {
            out: Some(dir.path().join("elsewhere")),
            ..args.clone()
        };
        let (s, _) = run(&out).unwrap();
        assert_eq!(s.built(), 1);
        assert!(dir.path().join("elsewhere/small.cpd").is_file());
        // Errors: nothing selected, no --cpd, a suite without a cpds directory.
        assert!(
            run(&PreprocessArgs {
                cpd: true,
                ..PreprocessArgs::default()
            })
            .is_err()
        );
        assert!(
            run(&PreprocessArgs {
                cpd: false,
                ..args.clone()
            })
            .is_err()
        );
        let quick_like = dir.path().join("nocpd.toml");
        std::fs::write(
            &quick_like,
            "description = \"x\"\nmaps = \".\"\nscenarios = \".\"\nplanners = [\"eps\"]\n",
        )
        .unwrap();
        let err = run(&PreprocessArgs {
            cpd: true,
            suites: vec![quick_like.display().to_string()],
            ..PreprocessArgs::default()
        })
        .unwrap_err()
        .to_string();
        assert!(err.contains("has no `cpds` directory"), "{err}");
    }
}
