//! `taut.Grid`, `taut.PathResult`, `taut.Scenario`: planning on grid maps.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;
use self_cell::self_cell;
use taut::cpd::NoProgress;
use taut::grid::{MAX_SIDE, Scenario};
use taut::registry::{Algo, CpdSource, MapMeshes, PlannerSpec, PreparedCpd, make_planner};
use taut::{Answer, FreeSet, Grid, MapFile, Planner, Point, Status};

use crate::errors::{cpd_error, grid_error, query_error, setup_error};
use crate::mesh::{PyCpd, PyMesh};
use crate::value_error;

/// A planner option given as a Python keyword.
#[derive(Debug, Clone, PartialEq)]
pub enum OptValue {
    /// `cul_de_sac=False`, `intermediate=False`.
    Bool(bool),
    /// `history="hash"`, `stop="first"`.
    Str(String),
    /// `quality=1.05`.
    Float(f64),
}

/// The planner `algo` with the options given as keywords, as the registry names it
/// (`anya:no-cul-de-sac`); the registry checks that each option applies to the planner.
///
/// Keywords: `cul_de_sac=False`, `intermediate=False` (Anya, Polyanya: turn a pruning rule
/// off), `history="auto"|"hash"|"flat"` (Anya's root history), `stop="optimal"|"first"` and
/// `quality=F` (End Point Search: stop at the first path, or within factor `F >= 1` of the
/// optimum).
///
/// # Errors
/// An unknown planner or keyword, or one that does not apply to the planner (the registry's
/// message).
pub fn spec_of(algo: &str, options: &[(&str, OptValue)]) -> Result<PlannerSpec, String> {
    let mut opts: Vec<String> = Vec::new();
    for (key, value) in options {
        match (*key, value) {
            ("cul_de_sac" | "intermediate", OptValue::Bool(true)) => {}
            ("cul_de_sac", OptValue::Bool(false)) => opts.push("no-cul-de-sac".into()),
            ("intermediate", OptValue::Bool(false)) => opts.push("no-intermediate".into()),
            ("history", OptValue::Str(h)) => opts.push(h.clone()),
            ("stop", OptValue::Str(s)) if s == "optimal" => {}
            ("stop", OptValue::Str(s)) => opts.push(s.clone()),
            ("quality", OptValue::Float(q)) => opts.push(format!("q{q}")),
            (key, value) => {
                let value = match value {
                    OptValue::Bool(b) => {
                        if *b {
                            "True".to_owned()
                        } else {
                            "False".to_owned()
                        }
                    }
                    OptValue::Str(s) => format!("{s:?}"),
                    OptValue::Float(f) => f.to_string(),
                };
                return Err(format!(
                    "unknown planner option {key}={value} (options: cul_de_sac=False, \
                     intermediate=False, history='auto'|'hash'|'flat', stop='optimal'|'first', \
                     quality=F)"
                ));
            }
        }
    }
    let text = if opts.is_empty() {
        algo.to_owned()
    } else {
        format!("{algo}:{}", opts.join("+"))
    };
    text.parse::<PlannerSpec>().map_err(|e| e.to_string())
}

/// Planner options from `**kwargs`, leaving out the keywords a method takes itself.
fn options(kwargs: Option<&Bound<'_, PyDict>>, own: &[&str]) -> PyResult<Vec<(String, OptValue)>> {
    let mut out = Vec::new();
    let Some(kwargs) = kwargs else {
        return Ok(out);
    };
    for (k, v) in kwargs.iter() {
        let key: String = k.extract()?;
        if own.contains(&key.as_str()) || v.is_none() {
            continue;
        }
        let value = if let Ok(b) = v.extract::<bool>() {
            OptValue::Bool(b)
        } else if let Ok(s) = v.extract::<String>() {
            OptValue::Str(s)
        } else if let Ok(f) = v.extract::<f64>() {
            OptValue::Float(f)
        } else {
            return Err(value_error(format!(
                "planner option {key}: expected a bool, a str or a float"
            )));
        };
        out.push((key, value));
    }
    Ok(out)
}

