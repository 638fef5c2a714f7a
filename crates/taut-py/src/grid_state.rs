//! The state of a `taut.Grid` ([`PyGrid`]): its [`Map`] (the grid, and its mesh, CPD and hub
//! index, each made on first use), which CPD and hub index that map holds, and the grid's warm
//! planners; and how a call's planner is made ready on it. The Python methods are in `grid.rs`;
//! `Hub.build` and `Mesh.from_grid` read the grid through here, so that `hub.rs` and `mesh.rs`
//! do not depend on `grid.rs`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use pyo3::prelude::*;
use taut::cpd::Cpd;
use taut::hub::{HubError, HubIndex};
use taut::registry::{Algo, BoxedPlanner, PlannerSpec};
use taut::{Answer, Grid, Map, PreparedCpd, PreparedHub, SetupError};

use crate::errors::{cpd_error, setup_error};

/// A planner with its answer buffer: everything one query needs, kept warm between queries.
pub(crate) struct Warm {
    pub(crate) planner: BoxedPlanner,
    pub(crate) answer: Answer,
}

/// Takes `m`'s lock. A panic while it was held leaves what it guards whole: every change
/// under these locks is a single assignment at the end.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The warm planners of one grid, by key (the spec label, and for `eps` and `hub` the
/// generation of the CPD or hub index).
/// A query takes one out and gives it back when done, so single queries, scenarios and every
/// thread of a batch reuse search contexts across calls. The lock is held only to take and
/// give, never while a search runs or while a planner is made. A key is live from
/// [`Stash::register`] until [`Stash::forget`]; a planner given back under a key no longer live
/// (an `eps` planner of a replaced CPD or a `hub` planner of a replaced index, still at work
/// when it changed) is dropped, and at most one planner per core is kept per key. The planners
/// own what they use (`taut::Map` hands out `'static` planners), so nothing borrows the grid.
#[derive(Default)]
pub(crate) struct Stash(Mutex<HashMap<String, Vec<Warm>>>);

impl Stash {
    /// A warm planner for `key`, or a new one from `make` when none is free (made without the
    /// stash's lock).
    fn take(&self, key: &str, make: impl FnOnce() -> PyResult<BoxedPlanner>) -> PyResult<Warm> {
        let warm = lock(&self.0).get_mut(key).and_then(Vec::pop);
        match warm {
            Some(w) => Ok(w),
            None => Ok(Warm {
                planner: make()?,
                answer: Answer::default(),
            }),
        }
    }

    /// Makes `key` live: planners given back under it are kept.
    fn register(&self, key: &str) {
        let mut stash = lock(&self.0);
        if !stash.contains_key(key) {
            stash.insert(key.to_owned(), Vec::new());
        }
    }

    /// Gives `warm` back for the next query with `key`: kept if `key` is live and fewer than
    /// one planner per core are kept for it, else dropped.
    pub(crate) fn give(&self, key: &str, warm: Warm) {
        let mut stash = lock(&self.0);
        if let Some(kept) = stash.get_mut(key)
            && kept.len() < cores()
        {
            kept.push(warm);
        }
    }

    /// Drops every warm planner whose key starts with `prefix`, and those keys: planners given
    /// back under them later are dropped too.
    fn forget(&self, prefix: &str) {
        lock(&self.0).retain(|k, _| !k.starts_with(prefix));
    }
}

/// The cores of this machine (1 if unknown), asked once: asking reads cgroup files.
pub(crate) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// A grid map: blocked and free cells. Build one from a MovingAI `.map` file
/// (`Grid.from_map`) or from a 2-D NumPy array of booleans, True for free
/// (`Grid(array)`, rows are y, columns x).
///
/// Points are lattice points `(x, y)` with `0 <= x < width`, `0 <= y < height`: the top-left
/// corner of cell `(x, y)`, as in MovingAI scenarios. A point is a valid end when a cell
/// touching it is free and its own cell is not blocked.
///
/// >>> import numpy as np, taut
/// >>> g = taut.Grid(np.array([[True, True, True], [True, False, True], [True, True, True]]))
/// >>> round(g.path((0, 0), (2, 2)).length, 6)  # round the blocked centre cell
/// 3.236068
#[pyclass(module = "taut._taut", name = "Grid")]
pub struct PyGrid {
    /// The grid, and its navigation mesh, CPD and hub index, each made on first use.
    map: Map,
    pub(crate) planners: Stash,
    /// Which CPD `map` holds.
    eps_cpd: Mutex<Chosen<Cpd, PreparedCpd>>,
    /// Which hub index `map` holds.
    hub: Mutex<Chosen<HubIndex, PreparedHub>>,
}

/// Which preprocessed data `T` (End Point Search's CPD, the hub index; prepared as `P`) a
/// grid's map holds for the planners of one kind. Changed only with its lock held, which is
/// also held while such a planner is made: a planner made under a live key holds that key's
/// data.
struct Chosen<T, P> {
    /// `None` before any, `Some(None)` the one built here, `Some(Some(d))` the one given.
    have: Option<Option<Arc<T>>>,
    /// Counts changes; part of the planners' stash key, so a planner still at work in a batch
    /// when the data changes is never lent out again.
    generation: u64,
    /// The data built here, kept while a given one replaces it, for the next call without
    /// `cpd=` / `hub=`.
    built: Option<P>,
}

