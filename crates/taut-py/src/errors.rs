//! The facade's typed errors as Python exceptions: `OSError` for files that cannot be read or
//! written, `taut.FormatError` for malformed ones, `ValueError` for bad queries. The message is
//! the facade's own one line.

use pyo3::PyErr;
use taut::QueryError;
use taut::cpd::CpdError;
use taut::grid::GridError;
use taut::mesh::MeshError;
use taut::registry::MeshSetupError;
use taut::spherical::{AreaError, PassageError, SeaError};

use crate::{format_error, os_error, value_error};

pub(crate) fn grid_error(e: GridError) -> PyErr {
    match e {
        GridError::Io { .. } => os_error(e.to_string()),
        GridError::Parse { .. } => format_error(e.to_string()),
    }
}

pub(crate) fn query_error(e: QueryError) -> PyErr {
    value_error(e.to_string())
}

pub(crate) fn mesh_error(e: MeshError) -> PyErr {
    match e {
        MeshError::Io { .. } => os_error(e.to_string()),
        _ => format_error(e.to_string()),
    }
}

pub(crate) fn cpd_error(e: CpdError) -> PyErr {
    match e {
        CpdError::Io { .. } => os_error(e.to_string()),
        _ => format_error(e.to_string()),
    }
}

pub(crate) fn setup_error(e: MeshSetupError) -> PyErr {
    match e {
        MeshSetupError::Read(e) => mesh_error(e),
        MeshSetupError::Cpd { .. } => format_error(e.to_string()),
        _ => value_error(e.to_string()),
    }
}

pub(crate) fn area_error(e: AreaError) -> PyErr {
    match &e {
        AreaError::Io { .. } => os_error(e.to_string()),
        AreaError::File { error, .. } if matches!(**error, AreaError::Io { .. }) => {
            os_error(e.to_string())
        }
        _ => format_error(e.to_string()),
    }
}

pub(crate) fn passage_error(e: PassageError) -> PyErr {
    value_error(e.to_string())
}

pub(crate) fn sea_error(e: SeaError) -> PyErr {
    value_error(e.to_string())
}
