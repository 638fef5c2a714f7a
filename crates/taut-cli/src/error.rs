//! The errors of the `taut` command.

use std::path::PathBuf;

use taut::grid::{GridError, QueryError};
use taut::spherical::{AreaError, LatLon, PassageError, SphereError};

use crate::latlon::{CoordError, fmt_point};

/// Why a command failed. Every variant prints as one line naming the file or value at fault.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A map or scenario file could not be read or is malformed (names the file and line).
    #[error(transparent)]
    Grid(#[from] GridError),
    /// An endpoint of `taut path` is off the map or on a blocked cell.
    #[error("invalid query: {0}")]
    Query(#[from] QueryError),
    /// `taut scen` without `--map` could not find the map the scenario names.
    #[error(
        "map {name:?} named by {} not found in {}; give it with --map or --maps-dir",
        scen.display(),
        searched.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    MapNotFound {
        /// The map's base name.
        name: String,
        /// The scenario file that names it.
        scen: PathBuf,
        /// The directories searched, in order.
        searched: Vec<PathBuf>,
    },
    /// `taut render --scen S --index I` names a query the scenario does not have.
    #[error("{} has {count} queries: there is no query {index} (indices start at 0)", scen.display())]
    NoSuchQuery {
        /// The scenario file.
        scen: PathBuf,
        /// The index asked for.
        index: usize,
        /// How many queries the file has.
        count: usize,
    },
    /// Polyanya's mesh could not be read or built, or is not a mesh of the map.
    #[error(transparent)]
    MeshSetup(#[from] taut::SetupError),
    /// A mesh could not be built (names the file, and the line for polygon maps).
    #[error(transparent)]
    Build(#[from] taut::mesh::BuildError),
    /// A mesh file could not be written or read.
    #[error(transparent)]
    Mesh(#[from] taut::mesh::MeshError),
    /// A directory could not be listed.
    #[error("cannot list {}: {source}", path.display())]
    ReadDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A reference mesh does not start with a readable `mesh 2 V P` header.
    #[error("{}: {reason}", path.display())]
    BadReference {
        /// The reference mesh.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A mesh scenario (one naming `.mesh` files) cannot be read or is malformed.
    #[error(transparent)]
    BadMeshScenario(#[from] taut::mesh::MeshScenarioError),
    /// The picture could not be made.
    #[error(transparent)]
    Render(#[from] taut::render::RenderError),
    /// The output file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    WriteFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file could not be deleted (`taut cpd merge --remove-shards`).
    #[error("cannot delete {}: {source}", path.display())]
    RemoveFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A CPD could not be built, read, written or merged (names the file).
    #[error("{}", cpd_message(path, source))]
    Cpd {
        /// The CPD (or shard) file concerned.
        path: PathBuf,
        /// What went wrong.
        source: taut::cpd::CpdError,
    },
    /// A hub index could not be built, read or written (names the file).
    #[error("{}", hub_message(path, source))]
    Hub {
        /// The index file concerned.
        path: PathBuf,
        /// What went wrong.
        source: taut::hub::HubError,
    },
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
    /// An option that only one planner takes was given with another.
    #[error("{option} works only with --algo {algo}")]
    OnlyWith {
        /// The option.
        option: &'static str,
        /// The planner it needs.
        algo: &'static str,
    },
    /// A `taut world` script cannot be read, is malformed or does not fit its map (names the
    /// file and line).
    #[error("{}: {source}", path.display())]
    Script {
        /// The script.
        path: PathBuf,
        /// What is wrong.
        source: taut::script::ScriptError,
    },
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Output(#[from] std::io::Error),
    /// A usage error found after parsing (exit status 2, as the parser's own): the message
    /// ends with where to find help.
    #[error("{0}")]
    Usage(String),
    /// A `taut route` query cannot be answered (coordinates, land with --no-snap, the
    /// planner's refusals).
    #[error(transparent)]
    Route(#[from] RouteError),
    /// `taut agent`: some runs ended `cutoff` or `failed`, a defect of the agent (reported
    /// after every row was written).
    #[error(
        "{count} of {total} queries ended cutoff or failed, a defect of the agent (first: {first})"
    )]
    AgentDefect {
        /// How many runs ended cutoff or failed.
        count: usize,
        /// How many queries were run.
        total: usize,
        /// The first of them: its index, status and reason.
        first: String,
    },
}

impl CliError {
    /// The exit status the binary ends with: 2 for [`CliError::Usage`], 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            _ => 1,
        }
    }

    /// Whether this is a write to a closed pipe (`taut scen ... | head`), which should end the
    /// program quietly and successfully.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// A CPD error naming its file once (I/O errors already name theirs).
fn cpd_message(path: &std::path::Path, e: &taut::cpd::CpdError) -> String {
    match e {
        taut::cpd::CpdError::Io { .. } => e.to_string(),
        _ => format!("{}: {e}", path.display()),
    }
}

fn hub_message(path: &std::path::Path, e: &taut::hub::HubError) -> String {
    match e {
        taut::hub::HubError::Io { .. } => e.to_string(),
        _ => format!("{}: {e}", path.display()),
    }
}

/// Why a route query cannot be answered (besides reading the map and writing files).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RouteError {
    /// `--from` or `--to` is not a point.
    #[error("invalid {which}: {source}")]
    Coordinate {
        /// `start` or `goal`.
        which: &'static str,
        /// Why.
        source: CoordError,
    },
    /// `--from` or `--to` is a port code the list does not have.
    #[error("invalid {which}: {source}")]
    Port {
        /// `start` or `goal`.
        which: &'static str,
        /// Why, with close codes.
        source: taut::spherical::PortError,
    },
    /// An endpoint is on land and `--no-snap` forbids moving it.
    #[error(
        "invalid {which}: {} is on land (a blocked cell); without --no-snap it would move to \
         the nearest sea cell",
        fmt_point(*point)
    )]
    OnLand {
        /// `start` or `goal`.
        which: &'static str,
        /// The point given.
        point: LatLon,
    },
    /// The map has no sea cell to move an endpoint on land to.
    #[error("invalid {which}: {} is on land and the map {} has no sea (free) cell", fmt_point(*point), path.display())]
    NoSea {
        /// `start` or `goal`.
        which: &'static str,
        /// The point given.
        point: LatLon,
        /// The map.
        path: PathBuf,
    },
    /// The spherical planner refused the map or the query.
    #[error("{0}")]
    Sphere(#[from] SphereError),
    /// The `--pairs` file cannot be read or has no usable header.
    #[error("{}: {message}", path.display())]
    Pairs {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An `--avoid-area` file cannot be read or is not a GeoJSON area.
    #[error("--avoid-area: {0}")]
    Area(#[from] AreaError),
    /// `--avoid` names a passage the map does not have.
    #[error("--avoid/--allow: {0}")]
    Passage(#[from] PassageError),
    /// The map parses but cannot be a sphere map (too small, too large).
    #[error("{}: {source}", path.display())]
    SphereMap {
        /// The map file.
        path: PathBuf,
        /// Why.
        source: SphereError,
    },
}

/// Writes a whole output file.
pub(crate) fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), CliError> {
    std::fs::write(path, bytes).map_err(|source| CliError::WriteFile {
        path: path.to_owned(),
        source,
    })
}
