//! Every grid planner of the workspace by name, with its options, and the factory that builds
//! them.
//!
//! Algorithm crates know nothing of each other; this is the one place that lists them all. The
//! command line, the benchmark harness and the differential tests build their planners here,
//! and ask each built planner what it promises ([`Planner::guarantee`],
//! [`Planner::path_model`]): the planners themselves are the one source of that truth.
//!
//! ```
//! use taut::Grid;
//! use taut::registry::{MapMeshes, PlannerSpec, make_planner};
//!
//! let grid = Grid::from_ascii(&["....", ".@@.", "...."]).unwrap();
//! let spec: PlannerSpec = "polyanya:no-cul-de-sac".parse().unwrap();
//! // Meshes (and CPDs) are prepared once per map and shared by every planner and thread.
//! let (meshes, _secs) = MapMeshes::prepare(&grid, [(spec.algo, &spec.tuning)], None).unwrap();
//! let mut planner = make_planner(spec.algo, &grid, &spec.tuning, &meshes).unwrap();
//! let mut answer = taut::Answer::default();
//! planner.plan(taut::Point::new(0, 1), taut::Point::new(3, 2), &mut answer).unwrap();
//! // Under the block: (0, 1) -> (1, 2) -> (3, 2).
//! assert!((answer.length - (2.0 + 2f64.sqrt())).abs() < taut::LENGTH_TOLERANCE);
//! assert_eq!(planner.guarantee(), taut::Guarantee::Optimal);
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;
#[cfg(any(feature = "cpd", feature = "hub"))]
use std::time::Instant;

use taut_anya::{AnyaPlanner, Options};
#[cfg(feature = "cpd")]
use taut_cpd::{
    BuildParams, CpdStats, Eps, EpsPlanner, Progress, Stop, build_cpd, mesh_hash, read_cpd,
    read_cpd_header,
};
#[cfg(feature = "cpd")]
use taut_grid::Factor;
use taut_grid::{Grid, Planner};
#[cfg(feature = "hub")]
use taut_hub::{HubIndex, HubPlanner, HubStats, read_hub, read_hub_header};
use taut_mesh::Mesh;
use taut_polyanya::PolyanyaPlanner;

/// A planner by its command-line name: a baseline of `taut-baselines`, Anya, Polyanya,
/// (feature `cpd`) End Point Search or (feature `hub`) hub labels. Not exhaustive: features
/// add planners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algo {
    /// `astar`, `theta`, `lazy-theta`, `vg` (see [`taut_baselines::Algo`]).
    Baseline(taut_baselines::Algo),
    /// `anya`: Anya (optimal any-angle lengths, online).
    Anya,
    /// `polyanya`: Polyanya on a navigation mesh of the map (optimal, online).
    Polyanya,
    /// `eps`: End Point Search over a compressed path database of a navigation mesh of the
    /// map (optimal, or first / bounded with [`Tuning::eps`]). Feature `cpd`.
    #[cfg(feature = "cpd")]
    Eps,
    /// `hub`: hub labels over the corners of a navigation mesh of the map, with a label for
    /// every lattice point (optimal). Feature `hub`.
    #[cfg(feature = "hub")]
    Hub,
}

impl Algo {
    /// Every planner this build has (End Point Search with feature `cpd`, hub labels with
    /// feature `hub`).
    pub const ALL: &'static [Algo] = &[
        Algo::Baseline(taut_baselines::Algo::AStar),
        Algo::Baseline(taut_baselines::Algo::Theta),
        Algo::Baseline(taut_baselines::Algo::LazyTheta),
        Algo::Baseline(taut_baselines::Algo::Vg),
        Algo::Anya,
        Algo::Polyanya,
        #[cfg(feature = "cpd")]
        Algo::Eps,
        #[cfg(feature = "hub")]
        Algo::Hub,
    ];

    /// Whether the planner searches a navigation mesh of the map ([`MapMeshes::prepare`]).
    pub fn needs_mesh(self) -> bool {
        match self {
            Algo::Polyanya => true,
            #[cfg(feature = "cpd")]
            Algo::Eps => true,
            #[cfg(feature = "hub")]
            Algo::Hub => true,
            Algo::Baseline(_) | Algo::Anya => false,
        }
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Baseline(b) => b.name(),
            Algo::Anya => "anya",
            Algo::Polyanya => "polyanya",
            #[cfg(feature = "cpd")]
            Algo::Eps => "eps",
            #[cfg(feature = "hub")]
            Algo::Hub => "hub",
        }
    }
}

