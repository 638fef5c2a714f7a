//! A prepared map: the grid, and everything planners build from it (mesh, CPD, hub index),
//! each built or read once, on first use, and shared by every planner and thread.
//!
//! ```
//! use taut::{Grid, Map, Point};
//!
//! let map = Map::new(Grid::from_ascii(&["......", "..@@..", "......"]).unwrap());
//! // `auto` is the fastest exact planner for what the map has built (here Anya: no mesh yet).
//! let found = map.find(Point::new(0, 1), Point::new(5, 2)).unwrap().unwrap();
//! assert!(found.length > 5.0);
//! // Planners own what they use: 'static and Send, one per thread.
//! let mut polyanya = map.planner(&"polyanya".parse().unwrap()).unwrap();
//! let mut answer = taut::Answer::default();
//! polyanya.plan(Point::new(0, 1), Point::new(5, 2), &mut answer).unwrap();
//! assert!(taut::lengths_agree(answer.length, found.length));
//! std::thread::spawn(move || drop(polyanya)).join().unwrap();
//! ```

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Instant;

#[cfg(feature = "cpd")]
use taut_cpd::{
    BuildParams, Cpd, CpdStats, Eps, NoProgress, Progress, build_cpd, mesh_hash, read_cpd,
    read_cpd_header,
};
use taut_grid::{Answer, CellRect, FreeSet, Grid, GridError, MapFile, Point, Status};
#[cfg(feature = "hub")]
use taut_hub::{HubError, HubIndex, HubStats, read_hub, read_hub_header};
use taut_mesh::Mesh;

use crate::auto::{self, MapKind};
use crate::registry::{Algo, BoxedPlanner, MeshChoice, PlannerSpec, Sources, kind};
use crate::setup::SetupError;

/// Where a planner's preprocessed data (End Point Search's CPD, the hub index) comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Source {
    /// Build it in memory on first use.
    #[default]
    Build,
    /// Read this file; it must exist and belong to the mesh (and the map).
    File(PathBuf),
    /// Read this file when it exists and is up to date for the mesh (same format version, mesh
    /// hash and build parameters), else build it in memory.
    Cached(PathBuf),
}

impl Source {
    /// The file named, if any.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Source::Build => None,
            Source::File(p) | Source::Cached(p) => Some(p),
        }
    }
}

/// A mesh ready for planners, and how it was had.
#[derive(Debug, Clone)]
pub struct PreparedMesh {
    /// The mesh.
    pub mesh: Arc<Mesh>,
    /// The file it was read from; `None` when built here.
    pub file: Option<PathBuf>,
    /// Seconds spent building or reading it.
    pub secs: f64,
    /// When it was repaired from the mesh of an earlier version of a [`crate::World`] rather
    /// than built afresh: what the repair did.
    pub repaired: Option<taut_mesh::build::RepairStats>,
}

/// A CPD ready for End Point Search, and how it was had. Feature `cpd`.
#[cfg(feature = "cpd")]
#[derive(Debug, Clone)]
pub struct PreparedCpd {
    /// The mesh and its CPD.
    pub eps: Arc<Eps>,
    /// Which of the map's meshes it belongs to.
    pub mesh: MeshChoice,
    /// The file it was read from; `None` when built here or given in memory.
    pub file: Option<PathBuf>,
    /// Seconds spent building or reading it.
    pub secs: f64,
    /// Whether it was built here (else read or given).
    pub built: bool,
    /// Its sizes.
    pub stats: CpdStats,
}

/// A hub index ready for queries, and how it was had. Feature `hub`.
#[cfg(feature = "hub")]
#[derive(Debug, Clone)]
pub struct PreparedHub {
    /// The index.
    pub index: Arc<HubIndex>,
    /// Which of the map's meshes it was built from.
    pub mesh: MeshChoice,
    /// The file it was read from; `None` when built here or given in memory.
    pub file: Option<PathBuf>,
    /// Seconds spent building or reading it.
    pub secs: f64,
    /// Whether it was built here (else read or given).
    pub built: bool,
    /// Its sizes.
    pub stats: HubStats,
}

