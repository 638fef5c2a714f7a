//! `taut.Grid`, `taut.PathResult`, `taut.Scenario`: planning on grid maps.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList};
use taut::grid::{Limit, LimitKind, LimitReached, MAX_SIDE, PlanError, Scenario};
use taut::registry::{Algo, BadPlannerSpec, PlannerSpec};
use taut::{Answer, FreeSet, Grid, MapFile, Point, Status};

use crate::errors::{grid_error, query_error};
use crate::grid_state::{Given, PyGrid, Warm, cores, lock};
use crate::hub::PyHub;
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
/// [`SpecError::UnknownKeyword`] for a keyword that is no planner option (Python raises
/// `TypeError`, as for any unexpected keyword); [`SpecError::Invalid`] for an unknown planner or
/// an option that does not apply to the planner (the registry's message, which lists the
/// planners or the planner's options; `ValueError`); `auto` takes no options.
pub fn spec_of(algo: &str, options: &[(&str, OptValue)]) -> Result<PlannerSpec, SpecError> {
    let mut opts: Vec<String> = Vec::new();
    for (key, value) in options {
        match (*key, value) {
            ("cul_de_sac" | "intermediate", OptValue::Bool(true)) => {}
            ("cul_de_sac", OptValue::Bool(false)) => opts.push("no-cul-de-sac".into()),
            ("intermediate", OptValue::Bool(false)) => opts.push("no-intermediate".into()),
            ("history", OptValue::Str(h)) => opts.push(h.clone()),
            ("stop", OptValue::Str(s)) if s == "optimal" => {}
            ("stop", OptValue::Str(s)) => opts.push(s.clone()),
            ("quality", OptValue::Float(q)) => opts.push(format!("q={q}")),
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
                return Err(SpecError::UnknownKeyword(format!(
                    "unexpected keyword argument {key}={value}: not a planner option (options: \
                     cul_de_sac=False, intermediate=False, history='auto'|'hash'|'flat', \
                     stop='optimal'|'first', quality=F)"
                )));
            }
        }
    }
    let text = if opts.is_empty() {
        algo.to_owned()
    } else {
        format!("{algo}:{}", opts.join("+"))
    };
    text.parse::<PlannerSpec>().map_err(|e| {
        SpecError::Invalid(match e {
            // `auto` picks the planner, so options have none to apply to until one is named.
            BadPlannerSpec::Option { ref planner, .. } if planner == Algo::Auto.name() => format!(
                "{e}: name the planner the options are for (one of: {})",
                taut::registry::names()
            ),
            e => e.to_string(),
        })
    })
}

/// Why planner keywords do not make a planner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// A keyword that is no planner option: `TypeError` in Python.
    UnknownKeyword(String),
    /// An unknown planner, or an option that does not apply to it: `ValueError`.
    Invalid(String),
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpecError::UnknownKeyword(m) | SpecError::Invalid(m) => f.write_str(m),
        }
    }
}

impl SpecError {
    /// The Python exception: `TypeError` for an unknown keyword, else `ValueError`.
    pub fn into_py_err(self) -> PyErr {
        match self {
            SpecError::UnknownKeyword(m) => pyo3::exceptions::PyTypeError::new_err(m),
            SpecError::Invalid(m) => value_error(m),
        }
    }
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
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
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
    spec_of(algo, &borrowed).map_err(SpecError::into_py_err)
}

/// One query's answer as the columns of `Grid.paths` and `Grid.run_scenario` hold it.
#[derive(Clone, Copy)]
struct Row {
    /// The length; `inf` when unreachable, invalid or stopped by the limit.
    length: f64,
    /// 0 ok (found), 1 unreachable, 2 invalid endpoint, 3 stopped by the limit.
    status: i8,
    /// Nodes expanded (0 when invalid).
    expanded: u64,
}

impl Row {
    /// A query with an endpoint off the map or blocked.
    const INVALID: Row = Row {
        length: f64::INFINITY,
        status: 2,
        expanded: 0,
    };

    /// The row of a planner's answer to one query.
    fn of(result: Result<Status, PlanError>, answer: &Answer) -> Row {
        match result {
            Ok(st) => Row {
                length: answer.length,
                status: i8::from(st == Status::Unreachable),
                expanded: answer.stats.expanded,
            },
            Err(PlanError::Limit(l)) => Row {
                length: f64::INFINITY,
                status: 3,
                expanded: l.stats.expanded,
            },
            Err(PlanError::Query(_)) => Row::INVALID,
        }
    }

