//! Pruned landmark labels over the co-visible corner graph (the *core*).
//!
//! Akiba, Iwata and Yoshida's pruned labelling (SIGMOD 2013): corners are ranked, and a
//! Dijkstra search from each corner `h`, in rank order, gives `h` as a hub to every corner `v`
//! it reaches, unless the labels built so far already give `d(h, v)`; then `v` is neither
//! labelled nor expanded. Afterwards, for every two corners `u` and `v` connected in the
//! graph, the highest-ranked corner on their shortest paths is in both labels, so the
//! smallest `d(u, h) + d(h, v)` over common hubs is `d(u, v)`.
//!
//! Every entry also keeps the next corner from `v` towards `h` (the search tree's parent), so
//! a path is walked hub by hub: the parent was expanded, hence labelled by `h` too.

use taut_mesh::corner_graph::Graph;
use taut_mesh::corners::NO_CORNER;
use taut_search::{Entry, OpenList, StampedCosts};

/// One entry of a corner's label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoreEntry {
    /// The hub's rank.
    pub hub: u32,
    /// The length of a shortest path from the labelled corner to the hub.
    pub dist: f64,
    /// The next corner on that path ([`NO_CORNER`] at the hub itself).
    pub next: u32,
    /// The index of the next corner's entry for the same hub among all entries
    /// ([`NO_CORNER`] at the hub itself): a path walk follows these without searching.
    next_entry: u32,
}

/// The labels of every corner, in compressed rows sorted by hub rank.
#[derive(Debug, Clone)]
pub struct CoreLabels {
    /// Corner of each rank.
    order: Vec<u32>,
    /// Rank of each corner.
    rank: Vec<u32>,
    off: Vec<u32>,
    entries: Vec<CoreEntry>,
    /// The hub ranks of `entries` again, alone: a path walk binary-searches them.
    hubs: Vec<u32>,
}

impl CoreLabels {
    /// Labels for `graph`, corners ranked by degree (most neighbours first, ties by id): a
    /// corner that sees many others lies on many shortest paths.
    pub fn build(graph: &Graph) -> CoreLabels {
        let n = graph.node_count();
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by_key(|&c| (std::cmp::Reverse(graph.neighbours(c).len()), c));
        let mut rank = vec![0u32; n];
        for (r, &c) in order.iter().enumerate() {
            rank[c as usize] = r as u32;
        }
        let mut labels: Vec<Vec<CoreEntry>> = vec![Vec::new(); n];
        let mut dist = StampedCosts::default();
        let mut parent = vec![NO_CORNER; n];
        let mut open = OpenList::default();
        // d(h, x) for the hubs x of the current root's label, by rank.
        let mut root_label = vec![f64::INFINITY; n];
        for (r, &h) in order.iter().enumerate() {
            for e in &labels[h as usize] {
                root_label[e.hub as usize] = e.dist;
            }
            dist.begin(n);
            open.clear();
            dist.set(h as usize, 0.0);
            parent[h as usize] = NO_CORNER;
            open.push(Entry {
                f: 0.0,
                g: 0.0,
                id: h,
            });
            while let Some(Entry { f: d, id: v, .. }) = open.pop() {
                if d > dist.get(v as usize) {
                    continue;
                }
                let covered = labels[v as usize]
                    .iter()
                    .map(|e| root_label[e.hub as usize] + e.dist)
                    .fold(f64::INFINITY, f64::min);
                if covered <= d {
                    continue;
                }
                labels[v as usize].push(CoreEntry {
                    hub: r as u32,
                    dist: d,
                    next: parent[v as usize],
                    next_entry: NO_CORNER,
                });
                let pv = graph.point(v);
                for &u in graph.neighbours(v) {
                    let du = d + pv.dist(graph.point(u));
                    if du < dist.get(u as usize) {
                        dist.set(u as usize, du);
                        parent[u as usize] = v;
                        open.push(Entry {
                            f: du,
                            g: du,
                            id: u,
                        });
                    }
                }
            }
            for e in &labels[h as usize] {
                root_label[e.hub as usize] = f64::INFINITY;
            }
        }
        let mut off = Vec::with_capacity(n + 1);
        off.push(0u32);
        let mut entries = Vec::with_capacity(labels.iter().map(Vec::len).sum());
        for l in &labels {
            entries.extend_from_slice(l);
            off.push(entries.len() as u32);
        }
        let hubs = entries.iter().map(|e| e.hub).collect();
        let mut labels = CoreLabels {
            order,
            rank,
            off,
            entries,
            hubs,
        };
        for i in 0..labels.entries.len() {
            let e = labels.entries[i];
            if e.next != NO_CORNER {
                labels.entries[i].next_entry = labels
                    .entry_index(e.next, e.hub)
                    .expect("the parent in a search tree holds its root as a hub")
                    as u32;
            }
        }
        labels
    }

    /// Number of corners.
    pub fn len(&self) -> usize {
        self.rank.len()
    }

    /// Whether there are no corners.
    pub fn is_empty(&self) -> bool {
        self.rank.is_empty()
    }

    /// The corner of rank `r`.
    #[inline]
    pub fn corner(&self, r: u32) -> u32 {
        self.order[r as usize]
    }

    /// The rank of corner `c`.
    #[inline]
    pub fn rank(&self, c: u32) -> u32 {
        self.rank[c as usize]
    }

