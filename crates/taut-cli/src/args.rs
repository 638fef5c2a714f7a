//! The command line, as clap derive types. Values are parsed and checked here, so that a bad
//! argument is a usage error (exit 2) before any file is read.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use taut::anya::RootHistory;
use taut::grid::{FreeSet, MOVINGAI_ALPHABET, Point};
use taut::registry::{Algo, EpsStop, MeshChoice, Tuning};
use taut::spherical::LatLon;

/// Optimal any-angle path planning on grid maps (MovingAI `.map` / `.scen` files).
#[derive(Debug, Clone, Parser)]
#[command(name = "taut", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands of `taut`.
#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Plan one path and print its length, waypoints and search statistics.
    Path(PathArgs),
    /// Run the queries of a MovingAI .scen file and print one row per query.
    Scen(ScenArgs),
    /// Draw one query: the map, the path, its turning points and the search (SVG or PNG).
    Render(RenderArgs),
    /// Build navigation meshes (Polyanya "mesh 2" files) from grid or polygon maps.
    Mesh(MeshArgs),
    /// Build, merge and describe compressed path databases (End Point Search's preprocessing).
    Cpd(CpdArgs),
    /// Build and describe hub label indexes (the `hub` planner's preprocessing).
    Hub(HubArgs),
    /// Plan the shortest sea route between two LAT,LON points on a sphere map (Spherical
    /// Anya); print km, nautical miles and waypoints; optionally write GeoJSON or a picture.
    #[command(long_about = ROUTE_ABOUT, after_help = ROUTE_AFTER_HELP)]
    Route(RouteArgs),
    /// Run a real-time agent in unknown terrain (LRTA*, RTAA*, FRIT, Bug2, ...) on the queries
    /// of a .scen file or on one --start/--goal pair; print one row per query; optionally
    /// draw its trail.
    #[command(long_about = AGENT_ABOUT, after_help = AGENT_AFTER_HELP)]
    Agent(AgentArgs),
    /// List every planner (name, promise, what it needs built, options), or show what `auto`
    /// picks on given maps.
    Planners(PlannersArgs),
}

const AGENT_ABOUT: &str = "\
Run a real-time agent in unknown terrain on the queries of a MovingAI .scen file (or on one
--start/--goal pair) and print one row per query. The agent knows the map's size, its start
and its goal, and nothing of the obstacles: it sees the 8 cells around it after every move,
moves 8-connected (cost 1 straight, √2 diagonal, no corner cutting), and may expand at most
--lookahead states per decision. Starts and goals are cells: a .scen entry's x, y name the
cell whose top-left corner they are. See docs/frit.md for the algorithms.";

const AGENT_AFTER_HELP: &str = "\
Output (--format csv, the default): the header
  index,status,cost,moves,episodes,max_episode_expansions,time_us
and one row per query, in file order:
- index: the 0-based position of the query in the .scen file (0 for --start/--goal);
- status: reached; unsolvable (the goal cannot be reached from the start: the simulator
  knows it from the true map before the agent moves); invalid (the start or the goal is off
  the map or on a blocked cell: the agent is not run and every field after status is
  empty); cutoff or failed (the agent hit the simulator's cap on moves, or broke a rule:
  defects that should never happen);
- cost: the cost travelled, with 6 decimals; moves: the moves made;
- episodes: the decisions that searched; max_episode_expansions: the most states expanded
  by one decision (never above the lookahead);
- time_us: the total time the agent spent deciding, in microseconds, with 1 decimal.

--format text: one line per query, `query I STATUS cost C moves M episodes E
max_episode_expansions X time_us T` (`query I invalid REASON` for an invalid one, and the
reason in parentheses after `cutoff` or `failed`), then `queries N reached R unsolvable U invalid I
cutoff C failed F mean_cost X mean_time_us T`, the means taken over the reached queries
(`-` when there is none).

--render FILE: the map, the agent's trail through the centres of the cells it visited, the
start (green), the goal (red) and the blocked cells the agent saw (orange); of query
--query N, else of the first query run. Every query is still run and printed.

Exit status: 0 when every query ends reached, unsolvable or invalid; 1 when one ends cutoff
or failed (after every row: one line `taut: ...` on stderr), or when a file cannot be read
or written; 2 for usage errors.

Example:
  taut agent --map arena.map --scen arena.map.scen --algo p-frit-rt --lookahead 16";