    /// Puts `rows` into `out` as the arrays `length`, `status` and `expanded`.
    fn columns<'a>(
        out: &Bound<'_, PyDict>,
        rows: impl Iterator<Item = &'a Row> + Clone,
    ) -> PyResult<()> {
        let py = out.py();
        let length: Vec<f64> = rows.clone().map(|r| r.length).collect();
        let status: Vec<i8> = rows.clone().map(|r| r.status).collect();
        let expanded: Vec<u64> = rows.map(|r| r.expanded).collect();
        out.set_item("length", PyArray1::from_vec(py, length))?;
        out.set_item("status", PyArray1::from_vec(py, status))?;
        out.set_item("expanded", PyArray1::from_vec(py, expanded))?;
        Ok(())
    }
}

/// Ctrl-C during a long call: the thread that released the GIL takes it back every
/// [`Interrupt::EVERY`] to let Python look for a pending signal; on one, the work stops after
/// the queries under way and the call raises the signal's exception (`KeyboardInterrupt`).
#[derive(Default)]
struct Interrupt {
    cancelled: AtomicBool,
    error: Mutex<Option<PyErr>>,
}

impl Interrupt {
    /// How often the calling thread looks for a signal.
    const EVERY: Duration = Duration::from_millis(20);

    /// Whether a signal stopped the work.
    fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Takes the GIL back for a moment and lets Python run its signal handlers; on an error
    /// (Ctrl-C's `KeyboardInterrupt`), keeps it and cancels the work.
    fn check(&self) {
        if self.cancelled() {
            return;
        }
        if let Err(e) = Python::attach(|py| py.check_signals()) {
            *self.error.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
            self.cancelled.store(true, Ordering::Relaxed);
        }
    }

    /// Looks for a signal if [`Self::EVERY`] has passed since `last` (then restarts it);
    /// whether the work is to stop.
    fn poll(&self, last: &mut Instant) -> bool {
        if last.elapsed() >= Self::EVERY {
            self.check();
            *last = Instant::now();
        }
        self.cancelled()
    }

    /// `f` over `items` in order on this thread, looking for a signal every [`Self::EVERY`];
    /// stops early when one came (the results are then partial, and [`Self::result`] is the
    /// error).
    fn map_each<I, T>(&self, items: &[I], mut f: impl FnMut(&I) -> T) -> Vec<T> {
        let mut out = Vec::with_capacity(items.len());
        let mut last = Instant::now();
        for item in items {
            if self.poll(&mut last) {
                break;
            }
            out.push(f(item));
        }
        out
    }

