//! Polyanya: optimal, online Euclidean shortest paths on navigation meshes.
//!
//! Polyanya (Cui, Harabor and Grastien, IJCAI 2017) generalises Anya to meshes: it searches
//! *intervals* of polygon edges, each seen from a *root* (the last turning point of the paths
//! the node stands for), and returns a shortest path among all paths that stay inside the
//! mesh. The meshes themselves (the type, files, builders, point location, the interval
//! primitives) are `taut-mesh`'s.
//!
//! - [`SearchContext`]: the reusable search state; [`SearchContext::search`] answers one mesh
//!   query with [`Options`] (pruning rules, and what an endpoint on an ambiguous vertex means).
//! - [`PolyanyaPlanner`]: Polyanya behind the common grid [`taut_grid::Planner`] trait, on a
//!   mesh of a grid's free space, with the grid's endpoint rules.
//!
//! `docs/polyanya.md` states the conventions and the search's invariants.
//!
//! `examples/polyanya_grid_mesh.rs` is a whole program: it meshes a grid map, answers a grid
//! query and a mesh query between fractional points
//! (`cargo run --release -p taut-polyanya --example polyanya_grid_mesh`).
//!
//! # Example
//! ```
//! use taut_mesh::{MeshAnswer, MeshPoint, parse_mesh};
//! use taut_polyanya::{Options, SearchContext};
//! use taut_grid::Status;
//!
//! // Two triangles forming the unit square, sharing the diagonal 0-2.
//! let mesh = parse_mesh(
//!     "mesh 2  4 2
//!      0 0 3 0 1 -1   1 0 2 0 -1   1 1 3 1 0 -1   0 1 2 1 -1
//!      3 0 1 2 1 -1 -1   3 0 2 3 -1 0 -1",
//! )
//! .unwrap();
//! let (mut ctx, mut answer) = (SearchContext::new(), MeshAnswer::default());
//! let (s, t) = (MeshPoint::new(0.0, 0.0), MeshPoint::new(1.0, 1.0));
//! assert_eq!(ctx.search(&mesh, s, t, &Options::default(), &mut answer), Ok(Status::Found));
//! assert!((answer.length - 2f64.sqrt()).abs() < 1e-12);
//! ```

mod planner;
mod search;

pub use planner::PolyanyaPlanner;
pub use search::{Options, SearchContext};