impl<T, P> Default for Chosen<T, P> {
    fn default() -> Self {
        Chosen {
            have: None,
            generation: 0,
            built: None,
        }
    }
}

/// How [`Chosen::choose`] changes what a map holds: the map's `set_*` / `restore_*` / build
/// of one kind of data.
struct Slot<'a, T, P> {
    /// Gives the map `data` (checked against the map and its mesh); returns what it held.
    give: &'a dyn Fn(&Arc<T>) -> PyResult<Option<P>>,
    /// Puts data built here back.
    restore: &'a dyn Fn(P),
    /// Forgets what the map holds and builds its own.
    build: &'a dyn Fn() -> PyResult<()>,
    /// Whether prepared data was built here (else given).
    built: fn(&P) -> bool,
}

impl<T, P> Chosen<T, P> {
    /// Whether the data prepared is `wanted` (`None`: the one built here).
    fn holds(&self, wanted: Option<&Arc<T>>) -> bool {
        match (&self.have, wanted) {
            (Some(None), None) => true,
            (Some(Some(a)), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The stash key of `spec`'s planners on the data prepared now.
    fn key(&self, spec: &PlannerSpec) -> String {
        format!("{}@{}", spec.label, self.generation)
    }

    /// Makes the map hold `wanted` (`None`: the one built here, built the first time and kept
    /// while given ones replace it). On a change, counts it and forgets the planners warm on
    /// the old data (stash keys starting with `prefix`).
    fn choose(
        &mut self,
        wanted: Option<Arc<T>>,
        slot: &Slot<'_, T, P>,
        stash: &Stash,
        prefix: &str,
    ) -> PyResult<()> {
        if self.holds(wanted.as_ref()) {
            return Ok(());
        }
        let outcome = match &wanted {
            Some(data) => (slot.give)(data).map(|old| {
                if let Some(old) = old.filter(slot.built) {
                    self.built = Some(old);
                }
            }),
            None => match self.built.take() {
                Some(built) => {
                    (slot.restore)(built);
                    Ok(())
                }
                None => (slot.build)().inspect_err(|_| {
                    // The map holds nothing now: the next call builds again.
                    self.have = None;
                    self.generation += 1;
                    stash.forget(prefix);
                }),
            },
        };
        outcome?;
        self.have = Some(wanted);
        self.generation += 1;
        stash.forget(prefix);
        Ok(())
    }
}

/// The preprocessed data a call was given: `cpd=`, `hub=` (with the file it was read from,
/// named in messages).
#[derive(Default)]
pub(crate) struct Given {
    pub(crate) cpd: Option<Arc<Cpd>>,
    pub(crate) hub: Option<Arc<HubIndex>>,
    pub(crate) hub_file: Option<PathBuf>,
}

/// A call's planner, ready on the grid: the spec (`auto` resolved to the planner it picked)
/// and the key of its warm planners (live).
pub(crate) struct Ready {
    spec: PlannerSpec,
    pub(crate) key: String,
}

impl PyGrid {
    pub(crate) fn new_from(grid: Grid) -> Self {
        PyGrid {
            map: Map::new(grid),
            planners: Stash::default(),
            eps_cpd: Mutex::new(Chosen::default()),
            hub: Mutex::new(Chosen::default()),
        }
    }

    pub(crate) fn grid(&self) -> &Grid {
        self.map.grid()
    }

    /// The grid.
    pub(crate) fn grid_arc(&self) -> Arc<Grid> {
        self.map.grid().clone()
    }

    /// The grid's mesh (built once). The grid's locks (the map's, the stash's, which data it
    /// holds) are taken only with the GIL released (here, and in every call that plans): a
    /// thread waiting for one holds no GIL, so the thread holding it can always take the GIL
    /// back, and building a mesh, a CPD or an index does not stop other Python threads.
    pub(crate) fn built_mesh(&self, py: Python<'_>) -> PyResult<Arc<taut::Mesh>> {
        py.detach(|| {
            self.map
                .mesh(taut::registry::MeshChoice::Built)
                .map_err(setup_error)
        })
    }

    /// Prepares what `spec` needs (the mesh; for `eps` the CPD and for `hub` the hub index:
    /// the one given, else the one built in memory on first use and kept) and makes the key of
    /// its warm planners live. `auto` becomes the planner it picks: hub labels with `hub=`,
    /// End Point Search with `cpd=`, else [`Map::auto_algo`] on what the grid holds (for a
    /// `batch`, after building the mesh if Polyanya pays on this map). Call without the GIL.
    pub(crate) fn ready(&self, spec: &PlannerSpec, given: Given, batch: bool) -> PyResult<Ready> {
        // Whether `auto` picked `eps` or `hub` for the data the grid holds now (not to be
        // replaced by the one built here).
        let mut as_held = false;
        let spec = if spec.algo == Algo::Auto {
            let algo = if given.hub.is_some() {
                Algo::Hub
            } else if given.cpd.is_some() {
                Algo::Eps
            } else {
                if batch {
                    self.map.prepare(spec).map_err(setup_error)?;
                }
                as_held = true;
                self.map.auto_algo()
            };
            PlannerSpec::plain(algo)
        } else {
            spec.clone()
        };
        if spec.algo.needs_mesh() {
            self.map.mesh(spec.tuning.mesh).map_err(setup_error)?;
        }
        let key = match spec.algo {
            Algo::Eps => {
                let mut chosen = lock(&self.eps_cpd);
                if !as_held {
                    self.choose_cpd(&mut chosen, &spec, given.cpd)?;
                }
                chosen.key(&spec)
            }
            Algo::Hub => {
                let mut chosen = lock(&self.hub);
                if !as_held {
                    self.choose_hub(&mut chosen, &spec, given)?;
                }
                chosen.key(&spec)
            }
            _ => spec.label.clone(),
        };
        self.planners.register(&key);
        Ok(Ready { spec, key })
    }

    /// Makes the map hold the CPD `cpd` (refused unless of the grid's mesh), else the one
    /// built here.
    fn choose_cpd(
        &self,
        chosen: &mut Chosen<Cpd, PreparedCpd>,
        spec: &PlannerSpec,
        cpd: Option<Arc<Cpd>>,
    ) -> PyResult<()> {
        let choice = spec.tuning.mesh;
        let slot = Slot {
            give: &|c: &Arc<Cpd>| {
                self.map
                    .set_cpd(choice, Some(c.clone()))
                    .map_err(|e| match e {
                        // A CPD of another mesh: the CPD's own message, as `Eps::new` gives it.
                        SetupError::CpdBuild(e) => cpd_error(e),
                        e => setup_error(e),
                    })
            },
            restore: &|p| self.map.restore_cpd(p),
            build: &|| {
                self.map.set_cpd(choice, None).map_err(setup_error)?;
                self.map.cpd(choice).map(|_| ()).map_err(setup_error)
            },
            built: |p: &PreparedCpd| p.built,
        };
        chosen.choose(cpd, &slot, &self.planners, "eps")
    }

    /// Makes the map hold the hub index given (refused unless built for this grid and its
    /// mesh, with a message naming both), else the one built here.
    fn choose_hub(
        &self,
        chosen: &mut Chosen<HubIndex, PreparedHub>,
        spec: &PlannerSpec,
        given: Given,
    ) -> PyResult<()> {
        let choice = spec.tuning.mesh;
        let file = given.hub_file;
        let slot = Slot {
            give: &|index: &Arc<HubIndex>| {
                let mesh = self.map.mesh(choice).map_err(setup_error)?;
                check_hub_fits(index, file.as_deref(), self.grid(), &mesh)?;
                self.map
                    .set_hub(choice, Some(index.clone()), file.clone())
                    .map_err(setup_error)
            },
            restore: &|p| self.map.restore_hub(p),
            build: &|| {
                self.map.set_hub(choice, None, None).map_err(setup_error)?;
                self.map.hub(choice).map(|_| ()).map_err(setup_error)
            },
            built: |p: &PreparedHub| p.built,
        };
        chosen.choose(given.hub, &slot, &self.planners, "hub")
    }

    /// A new planner for `ready`, on the data its key names (made with the lock of which data
    /// the map holds, so that none changes meanwhile). Call without the GIL.
    fn make(&self, ready: &Ready) -> PyResult<BoxedPlanner> {
        let build = || self.map.planner(&ready.spec).map_err(setup_error);
        match ready.spec.algo {
            Algo::Eps => {
                let _held = lock(&self.eps_cpd);
                build()
            }
            Algo::Hub => {
                let _held = lock(&self.hub);
                build()
            }
            _ => build(),
        }
    }

    /// A warm planner for `ready` (a new one when none is free). Call without the GIL.
    pub(crate) fn take(&self, ready: &Ready) -> PyResult<Warm> {
        self.planners.take(&ready.key, || self.make(ready))
    }
}

/// Refuses an index that was not built for `grid` and its mesh `mesh` with a one-line
/// `taut.FormatError` naming the index (its file if read) and both maps' sizes.
fn check_hub_fits(
    index: &HubIndex,
    file: Option<&Path>,
    grid: &Grid,
    mesh: &taut::Mesh,
) -> PyResult<()> {
    let what = file.map_or_else(|| "hub".to_owned(), |f| format!("hub {}", f.display()));
    if !index.matches(grid) {
        let (w, h) = index.size();
        return Err(crate::format_error(format!(
            "{what}: {}: the index is of a {w}x{h} map with {} free cells, this grid is {}x{} with {}",
            HubError::StaleMap,
            index.stats().points,
            grid.width(),
            grid.height(),
            grid.free_cells()
        )));
    }
    index.check_mesh(mesh).map_err(|e| {
        crate::format_error(format!(
            "{what}: {e}: it answers only on the mesh it was built from (Hub.build uses grid.mesh())"
        ))
    })
}
