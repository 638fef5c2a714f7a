//! Pruned landmark labels over the co-visible corner graph (the *core*).
//!
//! Akiba, Iwata and Yoshida's pruned labelling (SIGMOD 2013): corners are ranked, and a
//! Dijkstra search from each corner `h`, in rank order, gives `h` as a hub to every corner `v`
//! it reaches, unless the labels built so far already give `d(h, v)`; then `v` is neither
//! labelled nor expanded. Afterwards, for every two corners `u` and `v` connected in the
//! graph, the highest-ranked corner on their shortest paths is in both labels, so the
//! smallest `d(u, h) + d(h, v)` over common hubs is `d(u, v)`.
//!
//! Every entry also keeps where the next corner from `v` towards `h` (the search tree's
//! parent) keeps its entry for `h`, so a path is walked hub by hub: the parent was expanded,
//! hence labelled by `h` too.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, RwLock};

use rayon::prelude::*;
use taut_mesh::corner_graph::Graph;
use taut_mesh::corners::NO_CORNER;
use taut_search::{Dist, DistHeap, StampedCosts};

use crate::HubError;
use crate::error::check_offsets;
use crate::turns::Adjacency;

/// One entry of a corner's label.
///
/// `repr(C)`, with no padding: index files store it as its bytes (`file.rs`).
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct CoreEntry {
    /// The length of a shortest path from the labelled corner to the hub.
    pub dist: f64,
    /// The hub's rank.
    pub hub: u32,
    /// The index (among all entries) of the next corner's entry for the same hub on that
    /// path, [`NO_CORNER`] at the hub itself: a path walk follows these without searching.
    pub(crate) next_entry: u32,
}

impl CoreEntry {
    /// The index of the next corner's entry on the path to the hub (`None` at the hub).
    #[inline]
    pub fn next_entry(&self) -> Option<u32> {
        (self.next_entry != NO_CORNER).then_some(self.next_entry)
    }
}

/// The labels of every corner, in compressed rows sorted by hub rank.
#[derive(Debug, Clone, Default)]
pub struct CoreLabels {
    /// Corner of each rank.
    order: Vec<u32>,
    /// Rank of each corner.
    rank: Vec<u32>,
    /// Corner `c`'s entries are `entries[off[c]..off[c + 1]]`.
    off: Vec<u32>,
    entries: Vec<CoreEntry>,
    /// The corner holding entry `k · BLOCK` for each `k`: a corner lookup starts there and
    /// steps over the few labels that end within the block (derived from `off`, not stored).
    block_corner: Vec<u32>,
}

/// Entries per block of [`CoreLabels`]' corner lookup.
const BLOCK: u32 = 64;

impl CoreLabels {
    /// Labels for `graph`, corners ranked by how many sampled shortest paths they cover
    /// (`order.rs`: a greedy cover of up to 256 sampled shortest-path trees): the first hubs then
    /// cover most pairs, and the labels are small.
    pub fn build(graph: &Graph) -> CoreLabels {
        Self::build_limited(graph, usize::MAX).expect("no limit")
    }

    /// [`CoreLabels::build`], given up as soon as the labels pass `max_entries` entries:
    /// then `Err` with the hubs searched so far and the entries they gave. Every index holds
    /// its core labels, so a budget they pass is known to be too small without finishing
    /// them (on a random 512² map, 76,000 corners, the first hubs label nearly every corner).
    pub fn build_limited(graph: &Graph, max_entries: usize) -> Result<CoreLabels, (usize, usize)> {
        // Helpers spin: no more threads than cores, or they would take turns with the
        // searches.
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self::build_on(graph, max_entries, rayon::current_num_threads().min(cores))
    }