/// When End Point Search stops (`eps`, `eps:first`, `eps:q1.05`). Feature `cpd`.
#[cfg(feature = "cpd")]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum EpsStop {
    /// With a path proven shortest.
    #[default]
    Optimal,
    /// With the first path found.
    First,
    /// With a path at most this factor above a proven lower bound.
    Within(Factor),
}

#[cfg(feature = "cpd")]
impl EpsStop {
    /// The stop rule of [`taut_cpd::EpsContext::search`].
    pub fn stop(self) -> Stop {
        match self {
            EpsStop::Optimal => Stop::Optimal,
            EpsStop::First => Stop::First,
            EpsStop::Within(q) => Stop::Within(q.0),
        }
    }
}

/// A stop rule that is not `optimal`, `first` or `qF` / `q=F` with a factor F ≥ 1.
#[cfg(feature = "cpd")]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not an EPS stop rule: expected optimal, first, or q=F with a factor F >= 1 (e.g. q=1.05)"
)]
pub struct BadEpsStop(pub String);

#[cfg(feature = "cpd")]
impl std::str::FromStr for EpsStop {
    type Err = BadEpsStop;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "optimal" => return Ok(EpsStop::Optimal),
            "first" => return Ok(EpsStop::First),
            _ => {}
        }
        let q = s
            .strip_prefix("q=")
            .or_else(|| s.strip_prefix('q'))
            .and_then(|f| f.parse::<f64>().ok())
            .filter(|q| q.is_finite() && *q >= 1.0)
            .ok_or_else(|| BadEpsStop(s.to_owned()))?;
        Ok(if q == 1.0 {
            EpsStop::Optimal
        } else {
            EpsStop::Within(Factor(q))
        })
    }
}

impl std::fmt::Display for Algo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown planner name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm {0:?} (expected one of: {names})", names = algo_names())]
pub struct UnknownAlgo(pub String);

/// The names of [`Algo::ALL`], comma-separated.
fn algo_names() -> String {
    Algo::ALL
        .iter()
        .map(|a| a.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl std::str::FromStr for Algo {
    type Err = UnknownAlgo;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "anya" => return Ok(Algo::Anya),
            "polyanya" => return Ok(Algo::Polyanya),
            #[cfg(feature = "cpd")]
            "eps" => return Ok(Algo::Eps),
            #[cfg(feature = "hub")]
            "hub" => return Ok(Algo::Hub),
            _ => {}
        }
        s.parse()
            .map(Algo::Baseline)
            .map_err(|_| UnknownAlgo(s.to_owned()))
    }
}

/// Which mesh Polyanya searches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum MeshChoice {
    /// The mesh taut builds from the grid (`taut_mesh::mesh_from_grid`).
    #[default]
    Built,
    /// A mesh given from outside: the CLI's `--mesh FILE`, or the bench suite's `meshes`
    /// directory (`NAME-merged.mesh`, as the reference Polyanya tools name them).
    Given,
}

/// Options that only some planners read (the others ignore them). Not exhaustive (feature
/// `cpd` adds End Point Search's): start from `Tuning::default()`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tuning {
    /// Anya's pruning and root-history options.
    pub anya: Options,
    /// Polyanya's pruning options (the ambiguity rule is always the grid's).
    pub polyanya: taut_polyanya::Options,
    /// The mesh Polyanya and End Point Search search, and hub labels are built on.
    pub mesh: MeshChoice,
    /// When End Point Search stops.
    #[cfg(feature = "cpd")]
    pub eps: EpsStop,
}

