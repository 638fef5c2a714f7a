//! A flat table of best costs with an O(1) reset.

/// Best known costs indexed by a dense id (a lattice point, a vertex), reset in O(1).
///
/// Each slot carries the epoch it was written in; a slot from an older epoch reads as
/// "never reached" (`f64::INFINITY`). [`StampedCosts::begin`] starts a new query by bumping
/// the epoch. The table keeps its allocation, so a warm search context allocates nothing.
///
/// A slot also holds a 32-bit tag beside its cost, in what would otherwise be padding: a
/// search can keep there which of its records owns the cost ([`StampedCosts::set_tagged`]).
#[derive(Debug, Clone)]
pub struct StampedCosts {
    slots: Vec<Slot>,
    epoch: u32,
}

/// One slot: the cost, the epoch it was written in, and its tag (16 bytes).
#[derive(Debug, Clone, Copy)]
struct Slot {
    g: f64,
    epoch: u32,
    tag: u32,
}

impl Default for StampedCosts {
    fn default() -> Self {
        StampedCosts {
            slots: Vec::new(),
            epoch: 1,
        }
    }
}

impl StampedCosts {
    /// Starts a new query over ids `0..n`: grows the table if needed and forgets every cost.
    pub fn begin(&mut self, n: usize) {
        if self.slots.len() < n {
            self.slots.resize(
                n,
                Slot {
                    g: f64::INFINITY,
                    epoch: 0,
                    tag: 0,
                },
            );
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Wrapped: clear every stamp once so that no old slot can look current.
            for s in &mut self.slots {
                s.epoch = 0;
            }
            self.epoch = 1;
        }
    }

    /// The cost stored for `id` in this query, `f64::INFINITY` if none.
    #[inline(always)]
    pub fn get(&self, id: usize) -> f64 {
        let s = self.slots[id];
        if s.epoch == self.epoch {
            s.g
        } else {
            f64::INFINITY
        }
    }

    /// The cost and tag stored for `id` in this query; `(f64::INFINITY, u32::MAX)` if none.
    #[inline(always)]
    pub fn get_tagged(&self, id: usize) -> (f64, u32) {
        let s = self.slots[id];
        if s.epoch == self.epoch {
            (s.g, s.tag)
        } else {
            (f64::INFINITY, u32::MAX)
        }
    }

    /// Stores `g` for `id` (with tag 0).
    #[inline(always)]
    pub fn set(&mut self, id: usize, g: f64) {
        self.set_tagged(id, g, 0);
    }

    /// Stores `g` and `tag` for `id`.
    #[inline(always)]
    pub fn set_tagged(&mut self, id: usize, g: f64, tag: u32) {
        self.slots[id] = Slot {
            g,
            epoch: self.epoch,
            tag,
        };
    }

    /// Heap bytes held by the table.
    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_and_wraparound() {
        let mut t = StampedCosts::default();
        t.begin(3);
        t.set(1, 2.5);
        assert_eq!(t.get(1), 2.5);
        assert!(t.get(0).is_infinite());
        t.begin(5);
        assert!(t.get(1).is_infinite());
        t.set(4, 1.0);
        t.epoch = u32::MAX;
        t.set(2, 3.0);
        t.begin(5);
        assert_eq!(t.epoch, 1);
        assert!(t.get(2).is_infinite() && t.get(4).is_infinite());
    }

    #[test]
    fn tags_are_kept_per_query() {
        let mut t = StampedCosts::default();
        t.begin(4);
        t.set_tagged(3, 1.5, 7);
        assert_eq!(t.get_tagged(3), (1.5, 7));
        assert_eq!(t.get(3), 1.5);
        assert_eq!(t.get_tagged(2), (f64::INFINITY, u32::MAX));
        t.begin(4);
        assert_eq!(t.get_tagged(3), (f64::INFINITY, u32::MAX));
        assert_eq!(std::mem::size_of::<Slot>(), 16);
    }
}
