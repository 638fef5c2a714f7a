//! The facade's typed errors as Python exceptions: `OSError` for files that cannot be read or
//! written, `taut.FormatError` for malformed ones (and for a CPD or hub index of another map
//! or mesh), `ValueError` for bad queries and options. The message is the facade's own one
//! line.

use pyo3::PyErr;
use taut::cpd::CpdError;
use taut::grid::GridError;
use taut::hub::HubError;
use taut::mesh::MeshError;
use taut::spherical::{AreaError, PassageError, SeaError};
use taut::{QueryError, SetupError};

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

/// What a planner needs that cannot be had (`taut::SetupError`): a file that cannot be read
/// is an `OSError`; a malformed mesh, CPD or hub index file, or a CPD or index of another map
/// or mesh, a `taut.FormatError`; the rest (a mesh or CPD that cannot be built, a mesh of
/// another map, a planner option that wants a mesh file) a `ValueError`. The message is the
/// facade's, naming the file.
pub(crate) fn setup_error(e: SetupError) -> PyErr {
    match e {
        SetupError::MeshRead(e) => mesh_error(e),
        SetupError::CpdFile {
            source: CpdError::Io { .. },
            ..
        }
        | SetupError::HubFile {
            source: HubError::Io { .. },
            ..
        } => os_error(e.to_string()),
        SetupError::CpdFile { .. }
        | SetupError::HubFile { .. }
        | SetupError::HubStale(_)
        | SetupError::CpdBuild(CpdError::StaleMesh { .. })
        | SetupError::HubBuild(HubError::StaleMesh | HubError::StaleMap) => {
            format_error(e.to_string())
        }
        SetupError::HubBuild(HubError::Io { .. }) | SetupError::CpdBuild(CpdError::Io { .. }) => {
            os_error(e.to_string())
        }
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

/// Issues a `DeprecationWarning` pointing at the caller's line.
pub(crate) fn deprecated(py: pyo3::Python<'_>, message: &std::ffi::CStr) -> pyo3::PyResult<()> {
    let category = py.get_type::<pyo3::exceptions::PyDeprecationWarning>();
    PyErr::warn(py, &category, message, 1)
}