/// The meshes of one map that mesh planners may need, prepared by the caller (built or read
/// once per map, shared by every planner and thread).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct MapMeshes {
    /// taut's mesh of the grid.
    pub built: Option<Arc<Mesh>>,
    /// A mesh given from outside, and where it came from.
    pub given: Option<(Arc<Mesh>, PathBuf)>,
    /// End Point Search's mesh and CPD ([`MapMeshes::prepare_cpd`]), shared by every `eps`
    /// planner of the map.
    #[cfg(feature = "cpd")]
    pub cpd: Option<PreparedCpd>,
    /// The hub index of the map ([`MapMeshes::prepare_hub`]), shared by every `hub` planner.
    #[cfg(feature = "hub")]
    pub hub: Option<PreparedHub>,
}

/// A hub index ready for queries, and how it was had.
#[cfg(feature = "hub")]
#[derive(Debug, Clone)]
pub struct PreparedHub {
    /// The index.
    pub index: Arc<HubIndex>,
    /// Which of the map's meshes it was built from.
    pub mesh: MeshChoice,
    /// The file it was read from; `None` when built here.
    pub file: Option<PathBuf>,
    /// Seconds spent building or reading it.
    pub secs: f64,
    /// Whether it was built here (else read).
    pub built: bool,
    /// Its sizes.
    pub stats: HubStats,
}

/// Where the hub index comes from: [`DataSource::File`] must belong to the map and its mesh;
/// [`DataSource::Cached`] is read when it exists and was built from the same mesh (same
/// format version).
#[cfg(feature = "hub")]
pub type HubSource<'p> = DataSource<'p>;

/// A CPD ready for End Point Search, and how it was had.
#[cfg(feature = "cpd")]
#[derive(Debug, Clone)]
pub struct PreparedCpd {
    /// The mesh and its CPD.
    pub eps: Arc<Eps>,
    /// Which of the map's meshes it was built for.
    pub mesh: MeshChoice,
    /// The file it was read from; `None` when built here.
    pub file: Option<PathBuf>,
    /// Seconds spent building (0 when read) or reading it.
    pub secs: f64,
    /// Whether it was built here (else read).
    pub built: bool,
    /// Its sizes.
    pub stats: CpdStats,
}

