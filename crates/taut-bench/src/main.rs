//! The `taut-bench` binary, run by `cargo xtask bench`: runs benchmark suites and writes the
//! reports; `taut-bench sphere` runs the spherical comparison (`taut_bench::sphere`). Exit
//! status 0 when every check passed, 1 on any failure or error (one line on stderr), 2 on a
//! usage error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use taut::registry::PlannerSpec;
use taut_bench::sphere::{DEFAULT_SEED, EarthRaster, SphereBench, SphereOptions};
use taut_bench::{BenchError, RunOptions, Suite, suite_files};

/// Run benchmark suites: time every query single-threaded, check every length, write CSV,
/// Markdown and SVG. `taut-bench sphere --help`: the spherical comparison.
#[derive(Debug, Parser)]
#[command(name = "taut-bench", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    args: Args,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Spherical Anya against Euclidean Anya (Section 6 of the Spherical Anya paper): maps
    /// read as the whole sphere and Earth rasters; the paper's Tables 1-4 and per-instance CSVs.
    Sphere(SphereArgs),
    /// Real-time agents in unknown terrain (the p-FRIT_RT paper's Section 4): every
    /// algorithm at every lookahead on a fixed set of solvable problems per map; mean cost,
    /// total time and time per episode, and the cost plot of its Figure 3.
    Frit(FritArgs),
    /// Memory against speed: per map, hub labels at several budgets (and the full index)
    /// beside Anya, Polyanya and End Point Search; frontier.csv, frontier.md and one plot per
    /// map (docs/bench.md, "The frontier").
    Frontier(FrontierArgs),
    /// Write the big occupancy-grid maps (`big-KIND-SIDE-SEED.map` + `.map.scen`), skipping
    /// those up to date: the same arguments always give the same bytes (docs/big-maps.md).
    GenBig(GenBigArgs),
    /// Peak resident memory of each planner on one map, one child process per planner
    /// (docs/big-maps.md); a CSV row per planner on stdout.
    BigMemory(BigMemoryArgs),
    /// Frame budgets: stepping overhead against one-shot queries (paired) and frame-time
    /// percentiles of many agents served by the frame scheduler (docs/bounded-queries.md).
    Frames(FramesArgs),
    /// Local mesh repair against a full rebuild after edits of the grid: paired times per edit
    /// size, and Polyanya's lengths on both meshes compared (docs/bounded-queries.md).
    Repair(RepairArgs),
    /// Sea routes beside searoute (PyPI): km and time per route on the shared port pairs and
    /// a random sample of port pairs, both timed in one Python process (docs/bench.md,
    /// "Beside searoute"). Part of the sphere benchmarks.
    Searoute(SearouteArgs),
}

