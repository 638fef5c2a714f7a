//! A flat table of best costs with an O(1) reset.

/// Best known costs indexed by a dense id (a lattice point, a vertex), reset in O(1).
///
/// Each slot carries the epoch it was written in; a slot from an older epoch reads as
/// "never reached" (`f64::INFINITY`). [`StampedCosts::begin`] starts a new query by bumping
/// the epoch. The table keeps its allocation, so a warm search context allocates nothing.
#[derive(Debug, Clone)]
pub struct StampedCosts {
    slots: Vec<(f64, u32)>,
    epoch: u32,
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
            self.slots.resize(n, (f64::INFINITY, 0));
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Wrapped: clear every stamp once so that no old slot can look current.
            for s in &mut self.slots {
                s.1 = 0;
            }
            self.epoch = 1;
        }
    }

    /// The cost stored for `id` in this query, `f64::INFINITY` if none.
    #[inline(always)]
    pub fn get(&self, id: usize) -> f64 {
        let (g, e) = self.slots[id];
        if e == self.epoch { g } else { f64::INFINITY }
    }

    /// Stores `g` for `id`.
    #[inline(always)]
    pub fn set(&mut self, id: usize, g: f64) {
        self.slots[id] = (g, self.epoch);
    }

    /// Heap bytes held by the table.
    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<(f64, u32)>()
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
}
