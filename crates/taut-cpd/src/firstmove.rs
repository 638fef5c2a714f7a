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

use taut_mesh::MeshPoint;

use crate::graph::Graph;
use crate::order::NodeOrder;
use crate::rle::encode_row;
use taut_mesh::corners::taut_at;

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
    /// Node through which the node's distance was last lowered (its exact Dijkstra parent).
    parent: Vec<u32>,
    /// Head of the node's list of candidate predecessors (index into `cand`), this row.
    head: Vec<u32>,
    /// Candidate predecessors: (predecessor, distance through it, next in the list).
    cand: Vec<(u32, f64, u32)>,
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
    /// order. `order` must be an order of `graph`'s nodes, `data` made by [`RowData::new`]
    /// for `graph`, and `tie_tolerance` finite and non-negative.
    ///
    /// When the graph knows its nodes' obstacle wedges ([`Graph::turns`]), only taut
    /// continuations are relaxed: if `p -> u -> v` is not taut at `u`, where `p` is the node
    /// through which `u` got its exact distance, then a strictly shorter path to `v` exists
    /// (the bend at `u` can be cut), so the edge can neither set `v`'s distance nor tie with
    /// it. Distances are unchanged; only near-ties within the tolerance can be lost.
    ///
    /// # Panics
    /// When `s` is not a node of `graph`, or `order` or `data` belong to another graph.
    #[allow(clippy::too_many_arguments)]
    pub fn row(
        &mut self,
        graph: &Graph,
        order: &NodeOrder,
        data: &RowData,
        tie_tolerance: f64,
        s: u32,
        starts: &mut Vec<u32>,
        symbols: &mut Vec<u32>,
    ) {
        let n = graph.node_count();
        assert!((s as usize) < n, "source {s} out of range");
        assert_eq!(order.len(), n, "the order has a different number of nodes");
        assert_eq!(
            data.weights.len(),
            graph.csr().1.len(),
            "one weight per edge end"
        );
        let deg = graph.neighbours(s).len();
        let words = (deg + 1).div_ceil(64);
        self.prepare(n, words);
        self.dijkstra(graph, data, s, tie_tolerance);
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
            self.parent.resize(n, NONE);
            self.head.resize(n, NONE);
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
        self.cand.clear();
    }

    fn dijkstra(&mut self, graph: &Graph, data: &RowData, s: u32, tol: f64) {
        let stamp = self.stamp;
        let factor = 1.0 + tol;
        let (off, nbr) = graph.csr();
        let points = graph.points();
        self.seen[s as usize] = stamp;
        self.dist[s as usize] = 0.0;
        self.parent[s as usize] = NONE;
        self.head[s as usize] = NONE;
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
            let (a, b) = (off[ui] as usize, off[ui + 1] as usize);
            let pu = self.parent[ui];
            match &data.turns {
                Some(ti) if pu != NONE => {
                    // Only taut continuations: a prefix and a suffix of the neighbours in
                    // angular order (see `TurnIndex`), each confirmed exactly.
                    let from = points[pu as usize];
                    let (pre, suf) = ti.candidates(ui, a, b, points[ui], from);
                    let wedge = ti.wedges[ui];
                    for k in (a..pre).chain(suf..b) {
                        let idx = ti.entries[k].1 as usize;
                        let v = nbr[idx];
                        if self.done[v as usize] != stamp
                            && taut_at(points[ui], wedge, from, points[v as usize])
                        {
                            self.relax(u, d, v, data.weights[idx], factor);
                        }
                    }
                }
                _ => {
                    for (idx, &v) in nbr.iter().enumerate().take(b).skip(a) {
                        if self.done[v as usize] != stamp {
                            self.relax(u, d, v, data.weights[idx], factor);
                        }
                    }
                }
            }
        }
    }

    #[inline]
    fn relax(&mut self, u: u32, d: f64, v: u32, w: f64, factor: f64) {
        let vi = v as usize;
        let nd = d + w;
        if self.seen[vi] != self.stamp {
            self.seen[vi] = self.stamp;
            self.head[vi] = NONE;
            self.dist[vi] = nd;
            self.parent[vi] = u;
            self.heap.push(Reverse((nd.to_bits(), v)));
        } else if nd < self.dist[vi] {
            self.dist[vi] = nd;
            self.parent[vi] = u;
            self.heap.push(Reverse((nd.to_bits(), v)));
        }
        // A possible (near-)optimal predecessor; checked against the final distance once
        // `v` is settled.
        if nd <= self.dist[vi] * factor {
            self.cand.push((u, nd, self.head[vi]));
            self.head[vi] = (self.cand.len() - 1) as u32;
        }
    }

    /// In settling order, each target's set is the union of the sets of its predecessors on
    /// (near-)optimal paths, E removed (E names the predecessor, not the target), plus, for a
    /// neighbour of `s`, its own out-edge when the edge is (near-)optimal, and E. Only nodes
    /// settled earlier count as predecessors, so the sets are well defined; the node through
    /// which Dijkstra reached a target always counts (its sum is the target's distance), so a
    /// reachable target's set is never empty.
    fn first_move_sets(&mut self, graph: &Graph, s: u32, tol: f64, words: usize) {
        let nbr_s = graph.neighbours(s);
        let e_bit = nbr_s.len();
        let factor = 1.0 + tol;
        for i in 1..self.settled.len() {
            let t = self.settled[i];
            let tb = t as usize * words;
            self.sets[tb..tb + words].fill(0);
            let limit = self.dist[t as usize] * factor;
            let mut c = self.head[t as usize];
            while c != NONE {
                let (p, through, next) = self.cand[c as usize];
                c = next;
                if through > limit {
                    continue;
                }
                if p == s {
                    let k = nbr_s.binary_search(&t).expect("symmetric graph");
                    self.sets[tb + k / 64] |= 1 << (k % 64);
                } else {
                    // `p` was settled before `t` (it relaxed `t`), so its set is final.
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
            if nbr_s.binary_search(&t).is_ok() {
                self.sets[tb + e_bit / 64] |= 1 << (e_bit % 64);
            }
        }
    }
}

const NONE: u32 = u32::MAX;

/// What every row of one graph shares: edge lengths and, for a mesh corner graph, the
/// neighbours of each node in angular order.
#[derive(Debug, Clone)]
pub struct RowData {
    weights: Vec<f64>,
    turns: Option<TurnIndex>,
}

impl RowData {
    /// Prepares the rows of `graph`.
    pub fn new(graph: &Graph) -> RowData {
        RowData {
            weights: graph.edge_weights(),
            turns: graph.turns().map(|w| TurnIndex::new(graph, w)),
        }
    }
}

/// Angular order of each node's neighbours, for taut continuations.
///
/// A corner's free sector runs counter-clockwise from the direction of its obstacle edge end
/// `F0` through an angle `phi` (more than a half turn) to `F1`; every neighbour lies in it.
/// Measure directions by their angle from `F0`. A path arriving from a neighbour at angle
/// `alpha` is taut at the corner exactly when it leaves at an angle in `[0, alpha - pi]` or
/// in `[alpha + pi, phi]` (it bends round the obstacle one way or the other, by at most a
/// half turn): a prefix and a suffix of the neighbours sorted by angle. The angles are
/// `f64` (`atan2`); the prefix and suffix are widened by `ANGLE_SLACK`, far more than the
/// rounding error, and each candidate is then confirmed with the exact test, so the result
/// is exact.
#[derive(Debug, Clone)]
struct TurnIndex {
    /// For each edge end, in angular order within each node's range: its angle from `F0`
    /// (`f32`: half the memory, and the rows are memory-bound) and its index in the CSR.
    entries: Vec<(f32, u32)>,
    /// Angle of `F0` for each node.
    base: Vec<f64>,
    wedges: Vec<[MeshPoint; 2]>,
}

/// Far more than the error of an `f32` angle below a full turn (about 4e-7 rad).
const ANGLE_SLACK: f64 = 1e-5;

fn angle_from(base: f64, at: MeshPoint, to: MeshPoint) -> f64 {
    let raw = (to.y - at.y).atan2(to.x - at.x) - base;
    let a = raw.rem_euclid(std::f64::consts::TAU);
    // A direction a hair clockwise of F0 (rounding) comes out near a full turn.
    if a > std::f64::consts::TAU - 1e-6 {
        0.0
    } else {
        a
    }
}

impl TurnIndex {
    fn new(graph: &Graph, wedges: &[[MeshPoint; 2]]) -> TurnIndex {
        let (off, nbr) = graph.csr();
        let n = graph.node_count();
        let mut entries = Vec::with_capacity(nbr.len());
        let mut base = Vec::with_capacity(n);
        let mut tmp: Vec<(f64, u32)> = Vec::new();
        for u in 0..n {
            let at = graph.point(u as u32);
            let f0 = wedges[u][0];
            let b0 = (f0.y - at.y).atan2(f0.x - at.x);
            base.push(b0);
            tmp.clear();
            let (a, b) = (off[u] as usize, off[u + 1] as usize);
            for (idx, &v) in nbr.iter().enumerate().take(b).skip(a) {
                tmp.push((angle_from(b0, at, graph.point(v)), idx as u32));
            }
            tmp.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            entries.extend(tmp.iter().map(|x| (x.0 as f32, x.1)));
        }
        TurnIndex {
            entries,
            base,
            wedges: wedges.to_vec(),
        }
    }

    /// For node `u` (entries `a..b`) entered from `from`: the end of the prefix and the start
    /// of the suffix that may hold taut continuations. Scanned from each end, so the cost is
    /// the number of candidates, and only the cache lines at the two ends are read.
    #[inline]
    fn candidates(
        &self,
        u: usize,
        a: usize,
        b: usize,
        at: MeshPoint,
        from: MeshPoint,
    ) -> (usize, usize) {
        let alpha = angle_from(self.base[u], at, from);
        let pi = std::f64::consts::PI;
        let lo = alpha - pi + ANGLE_SLACK;
        let hi = alpha + pi - ANGLE_SLACK;
        let mut pre = a;
        while pre < b && f64::from(self.entries[pre].0) <= lo {
            pre += 1;
        }
        let mut suf = b;
        while suf > pre && f64::from(self.entries[suf - 1].0) >= hi {
            suf -= 1;
        }
        (pre, suf)
    }
}