    /// [`CoreLabels::build_limited`] on `threads` threads (the labels do not depend on it).
    fn build_on(
        graph: &Graph,
        max_entries: usize,
        threads: usize,
    ) -> Result<CoreLabels, (usize, usize)> {
        let n = graph.node_count();
        // Each edge's length once (the same `f64` as measuring it at every relaxation), and
        // the neighbours by direction, so that a search relaxes only taut continuations.
        let adj = Adjacency::new(graph);
        let order = crate::order::coverage_order(&adj, crate::order::samples_for(graph));
        let mut rank = vec![0u32; n];
        for (r, &c) in order.iter().enumerate() {
            rank[c as usize] = r as u32;
        }
        let labels = pruned_labels(&adj, &order, max_entries, threads)?;
        let mut off = Vec::with_capacity(n + 1);
        off.push(0u32);
        let mut total = 0u32;
        for l in &labels {
            total += l.len() as u32;
            off.push(total);
        }
        // A parent was expanded by the same search, so it holds the hub too.
        let index_of = |c: u32, hub: u32| {
            let l = &labels[c as usize];
            let i = l
                .binary_search_by_key(&hub, |&(x, _, _)| x)
                .expect("the parent in a search tree holds its root as a hub");
            off[c as usize] + i as u32
        };
        let mut entries = Vec::with_capacity(total as usize);
        for l in &labels {
            for &(hub, dist, parent) in l {
                entries.push(CoreEntry {
                    dist,
                    hub,
                    next_entry: if parent == NO_CORNER {
                        NO_CORNER
                    } else {
                        index_of(parent, hub)
                    },
                });
            }
        }
        Ok(CoreLabels::new(order, rank, off, entries))
    }

    /// Labels from their parts (as built or read), with the corner lookup's blocks. Offsets
    /// that are not valid give blocks that are not either: [`CoreLabels::check_labels`]
    /// checks the offsets of labels read before a corner is looked up.
    fn new(order: Vec<u32>, rank: Vec<u32>, off: Vec<u32>, entries: Vec<CoreEntry>) -> CoreLabels {
        let mut block_corner = Vec::with_capacity(entries.len().div_ceil(BLOCK as usize));
        let mut c = 0;
        for first in (0..entries.len() as u32).step_by(BLOCK as usize) {
            while c + 2 < off.len() && off[c + 1] <= first {
                c += 1;
            }
            block_corner.push(c as u32);
        }
        CoreLabels {
            order,
            rank,
            off,
            entries,
            block_corner,
        }
    }

    /// The labels of a stored index (`file.rs`) from the arrays of [`CoreLabels::parts`],
    /// unchecked: [`CoreLabels::check_order`] and [`CoreLabels::check_labels`] must pass before
    /// anything is looked up. A corner the
    /// order leaves out has the rank [`NO_CORNER`] (which the check refuses).
    pub(crate) fn from_stored(order: Vec<u32>, off: Vec<u32>, entries: Vec<CoreEntry>) -> Self {
        let mut rank = vec![NO_CORNER; order.len()];
        for (r, &c) in order.iter().enumerate() {
            if let Some(slot) = rank.get_mut(c as usize) {
                *slot = r as u32;
            }
        }
        CoreLabels::new(order, rank, off, entries)
    }

    /// What an index file stores of the labels: the corner of each rank, each corner's label
    /// offsets (one more than the corners) and the entries.
    pub(crate) fn parts(&self) -> (&[u32], &[u32], &[CoreEntry]) {
        (&self.order, &self.off, &self.entries)
    }

    /// Checks that the order of labels read from a file ([`CoreLabels::from_stored`]) is a
    /// permutation, so that the ranks are its inverse.
    ///
    /// # Errors
    /// [`HubError::Corrupt`].
    pub(crate) fn check_order(&self) -> Result<(), HubError> {
        // `order` and `rank` have the same length: a corner named twice or off the list
        // leaves some rank unset, and when none is unset the order is a permutation.
        if self.rank.contains(&NO_CORNER) {
            return Err(HubError::corrupt("the corner order is not a permutation"));
        }
        Ok(())
    }

    /// Checks everything the queries rely on in the labels read from a file, after
    /// [`CoreLabels::check_order`]: the offsets cover the entries, each label is sorted by hub
    /// with finite distances, and each path's next step is the same hub's entry, strictly
    /// nearer (so that a walk ends at the hub). The corners are checked in parallel.
    ///
    /// # Errors
    /// [`HubError::Corrupt`].
    pub(crate) fn check_labels(&self) -> Result<(), HubError> {
        let (n, total) = (self.order.len(), self.entries.len());
        if self.off.len() != n + 1 {
            return Err(HubError::corrupt("core label offsets"));
        }
        check_offsets(&self.off, total, "core")?;
        (0..n).into_par_iter().try_for_each(|c| {
            let range = self.off[c] as usize..self.off[c + 1] as usize;
            let mut last = None;
            for e in &self.entries[range] {
                if e.hub as usize >= n || last.is_some_and(|l| l >= e.hub) {
                    return Err(HubError::corrupt(format!(
                        "corner {c}: label entry out of order"
                    )));
                }
                last = Some(e.hub);
                if !(e.dist.is_finite() && e.dist >= 0.0) {
                    return Err(HubError::corrupt(format!(
                        "corner {c}: distance {}",
                        e.dist
                    )));
                }
                match e.next_entry() {
                    None if e.dist != 0.0 || self.order[e.hub as usize] as usize != c => {
                        return Err(HubError::corrupt(format!(
                            "corner {c}: a path ends before its hub"
                        )));
                    }
                    None => {}
                    Some(j) => {
                        let next = self.entries.get(j as usize);
                        if !next.is_some_and(|x| x.hub == e.hub && x.dist < e.dist) {
                            return Err(HubError::corrupt(format!(
                                "corner {c}: a path's next step is wrong"
                            )));
                        }
                    }
                }
            }
            Ok(())
        })
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
        self.entry_index(c, hub).map(|i| &self.entries[i as usize])
    }

