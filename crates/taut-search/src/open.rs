//! The open list: a binary min-heap of `(f, g, id)`, and the same heap of `(d, id)` for
//! searches whose `g` is their `f` (Dijkstra).
//!
//! Entries are ordered by `f` ascending, and among equal `f` by `g` descending (deeper nodes
//! first, the usual tie-break that shortens the final plateau of a search). There is no
//! decrease-key: a search pushes a fresh entry whenever a node's `g` improves and discards
//! stale entries when they are popped (lazy deletion). The backing vector keeps its capacity
//! across [`OpenList::clear`], so a warm search context allocates nothing.

/// One open-list entry.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// Priority: `g + h`.
    pub f: f64,
    /// Cost from the start when the entry was pushed (used to detect stale entries).
    pub g: f64,
    /// Node or state index.
    pub id: u32,
}

/// An item of a [`Heap`]: it says which of two comes out first.
pub trait HeapItem: Copy {
    /// Whether `self` must be popped before `other`.
    fn before(&self, other: &Self) -> bool;
}

impl HeapItem for Entry {
    #[inline(always)]
    fn before(&self, other: &Entry) -> bool {
        self.f < other.f || (self.f == other.f && self.g > other.g)
    }
}

/// One entry of a [`DistHeap`]: a node and its distance.
#[derive(Debug, Clone, Copy)]
pub struct Dist {
    /// Priority: the distance from the start.
    pub d: f64,
    /// Node index.
    pub id: u32,
}

impl HeapItem for Dist {
    #[inline(always)]
    fn before(&self, other: &Dist) -> bool {
        self.d < other.d
    }
}

/// A binary min-heap of [`HeapItem`]s, lazy deletion (see the module docs).
#[derive(Debug, Clone)]
pub struct Heap<T> {
    heap: Vec<T>,
}

impl<T> Default for Heap<T> {
    fn default() -> Self {
        Heap { heap: Vec::new() }
    }
}

/// The open list of a best-first search: [`Entry`], lowest `f` first, ties to the larger `g`.
pub type OpenList = Heap<Entry>;

/// The open list of a Dijkstra search: [`Dist`], lowest distance first. Two thirds the
/// memory of an [`OpenList`] of entries whose `g` is their `f`, and it pops them in the same
/// order (an [`Entry`]'s `g` breaks no tie when it equals its `f`).
pub type DistHeap = Heap<Dist>;

impl<T: HeapItem> Heap<T> {
    /// The entry [`Heap::pop`] would return, without removing it.
    #[inline]
    pub fn peek(&self) -> Option<&T> {
        self.heap.first()
    }

    /// The entries in heap order: entry `i` comes no later than entries `2i + 1` and `2i + 2`
    /// (so a search for every entry tied with the first can stop at any entry after it).
    #[inline]
    pub fn entries(&self) -> &[T] {
        &self.heap
    }

    /// Empties the heap, keeping its allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.heap.clear();
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Adds an entry.
    #[inline]
    pub fn push(&mut self, e: T) {
        let mut i = self.heap.len();
        self.heap.push(e);
        // Sift up with a hole: move parents down until `e` fits.
        while i > 0 {
            let parent = (i - 1) / 2;
            if !e.before(&self.heap[parent]) {
                break;
            }
            self.heap[i] = self.heap[parent];
            i = parent;
        }
        self.heap[i] = e;
    }

    /// Removes and returns the first entry, if any.
    // Always inlined: a search generic over its tracer calls it from two instantiations, and
    // LLVM then stops inlining it (measured with callgrind: +2 % instructions for A*).
    #[inline(always)]
    pub fn pop(&mut self) -> Option<T> {
        let last = self.heap.pop()?;
        if self.heap.is_empty() {
            return Some(last);
        }
        let top = self.heap[0];
        // Sift `last` down from the root with a hole.
        let n = self.heap.len();
        let mut i = 0;
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && self.heap[r].before(&self.heap[l]) {
                r
            } else {
                l
            };
            if !self.heap[c].before(&last) {
                break;
            }
            self.heap[i] = self.heap[c];
            i = c;
        }
        self.heap[i] = last;
        Some(top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_order_with_g_tie_break() {
        let mut h = OpenList::default();
        // A deterministic shuffle of f in 0..50 and g in 0..4.
        let mut x = 12345u32;
        let mut all = Vec::new();
        for id in 0..200u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let f = f64::from((x >> 16) % 50);
            let g = f64::from((x >> 8) % 4);
            all.push((f, g));
            h.push(Entry { f, g, id });
        }
        let mut prev: Option<Entry> = None;
        let mut count = 0;
        while let Some(e) = h.pop() {
            assert_eq!(all[e.id as usize], (e.f, e.g));
            if let Some(p) = prev {
                assert!(p.f < e.f || (p.f == e.f && p.g >= e.g), "{p:?} then {e:?}");
            }
            prev = Some(e);
            count += 1;
        }
        assert_eq!(count, 200);
        h.clear();
        assert!(h.pop().is_none());
    }

    /// A [`DistHeap`] pops what an [`OpenList`] of the same distances as both `f` and `g`
    /// pops, ties included (Dijkstra's trees and labels do not change with the heap).
    #[test]
    fn a_dist_heap_pops_as_an_open_list_of_equal_f_and_g() {
        let (mut open, mut dist) = (OpenList::default(), DistHeap::default());
        let mut x = 777u32;
        let mut next = || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            x >> 16
        };
        for round in 0..2000u32 {
            if next() % 3 == 0 {
                let (a, b) = (open.pop(), dist.pop());
                assert_eq!(
                    a.map(|e| (e.f, e.id)),
                    b.map(|e| (e.d, e.id)),
                    "round {round}"
                );
            } else {
                let d = f64::from(next() % 20);
                open.push(Entry {
                    f: d,
                    g: d,
                    id: round,
                });
                dist.push(Dist { d, id: round });
            }
        }
        while let Some(a) = open.pop() {
            assert_eq!(dist.pop().map(|e| (e.d, e.id)), Some((a.f, a.id)));
        }
        assert!(dist.pop().is_none());
    }
}