/// Arguments of `taut agent`.
#[derive(Debug, Clone, Args)]
#[command(group(ArgGroup::new("queries").required(true).args(["scen", "start"])))]
pub struct AgentArgs {
    /// The MovingAI .map file: the true terrain, which the agent discovers as it moves.
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// Run the queries of this .scen file.
    #[arg(long, value_name = "FILE")]
    pub scen: Option<PathBuf>,
    /// Run only query N (0-based) of --scen (and draw it with --render).
    // `requires` alone is satisfied by the `queries` group's other member, hence the conflict.
    #[arg(long, value_name = "N", requires = "scen", conflicts_with = "start")]
    pub query: Option<usize>,
    /// Instead of --scen: one query from this cell (with --goal).
    #[arg(long, visible_alias = "from", value_name = "X,Y", value_parser = parse_point,
          allow_hyphen_values = true, requires = "goal", conflicts_with = "scen")]
    pub start: Option<Point>,
    /// The goal cell of --start.
    #[arg(long, visible_alias = "to", value_name = "X,Y", value_parser = parse_point,
          allow_hyphen_values = true, requires = "start")]
    pub goal: Option<Point>,
    /// The agent.
    #[arg(long, value_name = "ALGO", default_value = "p-frit-rt",
          value_parser = agent_algo_parser())]
    pub algo: taut::frit::Algo,
    /// The lookahead k >= 1: at most k states expanded per decision (rtaa, dartaa, frit-rt,
    /// p-frit-rt). lrta and bug2 always look one step ahead; frit-bfs is not real-time and
    /// searches as far as it needs.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub lookahead: u32,
    /// The map characters that are free terrain; every other character is blocked.
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Also draw the trail of one query (--query N, else the first query run): FILE.svg or
    /// FILE.png.
    #[arg(long, value_name = "FILE", value_parser = parse_output)]
    pub render: Option<OutputFile>,
    /// With --render: the map's long side in pixels (as in `taut render`).
    #[arg(long, value_name = "PX", default_value_t = 2048,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_px: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AgentFormat::Csv)]
    pub format: AgentFormat,
    /// The FRIT family's profile: `paper` (the p-FRIT_RT paper's algorithms as written, the
    /// default) or `taut` (our improvements; docs/frit.md gives their measured effect).
    #[arg(long, value_name = "NAME", default_value = "paper",
          value_parser = |s: &str| taut::frit::FritConfig::profile(s))]
    pub profile: taut::frit::FritConfig,
    /// One FRIT option over --profile (the help lists them from the library's table).
    #[arg(long = "frit-option", value_name = "NAME=VALUE", value_parser = parse_frit_option,
          help = taut::frit::FritConfig::options_help())]
    pub frit_options: Vec<String>,
    /// How agents may move: `no-corner-cut` (the default, as every other planner in taut) or
    /// `corner-cut` (diagonal moves between two blocked cells touching at a corner, as the
    /// paper's model is written).
    #[arg(long, value_name = "RULE", default_value = "no-corner-cut")]
    pub moves: taut::frit::MoveRule,
}

impl AgentArgs {
    /// The FRIT configuration: --profile with every --frit-option applied in order.
    pub fn frit_config(&self) -> taut::frit::FritConfig {
        let mut config = self.profile;
        for spec in &self.frit_options {
            // Each was checked by `parse_frit_option` when the arguments were parsed.
            let _ = config.set_all(spec);
        }
        config
    }
}

/// Checks a `--frit-option` value against every profile's option names and values.
fn parse_frit_option(s: &str) -> Result<String, String> {
    taut::frit::FritConfig::paper().set_all(s)?;
    Ok(s.to_owned())
}

/// Output formats of `taut agent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AgentFormat {
    /// A header line and one comma-separated row per query.
    Csv,
    /// One line per query and a summary line.
    Text,
}

/// The queries `taut agent` runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentQueries {
    /// `--start X,Y --goal X,Y`: one query, index 0.
    Points {
        /// Start cell.
        start: Point,
        /// Goal cell.
        goal: Point,
    },
    /// `--scen FILE [--query N]`.
    Scenario {
        /// The scenario file.
        scen: PathBuf,
        /// Only this 0-based query, if given.
        query: Option<usize>,
    },
}

impl AgentArgs {
    /// The queries the arguments name (clap guarantees one of the forms).
    pub fn queries(&self) -> AgentQueries {
        match (self.start, self.goal, &self.scen) {
            (Some(start), Some(goal), _) => AgentQueries::Points { start, goal },
            (_, _, Some(scen)) => AgentQueries::Scenario {
                scen: scen.clone(),
                query: self.query,
            },
            _ => unreachable!("clap requires --scen or --start/--goal"),
        }
    }
}

fn agent_algo_parser() -> impl TypedValueParser<Value = taut::frit::Algo> {
    PossibleValuesParser::new(taut::frit::Algo::ALL.map(|a| a.name()))
        .try_map(|s| s.parse::<taut::frit::Algo>())
}

const ROUTE_ABOUT: &str = "\
Plan the shortest sea route between two points of the Earth (or of any sphere map) with
Spherical Anya: great-circle arcs that turn at the corners of land cells and follow the
poleward edges of land along parallels. Lengths are on a sphere of radius 6371 km.

The map is a MovingAI .map read as the whole sphere: row 0 touches the North Pole, column 0
starts at 180°W, cells are 180/height by 360/width degrees, longitude wraps; `.` (and G, S)
is sea, anything else land (e.g. earth_0.25deg_nav.map of the shared data).