    /// The label of corner `c`, by increasing hub rank (its own entry, at distance 0, last).
    #[inline]
    pub fn label(&self, c: u32) -> &[CoreEntry] {
        &self.entries[self.off[c as usize] as usize..self.off[c as usize + 1] as usize]
    }

    /// The entry of hub rank `hub` in corner `c`'s label.
    #[inline]
    pub fn entry(&self, c: u32, hub: u32) -> Option<&CoreEntry> {
        self.entry_index(c, hub).map(|i| &self.entries[i])
    }

    /// The index among all entries of [`CoreLabels::entry`].
    #[inline]
    fn entry_index(&self, c: u32, hub: u32) -> Option<usize> {
        let (a, b) = (
            self.off[c as usize] as usize,
            self.off[c as usize + 1] as usize,
        );
        self.hubs[a..b].binary_search(&hub).ok().map(|i| a + i)
    }

    /// The shortest distance between corners `u` and `v` by the labels (`f64::INFINITY` when
    /// they are not connected), with the hub rank that gives it.
    pub fn distance(&self, u: u32, v: u32) -> (f64, u32) {
        let (a, b) = (self.label(u), self.label(v));
        let (mut i, mut j) = (0, 0);
        let mut best = (f64::INFINITY, NO_CORNER);
        while i < a.len() && j < b.len() {
            match a[i].hub.cmp(&b[j].hub) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    let d = a[i].dist + b[j].dist;
                    if d < best.0 {
                        best = (d, a[i].hub);
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        best
    }

    /// Appends the corners after `c` on its labelled path to hub rank `hub`, up to and
    /// including the hub (nothing when `c` is the hub). `hub` must be in `c`'s label.
    pub fn walk_to_hub(&self, c: u32, hub: u32, out: &mut Vec<u32>) {
        let mut e = &self.entries[self
            .entry_index(c, hub)
            .expect("the hub is in the corner's label")];
        while e.next != NO_CORNER {
            out.push(e.next);
            e = &self.entries[e.next_entry as usize];
        }
    }

    /// Total label entries.
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        (self.order.len() + self.rank.len() + self.off.len() + self.hubs.len()) * 4
            + self.entries.len() * std::mem::size_of::<CoreEntry>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use taut_mesh::MeshPoint;

    /// Plain Dijkstra over the whole graph.
    fn dijkstra(g: &Graph, s: u32) -> Vec<f64> {
        let n = g.node_count();
        let mut d = vec![f64::INFINITY; n];
        let mut open = OpenList::default();
        d[s as usize] = 0.0;
        open.push(Entry {
            f: 0.0,
            g: 0.0,
            id: s,
        });
        while let Some(e) = open.pop() {
            if e.f > d[e.id as usize] {
                continue;
            }
            for &u in g.neighbours(e.id) {
                let du = e.f + g.point(e.id).dist(g.point(u));
                if du < d[u as usize] {
                    d[u as usize] = du;
                    open.push(Entry {
                        f: du,
                        g: du,
                        id: u,
                    });
                }
            }
        }
        d
    }

    fn random_graph(n: usize, pts: &[(i8, i8)], edges: &[(usize, usize)]) -> Graph {
        let points: Vec<MeshPoint> = pts[..n]
            .iter()
            .map(|&(x, y)| MeshPoint::new(f64::from(x), f64::from(y)))
            .collect();
        let mut lists = vec![Vec::new(); n];
        for &(a, b) in edges {
            let (a, b) = (a % n, b % n);
            if a != b && !lists[a].contains(&(b as u32)) {
                lists[a].push(b as u32);
                lists[b].push(a as u32);
            }
        }
        for l in &mut lists {
            l.sort_unstable();
        }
        Graph::from_lists(points, lists).expect("a valid graph")
    }

    proptest! {
        /// The cover property: every pair's label distance is its Dijkstra distance, and the
        /// walk to the hub retraces a path of that length.
        #[test]
        fn labels_give_every_distance(
            n in 1usize..24,
            pts in proptest::collection::vec((-20i8..20, -20i8..20), 24),
            edges in proptest::collection::vec((0usize..24, 0usize..24), 0..60),
        ) {
            let g = random_graph(n, &pts, &edges);
            let labels = CoreLabels::build(&g);
            for u in 0..n as u32 {
                let d = dijkstra(&g, u);
                for v in 0..n as u32 {
                    let (got, hub) = labels.distance(u, v);
                    if d[v as usize].is_infinite() {
                        prop_assert!(got.is_infinite());
                        continue;
                    }
                    prop_assert!((got - d[v as usize]).abs() <= 1e-9, "{u}->{v}: {got} vs {}", d[v as usize]);
                    // Walk u -> hub -> v and measure it.
                    let mut path = vec![u];
                    labels.walk_to_hub(u, hub, &mut path);
                    let mut back = vec![v];
                    labels.walk_to_hub(v, hub, &mut back);
                    back.pop();
                    path.extend(back.into_iter().rev());
                    let len: f64 = path.windows(2).map(|w| g.point(w[0]).dist(g.point(w[1]))).sum();
                    prop_assert!((len - got).abs() <= 1e-9);
                    for w in path.windows(2) {
                        prop_assert!(g.neighbours(w[0]).contains(&w[1]));
                    }
                }
            }
        }
    }
}