/// One thing built or read for a map before its queries ([`Map::built`]): what `taut scen
/// --summary` reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Built {
    /// What it is: `ray index`, `mesh`, `given mesh`, `CPD`, `CPD of the given mesh`, `hub
    /// index`, `hub index of the given mesh`.
    pub what: String,
    /// Seconds spent building or reading it.
    pub secs: f64,
    /// Heap bytes it holds, when known (a mesh does not say).
    pub heap_bytes: Option<usize>,
    /// The file it was read from; `None` when built here (or given in memory).
    pub file: Option<PathBuf>,
}

/// One slot per [`MeshChoice`].
type Slots<T> = [Mutex<Option<T>>; 2];

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while building leaves the slot as it was (nothing half-written is stored).
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A grid and what planners build from it, each made once on first use (or read from the
/// files named) and shared: the navigation mesh, End Point Search's CPD, the hub index. Hands
/// out planners that own what they use ([`Map::planner`]: `'static`, `Send`). `Sync`: one
/// map serves every thread.
#[derive(Debug)]
pub struct Map {
    grid: Arc<Grid>,
    mesh_file: Option<PathBuf>,
    meshes: Slots<PreparedMesh>,
    /// The built mesh of an earlier version and the cells changed since, from which the built
    /// mesh of this version is repaired (taken when it is).
    mesh_base: Mutex<Option<(Arc<Mesh>, CellRect)>>,
    kind: OnceLock<MapKind>,
    #[cfg(feature = "cpd")]
    cpd_source: Source,
    #[cfg(feature = "cpd")]
    cpds: Slots<PreparedCpd>,
    #[cfg(feature = "hub")]
    hub_source: Source,
    #[cfg(feature = "hub")]
    hubs: Slots<PreparedHub>,
}

impl Map {
    /// A map of `grid` with nothing built yet.
    pub fn new(grid: impl Into<Arc<Grid>>) -> Map {
        Map {
            grid: grid.into(),
            mesh_file: None,
            meshes: Default::default(),
            mesh_base: Mutex::new(None),
            kind: OnceLock::new(),
            #[cfg(feature = "cpd")]
            cpd_source: Source::Build,
            #[cfg(feature = "cpd")]
            cpds: Default::default(),
            #[cfg(feature = "hub")]
            hub_source: Source::Build,
            #[cfg(feature = "hub")]
            hubs: Default::default(),
        }
    }

    /// The next version of this map: `grid`, with this map's mesh file and CPD and hub
    /// sources (checked against the new grid when used), nothing built yet. When the cells
    /// that changed are known (`changed`), this map's built mesh (or the one it would have
    /// been repaired from) is kept, and the new map's built mesh is repaired from it
    /// ([`taut_mesh::build::repair_mesh`]) instead of built afresh.
    ///
    /// A map whose CPD or hub comes from a file is never repaired: such a file names the mesh
    /// a full build gives (its hash), and a repaired mesh has the same lengths but other
    /// polygons, so the file would be refused even when the cells come back.
    pub(crate) fn successor(&self, grid: Arc<Grid>, changed: Option<CellRect>) -> Map {
        #[allow(unused_mut)]
        let mut files_name_the_mesh = false;
        #[cfg(feature = "cpd")]
        {
            files_name_the_mesh |= self.cpd_source.file().is_some();
        }
        #[cfg(feature = "hub")]
        {
            files_name_the_mesh |= self.hub_source.file().is_some();
        }
        let changed = changed.filter(|_| !files_name_the_mesh);
        let base = changed.and_then(|r| match self.mesh_if_ready(MeshChoice::Built) {
            Some(m) => Some((m.mesh, r)),
            None => lock(&self.mesh_base)
                .as_ref()
                .map(|(m, r0)| (Arc::clone(m), r0.union(r))),
        });
        Map {
            mesh_base: Mutex::new(base),
            mesh_file: self.mesh_file.clone(),
            #[cfg(feature = "cpd")]
            cpd_source: self.cpd_source.clone(),
            #[cfg(feature = "hub")]
            hub_source: self.hub_source.clone(),
            ..Map::new(grid)
        }
    }

    /// The map of a MovingAI `.map` file under a free-terrain set.
    ///
    /// # Errors
    /// [`GridError`] when the file cannot be read or is not a valid map.
    pub fn read(path: impl AsRef<Path>, free: &FreeSet) -> Result<Map, GridError> {
        Ok(Map::new(Grid::from_map(&MapFile::read(path)?, free)))
    }

    /// Planners that want a given mesh ([`MeshChoice::Given`]) read this "mesh 2" file, which
    /// must cover exactly the map's free space.
    #[must_use]
    pub fn with_mesh_file(mut self, path: impl Into<PathBuf>) -> Map {
        self.mesh_file = Some(path.into());
        self
    }

    /// Where End Point Search's CPD comes from (default: built in memory). Feature `cpd`.
    #[cfg(feature = "cpd")]
    #[must_use]
    pub fn with_cpd(mut self, source: Source) -> Map {
        self.cpd_source = source;
        self
    }

    /// Where the hub index comes from (default: built in memory). Feature `hub`.
    #[cfg(feature = "hub")]
    #[must_use]
    pub fn with_hub(mut self, source: Source) -> Map {
        self.hub_source = source;
        self
    }

    /// The grid.
    pub fn grid(&self) -> &Arc<Grid> {
        &self.grid
    }

    /// The mesh file named by [`Map::with_mesh_file`].
    pub fn mesh_file(&self) -> Option<&Path> {
        self.mesh_file.as_deref()
    }

    /// Where the CPD comes from. Feature `cpd`.
    #[cfg(feature = "cpd")]
    pub fn cpd_source(&self) -> &Source {
        &self.cpd_source
    }

    /// Where the hub index comes from. Feature `hub`.
    #[cfg(feature = "hub")]
    pub fn hub_source(&self) -> &Source {
        &self.hub_source
    }

    /// A planner for this map, building (once) what it needs: the mesh, the CPD, the index.
    ///
    /// # Errors
    /// [`SetupError`] when what it needs cannot be built or read, or belongs to another map.
    pub fn planner(&self, spec: &PlannerSpec) -> Result<BoxedPlanner, SetupError> {
        kind(spec.algo).build(self, &spec.tuning)
    }

    /// Builds (once) what the planner `spec` needs, without making a planner: so that the
    /// cost is paid, and can be timed, before the queries.
    ///
    /// # Errors
    /// As [`Map::planner`].
    pub fn prepare(&self, spec: &PlannerSpec) -> Result<(), SetupError> {
        use crate::registry::Needs;
        match spec.algo.needs() {
            Needs::Grid => {}
            Needs::Mesh => {
                self.mesh(spec.tuning.mesh)?;
            }
            #[cfg(feature = "cpd")]
            Needs::Cpd => {
                self.cpd(spec.tuning.mesh)?;
            }
            #[cfg(feature = "hub")]
            Needs::Hub => {
                self.hub(spec.tuning.mesh)?;
            }
            #[cfg(not(all(feature = "cpd", feature = "hub")))]
            Needs::Cpd | Needs::Hub => {}
            // The mesh when building it pays on this kind of map (never a CPD or an index).
            Needs::Chosen => {
                if self.kind().mesh_pays() {
                    self.mesh(MeshChoice::Built)?;
                }
            }
        }
        Ok(())
    }

    /// The shortest any-angle path from `start` to `goal`, by `auto` (allocating a planner for
    /// this one query; keep one from [`Map::planner`] for many): `Ok(None)` when no path
    /// exists.
    ///
    /// # Errors
    /// [`crate::Error::Query`] when an endpoint is off the map or on a blocked cell,
    /// [`crate::Error::Setup`] when what `auto` chose cannot be had.
    pub fn find(&self, start: Point, goal: Point) -> Result<Option<Answer>, crate::Error> {
        let mut planner = self.planner(&PlannerSpec::plain(Algo::Auto))?;
        let mut answer = Answer::default();
        match planner.plan(start, goal, &mut answer) {
            Ok(Status::Found) => Ok(Some(answer)),
            Ok(Status::Unreachable) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// What has been built or read for this map so far (meshes, CPDs, hub indexes), and
    /// `planner`'s own per-map index ([`taut_grid::Planner::index_info`]), the planner's
    /// first: the preparation a run of queries paid for before its first query.
    pub fn built(&self, planner: &dyn taut_grid::Planner) -> Vec<Built> {
        let mut all = Vec::new();
        if let Some(i) = planner.index_info() {
            all.push(Built {
                what: i.what.to_owned(),
                secs: i.build_time.as_secs_f64(),
                heap_bytes: Some(i.heap_bytes),
                file: None,
            });
        }
        for choice in [MeshChoice::Built, MeshChoice::Given] {
            #[cfg_attr(not(any(feature = "cpd", feature = "hub")), allow(unused_variables))]
            let of = |what: &str| match choice {
                MeshChoice::Built => what.to_owned(),
                MeshChoice::Given => format!("{what} of the given mesh"),
            };
            if let Some(m) = self.mesh_if_ready(choice) {
                all.push(Built {
                    what: match choice {
                        MeshChoice::Built => "mesh".to_owned(),
                        MeshChoice::Given => "given mesh".to_owned(),
                    },
                    secs: m.secs,
                    heap_bytes: None,
                    file: m.file,
                });
            }
            #[cfg(feature = "cpd")]
            if let Some(c) = self.cpd_if_ready(choice) {
                all.push(Built {
                    what: of("CPD"),
                    secs: c.secs,
                    heap_bytes: Some(c.stats.total_bytes),
                    file: c.file,
                });
            }
            #[cfg(feature = "hub")]
            if let Some(h) = self.hub_if_ready(choice) {
                all.push(Built {
                    what: of("hub index"),
                    secs: h.secs,
                    heap_bytes: Some(h.stats.bytes),
                    file: h.file,
                });
            }
        }
        all
    }

    /// The planner `auto` answers with now: the fastest exact any-angle planner for this map
    /// and what has been built or named for it (`docs/planners.md`, "auto"). Never an inexact
    /// planner; never builds a CPD or an index.
    pub fn auto_algo(&self) -> Algo {
        #[cfg(feature = "hub")]
        if self.hub_ready() {
            return Algo::Hub;
        }
        #[cfg(feature = "cpd")]
        if self.cpd_ready() {
            return Algo::Eps;
        }
        if lock(&self.meshes[MeshChoice::Built.slot()]).is_some() {
            Algo::Polyanya
        } else if self.kind().ray_pays() {
            Algo::Ray
        } else {
            Algo::Anya
        }
    }

    /// What `auto` reads of the grid (measured once, in one pass over the cells).
    pub fn kind(&self) -> &MapKind {
        self.kind.get_or_init(|| auto::classify(&self.grid))
    }

    #[cfg(feature = "hub")]
    fn hub_ready(&self) -> bool {
        // `auto` plans on taut's own mesh (default tuning): an index of a given mesh would
        // not serve it, and taking it for one would build a second index.
        matches!(self.hub_source, Source::File(_))
            || lock(&self.hubs[MeshChoice::Built.slot()]).is_some()
    }

    #[cfg(feature = "cpd")]
    fn cpd_ready(&self) -> bool {
        matches!(self.cpd_source, Source::File(_))
            || lock(&self.cpds[MeshChoice::Built.slot()]).is_some()
    }

    /// The mesh `choice` selects: taut's mesh of the grid, built on first use, or the file of
    /// [`Map::with_mesh_file`], read on first use and checked against the map.
    ///
    /// # Errors
    /// [`SetupError::MeshBuild`], [`SetupError::MeshRead`], [`SetupError::Mismatch`],
    /// [`SetupError::NoneGiven`].
    pub fn mesh(&self, choice: MeshChoice) -> Result<Arc<Mesh>, SetupError> {
        self.prepared_mesh(choice).map(|m| m.mesh)
    }

    /// The mesh `choice` selects, with how it was had ([`Map::mesh`]).
    ///
    /// # Errors
    /// As [`Map::mesh`].
    pub fn prepared_mesh(&self, choice: MeshChoice) -> Result<PreparedMesh, SetupError> {
        let mut slot = lock(&self.meshes[choice.slot()]);
        if let Some(m) = &*slot {
            return Ok(m.clone());
        }
        let t = Instant::now();
        let prepared = match choice {
            MeshChoice::Built => {
                let base = lock(&self.mesh_base).take();
                // A change over a quarter of the map or more re-meshes most of it anyway; a
                // base that does not fit (never expected) is dropped for a full build.
                let repaired = base
                    .filter(|(_, r)| {
                        4 * i64::from(r.width) * i64::from(r.height)
                            < i64::from(self.grid.width()) * i64::from(self.grid.height())
                    })
                    .and_then(|(old, r)| taut_mesh::build::repair_mesh(&old, &self.grid, r).ok());
                let (mesh, repaired) = match repaired {
                    Some((m, stats)) => (m, Some(stats)),
                    None => (
                        taut_mesh::mesh_from_grid(&self.grid).map_err(SetupError::MeshBuild)?,
                        None,
                    ),
                };
                PreparedMesh {
                    mesh: Arc::new(mesh),
                    file: None,
                    secs: t.elapsed().as_secs_f64(),
                    repaired,
                }
            }
            MeshChoice::Given => {
                let path = self.mesh_file.as_deref().ok_or(SetupError::NoneGiven)?;
                let mesh = taut_mesh::read_mesh(path)?;
                check_covers(&mesh, &self.grid, path)?;
                PreparedMesh {
                    mesh: Arc::new(mesh),
                    file: Some(path.to_owned()),
                    secs: t.elapsed().as_secs_f64(),
                    repaired: None,
                }
            }
        };
        *slot = Some(prepared.clone());
        Ok(prepared)
    }

    /// The mesh `choice` selects if it has been had already.
    pub fn mesh_if_ready(&self, choice: MeshChoice) -> Option<PreparedMesh> {
        lock(&self.meshes[choice.slot()]).clone()
    }

    /// End Point Search's CPD for the mesh `choice` selects, from [`Map::with_cpd`]'s source
    /// (built with the default parameters when that says so). Feature `cpd`.
    ///
    /// # Errors
    /// [`SetupError::CpdFile`] when the file cannot be read or belongs to another mesh,
    /// [`SetupError::CpdBuild`] when building fails, and the mesh's errors.
    #[cfg(feature = "cpd")]
    pub fn cpd(&self, choice: MeshChoice) -> Result<PreparedCpd, SetupError> {
        self.cpd_with_progress(choice, &NoProgress)
    }

    /// [`Map::cpd`], reporting a build's progress to `progress`. Feature `cpd`.
    ///
    /// # Errors
    /// As [`Map::cpd`].
    #[cfg(feature = "cpd")]
    pub fn cpd_with_progress(
        &self,
        choice: MeshChoice,
        progress: &dyn Progress,
    ) -> Result<PreparedCpd, SetupError> {
        let mesh = self.mesh(choice)?;
        let mut slot = lock(&self.cpds[choice.slot()]);
        if let Some(c) = &*slot {
            return Ok(c.clone());
        }
        let params = BuildParams::default();
        let file = match &self.cpd_source {
            Source::Build => None,
            Source::File(p) => Some(p.as_path()),
            Source::Cached(p) => read_cpd_header(p)
                .ok()
                .filter(|h| h.mesh_hash == mesh_hash(&mesh) && h.params == params)
                .map(|_| p.as_path()),
        };
        let bad = |p: &Path, source| SetupError::CpdFile {
            path: p.to_owned(),
            source,
        };
        let t = Instant::now();
        let (cpd, built) = match file {
            Some(p) => (read_cpd(p).map_err(|e| bad(p, e))?, false),
            None => (
                build_cpd(&mesh, &params, progress).map_err(SetupError::CpdBuild)?,
                true,
            ),
        };
        let secs = t.elapsed().as_secs_f64();
        let stats = cpd.stats();
        // `Eps::new` refuses a CPD of another mesh (`StaleMesh`).
        let eps = Eps::new(mesh, Arc::new(cpd)).map_err(|e| match file {
            Some(p) => bad(p, e),
            None => SetupError::CpdBuild(e),
        })?;
        let prepared = PreparedCpd {
            eps: Arc::new(eps),
            mesh: choice,
            file: file.map(Path::to_owned),
            secs,
            built,
            stats,
        };
        *slot = Some(prepared.clone());
        Ok(prepared)
    }

    /// The CPD of `choice`'s mesh if it has been had already. Feature `cpd`.
    #[cfg(feature = "cpd")]
    pub fn cpd_if_ready(&self, choice: MeshChoice) -> Option<PreparedCpd> {
        lock(&self.cpds[choice.slot()]).clone()
    }

    /// Makes `eps` planners made from now on use `cpd` (given in memory), which must belong to
    /// `choice`'s mesh; `None` forgets the CPD held (the next is had from the source again).
    /// Returns the CPD held before. Feature `cpd`.
    ///
    /// # Errors
    /// [`SetupError::CpdBuild`] with [`taut_cpd::CpdError::StaleMesh`] when `cpd` belongs to another
    /// mesh, and the mesh's errors.
    #[cfg(feature = "cpd")]
    pub fn set_cpd(
        &self,
        choice: MeshChoice,
        cpd: Option<Arc<Cpd>>,
    ) -> Result<Option<PreparedCpd>, SetupError> {
        let prepared = match cpd {
            Some(cpd) => {
                let mesh = self.mesh(choice)?;
                let stats = cpd.stats();
                Some(PreparedCpd {
                    eps: Arc::new(Eps::new(mesh, cpd).map_err(SetupError::CpdBuild)?),
                    mesh: choice,
                    file: None,
                    secs: 0.0,
                    built: false,
                    stats,
                })
            }
            None => None,
        };
        Ok(std::mem::replace(
            &mut *lock(&self.cpds[choice.slot()]),
            prepared,
        ))
    }

    /// Puts back a CPD returned by [`Map::set_cpd`] or [`Map::cpd`]. Feature `cpd`.
    #[cfg(feature = "cpd")]
    pub fn restore_cpd(&self, prepared: PreparedCpd) {
        let slot = prepared.mesh.slot();
        *lock(&self.cpds[slot]) = Some(prepared);
    }

    /// The hub index of the map on the mesh `choice` selects, from [`Map::with_hub`]'s source
    /// (built in memory, on the current rayon pool, when that says so). Feature `hub`.
    ///
    /// # Errors
    /// [`SetupError::HubFile`] when the file cannot be read or belongs to another map or
    /// mesh, [`SetupError::HubBuild`] when building fails, and the mesh's errors.
    #[cfg(feature = "hub")]
    pub fn hub(&self, choice: MeshChoice) -> Result<PreparedHub, SetupError> {
        let mesh = self.mesh(choice)?;
        let mut slot = lock(&self.hubs[choice.slot()]);
        if let Some(h) = &*slot {
            return Ok(h.clone());
        }
        let file = match &self.hub_source {
            Source::Build => None,
            Source::File(p) => Some(p.as_path()),
            Source::Cached(p) => read_hub_header(p)
                .ok()
                .filter(|h| h.mesh_hash == taut_mesh::mesh_hash(&mesh))
                .map(|_| p.as_path()),
        };
        let bad = |p: &Path, source| SetupError::HubFile {
            path: p.to_owned(),
            source,
        };
        let t = Instant::now();
        let (index, built) = match file {
            Some(p) => {
                let index = read_hub(p).map_err(|e| bad(p, e))?;
                fits(&index, &mesh, &self.grid).map_err(|e| bad(p, e))?;
                (index, false)
            }
            None => (
                HubIndex::build(&self.grid, &mesh).map_err(SetupError::HubBuild)?,
                true,
            ),
        };
        let prepared = PreparedHub {
            stats: index.stats(),
            index: Arc::new(index),
            mesh: choice,
            file: file.map(Path::to_owned),
            secs: t.elapsed().as_secs_f64(),
            built,
        };
        *slot = Some(prepared.clone());
        Ok(prepared)
    }

    /// The hub index of `choice`'s mesh if it has been had already. Feature `hub`.
    #[cfg(feature = "hub")]
    pub fn hub_if_ready(&self, choice: MeshChoice) -> Option<PreparedHub> {
        lock(&self.hubs[choice.slot()]).clone()
    }

    /// Makes `hub` planners made from now on use `index` (given in memory; `file` names where
    /// it came from in messages), which must belong to the map and `choice`'s mesh; `None`
    /// forgets the index held. Returns the index held before. Feature `hub`.
    ///
    /// # Errors
    /// [`SetupError::HubFile`] (with `file`) or [`SetupError::HubBuild`] when `index` belongs
    /// to another map or mesh, and the mesh's errors.
    #[cfg(feature = "hub")]
    pub fn set_hub(
        &self,
        choice: MeshChoice,
        index: Option<Arc<HubIndex>>,
        file: Option<PathBuf>,
    ) -> Result<Option<PreparedHub>, SetupError> {
        let prepared = match index {
            Some(index) => {
                let mesh = self.mesh(choice)?;
                let refuse = |e| match &file {
                    Some(p) => SetupError::HubFile {
                        path: p.clone(),
                        source: e,
                    },
                    None => SetupError::HubBuild(e),
                };
                fits(&index, &mesh, &self.grid).map_err(refuse)?;
                Some(PreparedHub {
                    stats: index.stats(),
                    index,
                    mesh: choice,
                    file,
                    secs: 0.0,
                    built: false,
                })
            }
            None => None,
        };
        Ok(std::mem::replace(
            &mut *lock(&self.hubs[choice.slot()]),
            prepared,
        ))
    }

    /// Puts back an index returned by [`Map::set_hub`] or [`Map::hub`]. Feature `hub`.
    #[cfg(feature = "hub")]
    pub fn restore_hub(&self, prepared: PreparedHub) {
        let slot = prepared.mesh.slot();
        *lock(&self.hubs[slot]) = Some(prepared);
    }
}

impl Sources for Map {
    fn grid(&self) -> &Arc<Grid> {
        &self.grid
    }
    fn mesh(&self, choice: MeshChoice) -> Result<Arc<Mesh>, SetupError> {
        Map::mesh(self, choice)
    }
    #[cfg(feature = "cpd")]
    fn eps(&self, choice: MeshChoice) -> Result<Arc<Eps>, SetupError> {
        self.cpd(choice).map(|c| c.eps)
    }
    #[cfg(feature = "hub")]
    fn hub_index(&self, choice: MeshChoice) -> Result<Arc<HubIndex>, SetupError> {
        self.hub(choice).map(|h| h.index)
    }
    fn auto_algo(&self) -> Algo {
        Map::auto_algo(self)
    }
}

/// Checks that a hub index was built from `mesh` and for `grid`.
#[cfg(feature = "hub")]
fn fits(index: &HubIndex, mesh: &Mesh, grid: &Grid) -> Result<(), HubError> {
    index.check_mesh(mesh)?;
    if index.matches(grid) {
        Ok(())
    } else {
        Err(HubError::StaleMap)
    }
}

/// Checks that a given mesh is one of `grid`'s free space: inside the map and of the same area
/// (a mesh of another map, or of another free-terrain set, would answer wrongly).
fn check_covers(mesh: &Mesh, grid: &Grid, path: &Path) -> Result<(), SetupError> {
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
    Err(SetupError::Mismatch {
        path: path.to_owned(),
        area,
        lo: (lo.x, lo.y),
        hi: (hi.x, hi.y),
        free,
        width: grid.width(),
        height: grid.height(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn a_map_is_shared_and_builds_each_thing_once() {
        assert_send_sync::<Map>();
        let map = Map::new(Grid::from_ascii(&["....", ".@@.", "...."]).unwrap());
        assert!(map.mesh_if_ready(MeshChoice::Built).is_none());
        let a = map.mesh(MeshChoice::Built).unwrap();
        let b = map.mesh(MeshChoice::Built).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(matches!(
            map.mesh(MeshChoice::Given),
            Err(SetupError::NoneGiven)
        ));
    }

    /// `built` lists the planner's own index first, then what the map has built.
    #[test]
    fn built_lists_the_planners_index_and_the_maps_mesh() {
        let map = Map::new(Grid::from_ascii(&["......", ".@@...", "...@..", "......"]).unwrap());
        let anya = map.planner(&PlannerSpec::plain(Algo::Anya)).unwrap();
        assert_eq!(map.built(&*anya), Vec::new());
        let ray = map.planner(&PlannerSpec::plain(Algo::Ray)).unwrap();
        let built = map.built(&*ray);
        assert_eq!(built.len(), 1, "{built:?}");
        assert_eq!(built[0].what, "ray index");
        assert!(built[0].heap_bytes.is_some_and(|b| b > 0) && built[0].file.is_none());
        let polyanya = map.planner(&PlannerSpec::plain(Algo::Polyanya)).unwrap();
        let built = map.built(&*polyanya);
        assert_eq!(built.len(), 1, "{built:?}");
        assert_eq!(
            (built[0].what.as_str(), built[0].heap_bytes),
            ("mesh", None)
        );
        // The mesh is the map's: listed beside any planner's own index.
        assert_eq!(map.built(&*ray).len(), 2);
    }

    /// `auto` follows what the map holds for taut's own mesh: nothing, the mesh, a CPD, an
    /// index; forgetting them steps back.
    #[test]
    fn auto_follows_what_the_map_holds() {
        let map = Map::new(Grid::from_ascii(&["......", ".@@...", "...@..", "......"]).unwrap());
        assert_eq!(map.auto_algo(), Algo::Anya);
        map.mesh(MeshChoice::Built).unwrap();
        assert_eq!(map.auto_algo(), Algo::Polyanya);
        #[cfg(feature = "cpd")]
        {
            let cpd = map.cpd(MeshChoice::Built).unwrap();
            assert_eq!(map.auto_algo(), Algo::Eps);
            map.set_cpd(MeshChoice::Built, None).unwrap();
            assert_eq!(map.auto_algo(), Algo::Polyanya);
            map.restore_cpd(cpd);
        }
        #[cfg(feature = "hub")]
        {
            let hub = map.hub(MeshChoice::Built).unwrap();
            assert_eq!(map.auto_algo(), Algo::Hub);
            // An index of another map is refused, and the one held stays.
            let other = Map::new(Grid::from_ascii(&["....", "...."]).unwrap());
            let foreign = other.hub(MeshChoice::Built).unwrap();
            assert!(
                map.set_hub(MeshChoice::Built, Some(foreign.index), None)
                    .is_err()
            );
            assert_eq!(map.auto_algo(), Algo::Hub);
            let held = map.set_hub(MeshChoice::Built, None, None).unwrap();
            assert!(held.is_some_and(|h| Arc::ptr_eq(&h.index, &hub.index)));
            assert_ne!(map.auto_algo(), Algo::Hub);
        }
    }

    #[test]
    fn find_reports_errors_and_unreachable_goals() {
        let map = Map::new(Grid::from_ascii(&["..@..", "..@..", "..@.."]).unwrap());
        assert!(
            map.find(Point::new(0, 0), Point::new(4, 2))
                .unwrap()
                .is_none()
        );
        assert!(matches!(
            map.find(Point::new(2, 0), Point::new(0, 0)),
            Err(crate::Error::Query(_))
        ));
    }
}