Snapping: an endpoint in a sea cell, or on its boundary, is kept as given (snap distance 0);
an endpoint on land moves to the centre of the nearest sea cell (great-circle distance), and
the distance moved is reported (snap_km). If the two ends then lie in waters that do not
connect, a moved end outside the main ocean (the largest connected water: the nearest sea to
a port is sometimes a lagoon) moves to the nearest cell of the main ocean instead. With
--no-snap an endpoint on land is an error.";

const ROUTE_AFTER_HELP: &str = "\
Output (--format json): one object with the keys status (ok, unreachable, invalid), km, nm,
radians, snap_km_from, snap_km_to, time_us, from, to (the snapped endpoints, [lat, lon]),
from_given, to_given, legs (kind great|parallel, from, to, km, radians; lat and dlon for
parallel legs), waypoints ([lat, lon] turning points and ends of parallel legs), expanded,
generated, passages (the named canals and straits the route goes through), avoided (those
closed by --avoid), and error (only when invalid). Unknown values are null.

Passages: on the shared Earth rasters (360x180, 720x360, 1440x720), thirteen canals and
straits are named: suez, panama, gibraltar, bosporus, dardanelles, oresund, bab-el-mandeb,
hormuz, dover, singapore, juan-de-fuca, puget-sound, uraga (those a raster resolves).
--avoid closes them for this request; a route that needs one becomes a detour, or
`unreachable` when the water beyond has no other way in.

--avoid-area FILE.geojson: every cell that the file's polygons touch (closed rectangles
against closed polygons, holes left open; rings across the antimeridian split or not) is
closed for this request; an end inside the area moves to the nearest open cell. A file that
is not a GeoJSON area (no polygon, a Point, not JSON) is one error line naming it.

--pairs FILE.csv: route every row (columns from_lat, from_lon, to_lat, to_lon, optional id,
in any order) on every core. Prints the CSV header
  id,line,status,km,nm,from_lat,from_lon,to_lat,to_lon,snap_km_from,snap_km_to,legs,
  expanded,time_us,passages,error
and one row per input row, in file order (passages separated by ';'). A row that cannot be
read or routed is `invalid`, with one warning line on stderr naming its line; the others are
routed. The last stderr line gives the counts and routes per second. With --geojson, one
FeatureCollection with a Feature per row.

--geojson FILE: a GeoJSON FeatureCollection (RFC 7946, [lon, lat]): the route as a
LineString, or a MultiLineString split at the antimeridian, densified to a point every 0.25
degrees at most, with properties km, nm, radians, passages; its waypoints; Point features
start and goal, and the points as given when snapping moved them.

Exit status: 0 when the query is answered, `ok` or `unreachable` (no route is an answer);
1 when it is invalid (bad coordinates, an unreadable map, an endpoint on land with
--no-snap, an output file that cannot be written): one line `taut: ...` on stderr, and with
--format json the object with status invalid on stdout; 2 for usage errors (one line, no
JSON).

Examples:
  taut route --map earth_0.25deg_nav.map --from 40.70,-74.02 --to 51.90,4.44 --geojson r.json
  taut route --map earth_0.25deg_nav.map --from 18.9,72.8 --to 51.9,4.4 --avoid suez
  taut route --map earth_0.25deg_nav.map --from 18.9,72.8 --to 51.9,4.4 --avoid-area zone.geojson
  taut route --map earth_0.25deg_nav.map --pairs pairs.csv --geojson routes.json > routes.csv";

/// Arguments of `taut route`.
#[derive(Debug, Clone, Args)]
pub struct RouteArgs {
    /// The sphere map (MovingAI .map; rows are latitude bands from the North Pole, columns
    /// longitude bands from 180°W).
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// Start: latitude and longitude in degrees, north and east positive, such as
    /// 40.7,-74.0, "40.7, -74.0" or 40.7N,74W.
    #[arg(
        long,
        value_name = "LAT,LON",
        allow_hyphen_values = true,
        required_unless_present = "pairs",
        conflicts_with = "pairs"
    )]
    pub from: Option<String>,
    /// Goal: latitude and longitude in degrees, as --from.
    #[arg(
        long,
        value_name = "LAT,LON",
        allow_hyphen_values = true,
        required_unless_present = "pairs",
        conflicts_with = "pairs"
    )]
    pub to: Option<String>,
    /// Route every row of this CSV file instead (columns from_lat, from_lon, to_lat, to_lon,
    /// and optionally id, in any order), on all cores; one CSV row per route on stdout, and
    /// with --geojson one FeatureCollection of all routes.
    #[arg(long, value_name = "FILE.csv", conflicts_with_all = ["render", "format"])]
    pub pairs: Option<PathBuf>,
    /// With --pairs: threads to route on (default: every core; a single route uses one).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    /// Passages and areas to keep out of.
    #[command(flatten)]
    pub avoid: AvoidArgs,
    /// The map is transposed (the shared data's *_T.map files: file row i is longitude band
    /// i).
    #[arg(long)]
    pub transposed: bool,
    /// Do not move an endpoint on land to the nearest sea cell: it is an error instead.
    #[arg(long)]
    pub no_snap: bool,
    /// Also write the route as GeoJSON (a FeatureCollection; split at the antimeridian).
    #[arg(long, value_name = "FILE")]
    pub geojson: Option<PathBuf>,
    /// Also draw the map, the route and its waypoints (equirectangular): FILE.svg or
    /// FILE.png.
    #[arg(long, value_name = "FILE", value_parser = parse_output)]
    pub render: Option<OutputFile>,
    /// With --render: the map's long side in pixels (as in `taut render`).
    #[arg(long, value_name = "PX", default_value_t = 2048,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_px: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RouteFormat::Text)]
    pub format: RouteFormat,
}

