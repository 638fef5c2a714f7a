//! The column order of the first-move rows: a depth-first preorder of the graph.
//!
//! Run-length encoding compresses a row well when targets with the same first move sit next
//! to each other. Strasser, Botea and Harabor (JAIR 2015) found a depth-first order of the
//! graph gives long runs: nodes close in the order are close in the graph, so they tend to
//! be reached through the same out-edge. On corner graphs, which are dense (a corner sees
//! corners far across the map), a DFS taking neighbours in id order jumps about; taking them
//! **nearest first** keeps consecutive columns close in the plane, where first moves agree.
//! Measured on StarCraft's Legacy (4,714 corners): 297 runs per row in id order, 180 in
//! Hilbert-curve order, 110 nearest first (`docs/cpd.md`).

use taut_mesh::corner_graph::Graph;

/// A permutation of the nodes: each node's column in the first-move rows, and each column's
/// node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeOrder {
    column: Vec<u32>,
    node: Vec<u32>,
}

impl NodeOrder {
    /// The depth-first preorder of `graph`: roots in increasing id, each node's neighbours
    /// nearest first, ties by id (the order a recursive DFS would give; computed
    /// iteratively, so deep graphs do not overflow the stack). Deterministic.
    pub fn dfs(graph: &Graph) -> NodeOrder {
        let n = graph.node_count();
        let mut column = vec![u32::MAX; n];
        let mut node = Vec::with_capacity(n);
        // (node, index of the next neighbour to try)
        let mut stack: Vec<(u32, u32)> = Vec::new();
        // Each node's neighbours, nearest first (ties by id).
        let (off, nbr) = graph.csr();
        let mut by_distance = nbr.to_vec();
        for u in 0..n {
            let p = graph.point(u as u32);
            by_distance[off[u] as usize..off[u + 1] as usize].sort_by(|&a, &b| {
                p.dist(graph.point(a))
                    .total_cmp(&p.dist(graph.point(b)))
                    .then(a.cmp(&b))
            });
        }
        for root in 0..n as u32 {
            if column[root as usize] != u32::MAX {
                continue;
            }
            column[root as usize] = node.len() as u32;
            node.push(root);
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let (u, i) = *top;
                if i as usize == graph.neighbours(u).len() {
                    stack.pop();
                    continue;
                }
                top.1 += 1;
                let v = by_distance[off[u as usize] as usize + i as usize];
                if column[v as usize] == u32::MAX {
                    column[v as usize] = node.len() as u32;
                    node.push(v);
                    stack.push((v, 0));
                }
            }
        }
        NodeOrder { column, node }
    }

    /// The order given by each node's column, or `None` when `column` is not a permutation
    /// of `0..column.len()`.
    pub fn from_columns(column: Vec<u32>) -> Option<NodeOrder> {
        let mut node = vec![u32::MAX; column.len()];
        for (u, &c) in column.iter().enumerate() {
            let slot = node.get_mut(c as usize)?;
            if *slot != u32::MAX {
                return None;
            }
            *slot = u as u32;
        }
        Some(NodeOrder { column, node })
    }

    /// Number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.column.len()
    }

    /// Whether there are no nodes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.column.is_empty()
    }

    /// The column of node `u`.
    #[inline]
    pub fn column(&self, u: u32) -> u32 {
        self.column[u as usize]
    }

    /// The node in column `c`.
    #[inline]
    pub fn node_at(&self, c: u32) -> u32 {
        self.node[c as usize]
    }

    /// Every node's column, by node.
    #[inline]
    pub fn columns(&self) -> &[u32] {
        &self.column
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taut_mesh::MeshPoint;

    fn graph(n: usize, edges: &[(u32, u32)]) -> Graph {
        let pts = (0..n)
            .map(|i| MeshPoint::new(i as f64, (i * i) as f64))
            .collect();
        Graph::from_points_and_edges(pts, edges).unwrap()
    }

    /// A plain recursive DFS, the definition the iterative one must match.
    fn recursive(g: &Graph) -> Vec<u32> {
        fn go(g: &Graph, u: u32, seen: &mut Vec<bool>, out: &mut Vec<u32>) {
            seen[u as usize] = true;
            out.push(u);
            let p = g.point(u);
            let mut nb = g.neighbours(u).to_vec();
            nb.sort_by(|&a, &b| {
                p.dist(g.point(a))
                    .total_cmp(&p.dist(g.point(b)))
                    .then(a.cmp(&b))
            });
            for v in nb {
                if !seen[v as usize] {
                    go(g, v, seen, out);
                }
            }
        }
        let mut seen = vec![false; g.node_count()];
        let mut out = Vec::new();
        for r in 0..g.node_count() as u32 {
            if !seen[r as usize] {
                go(g, r, &mut seen, &mut out);
            }
        }
        out
    }

    #[test]
    fn matches_a_recursive_dfs() {
        let mut state = 12345u64;
        for n in 0..40usize {
            let mut edges = Vec::new();
            for u in 0..n as u32 {
                for v in u + 1..n as u32 {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if (state >> 33).is_multiple_of(7) {
                        edges.push((u, v));
                    }
                }
            }
            let g = graph(n, &edges);
            let o = NodeOrder::dfs(&g);
            let want = recursive(&g);
            let got: Vec<u32> = (0..n as u32).map(|c| o.node_at(c)).collect();
            assert_eq!(got, want);
            for u in 0..n as u32 {
                assert_eq!(o.node_at(o.column(u)), u);
            }
            assert_eq!(NodeOrder::from_columns(o.columns().to_vec()), Some(o));
        }
    }

    #[test]
    fn from_columns_refuses_non_permutations() {
        assert!(NodeOrder::from_columns(vec![0, 0]).is_none());
        assert!(NodeOrder::from_columns(vec![0, 2]).is_none());
        assert!(NodeOrder::from_columns(vec![1, 0]).is_some());
    }
}
