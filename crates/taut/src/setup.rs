//! Why what a planner needs (mesh, CPD, hub index) could not be had.

use std::path::PathBuf;

#[cfg(feature = "cpd")]
use taut_cpd::CpdError;
#[cfg(feature = "hub")]
use taut_hub::HubError;

/// What a planner needs could not be built or read, or does not belong to the map.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// Building the mesh of the grid failed.
    #[error("building the mesh of the map failed: {0}")]
    MeshBuild(#[source] taut_mesh::BuildError),
    /// Reading the given mesh failed.
    #[error(transparent)]
    MeshRead(#[from] taut_mesh::MeshError),
    /// The given mesh does not cover the map's free space.
    #[error(
        "{} is not a mesh of this map: it covers an area of {area} within {lo:?}..{hi:?}, the map has {free} free cells within (0, 0)..({width}, {height})",
        path.display()
    )]
    Mismatch {
        /// The mesh file.
        path: PathBuf,
        /// The mesh's area.
        area: f64,
        /// Its bounding box.
        lo: (f64, f64),
        /// Its bounding box.
        hi: (f64, f64),
        /// The map's free cells.
        free: u64,
        /// Map width.
        width: i32,
        /// Map height.
        height: i32,
    },
    /// The planner wants a given mesh but none was named.
    #[error(
        "this planner needs a mesh file here (--mesh FILE, or a `meshes` directory in the suite)"
    )]
    NoneGiven,
    /// A CPD file could not be read, or belongs to another mesh.
    #[cfg(feature = "cpd")]
    #[error("{}: {}", path.display(), cpd_detail(source))]
    CpdFile {
        /// The CPD file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: CpdError,
    },
    /// A CPD could not be built, or one given in memory does not fit the mesh.
    #[cfg(feature = "cpd")]
    #[error("building the CPD of the map failed: {0}")]
    CpdBuild(#[source] CpdError),
    /// A hub index file could not be read, or belongs to another map or mesh.
    #[cfg(feature = "hub")]
    #[error("{}: {}", path.display(), hub_detail(source))]
    HubFile {
        /// The index file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: HubError,
    },
    /// A hub index could not be built, or one given in memory does not fit the map.
    #[cfg(feature = "hub")]
    #[error("building the hub index of the map failed: {0}")]
    HubBuild(#[source] HubError),
    /// A hub index was built for another map.
    #[cfg(feature = "hub")]
    #[error("{0}")]
    HubStale(#[source] HubError),
}

/// A CPD error without the path that [`SetupError::CpdFile`] names already.
#[cfg(feature = "cpd")]
fn cpd_detail(e: &CpdError) -> String {
    match e {
        CpdError::Io { source, .. } => source.to_string(),
        e => e.to_string(),
    }
}

/// A hub error without the path that [`SetupError::HubFile`] names already.
#[cfg(feature = "hub")]
fn hub_detail(e: &HubError) -> String {
    match e {
        HubError::Io { source, .. } => source.to_string(),
        e => e.to_string(),
    }
}