fn parse_spec(
    algo: &str,
    kwargs: Option<&Bound<'_, PyDict>>,
    own: &[&str],
) -> PyResult<PlannerSpec> {
    let opts = options(kwargs, own)?;
    let borrowed: Vec<(&str, OptValue)> =
        opts.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    spec_of(algo, &borrowed).map_err(value_error)
}

/// Warm planners of one grid, by spec label: each owns its search context.
struct Planners<'g>(HashMap<String, Box<dyn Planner + Send + 'g>>);

self_cell!(
    struct PlannerCache {
        owner: Arc<Grid>,
        #[not_covariant]
        dependent: Planners,
    }
);

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
    grid: Arc<Grid>,
    planners: Mutex<PlannerCache>,
    /// The grid's navigation mesh and CPD, made on first use.
    meshes: Mutex<MapMeshes>,
    /// Which CPD `meshes` holds: `None` before any, `Some(None)` one built here,
    /// `Some(Some(c))` the one given.
    eps_cpd: Mutex<Option<Option<Arc<taut::cpd::Cpd>>>>,
}

impl PyGrid {
    fn new_from(grid: Grid) -> Self {
        let grid = Arc::new(grid);
        PyGrid {
            planners: Mutex::new(PlannerCache::new(
                grid.clone(),
                |_| Planners(HashMap::new()),
            )),
            grid,
            meshes: Mutex::new(MapMeshes::default()),
            eps_cpd: Mutex::new(None),
        }
    }

    /// The grid's mesh (built once).
    pub(crate) fn built_mesh(&self) -> PyResult<Arc<taut::Mesh>> {
        let mut meshes = self.meshes.lock().map_err(|_| value_error("poisoned"))?;
        if meshes.built.is_none() {
            let spec = PlannerSpec::plain(Algo::Polyanya);
            let (made, _) = MapMeshes::prepare(&self.grid, [(spec.algo, &spec.tuning)], None)
                .map_err(setup_error)?;
            meshes.built = made.built;
        }
        Ok(meshes.built.clone().expect("built above"))
    }

