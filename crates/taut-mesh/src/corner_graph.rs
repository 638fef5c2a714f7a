//! The co-visible corner graph: one node per convex corner, an edge between two corners that
//! see each other, weighted by their Euclidean distance.

use rayon::prelude::*;
use smallvec::SmallVec;
use thiserror::Error;

use crate::corners::{Corners, NO_CORNER};
use crate::{Mesh, MeshPoint, VisibilitySearch, Visible};

/// An undirected geometric graph in compressed sparse rows: node positions and, for each
/// node, its neighbours in increasing order. Edge weights are the Euclidean distances between
/// the ends (computed, not stored). Immutable, `Send + Sync`.
#[derive(Debug, Clone)]
pub struct Graph {
    points: Vec<MeshPoint>,
    off: Vec<u32>,
    nbr: Vec<u32>,
    /// For each node of a mesh's corner graph, the ends of its obstacle edges (empty for a
    /// plain geometric graph, and for a graph read from a file): lets the CPD build skip
    /// relaxations that are not taut. A build-time hint derived from the mesh, not part of
    /// the graph's identity (ignored by `==`).
    turns: Vec<[MeshPoint; 2]>,
}

impl PartialEq for Graph {
    fn eq(&self, other: &Graph) -> bool {
        self.points == other.points && self.off == other.off && self.nbr == other.nbr
    }
}

impl Graph {
    /// The co-visible graph of a mesh's convex corners (§3.1 of the paper): node `c` is
    /// corner `c` of `corners` (which must be `Corners::of(mesh)`), and two corners are
    /// joined when the straight segment between them stays in the mesh, arriving in each
    /// corner's own sector. One observable-only visibility search per corner, in parallel on
    /// the current rayon pool; the result does not depend on the number of threads.
    ///
    /// # Errors
    /// [`GraphError::TooLarge`] when the graph has more than `u32::MAX` edge ends.
    pub fn build(mesh: &Mesh, corners: &Corners) -> Result<Graph, GraphError> {
        Self::build_with(mesh, corners, &|_| {})
    }

    /// [`Graph::build`], calling `tick(k)` as each batch of `k` corners is done.
    ///
    /// # Errors
    /// As [`Graph::build`].
    pub fn build_with(
        mesh: &Mesh,
        corners: &Corners,
        tick: &(dyn Fn(u64) + Sync),
    ) -> Result<Graph, GraphError> {
        let n = corners.len();
        let lists: Vec<Vec<u32>> = (0..n as u32)
            .into_par_iter()
            .map_init(VisibilitySearch::new, |vis, c| {
                let row = visible_corners(mesh, corners, c, vis);
                tick(1);
                row
            })
            .collect();
        // Visibility is symmetric, and the searches decide it exactly; the union below only
        // guards the CSR invariant (tests check that no edge is one-sided).
        let mut sym: Vec<Vec<u32>> = lists.clone();
        for (u, l) in lists.iter().enumerate() {
            for &v in l {
                sym[v as usize].push(u as u32);
            }
        }
        for l in &mut sym {
            l.sort_unstable();
            l.dedup();
        }
        let points = corners.points().to_vec();
        let mut g = Graph::from_lists(points, sym)?;
        g.turns = corners.wedge_points().to_vec();
        Ok(g)
    }