/// Where a planner's preprocessed data (End Point Search's CPD, the hub index) comes from.
#[derive(Debug, Clone, Copy)]
pub enum DataSource<'p> {
    /// Build it in memory.
    Build,
    /// Read this file; it must exist and belong to the mesh (and the map).
    File(&'p Path),
    /// Read this file when it exists and is up to date for the mesh, else build it in memory.
    Cached(&'p Path),
}

/// Where End Point Search's CPD comes from: [`DataSource::Cached`] is read when it has the
/// same format version, mesh hash and build parameters.
#[cfg(feature = "cpd")]
pub type CpdSource<'p> = DataSource<'p>;

/// A mesh a planner needs could not be had.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeshSetupError {
    /// Building the mesh of the grid failed.
    #[error("building the mesh of the map failed: {0}")]
    Build(String),
    /// Reading the given mesh failed.
    #[error("{0}")]
    Read(#[from] taut_mesh::MeshError),
    /// The given mesh does not cover the map's free space.
    #[error(
        "{} is not a mesh of this map: it covers an area of {area} within {lo:?}..{hi:?}, the map has {free} free cells within (0, 0)..({width}, {height})",
        path.display()
    )]
    Mismatch {
        /// The mesh file.
        path: PathBuf,
        /// The mesh's area.
        area: f64,
        /// Its bounding box.
        lo: (f64, f64),
        /// Its bounding box.
        hi: (f64, f64),
        /// The map's free cells.
        free: u64,
        /// Map width.
        width: i32,
        /// Map height.
        height: i32,
    },
    /// A CPD could not be read, or does not belong to the map's mesh.
    #[error("{}: {message}", path.display())]
    Cpd {
        /// The CPD file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A CPD could not be built, or does not fit the mesh.
    #[error("building the CPD of the map failed: {0}")]
    CpdBuild(String),
    /// End Point Search runs but its CPD was not prepared.
    #[error("eps needs a CPD here (MapMeshes::prepare_cpd)")]
    NoCpd,
    /// A hub index could not be read, or does not belong to the map or its mesh.
    #[error("{}: {message}", path.display())]
    Hub {
        /// The index file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A hub index could not be built, or does not fit the map.
    #[error("building the hub index of the map failed: {0}")]
    HubBuild(String),
    /// Hub labels run but their index was not prepared.
    #[error("hub needs an index here (MapMeshes::prepare_hub)")]
    NoHub,
    /// The planner wants a given mesh but none was named.
    #[error("polyanya needs a mesh file here (--mesh FILE, or a `meshes` directory in the suite)")]
    NoneGiven,
}

impl MapMeshes {
    /// Prepares what the planners `wanted` (pairs of planner and options) need: builds the
    /// grid's mesh if one wants [`MeshChoice::Built`], reads `given` if one wants
    /// [`MeshChoice::Given`]. Returns the meshes and the seconds spent building.
    ///
    /// # Errors
    /// [`MeshSetupError`] when a needed mesh cannot be built or read.
    pub fn prepare<'a>(
        grid: &Grid,
        wanted: impl IntoIterator<Item = (Algo, &'a Tuning)>,
        given: Option<&Path>,
    ) -> Result<(MapMeshes, f64), MeshSetupError> {
        let mut meshes = MapMeshes::default();
        let mut build_secs = 0.0;
        for (algo, tuning) in wanted {
            if !algo.needs_mesh() {
                continue;
            }
            match tuning.mesh {
                MeshChoice::Built if meshes.built.is_none() => {
                    let t = std::time::Instant::now();
                    let mesh = taut_mesh::mesh_from_grid(grid)
                        .map_err(|e| MeshSetupError::Build(e.to_string()))?;
                    build_secs = t.elapsed().as_secs_f64();
                    meshes.built = Some(Arc::new(mesh));
                }
                MeshChoice::Given if meshes.given.is_none() => {
                    let path = given.ok_or(MeshSetupError::NoneGiven)?;
                    let mesh = taut_mesh::read_mesh(path)?;
                    check_covers(&mesh, grid, path)?;
                    meshes.given = Some((Arc::new(mesh), path.to_owned()));
                }
                _ => {}
            }
        }
        Ok((meshes, build_secs))
    }

    #[cfg(feature = "cpd")]
    /// Prepares End Point Search's CPD when one of the planners `wanted` is `eps`, for the
    /// mesh its tuning selects (which [`MapMeshes::prepare`] must have prepared): read from
    /// `source`, or built with the default parameters (reporting to `progress`). Building is
    /// timed in [`PreparedCpd::secs`]. Returns whether a CPD is now prepared.
    ///
    /// # Errors
    /// [`MeshSetupError::Cpd`] when the file cannot be read or belongs to another mesh,
    /// [`MeshSetupError::CpdBuild`] when building fails.
    pub fn prepare_cpd<'a>(
        &mut self,
        wanted: impl IntoIterator<Item = (Algo, &'a Tuning)>,
        source: CpdSource<'_>,
        progress: &dyn Progress,
    ) -> Result<bool, MeshSetupError> {
        let Some((_, tuning)) = wanted.into_iter().find(|(a, _)| *a == Algo::Eps) else {
            return Ok(false);
        };
        let mesh = self.get(tuning).ok_or(MeshSetupError::NoneGiven)?.clone();
        let params = BuildParams::default();
        let hash = mesh_hash(&mesh);
        let bad = |path: &Path, e: &dyn std::fmt::Display| MeshSetupError::Cpd {
            path: path.to_owned(),
            message: e.to_string(),
        };
        let file = match source {
            CpdSource::Build => None,
            CpdSource::File(p) => Some(p),
            CpdSource::Cached(p) => read_cpd_header(p)
                .ok()
                .filter(|h| h.mesh_hash == hash && h.params == params)
                .map(|_| p),
        };
        let t = Instant::now();
        let (cpd, built) = match file {
            // `Eps::new` below refuses a CPD of another mesh (`StaleMesh`, naming the file).
            // An I/O error names the file itself.
            Some(p) => (
                read_cpd(p).map_err(|e| match e {
                    taut_cpd::CpdError::Io { source, .. } => bad(p, &source),
                    e => bad(p, &e),
                })?,
                false,
            ),
            None => (
                build_cpd(&mesh, &params, progress)
                    .map_err(|e| MeshSetupError::CpdBuild(e.to_string()))?,
                true,
            ),
        };
        let secs = t.elapsed().as_secs_f64();
        let stats = cpd.stats();
        let eps = Eps::new(mesh, Arc::new(cpd)).map_err(|e| match file {
            Some(p) => bad(p, &e),
            None => MeshSetupError::CpdBuild(e.to_string()),
        })?;
        self.cpd = Some(PreparedCpd {
            eps: Arc::new(eps),
            mesh: tuning.mesh,
            file: file.map(Path::to_owned),
            secs,
            built,
            stats,
        });
        Ok(true)
    }

    #[cfg(feature = "hub")]
    /// Prepares the hub index when one of the planners `wanted` is `hub`, for `grid` and the
    /// mesh its tuning selects (which [`MapMeshes::prepare`] must have prepared): read from
    /// `source`, or built in memory (on the current rayon pool). Building or reading is timed
    /// in [`PreparedHub::secs`]. Returns whether an index is now prepared.
    ///
    /// # Errors
    /// [`MeshSetupError::Hub`] when the file cannot be read or belongs to another map or mesh,
    /// [`MeshSetupError::HubBuild`] when building fails.
    pub fn prepare_hub<'a>(
        &mut self,
        grid: &Grid,
        wanted: impl IntoIterator<Item = (Algo, &'a Tuning)>,
        source: HubSource<'_>,
    ) -> Result<bool, MeshSetupError> {
        let Some((_, tuning)) = wanted.into_iter().find(|(a, _)| *a == Algo::Hub) else {
            return Ok(false);
        };
        let mesh = self.get(tuning).ok_or(MeshSetupError::NoneGiven)?.clone();
        let hash = taut_mesh::mesh_hash(&mesh);
        let bad = |path: &Path, e: &dyn std::fmt::Display| MeshSetupError::Hub {
            path: path.to_owned(),
            message: e.to_string(),
        };
        let file = match source {
            HubSource::Build => None,
            HubSource::File(p) => Some(p),
            HubSource::Cached(p) => read_hub_header(p)
                .ok()
                .filter(|h| h.mesh_hash == hash)
                .map(|_| p),
        };
        let t = Instant::now();
        let (index, built) = match file {
            Some(p) => {
                let index = read_hub(p).map_err(|e| match e {
                    taut_hub::HubError::Io { source, .. } => bad(p, &source),
                    e => bad(p, &e),
                })?;
                index.check_mesh(&mesh).map_err(|e| bad(p, &e))?;
                if !index.matches(grid) {
                    return Err(bad(p, &taut_hub::HubError::StaleMap));
                }
                (index, false)
            }
            None => (
                HubIndex::build(grid, &mesh)
                    .map_err(|e| MeshSetupError::HubBuild(e.to_string()))?,
                true,
            ),
        };
        let stats = index.stats();
        self.hub = Some(PreparedHub {
            index: Arc::new(index),
            mesh: tuning.mesh,
            file: file.map(Path::to_owned),
            secs: t.elapsed().as_secs_f64(),
            built,
            stats,
        });
        Ok(true)
    }

    /// The mesh `tuning` selects, if prepared.
    pub fn get(&self, tuning: &Tuning) -> Option<&Arc<Mesh>> {
        match tuning.mesh {
            MeshChoice::Built => self.built.as_ref(),
            MeshChoice::Given => self.given.as_ref().map(|g| &g.0),
        }
    }
}

/// Checks that a given mesh is one of `grid`'s free space: inside the map and of the same area
/// (a mesh of another map, or of another free-terrain set, would answer wrongly).
fn check_covers(mesh: &Mesh, grid: &Grid, path: &Path) -> Result<(), MeshSetupError> {
    let (lo, hi) = mesh.bounds();
    let area = mesh.area();
    let free = grid.free_cells();
    let inside = lo.x >= 0.0
        && lo.y >= 0.0
        && hi.x <= f64::from(grid.width())
        && hi.y <= f64::from(grid.height());
    if inside && (area - free as f64).abs() <= 1e-6 * (1.0 + free as f64) {
        return Ok(());
    }
    Err(MeshSetupError::Mismatch {
        path: path.to_owned(),
        area,
        lo: (lo.x, lo.y),
        hi: (hi.x, hi.y),
        free,
        width: grid.width(),
        height: grid.height(),
    })
}

/// Builds a planner for `grid`. The planner owns its search context; build one per thread.
/// Mesh planners take their mesh from `meshes` ([`MapMeshes::prepare`]).
///
/// # Errors
/// [`MeshSetupError::NoneGiven`] when Polyanya's mesh was not prepared.
pub fn make_planner<'g>(
    algo: Algo,
    grid: &'g Grid,
    tuning: &Tuning,
    meshes: &MapMeshes,
) -> Result<Box<dyn Planner + Send + 'g>, MeshSetupError> {
    Ok(match algo {
        Algo::Baseline(b) => taut_baselines::make_planner(b, grid),
        Algo::Anya => Box::new(AnyaPlanner::with_options(grid, tuning.anya)),
        #[cfg(feature = "cpd")]
        Algo::Eps => {
            let cpd = meshes.cpd.as_ref().ok_or(MeshSetupError::NoCpd)?;
            Box::new(EpsPlanner::new(grid, cpd.eps.clone(), tuning.eps.stop()))
        }
        #[cfg(feature = "hub")]
        Algo::Hub => {
            let hub = meshes.hub.as_ref().ok_or(MeshSetupError::NoHub)?;
            Box::new(
                HubPlanner::new(grid, hub.index.clone())
                    .map_err(|e| MeshSetupError::HubBuild(e.to_string()))?,
            )
        }
        Algo::Polyanya => {
            let mesh = meshes.get(tuning).ok_or(MeshSetupError::NoneGiven)?;
            Box::new(PolyanyaPlanner::with_options(
                grid,
                mesh.clone(),
                tuning.polyanya,
            ))
        }
    })
}

