//! TEMPORARY full first-move table (replaced by the run-length-encoded CPD on merge).
#![allow(missing_docs)]

use crate::graph::Graph;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Arrived,
    Direct,
    Via(u32),
}

#[derive(Debug)]
pub struct Cpd {
    graph: Graph,
    next: Vec<u32>,
}

impl Cpd {
    pub fn from_graph(graph: Graph) -> Cpd {
        let n = graph.node_count();
        let mut next = vec![u32::MAX; n * n];
        for s in 0..n as u32 {
            let mut dist = vec![f64::INFINITY; n];
            let mut first = vec![u32::MAX; n];
            let mut done = vec![false; n];
            dist[s as usize] = 0.0;
            loop {
                let mut u = u32::MAX;
                for v in 0..n {
                    if !done[v] && dist[v] < f64::INFINITY && (u == u32::MAX || dist[v] < dist[u as usize]) {
                        u = v as u32;
                    }
                }
                if u == u32::MAX {
                    break;
                }
                done[u as usize] = true;
                for &v in graph.neighbours(u) {
                    let d = dist[u as usize] + graph.weight(u, v);
                    if d < dist[v as usize] {
                        dist[v as usize] = d;
                        first[v as usize] = if u == s { v } else { first[u as usize] };
                    }
                }
            }
            for t in 0..n {
                next[s as usize * n + t] = first[t];
            }
        }
        Cpd { graph, next }
    }
    pub fn first_move(&self, s: u32, t: u32) -> Move {
        if s == t {
            return Move::Arrived;
        }
        let n = self.graph.node_count();
        let x = self.next[s as usize * n + t as usize];
        if x == t { Move::Direct } else if x == u32::MAX { Move::Via(u32::MAX) } else { Move::Via(x) }
    }
    pub fn graph(&self) -> &Graph {
        &self.graph
    }
}
