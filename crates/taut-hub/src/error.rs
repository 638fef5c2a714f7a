//! Why a hub index cannot be built for a map.

use taut_mesh::corner_graph::GraphError;
use thiserror::Error;

/// A hub index that cannot be built.
#[derive(Debug, Error)]
pub enum HubError {
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
    /// More label entries than a `u32` offset counts.
    #[error("the point labels have more than 4294967295 entries")]
    TooLarge,
}