/// What `taut route` keeps out of, for this request only.
#[derive(Debug, Clone, Default, Args)]
pub struct AvoidArgs {
    /// Close these named passages (comma-separated or repeated): suez, panama, gibraltar,
    /// bosporus, dardanelles, oresund, bab-el-mandeb, hormuz, dover, singapore,
    /// juan-de-fuca, puget-sound, uraga, those the map has (the shared Earth rasters; an
    /// unknown name is an error listing the map's).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub avoid: Vec<String>,
    /// Close every cell that the polygons of this GeoJSON file touch (Polygon, MultiPolygon,
    /// Feature or FeatureCollection of them; [lon, lat]; split at the antimeridian or not).
    /// Repeat for several files.
    #[arg(long, value_name = "FILE.geojson")]
    pub avoid_area: Vec<PathBuf>,
}

/// Output formats of `taut route`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RouteFormat {
    /// Lines: `distance K km N nm R rad` (or `unreachable`), `start`/`goal` with `snap_km`,
    /// `time_us`, `expanded`, `generated`, `legs`, `waypoints N` and N lines `lat,lon`.
    Text,
    /// One JSON object (its keys are listed at the end of `taut route --help`).
    Json,
}

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
}

/// Arguments of `taut cpd info`.
#[derive(Debug, Clone, Args)]
pub struct CpdInfoArgs {
    /// The CPD file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

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
}

/// Arguments of `taut hub info`.
#[derive(Debug, Clone, Args)]
pub struct HubInfoArgs {
    /// The index file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Arguments of `taut mesh`.
#[derive(Debug, Clone, Args)]
pub struct MeshArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: MeshCommand,
}

/// The subcommands of `taut mesh`.
#[derive(Debug, Clone, Subcommand)]
pub enum MeshCommand {
    /// Build the mesh of one grid map or polygon map, write it, and print one line of
    /// statistics.
    Build(MeshBuildArgs),
    /// Build the mesh of every .map file in a directory, timing each build, and print one CSV
    /// row per map and a summary line.
    Stats(MeshStatsArgs),
}

/// Arguments of `taut mesh build`.
#[derive(Debug, Clone, Args)]
#[command(group(ArgGroup::new("input").required(true).args(["map", "polygons"])))]
pub struct MeshBuildArgs {
    /// A MovingAI .map file: mesh its free cells.
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// A polygon map (`polygons 1` text format, see docs/mesh-build.md).
    #[arg(long, value_name = "FILE")]
    pub polygons: Option<PathBuf>,
    /// The mesh file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The map characters that are free terrain (with --map).
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Keep the triangles: do not merge them into convex polygons.
    #[arg(long)]
    pub no_merge: bool,
}

/// Arguments of `taut mesh stats`.
#[derive(Debug, Clone, Args)]
pub struct MeshStatsArgs {
    /// The directory of .map files.
    #[arg(long, value_name = "DIR")]
    pub maps: PathBuf,
    /// A directory of reference meshes `NAME-merged.mesh` to compare polygon counts with.
    #[arg(long, value_name = "DIR")]
    pub reference: Option<PathBuf>,
    /// Write the CSV to this file instead of stdout (the summary still goes to stdout).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The map characters that are free terrain.
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Keep the triangles: do not merge them into convex polygons.
    #[arg(long)]
    pub no_merge: bool,
}

/// Options shared by every command that plans: which planner, which terrain is free.
#[derive(Debug, Clone, Args)]
pub struct PlannerArgs {
    /// The planner (default `auto`: the fastest exact any-angle planner for the map and what
    /// is given for it; `astar` for 8-connected paths). Every planner: `taut planners`.
    #[arg(long, value_name = "ALGO", default_value = "auto", value_parser = algo_parser())]
    pub algo: Algo,
    /// The map characters that are free terrain; every other character is blocked.
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Anya and Polyanya: turn cul-de-sac pruning off (to measure its effect).
    #[arg(long)]
    pub no_cul_de_sac: bool,
    /// Anya and Polyanya: turn intermediate pruning off (to measure its effect).
    #[arg(long)]
    pub no_intermediate: bool,
    /// A navigation mesh of the map ("mesh 2" file of its free space, in lattice coordinates):
    /// Polyanya searches it instead of building one from the map, and `taut render` draws its
    /// polygon edges (with any planner).
    #[arg(long, value_name = "FILE")]
    pub mesh: Option<PathBuf>,
    /// Anya: where the root history lives: `flat` array, `hash` table, or `auto` (flat up to
    /// 2^22 lattice points, hash above).
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = parse_root_history)]
    pub root_history: taut::anya::RootHistory,
    /// End Point Search: the compressed path database of the map's mesh (`taut cpd build`).
    /// Without it, eps builds the CPD in memory first.
    #[arg(long, value_name = "FILE")]
    pub cpd: Option<PathBuf>,
    /// Hub labels: the index of the map (`taut hub build`). Without it, hub builds the index
    /// in memory first.
    #[arg(long, value_name = "FILE")]
    pub hub: Option<PathBuf>,
    /// End Point Search: when to stop: `optimal`, `first` (the first path found) or `q=F`
    /// (a path within factor F >= 1 of the optimum).
    #[arg(long, value_name = "RULE", default_value = "optimal")]
    pub eps_stop: EpsStop,
}