/// A planner with its options, as the bench names it: `NAME` or `NAME:OPT+OPT`. Anya takes
/// `no-cul-de-sac`, `no-intermediate` (turn a pruning rule off) and `hash` / `flat` (where the
/// root history lives), e.g. `anya:no-cul-de-sac+no-intermediate`; Polyanya takes
/// `no-cul-de-sac`, `no-intermediate` and `reference` (search the suite's reference mesh
/// instead of taut's mesh of the grid); End Point Search takes `first` (stop at the first path)
/// or `qF` (stop within factor F of the optimum, e.g. `eps:q1.05`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannerSpec {
    /// The planner.
    pub algo: Algo,
    /// Its options.
    pub tuning: Tuning,
    /// The name as written (options in the order given), used in reports.
    pub label: String,
}

impl PlannerSpec {
    /// The planner with default options.
    pub fn plain(algo: Algo) -> Self {
        PlannerSpec {
            algo,
            tuning: Tuning::default(),
            label: algo.name().to_owned(),
        }
    }
}

impl std::fmt::Display for PlannerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label)
    }
}

/// A planner name or option the bench does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPlannerSpec {
    /// The planner name is unknown.
    #[error(transparent)]
    Algo(#[from] UnknownAlgo),
    /// The option is unknown or does not apply to this planner.
    #[error(
        "{planner} has no option {option:?} (anya takes: no-cul-de-sac, no-intermediate, hash, flat; polyanya: no-cul-de-sac, no-intermediate, reference{eps}; other planners take none)",
        eps = if cfg!(feature = "cpd") { "; eps: first, qF with F >= 1" } else { "" }
    )]
    Option {
        /// The planner.
        planner: String,
        /// The option.
        option: String,
    },
}

