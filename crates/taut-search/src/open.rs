//! The open list: a binary min-heap of `(f, g, id)`.
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

impl Entry {
    /// Whether `self` must be popped before `other`.
    #[inline(always)]
    fn before(&self, other: &Entry) -> bool {
        self.f < other.f || (self.f == other.f && self.g > other.g)
    }
}

/// A binary min-heap of [`Entry`] (see the module docs for the order).
#[derive(Debug, Clone, Default)]
pub struct OpenList {
    heap: Vec<Entry>,
}

impl OpenList {
    /// The entry [`OpenList::pop`] would return, without removing it.
    #[inline]
    pub fn peek(&self) -> Option<&Entry> {
        self.heap.first()
    }

    /// The entries in heap order: entry `i` comes no later than entries `2i + 1` and `2i + 2`
    /// (so a search for every entry tied with the first can stop at any entry after it).
    #[inline]
    pub fn entries(&self) -> &[Entry] {
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
    pub fn push(&mut self, e: Entry) {
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
    pub fn pop(&mut self) -> Option<Entry> {
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
}