impl PlannerArgs {
    /// The planner-specific options these arguments select.
    pub fn tuning(&self) -> Tuning {
        let mut tuning = Tuning::default();
        tuning.anya = taut::anya::Options {
            cul_de_sac: !self.no_cul_de_sac,
            intermediate: !self.no_intermediate,
            history: self.root_history,
        };
        tuning.polyanya = taut::polyanya::Options {
            cul_de_sac: !self.no_cul_de_sac,
            intermediate: !self.no_intermediate,
            ..taut::polyanya::Options::default()
        };
        tuning.mesh = if self.mesh.is_some() {
            MeshChoice::Given
        } else {
            MeshChoice::Built
        };
        tuning.eps = self.eps_stop;
        tuning
    }
}

/// Arguments of `taut planners`.
#[derive(Debug, Clone, Args)]
pub struct PlannersArgs {
    /// Also print, for each of these .map files, what `auto` reads of it (free cells,
    /// obstacles, obstacles per thousand free cells) and the planner it picks with nothing
    /// built and once the mesh is built.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub map: Vec<PathBuf>,
    /// The map characters that are free terrain.
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Print the table as Markdown (the table of `docs/planners.md`).
    #[arg(long)]
    pub markdown: bool,
}

/// Arguments of `taut path`.
#[derive(Debug, Clone, Args)]
pub struct PathArgs {
    /// The MovingAI .map file.
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// Start lattice point (the top-left corner of cell X,Y).
    #[arg(long, value_name = "X,Y", value_parser = parse_point, allow_hyphen_values = true)]
    pub from: Point,
    /// Goal lattice point.
    #[arg(long, value_name = "X,Y", value_parser = parse_point, allow_hyphen_values = true)]
    pub to: Point,
    /// Planner and terrain options.
    #[command(flatten)]
    pub planner: PlannerArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = PathFormat::Text)]
    pub format: PathFormat,
}

/// Arguments of `taut scen`.
#[derive(Debug, Clone, Args)]
pub struct ScenArgs {
    /// The MovingAI .scen file.
    #[arg(long, value_name = "FILE")]
    pub scen: PathBuf,
    /// The .map file. Default: the map the first query names, found by its base name in the
    /// scenario's directory, then in --maps-dir.
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Another directory to look for the scenario's map in (when --map is not given).
    #[arg(long, value_name = "DIR")]
    pub maps_dir: Option<PathBuf>,
    /// Run only the first N queries.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Run the queries N times over on the same warm planner and report each query's median
    /// time (and first-solution time) over the N rounds: steadier timings than one pass, whose
    /// first queries pay for growing the planner's buffers. The rows are written after the
    /// last round.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Planner and terrain options.
    #[command(flatten)]
    pub planner: PlannerArgs,
    /// End Point Search only: also time the first solution (column `first_us`), and run on
    /// to the optimum (whatever --eps-stop says).
    #[arg(long)]
    pub anytime: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ScenFormat::Csv)]
    pub format: ScenFormat,
}

