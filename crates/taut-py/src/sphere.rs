//! `taut.sphere.Raster` and `taut.sphere.SeaRoute`: shortest sea routes on the sphere.

use std::path::PathBuf;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use taut::render::geojson::route_geojson;
use taut::render::sphere::End;
use taut::spherical::{
    Area, LatLon, Leg, Ports, SeaMap, SeaRoute, SearchContext, SearchOutcome, SphereGrid,
};
use taut::{FreeSet, Grid, MapFile};

use crate::errors::{area_error, grid_error, passage_error, sea_error};
use crate::value_error;

/// A sea/land raster covering the sphere (a MovingAI `.map`: row 0 touches the North Pole,
/// column 0 starts at 180°W; `.` is sea), ready for routing: its snapping index and its named
/// passages (Suez, Panama, ... on the shared Earth rasters) are made once.
#[pyclass(module = "taut._taut", name = "Raster", frozen)]
pub struct Raster {
    sea: SeaMap,
}

#[pymethods]
impl Raster {
    /// Reads a sphere map; `transposed` for the shared data's `*_T.map` layout.
    #[staticmethod]
    #[pyo3(signature = (path, transposed = false))]
    fn from_map(path: PathBuf, transposed: bool) -> PyResult<Self> {
        let grid = Grid::from_map(
            &MapFile::read(&path).map_err(grid_error)?,
            &FreeSet::default(),
        );
        let sphere = SphereGrid::from_grid_as(&grid, transposed)
            .map_err(|e| value_error(format!("{}: {e}", path.display())))?;
        Ok(Raster {
            sea: SeaMap::new(sphere),
        })
    }

    /// Columns (longitude bands).
    #[getter]
    fn width(&self) -> u32 {
        self.sea.grid().width()
    }

    /// Rows (latitude bands).
    #[getter]
    fn height(&self) -> u32 {
        self.sea.grid().height()
    }

    /// The names of the raster's passages (canals and straits `route(avoid=...)` can close).
    fn passages(&self) -> Vec<String> {
        self.sea.passages().iter().map(|p| p.name.clone()).collect()
    }

    /// The shortest sea route from `start` to `goal`, each `(lat, lon)` in degrees. An end on
    /// land moves to the nearest sea cell (unless `snap=False`: then it is a ValueError).
    /// `avoid` closes named passages (`["suez", "panama"]`) and `avoid_areas` the cells that
    /// the polygons of GeoJSON files touch, for this request only. The ice gates (`bering`,
    /// `northwest-passage`, `northern-sea-route`, `central-arctic`) are closed unless `allow`
    /// names them (`["arctic"]` for all). Releases the GIL while it searches.
    ///
    /// Raises ValueError for an unknown passage, a bad coordinate or an end on land with
    /// `snap=False`; OSError / FormatError for an area file that cannot be read / parsed.
    #[pyo3(signature = (start, goal, *, avoid = Vec::new(), avoid_areas = Vec::new(), allow = Vec::new(), snap = true))]
    // One argument per keyword of the Python signature.
    #[allow(clippy::too_many_arguments)]
    fn route(
        &self,
        py: Python<'_>,
        start: RouteEnd,
        goal: RouteEnd,
        avoid: Vec<String>,
        avoid_areas: Vec<PathBuf>,
        allow: Vec<String>,
        snap: bool,
    ) -> PyResult<SeaRouteResult> {
        let (w, h) = (self.sea.grid().width(), self.sea.grid().height());
        let mut cells = Vec::new();
        for file in &avoid_areas {
            cells.extend(Area::read(file).map_err(area_error)?.cells(w, h));
        }
        let closed;
        let sea = if avoid.is_empty() && allow.is_empty() && cells.is_empty() {
            &self.sea
        } else {
            closed = self
                .sea
                .request(&avoid, &allow, &cells)
                .map_err(passage_error)?;
            &closed
        };
        let (a, b) = (start.point()?, goal.point()?);
        let answer = py
            .detach(|| sea.route(&mut SearchContext::new(), a, b, snap))
            .map_err(sea_error)?;
        // An end in a closed passage moved out of it, often far: a UserWarning says so.
        for e in sea.closed_ends(&answer) {
            let hint = if e.by_default {
                format!("allow=[\"{}\"] to route from there", e.passage)
            } else {
                "avoid= closes it".to_owned()
            };
            let message = format!(
                "the {} is in {}, which is closed: it moved {:.0} km to open water ({hint})",
                e.which, e.passage, e.km
            );
            let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
            let message = std::ffi::CString::new(message).expect("no NUL in the message");
            PyErr::warn(py, &category, &message, 1)?;
        }
        Ok(SeaRouteResult {
            answer,
            avoided: sea.closed_passages().to_vec(),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Raster(width={}, height={}, passages={})",
            self.width(),
            self.height(),
            self.sea.passages().iter().count()
        )
    }
}

/// An end of `Raster.route`: `(lat, lon)` or a port's UN/LOCODE.
#[derive(FromPyObject)]
pub enum RouteEnd {
    /// A port's code.
    Code(String),
    /// Degrees.
    Point((f64, f64)),
}

impl RouteEnd {
    fn point(&self) -> PyResult<LatLon> {
        match self {
            RouteEnd::Point((lat, lon)) => Ok(LatLon::new(*lat, *lon)),
            RouteEnd::Code(code) => Ports::embedded()
                .get(code)
                .map(|p| p.at)
                .map_err(|e| value_error(e.to_string())),
        }
    }
}

/// The port of a UN/LOCODE (`"CNSHA"`): a dict with `code`, `name`, `lat` and `lon`.
///
/// Raises ValueError for an unknown code, suggesting close ones.
#[pyfunction]
pub fn port<'py>(py: Python<'py>, code: &str) -> PyResult<Bound<'py, PyDict>> {
    let p = Ports::embedded()
        .get(code)
        .map_err(|e| value_error(e.to_string()))?;
    let d = PyDict::new(py);
    d.set_item("code", &p.code)?;
    d.set_item("name", &p.name)?;
    d.set_item("lat", p.at.lat)?;
    d.set_item("lon", p.at.lon)?;
    Ok(d)
}