    /// The signal's exception, if one stopped the work.
    fn result(self) -> PyResult<()> {
        match self
            .error
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
        {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Given {
    fn of(cpd: Option<&PyCpd>, hub: Option<&PyHub>) -> Self {
        Given {
            cpd: cpd.map(|c| c.cpd().clone()),
            hub: hub.map(|h| h.index().clone()),
            hub_file: hub.and_then(|h| h.file().map(PathBuf::from)),
        }
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

/// A lattice point given as any pair of integers: a tuple, a list, a NumPy array of two.
fn int_pair(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<(i64, i64)> {
    if let Ok(p) = obj.extract::<(i64, i64)>() {
        return Ok(p);
    }
    match obj.extract::<Vec<i64>>() {
        Ok(v) if v.len() == 2 => Ok((v[0], v[1])),
        // Two integers, too big for any map.
        _ if obj
            .extract::<(Bound<'_, PyInt>, Bound<'_, PyInt>)>()
            .is_ok() =>
        {
            Err(value_error(format!("point {} is off any map", obj.repr()?)))
        }
        _ => Err(PyTypeError::new_err(format!(
            "{name} must be a lattice point, two integers (x, y), got {}",
            obj.repr()?
        ))),
    }
}

/// Lattice points from an `(n, 2)` array-like of integers: a NumPy array of any integer type
/// or a list of pairs. Floats are refused rather than truncated.
fn int_pairs<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Vec<(i64, i64)>> {
    let shape_error = |shape: String| {
        value_error(format!(
            "{name} must be an (n, 2) array of (x, y), got shape {shape}"
        ))
    };
    let array = match obj.extract::<PyReadonlyArray2<'py, i64>>() {
        Ok(a) => a,
        Err(_) => {
            let a = obj.py().import("numpy")?.call_method1("asarray", (obj,))?;
            if a.getattr("size")?.extract::<usize>()? == 0 {
                return Ok(Vec::new());
            }
            let dtype = a.getattr("dtype")?;
            if !matches!(
                dtype.getattr("kind")?.extract::<String>()?.as_str(),
                "i" | "u"
            ) {
                return Err(PyTypeError::new_err(format!(
                    "{name} must hold integer lattice points (x, y), got an array of {}",
                    dtype.str()?
                )));
            }
            match a.call_method1("astype", ("int64",))?.extract() {
                Ok(converted) => converted,
                Err(_) => return Err(shape_error(a.getattr("shape")?.str()?.to_string())),
            }
        }
    };
    let a = array.as_array();
    if a.ncols() != 2 {
        return Err(shape_error(format!("{:?}", a.dim())));
    }
    Ok(a.rows().into_iter().map(|r| (r[0], r[1])).collect())
}

fn waypoints_array(waypoints: &[Point]) -> Array2<f64> {
    let mut a = Array2::zeros((waypoints.len(), 2));
    for (i, w) in waypoints.iter().enumerate() {
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
    /// `"ok"` or `"unreachable"` (the words of `taut.Status` and the command line).
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

    /// Draws the path with matplotlib (the `plot` extra): a line through the waypoints, the
    /// start and goal marked, on `ax` (new axes when None); `style` goes to `Axes.plot`.
    /// Returns the axes. `Grid.plot(path=...)` draws the map under it.
    #[pyo3(signature = (ax=None, **style))]
    fn plot<'py>(
        slf: &Bound<'py, Self>,
        ax: Option<Bound<'py, PyAny>>,
        style: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let draw = slf.py().import("taut._plot")?.getattr("path")?;
        draw.call((slf, ax), style)
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

/// The limit of `max_expansions=` and `timeout_ms=`.
fn limit_of(max_expansions: Option<u64>, timeout_ms: Option<f64>) -> PyResult<Limit> {
    let timeout = match timeout_ms {
        None => None,
        Some(ms) if ms.is_finite() && ms >= 0.0 => Some(Duration::from_secs_f64(ms / 1e3)),
        Some(ms) => {
            return Err(value_error(format!(
                "timeout_ms must be a finite number >= 0, got {ms}"
            )));
        }
    };
    Ok(Limit {
        max_expansions,
        timeout,
    })
}

/// One query within `limit` (the plain search when there is none).
fn plan_limited(
    planner: &mut taut::BoxedPlanner,
    (a, b): (Point, Point),
    limit: Limit,
    answer: &mut Answer,
) -> Result<Status, PlanError> {
    if limit.is_none() {
        planner.plan(a, b, answer).map_err(PlanError::from)
    } else {
        planner.plan_within(a, b, limit, answer)
    }
}

/// `taut.LimitReached` for `l`, with its attributes.
fn limit_error(py: Python<'_>, l: &LimitReached) -> PyErr {
    let kind = match l.kind {
        LimitKind::Expansions => "expansions",
        LimitKind::Timeout => "timeout",
    };
    let err = crate::LimitReached::new_err(l.to_string());
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr("kind", kind)?;
        value.setattr("expanded", l.stats.expanded)?;
        value.setattr("elapsed_ms", l.elapsed.as_secs_f64() * 1e3)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Found => "ok",
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
        self.grid().width()
    }

    /// Rows.
    #[getter]
    fn height(&self) -> i32 {
        self.grid().height()
    }

    /// Draws the map with matplotlib (the `plot` extra), free cells light and blocked ones
    /// dark, cell `(x, y)` the unit square from `(x, y)` to `(x + 1, y + 1)`, on `ax` (new
    /// axes when None), with `path` (a `PathResult`) over it. Returns the axes.
    #[pyo3(signature = (ax=None, path=None))]
    fn plot<'py>(
        slf: &Bound<'py, Self>,
        ax: Option<Bound<'py, PyAny>>,
        path: Option<Bound<'py, PathResult>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let draw = slf.py().import("taut._plot")?.getattr("grid")?;
        draw.call1((slf, ax, path))
    }

    /// The cells as a `(height, width)` boolean array, True for free.
    fn to_numpy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        let (w, h) = (self.grid().width() as usize, self.grid().height() as usize);
        Array2::from_shape_fn((h, w), |(y, x)| self.grid().is_free(x as i32, y as i32))
            .into_pyarray(py)
    }

    /// The grid's navigation mesh (built on first use, then kept).
    fn mesh(&self, py: Python<'_>) -> PyResult<PyMesh> {
        Ok(PyMesh::from_arc(self.built_mesh(py)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "Grid(width={}, height={}, free_cells={})",
            self.grid().width(),
            self.grid().height(),
            self.grid().free_cells()
        )
    }
    /// The shortest path from `start` to `goal` (lattice points `(x, y)`) by planner `algo`:
    /// `auto` (the default), `astar`, `theta`, `lazy-theta`, `vg`, `anya`, `ray`, `polyanya`,
    /// `eps` or `hub` (`taut.ALGOS`), with its options as keywords (`cul_de_sac=False`,
    /// `intermediate=False`, `history="hash"`, `stop="first"`, `quality=1.05`); `cpd=` a
    /// `taut.Cpd` of `grid.mesh()` for `eps`, `hub=` a `taut.Hub` of this grid for `hub` (else
    /// one is built in memory on first use and kept by the grid; each is ignored by the
    /// planners other than these and `auto`). The grid keeps warm planners between calls; the
    /// search runs with the GIL released.
    ///
    /// `auto` is the fastest exact planner for what the grid holds: hub labels with `hub=` or
    /// when the grid holds a hub index, End Point Search with `cpd=` or when it holds a CPD,
    /// else Polyanya on the grid's mesh when it is built (`grid.mesh()`, a mesh planner, or a
    /// batch by `auto`, which builds it first unless the map is clutter of scattered blocked
    /// cells, where Anya is faster), else Anya. Every one gives the optimal any-angle length;
    /// `auto` takes no options (name the planner they are for).
    ///
    /// `start` and `goal` are pairs of integers: tuples, lists or NumPy arrays of two.
    ///
    /// `max_expansions=N` and `timeout_ms=MS` bound the search (planners that look answers
    /// up, `eps` and `hub`, are not searches and ignore them): when the bound stops it first,
    /// the call raises `taut.LimitReached`, whose `kind`, `expanded` and `elapsed_ms` say why
    /// and what was done.
    ///
    /// Raises ValueError for an endpoint that is off the map or on a blocked cell, an unknown
    /// planner or an option the planner does not take; TypeError for an unknown keyword or an
    /// end that is not two integers;
    /// taut.FormatError for a CPD or hub of another map or mesh; taut.LimitReached as above.
    #[pyo3(signature = (start, goal, algo = "auto", *, cpd = None, hub = None, max_expansions = None, timeout_ms = None, **kwargs))]
    #[allow(clippy::too_many_arguments)]
    fn path(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        goal: &Bound<'_, PyAny>,
        algo: &str,
        cpd: Option<PyRef<'_, PyCpd>>,
        hub: Option<PyRef<'_, PyHub>>,
        max_expansions: Option<u64>,
        timeout_ms: Option<f64>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PathResult> {
        let spec = parse_spec(algo, kwargs, &[])?;
        let limit = limit_of(max_expansions, timeout_ms)?;
        let (s, g) = (
            point(int_pair(start, "start")?)?,
            point(int_pair(goal, "goal")?)?,
        );
        let given = Given::of(cpd.as_deref(), hub.as_deref());
        // Preparing and the search run without the GIL: other Python threads go on meanwhile.
        py.detach(|| {
            let ready = self.ready(&spec, given, false)?;
            let mut warm = self.take(&ready)?;
            let t0 = Instant::now();
            let status = plan_limited(&mut warm.planner, (s, g), limit, &mut warm.answer);
            let time_us = t0.elapsed().as_secs_f64() * 1e6;
            let result = status.map(|status| PathResult {
                length: warm.answer.length,
                status: status_name(status),
                expanded: warm.answer.stats.expanded,
                generated: warm.answer.stats.generated,
                time_us,
                waypoints: waypoints_array(&warm.answer.waypoints),
            });
            self.planners.give(&ready.key, warm);
            PyResult::Ok(result)
        })?
        .map_err(|e| match e {
            PlanError::Query(q) => query_error(q),
            PlanError::Limit(l) => limit_error(py, &l),
        })
    }

    /// Many queries at once: `starts` and `goals` are `(n, 2)` arrays of `(x, y)` (NumPy
    /// arrays of any integer type, or lists of pairs; float arrays are refused). Runs on
    /// `threads` threads (default: every core), the calling thread among them, with the GIL
    /// released, each on a warm planner kept by the grid between calls; Ctrl-C stops it
    /// (KeyboardInterrupt). Returns a dict of arrays: `length` (float, `inf` when unreachable,
    /// invalid or stopped by the limit), `status` (int8: 0 ok, 1 unreachable, 2 invalid
    /// endpoint, 3 stopped by `max_expansions=` or `timeout_ms=`, each query bounded on its
    /// own; `taut.Status`), `expanded` (uint64: for status 3 the work done), and with
    /// `return_paths=True`, `paths`: a list of `(k, 2)` float arrays. Planners, options,
    /// `cpd=` and `hub=` as for `path`; with `auto` (the default) the grid first builds its
    /// mesh when Polyanya pays on this map.
    #[pyo3(signature = (starts, goals, algo = "auto", *, threads = None, return_paths = false, cpd = None, hub = None, max_expansions = None, timeout_ms = None, **kwargs))]
    #[allow(clippy::too_many_arguments)]
    fn paths<'py>(
        &self,
        py: Python<'py>,
        starts: &Bound<'py, PyAny>,
        goals: &Bound<'py, PyAny>,
        algo: &str,
        threads: Option<usize>,
        return_paths: bool,
        cpd: Option<PyRef<'py, PyCpd>>,
        hub: Option<PyRef<'py, PyHub>>,
        max_expansions: Option<u64>,
        timeout_ms: Option<f64>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let spec = parse_spec(algo, kwargs, &[])?;
        let limit = limit_of(max_expansions, timeout_ms)?;
        let (s, g) = (int_pairs(starts, "starts")?, int_pairs(goals, "goals")?);
        if s.len() != g.len() {
            return Err(value_error(format!(
                "starts and goals must have the same n, got {} and {}",
                s.len(),
                g.len()
            )));
        }
        let queries: Vec<((i64, i64), (i64, i64))> = s.into_iter().zip(g).collect();
        let given = Given::of(cpd.as_deref(), hub.as_deref());
        let threads = match threads {
            None | Some(0) => cores(),
            Some(t) => t,
        };
        let results = py.detach(|| {
            let ready = self.ready(&spec, given, true)?;
            // Taking a planner first reports a planner that cannot be made (a mesh planner
            // without its mesh) before the batch starts.
            let mut first = self.take(&ready)?;
            let answer = |warm: &mut Warm, &(a, b): &((i64, i64), (i64, i64))| {
                let Warm { planner, answer } = warm;
                let (Ok(a), Ok(b)) = (point(a), point(b)) else {
                    return (Row::INVALID, return_paths.then(Vec::new));
                };
                let row = Row::of(plan_limited(planner, (a, b), limit, answer), answer);
                let path = return_paths.then(|| {
                    if row.status < Row::INVALID.status {
                        answer.waypoints.clone()
                    } else {
                        Vec::new()
                    }
                });
                (row, path)
            };
            // This thread answers queries too, looking for Ctrl-C between them, beside
            // `threads - 1` helper threads of this batch alone; each takes the next query by an
            // atomic index. Threads of the batch's own, not a shared pool: a batch never waits
            // behind another thread's batch, and no thread outlives the call.
            let interrupt = Interrupt::default();
            let next = AtomicUsize::new(0);
            let answered = Mutex::new(Vec::with_capacity(queries.len()));
            let work = |warm: &mut Warm, on_caller: bool| {
                let mut mine = Vec::new();
                let mut last = Instant::now();
                // Only the calling thread may take the GIL back; the others see `cancelled`.
                let mut stop = || {
                    if on_caller {
                        interrupt.poll(&mut last)
                    } else {
                        interrupt.cancelled()
                    }
                };
                while !stop() {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(q) = queries.get(i) else { break };
                    mine.push((i, answer(warm, q)));
                }
                lock(&answered).extend(mine);
            };
            let helpers = threads.min(queries.len()).saturating_sub(1);
            std::thread::scope(|scope| {
                for _ in 0..helpers {
                    // A thread the system refuses leaves its share to the others.
                    let _ = std::thread::Builder::new()
                        .name("taut-batch".into())
                        .spawn_scoped(scope, || {
                            if next.load(Ordering::Relaxed) >= queries.len() {
                                return;
                            }
                            let Ok(mut warm) = self.take(&ready) else {
                                return;
                            };
                            work(&mut warm, false);
                            self.planners.give(&ready.key, warm);
                        });
                }
                work(&mut first, true);
            });
            self.planners.give(&ready.key, first);
            interrupt.result()?;
            let mut answered = answered
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner);
            answered.sort_unstable_by_key(|a| a.0);
            PyResult::Ok(answered.into_iter().map(|a| a.1).collect::<Vec<_>>())
        })?;
        let out = PyDict::new(py);
        Row::columns(&out, results.iter().map(|r| &r.0))?;
        if return_paths {
            let list = PyList::empty(py);
            for r in &results {
                list.append(waypoints_array(r.1.as_deref().unwrap_or(&[])).into_pyarray(py))?;
            }
            out.set_item("paths", list)?;
        }
        Ok(out)
    }

    /// Runs every query of a scenario (`taut.Scenario`) on this grid, one by one with a warm
    /// planner, and returns columns (a dict of arrays, ready for `pandas.DataFrame`):
    /// `index`, `sx`, `sy`, `gx`, `gy`, `octile` (the scenario's optimum on 8-connected
    /// moves), `length`, `status` (0 ok, 1 unreachable, 2 invalid, 3 stopped by the
    /// limit), `expanded`, `time_us`. Planners, options, `cpd=`, `hub=`, `max_expansions=`
    /// and `timeout_ms=` (per query) as for `paths`; with `auto` (the default) the grid first
    /// builds its mesh when Polyanya pays on this map.
    ///
    /// Raises ValueError when the scenario is for a map of another size.
    #[pyo3(signature = (scen, algo = "auto", *, cpd = None, hub = None, max_expansions = None, timeout_ms = None, **kwargs))]
    #[allow(clippy::too_many_arguments)]
    fn run_scenario<'py>(
        &self,
        py: Python<'py>,
        scen: PyRef<'py, PyScenario>,
        algo: &str,
        cpd: Option<PyRef<'py, PyCpd>>,
        hub: Option<PyRef<'py, PyHub>>,
        max_expansions: Option<u64>,
        timeout_ms: Option<f64>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let spec = parse_spec(algo, kwargs, &[])?;
        let limit = limit_of(max_expansions, timeout_ms)?;
        let (w, h) = (self.grid().width() as u32, self.grid().height() as u32);
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
        let given = Given::of(cpd.as_deref(), hub.as_deref());
        let entries = &scen.scen.entries;
        // The queries run without the GIL, one by one on one warm planner.
        let rows = py.detach(|| {
            let ready = self.ready(&spec, given, true)?;
            let mut warm = self.take(&ready)?;
            let interrupt = Interrupt::default();
            let Warm { planner, answer } = &mut warm;
            let rows = interrupt.map_each(entries, |e| {
                let t0 = Instant::now();
                let r = plan_limited(planner, (e.start, e.goal), limit, answer);
                let time_us = t0.elapsed().as_secs_f64() * 1e6;
                (Row::of(r, answer), time_us)
            });
            self.planners.give(&ready.key, warm);
            interrupt.result()?;
            PyResult::Ok(rows)
        })?;
        let out = scen.columns(py)?;
        Row::columns(&out, rows.iter().map(|r| &r.0))?;
        let time_us: Vec<f64> = rows.iter().map(|r| r.1).collect();
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
    fn load(path: PathBuf) -> PyResult<Self> {
        Ok(PyScenario {
            scen: Scenario::read(&path).map_err(grid_error)?,
        })
    }

    /// Deprecated spelling of `Scenario.load` (every type loads and saves): warns, then loads.
    #[staticmethod]
    fn read(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        crate::errors::deprecated(py, c"Scenario.read is deprecated: use Scenario.load")?;
        Self::load(path)
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
        let spec = |algo: &str, o: &[(&str, OptValue)]| {
            spec_of(algo, o).map(|s| s.label).map_err(|e| e.to_string())
        };
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
            "eps:q=1.05"
        );
        assert_eq!(
            spec("eps", &[("stop", OptValue::Str("optimal".into()))]).unwrap(),
            "eps"
        );
        let e = spec("astar", &[("cul_de_sac", OptValue::Bool(false))]).unwrap_err();
        assert!(e.contains("no option"), "{e}");
        let e = spec_of("anya", &[("speed", OptValue::Float(2.0))]).unwrap_err();
        assert!(matches!(e, SpecError::UnknownKeyword(_)), "{e}");
        assert!(
            e.to_string()
                .starts_with("unexpected keyword argument speed=2"),
            "{e}"
        );
        let e = spec("dijkstra", &[]).unwrap_err();
        // The registry's message lists every planner of its table.
        for k in taut::registry::PLANNERS {
            assert!(e.contains(k.name), "{e}");
        }
        assert_eq!(spec("auto", &[]).unwrap(), "auto");
        let e = spec("auto", &[("cul_de_sac", OptValue::Bool(false))]).unwrap_err();
        assert!(
            e.contains("auto has no option") && e.contains("polyanya"),
            "{e}"
        );
    }
}
