//! Compressed path databases on navigation meshes, and End Point Search.
//!
//! Shen, Cheema, Harabor and Stuckey (IJCAI 2020) answer Euclidean shortest-path queries on a
//! static map with preprocessing:
//! - [`Corners`]: the convex corners of a mesh's obstacles (the only points where shortest
//!   paths turn);
//! - [`Graph`]: which corners see each other (the co-visible graph), found by one
//!   observable-only Polyanya expansion per corner;
//! - a compressed path database: for every pair of corners, the first move of a shortest
//!   path, run-length encoded per source row;
//! - End Point Search: two resumable visibility searches from the query's ends meet through
//!   the database, giving a first path within microseconds and a proven optimum soon after.

mod corners;
mod error;
mod graph;

pub use corners::{Corners, NO_CORNER};
pub use error::GraphError;
pub use graph::{Graph, visible_corners};
mod cpd;
mod eps;

pub use cpd::{Cpd, Move};
pub use eps::{
    Eps, EpsContext, EpsPlanner, EpsSetupError, EpsStats, Progress, Solution, Stop,
};
