//! The facade's typed errors as Python exceptions: `OSError` for files that cannot be read or
//! written, `taut.FormatError` for malformed ones (and for a CPD or hub index of another map
//! or mesh), `ValueError` for bad queries and options. The message is the facade's own one
//! line.

use pyo3::PyErr;
use taut::QueryError;
use taut::cpd::CpdError;
use taut::grid::GridError;
use taut::hub::HubError;
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

/// A hub index error: a file that cannot be read or written is an `OSError`; a file that is
/// not a whole hub index of this format version, or an index of another map or mesh, a
/// `taut.FormatError`; an index that cannot be built (a budget too small, a region side out
/// of range, a map too big for the labels' offsets) a `ValueError`.
pub(crate) fn hub_error(e: HubError) -> PyErr {
    match e {
        HubError::Io { .. } => os_error(e.to_string()),
        HubError::NotAHub
        | HubError::Version { .. }
        | HubError::Truncated
        | HubError::Checksum
        | HubError::Corrupt(_)
        | HubError::StaleMesh
        | HubError::StaleMap => format_error(e.to_string()),
        _ => value_error(e.to_string()),
    }
}

pub(crate) fn setup_error(e: MeshSetupError) -> PyErr {
    match e {
        MeshSetupError::Read(e) => mesh_error(e),
        MeshSetupError::Cpd { .. } | MeshSetupError::Hub { .. } => format_error(e.to_string()),
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
