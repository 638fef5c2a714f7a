//! Why a hub index cannot be built, read or used for a map.

use taut_mesh::corner_graph::GraphError;
use thiserror::Error;

/// A hub index that cannot be built, read, written or used with a given map or mesh.
#[derive(Debug, Error)]
pub enum HubError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// The file does not start with the magic number of a taut hub index.
    #[error("not a taut hub index file (wrong magic number)")]
    NotAHub,
    /// The file has another format version.
    #[error(
        "hub index format version {found}, but this program reads version {expected}: rebuild it"
    )]
    Version {
        /// Version in the file.
        found: u32,
        /// Version this program reads and writes.
        expected: u32,
    },
    /// The file ends early.
    #[error("the hub index file is truncated")]
    Truncated,
    /// The checksum does not match: the file was damaged.
    #[error("the hub index file is damaged (checksum mismatch)")]
    Checksum,
    /// The file's checksum holds but its content is inconsistent.
    #[error("the hub index file is corrupt: {0}")]
    Corrupt(String),
    /// The index was built from another mesh than the one given.
    #[error("the hub index was built from another mesh (mesh hash differs)")]
    StaleMesh,
    /// The corner graph of the mesh could not be built.
    #[error("corner graph: {0}")]
    Graph(#[from] GraphError),
    /// The mesh is not a mesh of this grid's free space: it covers the centre of a blocked
    /// cell, or not that of a free one.
    #[error("the mesh does not match the grid at cell ({x}, {y})")]
    MeshMismatch {
        /// Column of the cell.
        x: i32,
        /// Row of the cell.
        y: i32,
    },
    /// The index was built for another grid (a different size or other free cells).
    #[error("the hub index was built for another map (its size or free cells differ)")]
    StaleMap,
    /// No index of the map fits the budget.
    #[error(
        "no hub index of this map fits {budget} bytes: the smallest {} takes {smallest} bytes",
        if *built { "built" } else { "estimated" }
    )]
    BudgetTooSmall {
        /// The budget, in bytes.
        budget: u64,
        /// The smallest size built, or estimated when none was built, in bytes.
        smallest: u64,
        /// Whether `smallest` was built (else estimated).
        built: bool,
    },
    /// The core labels alone passed the budget before they were finished (every index holds
    /// them, so no index fits).
    #[error(
        "no hub index of this map fits {budget} bytes: its core labels alone passed \
         {reached} bytes after {searched} of its {corners} corners"
    )]
    CoreOverBudget {
        /// The budget, in bytes.
        budget: u64,
        /// The bytes of the core labels when the build stopped.
        reached: u64,
        /// The corners whose searches had run.
        searched: usize,
        /// The map's convex corners.
        corners: usize,
    },
    /// A region side that is not from 1 to `MAX_REGION`.
    #[error("regions of {0} × {0} cells: the side must be from 1 to 64")]
    RegionSize(u32),
    /// More label entries than a `u32` offset counts.
    #[error("the point labels have more than 4294967295 entries")]
    TooLarge,
}

impl HubError {
    /// [`HubError::Corrupt`], saying `what` is inconsistent.
    pub(crate) fn corrupt(what: impl Into<String>) -> HubError {
        HubError::Corrupt(what.into())
    }
}

/// Checks the offsets of compressed rows over `total` items (`what`'s labels, for the
/// error): from 0 to `total`, never decreasing.
///
/// # Errors
/// [`HubError::Corrupt`].
pub(crate) fn check_offsets(off: &[u32], total: usize, what: &str) -> Result<(), HubError> {
    if off.first() != Some(&0)
        || off.last().map(|&x| x as usize) != Some(total)
        || off.windows(2).any(|w| w[0] > w[1])
    {
        return Err(HubError::corrupt(format!("{what} label offsets")));
    }
    Ok(())
}
