//! The order in which corners become hubs: greedy cover of sampled shortest-path trees.
//!
//! Pruned labelling gives `h` to `v` unless a corner ranked above `h` lies on a shortest
//! `h`–`v` path, so the labels are small when the first hubs lie on many shortest paths. The
//! order here estimates that from the shortest-path trees of a sample of corners: a corner's
//! score is the number of tree nodes below it (with it), summed over the trees, that is the
//! sampled shortest paths it lies on. The corner of highest score is ranked next, and its
//! subtrees leave every tree: the paths through it are covered, and the scores of the corners
//! above it fall by what it covered. (Abraham, Delling, Goldberg and Werneck's greedy path
//! cover, on samples as in Delling et al.'s RXL.) Ties go to more neighbours, then the lower
//! id, so the order is the same on every machine and at any thread count.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rayon::prelude::*;
use taut_mesh::corner_graph::Graph;
use taut_mesh::corners::NO_CORNER;
use taut_search::{Dist, DistHeap, StampedCosts};

use crate::turns::Adjacency;

/// A node id inside a sampled tree: `u16` on graphs of fewer than 65,535 nodes (every dao
/// map), `u32` above. The order keeps up to 256 trees at once, four numbers per node each: 4 MB
/// per 1,000 corners in `u32`, and the largest allocation of an order on those maps.
trait Id: Copy + Send + Sync {
    /// No node: a root's parent, and nodes the root does not reach.
    const NONE: Self;
    /// `v`, which the caller has checked fits.
    fn of(v: u32) -> Self;
    fn get(self) -> u32;
    /// The node, `None` for [`Id::NONE`].
    #[inline]
    fn node(self) -> Option<u32> {
        let v = self.get();
        (v != Self::NONE.get()).then_some(v)
    }
}

impl Id for u16 {
    const NONE: u16 = u16::MAX;
    #[inline]
    fn of(v: u32) -> u16 {
        debug_assert!(v < u32::from(u16::MAX));
        v as u16
    }
    #[inline]
    fn get(self) -> u32 {
        u32::from(self)
    }
}

impl Id for u32 {
    const NONE: u32 = NO_CORNER;
    #[inline]
    fn of(v: u32) -> u32 {
        v
    }
    #[inline]
    fn get(self) -> u32 {
        self
    }
}

/// One sampled shortest-path tree: each node's parent, children and the nodes below it
/// that are not covered yet (0 once it is covered, and for nodes the root does not reach),
/// in `I`: node ids and counts below the graph's size.
struct Tree<I> {
    parent: Vec<I>,
    child_off: Vec<I>,
    children: Vec<I>,
    size: Vec<I>,
}