impl std::str::FromStr for PlannerSpec {
    type Err = BadPlannerSpec;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, opts) = s.split_once(':').unwrap_or((s, ""));
        let algo: Algo = name.parse()?;
        let mut tuning = Tuning::default();
        for opt in opts.split('+').filter(|o| !o.is_empty()) {
            let a = &mut tuning.anya;
            let p = &mut tuning.polyanya;
            match (algo, opt) {
                (Algo::Anya, "no-cul-de-sac") => a.cul_de_sac = false,
                (Algo::Anya, "no-intermediate") => a.intermediate = false,
                (Algo::Anya, "hash") => a.history = taut_anya::RootHistory::Hash,
                (Algo::Anya, "flat") => a.history = taut_anya::RootHistory::Flat,
                (Algo::Anya, "auto") => a.history = taut_anya::RootHistory::Auto,
                (Algo::Polyanya, "no-cul-de-sac") => p.cul_de_sac = false,
                (Algo::Polyanya, "no-intermediate") => p.intermediate = false,
                (Algo::Polyanya, "reference") => tuning.mesh = MeshChoice::Given,
                #[cfg(feature = "cpd")]
                (Algo::Eps, o) if o == "first" || o.starts_with('q') => {
                    tuning.eps = o.parse().map_err(|_| BadPlannerSpec::Option {
                        planner: name.to_owned(),
                        option: opt.to_owned(),
                    })?;
                }
                _ => {
                    return Err(BadPlannerSpec::Option {
                        planner: name.to_owned(),
                        option: opt.to_owned(),
                    });
                }
            }
        }
        Ok(PlannerSpec {
            algo,
            tuning,
            label: s.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taut_grid::{Guarantee, PathModel};

    #[test]
    fn planner_specs_parse_with_their_options() {
        let s: PlannerSpec = "anya:no-cul-de-sac+hash".parse().unwrap();
        assert_eq!(s.algo, Algo::Anya);
        assert!(!s.tuning.anya.cul_de_sac && s.tuning.anya.intermediate);
        assert_eq!(s.tuning.anya.history, taut_anya::RootHistory::Hash);
        assert_eq!(s.to_string(), "anya:no-cul-de-sac+hash");
        assert_eq!(
            "astar".parse::<PlannerSpec>().unwrap(),
            PlannerSpec::plain(Algo::Baseline(taut_baselines::Algo::AStar))
        );
        let e = "astar:hash".parse::<PlannerSpec>().unwrap_err();
        assert!(
            e.to_string().contains("astar has no option \"hash\""),
            "{e}"
        );
        let e = "anya:fast".parse::<PlannerSpec>().unwrap_err();
        assert!(e.to_string().contains("no option \"fast\""), "{e}");
        assert!("dijkstra".parse::<PlannerSpec>().is_err());
        let s: PlannerSpec = "polyanya:reference+no-intermediate".parse().unwrap();
        assert_eq!(s.algo, Algo::Polyanya);
        assert_eq!(s.tuning.mesh, MeshChoice::Given);
        assert!(!s.tuning.polyanya.intermediate && s.tuning.polyanya.cul_de_sac);
        assert!("polyanya:hash".parse::<PlannerSpec>().is_err());
    }

    #[cfg(feature = "cpd")]
    #[test]
    fn eps_stop_rules_parse() {
        let s: PlannerSpec = "eps".parse().unwrap();
        assert_eq!(s.tuning.eps, EpsStop::Optimal);
        let s: PlannerSpec = "eps:first".parse().unwrap();
        assert_eq!(s.tuning.eps, EpsStop::First);
        let s: PlannerSpec = "eps:q1.05".parse().unwrap();
        assert_eq!(s.tuning.eps, EpsStop::Within(Factor(1.05)));
        assert!("eps:q0.9".parse::<PlannerSpec>().is_err());
        assert!("eps:qx".parse::<PlannerSpec>().is_err());
        assert!("eps:hash".parse::<PlannerSpec>().is_err());
        assert_eq!(
            "q=1.05".parse::<EpsStop>(),
            Ok(EpsStop::Within(Factor(1.05)))
        );
        assert_eq!("optimal".parse::<EpsStop>(), Ok(EpsStop::Optimal));
        assert_eq!("q1".parse::<EpsStop>(), Ok(EpsStop::Optimal));
    }

    /// Every planner the registry builds says what it promises, and only End Point Search is
    /// anytime: the bench, the CLI and the differential tests read exactly this.
    #[test]
    fn built_planners_state_their_guarantees() {
        let grid = Grid::from_ascii(&["......", ".@@...", "...@..", "......"]).unwrap();
        #[allow(unused_mut)]
        let mut specs = vec![
            ("astar", Guarantee::Optimal, PathModel::Octile),
            ("theta", Guarantee::Any, PathModel::AnyAngle),
            ("lazy-theta", Guarantee::Any, PathModel::AnyAngle),
            ("vg", Guarantee::Optimal, PathModel::AnyAngle),
            ("anya", Guarantee::Optimal, PathModel::AnyAngle),
            (
                "anya:no-intermediate",
                Guarantee::Optimal,
                PathModel::AnyAngle,
            ),
            ("polyanya", Guarantee::Optimal, PathModel::AnyAngle),
        ];
        #[cfg(feature = "hub")]
        specs.push(("hub", Guarantee::Optimal, PathModel::AnyAngle));
        #[cfg(feature = "cpd")]
        specs.extend([
            ("eps", Guarantee::Optimal, PathModel::AnyAngle),
            ("eps:first", Guarantee::Any, PathModel::AnyAngle),
            (
                "eps:q1.5",
                Guarantee::WithinFactor(Factor(1.5)),
                PathModel::AnyAngle,
            ),
        ]);
        for (name, guarantee, model) in specs {
            let spec: PlannerSpec = name.parse().unwrap();
            let wanted = [(spec.algo, &spec.tuning)];
            let (mut meshes, _) = MapMeshes::prepare(&grid, wanted, None).unwrap();
            #[cfg(feature = "cpd")]
            meshes
                .prepare_cpd(wanted, CpdSource::Build, &taut_cpd::NoProgress)
                .unwrap();
            #[cfg(feature = "hub")]
            meshes.prepare_hub(&grid, wanted, HubSource::Build).unwrap();
            #[cfg(not(any(feature = "cpd", feature = "hub")))]
            let _ = &mut meshes;
            let mut planner = make_planner(spec.algo, &grid, &spec.tuning, &meshes).unwrap();
            assert_eq!(planner.guarantee(), guarantee, "{name}");
            assert_eq!(planner.path_model(), model, "{name}");
            #[cfg(feature = "cpd")]
            let anytime = spec.algo == Algo::Eps;
            #[cfg(not(feature = "cpd"))]
            let anytime = false;
            assert_eq!(planner.anytime().is_some(), anytime, "{name}");
        }
    }
}