/// A sea route: length, waypoints, legs, the passages it uses, and its GeoJSON.
#[pyclass(module = "taut._taut", name = "SeaRoute", frozen)]
pub struct SeaRouteResult {
    answer: SeaRoute,
    avoided: Vec<String>,
}

fn end(s: &taut::spherical::Snapped) -> End {
    End {
        point: s.point,
        given: s.given,
        snap_km: s.km,
    }
}

#[pymethods]
impl SeaRouteResult {
    /// `"ok"` or `"unreachable"` (the words of `taut.Status` and the command line).
    #[getter]
    fn status(&self) -> &'static str {
        match self.answer.outcome {
            SearchOutcome::Found => "ok",
            SearchOutcome::Unreachable => "unreachable",
        }
    }

    /// Length in km (sphere of radius 6371 km); `inf` when unreachable.
    #[getter]
    fn km(&self) -> f64 {
        self.answer.found().map_or(f64::INFINITY, |r| r.km())
    }

    /// Length in nautical miles; `inf` when unreachable.
    #[getter]
    fn nm(&self) -> f64 {
        self.answer.found().map_or(f64::INFINITY, |r| r.nm())
    }

    /// The start and goal searched from and to, `(lat, lon)`, after snapping.
    #[getter]
    fn ends(&self) -> ((f64, f64), (f64, f64)) {
        let p = |s: &taut::spherical::Snapped| (s.point.lat, s.point.lon);
        (p(&self.answer.from), p(&self.answer.to))
    }

    /// How far snapping moved the start and the goal, km.
    #[getter]
    fn snap_km(&self) -> (f64, f64) {
        (self.answer.from.km, self.answer.to.km)
    }

    /// The turning points and the ends of parallel legs, start and goal included: an
    /// `(n, 2)` float array of `(lat, lon)` degrees.
    #[getter]
    fn waypoints<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let w = self
            .answer
            .found()
            .map(|r| r.waypoints())
            .unwrap_or_default();
        let mut a = Array2::zeros((w.len(), 2));
        for (i, p) in w.iter().enumerate() {
            a[[i, 0]] = p.lat;
            a[[i, 1]] = p.lon;
        }
        a.into_pyarray(py)
    }

    /// The legs: dicts with `kind` (`"great"` or `"parallel"`), `start`, `end` (`(lat, lon)`)
    /// and `km`.
    #[getter]
    fn legs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for leg in self.answer.found().map_or(&[][..], |r| &r.legs[..]) {
            let d = PyDict::new(py);
            let kind = match leg {
                Leg::Great { .. } => "great",
                Leg::Parallel { .. } => "parallel",
            };
            d.set_item("kind", kind)?;
            d.set_item("start", (leg.start().lat, leg.start().lon))?;
            d.set_item("end", (leg.end().lat, leg.end().lon))?;
            d.set_item("km", leg.radians() * taut::spherical::EARTH_RADIUS_KM)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// The named passages the route goes through.
    #[getter]
    fn passages(&self) -> Vec<String> {
        self.answer.passages.clone()
    }

    /// The named passages closed for this request (those avoided, and the ice gates not
    /// allowed).
    #[getter]
    fn avoided(&self) -> Vec<String> {
        self.avoided.clone()
    }

    /// Hours at sea at `speed_knots` (nautical miles per hour); `inf` when unreachable.
    ///
    /// Raises ValueError unless the speed is positive and finite.
    fn eta_hours(&self, speed_knots: f64) -> PyResult<f64> {
        if !(speed_knots.is_finite() && speed_knots > 0.0) {
            return Err(value_error(format!(
                "speed_knots must be positive and finite, not {speed_knots}"
            )));
        }
        Ok(self.nm() / speed_knots)
    }

    /// Nodes the search expanded.
    #[getter]
    fn expanded(&self) -> u64 {
        self.answer.stats.expanded
    }

    /// Microseconds the search took.
    #[getter]
    fn time_us(&self) -> f64 {
        self.answer.time_us
    }

    /// The route as a GeoJSON FeatureCollection (a dict, RFC 7946, `[lon, lat]`), as
    /// `taut route --geojson` writes it: the route densified and split at the antimeridian,
    /// its waypoints, the ends.
    fn geojson<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let doc = route_geojson(
            self.answer.found(),
            &end(&self.answer.from),
            &end(&self.answer.to),
            &self.answer.passages,
        );
        py.import("json")?.call_method1("loads", (doc.to_string(),))
    }

    fn __repr__(&self) -> String {
        format!(
            "SeaRoute(status={:?}, km={:.3}, passages={:?})",
            self.status(),
            self.km(),
            self.answer.passages
        )
    }
}