    /// The index among all entries of [`CoreLabels::entry`].
    #[inline]
    pub fn entry_index(&self, c: u32, hub: u32) -> Option<u32> {
        let a = self.off[c as usize];
        let i = self.label(c).binary_search_by_key(&hub, |e| e.hub).ok()?;
        Some(a + i as u32)
    }

    /// The entry of index `i` among all entries.
    #[inline]
    pub fn entry_at(&self, i: u32) -> &CoreEntry {
        &self.entries[i as usize]
    }

    /// The corner whose label holds the entry of index `i` (from the block of `i`: the
    /// corners are not stored per entry, which saves 4 bytes an entry).
    #[inline]
    pub fn corner_of(&self, i: u32) -> u32 {
        let mut c = self.block_corner[(i / BLOCK) as usize] as usize;
        while self.off[c + 1] <= i {
            c += 1;
        }
        c as u32
    }

    /// The first index among all entries of corner `c`'s label.
    #[inline]
    pub fn label_start(&self, c: u32) -> u32 {
        self.off[c as usize]
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

    /// Appends the corners after entry `i`'s corner on its path to the entry's hub, up to
    /// and including the hub (nothing at the hub's own entry). The distances fall strictly
    /// along the way (checked when a file is read), so the walk ends.
    pub fn walk_to_hub(&self, i: u32, out: &mut Vec<u32>) {
        let mut e = &self.entries[i as usize];
        while let Some(j) = e.next_entry() {
            e = &self.entries[j as usize];
            out.push(self.corner_of(j));
        }
    }

    /// Total label entries.
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        (self.order.len() + self.rank.len() + self.off.len()) * 4
            + self.entries.len() * std::mem::size_of::<CoreEntry>()
            + self.block_corner.len() * 4
    }
}

/// A corner's label while the core is built: (hub rank, distance, parent in the hub's
/// search), by rank.
type Label = Vec<(u32, f64, u32)>;

/// What a helper of [`pruned_labels`] is told, in its `task`: nothing to do, stop, or the
/// rank of the hub to search from (`RANK + r`).
const IDLE: usize = 0;
const QUIT: usize = 1;
const RANK: usize = 2;

/// One helper thread of [`pruned_labels`]: it waits (spinning) for a hub, searches from it
/// and says it is done; the search stops early when told to (`cancel`).
struct Helper {
    task: AtomicUsize,
    done: AtomicBool,
    cancel: AtomicBool,
    search: Mutex<Search>,
}

/// Sets its flag when dropped, also when a panic unwinds: a helper says it is done even when
/// its search panicked (the caller then finds its search's lock poisoned), and the builder
/// tells the helpers to stop however it leaves, so the threads are always joined.
struct OnDrop<'a>(&'a [Helper], fn(&Helper));

impl Drop for OnDrop<'_> {
    fn drop(&mut self) {
        self.0.iter().for_each(self.1);
    }
}

