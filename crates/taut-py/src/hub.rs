//! `taut.Hub`: hub label indexes, for exact answers in microseconds (`grid.path(...,
//! algo="hub", hub=h)`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use taut::hub::{HubError, HubIndex, read_hub, write_hub};

use crate::errors::hub_error;
use crate::grid_state::PyGrid;
use crate::value_error;

/// A hub index file's error with the file named (I/O errors name it already).
fn in_file(path: &Path, e: HubError) -> PyErr {
    match e {
        HubError::Io { .. } => hub_error(e),
        e => crate::format_error(format!("{}: {e}", path.display())),
    }
}

/// A budget given as bytes (an int) or as text (`"64MB"`, `"2GB"`, `"1.5GiB"`).
fn budget_bytes(budget: &Bound<'_, PyAny>) -> PyResult<u64> {
    if budget.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(
            "budget must be a size: an int of bytes or a str such as '64MB', got a bool",
        ));
    }
    if budget.is_instance_of::<PyString>() {
        let text: String = budget.extract()?;
        return taut::cpd::estimate::parse_size(&text)
            .map_err(|e| value_error(format!("budget: {e}")));
    }
    match budget.extract::<i128>() {
        Ok(n) if n > 0 => Ok(u64::try_from(n).unwrap_or(u64::MAX)),
        Ok(n) => Err(value_error(format!(
            "budget must be a positive number of bytes, got {n}"
        ))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "budget must be a size: an int of bytes or a str such as '64MB', got {}",
            budget.repr()?
        ))),
    }
}

/// Hub labels of one grid map: for every lattice point its distances to a few hubs (convex
/// corners), so that a query merges two short lists and answers exactly, in microseconds.
///
/// Build it once (`Hub.build(grid)`, on the grid's own mesh `grid.mesh()`), save it, and load
/// it in later sessions; query it with `grid.path(s, g, algo="hub", hub=h)`, `grid.paths`
/// or `grid.run_scenario`. A hub of another map or mesh is refused when used
/// (`taut.FormatError`), never answered from. `region=` and `budget=` trade memory for
/// speed: labels shared by regions of cells, still exact.
///
/// >>> import numpy as np, taut
/// >>> cells = np.ones((4, 6), dtype=bool); cells[1, 1:3] = False
/// >>> grid = taut.Grid(cells)
/// >>> hub = taut.Hub.build(grid)
/// >>> round(grid.path((0, 1), (3, 2), "hub", hub=hub).length, 6)  # under the block, 2 + √2
/// 3.414214
#[pyclass(module = "taut._taut", name = "Hub", frozen)]
pub struct PyHub {
    index: Arc<HubIndex>,
    /// The file it was read from, to name in messages.
    file: Option<PathBuf>,
}

impl PyHub {
    /// The index.
    pub(crate) fn index(&self) -> &Arc<HubIndex> {
        &self.index
    }

    /// The file the index was read from, if any.
    pub(crate) fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }
}

