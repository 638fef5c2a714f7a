//! First-move rows: one Dijkstra per source, the set of optimal first moves of every target,
//! run-length encoded in column order.
//!
//! # Ties and the tolerance
//!
//! Several first moves are often optimal: around a row of collinear corners, going straight
//! to the far corner or through the near one has the same geometric length. In floating point
//! the two sums differ in their last bits (`|ab| + |bc|` against `|ac|`), so an exact
//! comparison would keep only one of them, and which one depends on rounding. Ties are what
//! make runs long (a set with several symbols can join the run of either), so a path counts
//! as optimal when its length is at most `best · (1 + tie_tolerance)`. With the default
//! `1e-9`, a path so chosen is longer than the optimum by at most about `1e-9` relative per
//! hop: far below any geometric difference between distinct paths on real maps.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::graph::Graph;
use crate::order::NodeOrder;
use crate::rle::encode_row;

/// Reusable state for computing first-move rows on one thread: flat arrays indexed by node,
/// stamped so that a new row does not clear them, and a binary heap. Once it has computed a
/// row of the graph's largest degree, computing further rows allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct FirstMoveContext {
    /// Tentative distance from the source (valid when `seen == stamp`).
    dist: Vec<f64>,
    /// Row in which the node was reached.
    seen: Vec<u32>,
    /// Row in which the node was settled.
    done: Vec<u32>,
    /// Position of the node in the settling order (valid when `done == stamp`).
    rank: Vec<u32>,
    stamp: u32,
    /// Nodes in the order Dijkstra settled them.
    settled: Vec<u32>,
    /// (distance bits, node): non-negative `f64`s order like their bit patterns.
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    /// The first-move set of each node, `words` words each.
    sets: Vec<u64>,
    /// Every symbol of the current row (the wildcard).
    any: Vec<u64>,
    /// Scratch for the run-length encoder.
    cur: Vec<u64>,
}

impl FirstMoveContext {
    /// An empty context (it grows to the graph on first use).
    pub fn new() -> FirstMoveContext {
        FirstMoveContext::default()
    }

    /// Computes the row of source `s`: appends to `starts` the first column of each run and
    /// to `symbols` its symbol (an out-edge index of `s`, or `u32::MAX` for E), in column
    /// order. `order` must be an order of `graph`'s nodes and `tie_tolerance` finite and
    /// non-negative.
    ///
    /// # Panics
    /// When `s` is not a node of `graph` or `order` has a different number of nodes.
    pub fn row(
        &mut self,
        graph: &Graph,
        order: &NodeOrder,
        tie_tolerance: f64,
        s: u32,
        starts: &mut Vec<u32>,
        symbols: &mut Vec<u32>,
    ) {
        let n = graph.node_count();
        assert!((s as usize) < n, "source {s} out of range");
        assert_eq!(order.len(), n, "the order has a different number of nodes");
        let deg = graph.neighbours(s).len();
        let words = (deg + 1).div_ceil(64);
        self.prepare(n, words);
        self.dijkstra(graph, s);
        self.first_move_sets(graph, s, tie_tolerance, words);

        let e_bit = deg;
        let any = &mut self.any[..words];
        any.fill(0);
        for b in 0..=e_bit {
            any[b / 64] |= 1 << (b % 64);
        }
        let (sets, any, done, stamp) = (&self.sets, &self.any[..words], &self.done, self.stamp);
        encode_row(
            n,
            words,
            e_bit,
            |c| {
                let t = order.node_at(c as u32);
                if t == s || done[t as usize] != stamp {
                    any
                } else {
                    &sets[t as usize * words..][..words]
                }
            },
            &mut self.cur,
            starts,
            symbols,
        );
    }

    fn prepare(&mut self, n: usize, words: usize) {
        if self.dist.len() < n {
            self.dist.resize(n, 0.0);
            self.seen.resize(n, 0);
            self.done.resize(n, 0);
            self.rank.resize(n, 0);
        }
        if self.sets.len() < n * words {
            self.sets.resize(n * words, 0);
        }
        if self.any.len() < words {
            self.any.resize(words, 0);
            self.cur.resize(words, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.done.fill(0);
            self.stamp = 1;
        }
        self.settled.clear();
        self.heap.clear();
    }

    fn dijkstra(&mut self, graph: &Graph, s: u32) {
        let stamp = self.stamp;
        self.seen[s as usize] = stamp;
        self.dist[s as usize] = 0.0;
        self.heap.push(Reverse((0f64.to_bits(), s)));
        while let Some(Reverse((key, u))) = self.heap.pop() {
            let ui = u as usize;
            if self.done[ui] == stamp {
                continue;
            }
            let d = f64::from_bits(key);
            self.done[ui] = stamp;
            self.rank[ui] = self.settled.len() as u32;
            self.settled.push(u);
            for &v in graph.neighbours(u) {
                let vi = v as usize;
                if self.done[vi] == stamp {
                    continue;
                }
                let nd = d + graph.weight(u, v);
                if self.seen[vi] != stamp || nd < self.dist[vi] {
                    self.seen[vi] = stamp;
                    self.dist[vi] = nd;
                    self.heap.push(Reverse((nd.to_bits(), v)));
                }
            }
        }
    }

    /// In settling order, each target's set is the union of the sets of its predecessors on
    /// (near-)optimal paths, E removed (E names the predecessor, not the target), plus, for a
    /// neighbour of `s`, its own out-edge when the edge is (near-)optimal, and E. Only nodes
    /// settled earlier count as predecessors, so the sets are well defined; the node through
    /// which Dijkstra reached a target always counts (its sum is the target's distance), so a
    /// reachable target's set is never empty.
    fn first_move_sets(&mut self, graph: &Graph, s: u32, tol: f64, words: usize) {
        let stamp = self.stamp;
        let nbr_s = graph.neighbours(s);
        let e_bit = nbr_s.len();
        let factor = 1.0 + tol;
        for i in 1..self.settled.len() {
            let t = self.settled[i];
            let tb = t as usize * words;
            self.sets[tb..tb + words].fill(0);
            let limit = self.dist[t as usize] * factor;
            for &p in graph.neighbours(t) {
                let w = graph.weight(p, t);
                if p == s {
                    let k = nbr_s.binary_search(&t).expect("symmetric graph");
                    if w <= limit {
                        self.sets[tb + k / 64] |= 1 << (k % 64);
                    }
                    self.sets[tb + e_bit / 64] |= 1 << (e_bit % 64);
                } else if self.done[p as usize] == stamp
                    && (self.rank[p as usize] as usize) < i
                    && self.dist[p as usize] + w <= limit
                {
                    let pb = p as usize * words;
                    for j in 0..words {
                        let mut x = self.sets[pb + j];
                        if j == e_bit / 64 {
                            x &= !(1 << (e_bit % 64));
                        }
                        self.sets[tb + j] |= x;
                    }
                }
            }
        }
    }
}