/// Arguments of `taut render`.
#[derive(Debug, Clone, Args)]
#[command(group(ArgGroup::new("query").required(true).args(["from", "scen"])))]
pub struct RenderArgs {
    /// The MovingAI .map file (with --sphere, a sphere map as in `taut route`).
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// Start lattice point (with --to); with --sphere, LAT,LON in degrees.
    #[arg(long, value_name = "X,Y", value_parser = parse_query_point, allow_hyphen_values = true,
          requires = "to", conflicts_with = "scen")]
    pub from: Option<QueryPoint>,
    /// Goal lattice point (with --from); with --sphere, LAT,LON in degrees.
    #[arg(long, value_name = "X,Y", value_parser = parse_query_point, allow_hyphen_values = true,
          requires = "from")]
    pub to: Option<QueryPoint>,
    /// Draw a sphere route instead (as `taut route --render`): the map is a sphere map,
    /// --from/--to are LAT,LON, the projection is equirectangular; no planner options.
    #[arg(long, requires = "from", conflicts_with_all = [
        "scen", "index", "algo", "free", "mesh", "cpd", "hub", "eps_stop", "root_history",
        "no_cul_de_sac", "no_intermediate",
    ])]
    pub sphere: bool,
    /// With --sphere: the map is transposed (a *_T.map file).
    #[arg(long, requires = "sphere")]
    pub transposed: bool,
    /// With --sphere: an endpoint on land is an error instead of moving to the nearest sea
    /// cell.
    #[arg(long, requires = "sphere")]
    pub no_snap: bool,
    /// Take the query from this .scen file (with --index).
    #[arg(long, value_name = "FILE", requires = "index")]
    pub scen: Option<PathBuf>,
    /// The 0-based index of the query in --scen.
    #[arg(long, value_name = "I", requires = "scen")]
    pub index: Option<usize>,
    /// Planner and terrain options.
    #[command(flatten)]
    pub planner: PlannerArgs,
    /// The picture to write: FILE.svg or FILE.png.
    #[arg(short, long, value_name = "FILE", value_parser = parse_output)]
    pub output: OutputFile,
    /// The longest side of the map in the picture, in pixels (margins come on top): the
    /// largest whole number of pixels per cell that fits, or one pixel per k x k cells.
    #[arg(long, value_name = "PX", default_value_t = 2048,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_px: u32,
    /// Pixels per cell, any positive number (overrides --max-px).
    #[arg(long, value_name = "S", value_parser = parse_scale)]
    pub scale: Option<f64>,
    /// Draw at most N expanded nodes, evenly spread over the search (0: none).
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    pub max_trace: usize,
}

/// A `--from`/`--to` value of `taut render`: two integers are a lattice point (or, with
/// `--sphere`, whole degrees); anything else [`parse_latlon`]
/// accepts is a point in degrees, for `--sphere` only.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QueryPoint {
    /// `X,Y`: two integers.
    Lattice(Point),
    /// `LAT,LON` in degrees (not two integers).
    Degrees(LatLon),
}

impl QueryPoint {
    /// The lattice point, if this is one.
    pub fn lattice(self) -> Option<Point> {
        match self {
            QueryPoint::Lattice(p) => Some(p),
            QueryPoint::Degrees(_) => None,
        }
    }

    /// The point in degrees: two integers are latitude and longitude.
    ///
    /// # Errors
    /// Two integers out of range (a latitude beyond ±90, a longitude beyond ±180).
    pub fn degrees(self) -> Result<LatLon, CoordError> {
        match self {
            QueryPoint::Degrees(p) => Ok(p),
            QueryPoint::Lattice(p) => parse_latlon(&format!("{},{}", p.x, p.y)),
        }
    }
}

/// Parses a `--from`/`--to` value of `taut render` (see [`QueryPoint`]).
///
/// ```
/// use taut_cli::{QueryPoint, parse_query_point};
/// assert!(matches!(parse_query_point("3,-4"), Ok(QueryPoint::Lattice(_))));
/// assert!(matches!(parse_query_point("55.5, -3"), Ok(QueryPoint::Degrees(_))));
/// assert!(parse_query_point("x").is_err());
/// ```
pub fn parse_query_point(s: &str) -> Result<QueryPoint, QueryPointError> {
    if let Ok(p) = parse_point(s) {
        return Ok(QueryPoint::Lattice(p));
    }
    parse_latlon(s)
        .map(QueryPoint::Degrees)
        .map_err(|e| QueryPointError {
            text: s.to_owned(),
            reason: e.reason,
        })
}

/// A `taut render` point that is neither two integers nor a point in degrees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{text:?} is not a point: expected two integers X,Y such as 3,4, or with --sphere \
     LAT,LON in degrees ({reason})"
)]
pub struct QueryPointError {
    /// The text given.
    pub text: String,
    /// Why it is not a point in degrees.
    pub reason: String,
}

/// Where the query of `taut render` comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum QuerySource {
    /// `--from X,Y --to X,Y`.
    Points {
        /// Start.
        from: Point,
        /// Goal.
        to: Point,
    },
    /// `--scen FILE --index I`.
    Scenario {
        /// The scenario file.
        scen: PathBuf,
        /// The 0-based query index.
        index: usize,
    },
    /// `--sphere --from LAT,LON --to LAT,LON`.
    Sphere {
        /// Start.
        from: LatLon,
        /// Goal.
        to: LatLon,
    },
}