impl<I: Id> Tree<I> {
    fn grow(adj: &Adjacency, root: u32) -> Tree<I> {
        let n = adj.node_count();
        let mut dist = StampedCosts::default();
        dist.begin(n);
        let mut open = DistHeap::default();
        let mut parent = vec![I::NONE; n];
        let mut settled = Vec::new();
        dist.set(root as usize, 0.0);
        open.push(Dist { d: 0.0, id: root });
        while let Some(Dist { d, id: v }) = open.pop() {
            // Pushed only on a strict improvement, so a node is popped at its distance once.
            if d > dist.get(v as usize) {
                continue;
            }
            settled.push(v);
            let from = parent[v as usize].node().unwrap_or(NO_CORNER);
            for k in adj.runs(v, from).into_iter().flatten() {
                let (u, du) = (adj.nbr[k], d + adj.w[k]);
                if du < dist.get(u as usize) {
                    dist.set(u as usize, du);
                    parent[u as usize] = I::of(v);
                    open.push(Dist { d: du, id: u });
                }
            }
        }
        let mut size = vec![0u32; n];
        let mut count = vec![0u32; n + 1];
        for &v in settled.iter().rev() {
            size[v as usize] += 1;
            if let Some(p) = parent[v as usize].node() {
                size[p as usize] += size[v as usize];
                count[p as usize + 1] += 1;
            }
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let child_off = count.iter().map(|&c| I::of(c)).collect();
        let mut children = vec![I::NONE; settled.len().saturating_sub(1)];
        for &v in &settled {
            if let Some(p) = parent[v as usize].node() {
                children[count[p as usize] as usize] = I::of(v);
                count[p as usize] += 1;
            }
        }
        Tree {
            parent,
            child_off,
            children,
            size: size.into_iter().map(I::of).collect(),
        }
    }

    /// Removes `v`'s subtree (it is covered) and takes what it held off the scores of the
    /// nodes it leaves.
    fn cover(&mut self, v: u32, score: &mut [u64], stack: &mut Vec<u32>) {
        let s = self.size[v as usize].get();
        if s == 0 {
            return;
        }
        let mut a = self.parent[v as usize].node();
        while let Some(k) = a {
            let k = k as usize;
            self.size[k] = I::of(self.size[k].get() - s);
            score[k] -= u64::from(s);
            a = self.parent[k].node();
        }
        stack.push(v);
        while let Some(u) = stack.pop() {
            let su = std::mem::replace(&mut self.size[u as usize], I::of(0)).get();
            if su == 0 {
                continue;
            }
            score[u as usize] -= u64::from(su);
            let (a, b) = (
                self.child_off[u as usize].get() as usize,
                self.child_off[u as usize + 1].get() as usize,
            );
            stack.extend(self.children[a..b].iter().map(|c| c.get()));
        }
    }
}

/// Edges the sampled trees may scan together, counted as if each tree scanned every edge
/// twice: 256 samples up to 262,144 edges (ost100d has 225,800), fewer beyond, at least 16.
const SAMPLE_WORK: usize = 1 << 26;

/// At most one corner in this many roots a sampled tree: past that, on the small dao maps,
/// the trees cost more of the build than their smaller labels save.
const CORNERS_PER_SAMPLE: usize = 5;

/// How many trees [`coverage_order`] grows for `graph`. On the five dao maps of
/// `docs/hub.md`, 256 samples give core labels 1.5 to 3.5 times smaller than ranking by
/// degree; 1,024 give 6 to 19 % fewer entries than 256, but the core takes up to 3.4 times
/// as long (2026-11-28). On maps of fewer than 1,280 corners the samples are a fifth of the
/// corners: arena2 (578 corners) 115 trees instead of 256, 3 % more core entries and a budget
/// build at EHL-64's size 8 % faster; den520d (912) 182, within noise (`docs/hub.md`).
pub fn samples_for(graph: &Graph) -> usize {
    (SAMPLE_WORK / graph.edge_count().max(1))
        .min(graph.node_count() / CORNERS_PER_SAMPLE)
        .clamp(16, 256)
}

/// The corners of `graph` from the first hub to the last, covering the shortest-path trees
/// of `samples` corners (all of them when there are fewer) spread over the ids.
pub(crate) fn coverage_order(adj: &Adjacency, samples: usize) -> Vec<u32> {
    if adj.node_count() < usize::from(u16::MAX) {
        greedy_cover::<u16>(adj, samples)
    } else {
        greedy_cover::<u32>(adj, samples)
    }
}

/// [`coverage_order`] with trees of node ids `I`.
fn greedy_cover<I: Id>(adj: &Adjacency, samples: usize) -> Vec<u32> {
    let n = adj.node_count();
    let k = samples.min(n);
    // Roots at evenly spaced ids: corner ids follow the map, so they spread over it.
    let roots: Vec<u32> = (0..k).map(|i| (i * n / k.max(1)) as u32).collect();
    let mut trees: Vec<Tree<I>> = roots.par_iter().map(|&r| Tree::grow(adj, r)).collect();
    let mut score = vec![0u64; n];
    for t in &trees {
        for (s, &x) in score.iter_mut().zip(&t.size) {
            *s += u64::from(x.get());
        }
    }
    let degree = |v: u32| adj.degree(v);
    let mut heap: BinaryHeap<(u64, usize, Reverse<u32>)> = (0..n as u32)
        .map(|v| (score[v as usize], degree(v), Reverse(v)))
        .collect();
    let mut picked = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut stack = Vec::new();
    while let Some((s, d, Reverse(v))) = heap.pop() {
        if picked[v as usize] {
            continue;
        }
        if s != score[v as usize] {
            heap.push((score[v as usize], d, Reverse(v)));
            continue;
        }
        picked[v as usize] = true;
        order.push(v);
        if s > 0 {
            for t in &mut trees {
                t.cover(v, &mut score, &mut stack);
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use taut_mesh::MeshPoint;

    fn graph(points: &[(f64, f64)], edges: &[(u32, u32)]) -> Graph {
        let pts = points.iter().map(|&(x, y)| MeshPoint::new(x, y)).collect();
        let mut lists = vec![Vec::new(); points.len()];
        for &(a, b) in edges {
            if a != b && !lists[a as usize].contains(&b) {
                lists[a as usize].push(b);
                lists[b as usize].push(a);
            }
        }
        for l in &mut lists {
            l.sort_unstable();
        }
        Graph::from_lists(pts, lists).expect("a valid graph")
    }

    /// On a path of seven corners, with every corner sampled, the middle one lies on the most
    /// shortest paths, then the middles of the two halves; a scoring that forgot to take a
    /// covered subtree off its ancestors would rank 2 or 4 second.
    #[test]
    fn a_path_is_cut_in_halves() {
        let points: Vec<(f64, f64)> = (0..7).map(|i| (f64::from(i), 0.0)).collect();
        let edges: Vec<(u32, u32)> = (0..6).map(|i| (i, i + 1)).collect();
        let g = graph(&points, &edges);
        let order = coverage_order(&Adjacency::new(&g), 7);
        assert_eq!(order[0], 3);
        let mut next = order[1..3].to_vec();
        next.sort_unstable();
        assert_eq!(next, [1, 5]);
    }

    proptest! {
        /// Every corner once, whatever the graph (disconnected ones too) and the samples,
        /// and the same order at any thread count and with trees of either id width.
        #[test]
        fn a_permutation_independent_of_threads(
            n in 1usize..30,
            pts in proptest::collection::vec((-20i8..20, -20i8..20), 30),
            edges in proptest::collection::vec((0u32..30, 0u32..30), 0..80),
            samples in 1usize..40,
        ) {
            let points: Vec<(f64, f64)> =
                pts[..n].iter().map(|&(x, y)| (f64::from(x), f64::from(y))).collect();
            let edges: Vec<(u32, u32)> =
                edges.iter().map(|&(a, b)| (a % n as u32, b % n as u32)).collect();
            let g = graph(&points, &edges);
            let run = |threads| {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                pool.install(|| coverage_order(&Adjacency::new(&g), samples))
            };
            let one = run(1);
            let mut sorted = one.clone();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>());
            prop_assert_eq!(run(3), one.clone());
            prop_assert_eq!(greedy_cover::<u32>(&Adjacency::new(&g), samples), one);
        }
    }
}
