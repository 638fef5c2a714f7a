//! The convex corners of a mesh and their co-visible graph, on which the CPD is built. Both
//! live in `taut_mesh` (taut-hub builds on them too); this module gathers them with the CPD's
//! node order.

pub use crate::order::NodeOrder;
pub use taut_mesh::corner_graph::{Graph, GraphError, visible_corners};
pub use taut_mesh::corners::{Corners, NO_CORNER};
