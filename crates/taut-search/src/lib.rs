//! Search infrastructure shared by taut's planners, with no knowledge of grids or meshes.
//!
//! - [`OpenList`]: a binary min-heap of [`Entry`] `(f, g, id)`, lowest `f` first, ties to the
//!   larger `g`, lazy deletion, keeping its allocation across queries.
//! - [`DistHeap`]: the same heap of `(d, id)`, for Dijkstra searches.
//! - [`StampedCosts`]: a flat table of best costs indexed by a dense id whose reset is O(1)
//!   (an epoch counter), the usual replacement for a closed list or a root history.
//!
//! # Example
//! ```
//! use taut_search::{Entry, OpenList, StampedCosts};
//!
//! let mut open = OpenList::default();
//! open.push(Entry { f: 2.0, g: 0.0, id: 7 });
//! open.push(Entry { f: 1.0, g: 0.0, id: 3 });
//! assert_eq!(open.pop().map(|e| e.id), Some(3));
//!
//! let mut best = StampedCosts::default();
//! best.begin(10);
//! assert!(best.get(4).is_infinite());
//! best.set(4, 1.5);
//! best.begin(10); // a new query forgets everything in O(1)
//! assert!(best.get(4).is_infinite());
//! ```

mod open;
mod stamped;

pub use open::{Dist, DistHeap, Entry, Heap, HeapItem, OpenList};
pub use stamped::StampedCosts;
