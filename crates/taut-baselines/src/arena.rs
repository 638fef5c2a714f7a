//! Per-node search records with an O(1) reset, shared by the planners of this crate.
//!
//! A search context owns one flat [`Arena`] sized to the largest graph it has seen. Each record
//! carries a tag `epoch << 1 | closed`: a record whose epoch is not the current one reads as
//! "never reached" (g = ∞), so starting a new query is a single increment of the epoch. When
//! the epoch would overflow, every tag is zeroed once and counting restarts at 1 (tag 0 never
//! matches a live epoch, which is also why freshly grown records start at 0).

/// One node's search record.
/// The eight unit moves of grid searches (cells for A*, lattice points for Theta*): the four
/// straight ones first, then the diagonals. Node records store an index into this table as
/// the arrival direction.
pub(crate) const MOVES: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

#[derive(Debug, Clone, Copy)]
struct Node {
    /// Best known cost from the start (only meaningful when the tag is current).
    g: f64,
    /// The parent: a node index, or a move direction, at the planner's choice.
    parent: u32,
    /// `epoch << 1 | closed`.
    tag: u32,
}

const FRESH: Node = Node {
    g: f64::INFINITY,
    parent: 0,
    tag: 0,
};

/// Flat search records with generation counting (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct Arena {
    nodes: Vec<Node>,
    epoch: u32,
}

impl Default for Arena {
    fn default() -> Self {
        Arena {
            nodes: Vec::new(),
            epoch: 1,
        }
    }
}

impl Arena {
    /// Starts a new search over `n` nodes: grows the records if needed and invalidates all of
    /// them in O(1) (amortised).
    pub fn begin(&mut self, n: usize) {
        if self.nodes.len() < n {
            self.nodes.resize(n, FRESH);
        }
        self.epoch += 1;
        if self.epoch >= 1 << 31 {
            for node in &mut self.nodes {
                node.tag = 0;
            }
            self.epoch = 1;
        }
    }

    /// Whether node `i` has been closed (expanded) in this search.
    #[inline(always)]
    pub fn closed(&self, i: u32) -> bool {
        self.nodes[i as usize].tag == (self.epoch << 1 | 1)
    }

    /// The best known cost of node `i` (∞ when not reached in this search).
    #[inline(always)]
    pub fn g(&self, i: u32) -> f64 {
        let n = &self.nodes[i as usize];
        if n.tag >> 1 == self.epoch {
            n.g
        } else {
            f64::INFINITY
        }
    }

    /// The parent of node `i` (only meaningful if it was reached in this search).
    #[inline(always)]
    pub fn parent(&self, i: u32) -> u32 {
        self.nodes[i as usize].parent
    }

    /// Records a cost and parent for node `i` and marks it open (reached, not closed).
    #[inline(always)]
    pub fn set_open(&mut self, i: u32, g: f64, parent: u32) {
        self.nodes[i as usize] = Node {
            g,
            parent,
            tag: self.epoch << 1,
        };
    }

    /// Marks node `i` closed, keeping its cost and parent.
    #[inline(always)]
    pub fn close(&mut self, i: u32) {
        self.nodes[i as usize].tag = self.epoch << 1 | 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_forgets_everything_and_survives_wraparound() {
        let mut a = Arena::default();
        a.begin(4);
        a.set_open(2, 1.5, 7);
        a.close(2);
        assert!(a.closed(2) && a.g(2) == 1.5 && a.parent(2) == 7);
        assert!(!a.closed(1) && a.g(1).is_infinite());
        a.begin(8);
        assert!(!a.closed(2) && a.g(2).is_infinite());
        a.set_open(7, 2.0, 0);
        assert!(a.g(7) == 2.0 && !a.closed(7));
        // Force the wrap-around path.
        a.epoch = (1 << 31) - 1;
        a.set_open(3, 1.0, 0);
        a.close(3);
        a.begin(8);
        assert_eq!(a.epoch, 1);
        assert!(a.g(3).is_infinite() && !a.closed(3) && a.g(7).is_infinite());
    }
}