    /// A graph from node positions and undirected edges (each listed once or twice, in any
    /// order; duplicates are merged).
    ///
    /// # Errors
    /// [`GraphError`] when an edge names a node out of range or joins a node to itself, or
    /// there are more than `u32::MAX` edge ends.
    pub fn from_points_and_edges(
        points: Vec<MeshPoint>,
        edges: &[(u32, u32)],
    ) -> Result<Graph, GraphError> {
        let n = points.len();
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n];
        for &(u, v) in edges {
            if u as usize >= n || v as usize >= n {
                return Err(GraphError::NodeOutOfRange {
                    node: u.max(v),
                    nodes: n,
                });
            }
            if u == v {
                return Err(GraphError::SelfLoop { node: u });
            }
            lists[u as usize].push(v);
            lists[v as usize].push(u);
        }
        for l in &mut lists {
            l.sort_unstable();
            l.dedup();
        }
        Self::from_lists(points, lists)
    }

    /// A graph from positions and each node's neighbour list (sorted or not, without
    /// duplicates, symmetric: `v` in `u`'s list exactly when `u` is in `v`'s).
    ///
    /// # Errors
    /// [`GraphError`] when the lists are not symmetric, repeat a neighbour, name a node out
    /// of range or the node itself.
    pub fn from_lists(
        points: Vec<MeshPoint>,
        mut lists: Vec<Vec<u32>>,
    ) -> Result<Graph, GraphError> {
        if lists.len() != points.len() {
            return Err(GraphError::Count {
                lists: lists.len(),
                nodes: points.len(),
            });
        }
        let mut off = Vec::with_capacity(points.len() + 1);
        let mut nbr = Vec::new();
        off.push(0u32);
        for l in &mut lists {
            l.sort_unstable();
            nbr.extend_from_slice(l);
            let end = u32::try_from(nbr.len()).map_err(|_| GraphError::TooLarge)?;
            off.push(end);
        }
        Self::from_csr(points, off, nbr)
    }

    /// A graph from positions and compressed sparse rows, validated: `off` has one entry
    /// more than there are nodes, starts at 0 and never decreases, ends at `nbr.len()`; each
    /// row is strictly increasing, in range, without the node itself; the rows are symmetric.
    ///
    /// # Errors
    /// [`GraphError`] naming the first violation.
    pub fn from_csr(
        points: Vec<MeshPoint>,
        off: Vec<u32>,
        nbr: Vec<u32>,
    ) -> Result<Graph, GraphError> {
        let n = points.len();
        if off.len() != n + 1 || off[0] != 0 || off[n] as usize != nbr.len() {
            return Err(GraphError::BadOffsets);
        }
        for u in 0..n {
            let (a, b) = (off[u] as usize, off[u + 1] as usize);
            if a > b || b > nbr.len() {
                return Err(GraphError::BadOffsets);
            }
            let row = &nbr[a..b];
            for (k, &v) in row.iter().enumerate() {
                if v as usize >= n {
                    return Err(GraphError::NodeOutOfRange { node: v, nodes: n });
                }
                if v as usize == u {
                    return Err(GraphError::SelfLoop { node: v });
                }
                if k > 0 && row[k - 1] >= v {
                    return Err(GraphError::Unsorted { node: u as u32 });
                }
            }
        }
        let g = Graph {
            points,
            off,
            nbr,
            turns: Vec::new(),
        };
        for u in 0..n as u32 {
            for &v in g.neighbours(u) {
                if g.neighbours(v).binary_search(&u).is_err() {
                    return Err(GraphError::Asymmetric { from: u, to: v });
                }
            }
        }
        Ok(g)
    }

    /// The obstacle wedges of a mesh corner graph's nodes (see [`Corners::wedge`]), if known:
    /// the CPD build then relaxes only taut continuations.
    #[inline]
    pub fn turns(&self) -> Option<&[[MeshPoint; 2]]> {
        (!self.turns.is_empty()).then_some(&self.turns[..])
    }

    /// Each edge's length, in the order of the concatenated neighbour lists of
    /// [`Graph::csr`].
    pub fn edge_weights(&self) -> Vec<f64> {
        let mut w = Vec::with_capacity(self.nbr.len());
        for u in 0..self.node_count() as u32 {
            let p = self.point(u);
            w.extend(self.neighbours(u).iter().map(|&v| p.dist(self.point(v))));
        }
        w
    }

    /// Number of nodes.
    #[inline]
    pub fn node_count(&self) -> usize {
        self.points.len()
    }

    /// Number of undirected edges.
    #[inline]
    pub fn edge_count(&self) -> usize {
        self.nbr.len() / 2
    }

    /// Position of node `u`.
    #[inline]
    pub fn point(&self, u: u32) -> MeshPoint {
        self.points[u as usize]
    }

    /// Positions of all nodes.
    #[inline]
    pub fn points(&self) -> &[MeshPoint] {
        &self.points
    }

    /// Neighbours of `u`, increasing.
    #[inline]
    pub fn neighbours(&self, u: u32) -> &[u32] {
        &self.nbr[self.off[u as usize] as usize..self.off[u as usize + 1] as usize]
    }

    /// The row offsets (`node_count() + 1` entries) and the concatenated neighbour lists.
    #[inline]
    pub fn csr(&self) -> (&[u32], &[u32]) {
        (&self.off, &self.nbr)
    }

    /// Length of the edge from `u` to `v` (their distance).
    #[inline]
    pub fn weight(&self, u: u32, v: u32) -> f64 {
        self.points[u as usize].dist(self.points[v as usize])
    }

    /// Largest number of neighbours of one node.
    pub fn max_degree(&self) -> usize {
        self.off
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.points.len() * std::mem::size_of::<MeshPoint>() + (self.off.len() + self.nbr.len()) * 4
    }
}

/// The corners visible from corner `c` (looking into its own sector), increasing.
pub fn visible_corners(
    mesh: &Mesh,
    corners: &Corners,
    c: u32,
    vis: &mut VisibilitySearch,
) -> Vec<u32> {
    let polys: SmallVec<[u32; 16]> = corners.sector_polygons(mesh, c).collect();
    vis.start_at_vertex(mesh, corners.vertex(c), &polys, None, &[]);
    let mut out = Vec::new();
    while let Some(seen) = vis.next(mesh, f64::INFINITY) {
        if let Visible::Vertex { vertex, poly } = seen {
            let d = corners.at(mesh, vertex, poly);
            if d != NO_CORNER && d != c {
                out.push(d);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

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