impl RenderArgs {
    /// The query the arguments name (clap guarantees one of the forms).
    ///
    /// # Errors
    /// The usage message (the caller's `CliError::Usage`) for a point in degrees without `--sphere`,
    /// or a latitude or longitude out of range with it.
    pub fn query(&self) -> Result<QuerySource, String> {
        let usage = |msg: String| format!("{msg} (see `taut render --help`)");
        match (self.from, self.to, &self.scen, self.index) {
            (Some(from), Some(to), _, _) if self.sphere => {
                let deg = |p: QueryPoint, opt: &str| {
                    p.degrees()
                        .map_err(|e| usage(format!("invalid value for '{opt} <LAT,LON>': {e}")))
                };
                Ok(QuerySource::Sphere {
                    from: deg(from, "--from")?,
                    to: deg(to, "--to")?,
                })
            }
            (Some(from), Some(to), _, _) => {
                let lattice = |p: QueryPoint, opt: &str| {
                    p.lattice().ok_or_else(|| {
                        usage(format!(
                            "invalid value for '{opt} <X,Y>': not two integers X,Y \
                             (LAT,LON points need --sphere)"
                        ))
                    })
                };
                Ok(QuerySource::Points {
                    from: lattice(from, "--from")?,
                    to: lattice(to, "--to")?,
                })
            }
            (_, _, Some(scen), Some(index)) => Ok(QuerySource::Scenario {
                scen: scen.clone(),
                index,
            }),
            _ => unreachable!("clap requires --from/--to or --scen/--index"),
        }
    }
}

/// Parses `--scale`: a positive, finite number of pixels per cell.
fn parse_scale(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not a positive number of pixels per cell")),
    }
}

/// The image formats of `taut render`, chosen by the output file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// `.svg`: vector overlays over an embedded 1-bit map image, with a caption.
    Svg,
    /// `.png`: 8-bit RGB raster.
    Png,
}

impl From<ImageFormat> for taut::render::ImageFormat {
    fn from(f: ImageFormat) -> Self {
        match f {
            ImageFormat::Svg => taut::render::ImageFormat::Svg,
            ImageFormat::Png => taut::render::ImageFormat::Png,
        }
    }
}

/// An output path and the format its extension selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// The path to write.
    pub path: PathBuf,
    /// The format.
    pub format: ImageFormat,
}

/// An output file name whose extension is neither `.svg` nor `.png`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} does not end in .svg or .png")]
pub struct OutputError(pub String);

/// Parses `-o FILE`: the extension (`.svg` or `.png`, any case) chooses the format.
///
/// ```
/// use taut_cli::{ImageFormat, parse_output};
/// assert_eq!(parse_output("a/b.PNG").unwrap().format, ImageFormat::Png);
/// assert!(parse_output("b.jpg").is_err());
/// assert!(parse_output("svg").is_err());
/// ```
pub fn parse_output(s: &str) -> Result<OutputFile, OutputError> {
    let path = PathBuf::from(s);
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let format = match ext.as_deref() {
        Some("svg") => ImageFormat::Svg,
        Some("png") => ImageFormat::Png,
        _ => return Err(OutputError(s.to_owned())),
    };
    Ok(OutputFile { path, format })
}

/// Output formats of `taut path`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PathFormat {
    /// `length L` (or `unreachable`), `waypoints N`, N lines `x,y`, `expanded E`, `generated G`.
    Text,
    /// One JSON object.
    Json,
}

/// Output formats of `taut scen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScenFormat {
    /// A header line and one comma-separated row per query.
    Csv,
    /// A JSON array of objects with the csv column names as keys.
    Json,
}

fn algo_parser() -> impl TypedValueParser<Value = Algo> {
    PossibleValuesParser::new(
        taut::registry::PLANNERS
            .iter()
            .map(|k| clap::builder::PossibleValue::new(k.name).help(k.summary)),
    )
    .try_map(|s| s.parse::<Algo>())
}

/// A command-line point that is not two integers `X,Y`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a point: expected two integers X,Y such as 3,4")]
pub struct PointError(pub String);