    /// The meshes `spec` needs, prepared (the mesh, and for `eps` the CPD: `cpd` if given,
    /// else built in memory on first use).
    fn prepare(&self, spec: &PlannerSpec, cpd: Option<&PyCpd>) -> PyResult<MapMeshes> {
        if spec.algo.needs_mesh() {
            self.built_mesh()?;
        }
        let mut meshes = self.meshes.lock().map_err(|_| value_error("poisoned"))?;
        if spec.algo == Algo::Eps {
            // The CPD prepared now: `Some(None)` when built here, `Some(Some(c))` when given.
            let wanted = cpd.map(|c| c.cpd().clone());
            let mut have = self.eps_cpd.lock().map_err(|_| value_error("poisoned"))?;
            let same = match (&*have, &wanted) {
                (Some(None), None) => true,
                (Some(Some(a)), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            };
            if !same {
                match &wanted {
                    Some(c) => {
                        let mesh = meshes.built.clone().expect("prepared above");
                        let eps = taut::cpd::Eps::new(mesh, c.clone()).map_err(cpd_error)?;
                        meshes.cpd = Some(PreparedCpd {
                            eps: Arc::new(eps),
                            mesh: spec.tuning.mesh,
                            file: None,
                            secs: 0.0,
                            built: false,
                            stats: c.stats(),
                        });
                    }
                    None => {
                        meshes
                            .prepare_cpd([(spec.algo, &spec.tuning)], CpdSource::Build, &NoProgress)
                            .map_err(setup_error)?;
                    }
                }
                *have = Some(wanted);
                // Warm `eps` planners hold the old CPD.
                let mut cache = self.planners.lock().map_err(|_| value_error("poisoned"))?;
                cache.with_dependent_mut(|_, p| p.0.retain(|k, _| !k.starts_with("eps")));
            }
        }
        Ok(meshes.clone())
    }
}

fn point(p: (i64, i64)) -> PyResult<Point> {
    let side = i64::from(MAX_SIDE) + 1;
    if !(-side..=side).contains(&p.0) || !(-side..=side).contains(&p.1) {
        return Err(value_error(format!(
            "point ({}, {}) is off any map",
            p.0, p.1
        )));
    }
    Ok(Point::new(p.0 as i32, p.1 as i32))
}

fn waypoints_array(answer: &Answer) -> Array2<f64> {
    let mut a = Array2::zeros((answer.waypoints.len(), 2));
    for (i, w) in answer.waypoints.iter().enumerate() {
        a[[i, 0]] = f64::from(w.x);
        a[[i, 1]] = f64::from(w.y);
    }
    a
}

/// The answer to one query.
#[pyclass(module = "taut._taut", name = "PathResult", frozen)]
pub struct PathResult {
    /// The path's length (Euclidean; octile for A*); `inf` when unreachable.
    #[pyo3(get)]
    length: f64,
    /// `"found"` or `"unreachable"`.
    #[pyo3(get)]
    status: &'static str,
    /// Nodes the search expanded.
    #[pyo3(get)]
    expanded: u64,
    /// Nodes the search generated.
    #[pyo3(get)]
    generated: u64,
    /// Microseconds the search took.
    #[pyo3(get)]
    time_us: f64,
    waypoints: Array2<f64>,
}

#[pymethods]
impl PathResult {
    /// The waypoints, start and goal included: an `(n, 2)` float array of `(x, y)` (empty
    /// when unreachable).
    #[getter]
    fn waypoints<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        self.waypoints.clone().into_pyarray(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "PathResult(status={:?}, length={}, waypoints={}, expanded={})",
            self.status,
            self.length,
            self.waypoints.nrows(),
            self.expanded
        )
    }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Found => "found",
        Status::Unreachable => "unreachable",
    }
}

#[pymethods]
impl PyGrid {
    /// A grid from a 2-D array of booleans (True = free), rows are y, columns x.
    #[new]
    fn py_new(array: PyReadonlyArray2<'_, bool>) -> PyResult<Self> {
        let a = array.as_array();
        let (h, w) = a.dim();
        if h == 0 || w == 0 || h > MAX_SIDE as usize || w > MAX_SIDE as usize {
            return Err(value_error(format!(
                "a grid needs 1 to {MAX_SIDE} rows and columns, got an array of shape ({h}, {w})"
            )));
        }
        Ok(Self::new_from(Grid::from_fn(w as u32, h as u32, |x, y| {
            a[[y as usize, x as usize]]
        })))
    }

    /// Reads a MovingAI `.map` file; `free` lists the terrain characters that are free.
    #[staticmethod]
    #[pyo3(signature = (path, free = ".GS"))]
    fn from_map(path: PathBuf, free: &str) -> PyResult<Self> {
        let map = MapFile::read(&path).map_err(grid_error)?;
        Ok(Self::new_from(Grid::from_map(
            &map,
            &FreeSet::from_chars(free.as_bytes()),
        )))
    }

    /// Columns.
    #[getter]
    fn width(&self) -> i32 {
        self.grid.width()
    }

    /// Rows.
    #[getter]
    fn height(&self) -> i32 {
        self.grid.height()
    }