/// Waits until `f` holds: a few thousand spins, then yielding between looks. Hand-offs come
/// every few tens of microseconds here, and a sleeping thread takes about as long to wake.
fn spin_until(f: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !f() {
        if spins < 4096 {
            spins += 1;
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

/// The pruned labels of every corner, hubs in `order`, on `threads` threads; `Err((hubs
/// searched, entries))` as soon as they pass `max_entries` entries.
///
/// With `t` threads, hub `r`'s search runs on this thread while helpers search from the
/// next `t − 1` hubs, all reading the labels as they were before `r`. Hub `h`'s search
/// reads other hubs' entries only through its own label (`root_label`), so it is the
/// sequential one unless a hub before it among those labels `h`. The searches are taken in
/// order up to the first such hub, which comes first next time, and the searches after it
/// are stopped (they may read a label it changes). So the labels are those of the sequential
/// build whatever the number of threads. A helper's search whose root the searches before it
/// label is told to stop as soon as that is known: the first hubs label nearly every corner,
/// and there a helper's search costs nothing but the core it runs on. The helpers spin
/// between searches: the hand-offs come every few tens of microseconds on the dao maps,
/// about what waking a sleeping thread takes (with rayon's batches, which slept, two threads
/// built these labels no faster than one: ost100d 0.95 s against 0.89 s).
fn pruned_labels(
    adj: &Adjacency,
    order: &[u32],
    max_entries: usize,
    threads: usize,
) -> Result<Vec<Label>, (usize, usize)> {
    let n = adj.node_count();
    let labels: RwLock<Vec<Label>> = RwLock::new(vec![Vec::new(); n]);
    let threads = threads.clamp(1, n.max(1));
    let helpers: Vec<Helper> = (1..threads)
        .map(|_| Helper {
            task: AtomicUsize::new(IDLE),
            done: AtomicBool::new(true),
            cancel: AtomicBool::new(false),
            search: Mutex::new(Search::new(n)),
        })
        .collect();
    let lock_poisoned = "a helper of the core build panicked";
    std::thread::scope(|scope| -> Result<(), (usize, usize)> {
        for helper in &helpers {
            let labels = &labels;
            scope.spawn(move || {
                loop {
                    spin_until(|| helper.task.load(Ordering::Acquire) != IDLE);
                    let task = helper.task.swap(IDLE, Ordering::AcqRel);
                    if task == QUIT {
                        return;
                    }
                    let r = task - RANK;
                    let _done = OnDrop(std::slice::from_ref(helper), |h| {
                        h.done.store(true, Ordering::Release);
                    });
                    let labels = labels.read().expect(lock_poisoned);
                    let mut search = helper.search.lock().expect(lock_poisoned);
                    search.run(adj, &labels, r as u32, order[r], Some(&helper.cancel));
                }
            });
        }
        // A helper at work finishes its search first.
        let _quit = OnDrop(&helpers, |h| h.task.store(QUIT, Ordering::Release));
        let mut main = Search::new(n);
        // The helpers' searches taken in a round, locked until their corners are in.
        let mut guards: Vec<MutexGuard<'_, Search>> = Vec::with_capacity(threads - 1);
        let (mut r, mut total) = (0, 0);
        while r < n {
            let k = threads.min(n - r);
            for (i, helper) in helpers[..k - 1].iter().enumerate() {
                helper.cancel.store(false, Ordering::Relaxed);
                helper.done.store(false, Ordering::Relaxed);
                helper.task.store(RANK + r + 1 + i, Ordering::Release);
            }
            {
                let labels = labels.read().expect(lock_poisoned);
                main.run(adj, &labels, r as u32, order[r], None);
            }
            // The searches taken: the first always, each next one unless a search before
            // it labels its root; from the first that is not, the rest are stopped.
            let mut cut = false;
            for (i, helper) in helpers[..k - 1].iter().enumerate() {
                let root = order[r + 1 + i];
                cut = cut
                    || std::iter::once(&main)
                        .chain(guards.iter().map(|g| &**g))
                        .any(|s| s.found.iter().any(|&(v, _, _)| v == root));
                if cut {
                    helper.cancel.store(true, Ordering::Relaxed);
                }
                spin_until(|| helper.done.load(Ordering::Acquire));
                // Locked also when dropped: a helper whose search panicked is found here.
                let search = helper.search.lock().expect(lock_poisoned);
                if !cut {
                    guards.push(search);
                }
            }
            let taken = 1 + guards.len();
            let mut labels = labels.write().expect(lock_poisoned);
            let searches = std::iter::once(&main).chain(guards.iter().map(|g| &**g));
            for (j, s) in searches.enumerate() {
                for &(v, d, p) in &s.found {
                    labels[v as usize].push(((r + j) as u32, d, p));
                }
                total += s.found.len();
            }
            guards.clear();
            r += taken;
            if total > max_entries {
                return Err((r, total));
            }
        }
        Ok(())
    })?;
    Ok(labels.into_inner().expect(lock_poisoned))
}

/// One pruned Dijkstra search of the core build, with its buffers.
struct Search {
    dist: StampedCosts,
    parent: Vec<u32>,
    open: DistHeap,
    /// d(h, x) for the hubs x of the root's label, by rank (infinite for the others).
    root_label: Vec<f64>,
    /// (corner, distance, parent) of every corner the search labels, in the order found.
    found: Vec<(u32, f64, u32)>,
}

impl Search {
    fn new(n: usize) -> Search {
        Search {
            dist: StampedCosts::default(),
            parent: vec![NO_CORNER; n],
            open: DistHeap::default(),
            root_label: vec![f64::INFINITY; n],
            found: Vec::new(),
        }
    }

    /// The search from hub `h` of rank `r` over `labels` (the hubs ranked before `r`): a
    /// corner is labelled unless a hub of both its label and `h`'s gives its distance.
    /// Stopped as soon as `cancel` is set (the found corners are then not the search's).
    fn run(
        &mut self,
        adj: &Adjacency,
        labels: &[Label],
        r: u32,
        h: u32,
        cancel: Option<&AtomicBool>,
    ) {
        let n = adj.node_count();
        for &(x, d, _) in &labels[h as usize] {
            self.root_label[x as usize] = d;
        }
        self.found.clear();
        self.dist.begin(n);
        self.open.clear();
        self.dist.set(h as usize, 0.0);
        self.parent[h as usize] = NO_CORNER;
        self.open.push(Dist { d: 0.0, id: h });
        while let Some(Dist { d, id: v }) = self.open.pop() {
            if d > self.dist.get(v as usize) {
                continue;
            }
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                break;
            }
            // Pruned when a hub of both labels gives `d` or less (the first one decides).
            let root_label = &self.root_label;
            if labels[v as usize]
                .iter()
                .any(|&(x, dx, _)| root_label[x as usize] + dx <= d)
            {
                continue;
            }
            self.found.push((v, d, self.parent[v as usize]));
            for k in adj.runs(v, self.parent[v as usize]).into_iter().flatten() {
                let (u, du) = (adj.nbr[k], d + adj.w[k]);
                if du < self.dist.get(u as usize) {
                    self.dist.set(u as usize, du);
                    self.parent[u as usize] = v;
                    self.open.push(Dist { d: du, id: u });
                }
            }
        }
        debug_assert!(labels[h as usize].iter().all(|e| e.0 < r));
        for &(x, _, _) in &labels[h as usize] {
            self.root_label[x as usize] = f64::INFINITY;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use taut_mesh::MeshPoint;
    use taut_search::{Entry, OpenList};

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
                    labels.walk_to_hub(labels.entry_index(u, hub).unwrap(), &mut path);
                    let mut back = vec![v];
                    labels.walk_to_hub(labels.entry_index(v, hub).unwrap(), &mut back);
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

        /// On a grid's corner graph the searches relax only the edges that keep a path taut
        /// (`Adjacency`): the labels still give every pair's plain Dijkstra distance.
        #[test]
        fn taut_searches_give_every_distance_on_grids(
            cells in proptest::collection::vec(proptest::bool::weighted(0.25), 14 * 14),
        ) {
            let grid = taut_grid::Grid::from_fn(14, 14, |x, y| !cells[(y * 14 + x) as usize]);
            let mesh = taut_mesh::mesh_from_grid(&grid).unwrap();
            let corners = taut_mesh::corners::Corners::of(&mesh);
            let g = Graph::build(&mesh, &corners).unwrap();
            prop_assert!(g.turns().is_some() || g.node_count() == 0);
            let labels = CoreLabels::build(&g);
            for u in 0..g.node_count() as u32 {
                let d = dijkstra(&g, u);
                for v in 0..g.node_count() as u32 {
                    let (got, _) = labels.distance(u, v);
                    if d[v as usize].is_infinite() {
                        prop_assert!(got.is_infinite());
                    } else {
                        prop_assert!((got - d[v as usize]).abs() <= 1e-9, "{u}->{v}: {got} vs {}", d[v as usize]);
                    }
                }
            }
        }

        /// A helper's search is taken only when no search before it labels its root, and
        /// the ones after a search not taken are dropped: the labels are the sequential ones
        /// (on 5 threads too, more than this machine may have cores: `build_on` is told).
        #[test]
        fn labels_do_not_depend_on_threads(
            n in 1usize..24,
            pts in proptest::collection::vec((-20i8..20, -20i8..20), 24),
            edges in proptest::collection::vec((0usize..24, 0usize..24), 0..60),
        ) {
            let g = random_graph(n, &pts, &edges);
            let build = |threads| {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                pool.install(|| CoreLabels::build_on(&g, usize::MAX, threads).unwrap())
            };
            let one = build(1);
            for threads in [2, 5] {
                let many = build(threads);
                prop_assert_eq!(&one.off, &many.off);
                prop_assert_eq!(&one.entries, &many.entries);
            }
        }
    }
}
