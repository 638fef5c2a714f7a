//! Errors of the corner graph, the compressed path database and its files.

use thiserror::Error;

/// A graph that is not a valid undirected graph in compressed sparse rows.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GraphError {
    /// An edge names a node that does not exist.
    #[error("node {node} is out of range (the graph has {nodes} nodes)")]
    NodeOutOfRange {
        /// The node named.
        node: u32,
        /// Number of nodes.
        nodes: usize,
    },
    /// An edge joins a node to itself.
    #[error("node {node} is its own neighbour")]
    SelfLoop {
        /// The node.
        node: u32,
    },
    /// A neighbour list is not strictly increasing.
    #[error("the neighbours of node {node} are not strictly increasing")]
    Unsorted {
        /// The node.
        node: u32,
    },
    /// `v` is a neighbour of `u` but not the other way round.
    #[error("node {to} is a neighbour of node {from} but not the other way round")]
    Asymmetric {
        /// The node whose list names `to`.
        from: u32,
        /// The node whose list lacks `from`.
        to: u32,
    },
    /// The row offsets do not describe the neighbour array.
    #[error("the row offsets do not describe the neighbour array")]
    BadOffsets,
    /// A different number of neighbour lists than nodes.
    #[error("{lists} neighbour lists for {nodes} nodes")]
    Count {
        /// Lists given.
        lists: usize,
        /// Nodes given.
        nodes: usize,
    },
    /// More edge ends than a `u32` counts.
    #[error("the graph has more than 4294967295 edge ends")]
    TooLarge,
}