    /// The cells as a `(height, width)` boolean array, True for free.
    fn to_numpy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        let (w, h) = (self.grid.width() as usize, self.grid.height() as usize);
        Array2::from_shape_fn((h, w), |(y, x)| self.grid.is_free(x as i32, y as i32))
            .into_pyarray(py)
    }

    /// The grid's navigation mesh (built on first use, then kept).
    fn mesh(&self) -> PyResult<PyMesh> {
        Ok(PyMesh::from_arc(self.built_mesh()?))
    }

    fn __repr__(&self) -> String {
        format!(
            "Grid(width={}, height={}, free_cells={})",
            self.grid.width(),
            self.grid.height(),
            self.grid.free_cells()
        )
    }

    /// The shortest path from `start` to `goal` (lattice points `(x, y)`) by planner `algo`:
    /// `astar`, `theta`, `lazy-theta`, `vg`, `anya`, `polyanya` or `eps`, with its options as
    /// keywords (`cul_de_sac=False`, `intermediate=False`, `history="hash"`, `stop="first"`,
    /// `quality=1.05`); `cpd=` a `taut.Cpd` of `grid.mesh()` for `eps` (else one is built in
    /// memory on first use). The grid keeps one warm planner per planner and options.
    ///
    /// Raises ValueError for an endpoint that is off the map or on a blocked cell, or an
    /// unknown planner or option.
    #[pyo3(signature = (start, goal, algo = "anya", *, cpd = None, **kwargs))]
    fn path(
        &self,
        start: (i64, i64),
        goal: (i64, i64),
        algo: &str,
        cpd: Option<PyRef<'_, PyCpd>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PathResult> {
        let spec = parse_spec(algo, kwargs, &[])?;
        let (s, g) = (point(start)?, point(goal)?);
        let meshes = self.prepare(&spec, cpd.as_deref())?;
        let mut cache = self.planners.lock().map_err(|_| value_error("poisoned"))?;
        let mut answer = Answer::default();
        let mut time_us = 0.0;
        let status = cache.with_dependent_mut(|grid, planners| -> PyResult<Status> {
            if !planners.0.contains_key(&spec.label) {
                let planner =
                    make_planner(spec.algo, grid, &spec.tuning, &meshes).map_err(setup_error)?;
                planners.0.insert(spec.label.clone(), planner);
            }
            let planner = planners.0.get_mut(&spec.label).expect("inserted above");
            let t0 = Instant::now();
            let status = planner.plan(s, g, &mut answer).map_err(query_error)?;
            time_us = t0.elapsed().as_secs_f64() * 1e6;
            Ok(status)
        })?;
        Ok(PathResult {
            length: answer.length,
            status: status_name(status),
            expanded: answer.stats.expanded,
            generated: answer.stats.generated,
            time_us,
            waypoints: waypoints_array(&answer),
        })
    }

    /// Many queries at once: `starts` and `goals` are `(n, 2)` integer arrays of `(x, y)`.
    /// Runs on `threads` threads (default: every core) with the GIL released. Returns a dict
    /// of arrays: `length` (float, `inf` when unreachable or invalid), `status` (int8: 0
    /// found, 1 unreachable, 2 invalid endpoint), `expanded` (uint64), and with
    /// `return_paths=True`, `paths`: a list of `(k, 2)` float arrays. Options as for `path`.
    #[pyo3(signature = (starts, goals, algo = "anya", *, threads = None, return_paths = false, cpd = None, **kwargs))]
    #[allow(clippy::too_many_arguments)]
    fn paths<'py>(
        &self,
        py: Python<'py>,
        starts: PyReadonlyArray2<'py, i64>,
        goals: PyReadonlyArray2<'py, i64>,
        algo: &str,
        threads: Option<usize>,
        return_paths: bool,
        cpd: Option<PyRef<'py, PyCpd>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let spec = parse_spec(algo, kwargs, &[])?;
        let (s, g) = (starts.as_array(), goals.as_array());
        if s.ncols() != 2 || g.ncols() != 2 || s.nrows() != g.nrows() {
            return Err(value_error(format!(
                "starts and goals must be (n, 2) arrays of the same n, got {:?} and {:?}",
                s.dim(),
                g.dim()
            )));
        }
        let queries: Vec<((i64, i64), (i64, i64))> = (0..s.nrows())
            .map(|i| ((s[[i, 0]], s[[i, 1]]), (g[[i, 0]], g[[i, 1]])))
            .collect();
        let meshes = self.prepare(&spec, cpd.as_deref())?;
        let grid = self.grid.clone();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .build()
            .map_err(|e| value_error(e.to_string()))?;
        // Fails only when a mesh planner lacks its mesh, which `prepare` made.
        make_planner(spec.algo, &grid, &spec.tuning, &meshes).map_err(setup_error)?;
        let results: Vec<(f64, i8, u64, Option<Vec<Point>>)> = py.detach(|| {
            pool.install(|| {
                queries
                    .par_iter()
                    .map_init(
                        || {
                            (
                                make_planner(spec.algo, &grid, &spec.tuning, &meshes)
                                    .expect("checked above"),
                                Answer::default(),
                            )
                        },
                        |(planner, answer), &(a, b)| {
                            let (Ok(a), Ok(b)) = (point(a), point(b)) else {
                                return (f64::INFINITY, 2, 0, None);
                            };
                            match planner.plan(a, b, answer) {
                                Ok(st) => (
                                    answer.length,
                                    i8::from(st == Status::Unreachable),
                                    answer.stats.expanded,
                                    return_paths.then(|| answer.waypoints.clone()),
                                ),
                                Err(_) => (f64::INFINITY, 2, 0, return_paths.then(Vec::new)),
                            }
                        },
                    )
                    .collect()
            })
        });
        let out = PyDict::new(py);
        let length: Vec<f64> = results.iter().map(|r| r.0).collect();
        let status: Vec<i8> = results.iter().map(|r| r.1).collect();
        let expanded: Vec<u64> = results.iter().map(|r| r.2).collect();
        out.set_item("length", PyArray1::from_vec(py, length))?;
        out.set_item("status", PyArray1::from_vec(py, status))?;
        out.set_item("expanded", PyArray1::from_vec(py, expanded))?;
        if return_paths {
            let list = PyList::empty(py);
            for r in &results {
                let pts = r.3.as_deref().unwrap_or(&[]);
                let mut a = Array2::zeros((pts.len(), 2));
                for (i, p) in pts.iter().enumerate() {
                    a[[i, 0]] = f64::from(p.x);
                    a[[i, 1]] = f64::from(p.y);
                }
                list.append(a.into_pyarray(py))?;
            }
            out.set_item("paths", list)?;
        }
        Ok(out)
    }

    /// Runs every query of a scenario (`taut.Scenario`) on this grid, one by one with a warm
    /// planner, and returns columns (a dict of arrays, ready for `pandas.DataFrame`):
    /// `index`, `sx`, `sy`, `gx`, `gy`, `octile` (the scenario's optimum on 8-connected
    /// moves), `length`, `status` (0 found, 1 unreachable, 2 invalid), `expanded`, `time_us`.
    ///
    /// Raises ValueError when the scenario is for a map of another size.
    #[pyo3(signature = (scen, algo = "anya", *, cpd = None, **kwargs))]
    fn run_scenario<'py>(
        &self,
        py: Python<'py>,
        scen: PyRef<'py, PyScenario>,
        algo: &str,
        cpd: Option<PyRef<'py, PyCpd>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let spec = parse_spec(algo, kwargs, &[])?;
        let (w, h) = (self.grid.width() as u32, self.grid.height() as u32);
        if let Some(e) = scen
            .scen
            .entries
            .iter()
            .find(|e| (e.width, e.height) != (w, h))
        {
            return Err(value_error(format!(
                "scenario line {} is for a {}x{} map, this grid is {w}x{h}",
                e.line, e.width, e.height
            )));
        }
        let meshes = self.prepare(&spec, cpd.as_deref())?;
        let mut planner =
            make_planner(spec.algo, &self.grid, &spec.tuning, &meshes).map_err(setup_error)?;
        let n = scen.scen.entries.len();
        let (mut length, mut status, mut expanded, mut time_us) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let mut answer = Answer::default();
        for e in &scen.scen.entries {
            let t0 = Instant::now();
            let r = planner.plan(e.start, e.goal, &mut answer);
            time_us.push(t0.elapsed().as_secs_f64() * 1e6);
            match r {
                Ok(st) => {
                    length.push(answer.length);
                    status.push(i8::from(st == Status::Unreachable));
                    expanded.push(answer.stats.expanded);
                }
                Err(_) => {
                    length.push(f64::INFINITY);
                    status.push(2);
                    expanded.push(0);
                }
            }
        }
        let out = scen.columns(py)?;
        out.set_item("length", PyArray1::from_vec(py, length))?;
        out.set_item("status", PyArray1::from_vec(py, status))?;
        out.set_item("expanded", PyArray1::from_vec(py, expanded))?;
        out.set_item("time_us", PyArray1::from_vec(py, time_us))?;
        Ok(out)
    }
}