#[pymethods]
impl PyHub {
    /// Builds the hub index of `grid` on its mesh (`grid.mesh()`), with the GIL released and
    /// on all cores. Without options every lattice point gets its own label (fastest
    /// queries, largest index); `region=N` (1 to 64) shares labels among regions of N x N
    /// cells (smaller, slower, still exact; 1 is the default); `budget=` (bytes as an int, or
    /// a str such as `"64MB"`, `"2GB"`, `"1.5GiB"`) builds the finest index whose size in
    /// memory and on disk fits it.
    ///
    /// Raises ValueError for both `region` and `budget`, a region side out of range, or a
    /// budget no index fits (the message names the smallest size); TypeError for a budget
    /// that is not a size.
    #[staticmethod]
    #[pyo3(signature = (grid, *, region = None, budget = None))]
    fn build(
        py: Python<'_>,
        grid: PyRef<'_, PyGrid>,
        region: Option<i64>,
        budget: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let budget = budget.map(budget_bytes).transpose()?;
        // Any int is taken, so that a side out of range is the ValueError documented (not
        // pyo3's OverflowError for a negative or huge one).
        let region = region
            .map(|r| {
                u32::try_from(r)
                    .ok()
                    .filter(|g| (1..=64).contains(g))
                    .ok_or_else(|| {
                        value_error(format!(
                            "regions of {r} × {r} cells: the side must be from 1 to 64"
                        ))
                    })
            })
            .transpose()?;
        if region.is_some() && budget.is_some() {
            return Err(value_error(
                "give region= or budget=, not both (a budget chooses the region side)",
            ));
        }
        let mesh = grid.built_mesh(py)?;
        let g = grid.grid_arc();
        drop(grid);
        let index = py
            .detach(|| match (budget, region) {
                (Some(b), _) => HubIndex::build_within(&g, &mesh, b),
                (None, r) => HubIndex::build_with_regions(&g, &mesh, r.unwrap_or(1)),
            })
            .map_err(hub_error)?;
        Ok(PyHub {
            index: Arc::new(index),
            file: None,
        })
    }

    /// Reads a hub index file (`taut hub build`, `Hub.save`), with the GIL released; every
    /// byte is checked (format version, checksum, consistency). Raises OSError when the file
    /// cannot be read, taut.FormatError when it is not a whole hub index of this version.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let index = py
            .detach(|| read_hub(&path))
            .map_err(|e| in_file(&path, e))?;
        Ok(PyHub {
            index: Arc::new(index),
            file: Some(path),
        })
    }

    /// Writes the index to a file, with the GIL released, atomically: into `path.tmp`, then
    /// renamed, so a file at `path` is always whole. Raises OSError when it cannot be written.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let index = self.index.clone();
        py.detach(|| write_hub(&path, &index))
            .map_err(|e| in_file(&path, e))
    }

    /// Columns of the map the index answers.
    #[getter]
    fn width(&self) -> i32 {
        self.index.size().0
    }

    /// Rows of the map the index answers.
    #[getter]
    fn height(&self) -> i32 {
        self.index.size().1
    }

    /// Convex corners of the map's mesh (the hubs).
    #[getter]
    fn corners(&self) -> usize {
        self.index.stats().corners
    }

    /// The side of the regions sharing labels, or None when every lattice point has its own.
    #[getter]
    fn region(&self) -> Option<u32> {
        Some(self.index.region_size()).filter(|&g| g > 1)
    }

    /// Bytes the index holds in memory.
    #[getter]
    fn bytes(&self) -> usize {
        self.index.heap_bytes()
    }

    /// The size a budget counts: the larger of `bytes` and the length of its file.
    #[getter]
    fn size_bytes(&self) -> u64 {
        self.index.size_bytes()
    }

    /// The file it was read from (`Hub.load`), or None when built here.
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.file.clone()
    }

    /// Its sizes as a dict: `corners`, `edges` (of the co-visible corner graph; 0 when read
    /// from a file), `core_entries`, `points` (lattice points with a label), `point_entries`,
    /// `region` (1: the points' own labels), `region_hubs`, `region_vias`, `bytes`.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.index.stats();
        let out = PyDict::new(py);
        out.set_item("corners", s.corners)?;
        out.set_item("edges", s.edges)?;
        out.set_item("core_entries", s.core_entries)?;
        out.set_item("points", s.points)?;
        out.set_item("point_entries", s.point_entries)?;
        out.set_item("region", s.region)?;
        out.set_item("region_hubs", s.region_hubs)?;
        out.set_item("region_vias", s.region_vias)?;
        out.set_item("bytes", s.bytes)?;
        Ok(out)
    }

    fn __repr__(&self) -> String {
        let s = self.index.stats();
        let (w, h) = self.index.size();
        let region = match s.region {
            1 => "None".to_owned(),
            g => g.to_string(),
        };
        format!(
            "Hub(width={w}, height={h}, corners={}, region={region}, bytes={})",
            s.corners, s.bytes
        )
    }
}