/// Parses a lattice point written `X,Y`: two integers in `i32` range, an optional minus sign,
/// no spaces.
///
/// ```
/// use taut_cli::parse_point;
/// assert_eq!(parse_point("3,-4").unwrap(), taut::grid::Point::new(3, -4));
/// assert!(parse_point("3, 4").is_err());
/// assert!(parse_point("3.0,4").is_err());
/// assert!(parse_point("3,4,5").is_err());
/// ```
pub fn parse_point(s: &str) -> Result<Point, PointError> {
    let coord = |t: &str| -> Option<i32> {
        let digits = t.strip_prefix('-').unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    s.split_once(',')
        .and_then(|(x, y)| Some(Point::new(coord(x)?, coord(y)?)))
        .ok_or_else(|| PointError(s.to_owned()))
}

/// A `--free` value that is empty or holds a character outside the MovingAI alphabet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a set of terrain characters: expected some of . G @ O T S W")]
pub struct FreeSetError(pub String);

/// Parses a free-terrain set such as `.GS`: one or more characters of the MovingAI alphabet.
pub fn parse_free_set(s: &str) -> Result<FreeSet, FreeSetError> {
    if s.is_empty() || !s.bytes().all(|b| MOVINGAI_ALPHABET.contains(&b)) {
        return Err(FreeSetError(s.to_owned()));
    }
    Ok(FreeSet::from_chars(s.as_bytes()))
}

/// A `LAT,LON` text that is not a point of the sphere.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a LAT,LON point: {reason}")]
pub struct CoordError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

/// Parses a point written as latitude and longitude in degrees (north and east positive).
///
/// Accepted: two decimal numbers separated by a comma (spaces around it allowed) or by
/// spaces, such as `40.7,-74.0`, `40.7, -74.0` or `40.7 -74.0`; optionally in one pair of
/// parentheses or brackets; each number optionally followed by `°` and a hemisphere letter
/// (`N`/`S` for the latitude, `E`/`W` for the longitude, any case; the number is then not
/// negative): `40.7N,74W`. Rejected: anything else, numbers that are not finite, a latitude
/// outside [-90, 90], a longitude outside [-180, 180].
///
/// ```
/// use taut_cli::parse_latlon;
/// let p = parse_latlon(" 40.7N, 74.0°W ").unwrap();
/// assert_eq!((p.lat, p.lon), (40.7, -74.0));
/// assert_eq!(parse_latlon("-33.9,18.4").unwrap().lat, -33.9);
/// assert_eq!(parse_latlon("(1 2)").unwrap().lon, 2.0);
/// assert!(parse_latlon("91,0").is_err());
/// assert!(parse_latlon("0,NaN").is_err());
/// assert!(parse_latlon("10,20,30").is_err());
/// ```
pub fn parse_latlon(s: &str) -> Result<LatLon, CoordError> {
    let err = |reason: String| CoordError {
        text: s.to_owned(),
        reason,
    };
    let mut t = s.trim();
    for (open, close) in [('(', ')'), ('[', ']')] {
        if let Some(inner) = t.strip_prefix(open).and_then(|r| r.strip_suffix(close)) {
            t = inner.trim();
            break;
        }
    }
    let parts: Vec<&str> = if t.contains(',') {
        t.split(',').collect()
    } else {
        t.split_whitespace().collect()
    };
    let [a, b] = parts[..] else {
        return Err(err(
            "expected two numbers, latitude then longitude, such as 40.7,-74.0".into(),
        ));
    };
    let lat = coordinate(a, ('N', 'S'), ('E', 'W'), "latitude").map_err(err)?;
    let lon = coordinate(b, ('E', 'W'), ('N', 'S'), "longitude").map_err(err)?;
    // Huge values in scientific notation: 1e308 written out is 309 digits.
    let short = |v: f64| {
        if v.abs() < 1e9 {
            v.to_string()
        } else {
            format!("{v:e}")
        }
    };
    if !(-90.0..=90.0).contains(&lat) {
        return Err(err(format!("latitude {} is outside [-90, 90]", short(lat))));
    }
    if !(-180.0..=180.0).contains(&lon) {
        return Err(err(format!(
            "longitude {} is outside [-180, 180]",
            short(lon)
        )));
    }
    Ok(LatLon::new(lat, lon))
}

/// One coordinate: a finite number, optionally `°` and a hemisphere letter of `own`
/// (positive, negative); a letter of `other` means the two were swapped.
fn coordinate(
    tok: &str,
    own: (char, char),
    other: (char, char),
    name: &str,
) -> Result<f64, String> {
    let mut t = tok.trim();
    if t.is_empty() {
        return Err(format!("the {name} is missing"));
    }
    let mut sign = None;
    let mut rev = t.chars().rev();
    // A hemisphere letter follows a number (a digit, a point, `°` or a space), so that the
    // `n` of `nan` or `-inf` is not one.
    let letter = match (rev.next(), rev.next()) {
        (Some(last), Some(before)) if before.is_ascii_digit() || ". °".contains(before) => {
            Some(last)
        }
        _ => None,
    };
    if let Some(last) = letter {
        let up = last.to_ascii_uppercase();
        if up == own.0 || up == own.1 {
            sign = Some(if up == own.0 { 1.0 } else { -1.0 });
            t = t[..t.len() - last.len_utf8()].trim_end();
        } else if up == other.0 || up == other.1 {
            return Err(format!(
                "the {name} ends in {last:?}: expected latitude first, then longitude"
            ));
        }
    }
    let t = t.strip_suffix('°').unwrap_or(t).trim_end();
    let v: f64 = t
        .parse()
        .map_err(|_| format!("the {name} {t:?} is not a number"))?;
    if !v.is_finite() {
        return Err(format!("the {name} {t:?} is not a finite number"));
    }
    match sign {
        Some(_) if t.starts_with(['-', '+']) => Err(format!(
            "the {name} {tok:?} has both a sign and a hemisphere letter"
        )),
        Some(s) => Ok(s * v),
        None => Ok(v),
    }
}

/// `lat,lon` with 6 decimals (0.1 m).
pub fn fmt_point(p: LatLon) -> String {
    format!("{:.6},{:.6}", p.lat, p.lon)
}

/// Parses a root-history name (`auto`, `flat` or `hash`).
pub fn parse_root_history(s: &str) -> Result<RootHistory, String> {
    match s {
        "auto" => Ok(RootHistory::Auto),
        "flat" => Ok(RootHistory::Flat),
        "hash" => Ok(RootHistory::Hash),
        _ => Err(format!(
            "{s:?} is not a root history: expected auto, flat or hash"
        )),
    }
}