/// A MovingAI scenario (`.scen`): queries on one map.
#[pyclass(module = "taut._taut", name = "Scenario", frozen)]
pub struct PyScenario {
    scen: Scenario,
}

impl PyScenario {
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let e = &self.scen.entries;
        let out = PyDict::new(py);
        let ints = |f: fn(&taut::grid::ScenEntry) -> i64| -> Vec<i64> { e.iter().map(f).collect() };
        out.set_item(
            "index",
            PyArray1::from_vec(py, (0..e.len() as i64).collect()),
        )?;
        out.set_item("sx", PyArray1::from_vec(py, ints(|q| i64::from(q.start.x))))?;
        out.set_item("sy", PyArray1::from_vec(py, ints(|q| i64::from(q.start.y))))?;
        out.set_item("gx", PyArray1::from_vec(py, ints(|q| i64::from(q.goal.x))))?;
        out.set_item("gy", PyArray1::from_vec(py, ints(|q| i64::from(q.goal.y))))?;
        out.set_item(
            "octile",
            PyArray1::from_vec(py, e.iter().map(|q| q.octile).collect()),
        )?;
        Ok(out)
    }
}

#[pymethods]
impl PyScenario {
    /// Reads a `.scen` file.
    #[staticmethod]
    fn read(path: PathBuf) -> PyResult<Self> {
        Ok(PyScenario {
            scen: Scenario::read(&path).map_err(grid_error)?,
        })
    }

