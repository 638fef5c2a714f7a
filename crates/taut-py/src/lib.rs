//! The Python module `taut` (its compiled part, `taut._taut`): taut's planners from NumPy and
//! notebooks.
//!
//! A thin binding over the facade crate [`taut`]: no planner logic lives here. Each class
//! holds a facade object ([`taut::Map`] for a grid, [`taut::Mesh`], a CPD, a hub index, a
//! [`taut::spherical::SeaMap`]); each call converts its arguments, calls the facade and
//! converts the answer. A `Grid` keeps warm planners (each with its search context) by planner
//! spec, and every call borrows one: single queries, scenarios and each worker of a batch reuse
//! them across calls, as Rust callers do, allocating per result, not per expansion. Every
//! search runs with the GIL released; a batch (`Grid.paths`) runs on the calling thread and
//! helper threads of its own, and stops on Ctrl-C.
//!
//! Build and install with `pip install ./crates/taut-py` (maturin; `pyproject.toml`). The
//! Python side (`python/taut/`) re-exports these classes and adds the `.pyi` stubs.
//!
//! ```
//! // The binding's pure-Rust helpers need no interpreter: planner options from keywords.
//! let spec = _taut::spec_of("anya", &[("cul_de_sac", _taut::OptValue::Bool(false))]).unwrap();
//! assert_eq!(spec.label, "anya:no-cul-de-sac");
//! ```

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

mod errors;
mod grid;
mod grid_state;
mod hub;
mod mesh;
mod sphere;

pub use grid::{OptValue, SpecError, spec_of};

create_exception!(
    _taut,
    FormatError,
    PyValueError,
    "A file is malformed: a map, scenario, mesh, CPD, hub index or GeoJSON area that does not \
     parse, a CPD or hub index of another format version, or one of another map or mesh. The \
     message names the file and the line."
);

create_exception!(
    _taut,
    LimitReached,
    pyo3::exceptions::PyRuntimeError,
    "A search stopped by its limit (`max_expansions=` or `timeout_ms=`) before it ended. \
     Attributes: `kind` (\"expansions\" or \"timeout\"), `expanded` (the expansions done) and \
     `elapsed_ms`."
);

/// The compiled module.
#[pymodule]
fn _taut(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FormatError", m.py().get_type::<FormatError>())?;
    m.add("LimitReached", m.py().get_type::<LimitReached>())?;
    m.add_class::<grid_state::PyGrid>()?;
    m.add_class::<grid::PathResult>()?;
    m.add_class::<grid::PyScenario>()?;
    m.add_class::<mesh::PyMesh>()?;
    m.add_class::<mesh::PyCpd>()?;
    m.add_class::<hub::PyHub>()?;
    m.add_class::<sphere::Raster>()?;
    m.add_class::<sphere::SeaRouteResult>()?;
    m.add_function(wrap_pyfunction!(sphere::port, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The planners `Grid.path` takes, read off the facade's table (`auto` first).
    m.add(
        "ALGOS",
        PyTuple::new(m.py(), taut::registry::PLANNERS.iter().map(|k| k.name))?,
    )?;
    Ok(())
}

/// `OSError` with `message`.
pub(crate) fn os_error(message: impl Into<String>) -> PyErr {
    PyOSError::new_err(message.into())
}

/// `taut.FormatError` with `message`.
pub(crate) fn format_error(message: impl Into<String>) -> PyErr {
    FormatError::new_err(message.into())
}

/// `ValueError` with `message`.
pub(crate) fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}