/// Options of `taut-bench searoute`.
#[derive(Debug, clap::Args)]
struct SearouteArgs {
    /// A Python with searoute and taut installed (a scratch virtual environment:
    /// `pip install searoute==1.6.0 ./crates/taut-py`).
    #[arg(long, value_name = "PY")]
    python: PathBuf,
    /// The sea raster. Default: `earth_0.25deg_nav.map` in the sphere data.
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// Random port pairs besides the shared ones.
    #[arg(long, value_name = "N", default_value_t = 200)]
    random: usize,
    /// Their seed.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Timed runs per route and tool; each time is the minimum.
    #[arg(long, value_name = "N", default_value_t = 3)]
    repeat: u32,
    /// Where the Earth rasters and `port_pairs.csv` are (as for `taut-bench sphere`).
    #[arg(long, value_name = "DIR")]
    sphere_data: Option<PathBuf>,
    /// Output directory. Default: `target/bench/DATE-searoute` in the repository.
    #[arg(long, short, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Options of `taut-bench repair`.
#[derive(Debug, clap::Args)]
struct RepairArgs {
    /// The maps (`.map`); a scenario beside one (MAP.scen, or `scen/` beside `maps/`) gives the
    /// queries checked.
    #[arg(required = true, value_name = "MAP")]
    maps: Vec<PathBuf>,
    /// Sides of the square edits (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "1,16")]
    sizes: Vec<i32>,
    /// Edits per size.
    #[arg(long, value_name = "N", default_value_t = 30)]
    edits: usize,
    /// Scenario queries compared on repaired and rebuilt meshes after each edit.
    #[arg(long, value_name = "N", default_value_t = 20)]
    check: usize,
    /// Seed of the edit positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write the report to this Markdown file.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Options of `taut-bench frames`.
#[derive(Debug, clap::Args)]
struct FramesArgs {
    /// The map (default: the StarCraft map AcrosstheCape of the shared data).
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// Its scenario file. Default: MAP.scen beside the map, else `scen/MAP.scen` of the data.
    #[arg(long, value_name = "FILE")]
    scen: Option<PathBuf>,
    /// The planner every agent uses.
    #[arg(long, default_value = "anya")]
    algo: String,
    /// Agent counts (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "1,100,1000")]
    agents: Vec<usize>,
    /// Expansions per frame, summed over agents.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    budget: u64,
    /// Expansions per agent turn.
    #[arg(long, value_name = "N", default_value_t = 100)]
    slice: u64,
    /// Frames per agent count.
    #[arg(long, value_name = "N", default_value_t = 600)]
    frames: u64,
    /// Slice sizes of the overhead measurement (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "1,10,100,1000")]
    slices: Vec<u64>,
    /// Queries of the overhead measurement.
    #[arg(long, value_name = "N", default_value_t = 500)]
    queries: usize,
    /// Search contexts the agents share (at most the agents): searches running at once.
    #[arg(long, value_name = "N", default_value_t = 200)]
    contexts: usize,
    /// Threads of the scheduler (default: every core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Also write the report to this Markdown file.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Options of `taut-bench gen-big`.
#[derive(Debug, clap::Args)]
struct GenBigArgs {
    /// Kinds (comma-separated): walls, speckle, diagonal, rooms, traps, blobs. Default: all.
    #[arg(long, value_delimiter = ',')]
    kinds: Vec<taut_bench::big::Kind>,
    /// Sides (comma-separated). Default: 512,1024,2048,4096,8192.
    #[arg(long, value_delimiter = ',')]
    sides: Vec<u32>,
    /// Seeds (comma-separated): which map of each kind and side.
    #[arg(long, value_delimiter = ',', default_value = "0")]
    seeds: Vec<u64>,
    /// Queries per map.
    #[arg(long, value_name = "N", default_value_t = taut_bench::big::DEFAULT_QUERIES)]
    queries: usize,
    /// Write every map, even those up to date.
    #[arg(long)]
    force: bool,
    /// Output directory. Default: `target/big-maps` in the repository (the `big` suite's).
    #[arg(long, short, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Options of `taut-bench big-memory`.
#[derive(Debug, clap::Args)]
struct BigMemoryArgs {
    /// The map.
    #[arg(long, value_name = "FILE")]
    map: PathBuf,
    /// Its scenario file. Default: MAP.scen.
    #[arg(long, value_name = "FILE")]
    scen: Option<PathBuf>,
    /// Planners (comma-separated), each measured in a process of its own.
    #[arg(long, value_delimiter = ',', default_value = "ray,anya,polyanya")]
    planners: Vec<String>,
    /// Queries each planner answers (the scenario's first N).
    #[arg(long, value_name = "N", default_value_t = 3)]
    queries: usize,
    /// Stop a planner's child after this many seconds (its peak so far is still reported).
    #[arg(long, value_name = "SECS", default_value_t = 1800)]
    limit: u64,
    /// Internal: be the child process measuring one planner (`none`: only read the map).
    #[arg(long, hide = true)]
    child: bool,
}

/// Options of `taut-bench frontier`.
#[derive(Debug, clap::Args)]
struct FrontierArgs {
    /// The suite whose maps, queries and reference optima are used.
    #[arg(long, default_value = "dao")]
    suite: String,
    /// Only these maps of the suite (comma-separated). Default: the five maps of the EHL
    /// comparison (arena2, brc202d, den520d, orz900d, ost100d) when the suite is `dao`, else
    /// every map.
    #[arg(long, value_delimiter = ',')]
    maps: Vec<String>,
    /// Hub budgets (comma-separated sizes: 1MB, 64MB, 2G).
    #[arg(long, value_delimiter = ',', value_parser = taut::cpd::estimate::parse_size,
          default_value = "1MB,4MB,16MB,64MB")]
    budgets: Vec<u64>,
    /// Leave out the full hub index (a label per point).
    #[arg(long)]
    no_full: bool,
    /// The planners beside hub labels (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "anya,polyanya,eps")]
    baselines: Vec<PlannerSpec>,
    #[command(flatten)]
    queries: QueryLimits,
    #[command(flatten)]
    dirs: DataDirs,
    /// Where the hub indexes built go (`DIR/SETTING/MAP.hub`). Default: OUT/hubs.
    #[arg(long, value_name = "DIR")]
    hubs_dir: Option<PathBuf>,
    /// Output directory. Default: `target/bench/DATE-frontier`.
    #[arg(long, short, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Options of `taut-bench frit`.
#[derive(Debug, clap::Args)]
struct FritArgs {
    /// Directory of the maps. Default: `../shared/data/grid/maps` beside the repository,
    /// else `data/*/maps` of `cargo xtask fetch-maps` (searched by name).
    #[arg(long, value_name = "DIR")]
    maps_dir: Option<PathBuf>,
    /// Maps by name (comma-separated). Default: the paper's 12.
    #[arg(long, value_delimiter = ',')]
    maps: Vec<String>,
    /// Problems per map (the paper uses 500).
    #[arg(long, value_name = "N", default_value_t = 500)]
    problems: usize,
    /// Run only problems K..N of each map (numbered from 0), to extend an earlier run of K
    /// problems per map: the problems are the same and keep their indexes.
    #[arg(long, value_name = "K", default_value_t = 0)]
    first_problem: usize,
    /// Lookaheads (comma-separated). Default: the paper's 1, 2, 4, ..., 128 and 512.
    #[arg(long, value_delimiter = ',')]
    lookaheads: Vec<u32>,
    /// The FRIT family's profile: `paper` (the algorithms as written; the library default)
    /// or `taut` (our improvements). See docs/frit.md.
    #[arg(long, default_value = "paper")]
    profile: String,
    /// One FRIT option over the profile (the help lists them from the library's table).
    #[arg(long = "frit-option", value_name = "NAME=VALUE",
          help = taut::frit::FritConfig::options_help())]
    frit_options: Vec<String>,
    /// The move rule: `no-corner-cut` (taut's, the default) or `corner-cut` (the paper's
    /// model as written).
    #[arg(long, default_value = "no-corner-cut")]
    moves: taut::frit::MoveRule,
    /// INTREE pointer steps per unit of lookahead, or `unbounded`.
    #[arg(long, value_name = "N|unbounded", default_value = "64")]
    intree_steps: String,
    /// A cap on moves per run (default: the library's, 100 per free cell + 10,000); a run
    /// that reaches it is a cutoff.
    #[arg(long, value_name = "N")]
    move_cap: Option<u64>,
    /// Algorithms (comma-separated). Default: all seven.
    #[arg(long, value_delimiter = ',')]
    algos: Vec<taut::frit::AgentAlgo>,
    /// Seed of the problem generator.
    #[arg(long, default_value_t = taut_bench::frit::DEFAULT_SEED)]
    seed: u64,
    /// Worker threads; each run is timed alone, but parallel runs share caches.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Output directory. Default: `target/bench/DATE-frit` in the repository.
    #[arg(long, short, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Where the game-map data and the suite files are (every command that reads suites).
#[derive(Debug, clap::Args)]
struct DataDirs {
    /// Where the benchmark data is (the layout of `cargo xtask fetch-maps`). Default:
    /// $TAUT_BENCH_DATA, else `data/` in the repository.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Directory of the suite files. Default: `benchmarks/suites` in the repository.
    #[arg(long, value_name = "DIR")]
    suites_dir: Option<PathBuf>,
}

impl DataDirs {
    /// The data root, the suites directory and every suite in it.
    fn suites(&self, repo: &Path) -> Result<(PathBuf, PathBuf, Vec<Suite>), BenchError> {
        let data = data_root(self.data.as_deref(), repo);
        let (dir, all) = read_suites(self.suites_dir.as_deref(), repo, &data)?;
        Ok((data, dir, all))
    }
}

/// Which queries of each scenario file run.
#[derive(Debug, clap::Args)]
struct QueryLimits {
    /// Run every K-th query of each scenario file instead of the suite's sampling.
    #[arg(long, value_name = "K")]
    sample: Option<usize>,
    /// At most N queries per scenario file (after sampling).
    #[arg(long, value_name = "N")]
    max_queries: Option<usize>,
}

/// The grid benchmark's options.
#[derive(Debug, clap::Args)]
struct Args {
    /// Suites to run, by name (comma-separated or repeated); `all` runs every suite whose data
    /// is present. Default: all.
    #[arg(long, value_delimiter = ',', conflicts_with = "quick")]
    suite: Vec<String>,
    /// The smoke run: the `quick` suite on the maps shipped in `fixtures/` (no data needed).
    #[arg(long)]
    quick: bool,
    /// Run these planners instead of each suite's own (comma-separated; Anya takes options:
    /// `anya:no-cul-de-sac+no-intermediate`, `anya:hash`).
    #[arg(long, value_delimiter = ',')]
    planners: Vec<PlannerSpec>,
    #[command(flatten)]
    queries: QueryLimits,
    #[command(flatten)]
    dirs: DataDirs,
    /// Output directory. Default: `target/bench/DATE-SUITES` in the repository.
    #[arg(long, short, value_name = "DIR")]
    out: Option<PathBuf>,
    /// List the suites and whether their data is present, then exit.
    #[arg(long)]
    list: bool,
}

fn repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .map_or_else(|| PathBuf::from("."), Path::to_owned)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(Command::Sphere(args)) => run_sphere(args),
        Some(Command::Frit(args)) => run_frit(args),
        Some(Command::Frontier(args)) => run_frontier(args),
        Some(Command::GenBig(args)) => run_gen_big(args),
        Some(Command::BigMemory(args)) => run_big_memory(args),
        Some(Command::Frames(args)) => run_frames(args),
        Some(Command::Repair(args)) => run_repair(args),
        Some(Command::Searoute(args)) => run_searoute(args),
        None => run(&cli.args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("taut-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The data root: `--data`, else `$TAUT_BENCH_DATA`, else `data/` in the repository.
fn data_root(arg: Option<&Path>, repo: &Path) -> PathBuf {
    arg.map(Path::to_owned)
        .or_else(|| std::env::var_os("TAUT_BENCH_DATA").map(PathBuf::from))
        .unwrap_or_else(|| repo.join("data"))
}

/// Every suite of the suites directory (`--suites-dir`, else `benchmarks/suites`).
fn read_suites(
    arg: Option<&Path>,
    repo: &Path,
    data: &Path,
) -> Result<(PathBuf, Vec<Suite>), BenchError> {
    let dir = arg
        .map(Path::to_owned)
        .unwrap_or_else(|| repo.join("benchmarks/suites"));
    let all = suite_files(&dir)?
        .iter()
        .map(|p| Suite::read(p, data))
        .collect::<Result<_, _>>()?;
    Ok((dir, all))
}

fn run(args: &Args) -> Result<(), BenchError> {
    let repo = repo_root();
    let (data, dir, all) = args.dirs.suites(&repo)?;
    if args.list {
        for s in &all {
            println!(
                "{:<14} {:<8} {}",
                s.name,
                match (s.has_data(), s.generate.is_some()) {
                    (true, _) => "ready",
                    (false, true) => "generate",
                    (false, false) => "no data",
                },
                s.description
            );
        }
        return Ok(());
    }
    let wanted: Vec<&str> = if args.quick {
        vec!["quick"]
    } else if args.suite.is_empty() {
        vec!["all"]
    } else {
        args.suite.iter().map(String::as_str).collect()
    };
    let mut suites = Vec::new();
    for w in &wanted {
        if *w == "all" {
            for s in &all {
                if s.has_data() {
                    suites.push(s.clone());
                } else if s.generate.is_some() {
                    eprintln!(
                        "taut-bench: NOTICE: suite {} skipped: its maps are not generated yet (`--suite {}` generates them)",
                        s.name, s.name
                    );
                } else {
                    eprintln!(
                        "taut-bench: NOTICE: suite {} skipped: no data at {}",
                        s.name,
                        s.scenarios.display()
                    );
                }
            }
            continue;
        }
        let s = find_suite(&all, w, &dir)?;
        s.generate_missing(true)?;
        if !s.has_data() {
            return Err(BenchError::Data {
                path: s.scenarios.clone(),
                msg: format!(
                    "suite {} has no data here: run `cargo xtask fetch-maps` (or `--from ../shared/data`), or pass --data DIR",
                    s.name
                ),
            });
        }
        suites.push(s.clone());
    }
    if suites.is_empty() {
        return Err(BenchError::Data {
            path: data,
            msg: "no suite has its data here: run `cargo xtask fetch-maps` first".into(),
        });
    }
    let opts = RunOptions {
        planners: (!args.planners.is_empty()).then(|| args.planners.clone()),
        sample: args.queries.sample,
        max_queries_per_map: args.queries.max_queries,
        progress: true,
    };
    let names: Vec<&str> = suites.iter().map(|s| s.name.as_str()).collect();
    let out = args.out.clone().unwrap_or_else(|| {
        let date = taut_bench::Provenance::collect(&repo).date;
        let joined = if names.len() > 3 {
            format!("{}-suites", names.len())
        } else {
            names.join("+")
        };
        repo.join("target/bench").join(format!("{date}-{joined}"))
    });
    let command: Vec<String> = std::env::args().collect();
    let written = taut_bench::bench(&suites, &opts, &out, &repo, &command.join(" "))?;
    eprintln!(
        "taut-bench: all checks passed; wrote {}, {} and {} plot(s)",
        written.markdown.display(),
        written.csv.display(),
        written.plots.len()
    );
    Ok(())
}

/// The suites the spherical comparison runs by default: the older-generation game sets and
/// the random maps (the paper's Tables 1-4 rows).
const SPHERE_SUITES: [&str; 5] = [
    "sc1-legacy",
    "da2-legacy",
    "bg512-legacy",
    "dao-legacy",
    "random",
];

/// The Earth resolutions of the shared data (`earth_RES_nav.map`).
const EARTH_RESOLUTIONS: [&str; 3] = ["1deg", "0.5deg", "0.25deg"];

/// The suite named `name` among `all` (read from `dir`), or an error listing the names there.
fn find_suite<'a>(all: &'a [Suite], name: &str, dir: &Path) -> Result<&'a Suite, BenchError> {
    all.iter()
        .find(|s| s.name == name)
        .ok_or_else(|| BenchError::Data {
            path: dir.to_owned(),
            msg: format!(
                "no suite {name:?} (have: {})",
                all.iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}

/// Options of `taut-bench sphere`.
#[derive(Debug, clap::Args)]
struct SphereArgs {
    /// Game-map suites by name (comma-separated or repeated; `none` for none). Only their
    /// maps are used: pairs are sampled, not read from the scenarios. Default:
    /// sc1-legacy, da2-legacy, bg512-legacy, dao-legacy and random, those whose data is here.
    #[arg(long, value_delimiter = ',', conflicts_with = "quick")]
    suite: Vec<String>,
    /// Earth rasters by resolution: 1deg, 0.5deg, 0.25deg (comma-separated or repeated;
    /// `none` for none). Default: every one present.
    #[arg(long, value_delimiter = ',', conflicts_with = "quick")]
    earth: Vec<String>,
    /// Query pairs per game map (uniform, with replacement, over the free cells' corners).
    #[arg(long, value_name = "N", default_value_t = 250)]
    queries: usize,
    /// At most K maps per suite, evenly spaced in name order.
    #[arg(long, value_name = "K")]
    max_maps: Option<usize>,
    /// Random pairs of sea cells per Earth raster.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    earth_queries: usize,
    /// At most N port pairs per Earth raster (file order). Default: all 37.
    #[arg(long, value_name = "N")]
    max_ports: Option<usize>,
    /// The seed every sample derives from (recorded in every report).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Run maps (and chunks of Earth pairs) on N threads. Each query is still timed alone,
    /// but parallel runs share caches and memory bandwidth: the default 1 is the honest timing.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Spacing of Recipe 2's synthetic points, arc-seconds (1 in the paper).
    #[arg(long, value_name = "ARCSEC", default_value_t = 1.0)]
    step_arcsec: f64,
    /// The smoke run: the `quick` suite (fixture maps) with 5 pairs per map, and the 1° Earth
    /// raster with 5 random and 5 port pairs when its data is present.
    #[arg(long)]
    quick: bool,
    #[command(flatten)]
    dirs: DataDirs,
    /// Where the Earth rasters and `pairs_snapped.csv` are. Default: $TAUT_SPHERE_DATA, else
    /// `../shared/data/sphere` beside the repository, else `data/sphere` in it.
    #[arg(long, value_name = "DIR")]
    sphere_data: Option<PathBuf>,
    /// Output directory. Default: `target/bench/DATE-sphere` in the repository.
    #[arg(long, short, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Also run taut beside searoute (`taut-bench searoute` with its defaults) with this
    /// Python, into `searoute/` of the output directory.
    #[arg(long, value_name = "PY")]
    searoute: Option<PathBuf>,
}

/// The Earth data directory of `taut-bench sphere`.
fn sphere_data_dir(arg: Option<&Path>, repo: &Path) -> PathBuf {
    if let Some(d) = arg {
        return d.to_owned();
    }
    if let Some(d) = std::env::var_os("TAUT_SPHERE_DATA") {
        return PathBuf::from(d);
    }
    let shared = repo.join("../shared/data/sphere");
    if shared.is_dir() {
        return shared;
    }
    repo.join("data/sphere")
}

fn run_sphere(args: &SphereArgs) -> Result<(), BenchError> {
    let repo = repo_root();
    let (data, dir, all) = args.dirs.suites(&repo)?;
    let sphere_dir = sphere_data_dir(args.sphere_data.as_deref(), &repo);
    let mut opts = SphereOptions {
        queries_per_map: args.queries,
        max_maps: args.max_maps,
        earth_queries: args.earth_queries,
        max_ports: args.max_ports,
        seed: args.seed,
        threads: args.threads.max(1),
        step_arcsec: args.step_arcsec,
        progress: true,
    };
    if !(args.step_arcsec > 0.0 && args.step_arcsec.is_finite()) {
        return Err(BenchError::Data {
            path: PathBuf::from("--step-arcsec"),
            msg: format!("must be a positive number, got {}", args.step_arcsec),
        });
    }
    // Which suites and rasters: named ones must have their data; defaults are skipped with a
    // notice when absent.
    let (suite_names, suites_explicit): (Vec<String>, bool) = if args.quick {
        opts.queries_per_map = 5;
        opts.earth_queries = 5;
        opts.max_ports = Some(5);
        (vec!["quick".into()], true)
    } else if args.suite.is_empty() {
        (SPHERE_SUITES.iter().map(|s| s.to_string()).collect(), false)
    } else if args.suite.iter().any(|s| s == "none") {
        (Vec::new(), true)
    } else {
        (args.suite.clone(), true)
    };
    let (earth_names, earth_explicit): (Vec<String>, bool) = if args.quick {
        (vec!["1deg".into()], false)
    } else if args.earth.is_empty() {
        (
            EARTH_RESOLUTIONS.iter().map(|s| s.to_string()).collect(),
            false,
        )
    } else if args.earth.iter().any(|s| s == "none") {
        (Vec::new(), true)
    } else {
        (args.earth.clone(), true)
    };
    let mut benches = Vec::new();
    for w in &suite_names {
        let s = find_suite(&all, w, &dir)?;
        if !s.maps.is_dir() {
            if suites_explicit {
                return Err(BenchError::Data {
                    path: s.maps.clone(),
                    msg: format!(
                        "suite {} has no maps here: run `cargo xtask fetch-maps --from ../shared/data`, or pass --data DIR",
                        s.name
                    ),
                });
            }
            eprintln!(
                "taut-bench: NOTICE: suite {} skipped: no maps at {}",
                s.name,
                s.maps.display()
            );
            continue;
        }
        benches.push(SphereBench::Suite(Box::new(s.clone())));
    }
    let pairs = sphere_dir.join("pairs_snapped.csv");
    for res in &earth_names {
        if !EARTH_RESOLUTIONS.contains(&res.as_str()) {
            return Err(BenchError::Data {
                path: sphere_dir.clone(),
                msg: format!(
                    "no Earth raster {res:?} (have: {})",
                    EARTH_RESOLUTIONS.join(", ")
                ),
            });
        }
        let map = sphere_dir.join(format!("earth_{res}_nav.map"));
        if !map.is_file() {
            if earth_explicit {
                return Err(BenchError::Data {
                    path: map,
                    msg: "no such raster: pass --sphere-data DIR".into(),
                });
            }
            eprintln!(
                "taut-bench: NOTICE: Earth raster {res} skipped: no file {}",
                map.display()
            );
            continue;
        }
        benches.push(SphereBench::Earth(EarthRaster {
            name: format!("earth-{res}"),
            map,
            pairs: pairs.is_file().then(|| pairs.clone()),
        }));
    }
    if benches.is_empty() {
        return Err(BenchError::Data {
            path: data,
            msg: "nothing to run: no suite's maps and no Earth raster here (`cargo xtask fetch-maps --from ../shared/data`, --sphere-data DIR)".into(),
        });
    }
    let out = args.out.clone().unwrap_or_else(|| {
        let date = taut_bench::Provenance::collect(&repo).date;
        repo.join("target/bench").join(format!("{date}-sphere"))
    });
    let command: Vec<String> = std::env::args().collect();
    let written =
        taut_bench::sphere::sphere_bench(&benches, &opts, &out, &repo, &command.join(" "))?;
    eprintln!(
        "taut-bench: all checks passed; wrote {} and {} CSV file(s)",
        written.markdown.display(),
        written.csvs.len()
    );
    if let Some(python) = &args.searoute {
        run_searoute(&SearouteArgs {
            python: python.clone(),
            map: None,
            random: 200,
            seed: 7,
            repeat: 3,
            sphere_data: Some(sphere_dir.clone()),
            out: Some(out.join("searoute")),
        })?;
    }
    Ok(())
}

fn run_frit(args: &FritArgs) -> Result<(), BenchError> {
    use taut_bench::frit::{FritOptions, LOOKAHEADS, PAPER_MAPS, run_experiment, write_reports};
    let repo = repo_root();
    let maps_dir = args
        .maps_dir
        .clone()
        .unwrap_or_else(|| repo.join("../shared/data/grid/maps"));
    let maps: Vec<String> = if args.maps.is_empty() {
        PAPER_MAPS.iter().map(|s| s.to_string()).collect()
    } else {
        args.maps.clone()
    };
    for m in &maps {
        let p = maps_dir.join(format!("{m}.map"));
        if !p.is_file() {
            return Err(BenchError::Data {
                path: p,
                msg: "map not found (pass --maps-dir DIR)".into(),
            });
        }
    }
    if args.lookaheads.contains(&0) {
        return Err(BenchError::Data {
            path: PathBuf::from("--lookaheads"),
            msg: "a lookahead must be at least 1".into(),
        });
    }
    let bad = |flag: &str, msg: String| BenchError::Data {
        path: PathBuf::from(flag),
        msg,
    };
    let mut config =
        taut::frit::FritConfig::profile(&args.profile).map_err(|m| bad("--profile", m))?;
    let mut config_name = args.profile.clone();
    for spec in &args.frit_options {
        config.set_all(spec).map_err(|m| bad("--frit-option", m))?;
        config_name.push('+');
        config_name.push_str(spec);
    }
    let steps_per_expansion = match args.intree_steps.as_str() {
        "unbounded" => u64::MAX,
        n => n.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
            bad(
                "--intree-steps",
                format!("`{n}` is not a positive number or `unbounded`"),
            )
        })?,
    };
    let opts = FritOptions {
        maps_dir,
        maps,
        problems: args.problems,
        first_problem: args.first_problem,
        lookaheads: if args.lookaheads.is_empty() {
            LOOKAHEADS.to_vec()
        } else {
            args.lookaheads.clone()
        },
        algos: if args.algos.is_empty() {
            taut::frit::AgentAlgo::ALL.to_vec()
        } else {
            args.algos.clone()
        },
        seed: args.seed,
        threads: args.threads.max(1),
        progress: true,
        config,
        config_name,
        moves: args.moves,
        steps_per_expansion,
        max_moves: args.move_cap,
    };
    let out = args.out.clone().unwrap_or_else(|| {
        let date = taut_bench::Provenance::collect(&repo).date;
        repo.join("target/bench").join(format!("{date}-frit"))
    });
    let rows = run_experiment(&opts)?;
    let command: Vec<String> = std::env::args().collect();
    let md = write_reports(&rows, &opts, &out, &repo, &command.join(" "))?;
    let failures: Vec<String> = rows
        .iter()
        .filter(|r| r.status != taut::frit::Status::Reached.name())
        .map(|r| {
            format!(
                "{} problem {} {} k={}: {}",
                r.map, r.problem, r.algo, r.lookahead, r.status
            )
        })
        .collect();
    BenchError::from_failures(&failures, &out)?;
    eprintln!(
        "taut-bench frit: every run reached its goal; wrote {}",
        md.display()
    );
    Ok(())
}

/// The maps `taut-bench frontier` runs on the `dao` suite by default: those of the EHL
/// comparison (docs/hub.md).
const EHL_MAPS: [&str; 5] = ["arena2", "brc202d", "den520d", "orz900d", "ost100d"];

fn run_frontier(args: &FrontierArgs) -> Result<(), BenchError> {
    use taut_bench::frontier::{FrontierOptions, run_frontier, write_frontier};
    let repo = repo_root();
    let (_, dir, all) = args.dirs.suites(&repo)?;
    let Some(mut suite) = all.into_iter().find(|s| s.name == args.suite) else {
        return Err(BenchError::Suite {
            path: dir.join(format!("{}.toml", args.suite)),
            msg: "no such suite".into(),
        });
    };
    if !suite.has_data() {
        return Err(BenchError::Data {
            path: suite.maps.clone(),
            msg: "the suite's data is not there (cargo xtask fetch-maps, or --data DIR)".into(),
        });
    }
    if !args.maps.is_empty() {
        suite.only.clone_from(&args.maps);
    } else if suite.name == "dao" {
        suite.only = EHL_MAPS.iter().map(|m| (*m).to_owned()).collect();
    }
    let out = args.out.clone().unwrap_or_else(|| {
        let date = taut_bench::Provenance::collect(&repo).date;
        repo.join("target/bench").join(format!("{date}-frontier"))
    });
    let opts = FrontierOptions {
        budgets: args.budgets.clone(),
        full: !args.no_full,
        baselines: args.baselines.clone(),
        hubs_dir: args.hubs_dir.clone().unwrap_or_else(|| out.join("hubs")),
        run: RunOptions {
            planners: None,
            sample: args.queries.sample,
            max_queries_per_map: args.queries.max_queries,
            progress: true,
        },
    };
    let frontier = run_frontier(&suite, &opts)?;
    let command: Vec<String> = std::env::args().collect();
    let provenance = taut_bench::Provenance::collect(&repo).line();
    let files = write_frontier(&out, &frontier, &provenance, &command.join(" "))?;
    taut_bench::checks_passed(&frontier.runs, &out)?;
    for f in &files {
        eprintln!("wrote {}", f.display());
    }
    Ok(())
}

fn run_gen_big(args: &GenBigArgs) -> Result<(), BenchError> {
    use taut_bench::big::{GenerateSpec, Kind, SIDES, ensure};
    let repo = repo_root();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| repo.join("target/big-maps"));
    let spec = GenerateSpec {
        kinds: if args.kinds.is_empty() {
            Kind::ALL.to_vec()
        } else {
            args.kinds.clone()
        },
        sides: if args.sides.is_empty() {
            SIDES.to_vec()
        } else {
            args.sides.clone()
        },
        seeds: args.seeds.clone(),
        queries: args.queries,
    };
    let done = ensure(&spec.specs(), &out, args.force, true)?;
    let written = done.iter().filter(|d| d.written).count();
    eprintln!(
        "taut-bench gen-big: {written} map(s) written, {} up to date, in {}",
        done.len() - written,
        out.display()
    );
    Ok(())
}

fn run_frames(args: &FramesArgs) -> Result<(), BenchError> {
    use taut_bench::frames::FramesOptions;
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/grid");
    let map = args
        .map
        .clone()
        .unwrap_or_else(|| shared.join("maps/AcrosstheCape.map"));
    let scen = args
        .scen
        .clone()
        .unwrap_or_else(|| taut_bench::scenario_of(&map));
    for p in [&map, &scen] {
        if !p.exists() {
            return Err(BenchError::Data {
                path: p.clone(),
                msg: "not found (the default map is in ../shared/data; name one with --map)".into(),
            });
        }
    }
    let spec = args
        .algo
        .parse::<PlannerSpec>()
        .map_err(|e| BenchError::Data {
            path: PathBuf::from("--algo"),
            msg: e.to_string(),
        })?;
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let opts = FramesOptions {
        spec,
        agents: args.agents.clone(),
        budget: taut::FrameBudget::new(args.budget, args.slice),
        frames: args.frames,
        slices: args.slices.clone(),
        overhead_queries: args.queries,
        threads,
        contexts: args.contexts,
    };
    write_report(
        &taut_bench::frames::run(&map, &scen, &opts)?,
        args.output.as_deref(),
    )
}

fn run_repair(args: &RepairArgs) -> Result<(), BenchError> {
    let opts = taut_bench::repair::RepairOptions {
        sizes: args.sizes.clone(),
        edits: args.edits,
        check_queries: args.check,
        seed: args.seed,
    };
    let maps: Vec<&Path> = args.maps.iter().map(PathBuf::as_path).collect();
    write_report(
        &taut_bench::repair::run(&maps, &opts)?,
        args.output.as_deref(),
    )
}

fn run_searoute(args: &SearouteArgs) -> Result<(), BenchError> {
    let repo = repo_root();
    let data = sphere_data_dir(args.sphere_data.as_deref(), &repo);
    let map = args
        .map
        .clone()
        .unwrap_or_else(|| data.join("earth_0.25deg_nav.map"));
    let shared = Some(data.join("port_pairs.csv")).filter(|p| p.is_file());
    let out = args.out.clone().unwrap_or_else(|| {
        let date = taut_bench::Provenance::collect(&repo).date;
        repo.join("target/bench").join(format!("{date}-searoute"))
    });
    let opts = taut_bench::searoute::SearouteOptions {
        python: args.python.clone(),
        map,
        shared,
        random: args.random,
        seed: args.seed,
        repeat: args.repeat,
        out: out.clone(),
    };
    let md = taut_bench::searoute::run(&opts)?;
    write_report(&md, Some(&out.join("summary.md")))
}

/// Prints a Markdown report under the provenance line (machine, commit, date), and writes
/// the same to `output` when given.
fn write_report(body: &str, output: Option<&Path>) -> Result<(), BenchError> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let md = format!(
        "{}\n\n{body}",
        taut_bench::Provenance::collect(&repo).line()
    );
    print!("{md}");
    if let Some(out) = output {
        std::fs::write(out, &md).map_err(|e| BenchError::Write {
            path: out.to_owned(),
            msg: e.to_string(),
        })?;
    }
    Ok(())
}

fn run_big_memory(args: &BigMemoryArgs) -> Result<(), BenchError> {
    use taut_bench::big::memory::{ChildOutcome, MemoryRow, measure_children, measure_here};
    let scen = args.scen.clone().unwrap_or_else(|| {
        let mut s = args.map.clone().into_os_string();
        s.push(".scen");
        PathBuf::from(s)
    });
    let parse = |p: &str| {
        p.parse::<PlannerSpec>().map_err(|e| BenchError::Data {
            path: PathBuf::from("--planners"),
            msg: e.to_string(),
        })
    };
    if args.child {
        let [one] = args.planners.as_slice() else {
            return Err(BenchError::Data {
                path: PathBuf::from("--planners"),
                msg: "the child measures exactly one planner".into(),
            });
        };
        let spec = if one == "none" {
            None
        } else {
            Some(parse(one)?)
        };
        let row = measure_here(&args.map, &scen, spec.as_ref(), args.queries)?;
        println!("{}", row.csv());
        return Ok(());
    }
    let planners = args
        .planners
        .iter()
        .map(|p| parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    let exe = std::env::current_exe().map_err(|e| BenchError::Data {
        path: PathBuf::from("taut-bench"),
        msg: format!("cannot find this executable: {e}"),
    })?;
    println!("{},status", MemoryRow::CSV_HEADER);
    measure_children(
        &exe,
        &args.map,
        &scen,
        &planners,
        args.queries,
        std::time::Duration::from_secs(args.limit),
        |outcome| match outcome {
            ChildOutcome::Done(row) => println!("{},done", row.csv()),
            ChildOutcome::TimedOut {
                planner,
                peak_bytes,
                limit_secs,
            } => println!(
                "{planner},{:.1},,,,,,,timed out after {limit_secs} s",
                *peak_bytes as f64 / (1024.0 * 1024.0)
            ),
        },
    )?;
    Ok(())
}