    fn __len__(&self) -> usize {
        self.scen.entries.len()
    }

    /// The map file name of the first query (`arena.map`), or None for an empty scenario.
    #[getter]
    fn map(&self) -> Option<String> {
        self.scen
            .entries
            .first()
            .map(|e| e.map_base_name().to_owned())
    }

    /// The queries as columns: `index`, `sx`, `sy`, `gx`, `gy`, `octile`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.columns(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "Scenario(map={:?}, queries={})",
            self.map().unwrap_or_default(),
            self.scen.entries.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_become_the_registry_names() {
        let spec = |algo: &str, o: &[(&str, OptValue)]| spec_of(algo, o).map(|s| s.label);
        assert_eq!(spec("anya", &[]).unwrap(), "anya");
        assert_eq!(
            spec(
                "anya",
                &[
                    ("cul_de_sac", OptValue::Bool(false)),
                    ("intermediate", OptValue::Bool(true)),
                    ("history", OptValue::Str("hash".into())),
                ]
            )
            .unwrap(),
            "anya:no-cul-de-sac+hash"
        );
        assert_eq!(
            spec("eps", &[("quality", OptValue::Float(1.05))]).unwrap(),
            "eps:q1.05"
        );
        assert_eq!(
            spec("eps", &[("stop", OptValue::Str("optimal".into()))]).unwrap(),
            "eps"
        );
        let e = spec("astar", &[("cul_de_sac", OptValue::Bool(false))]).unwrap_err();
        assert!(e.contains("no option"), "{e}");
        let e = spec("anya", &[("speed", OptValue::Float(2.0))]).unwrap_err();
        assert!(e.starts_with("unknown planner option speed=2"), "{e}");
        assert!(spec("dijkstra", &[]).is_err());
    }
}
