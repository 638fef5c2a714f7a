//! `taut.Mesh` and `taut.Cpd`: navigation meshes and the compressed path databases End Point
//! Search reads.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use taut::Mesh;
use taut::cpd::{BuildParams, Cpd, NoProgress, build_cpd, read_cpd, write_cpd_atomic};

use crate::errors::{cpd_error, mesh_error};
use crate::grid_state::PyGrid;

/// A CPD file's error with the file named (I/O errors name it already).
fn in_file(path: &std::path::Path, e: taut::cpd::CpdError) -> PyErr {
    match e {
        taut::cpd::CpdError::Io { .. } => cpd_error(e),
        e => crate::format_error(format!("{}: {e}", path.display())),
    }
}

/// A navigation mesh: convex polygons covering a map's free space ("mesh 2" files).
#[pyclass(module = "taut._taut", name = "Mesh", frozen)]
pub struct PyMesh {
    mesh: Arc<Mesh>,
}

impl PyMesh {
    pub(crate) fn from_arc(mesh: Arc<Mesh>) -> Self {
        PyMesh { mesh }
    }
}

#[pymethods]
impl PyMesh {
    /// Reads a "mesh 2" file.
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Self> {
        Ok(PyMesh {
            mesh: Arc::new(taut::mesh::read_mesh(&path).map_err(mesh_error)?),
        })
    }

    /// Deprecated spelling of `Mesh.load` (every type loads and saves): warns, then loads.
    #[staticmethod]
    fn read(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        crate::errors::deprecated(py, c"Mesh.read is deprecated: use Mesh.load")?;
        Self::load(path)
    }

    /// The mesh taut builds from a grid (the one `Grid.mesh()` keeps).
    #[staticmethod]
    fn from_grid(grid: PyRef<'_, PyGrid>) -> PyResult<Self> {
        Ok(PyMesh::from_arc(grid.built_mesh(grid.py())?))
    }

    /// Writes the mesh as a "mesh 2" file.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        taut::mesh::write_mesh(&self.mesh, &path).map_err(mesh_error)
    }

    /// Deprecated spelling of `Mesh.save`: warns, then saves.
    fn write(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        crate::errors::deprecated(py, c"Mesh.write is deprecated: use Mesh.save")?;
        self.save(path)
    }

    /// Number of vertices.
    #[getter]
    fn vertex_count(&self) -> usize {
        self.mesh.vertex_count()
    }

    /// Number of polygons.
    #[getter]
    fn polygon_count(&self) -> usize {
        self.mesh.polygon_count()
    }

    fn __repr__(&self) -> String {
        format!(
            "Mesh(vertices={}, polygons={})",
            self.mesh.vertex_count(),
            self.mesh.polygon_count()
        )
    }
}

/// A compressed path database (CPD) of a mesh's corners, for End Point Search
/// (`grid.path(..., algo="eps", cpd=cpd)`). Build it once (`Cpd.build(grid.mesh())`), save
/// it, and load it in later sessions; a CPD of another mesh is refused when used.
#[pyclass(module = "taut._taut", name = "Cpd", frozen)]
pub struct PyCpd {
    cpd: Arc<Cpd>,
}

impl PyCpd {
    pub(crate) fn cpd(&self) -> &Arc<Cpd> {
        &self.cpd
    }
}

#[pymethods]
impl PyCpd {
    /// Builds the CPD of `mesh` (with the GIL released; on all cores).
    #[staticmethod]
    fn build(py: Python<'_>, mesh: PyRef<'_, PyMesh>) -> PyResult<Self> {
        let mesh = mesh.mesh.clone();
        let cpd = py
            .detach(|| build_cpd(&mesh, &BuildParams::default(), &NoProgress))
            .map_err(cpd_error)?;
        Ok(PyCpd { cpd: Arc::new(cpd) })
    }

    /// Reads a CPD file (`taut cpd build`, `Cpd.save`).
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Self> {
        Ok(PyCpd {
            cpd: Arc::new(read_cpd(&path).map_err(|e| in_file(&path, e))?),
        })
    }

    /// Writes the CPD to a file (atomically: a reader never sees half a file).
    fn save(&self, path: PathBuf) -> PyResult<()> {
        write_cpd_atomic(&path, &self.cpd).map_err(|e| in_file(&path, e))
    }

    /// Corners (nodes) of its graph.
    #[getter]
    fn nodes(&self) -> usize {
        self.cpd.stats().nodes
    }

    fn __repr__(&self) -> String {
        let s = self.cpd.stats();
        format!("Cpd(nodes={}, edges={}, runs={})", s.nodes, s.edges, s.runs)
    }
}
